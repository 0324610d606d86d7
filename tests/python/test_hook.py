#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The inceptionn DDP hook (userspace/python/inceptionn/torch.py), TAP.

Ranks are processes on 127.0.0.1 in a Gloo process group, as torchrun would
start them. Checked: the package imports and finds libinccl, and says what
is missing when it cannot; argument errors; the hook's averaged gradients
against the exact average (float64) of every rank's own gradients, within
inccl_bound() on every element, for ring and wa, transports none and sw,
every mode (width's equal to sparse's bit for bit), several buckets; the
mode left out: inccl's default for the transport (width with sw), the
state reporting the resolved mode;
identical results on every rank; error
feedback kept per bucket and reset when a bucket changes size; a float64
model, a WORLD_SIZE that disagrees with the group, transport nic without
inceptionn.ko, a rank that dies: each a clear error, no hang; weights
identical on every rank after training, and the loss going down.
usage: /usr/bin/python3 tests/python/test_hook.py   (BUILD: the build dir)
"""
import hashlib
import os
import queue
import socket
import subprocess
import sys
import time
import traceback

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PKG = os.path.join(ROOT, "userspace", "python")
sys.path.insert(0, PKG)

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

import inceptionn.torch as inc  # noqa: E402
from inceptionn import _inccl  # noqa: E402

n_tests = 0
failed = 0


def ok(cond, what, diag=None):
    global n_tests, failed
    n_tests += 1
    if cond:
        print(f"ok {n_tests} - {what}", flush=True)
    else:
        failed += 1
        print(f"not ok {n_tests} - {what}", flush=True)
        for line in str(diag or "").splitlines():
            print(f"#   {line}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _entry(fn, rank, world, port, q, done, args, env):
    try:
        torch.set_num_threads(1)
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                          RANK=str(rank), WORLD_SIZE=str(world))
        os.environ.update(env)
        dist.init_process_group("gloo", rank=rank, world_size=world)
        q.put((rank, True, fn(rank, world, *args)))
    except BaseException as e:
        q.put((rank, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))
    q.close()
    q.join_thread()  # the queue's feeder thread has written the answer
    sys.stdout.flush()
    if rank == 0:  # it holds the process group's store: the others may still need it
        done.wait(60)
    os._exit(0)  # no teardown that could wait for a dead peer


def spawn(fn, world, *args, timeout=120, env=None):
    """Run fn(rank, world, *args) in world processes; {rank: (ok, value)}
    of the ranks that reported within timeout."""
    ctx = mp.get_context("spawn")
    q, done = ctx.Queue(), ctx.Event()
    port = free_port()
    ps = [ctx.Process(target=_entry, args=(fn, r, world, port, q, done, args, env or {}))
          for r in range(world)]
    for p in ps:
        p.start()
    res, end = {}, time.time() + timeout
    while len(res) < world and time.time() < end:
        try:
            r, good, v = q.get(timeout=0.5)
            res[r] = (good, v)
        except queue.Empty:
            # a rank that exited without answering will not answer
            if all(not p.is_alive() for r, p in enumerate(ps) if r not in res):
                break
    done.set()
    for p in ps:
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join()
    return res


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b, self.c = nn.Linear(64, 128), nn.Linear(128, 64), nn.Linear(64, 10)

    def forward(self, x):
        return self.c(torch.tanh(self.b(torch.relu(self.a(x)))))


def flat_grads(m):
    return torch.cat([p.grad.reshape(-1) for p in m.parameters()])


# ---- scenarios (run in every rank)
def grads_within_bound(rank, world, algo, transport, mode, k, ef, steps):
    """Hook results against the exact average, element by element."""
    import copy
    torch.manual_seed(0)
    model = Net()
    ref = copy.deepcopy(model)
    # DDP's first step reduces one bucket of everything; then it rebuilds
    # its buckets: first one up to _DEFAULT_FIRST_BUCKET_BYTES, then up to
    # bucket_cap_mb (a parameter is never split): 4 buckets from step 2 on
    dist._DEFAULT_FIRST_BUCKET_BYTES = 20000
    ddp = DDP(model, bucket_cap_mb=0.02)
    st = inc.IncclState(k=k, mode=mode, transport=transport, algorithm=algo, error_feedback=ef)
    ddp.register_comm_hook(st, inc.allreduce_hook)
    g = torch.Generator().manual_seed(100 + rank)
    worst, same, checked, calls, results = 0.0, True, 0, [], []
    for step in range(steps):
        x, y = torch.randn(32, 64, generator=g), torch.randint(0, 10, (32,), generator=g)
        ref.zero_grad()
        F.cross_entropy(ref(x), y).backward()
        model.zero_grad()
        F.cross_entropy(ddp(x), y).backward()
        calls.append(st.stats()["calls"] - sum(calls))
        mine, got = flat_grads(ref), flat_grads(model)
        alls = [torch.empty_like(mine) for _ in range(world)]
        dist.all_gather(alls, mine)
        gots = [torch.empty_like(got) for _ in range(world)]
        dist.all_gather(gots, got)
        same = same and all(torch.equal(gots[0], v) for v in gots)
        results.append(got.detach().numpy().tobytes())  # the bits, per step
        if ef and step > 0:
            continue  # the input now carries residuals: not the exact average
        stack = torch.stack(alls).double()
        exact = stack.sum(0) / world
        sum_abs = stack.abs().sum(0)
        err = (got.double() - exact).abs()
        for i in range(len(got)):
            b = st.comm.bound(float(sum_abs[i]), abs(float(got[i])), _inccl.AVG)
            if err[i] > b:
                return {"fail": f"step {step} element {i}: error {float(err[i]):.3g} > bound {b:.3g}"}
            worst = max(worst, float(err[i]) / b if b > 0 else 0.0)
            checked += 1
    stats = st.stats()
    efs = sorted((i, e.count) for i, e in st._ef.items())
    st.close()
    return {"worst": worst, "same": same, "checked": checked, "calls": calls,
            "ratio": stats["tx_float_bytes"] / max(1, stats["tx_bytes"]), "efs": efs,
            "ef_resets": st.ef_resets, "results": results,
            "nparams": sum(p.numel() for p in model.parameters())}


def train(rank, world, transport, steps):
    torch.manual_seed(0)
    model = Net()
    ddp = DDP(model)
    st = inc.IncclState(k=10, transport=transport)
    ddp.register_comm_hook(st, inc.allreduce_hook)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    g = torch.Generator().manual_seed(7 + rank)
    w_true = torch.randn(64, 10, generator=torch.Generator().manual_seed(1))
    losses = []
    for _ in range(steps):
        x = torch.randn(64, 64, generator=g)
        y = (x @ w_true).argmax(1)
        opt.zero_grad()
        loss = F.cross_entropy(ddp(x), y)
        loss.backward()
        opt.step()
        losses.append(float(loss))
    w = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    ws = [torch.empty_like(w) for _ in range(world)]
    dist.all_gather(ws, w)
    st.close()
    return {"first": sum(losses[:5]) / 5, "last": sum(losses[-5:]) / 5,
            "same": all(torch.equal(ws[0], v) for v in ws)}


def subgroup(rank, world):
    """DDP over a process group of global ranks 1..world-1 (group rank 0 is
    global rank 1); two states on it, one after the other; rank 0 idles."""
    members = list(range(1, world))
    pg = dist.new_group(members)
    if rank not in members:
        return {"idle": True}
    out = []
    for k in (10, 8):  # a second state on the same group: its own rendezvous key
        torch.manual_seed(0)
        model = Net()
        ddp = DDP(model, process_group=pg)
        st = inc.IncclState(k=k, transport="sw", process_group=pg)
        ddp.register_comm_hook(st, inc.allreduce_hook)
        x = torch.randn(16, 64, generator=torch.Generator().manual_seed(rank))
        F.cross_entropy(ddp(x), torch.zeros(16, dtype=torch.long)).backward()
        g = flat_grads(model)
        gs = [torch.empty_like(g) for _ in members]
        dist.all_gather(gs, g, group=pg)
        out.append({"world": st.comm.world, "rank": st.comm.rank,
                    "same": all(torch.equal(gs[0], v) for v in gs)})
        st.close()
    return out


def double_model(rank, world):
    model = Net().double()
    ddp = DDP(model)
    ddp.register_comm_hook(inc.IncclState(transport="none"), inc.allreduce_hook)
    try:
        F.cross_entropy(ddp(torch.randn(4, 64, dtype=torch.float64)),
                        torch.zeros(4, dtype=torch.long)).backward()
    except Exception as e:
        return str(e)
    return None


def connect_only(rank, world, kwargs):
    st = inc.IncclState(**kwargs)
    t0 = time.time()
    try:
        st.connect()
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}", "code": getattr(e, "code", None),
                "secs": time.time() - t0}
    st.close()
    return {"error": None}


def mode_in_use(rank, world, kwargs, env_mode):
    """A state of kwargs (mode left out: None) with INCCL_MODE = env_mode
    (None: unset); one all-reduce of 20000 gradient-like floats through the
    hook's communicator: the mode the state and its communicator report, the
    bytes this rank wrote, its repr before and after connect()."""
    if env_mode is None:
        os.environ.pop("INCCL_MODE", None)
    else:
        os.environ["INCCL_MODE"] = env_mode
    st = inc.IncclState(**kwargs)
    before, mode_before = repr(st), st.mode
    st.connect()
    g = torch.Generator().manual_seed(5 + rank)
    x = torch.randn(20000, generator=g) * 1e-2
    x[torch.rand(20000, generator=g) < 0.3] = 0.0
    st.comm.allreduce(x.data_ptr(), x.data_ptr(), x.numel(), _inccl.AVG)
    out = {"mode_before": mode_before, "mode": st.mode, "comm_mode": st.comm.mode,
           "repr_before": before, "repr": repr(st), "tx": st.stats()["tx_bytes"],
           "digest": hashlib.sha256(x.numpy().tobytes()).hexdigest()}
    st.close()
    out["mode_closed"] = st.mode
    return out


def dies(rank, world, steps_before):
    model = Net()
    ddp = DDP(model)
    st = inc.IncclState(transport="sw", timeout=5)
    ddp.register_comm_hook(st, inc.allreduce_hook)
    x, y = torch.randn(8, 64), torch.zeros(8, dtype=torch.long)
    for i in range(100):
        if rank == world - 1 and i == steps_before:
            os._exit(3)  # dies without a word
        t0 = time.time()
        try:
            ddp.zero_grad()
            F.cross_entropy(ddp(x), y).backward()
        except Exception as e:
            return {"step": i, "error": str(e).splitlines()[0][:300], "secs": time.time() - t0}
    return {"step": None}


# ---- the tests (in the parent)
def main():
    # import and the library
    env = dict(os.environ, PYTHONPATH=PKG)
    env.pop("INCCL_LIB", None)
    r = subprocess.run([sys.executable, "-c", "import inceptionn.torch as t, inceptionn; "
                        "print(inceptionn.__version__, t._inccl.lib()._name)"],
                       env=env, capture_output=True, text=True)
    ok(r.returncode == 0 and "libinccl.so" in r.stdout,
       f"PYTHONPATH=userspace/python: import inceptionn.torch finds {r.stdout.strip()}", r.stderr)
    r = subprocess.run([sys.executable, "-c", "import inceptionn.torch as t; t.IncclState()"],
                       env=dict(env, INCCL_LIB="/nonexistent/libinccl.so"),
                       capture_output=True, text=True)
    ok(r.returncode != 0 and "LibraryNotFound" in r.stderr and "/nonexistent/libinccl.so" in r.stderr
       and "INCCL_LIB" in r.stderr, "INCCL_LIB pointing nowhere: LibraryNotFound naming the path",
       r.stderr[-600:])

    # pip install userspace/python, as a user on Debian 12 would (a venv
    # that sees Debian's torch; offline, so no build isolation, no index)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        venv = os.path.join(tmp, "venv")
        r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                           capture_output=True, text=True)
        if r.returncode == 0:
            import shutil  # a copy: setuptools writes its egg-info beside the sources
            src = shutil.copytree(PKG, os.path.join(tmp, "src"),
                                  ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
            r = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-index",
                                "--no-build-isolation", src], capture_output=True, text=True,
                               cwd=tmp)
        ok(r.returncode == 0, "pip install userspace/python into a venv (offline)", r.stderr[-800:])
        vpy = os.path.join(venv, "bin", "python3")
        lib = os.path.join(ROOT, os.environ.get("BUILD", "build"), "lib", "libinccl.so")
        code = ("import inceptionn.torch as t, inceptionn; print(inceptionn.__file__); "
                "t.IncclState(transport='sw'); print('state ok')")
        env2 = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "INCCL_LIB")}
        r = subprocess.run([vpy, "-c", code], env=dict(env2, INCCL_LIB=lib), cwd=tmp,
                           capture_output=True, text=True)
        ok(r.returncode == 0 and venv in r.stdout and "state ok" in r.stdout,
           "the installed package imports from the venv and loads libinccl from INCCL_LIB",
           r.stdout + r.stderr[-800:])
        r = subprocess.run([vpy, "-c", code], env=env2, cwd=tmp, capture_output=True, text=True)
        ok(r.returncode != 0 and "LibraryNotFound" in r.stderr and "libinccl.so.1" in r.stderr,
           "installed, without INCCL_LIB or libinccl.so.1 on the loader's path: LibraryNotFound "
           "saying what it tried", r.stderr[-800:])

    # argument errors, before any communication
    for kw, word in [({"k": 0}, "k=0"), ({"k": 25}, "k=25"), ({"k": "10"}, "k='10'"),
                     ({"k": True}, "k=True"), ({"mode": "dense"}, "mode='dense'"),
                     ({"transport": "rdma"}, "transport='rdma'"),
                     ({"algorithm": "tree"}, "algorithm='tree'"), ({"timeout": 0}, "timeout=0")]:
        try:
            inc.IncclState(**kw)
            ok(False, f"IncclState({kw}) refused")
        except ValueError as e:
            ok(word in str(e), f"IncclState({kw}): ValueError '{e}'")
    try:
        inc.IncclState().connect()
        ok(False, "connect() without init_process_group refused")
    except RuntimeError as e:
        ok("init_process_group" in str(e), f"connect() without a process group: '{e}'")
    # error feedback per bucket: a new size resets it
    st = inc.IncclState()
    a = st._ef_for(0, 100)
    b = st._ef_for(0, 100)
    c = st._ef_for(0, 120)
    d = st._ef_for(1, 50)
    ok(a is b and c is not a and c.count == 120 and d.count == 50 and st.ef_resets == 1
       and sorted(st._ef) == [0, 1],
       "error feedback keyed by bucket index, reset when the bucket changes size")
    st.close()

    # the gradients against the exact average
    results = {}  # (world, algo, transport, mode, k, ef): rank 0's results, per step
    for world, algo, transport, mode, k, ef in [
            (4, "ring", "none", "sparse", 10, False), (4, "ring", "sw", "sparse", 10, False),
            (4, "ring", "sw", "paper", 8, False), (3, "ring", "sw", "sparse", 4, False),
            (4, "wa", "sw", "sparse", 10, False), (2, "wa", "none", "paper", 10, False),
            (4, "ring", "sw", "sparse", 6, True),
            (4, "ring", "sw", "width", 10, False), (4, "wa", "sw", "width", 10, False),
            (3, "ring", "sw", "width", 4, False)]:
        res = spawn(grads_within_bound, world, algo, transport, mode, k, ef, 3)
        tag = f"{world} ranks, {algo}, {transport}, {mode}, k={k}{', EF' if ef else ''}"
        good = len(res) == world and all(v[0] and "fail" not in v[1] for v in res.values())
        v = res.get(0, (False, "no answer"))[1]
        if good:
            results[(world, algo, transport, mode, k, ef)] = v["results"]
        ok(good and v["checked"] > 0,
           f"{tag}: hook = exact average within inccl_bound on every element "
           f"({v['checked'] if good else 0} checked, worst {v['worst'] if good else 0:.2f} of the bound)"
           if good else f"{tag}: within the bound", res)
        if good:
            ok(all(x[1]["same"] for x in res.values()), f"{tag}: every rank got the same result")
            c = v["calls"]
            nb = c[-1]
            ok(c[0] == 1 and nb >= 2 and all(x == nb for x in c[1:]),
               f"{tag}: one inccl call per bucket: {c} calls in steps 1..{len(c)} "
               "(DDP rebuilds its buckets after step 1)", c)
            if transport == "sw":
                # rank 0 of wa is the aggregator, which sends sums back exact
                w = res[1][1]
                ok(w["ratio"] > 1.5, f"{tag}: rank 1's sockets carried {w['ratio']:.1f}x fewer "
                   "bytes than its floats")
            if ef:
                ok(len(v["efs"]) == nb and sum(n for _, n in v["efs"]) == v["nparams"]
                   and v["ef_resets"] >= 1,
                   f"{tag}: residuals for each of the {nb} buckets, {v['nparams']} values in all; "
                   f"{v['ef_resets']} reset(s) when DDP rebuilt its buckets", v)

    # width mode decodes to the same floats as sparse (docs/codec.md section
    # 12): the hook's results equal sparse mode's, bit for bit, every step
    for world, algo, k in [(4, "ring", 10), (4, "wa", 10), (3, "ring", 4)]:
        wr = results.get((world, algo, "sw", "width", k, False))
        sr = results.get((world, algo, "sw", "sparse", k, False))
        differ = None
        if wr and sr and len(wr) == len(sr):
            a = torch.cat([torch.frombuffer(bytearray(b), dtype=torch.int32) for b in wr])
            b = torch.cat([torch.frombuffer(bytearray(b), dtype=torch.int32) for b in sr])
            differ = int((a != b).sum()) if a.numel() == b.numel() else -1
        ok(differ == 0, f"{world} ranks, {algo}, sw, k={k}: width mode's averaged gradients "
           f"equal sparse mode's bit for bit, every step "
           f"({len(wr or [])} steps, {differ} values differ)",
           f"width {len(wr or [])} steps, sparse {len(sr or [])} steps")

    # mode left out (None): inccl's default for the transport, reported
    # resolved; sw's is width: the bytes of mode="width", not "sparse"
    runs = {}
    for name, kwargs, env_mode in [
            ("default", {"transport": "sw"}, None), ("width", {"transport": "sw", "mode": "width"}, None),
            ("sparse", {"transport": "sw", "mode": "sparse"}, None),
            ("env-paper", {"transport": "sw"}, "paper"), ("none", {"transport": "none"}, None)]:
        res = spawn(mode_in_use, 3, kwargs, env_mode)
        runs[name] = [res[r][1] if r in res and res[r][0] else None for r in range(3)]
    d, w, sp = runs["default"], runs["width"], runs["sparse"]
    good = all(d + w + sp)
    ok(good and all(v["mode_before"] is None and "mode=None" in v["repr_before"]
                    and v["mode"] == v["comm_mode"] == v["mode_closed"] == "width"
                    and "mode='width'" in v["repr"] for v in d),
       "IncclState(transport='sw'), no INCCL_MODE: mode None until connect(), then 'width' "
       "(state, communicator, repr, after close)", runs["default"])
    ok(good and [v["tx"] for v in d] == [v["tx"] for v in w]
       and [v["tx"] for v in d] != [v["tx"] for v in sp]
       and all(v["mode"] == "sparse" for v in sp),
       "sw with the default mode writes width chunks: bytes per rank "
       f"{[v['tx'] for v in d] if good else None}, as with mode='width', not as with "
       f"mode='sparse' {[v['tx'] for v in sp] if good else None}", runs)
    ok(good and [v["digest"] for v in d] == [v["digest"] for v in sp],
       "... and the same averaged values as sparse mode's (every rank)")
    ok(all(runs["env-paper"]) and all(v["mode"] == "paper" for v in runs["env-paper"]),
       "mode None with INCCL_MODE=paper: the state reports 'paper'", runs["env-paper"])
    ok(all(runs["none"]) and all(v["mode"] == "width" for v in runs["none"]),
       "transport none, mode None: 'width' (inccl's default; nothing is compressed)",
       runs["none"])

    # training: the loss goes down, every rank ends with the same weights
    for transport in ("sw", "none"):
        res = spawn(train, 4, transport, 60)
        good = len(res) == 4 and all(v[0] for v in res.values())
        v = res.get(0, (False, {}))[1]
        ok(good and v["last"] < 0.5 * v["first"] and all(x[1]["same"] for x in res.values()),
           f"training 4 ranks, {transport}: loss {v.get('first', 0):.3f} -> {v.get('last', 0):.3f}, "
           "identical weights on every rank", res if not good else v)

    # a process group that is not the world
    res = spawn(subgroup, 4)
    good = len(res) == 4 and all(v[0] for v in res.values()) and res[0][1] == {"idle": True}
    ok(good and all(res[r][1][i]["world"] == 3 and res[r][1][i]["rank"] == r - 1
                    and res[r][1][i]["same"] for r in (1, 2, 3) for i in (0, 1)),
       "process_group of global ranks 1-3: inccl's ranks 0-2 of 3, the same gradients on "
       "each, two states on one group one after the other", res)

    # clear errors
    res = spawn(double_model, 2)
    msgs = [v[1] for v in res.values() if v[0]]
    ok(len(msgs) == 2 and all(m and "float32 only" in m for m in msgs),
       "a float64 model: backward raises 'inccl reduces float32 only'", res)
    res = spawn(connect_only, 2, {"transport": "none"}, env={"WORLD_SIZE": "3"})
    ok(len(res) == 2 and all(v[0] and v[1]["error"] and "WORLD_SIZE=3" in v[1]["error"]
                             for v in res.values()),
       "WORLD_SIZE disagreeing with the group: RuntimeError naming both", res)
    if not os.path.exists("/sys/module/inceptionn"):
        try:
            inc.IncclState(transport="nic")
            ok(False, "transport nic without inceptionn.ko refused")
        except inc.IncclError as e:
            ok(e.code == _inccl.ENOMARK and "inceptionn.ko" in str(e),
               f"transport nic without inceptionn.ko: IncclError ENOMARK at IncclState(): '{e}'")
    else:
        ok(True, "# SKIP inceptionn.ko is loaded here")
    t0 = time.time()
    res = spawn(dies, 4, 3, timeout=60)
    alive = [res.get(r) for r in range(3)]
    good = all(a and a[0] and a[1]["step"] == 3 and a[1]["error"] for a in alive)
    ok(good and time.time() - t0 < 60,
       f"a rank dies at step 3: the others' backward raises within "
       f"{max((a[1]['secs'] for a in alive if a and a[0] and a[1].get('secs')), default=0):.1f} s "
       f"(timeout 5 s): '{alive[0][1]['error'] if good else ''}'", res)

    print(f"1..{n_tests}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
