#!/usr/bin/env python3
"""Hold every profiling example to the conventions of examples/profiling/README.md.

    check_examples.py REPO_ROOT [--aorta PATH]   check the tree (and `aorta validate` each recipe)
    check_examples.py --self-test                prove the AST guards catch what they claim to

Standard library only, so it runs on any CI host with no GPU and no packages. Exits 0 when every
check holds, 1 when one fails (each failure is printed with the file it concerns), 64 on usage.
"""

import argparse
import sys
from pathlib import Path

# Run from the source tree: leave no __pycache__ behind in it.
sys.dont_write_bytecode = True

from aorta_examples.recipes import validate_recipes  # noqa: E402
from aorta_examples.self_test import self_test  # noqa: E402
from aorta_examples.tree import check_tree  # noqa: E402


class UsageParser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def main(argv=None):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, help="repository root")
    parser.add_argument("--aorta", help="aorta executable: also run `aorta validate` on each recipe")
    parser.add_argument("--validate-only", action="store_true",
                        help="with --aorta: only run `aorta validate` on each recipe")
    parser.add_argument("--self-test", action="store_true", help="exercise the guards and exit")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.root is None:
        parser.error("give the repository root (or --self-test)")
    if args.validate_only and not args.aorta:
        parser.error("--validate-only needs --aorta")
    root = args.root.resolve()
    report = validate_recipes(root, args.aorta) if args.validate_only else check_tree(root, args.aorta)
    for failure in report.failures:
        print(f"FAIL: {failure}")
    print(f"check_examples: {report.checks} checks, {len(report.failures)} failure(s)")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
