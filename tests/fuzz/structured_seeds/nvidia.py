"""NVIDIA's tools: ncu's CSV (--csv --page raw) and nvbench's --json."""
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
