"""aorta's Wilcoxon signed-rank test (harness/src/cells/signed_rank.cpp) against scipy.stats.wilcoxon.

Random paired differences, seeded: 1..60 pairs, continuous log ratios (the confound verdict's
input), heavily tied and zero-laden integers and shifted distributions, so all three SciPy code
paths run (exact without ties or zeros, sign-flip permutation with them up to 13 pairs, normal
approximation beyond). W+ must agree exactly, each p (greater, less, two-sided) to 1e-9 relative.
Exit 0 when all agree, 1 with the first disagreements, 77 when SciPy is missing.
"""

import argparse
import math
import random
import subprocess
import sys

try:
    import scipy
    from scipy.stats import wilcoxon
except ImportError as exc:
    print(f"check_signed_rank: SciPy is not importable by {sys.executable} ({exc}); run "
          "ci/scipy-venv.sh and configure with -DAORTA_SCIPY_PYTHON=<its python>")
    sys.exit(77)


def differences(rng, n, kind, shift):
    if kind == "log_ratios":
        return [math.log((1.0 + shift) * rng.lognormvariate(0.0, 0.02)) for _ in range(n)]
    if kind == "ties":
        return [float(rng.randint(-3, 3) + (1 if rng.random() < shift else 0)) for _ in range(n)]
    return [round(shift + rng.gauss(0.0, 0.05), 2) for _ in range(n)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True)
    parser.add_argument("--sets", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sets = []
    for _ in range(args.sets):
        kind = rng.choice(["log_ratios", "ties", "rounded"])
        n = rng.randint(1, 60) if rng.random() < 0.4 else rng.randint(1, 13)
        sets.append(differences(rng, n, kind, rng.choice([0.0, 0.0, 0.05, 0.1, 0.3])))
    text = "".join(" ".join(repr(v) for v in d) + "\n" for d in sets)
    ours = subprocess.run([args.probe], input=text, capture_output=True, text=True, check=True)
    lines = ours.stdout.splitlines()
    if len(lines) != len(sets):
        print(f"check_signed_rank: probe answered {len(lines)} lines for {len(sets)} sets")
        return 1
    failures = []
    methods = [0, 0, 0]
    for d, line in zip(sets, lines):
        w_plus, greater, less, two, method = line.split()
        methods[int(method)] += 1
        if all(v == 0 for v in d):
            if float(two) != 1.0:
                failures.append(f"d={d}: all zero, aorta p={two}")
            continue
        for alternative, ours_p in (("greater", greater), ("less", less), ("two-sided", two)):
            reference = wilcoxon(d, alternative=alternative)
            p = float(ours_p)
            statistic_ok = alternative == "two-sided" or float(w_plus) == float(reference.statistic)
            if not statistic_ok or abs(p - reference.pvalue) > 1e-12 + 1e-9 * abs(reference.pvalue):
                failures.append(f"d={d} {alternative}: aorta W+={w_plus} p={p!r}, scipy "
                                f"statistic={reference.statistic} p={reference.pvalue!r}")
    print(f"check_signed_rank: {len(sets)} sets (exact {methods[0]}, permutation {methods[1]}, "
          f"asymptotic {methods[2]}) x 3 alternatives against SciPy {scipy.__version__}: "
          f"{len(sets) - len(failures)} agree")
    for failure in failures[:10]:
        print("  MISMATCH " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
