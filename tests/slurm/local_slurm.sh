#!/usr/bin/env bash
# A throw-away Slurm cluster on this machine for the `slurm` CTest label: munged, slurmctld and
# two slurmd ("nodes" aorta-n1 and aorta-n2, both 127.0.0.1 on their own ports), all started in
# the foreground of this shell's background jobs with their config, state, sockets and logs under
# WORK_DIR, never through systemd, and stopped by pid on exit. Sourced by slurm_shards.sh.
#
# local_slurm_start WORK_DIR  -> sets SLURM_CONF and local_slurm_pids; returns 1 with a reason
# local_slurm_stop            -> TERM, then KILL after 5 s, each pid it started; idempotent

local_slurm_pids=()

local_slurm_work=""

# Every process carrying this cluster's marker AORTA_LOCAL_SLURM=<work> in its environment: the
# daemons (started with it) and the slurmstepd they fork (found by pid through /proc, not by name).
local_slurm_descendants() {
  [[ -n "$local_slurm_work" ]] || return 0
  local environ
  for environ in /proc/[0-9]*/environ; do
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qxF "AORTA_LOCAL_SLURM=$local_slurm_work"; then
      environ=${environ#/proc/}; echo "${environ%/environ}"
    fi
  done
}

local_slurm_stop() {
  local pid
  # Let finished jobs' slurmstepd report to slurmd before it goes.
  for _ in $(seq 50); do
    [[ -z $(squeue -h 2>/dev/null) ]] && break
    sleep 0.2
  done
  for pid in "${local_slurm_pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for _ in $(seq 50); do
    local alive=0
    for pid in "${local_slurm_pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "${local_slurm_pids[@]}"; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  for pid in $(local_slurm_descendants); do
    kill -KILL "$pid" 2>/dev/null
  done
  local_slurm_pids=()
}

local_slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

local_slurm_start() {
  local work=$1
  local_slurm_work=$work
  rm -rf "$work" && mkdir -p "$work"/{munge,state,spool/n1,spool/n2,log,run}
  chmod 700 "$work/munge"
  dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$work/munge/munge.key"
  local socket=$work/munge/munge.socket
  AORTA_LOCAL_SLURM=$work munged --foreground --force --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/run/munged.pid" --log-file="$work/log/munged.log" \
    --seed-file="$work/munge/munge.seed" > "$work/log/munged.out" 2>&1 &
  local_slurm_pids+=($!)
  local ctld_port n1_port n2_port
  ctld_port=$(local_slurm_free_port); n1_port=$(local_slurm_free_port); n2_port=$(local_slurm_free_port)
  local cpus; cpus=$(nproc)
  cat > "$work/slurm.conf" <<CONF
ClusterName=aorta-ci
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.%n.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=aorta-n1 NodeAddr=127.0.0.1 NodeHostname=$(hostname -s) Port=$n1_port CPUs=$cpus State=UNKNOWN
NodeName=aorta-n2 NodeAddr=127.0.0.1 NodeHostname=$(hostname -s) Port=$n2_port CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=aorta-n1,aorta-n2 Default=YES MaxTime=10 State=UP OverSubscribe=YES
CONF
  export SLURM_CONF=$work/slurm.conf
  for _ in $(seq 50); do [[ -S "$socket" ]] && break; sleep 0.1; done
  [[ -S "$socket" ]] || { echo "local-slurm: munged did not start (see $work/log/munged.log)"; return 1; }
  AORTA_LOCAL_SLURM=$work slurmctld -D -i -f "$SLURM_CONF" > "$work/log/slurmctld.out" 2>&1 &
  local_slurm_pids+=($!)
  AORTA_LOCAL_SLURM=$work slurmd -D -N aorta-n1 -f "$SLURM_CONF" > "$work/log/slurmd.n1.out" 2>&1 &
  local_slurm_pids+=($!)
  AORTA_LOCAL_SLURM=$work slurmd -D -N aorta-n2 -f "$SLURM_CONF" > "$work/log/slurmd.n2.out" 2>&1 &
  local_slurm_pids+=($!)
  for _ in $(seq 100); do
    if [[ $(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle') == 2 ]]; then return 0; fi
    sleep 0.2
  done
  echo "local-slurm: the two nodes did not become idle in 20 s:"
  sinfo -N 2>&1; tail -5 "$work"/log/*.log "$work"/log/*.out 2>/dev/null
  return 1
}
