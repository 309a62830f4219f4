"""Proton's formats: hatchet JSON, hatchet_msgpack (MessagePack spec) and the chrome trace."""
import struct

from structured_seeds.common import DEEP, REPEATED, RUN, U64_MAX, dumps, leaf, tree


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
    yield from pc_sample_seeds()


def pc_sample_seeds():
    """PC-sampling trees (a kernel node over source-line children with num_samples and
    stalled_<reason>): many lines, many reasons, counts at and past the limit, deep lines."""
    def line(name, samples, **reasons):
        metrics = {"num_samples": samples, "num_stalled_samples": 0}
        metrics.update({f"stalled_{r}": v for r, v in reasons.items()})
        return {"frame": {"name": name, "type": "function"}, "metrics": metrics, "children": []}

    def kernel(lines, name="k"):
        return {"frame": {"name": name, "type": "function"},
                "metrics": {"count": 1, "time (ns)": 10, "device_type": "CUDA"}, "children": lines}
    yield "pc_many_lines.hatchet", dumps(tree([kernel(
        [line(f"/src/p.py:{i}@k", 1) for i in range(REPEATED)])]))
    yield "pc_many_reasons.hatchet", dumps(tree([kernel(
        [line("/p.py:1@k", 5, **{f"r{i}": 1 for i in range(REPEATED)})])]))
    yield "pc_sum_past_int64.hatchet", dumps(tree([kernel(
        [line("/a/p.py:1@k", 2**63 - 1), line("/b/p.py:1@k", 1)])]))
    yield "pc_u64_max.hatchet", dumps(tree([kernel([line("/p.py:1@k", U64_MAX)])]))
    yield "pc_lines_under_root.hatchet", dumps(tree([line(f"/p.py:{i}@k", i) for i in range(99)]))
    # 10^4 kernel nodes and 2 * 10^4 lines, not 10^5: the target renders the view and the
    # metrics too, and 10^5 kernel nodes passed libFuzzer's 2 GB under ASan (the 10^5 scale runs in
    # tests/unit/pc_samples_scale_test.cpp without the sanitizer's overhead).
    yield "pc_kernels_sharing_lines.hatchet", dumps(tree(
        [kernel([line("/p.py:1@k", 3, wait=2)], name=f"k{i % 7}") for i in range(10_000)]))
    # Issue 45's hostile shapes: negative and overflowing counts of every field, reasons without
    # a sample count, more stalled than sampled, 20 reasons on each of 2 * 10^4 lines (the view's and
    # the metrics' per-reason sums), and names that make the metric keys and the locations odd.
    yield "pc_negative_samples.hatchet", dumps(tree([kernel([line("/p.py:1@k", -3)])]))
    yield "pc_negative_reason.hatchet", dumps(tree([kernel([line("/p.py:1@k", 5, wait=-1)])]))
    yield "pc_reason_u64_max.hatchet", dumps(tree([kernel(
        [line("/p.py:1@k", 5, wait=U64_MAX), line("/p.py:2@k", 5, wait=U64_MAX)])]))
    yield "pc_reasons_without_samples.hatchet", dumps(tree([kernel([
        {"frame": {"name": "/p.py:1@k"}, "metrics": {"stalled_wait": 4}, "children": []}])]))
    yield "pc_more_stalled_than_sampled.hatchet", dumps(tree([kernel([
        {"frame": {"name": "/p.py:1@k"},
         "metrics": {"num_samples": 1, "num_stalled_samples": 9, "stalled_wait": 9}}])]))
    twenty = {r: 1 for r in ("barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss",
                             "lg_throttle", "long_scoreboard", "math_pipe_throttle", "membar",
                             "mio_throttle", "misc", "no_instruction", "not_selected", "selected",
                             "short_scoreboard", "sleeping", "tex_throttle", "wait", "branch",
                             "gmma")}
    yield "pc_many_lines_all_reasons.hatchet", dumps(tree([kernel(
        [line(f"/src/p.py:{i}@k", 40, **twenty) for i in range(20_000)])]))
    yield "pc_odd_names.hatchet", dumps(tree([kernel(
        [line("/a/b@c/p.py:1@k@x", 3, wait=1), line("@", 2), line("/", 1), line("", 1),
         line("p.py:1@" + "@" * 1000, 1)], name="k/with/slashes_pc_line_samples.x")]))


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
    # The launch series (launch_series.hpp): one kernel past its 262,144-launch limit, warm-up
    # launches whose steady median times the launch count overflows, and hostile `ts` values.
    def launch(dur, ts):
        return '{"ph":"X","cat":"kernel","name":"k","dur":%s,"ts":%s}' % (dur, ts)
    yield "launches_past_limit.chrome_trace", (
        '{"traceEvents":[' + ",".join(launch(1, i) for i in range((1 << 18) + 1)) + "]}")
    warm = [launch(100, 0), launch(50, 1)] + [launch(1.7e307, i + 2) for i in range(18)]
    yield "warmup_sum_overflow.chrome_trace", '{"traceEvents":[' + ",".join(warm) + "]}"
    stamps = ["NaN", "Infinity", "-Infinity", "1e308", "-1e308", '"7"', "null", "[]", "{}", "0",
              "0", "-0", "1e-320", "9" * 400, "true", "2", "3", "4", "5", "6"]
    hostile = [launch(10 if i < 3 else 1, ts) for i, ts in enumerate(stamps)]
    yield "warmup_hostile_ts.chrome_trace", '{"traceEvents":[' + ",".join(hostile) + "]}"
