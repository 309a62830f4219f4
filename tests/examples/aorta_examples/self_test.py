"""Prove the AST guards catch what they claim to, on synthetic sources."""

from .import_order import import_order_problem
from .payload_rules import (SESSION_SUFFIXES, main_block_problems, missing_session_variables,
                            usage_parser_problem)
from .recipe_subset import load_recipe_subset
from .recipes import proton_option_problems

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
