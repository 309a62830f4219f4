"""Recipes with cells and mitigations files for the `recipe` target (issue 46): the sizes where
loading was quadratic (10^4 and 10^5 mitigations, cells at and past max_cells), stacks written
several ways, names at and past their limits, and the shapes a --mitigations-file takes. A seed
holding the line `#--- mitigations file ---` is a recipe followed by a mitigations file (see
recipe_fuzz.cpp)."""
from .common import REPEATED, dumps

MAX_CELLS = 4096
SEPARATOR = "\n#--- mitigations file ---\n"


def name(i):
    """A short distinct name (base 36), so 10^5 definitions fit in the 1 MiB a file may hold."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        i, r = divmod(i, 36)
        text = digits[r] + text
        if i == 0:
            return text.rjust(4, "0")


def recipe(axis, mitigations="", diagnostics="", diagnostic_axis="[none]", extra=""):
    text = f"schema_version: 1\nmode: probe\nmitigation_axis: {axis}\ndiagnostic_axis: {diagnostic_axis}\n"
    if mitigations:
        text += f"mitigations: {mitigations}\n"
    if diagnostics:
        text += f"diagnostics: {diagnostics}\n"
    return text + extra


def flow(items):
    return "{" + ", ".join(items) + "}"


def many_defined(n):
    return recipe(f"[none, {name(0)}]", flow(f"{name(i)}: {{}}" for i in range(n)))


def axis_of(n, diagnostics=1):
    """n mitigations on the axis (defined in a mitigations file) x `diagnostics` diagnostics."""
    axis = "[none, " + ", ".join(name(i) for i in range(n)) + "]"
    diagnostic_names = [f"d{i}" for i in range(diagnostics - 1)]
    defs = flow(f"{d}: []" for d in diagnostic_names) if diagnostic_names else ""
    text = recipe(axis, "", defs, "[" + ", ".join(["none"] + diagnostic_names) + "]")
    return text + SEPARATOR + "{" + ",".join(f'"{name(i)}":{{}}' for i in range(n)) + "}"


def stacks():
    defs = flow(f"m{i}: {{env: {{V{i}: x}}}}" for i in range(64))
    yield "stack-reordered", recipe("[none, m1+m2, m2+m1]", defs)
    yield "stack-spaced", recipe("[none, m1+m2, 'm1 + m2', ' m1+ m2 ']", defs)
    yield "stack-of-64", recipe("[none, " + "+".join(f"m{i}" for i in range(64)) + "]", defs)
    yield "stack-repeated", recipe("[none, m1+m1]", defs)
    yield "stack-none", recipe("[none, none+m1, m1+none]", defs)
    yield "stack-empty-parts", recipe("[none, '+', 'm1+', '+m1', '++']", defs)
    clashing = flow(f"c{i}: {{env: {{SAME: v{i}}}, unset: [U{i}], trials: {i + 1}}}"
                    for i in range(1000))
    yield "stack-clash-1000", recipe("[none, " + "+".join(f"c{i}" for i in range(1000)) + "]",
                                     clashing)


def names():
    longest = "n" * 100
    yield "name-at-limit", recipe(f"[none, {longest}]", flow([f"{longest}: {{}}"]),
                                  flow([f"{'d' * 100}: []"]), f"[none, {'d' * 100}]")
    yield "name-past-limit", recipe(f"[none, {longest}x]", flow([f"{longest}x: {{}}"]))
    yield "reserved-cells", recipe("[none, result, matrix, gate, report]",
                                   flow(["result: {}", "matrix: {}", "gate: {}", "report: {}"]),
                                   flow(["json: []", "md: []", "html: []"]),
                                   "[none, json, md, html]")
    yield "hostile-names", recipe("['..', '../x', 'a/b', '.h', '-x', '\\0']",
                                  flow(["'..': {}", "'a/b': {}"]))


def mitigations_files():
    base = recipe("[none, a]")
    yield "file-10e5", base + SEPARATOR + "{" + ",".join(
        f'"{name(i)}":{{}}' for i in range(REPEATED)) + ',"a":{}}'
    yield "file-duplicate", base + SEPARATOR + '{"a":{},"a":{"env":{"X":"1"}}}'
    yield "file-redefines-recipe", recipe("[none, a]", "{a: {}}") + SEPARATOR + '{"a":{}}'
    yield "file-not-strict", base + SEPARATOR + '{"a":{},}'
    yield "file-yaml", base + SEPARATOR + "a: {env: {X: '1'}}\n"
    yield "file-nul-args", base + SEPARATOR + dumps({"a": {"args": ["x\u0000y"]}})
    yield "file-deep", base + SEPARATOR + '{"a":{"env":' + "[" * 100_000 + "]" * 100_000 + "}}"
    yield "file-every-key", base + SEPARATOR + dumps(
        {"a": {"env": {f"V{i}": "x" * 64 for i in range(10_000)}, "unset": ["U"],
               "args": ["--x"] * 10_000, "command": ["/bin/true"], "trials": 1_000_000}})
    yield "file-empty", base + SEPARATOR


def recipe_seeds():
    yield "defined-10e4", many_defined(10_000)
    yield "defined-10e5", many_defined(REPEATED)
    yield "cells-at-limit", axis_of(MAX_CELLS // 2 - 1, 2)
    yield "cells-past-limit", axis_of(MAX_CELLS // 2, 2)
    yield "axis-10e5", axis_of(REPEATED)
    yield "diagnostics-10e4", recipe("[none]", "", flow(f"{name(i)}: [callgrind]"
                                                        for i in range(10_000)),
                                     f"[none, {name(0)}, {name(1)}]")
    yield "confound-missing-cell", recipe("[none, a]", "{a: {}}", extra=(
        "confound: {threshold: 1.05, baseline_cell: nonexistent, fail: true}\n"))
    yield from stacks()
    yield from names()
    yield from mitigations_files()
