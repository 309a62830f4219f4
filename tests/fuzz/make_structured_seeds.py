#!/usr/bin/env python3
"""Structure-aware seeds for the reader fuzz targets (issue 18), written into OUTDIR.

Mutating small fixtures rarely builds what broke the readers in the second audit: nesting
thousands deep, long runs of one byte, 10^5 repeated elements, lengths or counts far beyond the
file, numbers at the edge of their type, SQL views that never end. These generators build each
class on purpose, in the format of the target, so every CI run starts from them and libFuzzer
mutates from there. Every file is hand-made from the format's published layout (MessagePack spec,
Proton's hatchet / chrome trace output, rocprofv3's CSV, JSON and rocpd schema, ncu's CSV,
callgrind's format, compute-sanitizer's text report, nvbench's and Google Benchmark's JSON, aorta's own result.json and recipes with cells and mitigations files); none is committed. One module per format family
in structured_seeds/.

usage: make_structured_seeds.py TARGET OUTDIR   (prints the files written, one per line)
"""
import os
import sys

sys.dont_write_bytecode = True  # run from the source tree: leave no __pycache__ there
from structured_seeds import (aorta_records, gbench, nvidia, proton, recipes,  # noqa: E402
                              rocprof, valgrind_sanitizer)


def main(argv):
    target, outdir = argv
    os.makedirs(outdir, exist_ok=True)
    generators = {"hatchet": proton.hatchet_seeds, "hatchet_msgpack": proton.hatchet_msgpack_seeds,
                  "chrome_trace": proton.chrome_trace_seeds,
                  "rocprof_csv": rocprof.rocprof_csv_seeds,
                  "rocprof_json": rocprof.rocprof_json_seeds, "ncu_csv": nvidia.ncu_csv_seeds,
                  "callgrind": valgrind_sanitizer.callgrind_seeds,
                  "sanitizer_log": valgrind_sanitizer.sanitizer_log_seeds,
                  "nvbench": nvidia.nvbench_seeds,
                  "nvbench_jsonbin": nvidia.nvbench_jsonbin_seeds, "gbench": gbench.gbench_seeds,
                  "result_json": aorta_records.result_json_seeds,
                  "recipe": recipes.recipe_seeds}
    if target == "rocpd":
        for path in rocprof.rocpd_seeds(outdir):
            print(path)
        return 0
    if target not in generators:
        return 0  # no structured seeds for this target (check: its own seeds)
    for name, data in generators[target]():
        path = os.path.join(outdir, "structured-" + name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
