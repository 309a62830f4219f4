#!/usr/bin/env bash
# Issue 39, nvbench per-sample times on the GPU (README.md). Run with bash from the root of a copy
# of /work/main; the coordinator's prologue sets LD_LIBRARY_PATH for aorta's Debian libraries and
# exports AORTA (this branch's stripped aorta) and OUT_DIR. Payload: $PWD/.gpu/h39c (bin/gemm_bench
# built with nvcc -arch=sm_90 against the cuda-bench 0.3.0 wheel's cu13 libnvbench, beside it; the
# recipes; the CLI test's fake nvbench and its driver). Limit 60 s: each phase has its own timeout
# and writes its results at once.
#   1 samples  3 trials of gemm_bench under sample_times: true; one trial's nvbench.json and its
#              sidecar directories are copied out, with aorta check --recipe on the copy
#   2 fake     tests/cli/nvbench/sweep_sample_times.py (the CTest test skipped without a GPU node)
#   3 means    3 trials with --json, gated against a baseline recorded from phase 1 (expect 77,
#              naming nvbench_time)
#   4 slower   3 trials under samples with AORTA_NVBENCH_EXTRA_PERCENT=10, gated (expect SLOWER)
#   5 same     3 trials under samples, unchanged, gated
set -u
HERE=$PWD/.gpu/h39c
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
work=/tmp/h39c-work
rm -rf "$work"; mkdir -p "$work" "$OUT_DIR"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1 \
  | tee "$OUT_DIR/machine.txt"
"$AORTA" --version >> "$OUT_DIR/machine.txt" 2>&1
"$HERE/bin/gemm_bench" --version >> "$OUT_DIR/machine.txt" 2>&1
bench=("$HERE/bin/gemm_bench" --no-batch)

phase() {  # NAME LIMIT_S EXPECTED_RC ARGS...: one aorta call, its output and exit code kept
  local name=$1 limit=$2 expected=$3
  shift 3
  timeout -k 3 "$limit" "$AORTA" "$@" > "$OUT_DIR/$name.txt" 2>&1
  local rc=$?
  echo "$name rc=$rc (expected $expected) at $(elapsed) s" | tee -a "$OUT_DIR/phases.txt"
}

# 1. The real capture.
phase samples 20 0 sweep run --recipe "$HERE/samples.yaml" --output "$work/samples/gemm" -- "${bench[@]}"
capture=$work/samples/gemm/trial_0/nvbench
mkdir -p "$OUT_DIR/capture"
cp -r "$capture"/. "$OUT_DIR/capture/"
for t in 0 1 2; do cp "$work/samples/gemm/trial_$t/result.json" "$OUT_DIR/samples-result-$t.json" 2>/dev/null; done
du -ab "$OUT_DIR/capture" | tee "$OUT_DIR/capture-sizes.txt"
phase check-copy 10 0 check --recipe "$HERE/samples.yaml" "$OUT_DIR/capture" --json
python3 - "$work/samples/gemm" > "$OUT_DIR/means-vs-samples.txt" 2>&1 <<'PY'
import glob, json, struct, sys, os
for trial in sorted(glob.glob(os.path.join(sys.argv[1], "trial_*"))):
    doc = json.load(open(os.path.join(trial, "nvbench", "nvbench.json")))
    rows = {k["name"]: k["total_ms"] for k in json.load(open(os.path.join(trial, "result.json")))["kernels"]}
    for bench in doc["benchmarks"]:
        for state in bench["states"]:
            tags = {s["tag"]: s for s in state.get("summaries") or []}
            mean = float(tags["nv/cold/time/gpu/mean"]["data"][0]["value"]) * 1e3
            binfo = {d["name"]: d["value"] for d in tags["nv/json/bin:nv/cold/sample_times"]["data"]}
            raw = open(os.path.join(trial, "nvbench", binfo["filename"]), "rb").read()
            samples = [v * 1e3 for (v,) in struct.iter_unpack("<f", raw)]
            name = "gemm/" + "/".join(f'{a["name"]}:{a["value"]}' for a in state["axis_values"])
            print(f"{os.path.basename(trial)} {name}: filename={binfo['filename']} size={binfo['size']} "
                  f"nvbench mean {mean:.6f} ms, aorta {rows.get(name)} ms, first 5 samples "
                  f"{[round(s, 5) for s in samples[:5]]}, min {min(samples):.5f} max {max(samples):.5f}")
PY
cat "$OUT_DIR/means-vs-samples.txt"

# 2. The fake nvbench through the real sweep (the CTest test that needs a GPU node).
timeout -k 3 20 python3 "$HERE/cli/nvbench/sweep_sample_times.py" --aorta "$AORTA" \
  --work "$work/fake" > "$OUT_DIR/fake.txt" 2>&1
echo "fake rc=$? (expected 0) at $(elapsed) s" | tee -a "$OUT_DIR/phases.txt"
grep '^CASE' "$OUT_DIR/fake.txt"

# 3-5. The gate: a baseline of samples; a run of means against it; slower and unchanged code.
phase record 10 0 baseline record "$work/samples/gemm" --into "$work/baselines"
cp "$work/baselines/gemm.json" "$OUT_DIR/baseline-samples.json" 2>/dev/null
phase means 15 77 sweep run --recipe "$HERE/means.yaml" --output "$work/means/gemm" \
  --baseline "$work/baselines" -- "${bench[@]}"
AORTA_NVBENCH_EXTRA_PERCENT=10 phase slower 15 1 sweep run --recipe "$HERE/samples.yaml" \
  --output "$work/slower/gemm" --baseline "$work/baselines" -- "${bench[@]}"
cp "$work/slower/gemm/gate.json" "$OUT_DIR/gate-slower.json" 2>/dev/null
phase same 15 0 sweep run --recipe "$HERE/samples.yaml" --output "$work/same/gemm" \
  --baseline "$work/baselines" -- "${bench[@]}"
cp "$work/same/gemm/gate.json" "$OUT_DIR/gate-same.json" 2>/dev/null
echo "done at $(elapsed) s"
