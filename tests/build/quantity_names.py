#!/usr/bin/env python3
"""Refuses a `check_quantity::` enumerator named outside the three files that declare quantities.

A quantity is declared once (docs/architecture.md, "How to add a quantity"): the enum in
aorta/check.hpp, its form in checks/check_forms.hpp and its row in metrics/quantity_table.cpp.
Code elsewhere that names an enumerator is a place a new or renamed quantity must be threaded
through by hand; it reaches a row through the table's accessors instead (kernel_time_row(), ...).

usage: quantity_names.py HARNESS_DIR
  Exit 0 when only the allowed files name an enumerator, 1 with each other file and line otherwise.
"""
import re
import sys
from pathlib import Path

ALLOWED = {
    Path("include/aorta/check.hpp"),
    Path("src/checks/check_forms.hpp"),
    Path("src/metrics/quantity_table.cpp"),
}
NAMED = re.compile(r"\bcheck_quantity::\w")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 64
    root = Path(sys.argv[1])
    sources = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in {".cpp", ".hpp"})
    if not sources:
        print(f"quantity_names: no .cpp or .hpp under {root}; pass the harness directory",
              file=sys.stderr)
        return 64
    offending = []
    for path in sources:
        relative = path.relative_to(root)
        if relative in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if NAMED.search(line):
                offending.append(f"{relative}:{number}: {line.strip()}")
    for entry in offending:
        print(entry)
    if offending:
        print(f"{len(offending)} line(s) name a check_quantity enumerator outside "
              f"{', '.join(sorted(map(str, ALLOWED)))}: reach the row through the quantity "
              f"table's accessors (metrics/quantity_table.hpp) instead")
        return 1
    print(f"quantity_names: {len(sources)} sources, enumerators named only in the "
          f"{len(ALLOWED)} declaring files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
