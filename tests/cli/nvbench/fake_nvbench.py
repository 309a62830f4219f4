#!/usr/bin/env python3
"""A stand-in for an nvbench executable (NVBENCH_MAIN) for the nvbench collector's tests.

Like nvbench it takes `--json FILE` or `--jsonbin FILE` anywhere in its argv and writes one
benchmark state, `gemm` at N=2048, in nvbench's JSON format 1.0.0. With `--jsonbin` it also writes
the state's sample times the way NVIDIA/nvbench's json_printer.cu (write_jsonbin_sidecar) does:
FILE-bin/0.bin, little-endian float32 seconds, named in a summary tagged
`nv/json/bin:nv/cold/sample_times` whose `filename` is relative to FILE's directory.

The 16 samples are those of tests/fixtures/nvbench/jsonbin: 10.5 ms and 4.2 ms (warm-up), then 14
between 2.100 and 2.113 ms, so nvbench's mean of all 16 is 2.762 ms and the mean after aorta's
warm-up rule 2.1065 ms.

It writes the argv it saw to FILE's directory as argv.txt (one argument a line), for the tests to
assert on. `--fake-damage MODE` (before the flags aorta appends) breaks the capture on purpose:
  none         nothing (the default)
  no-sidecar   the summary names FILE-bin/0.bin, but the file is not written
  no-summary   nvbench's mean only, as --json would write it, even under --jsonbin
"""
import json
import os
import struct
import sys

SAMPLES_S = [0.0105, 0.0042, 0.002100, 0.002101, 0.002102, 0.002103, 0.002104, 0.002105,
             0.002106, 0.002107, 0.002108, 0.002109, 0.002110, 0.002111, 0.002112, 0.002113]


def flag_value(argv, flag):
    for at, arg in enumerate(argv[:-1]):
        if arg == flag:
            return argv[at + 1]
    return None


def summary(tag, name, type_, value):
    return {"tag": tag, "name": name, "data": [{"name": "value", "type": type_, "value": value}]}


def sample_file_summary(filename, size):
    data = [{"name": "filename", "type": "string", "value": filename},
            {"name": "size", "type": "int64", "value": str(size)},
            {"name": "hide", "type": "string", "value": "Not needed in table."}]
    return {"tag": "nv/json/bin:nv/cold/sample_times", "name": "Sample Times File",
            "hint": "file/sample_times",
            "description": "Binary file containing sample times as little-endian float32.",
            "data": data}


def main():
    argv = sys.argv
    jsonbin = flag_value(argv, "--jsonbin")
    path = jsonbin or flag_value(argv, "--json")
    if path is None:
        print("fake nvbench: no --json or --jsonbin FILE", file=sys.stderr)
        return 2
    damage = flag_value(argv, "--fake-damage") or "none"
    if damage not in ("none", "no-sidecar", "no-summary"):
        print(f"fake nvbench: unknown --fake-damage '{damage}'", file=sys.stderr)
        return 2
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "argv.txt"), "w") as out:
        out.write("\n".join(argv) + "\n")
    # nvbench computes its mean from the float64 samples; the sidecar holds them as float32.
    as_float32 = [struct.unpack("<f", struct.pack("<f", s))[0] for s in SAMPLES_S]
    mean = sum(as_float32) / len(as_float32)
    summaries = [summary("nv/cold/sample_size", "Samples", "int64", str(len(SAMPLES_S))),
                 summary("nv/cold/time/gpu/mean", "GPU Time", "float64", repr(mean))]
    if jsonbin and damage != "no-summary":
        sidecar = os.path.basename(path) + "-bin"
        summaries.append(sample_file_summary(sidecar + "/0.bin", len(SAMPLES_S)))
        if damage != "no-sidecar":
            os.makedirs(os.path.join(directory, sidecar), exist_ok=True)
            with open(os.path.join(directory, sidecar, "0.bin"), "wb") as out:
                out.write(b"".join(struct.pack("<f", s) for s in SAMPLES_S))
    state = {"name": "Device=0 N=2048", "device": 0, "is_skipped": False,
             "axis_values": [{"name": "N", "type": "int64", "value": "2048"}],
             "summaries": summaries}
    root = {"meta": {"argv": argv,
                     "version": {"json": {"major": 1, "minor": 0, "patch": 0, "string": "1.0.0"},
                                 "nvbench": {"major": 0, "minor": 1, "patch": 0,
                                             "string": "0.1.0 (fake_nvbench.py)"}}},
            "devices": [{"id": 0, "name": "fake"}],
            "benchmarks": [{"name": "gemm", "index": 0, "devices": [0], "states": [state]}]}
    with open(path, "w") as out:
        json.dump(root, out, indent=2)
    print(f"fake nvbench: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
