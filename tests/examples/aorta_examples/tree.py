"""The examples/profiling tree: every category has examples, every example its README, payload
and recipe, and every payload the rules of its category."""

import subprocess

from .import_order import import_order_problem
from .payload_rules import main_block_problems, missing_session_variables, usage_parser_problem
from .recipes import check_recipe
from .report import Report

CATEGORIES = ("rocprof", "proton", "ncu", "callgrind", "gbench", "nvbench")
# Categories whose examples run on the CPU: nothing to measure on the H200.
CPU_CATEGORIES = ("callgrind", "gbench")
PAYLOAD_SUFFIXES = (".py", ".hip", ".cu", ".cpp", ".sh")
FORBIDDEN_PATH_PREFIXES = ("/home/", "/apps/", "/Users/", "/root/")


def example_dirs(profiling):
    for category in CATEGORIES:
        directory = profiling / category
        if directory.is_dir():
            for example in sorted(p for p in directory.iterdir() if p.is_dir()):
                yield category, example


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
        report.expect("## Provenance" in readme_text, f"{rel}/README.md: no `## Provenance` section")
        # A GPU example says what it measured on the GPU machine, which is an H200 or an H100.
        if category not in CPU_CATEGORIES:
            report.expect("## Measured on H200" in readme_text or "## Measured on H100" in readme_text,
                          f"{rel}/README.md: no `## Measured on H200` (or H100) section")
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
