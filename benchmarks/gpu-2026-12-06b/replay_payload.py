#!/usr/bin/env python3
"""Replays one recorded GPU process as a gbench trial: copies $REPLAY_DIR/<cell>/trial_<N>.json
(written by replay_pool.py) to the --benchmark_out path that aorta's gbench collector gives."""
import os
import shutil
import sys

out = next(a[len("--benchmark_out="):] for a in sys.argv[1:] if a.startswith("--benchmark_out="))
trial_dir = os.path.dirname(os.path.dirname(out))
cell, trial = os.path.basename(os.path.dirname(trial_dir)), os.path.basename(trial_dir)
shutil.copyfile(os.path.join(os.environ["REPLAY_DIR"], cell, trial + ".json"), out)
