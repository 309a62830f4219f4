"""aorta's own result.json (docs/output-files.md), as `aorta report` reads it back: the metrics
object and the kernels array, which the report's reader converts as it parses, at sizes, depths
and with duplicate keys no mutation of a fixture reaches."""
from structured_seeds.common import DEEP, REPEATED, RUN, U64_MAX, dumps


def record(metrics=None, kernels=None, **extra):
    doc = {"schema": "aorta-result", "schema_version": 1, "verdict": "pass", "reason": "",
           "started_at": "2026-12-02T00:00:00Z", "metrics": metrics or {}, "kernels": kernels or []}
    doc.update(extra)
    return doc


def kernel(name="k", launches=1, total_ms=1.0, collector="c"):
    return {"name": name, "launches": launches, "total_ms": total_ms, "collector": collector}


# Each input is parsed four times (both readers check the limits, then build): 10^4 elements, as
# for gbench's runs, keep one inside -timeout=10 under ASan on a loaded VM.
RECORD_ROWS = REPEATED // 10


def result_json_seeds():
    yield "many-metrics.json", dumps(record({f"m.{i}": i * 0.5 for i in range(RECORD_ROWS)}))
    yield "many-kernels.json", dumps(record(kernels=[kernel(f"k{i}", collector=f"c{i}")
                                                     for i in range(RECORD_ROWS)]))
    yield "deep-metric.json", dumps(record()).replace('"metrics":{}', '"metrics":{"m":' +
                                                      "[" * DEEP + "]" * DEEP + "}")
    yield "deep-kernel.json", dumps(record()).replace('"kernels":[]', '"kernels":[' +
                                                      "[" * 400 + "]" * 400 + "]")
    yield "long-name.json", dumps(record({"x" * RUN: 1}, [kernel("k" * RUN)]))
    yield "edge-numbers.json", dumps(record(
        {"u64_max": U64_MAX, "past_i64": 2**63, "neg": -2**63, "tiny": 5e-324, "big": 1e308},
        [kernel(launches=U64_MAX, total_ms=-0.0), kernel(launches=-1)]))
    # The DOM keeps the later of two equal keys; the reader must too.
    text = dumps(record({"a": 1}, [kernel()]))
    yield "duplicate-keys.json", text.replace(
        '"metrics":{"a":1}', '"metrics":{"a":{"bad":1},"a":2,"b":[1],"b":null},"metrics":{"a":3}')
    yield "wrong-types.json", dumps(record({"z": {"o": 1}, "b": [1, 2], "a": True},
                                           [kernel(), 5, {"name": 6}], reason=7))
