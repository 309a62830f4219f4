#!/usr/bin/env python3
"""Writes the hostile inputs of tests/cli/hostile.cmake into the directory given (issue 10).

Generated at test time, never committed: some are megabytes, and each says what it attacks.
"""
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


GOOD_RESULT = json.dumps({"schema_version": 1, "verdict": "pass", "trial_index": 0})
STATS_HEADER = '"Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"\n'

# (3) a rocprofv3 results file nested 10^6 deep (2 MB): the JSON copy recursed to death.
depth = 1_000_000
write("deep_results/node/1_results.json",
      '{"rocprofiler-sdk-tool":' + "[" * depth + "]" * depth + "}")
# (6) a number out of double range: out_of_range escaped a catch of parse_error only.
write("overflow_results/node/1_results.json",
      '{"rocprofiler-sdk-tool":[{"buffer_records":{"kernel_dispatch":'
      '[{"start_timestamp":1e400}]}}]}')

# (4) report over a metrics object nested 10^5 deep, beside a good trial.
write("report_deep/good/trial_0/result.json", GOOD_RESULT)
write("report_deep/deep/trial_0/result.json",
      '{"schema_version":1,"verdict":"pass","metrics":' + '{"m":' * 100_000 + "1"
      + "}" * 100_000 + "}")
# (5) report over a result.json holding bytes that are not UTF-8, beside a good trial.
write("report_bad_utf8/good/trial_0/result.json", GOOD_RESULT)
write("report_bad_utf8/bad/trial_0/result.json",
      b'{"schema_version":1,"verdict":"pass","reason":"\xff\xfe"}')
# (8) a result.json of a schema this aorta does not know, claiming a pass.
write("report_schema99/good/trial_0/result.json", GOOD_RESULT)
write("report_schema99/future/trial_0/result.json",
      json.dumps({"schema_version": 99, "verdict": "pass", "trial_index": 0}))

# (8) a .json recipe with a trailing comma, which YAML would accept.
write("trailing_comma.json", '{\n  "schema_version": 1,\n  "trials": 2,\n}\n')
# (17) a directory given as the recipe.
os.makedirs(os.path.join(out, "recipe_dir"), exist_ok=True)
# (15) a recipe far larger than any recipe: 2 MiB of comment lines.
write("huge_recipe.yaml", "schema_version: 1\n" + ("# padding " * 100 + "\n") * 2100)
# (5) a ticket that is not UTF-8.
write("bad_ticket.yaml", b"schema_version: 1\nticket: \"T-\xff\xfe\"\n")

# (5, 17) kernel names with bytes that are not UTF-8, and with a terminal escape and a NUL.
write("bad_utf8_stats/aorta_kernel_stats.csv",
      STATS_HEADER.encode() + b'"bad\xff\xfename",3,300,100.0,100.0,100,100,0.0\n')
write("escape_stats/aorta_kernel_stats.csv",
      STATS_HEADER.encode() + b'"\x1b[31mRED\x00kernel",3,300,100.0,100.0,100,100,0.0\n')
# (17) a rocprof file of a name the reader does not know.
write("unknown_rocprof_file.csv", STATS_HEADER)
