# SPDX-License-Identifier: MIT
"""What the training evaluations share: the models and their data, the
settings (which DDP communication hook, with which options), and one rank's
training loop. Used by train-eval.py (ranks as processes on loopback),
rank.py (one rank per process, started by the caller: network namespaces,
QEMU guests) and docs/training.md describes all of it.

Models, on data that ships offline with Debian:
  mlp     64-256-128-10 on scikit-learn's digits (1437 training, 360 test
          images), SGD momentum 0.9, lr 0.05, batch 16 per rank
  cnn     2 conv (32, 64) + 2 linear on digits, the same optimizer
  charlm  a character LSTM (embedding 64, 1 layer of 128) on the GPL-3 and
          Apache-2.0 texts of /usr/share/common-licenses (base-files), Adam
          lr 0.005, 8 sequences of 32 characters per rank; accuracy is
          next-character accuracy on the last 10% of the text

Settings (names as the table and the command lines write them):
  stock          DDP's own all-reduce (Gloo), exact
  fp16           PyTorch's fp16_compress_hook
  powersgd-rR    PyTorch's powerSGD_hook, matrix_approximation_rank R
                 (1, 2, 4), its defaults otherwise (start_powerSGD_iter
                 1000: exact all-reduce for the first 1000 steps; every
                 model trains 1200 steps, the last 200 compressed)
  wa-kK          inccl, worker-aggregator baseline, transport T, k=K
  ring-kK-MODE[-ef]
                 inccl ring, transport T, k=K, MODE paper, sparse or width,
                 -ef: error feedback
  Every setting names its mode (wa-kK: sparse), whatever the hook's
  default: the figures of docs/training.md are sparse's and paper's.
  "all" has paper and sparse; the width settings (which train exactly as
  sparse, with fewer bytes on the wire with sw, and with nic on a NIC
  that advertises width mode, FEATURES bit 12, as the 16-lane one of
  register map 1.3 does; one without it sends them uncompressed) run
  when named.
  T is "sw" unless the caller says otherwise (rank.py --transport), or
  the name ends in @T (ring-k10-sparse@nic): one run can compare transports.
"""
import hashlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "userspace", "python"))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks  # noqa: E402
from torch.distributed.algorithms.ddp_comm_hooks import powerSGD_hook  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

import inceptionn.torch as inc  # noqa: E402

MODELS = ("mlp", "cnn", "charlm")


# ---- settings
def all_settings():
    s = ["stock", "fp16", "powersgd-r1", "powersgd-r2", "powersgd-r4", "wa-k10"]
    for k in (12, 10, 8, 6):
        for mode in ("paper", "sparse"):
            s += [f"ring-k{k}-{mode}", f"ring-k{k}-{mode}-ef"]
    return s


def known_settings():
    """all_settings() and the width settings, which run only when named."""
    s = all_settings()
    for k in (12, 10, 8, 6):
        s += [f"ring-k{k}-width", f"ring-k{k}-width-ef"]
    return s


TRANSPORTS = ("sw", "nic", "none")


def parse_settings(text, short):
    """'all', 'short' or NAME[@T],...: a list, or ValueError naming the bad one."""
    if text == "all":
        return all_settings()
    if text == "short":
        return list(short)
    names = text.split(",")
    for s in names:
        base, at, t = s.partition("@")
        if base not in known_settings():
            raise ValueError(f"setting '{s}': one of {', '.join(known_settings())}")
        if at and (t not in TRANSPORTS or not base.startswith(("ring", "wa"))):
            raise ValueError(f"setting '{s}': @{t}: an inccl setting (ring-*, wa-*) "
                             f"with @ one of {', '.join(TRANSPORTS)}")
    return names


def attach(ddp, name, transport="sw", powersgd_start=None):
    """Register the setting's hook on ddp; the IncclState, or None.
    powersgd_start: PowerSGD's start_powerSGD_iter (None: its default)."""
    name, at, t = name.partition("@")
    if at:
        transport = t
    if name == "stock":
        return None
    if name == "fp16":
        ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)
        return None
    if name.startswith("powersgd-r"):
        kw = {} if powersgd_start is None else {"start_powerSGD_iter": powersgd_start}
        st = powerSGD_hook.PowerSGDState(process_group=None,
                                         matrix_approximation_rank=int(name[10:]), **kw)
        ddp.register_comm_hook(st, powerSGD_hook.powerSGD_hook)
        return None
    parts = name.split("-")
    algo, k = parts[0], int(parts[1][1:])
    mode = parts[2] if len(parts) > 2 and parts[2] != "ef" else "sparse"
    st = inc.IncclState(k=k, mode=mode, transport=transport, algorithm=algo,
                        error_feedback=name.endswith("-ef"))
    ddp.register_comm_hook(st, inc.allreduce_hook)
    return st


# ---- models and data
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b, self.c = nn.Linear(64, 256), nn.Linear(256, 128), nn.Linear(128, 10)

    def forward(self, x):
        return self.c(F.relu(self.b(F.relu(self.a(x.reshape(len(x), 64))))))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(1, 32, 3, padding=1), nn.Conv2d(32, 64, 3, padding=1)
        self.f, self.o = nn.Linear(64 * 4 * 4, 128), nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c2(F.relu(self.c1(x.reshape(len(x), 1, 8, 8))))), 2)
        return self.o(F.relu(self.f(x.flatten(1))))


class CharLM(nn.Module):
    def __init__(self, v):
        super().__init__()
        self.e, self.l, self.o = nn.Embedding(v, 64), nn.LSTM(64, 128, batch_first=True), nn.Linear(128, v)

    def forward(self, x):
        h, _ = self.l(self.e(x))
        return self.o(h).reshape(-1, self.o.out_features)


LICENSES = "/usr/share/common-licenses"


class Task:
    """A model, its data, its optimizer, its batches and its evaluation."""

    def __init__(self, name):
        if name not in MODELS:
            raise ValueError(f"model '{name}': one of {', '.join(MODELS)}")
        self.name = name
        if name in ("mlp", "cnn"):
            from sklearn.datasets import load_digits
            d = load_digits()
            X = torch.tensor(d.data / 16.0, dtype=torch.float32)
            Y = torch.tensor(d.target)
            perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
            X, Y = X[perm], Y[perm]
            cut = len(X) * 4 // 5  # 1437 training, 360 test images
            self.train, self.test = (X[:cut], Y[:cut]), (X[cut:], Y[cut:])
            self.batch, self.steps, self.lr = 16, 1200, 0.05
        else:
            text = "".join(open(os.path.join(LICENSES, f), encoding="utf-8").read()
                           for f in ("GPL-3", "Apache-2.0"))
            self.chars = sorted(set(text))
            idx = torch.tensor([self.chars.index(c) for c in text])
            cut = len(idx) * 9 // 10  # the last 10% held out
            self.train_idx, self.test_idx = idx[:cut], idx[cut:]
            self.batch, self.T, self.steps, self.lr = 8, 32, 1200, 0.005

    def model(self):
        if self.name == "charlm":
            return CharLM(len(self.chars))
        return {"mlp": MLP, "cnn": CNN}[self.name]()

    def optimizer(self, params):
        if self.name == "charlm":
            return torch.optim.Adam(params, lr=self.lr)
        return torch.optim.SGD(params, lr=self.lr, momentum=0.9)

    def draw(self, g):
        if self.name != "charlm":
            i = torch.randint(0, len(self.train[0]), (self.batch,), generator=g)
            return self.train[0][i], self.train[1][i]
        i = torch.randint(0, len(self.train_idx) - self.T - 1, (self.batch,), generator=g)
        x = torch.stack([self.train_idx[j:j + self.T] for j in i])
        y = torch.stack([self.train_idx[j + 1:j + self.T + 1] for j in i])
        return x, y.reshape(-1)

    @torch.no_grad()
    def accuracy(self, model):
        model.eval()
        if self.name != "charlm":
            acc = (model(self.test[0]).argmax(1) == self.test[1]).float().mean()
        else:
            t, T = self.test_idx, 128
            n = (len(t) - 1) // T
            x = t[:n * T].reshape(n, T)
            y = t[1:n * T + 1].reshape(-1)
            acc = (model(x).argmax(1) == y).float().mean()
        model.train()
        return 100.0 * float(acc)


# ---- counters
def tx_bytes(iface):
    with open(f"/sys/class/net/{iface}/statistics/tx_bytes") as f:
        return int(f.read())


def weights(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])


def digest(w):
    """sha256 of the weights' bytes (float32, in parameter order): 16 hex digits."""
    return hashlib.sha256(w.numpy().tobytes()).hexdigest()[:16]


# ---- one rank
def run_rank(rank, world, task, seed, settings, steps, every, emit, iface="lo",
             transport="sw", nic_counters=None, log=print, powersgd_start=None):
    """Train task once per setting on this rank of the default process
    group. Rank 0 evaluates the test set every `every` steps and at the end
    and calls emit(record) per setting. iface: the interface whose tx bytes
    count as this rank's bytes on the wire ("lo": every rank's share of the
    loopback's, which all ranks use). nic_counters: a function returning a
    dict of counters of this rank's NIC (sampled around each setting)."""
    steps = steps or task.steps
    shared = iface == "lo"
    for name in settings:
        torch.manual_seed(seed)
        model = task.model()
        ddp = DDP(model)
        st = attach(ddp, name, transport, powersgd_start)
        opt = task.optimizer(ddp.parameters())
        g = torch.Generator().manual_seed(seed * 1000 + rank)
        curve, loss = [], None
        tail = min(100, steps // 2)  # the steady state: the last `tail` steps
        ev = ev_tail = 0.0  # rank 0's seconds in evaluation (the others wait)
        dist.barrier()
        n0 = nic_counters() if nic_counters else None
        b0, t0 = tx_bytes(iface), time.perf_counter()
        for s in range(1, steps + 1):
            if s == steps - tail + 1:
                dist.barrier()
                bt, tt, ev_tail = tx_bytes(iface), time.perf_counter(), ev
            x, y = task.draw(g)
            opt.zero_grad()
            loss = F.cross_entropy(ddp(x), y)
            loss.backward()
            opt.step()
            if rank == 0 and (s % every == 0 or s == steps):
                e0 = time.perf_counter()
                curve.append((s, task.accuracy(model), float(loss)))
                ev += time.perf_counter() - e0
        dist.barrier()
        b1, t1 = tx_bytes(iface), time.perf_counter()
        ev_tail = ev - ev_tail
        n1 = nic_counters() if nic_counters else None
        w = weights(model)
        ws = [torch.empty_like(w) for _ in range(world)] if rank == 0 else None
        dist.gather(w, ws, dst=0)
        mine = {"bytes": (b1 - b0) / steps, "bytes_tail": (b1 - bt) / tail,
                "nic": {k: n1[k] - n0[k] for k in n1} if n1 else None,
                "inccl": st.stats() if st is not None else None}
        every_rank = [None] * world
        dist.all_gather_object(every_rank, mine)
        if st is not None:
            st.close()
        if rank != 0:
            continue
        if shared:  # the loopback's counter counts every rank's bytes
            per_rank = lambda key: mine[key] / world  # noqa: E731
        else:
            per_rank = lambda key: sum(r[key] for r in every_rank) / world  # noqa: E731
        rec = {"model": task.name, "seed": seed, "setting": name, "steps": steps,
               "world": world, "transport": st.transport if st is not None else None,
               "mode": st.mode if st is not None else None,  # resolved by inccl
               "acc": curve[-1][1], "loss": curve[-1][2], "curve": curve,
               "bytes_per_step": per_rank("bytes"), "bytes_per_step_tail": per_rank("bytes_tail"),
               "tail": tail, "iface": iface,
               # wall time per step on rank 0, its evaluations left out
               "step_ms": 1000.0 * (t1 - t0 - ev) / steps,
               "step_ms_tail": 1000.0 * (t1 - tt - ev_tail) / tail,
               "same_weights": all(torch.equal(ws[0], v) for v in ws),
               "finite": bool(torch.isfinite(w).all()), "digest": digest(w),
               "params": w.numel(), "inccl": every_rank[0]["inccl"],
               "nic": [r["nic"] for r in every_rank] if nic_counters else None}
        emit(rec)
        log(f"  {task.name:6s} seed {seed} {name:20s} acc {rec['acc']:6.2f}  loss "
            f"{rec['loss']:.3f}  {rec['bytes_per_step_tail'] / 1e3:9.1f} kB/step/rank  "
            f"{rec['step_ms_tail']:7.2f} ms/step  weights {rec['digest']}")
