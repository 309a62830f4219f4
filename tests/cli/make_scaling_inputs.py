#!/usr/bin/env python3
"""Writes the inputs of tests/cli/scaling.cmake into the directory given (issue 21): each grows one
awkward dimension that once made a reader or `aorta view` super-linear. Generated at test time,
never committed. Hand-made from the published layouts (Proton's chrome trace and hatchet tree,
tests/fixtures/proton-formats/README.md; rocpd: tests/fixtures/rocpd/make_rocpd.py).

usage: make_scaling_inputs.py OUT [--scale F] [--only NAME,...]
  F multiplies every size (1 = the test sizes); --only writes just those folders of OUT, so that
  benchmarks/scaling.py can grow one input further without writing every other one at that size.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

parser = argparse.ArgumentParser(description="write the scaling inputs")
parser.add_argument("out")
parser.add_argument("--scale", type=float, default=1.0)
parser.add_argument("--only", default="", help="comma-separated folder names (default: all)")
args = parser.parse_args()
out = args.out
only = set(filter(None, args.only.split(",")))
FOLDERS = ("deep_stack", "many_gpus", "many_scopes", "many_agents", "many_agent_rows",
           "deep_call_path", "many_metrics_results", "many_collectors_results",
           "many_cells_results")
if only - set(FOLDERS):
    sys.exit(f"make_scaling_inputs.py: --only names no input folder {sorted(only - set(FOLDERS))}; "
             f"the folders are {', '.join(FOLDERS)}")
# With --only the other folders of OUT stay as they are.
if only:
    for folder in only:
        shutil.rmtree(os.path.join(out, folder), ignore_errors=True)
else:
    shutil.rmtree(out, ignore_errors=True)


def wanted(folder):
    assert folder in FOLDERS, folder
    return not only or folder in only


def size(n):
    return max(1, int(n * args.scale))


def write(relative, text):
    path = os.path.join(out, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def node(name, metrics, children=()):
    return {"frame": {"name": name, "type": "function"}, "metrics": metrics,
            "children": list(children)}


def kernel(name, ns=1000.0):
    return node(name, {"count": 1, "time (ns)": ns, "device_type": "CUDA", "device_id": "0"})


# One kernel event whose call stack is 3,000 frames deep (about 26 KB): `aorta view` took ~60 s.
if wanted("deep_stack"):
    depth = size(3000)
    stack = ["ROOT"] + [f"f{i}" for i in range(depth)] + ["deep_kernel"]
    write("deep_stack/proton.chrome_trace", json.dumps({"traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "deep_kernel", "dur": 2.5, "ts": 0,
         "args": {"call_stack": stack}}]}))

# A device table of 200,000 GPUs: each entry was looked up by a walk over the ones before.
if wanted("many_gpus"):
    gpus = size(200_000)
    devices = {"CUDA": {str(i): {"arch": "90", "num_sms": 132} for i in range(gpus)}}
    write("many_gpus/proton.hatchet",
          json.dumps([node("ROOT", {}, [kernel("gemm")]), devices]))

# 100,000 instrumentation scopes under one kernel; a cycles() check on one of them and on one
# that is not there (the message lists the scopes).
if wanted("many_scopes"):
    scopes = size(100_000)
    write("many_scopes/proton.hatchet", json.dumps([node("ROOT", {}, [node("scoped_kernel", {}, [
        node(f"scope_{i}", {"cycles": 1000 + i, "normalized_cycles": 1.0 + i, "device_id": "0",
                            "device_type": "1"}) for i in range(scopes)])]), {}]))

# A rocpd database with 50,000 agents, each running one dispatch.
if wanted("many_agents"):
    agents = size(50_000)
    os.makedirs(os.path.join(out, "many_agents"))
    make_rocpd = os.path.join(os.path.dirname(__file__), "..", "fixtures", "rocpd", "make_rocpd.py")
    subprocess.run([sys.executable, make_rocpd,
                    os.path.join(out, "many_agents", "aorta_results.db"), "--agents", str(agents)],
                   check=True)

# A rocprofv3 agent_info.csv of 200,000 GPU rows (the columns of tests/fixtures/rocprof/README.md):
# each agent was compared with every one kept before it.
if wanted("many_agent_rows"):
    agent_rows = size(200_000)
    rows = ["Node_Id,Logical_Node_Id,Agent_Type,Name,Product_Name,Cu_Count"]
    rows += [f"{i},{i},GPU,gfx942,MI300X,304" for i in range(agent_rows)]
    write("many_agent_rows/run_agent_info.csv", "\n".join(rows) + "\n")
    write("many_agent_rows/run_kernel_stats.csv",
          "Name,Calls,TotalDurationNs,AverageNs,Percentage,MinNs,MaxNs,StdDev\n"
          "agent_kernel,1,100,100,100,100,100,0\n")

# A call stack of 150,000 frames with 36-byte names (5.4 MB): an under() check built the frame's
# display path by prepending each name to a copy of the path below it (17 s per check).
if wanted("deep_call_path"):
    path_depth = size(150_000)
    names = (["ROOT"] + [f"frame_{i:06d}_of_a_long_call_path" for i in range(path_depth - 1)] +
             ["deepest_frame", "leaf"])
    write("deep_call_path/proton.chrome_trace", json.dumps({"traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "leaf", "dur": 2.5, "ts": 0,
         "args": {"call_stack": names}}]}))

# A results directory whose one trial has 200,000 numeric metrics: perf.md looked each name of
# the cell's summary up in the list of names shown so far (10 s at 100,000).
def result_json(metrics, kernels):
    """A passing trial's result.json (the layout trial_record.cpp writes) with these values."""
    return json.dumps({
        "schema_version": 1, "aorta_version": "0.1.0", "argv": [], "command": ["true"],
        "collectors": ["proton"], "env_set": {}, "env_unset": [], "exit_status": 0,
        "signal": None, "timed_out": False, "trial_index": 0, "verdict": "pass", "reason": "",
        "checks": [], "kernels": kernels, "notes": [], "metric_notes": [],
        "started_at": "2026-12-02T00:00:00Z", "ticket": "", "recipe_path": "", "versions": {},
        "wall_seconds": 1.0, "working_directory": "/", "metrics": metrics})


if wanted("many_metrics_results"):
    result_metrics = size(200_000)
    write("many_metrics_results/cell/trial_0/result.json", result_json(
        {f"proton_scope_cycles.scope_{i}": 1000.0 + i for i in range(result_metrics)}, []))

# A trial whose 80,000 kernel rows each name another collector: the report grouped the rows
# with a search of the collectors seen so far and a walk over every row per collector.
if wanted("many_collectors_results"):
    kernel_collectors = size(80_000)
    write("many_collectors_results/cell/trial_0/result.json", result_json({}, [
        {"collector": f"collector_{i}", "launches": 1, "name": f"kernel_{i}", "total_ms": 1.0}
        for i in range(kernel_collectors)]))

# A sweep's output of 30,000 cells of one trial each, with the sweep's matrix.json: the report
# searched every swept cell for each of its own to carry the sweep's keys over (40 s here).
if wanted("many_cells_results"):
    sweep_cells = size(30_000)
    for i in range(sweep_cells):
        write(f"many_cells_results/cell_{i}/trial_0/result.json", result_json({"x": 1.0}, []))
    write("many_cells_results/matrix.json", json.dumps({
        "schema": "aorta-matrix", "schema_version": 1, "generated_at": "2026-12-02T00:00:00Z",
        "cells": [{"name": f"cell_{i}", "mitigations": [f"mitigation_{i}"]}
                  for i in range(sweep_cells)]}))
