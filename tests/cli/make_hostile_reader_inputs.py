#!/usr/bin/env python3
"""Writes the hostile inputs of tests/cli/hostile_readers.cmake into the directory given (issue 18,
the readers' findings). Generated at test time, never committed; each says what it attacks. The
formats are hand-made from their published layouts (MessagePack spec; Proton's hatchet tree and
chrome trace output; the aorta baseline and result.json of docs/output-files.md)."""
import json
import os
import shutil
import sys

out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)


def write(relative, data):
    path = os.path.join(out, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def tree(count, ns=100.0, name="k"):
    return json.dumps([{"frame": {"name": "ROOT", "type": "function"}, "metrics": {},
                        "children": [{"frame": {"name": name, "type": "function"},
                                      "metrics": {"count": count, "time (ns)": ns,
                                                  "device_type": "CUDA", "device_id": "0"},
                                      "children": []}]}, {}])


# (1) 100 KB of nested MessagePack arrays: SIGSEGV in check, view and sweep run. Behind the start
# of a Proton document ([{}, ...]) so the nesting, not the shape, is what is refused.
write("deep_msgpack/proton.hatchet_msgpack", b"\x92\x80" + b"\x91" * 100_000 + b"\x90")
# (3) a baseline nested 10^6 deep: SIGSEGV in baseline show, compare, sweep run --baseline.
depth = 1_000_000
write("deep_baseline/hotspot.json",
      '{"schema":"aorta-baseline","schema_version":1,"test":"hotspot","trials":' + "[" * depth
      + "]" * depth + "}")
# (4) a result.json nested 10^6 deep: SIGSEGV in compare and baseline record.
write("deep_result/t/trial_0/result.json",
      '{"schema":"aorta-result","schema_version":1,"metrics":' + "[" * depth + "]" * depth + "}")
# (13) a kernel count of 2^64-1: proton_kernel_count = -1 passed `< 100`.
write("count_u64_max/proton.hatchet", tree(2**64 - 1))
# (15) backups beside the capture were summed: 20 launches became 49.
write("backups/proton.hatchet", tree(20))
write("backups/proton.hatchet~", tree(14))
write("backups/proton.hatchet.bak", tree(15))
# (16) a dur of 1e306 µs became +inf ns and passed `time_ms(k) > 1`.
write("dur_overflow/proton.chrome_trace", json.dumps({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "dur": 1e306,
     "args": {"call_stack": ["ROOT", "k"]}}]}))
# (26) a FIFO given to view hung it.
os.makedirs(os.path.join(out, "fifo"), exist_ok=True)
os.mkfifo(os.path.join(out, "fifo", "proton.hatchet"))
