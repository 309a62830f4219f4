"""The mode judge's tests (harness/src/baseline/process_modes.cpp) against NumPy and SciPy.

Seeded rows of two cells, 4-12 trials each, whose processes sit in one of two or three modes
(1.3-1.6x apart) with 1-8% lognormal spread, the cell shifted by 0-25% and its mode frequencies
moved or not. For each row the probe prints the modes it found; given those modes:
  - the within-mode shift is the coefficient of the cell in a least-squares fit of the log times
    on one intercept per mode plus the cell indicator (numpy.linalg.lstsq), its one-sided
    p-values scipy.stats.t.sf(t, n - modes - 1) with the usual OLS standard error;
  - the mode-frequency p-value is scipy.stats.mannwhitneyu(cell_modes, reference_modes,
    alternative=...) in the direction the cell's modes moved (aorta halves the two-sided p there).
Each must agree to 1e-9 relative.
Then --gate-rows rows of a regression gate (baseline/gate_modes.cpp): new trials against baseline
trials, unpaired, 4-12 a side, under `<= baseline + F` (F 0, 5% or 10%); for the probe's modes the
row's p and "estimate past the bound" are recomputed: the least-squares shift tested against the
margin (scipy.stats.t.sf((shift - 0.4 log(1 + F)) / se, df)), the Mann-Whitney p that the new
trials moved to slower modes, each counted when its estimate (the shift, or the ratio of the
geometric means) is past log(1 + F), shared by weighted Bonferroni (0.8 to the shift, 0.2 to
the move: min(p_within / 0.8, p_moved / 0.2)). Exit 0 when all agree, 1 with the
disagreements, 77 without SciPy.
"""

import argparse
import math
import random
import subprocess
import sys

try:
    import numpy as np
    import scipy
    from scipy.stats import mannwhitneyu, t as student_t
except ImportError as exc:
    print(f"check_process_modes: SciPy is not importable by {sys.executable} ({exc}); run "
          "ci/scipy-venv.sh and configure with -DAORTA_SCIPY_PYTHON=<its python>")
    sys.exit(77)


def row(rng):
    modes = [1.0, rng.uniform(1.3, 1.6)]
    if rng.random() < 0.3:
        modes.append(modes[1] * rng.uniform(1.3, 1.6))
    spread = rng.uniform(0.01, 0.08)
    shift = rng.choice([0.0, 0.0, 0.05, 0.1, 0.25])
    move = rng.random() < 0.3
    n_cell, n_reference = rng.randint(4, 12), rng.randint(4, 12)

    def trial(in_cell):
        weights = [1.0] * len(modes)
        if in_cell and move:
            weights[-1] = 3.0
        mode = rng.choices(modes, weights)[0]
        return 30.0 * mode * (1.0 + (shift if in_cell else 0.0)) * rng.lognormvariate(0.0, spread)

    return [trial(True) for _ in range(n_cell)], [trial(False) for _ in range(n_reference)]


def rel_close(a, b):
    return abs(a - b) <= 1e-12 + 1e-9 * abs(b)


def check(cell, reference, answer, failures):
    head, tail = answer.split("|")
    words = head.split()
    modes = int(words[0])
    mode_of = [int(w) for w in words[1:]]
    ratio, df, p_greater, p_less, f_greater, f_less, shared = (float(w) for w in tail.split())
    n = len(cell) + len(reference)
    logs = np.log(np.array(cell + reference))
    is_cell = np.array([1.0] * len(cell) + [0.0] * len(reference))
    design = np.column_stack([np.array([1.0 if m == k else 0.0 for m in mode_of])
                              for k in range(modes)] + [is_cell])
    if shared > 0 and df >= 1:
        coef, _, rank, _ = np.linalg.lstsq(design, logs, rcond=None)
        if rank == design.shape[1]:
            residual = logs - design @ coef
            dof = n - modes - 1
            sigma2 = residual @ residual / dof
            se = math.sqrt(sigma2 * np.linalg.inv(design.T @ design)[-1, -1])
            if not rel_close(math.log(ratio), coef[-1]) or dof != df:
                failures.append(f"shift {math.log(ratio)} df {df} vs lstsq {coef[-1]} df {dof}")
            elif se > 0:
                tt = coef[-1] / se
                for ours, theirs in ((p_greater, student_t.sf(tt, dof)), (p_less, student_t.sf(-tt, dof))):
                    if not rel_close(ours, theirs):
                        failures.append(f"t={tt} df={dof}: aorta p={ours!r} scipy p={theirs!r}")
    cell_modes = mode_of[:len(cell)]
    reference_modes = mode_of[len(cell):]
    u = mannwhitneyu(cell_modes, reference_modes).statistic
    centre = len(cell) * len(reference) / 2.0
    if u != centre:
        alternative, ours = ("greater", f_greater) if u > centre else ("less", f_less)
        theirs = mannwhitneyu(cell_modes, reference_modes, alternative=alternative).pvalue
        if not rel_close(ours, theirs):
            failures.append(f"modes {cell_modes} vs {reference_modes} {alternative}: aorta "
                            f"p={ours!r} scipy p={theirs!r}")


def lstsq_shift(values, n_first, mode_of, modes):
    """The first group's shift with one intercept per mode: coefficient, standard error, dof;
    None when the fit is not of full rank or has no degree of freedom."""
    logs = np.log(np.array(values))
    first = np.array([1.0] * n_first + [0.0] * (len(values) - n_first))
    design = np.column_stack([np.array([1.0 if m == k else 0.0 for m in mode_of])
                              for k in range(modes)] + [first])
    dof = len(values) - modes - 1
    coef, _, rank, _ = np.linalg.lstsq(design, logs, rcond=None)
    if rank < design.shape[1] or dof < 1:
        return None
    residual = logs - design @ coef
    se = math.sqrt(residual @ residual / dof * np.linalg.inv(design.T @ design)[-1, -1])
    return coef[-1], se, dof


def check_gate(fresh, base, fraction, answer, failures):
    head, tail = answer.split("|")
    words = head.split()
    modes = int(words[0])
    mode_of = [int(w) for w in words[1:]]
    p_ours, beyond_ours, shared, _ = (float(w) for w in tail.split())
    log_bound = math.log1p(fraction)
    log_margin = 0.4 * log_bound if log_bound > 0 else log_bound
    fit = lstsq_shift(fresh + base, len(fresh), mode_of, modes) if shared > 0 else None
    p_within, within_beyond = 1.0, False
    if fit is not None:
        shift, se, dof = fit
        within_beyond = shift > log_bound
        if abs(shift - log_bound) < 1e-9:
            return  # on the bound: either answer is right
        if se > 0:
            p_within = student_t.sf((shift - log_margin) / se, dof)
        else:
            p_within = 0.0 if shift > log_margin else 1.0
    new_modes, base_modes = mode_of[:len(fresh)], mode_of[len(fresh):]
    u = mannwhitneyu(new_modes, base_modes).statistic
    centre = len(fresh) * len(base) / 2.0
    if u > centre:
        p_moved = mannwhitneyu(new_modes, base_modes, alternative="greater").pvalue
    elif u < centre:
        p_moved = 1.0 - mannwhitneyu(new_modes, base_modes, alternative="less").pvalue
    else:
        p_moved = 1.0
    overall = np.mean(np.log(fresh)) - np.mean(np.log(base))
    moved_beyond = overall > log_bound
    beyond = within_beyond or moved_beyond
    counted_within = p_within if within_beyond or not beyond else 1.0
    counted_moved = p_moved if moved_beyond or not beyond else 1.0
    p_theirs = min(1.0, counted_within / 0.8, counted_moved / 0.2)  # weighted Bonferroni
    if not rel_close(p_ours, p_theirs) or bool(beyond_ours) != beyond:
        failures.append(f"gate F={fraction}: aorta p={p_ours!r} beyond={beyond_ours} vs "
                        f"p={p_theirs!r} beyond={beyond}")


def gate_rows(args, rng):
    rows = [(row(rng), rng.choice([0.0, 0.05, 0.1])) for _ in range(args.gate_rows)]
    failures = []
    multimodal = 0
    for fraction in (0.0, 0.05, 0.1):
        chosen = [(c, r) for (c, r), f in rows if f == fraction]
        text = "".join(" ".join(repr(v) for v in c) + " | " + " ".join(repr(v) for v in r) + "\n"
                       for c, r in chosen)
        ours = subprocess.run([args.probe, "--gate", repr(fraction)], input=text,
                              capture_output=True, text=True, check=True).stdout.splitlines()
        if len(ours) != len(chosen):
            failures.append(f"probe --gate answered {len(ours)} lines for {len(chosen)} rows")
            continue
        for (fresh, base), answer in zip(chosen, ours):
            if "|" in answer:
                multimodal += 1
                check_gate(fresh, base, fraction, answer, failures)
    print(f"check_process_modes: {len(rows)} gate rows, {multimodal} multi-modal: "
          f"{len(failures)} disagreements")
    for failure in failures[:10]:
        print("  MISMATCH " + failure)
    return failures, multimodal


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--gate-rows", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = [row(rng) for _ in range(args.rows)]
    text = "".join(" ".join(repr(v) for v in c) + " | " + " ".join(repr(v) for v in r) + "\n"
                   for c, r in rows)
    ours = subprocess.run([args.probe], input=text, capture_output=True, text=True, check=True)
    lines = ours.stdout.splitlines()
    if len(lines) != len(rows):
        print(f"check_process_modes: probe answered {len(lines)} lines for {len(rows)} rows")
        return 1
    failures = []
    multimodal = 0
    for (cell, reference), answer in zip(rows, lines):
        if "|" not in answer:
            continue
        multimodal += 1
        check(cell, reference, answer, failures)
    print(f"check_process_modes: {len(rows)} rows, {multimodal} multi-modal, checked against "
          f"NumPy {np.__version__} and SciPy {scipy.__version__}: {len(failures)} disagreements")
    for failure in failures[:10]:
        print("  MISMATCH " + failure)
    gate_failures, gate_multimodal = gate_rows(args, rng) if args.gate_rows else ([], 0)
    return 1 if (failures or gate_failures or multimodal < len(rows) // 4
                 or gate_multimodal < args.gate_rows // 4) else 0


if __name__ == "__main__":
    sys.exit(main())
