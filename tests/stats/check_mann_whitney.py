"""aorta's Mann-Whitney U (harness/src/baseline/statistics.cpp) against scipy.stats.mannwhitneyu.

Random sample pairs, seeded: sizes 1..40 per side, continuous values, heavily tied integers and
shifted distributions, so both SciPy code paths (exact for small untied samples, asymptotic with
tie and continuity correction otherwise) are exercised. U must agree exactly, p to 1e-9 relative
(1e-12 absolute). Exit 0 when all agree, 1 with the first disagreements, 77 when SciPy is missing.
"""

import argparse
import random
import subprocess
import sys

try:
    import scipy
    from scipy.stats import mannwhitneyu
except ImportError as exc:
    print(f"check_mann_whitney: SciPy is not importable by {sys.executable} ({exc}); run "
          "ci/scipy-venv.sh and configure with -DAORTA_SCIPY_PYTHON=<its python>")
    sys.exit(77)


def sample(rng, n, kind, shift):
    if kind == "continuous":
        return [rng.lognormvariate(0.0, 0.3) * (1.0 + shift) for _ in range(n)]
    if kind == "ties":
        return [float(rng.randint(0, 4) + (1 if shift > 0 and rng.random() < shift else 0))
                for _ in range(n)]
    # "timings": what the gate sees, a few ms with jitter rounded to microseconds.
    return [round(2.0 * (1.0 + shift) + rng.gauss(0.0, 0.05), 3) for _ in range(n)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = []
    for _ in range(args.pairs):
        kind = rng.choice(["continuous", "ties", "timings"])
        n1 = rng.randint(1, 40) if rng.random() < 0.5 else rng.randint(1, 9)
        n2 = rng.randint(1, 40) if rng.random() < 0.5 else rng.randint(1, 9)
        shift = rng.choice([0.0, 0.0, 0.05, 0.1, 0.3])
        pairs.append((sample(rng, n1, kind, shift), sample(rng, n2, kind, 0.0)))
    text = "".join(" ".join(repr(v) for v in x) + " | " + " ".join(repr(v) for v in y) + "\n"
                   for x, y in pairs)
    ours = subprocess.run([args.probe], input=text, capture_output=True, text=True, check=True)
    lines = ours.stdout.splitlines()
    if len(lines) != len(pairs):
        print(f"check_mann_whitney: probe answered {len(lines)} lines for {len(pairs)} pairs")
        return 1
    failures = []
    exact_count = 0
    for (x, y), line in zip(pairs, lines):
        u, p, exact = line.split()
        u, p = float(u), float(p)
        exact_count += exact == "1"
        reference = mannwhitneyu(x, y, alternative="two-sided")
        if u != float(reference.statistic) or abs(p - reference.pvalue) > 1e-12 + 1e-9 * abs(
                reference.pvalue):
            failures.append(f"x={x} y={y}: aorta U={u} p={p!r} (exact={exact}), scipy "
                            f"U={reference.statistic} p={reference.pvalue!r}")
    print(f"check_mann_whitney: {len(pairs)} pairs ({exact_count} on the exact path) against "
          f"SciPy {scipy.__version__}: {len(pairs) - len(failures)} agree")
    for failure in failures[:10]:
        print("  MISMATCH " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
