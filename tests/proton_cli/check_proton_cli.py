"""Checks aorta's proton wraps against the real Proton of one installed Triton.

For each proton option set, aorta (`sweep run --dry-run`) prints the `mode: cli` wrap; this script
runs that argv with the given interpreter and reads only how far Proton's own argparse let it get.
On a machine without a GPU the run always fails afterwards (no driver), so the question is just:
did argparse accept every flag and value aorta rendered? The expected answer depends on the Triton
version (what each release's CLI accepts), and is stated per case below. It also checks that
`triton.profiler.start` takes the keyword arguments the `mode: env` payloads pass it.

usage: check_proton_cli.py --aorta AORTA --python PYTHON [--work DIR]
Exit 0 when every case matches, 1 when one does not, 77 when PYTHON has no triton.
"""

import argparse
import inspect
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ENV_MODE_KEYWORDS = ("context", "data", "backend", "mode", "hook")


def version_tuple(text):
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2])


# (name, proton options, predicate(version) -> does that Triton's CLI accept the wrap?)
CASES = [
    ("auto", {}, lambda v: True),
    ("cupti", {"backend": "cupti"}, lambda v: True),
    ("cupti-pcsampling", {"backend": "cupti", "backend_mode": "pcsampling"}, lambda v: True),
    ("instrumentation-default",
     {"backend": "instrumentation", "instrumentation_mode": "default"}, lambda v: True),
    ("instrumentation-granularity",
     {"backend": "instrumentation", "granularity": "warp"}, lambda v: True),
    ("context-python-data-trace", {"context": "python", "data": "trace"}, lambda v: True),
    # rocprofiler joined -b's choices in 3.8.0 (libproton.get_available_profilers).
    ("rocprofiler", {"backend": "rocprofiler"}, lambda v: v >= (3, 8)),
    # 3.5's -k offered None|launch; triton is back from 3.6.
    ("hook-triton", {"hook": "triton"}, lambda v: v != (3, 5)),
    # format: naming Proton's default renders no flag; any other format is refused by aorta under
    # mode: cli (see cli_has_no_format_flag).
    ("format-hatchet", {"format": "hatchet"}, lambda v: True),
    ("data-trace-format-chrome_trace", {"data": "trace", "format": "chrome_trace"},
     lambda v: True),
]


def cli_has_no_format_flag(python):
    """aorta refuses format: hatchet_msgpack under mode: cli because Proton's CLI cannot choose an
    output format (proton_options.cpp, check_format). True while that holds for this Triton: its
    --help lists no option about the output format. (ok, detail)"""
    probe = subprocess.run([python, "-m", "triton.profiler.proton", "--help"],
                           capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return False, f"--help failed: {probe.stderr.strip().splitlines()[-1:]}"
    flags = re.findall(r"^\s+(-[^\s,]+(?:, --[^\s]+)?)", probe.stdout, re.MULTILINE)
    formats = [f for f in flags if "format" in f or "-f" == f.split(",")[0]]
    if formats:
        return False, (f"its CLI now has {formats}: render proton format: under mode: cli "
                       "instead of refusing it")
    return True, f"flags {flags}"


def triton_version(python):
    probe = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('triton'))"],
        capture_output=True, text=True, check=False)
    return probe.stdout.strip() if probe.returncode == 0 else None


def start_keywords(python, function="start"):
    probe = subprocess.run(
        [python, "-c", "import inspect, json, triton.profiler as p; "
         f"print(json.dumps(list(inspect.signature(p.{function}).parameters)))"],
        capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return None, probe.stderr.strip().splitlines()[-1:]
    return json.loads(probe.stdout), None


def wrapped_argv(aorta, python, options, work):
    recipe = os.path.join(work, "recipe.yaml")
    with open(recipe, "w", encoding="utf-8") as handle:
        handle.write("schema_version: 1\ncollect:\n  proton:\n    mode: cli\n")
        for key, value in options.items():
            handle.write(f"    {key}: {value}\n")
    script = os.path.join(work, "payload.py")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write("import sys\nprint('payload ran', sys.argv[1:])\n")
    result = subprocess.run(
        [aorta, "sweep", "run", "--recipe", recipe, "--output", os.path.join(work, "out"),
         "--dry-run", "--", python, script, "--size", "3"],
        capture_output=True, text=True, check=False)
    match = re.search(r"would run: (.*)", result.stdout)
    if result.returncode != 0 or not match:
        raise RuntimeError(f"aorta --dry-run failed ({result.returncode}):\n{result.stdout}"
                           f"{result.stderr}")
    return shlex.split(match.group(1))


def argparse_refusal(stderr):
    """The line of Proton's argparse error, or None when argparse let the run through."""
    for line in stderr.splitlines():
        if re.search(r"proton(\.py)?: error: ", line):
            return line.strip()
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--work")
    args = parser.parse_args()

    version = triton_version(args.python)
    if version is None:
        print(f"check_proton_cli: {args.python} has no triton package; nothing to check")
        return 77
    numeric = version_tuple(version)
    print(f"check_proton_cli: Triton {version} at {args.python}")
    failures = 0

    keywords, error = start_keywords(args.python)
    if keywords is None:
        print(f"FAIL  triton.profiler.start could not be inspected: {error}")
        failures += 1
    else:
        missing = [k for k in ENV_MODE_KEYWORDS if k not in keywords]
        state = "ok  " if not missing else "FAIL"
        failures += bool(missing)
        print(f"{state}  start() takes the env-mode keywords {list(ENV_MODE_KEYWORDS)}"
              + (f"; missing {missing}" if missing else ""))

    # mode: env's format: goes to proton.finalize(output_format=...).
    finalize_keywords, error = start_keywords(args.python, "finalize")
    takes_format = finalize_keywords is not None and "output_format" in finalize_keywords
    failures += not takes_format
    print(f"{'ok  ' if takes_format else 'FAIL'}  finalize() takes output_format"
          + (f" ({error})" if error else f": {finalize_keywords}"))

    no_flag, detail = cli_has_no_format_flag(args.python)
    failures += not no_flag
    print(f"{'ok  ' if no_flag else 'FAIL'}  the Proton CLI has no output-format flag: {detail}")

    work = args.work or tempfile.mkdtemp(prefix="aorta-proton-cli-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_PROTON_DISABLE="0")
    for name, options, accepted_by in CASES:
        argv = wrapped_argv(args.aorta, args.python, options, work)
        run = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300,
                             check=False)
        refusal = argparse_refusal(run.stderr)
        expected = accepted_by(numeric)
        ok = (refusal is None) == expected
        failures += not ok
        verdict = "accepted" if refusal is None else f"refused ({refusal})"
        print(f"{'ok  ' if ok else 'FAIL'}  {name}: {verdict}; expected "
              f"{'accepted' if expected else 'refused'} by Triton {version}")
        print(f"      {' '.join(shlex.quote(a) for a in argv[1:])}")
    print(f"check_proton_cli: Triton {version}: {len(CASES) + 3 - failures} passed, "
          f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
