"""The gate's timed-row test (harness/src/baseline/welch_p_values.cpp, gate_rule.cpp) against SciPy.

Seeded random rows: 3..40 samples a side, lognormal noise of 0.5-20% CV, heavy tails (one
sample in five x1.5-3) and bimodal clocks, shifts of 0-20%, tolerances 0-10%. For each row:
  - the gate's p equals scipy.stats.ttest_ind(log(new) - 0.4 log(1 + tol), log(base),
    equal_var=False, alternative="greater").pvalue (Welch's t against the margin, 0.4 of the
    way to the bound),
    with trim=0.2 (Yuen's) when Grubbs' two-sided test at 1% finds an outlier in either side's
    logs (critical value from scipy.stats.t.isf),
  - its estimate is past the bound exactly when the (trimmed) mean logs moved more than
    log(1 + tol) (scipy.stats.trim_mean),
  - Yuen's t, df and p on the raw samples equal ttest_ind(new, base, trim=0.2, ...)'s and
    Welch's those of ttest_ind(new, base, equal_var=False, alternative="greater"),
to 1e-9 relative (1e-12 absolute); Holm's adjusted p-values equal a direct implementation of
Holm (1979). Rows aorta judged by their process modes (both sides in two modes: many of the
bimodal-clock rows and of the heavy-tailed ones) are counted and left to check_process_modes.py
--gate-rows. Exit 0 when all agree, 1 with the first disagreements, 77 when SciPy is missing.
"""

import argparse
import math
import random
import subprocess
import sys

try:
    import numpy as np
    import scipy
    from scipy.stats import t as student_t
    from scipy.stats import trim_mean, ttest_ind
except ImportError as exc:
    print(f"check_gate_test: SciPy is not importable by {sys.executable} ({exc}); run "
          "ci/scipy-venv.sh and configure with -DAORTA_SCIPY_PYTHON=<its python>")
    sys.exit(77)


def samples(rng, n, cv, shift, kind):
    sigma = math.sqrt(math.log(1.0 + cv * cv))
    values = [math.exp(rng.gauss(0.0, sigma)) * (1.0 + shift) for _ in range(n)]
    if kind == "heavy":
        values = [v * rng.uniform(1.5, 3.0) if rng.random() < 0.2 else v for v in values]
    elif kind == "bimodal":
        values = [v * 1.2 if rng.random() < 0.4 else v for v in values]
    return [round(v, 9) for v in values]


def holm(p_values):
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def grubbs(values, level=0.01):
    """(statistic, critical value) of Grubbs' two-sided test for one outlier."""
    values = np.asarray(values)
    n = len(values)
    spread = values.std(ddof=1)
    statistic = np.max(np.abs(values - values.mean())) / spread if spread > 0 else 0.0
    t = student_t.isf(level / (2 * n), n - 2)
    return statistic, (n - 1) / math.sqrt(n) * math.sqrt(t * t / (n - 2 + t * t))


def close(a, b):
    return abs(a - b) <= 1e-12 + 1e-9 * abs(b)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    for _ in range(args.rows):
        n1 = rng.randint(3, 40) if rng.random() < 0.5 else rng.randint(3, 9)
        n2 = rng.randint(3, 40) if rng.random() < 0.5 else rng.randint(3, 9)
        cv = rng.choice([0.005, 0.01, 0.03, 0.05, 0.1, 0.2])
        kind = rng.choice(["lognormal", "heavy", "bimodal"])
        shift = rng.choice([0.0, 0.02, 0.05, 0.1, 0.2])
        tolerance = rng.choice([0.0, 0.02, 0.05, 0.1])
        rows.append((tolerance, samples(rng, n1, cv, 0.0, kind), samples(rng, n2, cv, shift, kind)))
    holm_sets = [[rng.random() ** rng.choice([1, 3, 8]) for _ in range(rng.randint(1, 50))]
                 for _ in range(200)]
    text = "".join(f"{tol!r} | " + " ".join(map(repr, base)) + " | " + " ".join(map(repr, new))
                   + "\n" for tol, base, new in rows)
    text += "".join("holm " + " ".join(map(repr, ps)) + "\n" for ps in holm_sets)
    ours = subprocess.run([args.probe], input=text, capture_output=True, text=True, check=True)
    lines = ours.stdout.splitlines()
    if len(lines) != len(rows) + len(holm_sets):
        print(f"check_gate_test: probe answered {len(lines)} lines for {len(rows) + len(holm_sets)}")
        return 1
    failures = []
    trimmed = 0
    multimodal = 0
    for (tol, base, new), line in zip(rows, lines):
        words = line.split()
        gate_p, beyond = float(words[0]), words[1] == "1"
        t, df, p, wt, wdf, wp = map(float, words[2:8])
        if words[8] == "1":
            multimodal += 1
            continue
        margin = 0.4 * math.log1p(tol)
        screens = [grubbs(np.log(side)) for side in (base, new)]
        if any(abs(g - critical) < 1e-9 for g, critical in screens):
            continue  # on the edge of the screen: either test is right
        trim = 0.2 if any(g > critical for g, critical in screens) else 0.0
        trimmed += trim > 0
        shifted = ttest_ind(np.log(new) - margin, np.log(base), equal_var=False, trim=trim,
                            alternative="greater")
        shift = float(trim_mean(np.log(new), trim) - trim_mean(np.log(base), trim))
        # A row whose shift sits within rounding of the bound may go either way.
        beyond_agrees = beyond == (shift > math.log1p(tol)) or abs(shift - math.log1p(tol)) < 1e-12
        raw = ttest_ind(new, base, equal_var=False, trim=0.2, alternative="greater")
        welch = ttest_ind(new, base, equal_var=False, alternative="greater")
        if not (close(gate_p, shifted.pvalue) and beyond_agrees and close(t, raw.statistic)
                and close(df, raw.df) and close(p, raw.pvalue) and close(wt, welch.statistic)
                and close(wdf, welch.df) and close(wp, welch.pvalue)):
            failures.append(f"tol={tol} base={base} new={new}: aorta p={gate_p!r} beyond={beyond} "
                            f"t={t!r} df={df!r} p_raw={p!r} welch={wt!r},{wdf!r},{wp!r}; scipy "
                            f"p={shifted.pvalue!r} shift={shift!r} t={raw.statistic!r} "
                            f"df={raw.df!r} p_raw={raw.pvalue!r} welch={welch.statistic!r},"
                            f"{welch.df!r},{welch.pvalue!r}")
    for ps, line in zip(holm_sets, lines[len(rows):]):
        ours_adjusted = [float(v) for v in line.split()]
        if not all(close(a, b) for a, b in zip(ours_adjusted, holm(ps))):
            failures.append(f"holm {ps}: aorta {ours_adjusted}")
    print(f"check_gate_test: {len(rows)} rows and {len(holm_sets)} Holm sets against SciPy "
          f"{scipy.__version__}: {len(rows) + len(holm_sets) - len(failures) - multimodal} agree "
          f"({trimmed} rows took the trimmed test; {multimodal} rows were multi-modal, checked by "
          "check_process_modes.py)")
    for failure in failures[:10]:
        print("  MISMATCH " + failure)
    return 1 if failures or multimodal > len(rows) // 2 else 0


if __name__ == "__main__":
    sys.exit(main())
