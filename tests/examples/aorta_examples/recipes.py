"""Checks on an example's recipe*.yaml: the fixed probe settings, one collector of the example's
category, known option keys and valid Proton option values."""

import subprocess

from .recipe_subset import load_recipe_subset
from .report import Report

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
    "gbench": {"repetitions"},
    "nvbench": {"devices", "min_samples", "min_time", "timeout"},
}



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
