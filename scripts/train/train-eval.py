#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""make train-eval: data-parallel training with the inceptionn DDP hook,
against stock DDP and the hooks users would pick instead.

For each model and seed, WORLD ranks (processes on 127.0.0.1, a Gloo
process group) train the same model from the same initial weights once per
setting (tasks.py lists the models and the settings), in one process group.
Rank r draws its own batches (seeded by seed and r); rank 0 evaluates the
test set every EVAL steps. Per setting it records the curve (test accuracy
and training loss), the final accuracy, the bytes the loopback interface
carried per step and rank (kernel counters: every byte of every transport,
headers included), inccl's own counters, and the step time. Then one table
(OUT/table.md) and the plots (OUT/*.png); docs/training.md shows them.

usage: scripts/train/train-eval.py [--models mlp,cnn,charlm] [--seeds 1,2,3]
         [--settings all|short|NAME,...] [--steps N] [--eval N] [--world 4]
         [--out DIR] [--check] [--no-plots] [--summarize] [--keep]
         [--paper-once MODELS]
--paper-once (default charlm): these models' paper-mode settings run on the
  first seed only (paper trains bit-identically to sparse; a charlm run is
  3 minutes here).
--check: the assertions of the shortened CI form (check()); exit 1 on failure.
"""
import argparse
import json
import math
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402


from tasks import MODELS, Task, all_settings, parse_settings, run_rank  # noqa: E402

SHORT = ["stock", "fp16", "powersgd-r2", "wa-k10", "ring-k10-sparse", "ring-k8-sparse-ef",
         "ring-k6-paper"]


def die_with_parent():
    """SIGKILL this rank when the process that started it dies (prctl
    PR_SET_PDEATHSIG): killing train-eval stops its ranks too."""
    import ctypes
    import signal
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the parent died before prctl
        os._exit(1)


def rank_main(rank, world, port, model_name, seed, settings, steps, every, out):
    die_with_parent()
    torch.set_num_threads(1)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                      RANK=str(rank), WORLD_SIZE=str(world))
    dist.init_process_group("gloo", rank=rank, world_size=world)

    def emit(rec):
        with open(out, "a") as f:
            f.write(json.dumps(rec) + "\n")
    run_rank(rank, world, Task(model_name), seed, settings, steps, every, emit,
             log=lambda m: print(m, flush=True))
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the table and plots
def summarize(recs, out_dir, plots=True):
    by = {}
    for r in recs:
        by.setdefault((r["model"], r["setting"]), []).append(r)
    models = sorted({r["model"] for r in recs}, key=MODELS.index)
    # every known setting, the width ones (run only when named) after the
    # sparse ones of the same k
    known = []
    for s in all_settings():
        known.append(s)
        if s.startswith("ring") and s.endswith("-sparse-ef"):
            known += [s[:-3].replace("-sparse", "-width"), s.replace("-sparse", "-width")]
    order = [s for s in known if any(k[1] == s for k in by)]
    lines = ["| model | setting | test accuracy % (mean ± sd) | vs stock | steps to stock's "
             "accuracy (per seed) | kB/step/rank, all steps | vs stock | vs fp16 | "
             "kB/step/rank, last 100 | step ms |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]

    def mean(rs, key):
        return float(np.mean([r[key] for r in rs]))
    for m in models:
        stock, fp = by.get((m, "stock")), by.get((m, "fp16"))
        for s in order:
            rs = by.get((m, s))
            if not rs:
                continue
            accs = [r["acc"] for r in rs]
            reach = []
            for r in rs:
                target = next((x["acc"] for x in stock or [] if x["seed"] == r["seed"]), None)
                reach.append(next((st for st, a, _ in r["curve"]
                                   if target is not None and a >= target), None))
            reach_s = "/".join("-" if h is None else str(h) for h in reach)
            b = mean(rs, "bytes_per_step")
            vs = lambda ref: f"{mean(ref, 'bytes_per_step') / b:.1f}x" if ref else "-"  # noqa: E731
            d = f"{np.mean(accs) - mean(stock, 'acc'):+.2f}" if stock else "-"
            lines.append(f"| {m} | {s} | {np.mean(accs):.2f} ± {np.std(accs):.2f} ({len(rs)}) | "
                         f"{d} | {reach_s} | {b / 1e3:.1f} | {vs(stock)} | {vs(fp)} | "
                         f"{mean(rs, 'bytes_per_step_tail') / 1e3:.1f} | "
                         f"{mean(rs, 'step_ms_tail'):.1f} |")
    table = "\n".join(lines)
    with open(os.path.join(out_dir, "table.md"), "w") as f:
        f.write(table + "\n")
    if plots:
        plot(by, models, order, out_dir)
    return table


PEERS = ["stock", "fp16", "powersgd-r1", "powersgd-r2", "powersgd-r4", "wa-k10",
         "ring-k10-sparse", "ring-k8-sparse-ef"]


def plot(by, models, order, out_dir):
    """train-MODEL.png (accuracy against the peers, accuracy and loss by k)
    and bytes-per-step.png."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def mean_curve(rs, i):
        return [p[0] for p in rs[0]["curve"]], np.mean([[p[i] for p in r["curve"]] for r in rs], axis=0)

    colors = {12: "tab:blue", 10: "tab:green", 8: "tab:orange", 6: "tab:red"}
    for m in models:
        fig, ax = plt.subplots(1, 3, figsize=(18, 5.5))
        stock = by.get((m, "stock"))
        low = max(0.0, np.mean([r["acc"] for r in stock]) - 15) if stock else 0.0
        for s in PEERS:
            rs = by.get((m, s))
            if rs:
                x, y = mean_curve(rs, 1)
                ax[0].plot(x, y, "-" if s.startswith(("ring", "wa")) else "--",
                           lw=2.5 if s == "stock" else 1.2, label=s)
        for s in ["stock"] + [f"ring-k{k}-sparse{e}" for k in colors for e in ("", "-ef")]:
            rs = by.get((m, s))
            if not rs:
                continue
            k = int(s.split("-")[1][1:]) if s != "stock" else None
            kw = {"color": "black", "lw": 2.5} if k is None else \
                {"color": colors[k], "lw": 1.2, "ls": "--" if s.endswith("-ef") else "-"}
            for i, a in ((1, ax[1]), (2, ax[2])):
                x, y = mean_curve(rs, i)
                a.plot(x, y, label=s, **kw)
        ax[0].set(xlabel="step", ylabel="test accuracy %", ylim=(low, None),
                  title=f"{m}: test accuracy, the hook against its peers")
        ax[1].set(xlabel="step", ylabel="test accuracy %", ylim=(low, None),
                  title=f"{m}: ring by k (dashed: error feedback)")
        ax[2].set(xlabel="step", ylabel="training loss (rank 0's batch)", yscale="log",
                  title=f"{m}: training loss by k")
        for a in ax:
            a.legend(fontsize=7, ncol=2)
            a.grid(alpha=0.3)
        fig.suptitle(f"{m}: mean over seeds; paper mode trains exactly as sparse (same "
                     "quantization, other packing), so only sparse is drawn", fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, f"train-{m}.png"), dpi=72)
        plt.close(fig)
    fig, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 0.3 * len(order) + 1.8),
                             squeeze=False)
    for a, m in zip(axes[0], models):
        labels, vals, cols = [], [], []
        for s in order:
            rs = by.get((m, s))
            if rs:
                labels.append(s)
                vals.append(np.mean([r["bytes_per_step_tail"] for r in rs]) / 1e3)
                cols.append("tab:green" if s.startswith("ring") else
                            "tab:gray" if s == "stock" else "tab:purple")
        a.barh(range(len(vals)), vals, color=cols)
        a.set_yticks(range(len(vals)), labels, fontsize=7)
        a.set_xscale("log")
        a.set(xlabel="kB per step per rank on the wire (loopback counters, log)", title=m)
        a.invert_yaxis()
        a.grid(alpha=0.3, axis="x")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "bytes-per-step.png"), dpi=72)
    plt.close(fig)


def check(recs, settings):
    """The shortened form's assertions; a list of failures."""
    bad = []
    got = {(r["model"], r["setting"]) for r in recs}
    for m in {r["model"] for r in recs}:
        for s in settings:
            if (m, s) not in got:
                bad.append(f"{m} {s}: no result")
    by = {(r["model"], r["setting"], r["seed"]): r for r in recs}
    for r in recs:
        tag = f"{r['model']} seed {r['seed']} {r['setting']}"
        if not r["finite"] or not math.isfinite(r["loss"]):
            bad.append(f"{tag}: weights or loss not finite")
        if not r["same_weights"]:
            bad.append(f"{tag}: ranks ended with different weights")
        if r["acc"] < 80.0 and r["model"] in ("mlp", "cnn"):
            bad.append(f"{tag}: test accuracy {r['acc']:.1f}% (under 80%)")
        if r["setting"].startswith(("ring", "wa")):
            st = r["inccl"]
            if not st or st["calls"] < r["steps"]:
                bad.append(f"{tag}: inccl made {st.get('calls') if st else 0} calls in {r['steps']} steps")
            stock = by.get((r["model"], "stock", r["seed"]))
            if r["setting"].startswith("ring-k10") and stock and r["acc"] < stock["acc"] - 3.0:
                bad.append(f"{tag}: accuracy {r['acc']:.1f}% vs stock {stock['acc']:.1f}%")
            fp = by.get((r["model"], "fp16", r["seed"]))
            if r["setting"].startswith("ring") and fp and \
                    r["bytes_per_step_tail"] >= fp["bytes_per_step_tail"]:
                bad.append(f"{tag}: {r['bytes_per_step_tail']:.0f} B/step, not under fp16's "
                           f"{fp['bytes_per_step_tail']:.0f}")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="mlp,cnn,charlm")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--settings", default="all")
    ap.add_argument("--steps", type=int, default=0, help="steps per run (default: per model)")
    ap.add_argument("--eval", type=int, default=50, help="evaluate every N steps")
    ap.add_argument("--world", type=int, default=4)
    ap.add_argument("--out", default="build/train-eval")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--summarize", action="store_true", help="only redo the table and plots")
    ap.add_argument("--keep", action="store_true",
                    help="keep OUT/results.jsonl and run only what it lacks (resume)")
    ap.add_argument("--paper-once", default="charlm",
                    help="models whose paper-mode settings run on the first seed only")
    a = ap.parse_args()
    models = a.models.split(",")
    for m in models:
        if m not in MODELS:
            ap.error(f"--models: '{m}': one of {', '.join(MODELS)}")
    try:
        settings = parse_settings(a.settings, SHORT)
    except ValueError as e:
        ap.error(f"--settings: {e}")
    try:
        seeds = [int(x) for x in a.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds {a.seeds}: integers, comma-separated")
    if not 2 <= a.world <= 8:
        ap.error("--world: 2 to 8")
    if a.steps < 0 or a.eval < 1:
        ap.error("--steps >= 0, --eval >= 1")
    paper_once = [m for m in a.paper_once.split(",") if m]
    for m in paper_once:
        if m not in MODELS:
            ap.error(f"--paper-once: '{m}': one of {', '.join(MODELS)}")
    os.makedirs(a.out, exist_ok=True)
    res = os.path.join(a.out, "results.jsonl")
    if not a.summarize:
        done = set()
        if a.keep and os.path.exists(res):
            done = {(r["model"], r["seed"], r["setting"]) for r in map(json.loads, open(res))}
        elif os.path.exists(res):
            os.remove(res)
        # paper mode quantizes exactly as sparse does (it only packs the
        # classes differently: docs/codec.md), so it trains bit-identically;
        # for --paper-once models it runs on the first seed only, for its bytes
        plan = [(m, seed, [s for s in settings if (m, seed, s) not in done and
                           not (m in paper_once and seed != seeds[0] and "-paper" in s)])
                for m in models for seed in seeds]
        runs = sum(len(x[2]) for x in plan)
        t0 = time.time()
        print(f"train-eval: {runs} runs ({len(models)} model(s), seeds {a.seeds}, "
              f"{len(settings)} settings{', ' + str(len(done)) + ' kept' if done else ''}), "
              f"{a.world} ranks on 127.0.0.1 (results: {res})", flush=True)
        for m, seed, todo in plan:
            if todo:
                mp.spawn(rank_main, nprocs=a.world,
                         args=(a.world, free_port(), m, seed, todo, a.steps, a.eval, res))
        print(f"train-eval: {time.time() - t0:.0f} s", flush=True)
    recs = [json.loads(x) for x in open(res)]
    print(summarize(recs, a.out, plots=not a.no_plots))
    if a.check:
        bad = check(recs, settings)
        for b in bad:
            print("FAIL:", b)
        if bad:
            return 1
        print(f"check: {len(recs)} runs, every one passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
