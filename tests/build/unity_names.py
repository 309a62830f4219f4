#!/usr/bin/env python3
"""Refuses an internal name that two sources of one unity-built target both define.

A unity build (AORTA_UNITY_BUILD) compiles a batch of sources as one translation unit, so the
anonymous namespaces of every source in a batch become one. Two helpers of the same name and
signature fail to compile, but two of the same name with different parameters become overloads,
and a call can silently reach the other source's helper. Which sources share a batch changes
whenever a source is added, so this check holds for every pair of the target's sources: a name
defined at namespace scope inside an anonymous namespace (or `static`) in one source may not be
defined at namespace scope in another.

usage: unity_names.py TARGET SOURCE_LIST BASE_DIR
  SOURCE_LIST: a file with one source path a line (CMake writes it); relative paths are taken
  from BASE_DIR. Exit 0 when no name is shared, 1 with each shared name and its sources otherwise.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

RAW_STRING = re.compile(r'R"([^(\s]{0,16})\((.*?)\)\1"', re.S)
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
CHAR = re.compile(r"'(?:[^'\\\n]|\\.)+'")
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"//[^\n]*")
PREPROCESSOR = re.compile(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", re.M)
TYPE_HEAD = re.compile(r"^(?:template\s*<.*>\s*)?(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)",
                       re.S)
NAME_BEFORE = re.compile(r"(?<![\w:])(\w+)\s*(?:\(|=|\{|\[)")
NOT_NAMES = {"if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype",
             "static_assert", "operator", "noexcept", "requires", "throw"}


def code_only(text):
    """The source with comments, strings and preprocessor lines blanked, newlines kept."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    for pattern in (RAW_STRING, BLOCK_COMMENT, LINE_COMMENT, STRING, CHAR, PREPROCESSOR):
        text = pattern.sub(blank, text)
    return text


def statement_name(head):
    """The name a namespace-scope statement defines, or None (using, aliases, qualified names)."""
    head = " ".join(head.split())
    if not head or head.startswith(("using ", "namespace ", "extern ", "friend ")):
        return None
    typed = TYPE_HEAD.match(head)
    if typed:
        return typed.group(1)
    match = NAME_BEFORE.search(head)
    if not match or match.group(1) in NOT_NAMES:
        return None
    return match.group(1)


def definitions(path):
    """(name, internal) for each definition at namespace scope of one source."""
    text = code_only(path.read_text(errors="replace"))
    found = []
    scopes = []  # "anon", "named" or "other", one per open brace
    head_start = 0
    for brace in re.finditer(r"[{};]", text):
        i, c = brace.start(), brace.group(0)
        head = text[head_start:i]
        at_namespace_scope = all(s != "other" for s in scopes)
        if c == "{":
            if re.search(r"\bnamespace\s*$", head):
                scopes.append("anon")
            elif re.search(r"\bnamespace\s+[\w:]+\s*$", head) or re.search(r'extern\s*$', head):
                scopes.append("named")
            else:
                if at_namespace_scope:
                    name = statement_name(head)
                    if name:
                        found.append((name, "anon" in scopes or head.lstrip().startswith("static")))
                scopes.append("other")
        elif c == "}":
            if scopes:
                scopes.pop()
        elif at_namespace_scope and ("=" in head or re.search(r"\w\s*\[", head)):
            name = statement_name(head)
            if name:
                found.append((name, "anon" in scopes or head.lstrip().startswith("static")))
        head_start = i + 1
    return found


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    target, source_list, base = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    sources = [line.strip() for line in source_list.read_text().splitlines() if line.strip()]
    sources = [base / s if not Path(s).is_absolute() else Path(s) for s in sources]
    sources = [s for s in sources if s.suffix in (".cpp", ".cc", ".cxx")]
    if not sources:
        print(f"unity_names: {source_list} lists no C++ source of {target}", file=sys.stderr)
        return 2
    where = defaultdict(set)
    internal = defaultdict(set)
    for source in sources:
        for name, is_internal in definitions(source):
            where[name].add(source)
            if is_internal:
                internal[name].add(source)
    shared = sorted(n for n, files in internal.items() if len(where[n]) > 1)
    for name in shared:
        files = ", ".join(str(f.relative_to(base)) if f.is_relative_to(base) else str(f)
                          for f in sorted(where[name]))
        print(f"unity_names: {target}: '{name}' is defined in {len(where[name])} sources "
              f"({files}); in one batch a call can reach the other source's '{name}'. "
              "Fix: give the internal one a name of its own, or share one definition.")
    print(f"unity_names: {target}: {len(sources)} sources, "
          f"{sum(len(v) for v in internal.values())} internal definitions, "
          f"{len(shared)} shared names")
    return 1 if shared else 0


if __name__ == "__main__":
    sys.exit(main())
