#!/usr/bin/env python3
"""Structure-aware seeds for the reader fuzz targets (issue 18), written into OUTDIR.

Mutating small fixtures rarely builds what broke the readers in the second audit: nesting
thousands deep, long runs of one byte, 10^5 repeated elements, lengths or counts far beyond the
file, numbers at the edge of their type, SQL views that never end. These generators build each
class on purpose, in the format of the target, so every CI run starts from them and libFuzzer
mutates from there. Every file is hand-made from the format's published layout (MessagePack spec,
Proton's hatchet / chrome trace output, rocprofv3's CSV, JSON and rocpd schema, ncu's CSV,
callgrind's format, compute-sanitizer's text report, nvbench's and Google Benchmark's JSON); none is committed.

usage: make_structured_seeds.py TARGET OUTDIR   (prints the files written, one per line)
"""
import json
import os
import sqlite3
import struct
import sys

DEEP = 100_000      # levels: far past every depth limit (512 JSON, 4096 scanner)
REPEATED = 100_000  # elements: the count that no mutation of a small seed reaches
RUN = 1 << 20       # bytes of one repeated byte
U64_MAX = 2**64 - 1


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def leaf(name="k", count=1, ns=1.0):
    return {"frame": {"name": name}, "metrics": {"count": count, "time (ns)": ns}}


def tree(children):
    return [{"frame": {"name": "ROOT", "type": "function"}, "metrics": {},
             "children": children}, {}]


def hatchet_seeds():
    yield "deep_arrays.hatchet", "[" * DEEP + "]" * DEEP
    frames = 700  # past the JSON depth limit, as frames nested in children
    opening = "".join(f'{{"frame":{{"name":"f{i}"}},"metrics":{{}},"children":['
                      for i in range(frames))
    yield "deep_frames.hatchet", ('[{"frame":{"name":"ROOT"},"metrics":{},"children":[' + opening
                                  + dumps(leaf()) + "]}" * frames + "]},{}]")
    yield "repeated_kernels.hatchet", dumps(tree([leaf() for _ in range(REPEATED)]))
    yield "distinct_paths.hatchet", dumps(tree(
        [{"frame": {"name": f"p{i}"}, "metrics": {}, "children": [leaf()]}
         for i in range(REPEATED)]))
    yield "count_u64_max.hatchet", dumps(tree([leaf(count=U64_MAX), leaf("j", 1)]))
    yield "count_sum_past_int64.hatchet", dumps(tree([leaf("a", 2**63 - 1), leaf("b", 1)]))
    yield "time_overflow.hatchet", dumps(tree([leaf(ns=1.7e308), leaf(ns=1.7e308)]))
    yield "long_name.hatchet", dumps(tree([leaf("a" * RUN)]))
    yield "long_number.hatchet", '[{"frame":{"name":"ROOT"},"metrics":{"count":' + "9" * RUN + "}}]"
    yield "run_of_quotes.hatchet", '"' * RUN
    yield "run_of_spaces.hatchet", " " * RUN + "[]"


def msgpack(value, out=None):
    """MessagePack of a JSON-like value (the subset Proton writes), per the spec's formats."""
    top = out is None
    out = [] if top else out
    if value is None:
        out.append(b"\xc0")
    elif value is True or value is False:
        out.append(b"\xc3" if value else b"\xc2")
    elif isinstance(value, int):
        if 0 <= value < 128:
            out.append(bytes([value]))
        elif value >= 0:
            out.append(b"\xcf" + struct.pack(">Q", value))
        else:
            out.append(b"\xd3" + struct.pack(">q", value))
    elif isinstance(value, float):
        out.append(b"\xcb" + struct.pack(">d", value))
    elif isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        out.append(b"\xdb" + struct.pack(">I", len(data)) + data)
    elif isinstance(value, list):
        out.append(b"\xdd" + struct.pack(">I", len(value)))
        for item in value:
            msgpack(item, out)
    else:
        out.append(b"\xdf" + struct.pack(">I", len(value)))
        for key, item in value.items():
            msgpack(key, out)
            msgpack(item, out)
    return b"".join(out) if top else None


def hatchet_msgpack_seeds():
    yield "deep.hatchet_msgpack", b"\x91" * DEEP + b"\x90"
    yield "deep_maps.hatchet_msgpack", b"\x91" + b"\x81\xa1k" * DEEP + b"\xc0"
    yield "huge_array.hatchet_msgpack", b"\x92\x81\xa1k\xdd\xff\xff\xff\xff\x00"
    yield "huge_map.hatchet_msgpack", b"\x92\xdf\xff\xff\xff\xff\xa1k"
    yield "huge_string.hatchet_msgpack", b"\xdb\xff\xff\xff\xff{"
    yield "repeated_kernels.hatchet_msgpack", msgpack(tree([leaf() for _ in range(REPEATED)]))
    yield "count_u64_max.hatchet_msgpack", msgpack(tree([leaf(count=U64_MAX)]))
    yield "nan_time.hatchet_msgpack", msgpack(tree([leaf(ns=float("nan"))]))
    yield "long_string.hatchet_msgpack", msgpack(tree([leaf("\xff" * 1000 + "a" * RUN)]))
    trace = {"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "dur": 1e306}] * 3}
    yield "trace_overflow.hatchet_msgpack", msgpack(dumps(trace))
    yield "trace_deep.hatchet_msgpack", msgpack("[" * DEEP)


def chrome_trace_seeds():
    def event(name="k", dur=1.0, stack=None):
        e = {"ph": "X", "cat": "kernel", "name": name, "dur": dur}
        if stack is not None:
            e["args"] = {"call_stack": stack}
        return e
    yield "distinct_paths.chrome_trace", dumps(
        {"traceEvents": [event(stack=["ROOT", f"f{i}", "k"]) for i in range(REPEATED)]})
    yield "repeated_events.chrome_trace", dumps(
        {"traceEvents": [event()] * REPEATED})
    yield "dur_overflow.chrome_trace", dumps({"traceEvents": [event(dur=1e306)] * 2})
    yield "dur_sum_overflow.chrome_trace", dumps({"traceEvents": [event(dur=1.7e305)] * 2})
    yield "dur_negative.chrome_trace", dumps({"traceEvents": [event(dur=-1)]})
    yield "deep_args.chrome_trace", ('{"traceEvents":[{"ph":"X","cat":"kernel","name":"k",'
                                     '"dur":1,"args":' + "[" * DEEP + "]" * DEEP + "}]}")
    yield "long_stack.chrome_trace", dumps(
        {"traceEvents": [event(stack=["ROOT"] + ["f"] * REPEATED + ["k"])]})
    yield "run_of_brackets.chrome_trace", "{" * RUN


STATS_HEADER = ('"Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs",'
                '"StdDev"\n')


def rocprof_csv_seeds():
    yield "repeated_kernel_stats.csv", STATS_HEADER + '"k",1,10,10,1,10,10,0\n' * REPEATED
    yield "distinct_kernel_stats.csv", STATS_HEADER + "".join(
        f'"k{i}",1,10,10,1,10,10,0\n' for i in range(REPEATED))
    yield "calls_u64_max_kernel_stats.csv", STATS_HEADER + f'"k",{U64_MAX},10,10,1,10,10,0\n'
    yield "calls_sum_kernel_stats.csv", STATS_HEADER + f'"k",{2**63 - 1},1,1,1,1,1,0\n"k",1,1,1,1,1,1,0\n'
    yield "time_overflow_kernel_stats.csv", STATS_HEADER + '"k",1,1e308,1,1,1,1,0\n' * 3
    yield "long_field_kernel_stats.csv", STATS_HEADER + '"' + "a" * RUN + '",1,1,1,1,1,1,0\n'
    yield "run_of_commas_kernel_stats.csv", STATS_HEADER + "," * RUN + "\n"


def rocprof_json_seeds():
    yield "deep_results.json", '{"rocprofiler-sdk-tool":' + "[" * DEEP + "]" * DEEP + "}"
    dispatch = {"dispatch_info": {"kernel_id": 1}, "start_timestamp": 1, "end_timestamp": 2}
    yield "repeated_results.json", dumps({"rocprofiler-sdk-tool": [{
        "kernel_symbols": [{"kernel_id": 1, "kernel_name": "k"}],
        "buffer_records": {"kernel_dispatch": [dispatch] * REPEATED}}]})
    yield "number_edges_results.json", ('{"rocprofiler-sdk-tool":[{"buffer_records":'
                                        '{"kernel_dispatch":[{"start_timestamp":1e400,'
                                        f'"end_timestamp":{U64_MAX}}}]}}}}]}}')
    yield "many_values_results.json", "[" + ",".join(["0"] * (5 * REPEATED)) + "]"


def ncu_csv_seeds():
    header = '"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
    yield "repeated_ncu.csv", header + '"0","1","k","gpu__time_duration.sum","ns","10"\n' * REPEATED
    yield "distinct_ncu.csv", header + "".join(
        f'"{i}","1","k{i}","gpu__time_duration.sum","ns","10"\n' for i in range(REPEATED))
    yield "overflow_ncu.csv", header + '"0","1","k","gpu__time_duration.sum","s","1e308"\n' * 3
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


def gbench_doc(runs, context=None):
    """Google Benchmark's --benchmark_out JSON (src/json_reporter.cc: a context object and a
    benchmarks array of runs, as tests/fixtures/gbench holds)."""
    return {"context": {"date": "2026-12-01T21:48:08+00:00", "host_name": "vm",
                        "executable": "/tmp/bench", "num_cpus": 2, "mhz_per_cpu": 2100,
                        "cpu_scaling_enabled": False, "caches": [], "load_avg": [0.5],
                        "library_build_type": "release"} if context is None else context,
            "benchmarks": runs}


def gbench_run(name="BM_k", real=10.0, unit="ns", **extra):
    run = {"name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
           "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
           "iterations": 1000, "real_time": real, "cpu_time": real, "time_unit": unit}
    run.update(extra)
    return run


def gbench_raw_run(field, text):
    """One run with `field` spelt as raw JSON text: numbers json.dumps cannot write."""
    spelt = dumps(gbench_doc([gbench_run(c=1.0)]))
    return spelt.replace(f'"{field}":', f'"{field}":{text},"{field}_was":', 1)


GBENCH_NUMBERS = {"1e400": "1e400", "neg_1e400": "-1e400", "neg_zero": "-0.0", "nan": "NaN",
                  "infinity": "Infinity", "u64_past_max": str(2**64), "i64_past_min": str(-2**63 - 1),
                  "long_digits": "9" * 4096, "tiny": "4.9e-324", "hex": "0x10", "empty": '""'}


# 10^5 runs are 22 MB of JSON, and parsing them alone under ASan and coverage ran past
# -timeout=10 on a loaded 2-vCPU VM (4.6 s of CPU in 12.5 s): 10^4 runs, as for nvbench's states.
GBENCH_RUNS = REPEATED // 10


def gbench_seeds():
    repeated = {"runs": gbench_run(), "aggregates": gbench_run(run_type="aggregate"),
                "errors": gbench_run(error_occurred=True, error_message="planted " + "x" * 100),
                "skips": gbench_run(skipped=True, skip_message="not here")}
    for label, run in repeated.items():
        yield f"repeated_{label}.json", dumps(gbench_doc([run] * GBENCH_RUNS))
    yield "distinct_runs.json", dumps(gbench_doc([gbench_run(f"BM_{i}") for i in range(GBENCH_RUNS)]))
    wide = range(NVBENCH_STATES)  # counters or labels of one run, or one counter a run
    yield "many_counters.json", dumps(gbench_doc([gbench_run(**{f"c{i}": 1.0 * i for i in wide})]))
    yield "many_labels.json", dumps(gbench_doc([gbench_run(**{f"l{i}": "t" * 64 for i in wide})]))
    yield "counter_per_run.json", dumps(gbench_doc([gbench_run(**{f"c{i}": 1.0}) for i in wide]))
    edges = {**{f"time_max_{u}": [gbench_run(real=1.7e308, unit=u)] for u in ("ns", "us", "s")},
             "time_sum_past_max": [gbench_run(real=1.7e308)] * 3,
             "time_negative": [gbench_run(real=-1.0)], "counter_huge": [gbench_run(c=1.7e308)] * 2,
             "iterations_u64_max": [gbench_run(iterations=U64_MAX)] * 2,
             "iterations_negative": [gbench_run(iterations=-2**63)]}
    for label, runs in edges.items():
        yield f"{label}.json", dumps(gbench_doc(runs))
    for label, text in GBENCH_NUMBERS.items():
        for field in ("real_time", "iterations", "c"):
            yield f"number_{label}_{field}.json", gbench_raw_run(field, text)
    # Declared counts and lengths far beyond the file: aorta must not size anything by them.
    yield "huge_declared_counts.json", dumps(gbench_doc(
        [gbench_run(repetitions=U64_MAX, repetition_index=U64_MAX - 1, threads=2**63,
                    family_index=-1, per_family_instance_index=U64_MAX)] * 3,
        context={"num_cpus": U64_MAX, "caches": [{"size": U64_MAX, "num_sharing": 0}],
                 "json_schema_version": 1}))
    wrong_types = {"name_number": gbench_run(name=7), "name_empty": gbench_run(name=""),
                   "run_type_number": gbench_run(run_type=1), "unit_number": gbench_run(unit=1),
                   "run_type_unknown": gbench_run(run_type="bigO"), "run_null": None,
                   "error_text": gbench_run(error_occurred="yes"), "run_array": [gbench_run()],
                   "error_no_message": gbench_run(error_occurred=True),
                   "skipped_text": gbench_run(skipped="true", skip_message=5),
                   "time_text": gbench_run(real="10"), "time_null": gbench_run(real=None),
                   "counter_object": gbench_run(c={"v": 1}), "unit_unknown": gbench_run(unit="min")}
    for label, run in wrong_types.items():
        yield f"wrong_{label}.json", dumps(gbench_doc([gbench_run(), run]))
    wrong_docs = {"benchmarks_object": {"context": {}, "benchmarks": {"a": gbench_run()}},
                  "context_array": {"context": [], "benchmarks": [gbench_run()]},
                  "top_level_array": [gbench_doc([gbench_run()])],
                  **{f"schema_version_{v}": gbench_doc([gbench_run()], {"json_schema_version": v})
                     for v in (2, "1", 1.5, -1, U64_MAX)}}
    for label, doc in wrong_docs.items():
        yield f"wrong_{label}.json", dumps(doc)
    longs = {"name": [gbench_run("n" * RUN)] * 2, "unit": [gbench_run(unit="u" * RUN)],
             "error": [gbench_run(error_occurred=True, error_message="e" * RUN)],
             "counter_key": [gbench_run(**{"k" * RUN: 1.0})], "label": [gbench_run(l="l" * RUN)]}
    for label, runs in longs.items():
        yield f"long_{label}.json", dumps(gbench_doc(runs))
    yield "deep_counter.json", (dumps(gbench_doc([gbench_run()]))[:-3]
                                + ',"c":' + "[" * DEEP + "]" * DEEP + "}]}")
    yield "deep_context.json", '{"context":' + "[" * DEEP + "]" * DEEP + ',"benchmarks":[]}'
    yield "deep_benchmarks.json", '{"context":{},"benchmarks":' + "[" * DEEP + "]" * DEEP + "}"
    yield "run_of_quotes.json", '"' * RUN
    yield "run_of_braces.json", '{"context":{},"benchmarks":[' + "{" * RUN


def callgrind_seeds():
    head = "version: 1\ncreator: callgrind\nevents: Ir\n"
    yield "repeated_callgrind.out", head + "fn=(1) main\n" + "0 1\n" * REPEATED
    yield "distinct_callgrind.out", head + "".join(f"fn=(%d) f%d\n0 1\n" % (i + 1, i)
                                                   for i in range(REPEATED))
    yield "calls_u64_callgrind.out", head + (f"fn=(1) main\ncfn=(2) f\ncalls={U64_MAX} 0\n"
                                             f"0 {U64_MAX}\n0 {U64_MAX}\n")
    # Calls summed over many call sites until the total passes 2^63.
    yield "calls_sum_callgrind.out", head + "fn=(1) main\n" + (
        f"cfn=(2) f\ncalls={2**62} 0\n0 1\n" * REPEATED)
    yield "long_line_callgrind.out", head + "fn=(1) " + "a" * RUN + "\n0 1\n"


def sanitizer_log_seeds():
    banner = "========= COMPUTE-SANITIZER\n"
    block = ("========= Invalid __global__ write of size 4 bytes\n"
             "=========     at k()+0x10 in oob.cu:{}\n"
             "=========     by thread (0,0,0) in block (0,0,0)\n=========\n")
    yield "distinct_locations.log", banner + "".join(block.format(i) for i in range(REPEATED // 4)) \
        + f"========= ERROR SUMMARY: {REPEATED // 4} errors\n"
    kinds = "".join(f"========= Invalid kind {i} of size 4 bytes\n=========\n"
                    for i in range(REPEATED // 2))
    yield "distinct_kinds.log", banner + kinds + f"========= ERROR SUMMARY: {REPEATED // 2} errors\n"
    yield "total_u64_max.log", banner + f"========= ERROR SUMMARY: {U64_MAX} errors\n"
    yield "totals_sum.log", banner + f"========= ERROR SUMMARY: {2**63 - 1} errors\n" \
        + banner + "========= ERROR SUMMARY: 1 errors\n"
    yield "long_line.log", banner + "========= " + "x" * RUN + "\n"


def rocpd_database(path, dispatch_view=None, metadata_view=None, symbols=None, dispatches=None):
    """A schema-3 rocpd database, direct layout (tests/fixtures/rocpd/make_rocpd.py's columns),
    with any of its views replaced by a hostile one."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE meta (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
        "INSERT INTO meta (tag, value) VALUES ('schema_version', '3');"
        "CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT, "
        "absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT, "
        "product_name TEXT);"
        "INSERT INTO rocpd_info_agent VALUES (1, 'g', 'GPU', 0, 0, 'a', 'gfx942', 'MI300X');"
        "CREATE TABLE symbols (id INTEGER PRIMARY KEY, guid TEXT, kernel_name TEXT, "
        "display_name TEXT);"
        "CREATE TABLE dispatch (id INTEGER PRIMARY KEY, guid TEXT, agent_id INTEGER, "
        "kernel_id INTEGER, start BIGINT, \"end\" BIGINT);")
    db.executemany("INSERT INTO symbols VALUES (?, 'g', ?, ?)",
                   symbols or [(1, "k.kd", "k"), (2, "j.kd", "")])
    db.executemany("INSERT INTO dispatch (guid, agent_id, kernel_id, start, \"end\") "
                   "VALUES ('g', 1, ?, ?, ?)", dispatches or [(1, 100, 110), (2, 200, 230)])
    db.execute("CREATE VIEW rocpd_metadata AS " + (metadata_view or "SELECT * FROM meta"))
    db.execute("CREATE VIEW rocpd_info_kernel_symbol AS SELECT * FROM symbols")
    db.execute("CREATE VIEW rocpd_kernel_dispatch AS " + (dispatch_view or "SELECT * FROM dispatch"))
    db.commit()
    db.close()


ENDLESS = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "


def rocpd_seeds(outdir):
    cases = {
        "plain": {},
        "endless_dispatch": {"dispatch_view": ENDLESS + "SELECT i AS id, 'g' AS guid, 1 AS "
                             "agent_id, 1 + i % 2 AS kernel_id, i AS start, i + 5 AS \"end\" "
                             "FROM n"},
        "endless_distinct_kernels": {"dispatch_view": ENDLESS + "SELECT i AS id, 'g' AS guid, 1 "
                                     "AS agent_id, i AS kernel_id, i AS start, i + 1 AS \"end\" "
                                     "FROM n", "symbols": [(1, "k.kd", "k")]},
        "endless_metadata": {"metadata_view": ENDLESS + "SELECT i AS id, 'schema_version' AS "
                             "tag, '3' AS value FROM n"},
        "repeated_dispatches": {"dispatch_view": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                                f"SELECT i + 1 FROM n WHERE i < {REPEATED}) SELECT i AS id, 'g' "
                                "AS guid, 1 AS agent_id, 1 AS kernel_id, i AS start, i + 3 AS "
                                "\"end\" FROM n"},
        "null_and_text_times": {"dispatch_view": "SELECT id, guid, agent_id, kernel_id, CASE id "
                                "WHEN 1 THEN NULL WHEN 2 THEN 'soon' ELSE start END AS start, "
                                "\"end\" FROM dispatch"},
        "end_before_start": {"dispatches": [(1, 500, 100), (2, 1, 2)]},
        "null_names": {"symbols": [(1, None, None), (2, None, None)]},
        "sum_overflow": {"dispatches": [(1, 0, 2**62), (1, 0, 2**62), (1, 0, 2**62)]},
    }
    for name, spec in cases.items():
        path = os.path.join(outdir, f"{name}_results.db")
        rocpd_database(path, **spec)
        yield path


def main(argv):
    target, outdir = argv
    os.makedirs(outdir, exist_ok=True)
    generators = {"hatchet": hatchet_seeds, "hatchet_msgpack": hatchet_msgpack_seeds,
                  "chrome_trace": chrome_trace_seeds, "rocprof_csv": rocprof_csv_seeds,
                  "rocprof_json": rocprof_json_seeds, "ncu_csv": ncu_csv_seeds,
                  "callgrind": callgrind_seeds, "sanitizer_log": sanitizer_log_seeds,
                  "nvbench": nvbench_seeds, "gbench": gbench_seeds}
    if target == "rocpd":
        for path in rocpd_seeds(outdir):
            print(path)
        return 0
    if target not in generators:
        return 0  # no structured seeds for this target (recipe, check: their own seeds)
    for name, data in generators[target]():
        path = os.path.join(outdir, "structured-" + name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
