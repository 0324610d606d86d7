# SPDX-License-Identifier: MIT
"""ctypes binding of libinccl (userspace/inccl/inccl.h, docs/inccl.md).

The library is found, in order, at $INCCL_LIB (a path), beside this checkout
(build/lib/libinccl.so, as `make` leaves it), then as libinccl.so.1 on the
loader's path (an installed copy). Every call that fails raises IncclError,
whose .code is the INCCL_E* value and whose message is inccl_errmsg().
ctypes releases the GIL around each call, so a collective running in one
thread does not stop Python in the others.
"""
import ctypes
import os

# enum inccl_err
OK, EINVAL, ENOMEM, ESYS, ETIMEDOUT, EPEER, EPROTO, EMISMATCH, ENOMARK, EABORTED = range(10)
# enum inccl_algo, enum inccl_transport, modes, flags
ALGOS = {"ring": 0, "wa": 1}
TRANSPORTS = {"none": 0, "sw": 1, "nic": 2}
MODES = {"paper": 1, "sparse": 2, "width": 3}  # INCCL_MODE_*
AVG = 1 << 0
EXACT = 1 << 1


class IncclError(RuntimeError):
    """A failed inccl call: .code is the INCCL_E* value."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class LibraryNotFound(ImportError):
    pass


class _Config(ctypes.Structure):
    _fields_ = [
        ("rank", ctypes.c_int),
        ("world", ctypes.c_int),
        ("master_addr", ctypes.c_char_p),
        ("master_port", ctypes.c_uint),
        ("hosts", ctypes.c_char_p),
        ("ifname", ctypes.c_char_p),
        ("algo", ctypes.c_int),
        ("transport", ctypes.c_int),
        ("k", ctypes.c_uint),
        ("mode", ctypes.c_uint),
        ("timeout_ms", ctypes.c_uint),
        ("slice_bytes", ctypes.c_uint),
    ]


class Stats(ctypes.Structure):
    """struct inccl_stats: counters since the communicator was made."""

    _fields_ = [
        ("calls", ctypes.c_uint64),
        ("tx_bytes", ctypes.c_uint64),
        ("rx_bytes", ctypes.c_uint64),
        ("tx_float_bytes", ctypes.c_uint64),
        ("tx_marked_bytes", ctypes.c_uint64),
        ("mark_failures", ctypes.c_uint64),
        ("codec_ns", ctypes.c_uint64),
        ("reduce_ns", ctypes.c_uint64),
    ]

    def as_dict(self):
        return {name: getattr(self, name) for name, _ in self._fields_}


def _candidates():
    env = os.environ.get("INCCL_LIB")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    found = ["libinccl.so.1"]
    if here.endswith(os.path.join("userspace", "python", "inceptionn")):  # in a checkout
        root = os.path.normpath(os.path.join(here, "..", "..", ".."))
        build = os.environ.get("BUILD", "build")
        found.insert(0, os.path.join(root, build, "lib", "libinccl.so"))
    return found


_lib = None


def lib():
    """The loaded libinccl (LibraryNotFound, an ImportError, if none)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        try:
            handle = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append(f"{path}: {e}")
    else:
        raise LibraryNotFound(
            "libinccl not found (" + "; ".join(tried) + "): run `make` in the "
            "inceptionn checkout, or set INCCL_LIB to the path of libinccl.so")
    P, I, U, Z = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_size_t
    FP = ctypes.c_void_p  # float *: a tensor's data_ptr()
    sig = {
        "inccl_config_init": (None, [ctypes.POINTER(_Config)]),
        "inccl_comm_init": (I, [ctypes.POINTER(P), ctypes.POINTER(_Config)]),
        "inccl_comm_destroy": (None, [P]),
        "inccl_transport_check": (I, [I]),
        "inccl_comm_rank": (I, [P]),
        "inccl_comm_world": (I, [P]),
        "inccl_comm_config": (None, [P, ctypes.POINTER(_Config)]),
        "inccl_errmsg": (ctypes.c_char_p, []),
        "inccl_strerror": (ctypes.c_char_p, [I]),
        "inccl_allreduce": (I, [P, FP, FP, Z, U, P]),
        "inccl_broadcast": (I, [P, FP, FP, Z, I, U]),
        "inccl_barrier": (I, [P]),
        "inccl_bound": (ctypes.c_double, [P, I, U, ctypes.c_double, ctypes.c_double]),
        "inccl_ef_create": (I, [ctypes.POINTER(P), Z]),
        "inccl_ef_destroy": (None, [P]),
        "inccl_ef_reset": (None, [P]),
        "inccl_get_stats": (None, [P, ctypes.POINTER(Stats)]),
        "inccl_reset_stats": (None, [P]),
    }
    for name, (res, args) in sig.items():
        f = getattr(handle, name)
        f.restype, f.argtypes = res, args
    _lib = handle
    return _lib


def _check(rc):
    if rc:
        code = -rc
        msg = lib().inccl_errmsg().decode(errors="replace")
        if not msg:
            msg = lib().inccl_strerror(code).decode(errors="replace")
        raise IncclError(code, msg)


def transport_check(transport):
    """IncclError (ENOMARK) if this host cannot use the transport: for
    "nic", the kernel has no gradient socket option."""
    _check(lib().inccl_transport_check(_choice("transport", TRANSPORTS, transport)))


def _choice(name, table, value):
    try:
        return table[value]
    except KeyError:
        raise ValueError(f"{name}={value!r}: one of {', '.join(sorted(table))}") from None


class Comm:
    """An inccl communicator (inccl_comm_init). Options left None come from
    the environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, INCCL_*) or
    the library's defaults (mode: width with transport sw and none, sparse
    with nic). .rank, .world, .algorithm, .transport, .k and .mode are the
    values in effect (inccl_comm_config), whatever set them. Use it from one
    thread at a time."""

    def __init__(self, rank=None, world=None, master_addr=None, master_port=None,
                 hosts=None, ifname=None, algorithm=None, transport=None, k=None,
                 mode=None, timeout=None, slice_bytes=None):
        L = lib()
        cfg = _Config()
        L.inccl_config_init(ctypes.byref(cfg))
        self._keep = []  # the strings cfg points to

        def s(v):
            b = str(v).encode()
            self._keep.append(b)
            return b
        if rank is not None:
            cfg.rank = rank
        if world is not None:
            cfg.world = world
        if master_addr is not None:
            cfg.master_addr = s(master_addr)
        if master_port is not None:
            cfg.master_port = master_port
        if hosts is not None:
            cfg.hosts = s(hosts if isinstance(hosts, str) else ",".join(hosts))
        if ifname is not None:
            cfg.ifname = s(ifname)
        if algorithm is not None:
            cfg.algo = _choice("algorithm", ALGOS, algorithm)
        if transport is not None:
            cfg.transport = _choice("transport", TRANSPORTS, transport)
        if k is not None:
            if not isinstance(k, int) or not 1 <= k <= 24:
                raise ValueError(f"k={k!r}: an integer from 1 to 24")
            cfg.k = k
        if mode is not None:
            cfg.mode = _choice("mode", MODES, mode)
        if timeout is not None:
            if not timeout > 0:
                raise ValueError(f"timeout={timeout!r}: seconds, more than 0")
            cfg.timeout_ms = max(1, int(timeout * 1000))
        if slice_bytes is not None:
            cfg.slice_bytes = slice_bytes
        h = ctypes.c_void_p()
        _check(L.inccl_comm_init(ctypes.byref(h), ctypes.byref(cfg)))
        self._h = h
        self.rank = L.inccl_comm_rank(h)
        self.world = L.inccl_comm_world(h)
        got = _Config()
        L.inccl_comm_config(h, ctypes.byref(got))
        names = lambda table, v: next(n for n, x in table.items() if x == v)  # noqa: E731
        self.algorithm = names(ALGOS, got.algo)
        self.transport = names(TRANSPORTS, got.transport)
        self.k, self.mode = got.k, names(MODES, got.mode)

    def close(self):
        if getattr(self, "_h", None):
            lib().inccl_comm_destroy(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._h:
            raise IncclError(EINVAL, "the communicator is closed")
        return self._h

    def allreduce(self, sendbuf, recvbuf, count, flags=0, ef=None):
        """In the addresses sendbuf, recvbuf (ints: data_ptr()), count floats."""
        _check(lib().inccl_allreduce(self._handle(), sendbuf, recvbuf, count, flags,
                                      ef._h if ef is not None else None))

    def broadcast(self, sendbuf, recvbuf, count, root=0, flags=0):
        _check(lib().inccl_broadcast(self._handle(), sendbuf, recvbuf, count, root, flags))

    def barrier(self):
        _check(lib().inccl_barrier(self._handle()))

    def bound(self, sum_abs, result_abs, flags=0):
        """inccl_bound() of an all-reduce element: the documented worst-case
        |result - exact| given the sum over ranks of |input| and |result|."""
        return lib().inccl_bound(self._handle(), 1, flags, sum_abs, result_abs)

    def stats(self):
        st = Stats()
        lib().inccl_get_stats(self._handle(), ctypes.byref(st))
        return st.as_dict()

    def reset_stats(self):
        lib().inccl_reset_stats(self._handle())


class ErrorFeedback:
    """inccl_ef: the residuals of count inputs (docs/inccl.md)."""

    def __init__(self, count):
        h = ctypes.c_void_p()
        _check(lib().inccl_ef_create(ctypes.byref(h), count))
        self._h, self.count = h, count

    def reset(self):
        lib().inccl_ef_reset(self._h)

    def close(self):
        if getattr(self, "_h", None):
            lib().inccl_ef_destroy(self._h)
            self._h = None

    def __del__(self):
        self.close()
