"""Replays one real trial of an h39d.sh cells run: copies the Proton chrome trace that trial N of
cell C wrote on the GPU machine to where aorta's proton collector (mode: env) asks for trial N of
cell C now. Only the judge runs again; every number comes from the GPU capture.

env: H39_REPLAY_RUN (the run directory from trials.tgz), H39_CELL, AORTA_PROTON_NAME.
"""
import os
import shutil
import sys

target = os.environ["AORTA_PROTON_NAME"]  # <output>/<cell>/trial_<n>/proton/proton
trial = os.path.basename(os.path.dirname(os.path.dirname(target)))
source = os.path.join(os.environ["H39_REPLAY_RUN"], os.environ["H39_CELL"], trial, "proton",
                      "proton.chrome_trace")
if not os.path.isfile(source):
    print(f"replay_trace: no capture at {source}", file=sys.stderr)
    sys.exit(1)
shutil.copyfile(source, target + ".chrome_trace")
