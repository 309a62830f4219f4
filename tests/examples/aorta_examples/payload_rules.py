"""Rules every Python payload follows: env-mode session variables are read, the __main__ block
exits only on failure, and usage errors do not exit 2."""

import ast
import sys

# What aorta's env-mode bundle can export, minus DIR (the name already carries the directory).
SESSION_SUFFIXES = ("NAME", "CONTEXT", "DATA", "BACKEND", "MODE", "HOOK")


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
