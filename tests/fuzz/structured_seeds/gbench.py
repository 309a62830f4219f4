"""Google Benchmark's --benchmark_out JSON."""
from structured_seeds.common import DEEP, REPEATED, RUN, U64_MAX, dumps
from structured_seeds.nvidia import NVBENCH_STATES


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
             "iterations_negative": [gbench_run(iterations=-2**63)],
             # Repetitions whose median (the mean of the middle two) overflows a double.
             "median_past_max": [gbench_run(real=1.6e308, repetitions=2, repetition_index=i)
                                 for i in range(2)]}
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
