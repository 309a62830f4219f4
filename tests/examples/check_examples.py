#!/usr/bin/env python3
"""Hold every profiling example to the conventions of examples/profiling/README.md.

    check_examples.py REPO_ROOT [--aorta PATH]   check the tree (and `aorta validate` each recipe)
    check_examples.py --self-test                prove the AST guards catch what they claim to

Standard library only, so it runs on any CI host with no GPU and no packages. Exits 0 when every
check holds, 1 when one fails (each failure is printed with the file it concerns), 64 on usage.
"""

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

CATEGORIES = ("rocprof", "proton", "ncu", "callgrind")
PAYLOAD_SUFFIXES = (".py", ".hip", ".cu", ".cpp", ".sh")
FORBIDDEN_PATH_PREFIXES = ("/home/", "/apps/", "/Users/", "/root/")
# What aorta's env-mode bundle can export, minus DIR (the name already carries the directory).
SESSION_SUFFIXES = ("NAME", "CONTEXT", "DATA", "BACKEND", "MODE", "HOOK")
PROTON_MODULES = ("triton.profiler", "triton._C.libproton")
TORCH_MODULE = "torch"

PROTON_OPTION_DOMAINS = {
    "mode": {"cli", "env"},
    "backend": {"auto", "cupti", "rocprofiler", "roctracer", "instrumentation"},
    "backend_mode": {"pcsampling", "periodic_flushing"},
    "context": {"shadow", "python"},
    "data": {"tree", "trace"},
    "instrumentation_mode": {"default", "mma", "pcsampling"},
    "granularity": {"cta", "warp", "warp_2", "warp_4", "warp_8", "warp_group", "warp_group_2",
                    "warp_group_4", "warp_group_8"},
    "hook": {"triton"},
}
BACKEND_MODES = {"rocprofiler": {"pcsampling", "periodic_flushing"},
                 "roctracer": {"periodic_flushing"},
                 "cupti": {"pcsampling", "periodic_flushing"}}
COLLECTOR_KEYS = {
    "rocprof": {"trace", "output_format", "stats", "pmc", "kernel_include_regex", "summary_units"},
    "proton": set(PROTON_OPTION_DOMAINS),
    "ncu": {"metrics", "clock_control", "kernel_name", "launch_skip", "launch_count"},
    "callgrind": {"toggle_collect", "cache_sim", "trace_children"},
}


# --- a YAML subset: what our recipes use (mappings, block and flow lists, quoted scalars) -------

def _scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(part) for part in inner.split(",")] if inner else []
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*", text):
        return float(text)
    return None if text in ("", "~", "null") else text


def _strip_comment(line):
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index].rstrip()
    return line.rstrip()


def load_recipe_subset(text):
    """Parse the YAML subset the example recipes are written in; ValueError names the line."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if line.strip():
            lines.append((number, len(line) - len(line.lstrip()), line.strip()))

    def block(start, indent):
        if start < len(lines) and lines[start][2].startswith("- "):
            items, index = [], start
            while index < len(lines) and lines[index][1] == indent and lines[index][2].startswith("- "):
                items.append(_scalar(lines[index][2][2:]))
                index += 1
            return items, index
        mapping, index = {}, start
        while index < len(lines) and lines[index][1] == indent:
            number, _, content = lines[index]
            key, sep, rest = content.partition(":")
            if not sep:
                raise ValueError(f"line {number}: expected 'key: value', got {content!r}")
            index += 1
            if rest.strip():
                mapping[key.strip()] = _scalar(rest)
            elif index < len(lines) and lines[index][1] > indent:
                mapping[key.strip()], index = block(index, lines[index][1])
            else:
                mapping[key.strip()] = None
        return mapping, index

    document, end = block(0, 0) if lines else ({}, 0)
    if end != len(lines):
        raise ValueError(f"line {lines[end][0]}: unexpected indentation")
    return document


# --- the import-order guard -------------------------------------------------------------------

def _classify(module):
    if module is None:
        return None
    if any(module == name or module.startswith(name + ".") for name in PROTON_MODULES):
        return "proton"
    if module == TORCH_MODULE or module.startswith(TORCH_MODULE + "."):
        return "torch"
    return None


def _import_kinds(node):
    """'proton'/'torch' for each import this node performs that can be attributed."""
    if isinstance(node, ast.Import):
        return [kind for alias in node.names if (kind := _classify(alias.name))]
    if isinstance(node, ast.ImportFrom):
        if node.level or node.module is None:
            return []  # relative: which package it names depends on where the file sits
        kinds = [_classify(node.module)]
        kinds += [_classify(f"{node.module}.{alias.name}") for alias in node.names]
        return [kind for kind in dict.fromkeys(kinds) if kind][:1]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        func = node.func
        dynamic = (isinstance(func, ast.Name) and func.id in ("__import__", "import_module")) or (
            isinstance(func, ast.Attribute) and func.attr == "import_module")
        if dynamic and isinstance(node.args[0].value, str):
            kind = _classify(node.args[0].value)
            return [kind] if kind else []
    return []


def load_time_imports(tree):
    """(position, kind, certain) for every attributable import that can run at module load.

    Bodies of try/with/class run at load time unconditionally; if/else, loop bodies and except
    handlers may not (those imports are "possible", never "certain"); function bodies do not run
    at load time at all and are not looked at.
    """
    found = []

    def visit_expressions(stmt, certain):
        for node in ast.walk(stmt):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            for kind in _import_kinds(node) if isinstance(node, ast.Call) else []:
                found.append(((node.lineno, node.col_offset), kind, certain))

    def visit(body, certain):
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for kind in _import_kinds(stmt):
                found.append(((stmt.lineno, stmt.col_offset), kind, certain))
            if isinstance(stmt, ast.ClassDef):
                visit(stmt.body, certain)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                visit(stmt.body, certain)
            elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
                visit(stmt.body, certain)
                visit(stmt.finalbody, certain)
                visit(stmt.orelse, False)
                for handler in stmt.handlers:
                    visit(handler.body, False)
            elif isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While)):
                visit(stmt.body, False)
                visit(stmt.orelse, False)
            elif hasattr(ast, "Match") and isinstance(stmt, ast.Match):
                for case in stmt.cases:
                    visit(case.body, False)
            elif isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)):
                visit_expressions(stmt, certain)

    visit(tree.body, True)
    return sorted(found)


def import_order_problem(source, label):
    """None when Proton is certainly imported before any possible torch import (or either is
    absent); otherwise the reason."""
    imports = load_time_imports(ast.parse(source, filename=label))
    torch = [position for position, kind, _ in imports if kind == "torch"]
    proton_any = [position for position, kind, _ in imports if kind == "proton"]
    if not torch or not proton_any:
        return None
    proton = [position for position, kind, certain in imports if kind == "proton" and certain]
    if not proton:
        return (f"{label}: triton.profiler is imported only conditionally (line "
                f"{proton_any[0][0]}), which is no evidence it loads before torch (line "
                f"{torch[0][0]}); import it unconditionally before torch")
    if proton[0] > torch[0]:
        return (f"{label}: torch may be imported at line {torch[0][0]} before triton.profiler at "
                f"line {proton[0][0]}; import Proton first (`# isort: skip  # noqa: I001`) — the "
                "reverse order hangs Triton 3.8.0 at exit")
    return None


# --- env-mode session variables ---------------------------------------------------------------

def _literal_text(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(v.value for v in node.values)
    return None


def _is_environ(node):
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ")


def environment_reads(source):
    """Names read from the environment through os.environ.get/[...]/pop, os.getenv or `in`."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        argument = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("get", "pop") and _is_environ(
                    func.value):
                argument = node.args[0]
            elif (isinstance(func, ast.Attribute) and func.attr == "getenv") or (
                    isinstance(func, ast.Name) and func.id == "getenv"):
                argument = node.args[0]
        elif isinstance(node, ast.Subscript) and _is_environ(node.value):
            argument = node.slice
        elif isinstance(node, ast.Compare) and any(_is_environ(c) for c in node.comparators):
            argument = node.left
        text = _literal_text(argument) if argument is not None else None
        if text:
            names.add(text)
    return names


def missing_session_variables(source):
    reads = environment_reads(source)
    return [suffix for suffix in SESSION_SUFFIXES if f"AORTA_PROTON_{suffix}" not in reads]


# --- the __main__ block -----------------------------------------------------------------------

def main_block(tree):
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare):
            sides = [stmt.test.left, *stmt.test.comparators]
            if any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
                    _literal_text(s) == "__main__" for s in sides):
                return stmt
    return None


def run_main_block(block, returned):
    """Run only the __main__ block, with main() stubbed to return `returned`; the exit code it
    raises (None when it raises nothing)."""
    module = ast.fix_missing_locations(ast.Module(body=block.body, type_ignores=[]))
    namespace = {"main": lambda *args, **kwargs: returned, "sys": sys, "__name__": "__main__"}
    try:
        exec(compile(module, "<__main__ block>", "exec"), namespace)  # noqa: S102
    except SystemExit as stop:
        return 0 if stop.code is None else stop.code
    return None


def main_block_problems(source, label):
    block = main_block(ast.parse(source))
    if block is None:
        return [f"{label}: no `if __name__ == \"__main__\":` block"]
    problems = []
    try:
        if (code := run_main_block(block, 0)) is not None:
            problems.append(f"{label}: the success path raises SystemExit({code!r}); Triton 3.6.0's "
                            "Proton CLI then skips finalize() — end with `rc = main(); if rc: "
                            "sys.exit(rc)`")
        for failing in (1, 2):
            if (code := run_main_block(block, failing)) != failing:
                problems.append(f"{label}: main() returning {failing} exits with {code!r}, not "
                                f"{failing}")
    except Exception as error:  # noqa: BLE001 - any failure here is the payload's to fix
        problems.append(f"{label}: the __main__ block cannot run with main() stubbed: {error!r}")
    return problems


def usage_parser_problem(source, label):
    """argparse's own usage errors exit 2, which aorta reads as "skip": payloads must map them."""
    tree = ast.parse(source)
    if not any(isinstance(n, ast.Attribute) and n.attr == "ArgumentParser" for n in ast.walk(tree)):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Attribute) and b.attr == "ArgumentParser" for b in node.bases):
            if any(isinstance(f, ast.FunctionDef) and f.name == "error" for f in node.body):
                return None
    return (f"{label}: uses argparse without an ArgumentParser subclass overriding error(); a usage "
            "error would exit 2, which means \"skip\" to aorta — exit 64 instead")


# --- the tree ---------------------------------------------------------------------------------

class Report:
    def __init__(self):
        self.failures = []
        self.checks = 0

    def expect(self, condition, message):
        self.checks += 1
        if not condition:
            self.failures.append(message)

    def extend(self, problems):
        self.checks += 1
        self.failures.extend(problems)


def example_dirs(profiling):
    for category in CATEGORIES:
        directory = profiling / category
        if directory.is_dir():
            for example in sorted(p for p in directory.iterdir() if p.is_dir()):
                yield category, example


def check_recipe(report, category, recipe_path, rel):
    try:
        recipe = load_recipe_subset(recipe_path.read_text())
    except ValueError as error:
        report.expect(False, f"{rel}: does not parse: {error}")
        return None
    expected = {"schema_version": 1, "mode": "probe", "trials": 1, "mitigation_axis": ["none"],
                "diagnostic_axis": ["none"], "env_passthrough_mode": "inherit",
                "environment_exit_codes": [2]}
    for key, value in expected.items():
        report.expect(recipe.get(key) == value,
                      f"{rel}: {key} must be {value!r}, got {recipe.get(key)!r}")
    report.expect(str(recipe.get("ticket", "")).startswith("PROFILING-"),
                  f"{rel}: ticket must start with PROFILING-")
    report.expect(isinstance(recipe.get("timeout_per_trial"), (int, float)),
                  f"{rel}: timeout_per_trial (seconds) is missing")
    checks = recipe.get("check")
    report.expect(isinstance(checks, list) and checks and all(isinstance(c, str) for c in checks),
                  f"{rel}: needs a non-empty `check:` list of expressions")
    collect = recipe.get("collect")
    names = list(collect) if isinstance(collect, (dict, list)) else []
    report.expect(names == [category],
                  f"{rel}: collect must name exactly its category's collector [{category}], got "
                  f"{names}")
    options = collect.get(category) if isinstance(collect, dict) else None
    if category in ("rocprof", "proton", "ncu"):
        report.expect(isinstance(options, dict) and options,
                      f"{rel}: the {category} option block must be spelled out, not empty")
    if isinstance(options, dict):
        unknown = sorted(set(options) - COLLECTOR_KEYS[category])
        report.expect(not unknown, f"{rel}: unknown {category} option(s) {unknown}")
        report.expect(all(isinstance(v, str) for v in options.values()),
                      f"{rel}: collector option values must be quoted strings")
        if category == "proton":
            report.extend(proton_option_problems(options, rel))
    return options


def proton_option_problems(options, rel):
    problems = [f"{rel}: proton {key}: {value!r} not in {sorted(PROTON_OPTION_DOMAINS[key])}"
                for key, value in options.items()
                if key in PROTON_OPTION_DOMAINS and value not in PROTON_OPTION_DOMAINS[key]]
    backend = options.get("backend", "auto")
    if ("instrumentation_mode" in options or "granularity" in options) and (
            backend != "instrumentation"):
        problems.append(f"{rel}: instrumentation_mode/granularity require backend: instrumentation")
    if "backend_mode" in options and options["backend_mode"] not in BACKEND_MODES.get(backend, ()):
        problems.append(f"{rel}: backend_mode {options['backend_mode']!r} is not valid for backend "
                        f"{backend!r}")
    if options.get("mode", "cli") == "cli" and backend == "roctracer":
        problems.append(f"{rel}: roctracer pinned under mode: cli captures nothing; use mode: env")
    return problems


def validate_recipes(root, aorta):
    """Only `aorta validate` on every recipe: the real loader and guards."""
    report = Report()
    for recipe_path in sorted((root / "examples" / "profiling").glob("*/*/recipe*.yaml")):
        result = subprocess.run([aorta, "validate", str(recipe_path)],
                                capture_output=True, text=True, check=False)
        report.expect(result.returncode == 0,
                      f"{recipe_path.relative_to(root)}: `aorta validate` exited "
                      f"{result.returncode}: {result.stderr.strip()}")
    report.expect(report.checks > 0, f"{root}: no recipes found to validate")
    return report


def check_tree(root, aorta=None):
    report = Report()
    profiling = root / "examples" / "profiling"
    report.expect(profiling.is_dir(), f"{profiling}: the examples tree is missing")
    if not profiling.is_dir():
        return report
    index = profiling / "README.md"
    report.expect(index.is_file(), f"{index}: the profiling index README is missing")
    index_text = index.read_text() if index.is_file() else ""
    for category in CATEGORIES:
        report.expect(any(True for c, _ in example_dirs(profiling) if c == category),
                      f"{profiling / category}: no example for the {category} collector")
        report.expect(f"`{category}/`" in index_text,
                      f"{index}: the category {category}/ is not in the Categories table")

    for category, example in example_dirs(profiling):
        rel = example.relative_to(root)
        slug = f"{category}/{example.name}"
        report.expect(f"`{slug}`" in index_text, f"{index}: {slug} is not listed in the index")
        readme = example / "README.md"
        payloads = [p for p in sorted(example.iterdir()) if p.suffix in PAYLOAD_SUFFIXES]
        recipes = sorted(example.glob("recipe*.yaml"))
        report.expect(readme.is_file(), f"{rel}: README.md is missing")
        report.expect(payloads, f"{rel}: no payload ({', '.join(PAYLOAD_SUFFIXES)})")
        report.expect((example / "recipe.yaml").is_file(), f"{rel}: recipe.yaml is missing")
        readme_text = readme.read_text() if readme.is_file() else ""
        report.expect(category in readme_text, f"{rel}/README.md: does not name {category}")
        for payload in payloads:
            report.expect(payload.name in readme_text,
                          f"{rel}/README.md: does not name its payload {payload.name}")
        headings = ["## Provenance"] + (["## Measured on H200"] if category != "callgrind" else [])
        for heading in headings:
            report.expect(heading in readme_text, f"{rel}/README.md: no `{heading}` section")
        for path in sorted(p for p in example.iterdir() if p.is_file()):
            text = path.read_text(errors="replace")
            bad = [prefix for prefix in FORBIDDEN_PATH_PREFIXES if prefix in text]
            report.expect(not bad, f"{path.relative_to(root)}: absolute host path(s) {bad}")

        modes = set()
        for recipe_path in recipes:
            options = check_recipe(report, category, recipe_path, recipe_path.relative_to(root))
            if isinstance(options, dict):
                modes.add(options.get("mode", "cli"))
            if aorta:
                result = subprocess.run([aorta, "validate", str(recipe_path)],
                                        capture_output=True, text=True, check=False)
                report.expect(result.returncode == 0,
                              f"{recipe_path.relative_to(root)}: `aorta validate` exited "
                              f"{result.returncode}: {result.stderr.strip()}")
        for payload in (p for p in payloads if p.suffix == ".py"):
            label = str(payload.relative_to(root))
            source = payload.read_text()
            report.extend(main_block_problems(source, label))
            problem = usage_parser_problem(source, label)
            report.expect(problem is None, problem or "")
            if category == "proton":
                problem = import_order_problem(source, label)
                report.expect(problem is None, problem or "")
                if "env" in modes:
                    missing = missing_session_variables(source)
                    report.expect(not missing,
                                  f"{label}: an env-mode payload must read every session "
                                  f"variable; not read: {['AORTA_PROTON_' + s for s in missing]}")
    return report


# --- self-test: the guards on synthetic sources -----------------------------------------------

PROTON_SPELLINGS = [
    "import triton.profiler",
    "import triton.profiler as proton",
    "import triton.profiler.language as pl",
    "from triton import profiler",
    "from triton.profiler import start",
    "from triton.profiler.language import enter_scope",
    "from triton._C.libproton import proton as libproton",
    "from triton._C import libproton",
    "import triton._C.libproton",
    "import importlib\nimportlib.import_module('triton.profiler')",
    "proton = __import__('triton.profiler')",
]
TORCH_SPELLINGS = [
    "import torch",
    "import torch as t",
    "import torch.nn.functional as F",
    "from torch import nn",
    "from torch.nn import functional",
    "import os, torch",
    "import importlib\nimportlib.import_module('torch')",
    "torch = __import__('torch')",
]


def self_test():
    failures = []

    def expect(condition, message):
        if not condition:
            failures.append(message)

    def order(source):
        return import_order_problem(source, "<synthetic>")

    # Every spelling is visible to the order guard, in both roles.
    for spelling in PROTON_SPELLINGS:
        expect(order(f"{spelling}\nimport torch\n") is None, f"proton-first rejected: {spelling!r}")
        expect(order(f"import torch\n{spelling}\n") is not None, f"proton spelling unseen: {spelling!r}")
    for spelling in TORCH_SPELLINGS:
        expect(order(f"import triton.profiler\n{spelling}\n") is None,
               f"torch-after rejected: {spelling!r}")
        expect(order(f"{spelling}\nimport triton.profiler\n") is not None,
               f"torch spelling unseen: {spelling!r}")
    # Imports it cannot attribute are ignored, not guessed at.
    for unattributable in ("import importlib\nimportlib.import_module(name)",
                           "from . import torch", "from .torch import nn", "import torchvision",
                           "import tritonish.profiler"):
        expect(order(f"{unattributable}\nimport triton.profiler\nimport torch\n") is None,
               f"unattributable import counted: {unattributable!r}")
    # Load-time blocks are seen; function bodies are not.
    for wrapper in ("try:\n    {imp}\nexcept ImportError:\n    pass",
                    "if FLAG:\n    {imp}", "with ctx:\n    {imp}", "class Holder:\n    {imp}",
                    "for _ in range(1):\n    {imp}",
                    "try:\n    pass\nexcept ImportError:\n    {imp}"):
        nested = wrapper.format(imp="import torch")
        expect(order(f"{nested}\nimport triton.profiler\n") is not None,
               f"nested torch import unseen: {nested!r}")
    expect(order("def late():\n    import torch\nimport triton.profiler\nimport torch\n") is None,
           "a torch import in a function body was treated as load time")
    expect(order("try:\n    import triton.profiler\n    import torch\nexcept ImportError:\n"
                 "    raise SystemExit(2)\n") is None,
           "a proton import at the top of a try body is certain")
    # A conditional proton import is no evidence of a safe order.
    for conditional in ("if FLAG:\n    import triton.profiler",
                        "try:\n    pass\nexcept ImportError:\n    import triton.profiler",
                        "for _ in range(1):\n    import triton.profiler"):
        expect(order(f"{conditional}\nimport torch\n") is not None,
               f"conditional proton import accepted: {conditional!r}")
    expect(order("import torch\n") is None and order("import triton.profiler\n") is None,
           "the guard must skip sources with only one of the two imports")

    # Env-mode variables are read through AST nodes, not mentioned in text.
    every = "\n".join(f"os.environ.get('AORTA_PROTON_{s}')" for s in SESSION_SUFFIXES)
    expect(missing_session_variables(f"import os\n{every}\n") == [], "os.environ.get not seen")
    spellings = ["os.getenv('AORTA_PROTON_NAME')", "os.environ['AORTA_PROTON_CONTEXT']",
                 "os.environ.get(f'AORTA_PROTON_DATA', 'tree')", "'AORTA_PROTON_BACKEND' in os.environ",
                 "os.environ.pop('AORTA_PROTON_MODE', None)", "environ.get('AORTA_PROTON_HOOK')"]
    expect(missing_session_variables("import os\n" + "\n".join(spellings) + "\n") == [],
           "an environment read spelling was not seen")
    only_text = '"""Reads AORTA_PROTON_NAME AORTA_PROTON_CONTEXT AORTA_PROTON_DATA\n' \
                'AORTA_PROTON_BACKEND AORTA_PROTON_MODE AORTA_PROTON_HOOK."""\n'
    expect(missing_session_variables(only_text) == list(SESSION_SUFFIXES),
           "a docstring mention was taken for a read")
    without_hook = every.replace("os.environ.get('AORTA_PROTON_HOOK')", "")
    expect(missing_session_variables(f"import os\n{without_hook}\n") == ["HOOK"],
           "a missing variable was not reported")

    # The __main__ block: success must not raise SystemExit; failures must propagate.
    good = "rc = main()\nif rc:\n    sys.exit(rc)\n"
    for body, ok in ((good, True), ("sys.exit(main())\n", False),
                     ("raise SystemExit(main())\n", False), ("main()\n", False),
                     ("rc = main()\nif rc:\n    sys.exit(1)\n", False)):
        source = "import sys\nif __name__ == '__main__':\n" + "".join(
            f"    {line}\n" for line in body.splitlines())
        problems = main_block_problems(source, "<synthetic>")
        expect((not problems) == ok, f"main-block verdict wrong for {body!r}: {problems}")
    expect(main_block_problems("def main():\n    return 0\n", "<synthetic>"),
           "a payload without a __main__ block passed")

    # Usage errors: a plain ArgumentParser is refused, a subclass overriding error() is not.
    plain = "import argparse\nparser = argparse.ArgumentParser()\n"
    subclass = ("import argparse\nclass P(argparse.ArgumentParser):\n"
                "    def error(self, message):\n        self.exit(64, message)\n")
    expect(usage_parser_problem(plain, "<synthetic>") is not None, "plain ArgumentParser accepted")
    expect(usage_parser_problem(subclass, "<synthetic>") is None, "error() override not seen")

    # The recipe subset reader.
    recipe = load_recipe_subset("schema_version: 1  # c\ncollect:\n  proton:\n    mode: \"env\"\n"
                                "check:\n  - \"count(^a#b$) == 2\"\naxis: [none]\n")
    expect(recipe == {"schema_version": 1, "collect": {"proton": {"mode": "env"}},
                      "check": ["count(^a#b$) == 2"], "axis": ["none"]},
           f"recipe subset misread: {recipe}")
    expect(proton_option_problems({"mode": "cli", "backend": "roctracer"}, "r"),
           "roctracer under cli accepted")
    expect(proton_option_problems({"backend": "roctracer", "backend_mode": "pcsampling"}, "r"),
           "roctracer pcsampling accepted")

    for failure in failures:
        print(f"self-test FAIL: {failure}")
    print(f"check_examples self-test: {'FAILED' if failures else 'passed'}"
          f" ({len(failures)} failure(s))")
    return 1 if failures else 0


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
