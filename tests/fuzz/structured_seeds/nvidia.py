"""NVIDIA's tools: ncu's CSV (--csv --page raw), nvbench's --json, and its --jsonbin sample files
(in the nvbench_jsonbin target's field layout)."""
import struct

from structured_seeds.common import DEEP, REPEATED, RUN, U64_MAX, dumps


def ncu_csv_seeds():
    header = '"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
    yield "repeated_ncu.csv", header + '"0","1","k","gpu__time_duration.sum","ns","10"\n' * REPEATED
    yield "distinct_ncu.csv", header + "".join(
        f'"{i}","1","k{i}","gpu__time_duration.sum","ns","10"\n' for i in range(REPEATED))
    yield "overflow_ncu.csv", header + '"0","1","k","gpu__time_duration.sum","s","1e308"\n' * 3
    # Launch times that are no time: each must fail the read, never drop the launch.
    yield "bad_durations_ncu.csv", header + "".join(
        f'"{i}","1","k{i}","gpu__time_duration.sum","ns","{v}"\n'
        for i, v in enumerate(["n/a", "-1", "nan", "inf", "", "1e400"]))
    yield "long_name_ncu.csv", header + '"0","1","' + "k" * RUN + '","gpu__time_duration.sum","ns","1"\n'
    # Counters (collect.ncu.metrics): 10^4 distinct (kernel, metric) pairs (past max_ncu_counters
    # the read takes 6 s under ASan, too near the 10 s timeout: ncu_counters_test holds that bound),
    # sums past 2^64 and past the largest double, and values that are no numbers.
    counter = '"0","1","k","smsp__m{}.sum","inst","{}"\n'
    yield "counter_pairs_ncu.csv", header + "".join(counter.format(i, 1) for i in range(REPEATED // 10))
    yield "counter_sums_ncu.csv", header + "".join(
        f'"{i}","1","k","smsp__inst_executed.sum","inst","{v}"\n'
        for i, v in enumerate([U64_MAX, U64_MAX, "1.7e308", "1.7e308", "n/a", "-1", "nan"]))


def nvbench_doc(states, name="b", major=1):
    """nvbench's --json layout (NVIDIA/nvbench json_printer: meta, devices, benchmarks[].states[]
    with summaries whose values are strings)."""
    return {"meta": {"argv": ["bench", "--json", "x.json"],
                     "version": {"json": {"major": major, "minor": 0, "patch": 0},
                                 "nvbench": {"string": "0.1.0"}}},
            "devices": [{"id": 0, "name": "GPU"}],
            "benchmarks": [{"name": name, "index": 0, "axes": None, "states": states}]}


def nvbench_state(gpu="0.001", axes=None, device=0, skipped=None, extra=()):
    def summary(tag, value, kind="float64"):
        return {"tag": tag, "data": [{"name": "value", "type": kind, "value": value}]}
    state = {"name": "Device=0", "device": device, "axis_values": axes,
             "is_skipped": skipped is not None,
             "summaries": None if skipped else
             [summary("nv/cold/time/gpu/mean", gpu), summary("nv/cold/sample_size", "10", "int64"),
              *[summary(tag, value) for tag, value in extra]]}
    if skipped is not None:
        state["skip_reason"] = skipped
    return state


# The reader parses the whole document (bounded by max_json_values) before it reads a state, and
# under the fuzz build's ASan and coverage that costs ~0.25 ms a state on a loaded 2-vCPU VM:
# 10^5 states ran past -timeout=10. 10^4 states or summaries stay far past any real file.
NVBENCH_STATES = REPEATED // 10


def nvbench_seeds():
    yield "repeated_states.json", dumps(nvbench_doc([nvbench_state()] * NVBENCH_STATES))
    yield "distinct_states.json", dumps(nvbench_doc(
        [nvbench_state(axes=[{"name": "N", "type": "int64", "value": str(i)}])
         for i in range(NVBENCH_STATES)]))
    yield "many_devices.json", dumps(nvbench_doc(
        [nvbench_state(device=i) for i in range(NVBENCH_STATES)]))
    yield "many_summaries.json", dumps(nvbench_doc(
        [nvbench_state(extra=[(f"user/{i}", "1") for i in range(NVBENCH_STATES)])]))
    yield "time_overflow.json", dumps(nvbench_doc([nvbench_state(gpu="1.7e308")]))
    yield "time_edges.json", dumps(nvbench_doc(
        [nvbench_state(gpu=text) for text in ("1e400", "-0", "nan", "inf", "0x1p3", " 1", "")]))
    yield "count_edges.json", dumps(nvbench_doc([nvbench_state(
        extra=[("nv/cold/sample_size", str(U64_MAX))])]))
    yield "errors_everywhere.json", dumps(nvbench_doc(
        [nvbench_state(skipped="Unexpected error: " + "x" * 100)] * NVBENCH_STATES))
    yield "long_reason.json", dumps(nvbench_doc([nvbench_state(skipped="s" * RUN)]))
    yield "long_name.json", dumps(nvbench_doc([nvbench_state()], name="n" * RUN))
    yield "deep_axes.json", ('{"meta":{"argv":[],"version":{"json":{"major":1}}},"benchmarks":'
                             '[{"name":"b","states":[{"is_skipped":false,"axis_values":'
                             + "[" * DEEP + "]" * DEEP + "}]}]}")
    yield "newer_major.json", dumps(nvbench_doc([nvbench_state()], major=2))
    yield "run_of_quotes.json", '"' * RUN


def nvbench_jsonbin_input(flags, states, sidecar=b""):
    """The nvbench_jsonbin target's layout (nvbench_jsonbin_fuzz.cpp): a flags line, one line per
    state of tab-separated fields (N, filename, size, gpu mean, skipped; "~" leaves one out),
    "--", the sidecar's bytes. nvbench writes FILE-bin/0.bin of little-endian float32 seconds
    (json_printer.cu, write_jsonbin_sidecar)."""
    lines = [flags] + ["\t".join(fields) for fields in states]
    return ("\n".join(lines) + "\n--\n").encode("utf-8", "surrogatepass") + sidecar


def float32s(values):
    return b"".join(struct.pack("<f", v) for v in values)


def nvbench_jsonbin_seeds():
    warm = [0.0105, 0.0042] + [0.0021 + i * 1e-6 for i in range(14)]
    good = ("2048", "nvbench.json-bin/0.bin", "16", "0.0027619374595815316", "0")
    yield "jsonbin_valid", nvbench_jsonbin_input("R", [good], float32s(warm))
    yield "jsonbin_valid_not_required", nvbench_jsonbin_input("", [good], float32s(warm))
    # Declared sizes around the file's 16 samples, at the limit (2^24) and past int64.
    for size in ("15", "17", "0", "-1", "16777216", "16777217", "9223372036854775807",
                 "9223372036854775808", "1e3", " 16", ""):
        yield f"jsonbin_size_{size.strip() or 'empty'}", nvbench_jsonbin_input(
            "R", [good[:2] + (size,) + good[3:]], float32s(warm))
    # Names that leave the capture, name the JSON itself or a directory, or are absurd.
    names = ["../outside/0.bin", "/etc/hostname", "nvbench.json-bin/../nvbench.json",
             "nvbench.json-bin", "", ".", "nvbench.json-bin/0.bin\x00x", "a" * 4096,
             "a/" * 2000 + "0.bin", "nvbench.json-bin//0.bin", "nvbench.json-bin/./0.bin"]
    for index, name in enumerate(names):
        yield f"jsonbin_name_{index}", nvbench_jsonbin_input(
            "R", [(good[0], name) + good[2:]], float32s(warm))
    # The sidecar directory a symlink out of the capture, the file a directory, or absent.
    for flags in ("RL", "RD", "RN", "RS", "L", "N"):
        yield f"jsonbin_flags_{flags}", nvbench_jsonbin_input(flags, [good], float32s(warm))
    # Samples that are no times, at float32's edges, and the warm-up rule's edges.
    edges = [float("nan"), float("inf"), -1e-6, -0.0, 1e-45, 3.4028234e38]
    for index, value in enumerate(edges):
        samples = warm[:8] + [value] + warm[9:]
        yield f"jsonbin_sample_{index}", nvbench_jsonbin_input("R", [good], float32s(samples))
    for count in (1, 7, 8, 9):
        yield f"jsonbin_count_{count}", nvbench_jsonbin_input(
            "R", [good[:2] + (str(count),) + good[3:]], float32s(warm[:count]))
    yield "jsonbin_all_warm", nvbench_jsonbin_input(
        "R", [good], float32s([0.0105 / (i + 1) for i in range(16)]))
    # 2^20 samples (4 MiB), and the largest float32 in every one of them.
    many = 1 << 20
    yield "jsonbin_many", nvbench_jsonbin_input(
        "R", [good[:2] + (str(many),) + good[3:]], float32s([0.0021]) * many)
    yield "jsonbin_huge_values", nvbench_jsonbin_input(
        "R", [good[:2] + (str(many),) + good[3:]], float32s([3.4028234e38]) * many)
    # Eight states: every one naming the same file, one without a summary under R, skipped ones.
    states = [(str(i), "nvbench.json-bin/0.bin", "16", "0.002", str(i % 2)) for i in range(8)]
    yield "jsonbin_eight_states", nvbench_jsonbin_input("RS", states, float32s(warm))
    # A state with nvbench's mean and no sample summary ("~": the field is left out), beside one
    # with both; required, the first must fail the read; not required, it is the mean.
    for flags in ("R", ""):
        yield f"jsonbin_one_without_{flags or 'free'}", nvbench_jsonbin_input(
            flags, [good, ("1024", "~", "~", "0.0003", "0")], float32s(warm))
    yield "jsonbin_size_only", nvbench_jsonbin_input("R", [("2048", "~", "16", "0.002")],
                                                     float32s(warm))
    yield "jsonbin_long_fields", nvbench_jsonbin_input(
        "R", [("n" * RUN, "nvbench.json-bin/0.bin", "16", "9" * 4096)], float32s(warm))
