"""The import-order guard: Proton must certainly be imported before any possible torch import
(the reverse order hangs Triton 3.8.0 at exit)."""

import ast

PROTON_MODULES = ("triton.profiler", "triton._C.libproton")
TORCH_MODULE = "torch"


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
