#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""One rank of a data-parallel training run, started the way torchrun
starts one: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT in the environment,
a Gloo process group. It trains MODEL once per setting (tasks.py) and, on
rank 0, prints one line per setting: "TRAIN-REC " and the record as JSON
(accuracy, curve, bytes per step on IFACE, step time, weights digest, inccl
and NIC counters). Used by scripts/bench-train.sh (ranks in network
namespaces) and scripts/demo-train-guest.sh (ranks in QEMU guests).

usage: scripts/train/rank.py --model mlp|cnn|charlm [--seed N]
         [--settings NAME,...] [--steps N] [--eval N] [--transport sw|nic|none]
         [--iface IFACE] [--nic-counters] [--threads N] [--powersgd-start N]
--transport: the inccl transport of the ring-* and wa-* settings (default sw).
--nic-counters: sample `ethtool -S IFACE` around each setting (the record's
  "nic": per rank, the counters' deltas).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from tasks import MODELS, Task, parse_settings, run_rank  # noqa: E402


def ethtool_counters(iface):
    out = subprocess.run(["ethtool", "-S", iface], capture_output=True, text=True, check=True).stdout
    c = {}
    for line in out.splitlines():
        k, sep, v = line.partition(":")
        if sep and v.strip().isdigit():
            c[k.strip()] = int(v)
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, choices=MODELS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--settings", default="stock")
    ap.add_argument("--steps", type=int, default=0)
    ap.add_argument("--eval", type=int, default=50)
    ap.add_argument("--transport", default="sw", choices=("sw", "nic", "none"))
    ap.add_argument("--iface", default="lo")
    ap.add_argument("--nic-counters", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--powersgd-start", type=int, default=None,
                    help="PowerSGD's start_powerSGD_iter (default: its own, 1000)")
    a = ap.parse_args()
    try:
        settings = parse_settings(a.settings, [])
    except ValueError as e:
        ap.error(f"--settings: {e}")
    if a.steps < 0 or a.eval < 1:
        ap.error("--steps >= 0, --eval >= 1")
    if not os.path.exists(f"/sys/class/net/{a.iface}"):
        ap.error(f"--iface {a.iface}: no such interface")
    for v in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        if v not in os.environ:
            ap.error(f"{v} is not set (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, as torchrun sets them)")
    torch.set_num_threads(a.threads)
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    counters = (lambda: ethtool_counters(a.iface)) if a.nic_counters else None

    def emit(rec):
        print("TRAIN-REC " + json.dumps(rec), flush=True)
    run_rank(rank, world, Task(a.model), a.seed, settings, a.steps, a.eval, emit,
             iface=a.iface, transport=a.transport, nic_counters=counters,
             log=lambda m: print("#" + m, flush=True), powersgd_start=a.powersgd_start)
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
