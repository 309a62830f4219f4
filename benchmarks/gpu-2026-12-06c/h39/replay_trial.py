#!/usr/bin/env python3
"""Replays one recorded GPU process as a gbench trial: copies $REPLAY_DIR/trial_<N>.json (written
by replay_gate.py) to the --benchmark_out path aorta's gbench collector gives trial N."""
import os
import re
import shutil
import sys

out = next(a[len("--benchmark_out="):] for a in sys.argv[1:] if a.startswith("--benchmark_out="))
trial = re.search(r"trial_(\d+)", out).group(1)
shutil.copyfile(os.path.join(os.environ["REPLAY_DIR"], f"trial_{trial}.json"), out)
