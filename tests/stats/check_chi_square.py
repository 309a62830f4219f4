"""The PC-sample gate's chi-square test of homogeneity (harness/src/baseline/pc_sample_gate.cpp)
against scipy.stats.chi2_contingency (correction=False: Pearson's statistic, as the gate uses).

Random seeded 2 x K tables of sample counts: K from 2 to 40 categories, totals from 30 to 10^7
samples a side, the same shares or shares moved by up to 20 points, and columns empty on both
sides (the gate leaves those out; SciPy is given the table without them). The statistic and the
degrees of freedom must agree, p to 1e-9 relative (or 1e-300 absolute where SciPy's p underflows),
and `moved` (half the sum of the absolute share differences) with a direct computation. Exit 0
when all agree, 1 with the first disagreements, 77 when SciPy is missing.
"""

import argparse
import random
import subprocess
import sys

try:
    from scipy.stats import chi2_contingency
except ImportError as exc:
    print(f"check_chi_square: SciPy is not importable by {sys.executable} ({exc}); run "
          "ci/scipy-venv.sh and configure with -DAORTA_SCIPY_PYTHON=<its python>")
    sys.exit(77)


def draw(rng, shares, total):
    counts = [0] * len(shares)
    # At most 2,000 draws, scaled up to the total: 10^7 samples without numpy's generator.
    for index in rng.choices(range(len(shares)), weights=shares, k=min(total, 2000)):
        counts[index] += 1
    scale = total / max(1, sum(counts))
    return [round(c * scale) for c in counts]


def table(rng):
    k = rng.randint(2, 40)
    shares = [rng.random() ** 3 for _ in range(k)]
    moved = list(shares)
    if rng.random() < 0.6:
        i, j = rng.randrange(k), rng.randrange(k)
        step = rng.choice([0.01, 0.05, 0.2]) * sum(shares)
        moved[i] += step
        moved[j] = max(0.0, moved[j] - step)
    base = draw(rng, shares, rng.choice([30, 500, 20000, 10_000_000]))
    fresh = draw(rng, moved, rng.choice([30, 500, 20000, 10_000_000]))
    for _ in range(rng.randint(0, 2)):
        spot = rng.randrange(k)
        base[spot] = fresh[spot] = 0
    if sum(base) == 0:
        base[0] = 1
    if sum(fresh) == 0:
        fresh[0] = 1
    return base, fresh


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tables = [table(rng) for _ in range(args.tables)]
    text = "".join(" ".join(map(str, b)) + " | " + " ".join(map(str, f)) + "\n" for b, f in tables)
    ours = subprocess.run([args.probe], input=text, capture_output=True, text=True, check=True)
    lines = ours.stdout.splitlines()
    if len(lines) != len(tables):
        print(f"check_chi_square: probe answered {len(lines)} lines for {len(tables)} tables")
        return 1
    failures = []
    significant = 0
    for (base, fresh), line in zip(tables, lines):
        statistic, degrees, p, moved = line.split()
        kept = [(b, f) for b, f in zip(base, fresh) if b + f > 0]
        b_total, f_total = sum(b for b, _ in kept), sum(f for _, f in kept)
        want_moved = 0.5 * sum(abs(f / f_total - b / b_total) for b, f in kept)
        if len(kept) < 2:
            if float(p) != 1.0:
                failures.append(f"{base} | {fresh}: one category, aorta p={p}")
            continue
        chi2, want_p, dof, _ = chi2_contingency([[b for b, _ in kept], [f for _, f in kept]],
                                                correction=False)
        significant += want_p < 0.05
        problems = []
        if abs(float(statistic) - chi2) > 1e-9 * max(1.0, chi2):
            problems.append(f"statistic {statistic} vs {chi2}")
        if int(degrees) != dof:
            problems.append(f"degrees {degrees} vs {dof}")
        if abs(float(p) - want_p) > max(1e-9 * want_p, 1e-300):
            problems.append(f"p {p} vs {want_p}")
        if abs(float(moved) - want_moved) > 1e-12:
            problems.append(f"moved {moved} vs {want_moved}")
        if problems:
            failures.append(f"{base} | {fresh}: " + ", ".join(problems))
    if failures:
        print(f"check_chi_square: {len(failures)} of {len(tables)} tables disagree with SciPy:")
        for failure in failures[:10]:
            print("  " + failure)
        return 1
    print(f"check_chi_square: {len(tables)} tables agree with scipy.stats.chi2_contingency "
          f"({significant} significant at 0.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
