# SPDX-License-Identifier: MIT
"""PyTorch DistributedDataParallel communication hook on inccl.

    import inceptionn.torch as inc
    state = inc.IncclState(k=10, transport="sw")   # mode: width, sw's default
    ddp.register_comm_hook(state, inc.allreduce_hook)

The hook hands each gradient bucket's buffer to inccl_allreduce (in place,
averaged, no copy) on a worker thread, and returns a torch.futures.Future
that the thread completes, so communication overlaps the rest of the
backward pass. Everything else (rendezvous, the initial broadcast of the
weights, buffers) stays on the user's process group; inccl's rendezvous
goes through that group's store. docs/training.md has the details.
"""
import concurrent.futures
import ctypes
import itertools
import os
import socket

import torch
import torch.distributed as dist
import torch.distributed.distributed_c10d as c10d

from . import _inccl
from ._inccl import IncclError, LibraryNotFound  # noqa: F401 (re-exported)

__all__ = ["IncclState", "allreduce_hook", "IncclError", "LibraryNotFound"]

_sequence = itertools.count()  # states that joined, in order, in this process


def _local_addr(toward):
    """The address of this host that routes toward `toward` (no packet sent)."""
    fam = socket.AF_INET6 if ":" in toward else socket.AF_INET
    with socket.socket(fam, socket.SOCK_DGRAM) as s:
        try:
            s.connect((toward, 9))
            return s.getsockname()[0]
        except OSError:
            return "::1" if fam == socket.AF_INET6 else "127.0.0.1"


class IncclState:
    """The hook's state: one inccl communicator over the ranks of
    process_group (default: the whole world), joined at the first bucket
    (or by connect()), and the error-feedback residuals per bucket index.

    k, mode ("paper", "sparse", "width", or None), transport ("nic", "sw",
    "none"), algorithm ("ring", "wa"): the communicator (docs/inccl.md).
    Every mode decodes to the same values, so the averaged gradients are the
    same; only the bytes on the wire differ. mode None (the default) is
    inccl's default: INCCL_MODE if set, else the transport's mode: "width"
    for "sw" (docs/codec.md section 12: the fewest bytes, about 1.7x fewer
    than "sparse" on real gradients; the codec runs on the CPU) and "none",
    "sparse" for "nic" (the NIC compresses, and only a NIC with FEATURES
    bit 12, the 16-lane one of register map 1.3, takes width mode; on one
    without it width-marked frames go uncompressed, docs/inccl.md).
    After connect(), .mode is the mode in use ("width", ...), as inccl
    resolved it; before, what was asked (None: the default);
    error_feedback: keep what this rank's quantization lost per bucket and
    add it to the next step's bucket (EF-SGD); reset when a bucket changes
    size. timeout: seconds without progress from a peer before a call fails.
    master_addr: the address rank 0 of the group listens on (default: the
    address of this host toward MASTER_ADDR, or 127.0.0.1); ifname: the
    interface inccl uses.
    """

    def __init__(self, k=10, mode=None, transport="sw", algorithm="ring",
                 error_feedback=True, process_group=None, timeout=60.0,
                 master_addr=None, ifname=None, slice_bytes=None):
        # argument errors now, not at the first bucket
        if mode is not None:
            _inccl._choice("mode", _inccl.MODES, mode)
        _inccl._choice("transport", _inccl.TRANSPORTS, transport)
        _inccl._choice("algorithm", _inccl.ALGOS, algorithm)
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 24:
            raise ValueError(f"k={k!r}: an integer from 1 to 24")
        if not timeout > 0:
            raise ValueError(f"timeout={timeout!r}: seconds, more than 0")
        # LibraryNotFound when libinccl is missing; IncclError (ENOMARK) for
        # "nic" without inceptionn.ko: on every rank, before any rendezvous
        _inccl.transport_check(transport)
        self.k, self.mode, self.transport, self.algorithm = k, mode, transport, algorithm
        self.error_feedback = bool(error_feedback)
        self.process_group = process_group
        self.timeout, self.master_addr, self.ifname = timeout, master_addr, ifname
        self.slice_bytes = slice_bytes
        self.comm = None
        self._ef = {}  # bucket index -> ErrorFeedback
        self._worker = None
        self.ef_resets = 0  # residual sets dropped because a bucket changed size

    # ---- the communicator
    def connect(self):
        """Join the communicator (every rank of the group, in the same
        order as its other IncclStates). Called by the first bucket."""
        if self.comm is not None:
            return self
        if not dist.is_available() or not dist.is_initialized():
            raise RuntimeError("IncclState: torch.distributed is not initialized "
                               "(call init_process_group first)")
        pg = self.process_group or c10d._get_default_group()
        rank, world = dist.get_rank(pg), dist.get_world_size(pg)
        env_world = os.environ.get("WORLD_SIZE")
        if self.process_group is None and env_world and env_world.isdigit() \
                and int(env_world) != world:
            raise RuntimeError(f"IncclState: WORLD_SIZE={env_world} but the process "
                               f"group has {world} ranks")
        members = ",".join(str(r) for r in sorted(c10d._pg_group_ranks.get(pg, {}) or range(world)))
        key = f"inceptionn/inccl/{next(_sequence)}/{members}"
        store = c10d._get_default_store()
        reserve = None
        try:
            if rank == 0:
                addr = self.master_addr or _local_addr(os.environ.get("MASTER_ADDR", "127.0.0.1"))
                # hold the port (bound, not listening, SO_REUSEADDR) until
                # inccl listens on it: no other process can take it
                fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
                reserve = socket.socket(fam, socket.SOCK_STREAM)
                reserve.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                reserve.bind((addr, 0))
                port = reserve.getsockname()[1]
                store.set(key, f"{addr} {port}")
            else:
                addr, port = store.get(key).decode().split()
                port = int(port)
            self.comm = _inccl.Comm(rank=rank, world=world, master_addr=addr, master_port=port,
                                    hosts=None, ifname=self.ifname, algorithm=self.algorithm,
                                    transport=self.transport, k=self.k, mode=self.mode,
                                    timeout=self.timeout, slice_bytes=self.slice_bytes)
        finally:
            if reserve is not None:
                reserve.close()
        self.mode = self.comm.mode  # resolved: the transport's default, INCCL_MODE
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="inccl")
        return self

    def __repr__(self):
        return (f"IncclState(k={self.k}, mode={self.mode!r}, transport={self.transport!r}, "
                f"algorithm={self.algorithm!r}, error_feedback={self.error_feedback}"
                f"{', connected' if self.comm is not None else ''})")

    def stats(self):
        """inccl's counters (bytes on the sockets, codec CPU time ...)."""
        return self.comm.stats() if self.comm is not None else {}

    def reset_stats(self):
        if self.comm is not None:
            self.comm.reset_stats()

    def close(self):
        """Wait for the calls in flight, then close the communicator."""
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None
        for ef in self._ef.values():
            ef.close()
        self._ef.clear()
        if self.comm is not None:
            self.comm.close()
            self.comm = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _ef_for(self, index, count):
        ef = self._ef.get(index)
        if ef is not None and ef.count != count:
            ef.close()  # the bucket changed shape (DDP rebuilds buckets once)
            ef = None
            self.ef_resets += 1
        if ef is None:
            ef = self._ef[index] = _inccl.ErrorFeedback(count)
        return ef


def allreduce_hook(state, bucket):
    """DDP communication hook: the bucket's gradients averaged over the
    group by inccl (register with ddp.register_comm_hook(state, this))."""
    buf = bucket.buffer()
    if buf.dtype != torch.float32:
        raise TypeError(f"inceptionn allreduce_hook: bucket {bucket.index()} holds "
                        f"{buf.dtype}; inccl reduces float32 only")
    if buf.device.type != "cpu":
        raise TypeError(f"inceptionn allreduce_hook: bucket {bucket.index()} is on "
                        f"{buf.device}; inccl reduces host memory (CPU tensors)")
    if not buf.is_contiguous():
        raise TypeError("inceptionn allreduce_hook: a non-contiguous bucket")
    state.connect()
    n = buf.numel()
    ef = state._ef_for(bucket.index(), n) if state.error_feedback else None
    fut = torch.futures.Future()
    comm = state.comm

    def run():
        try:
            ptr = buf.data_ptr()
            comm.allreduce(ptr, ptr, n, _inccl.AVG, ef)
            fut.set_result(buf)
        except Exception as e:
            fut.set_exception(e)
    state._worker.submit(run)
    # DDP's reducer reads a hook's future from C++, where set_exception's
    # value is not an error: a callback that waits turns it into one, so
    # backward() raises with inccl's message
    return fut.then(lambda f: f.wait())
