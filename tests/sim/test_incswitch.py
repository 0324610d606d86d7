#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
incswitch on its own: a few UNIX-socket ports playing NICs, frames in the
-netdev stream framing. Checks learning, flooding, no hairpin, --loss, a
full port's queue, a malformed length closing only its port, a port coming
back, option errors, and a clean exit on SIGTERM. TAP output.

usage: tests/sim/test_incswitch.py [INCSWITCH]   (default build/bin/incswitch)
"""
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

INCSWITCH = sys.argv[1] if len(sys.argv) > 1 else "build/bin/incswitch"
n_test = 0
n_fail = 0


def check(ok, what):
    global n_test, n_fail
    n_test += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n_test, what), flush=True)
    if not ok:
        n_fail += 1


def mac(i):
    return bytes([0x02, 0, 0, 0, 0, i])


BCAST = b"\xff" * 6


def frame(dst, src, tag, size=64):
    body = tag.encode().ljust(size - 14, b".")
    return dst + src + b"\x08\x00" + body


class Port:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # the socket file exists from bind(), before listen(): a loaded
        # machine may connect in between (ECONNREFUSED)
        for i in range(250):
            try:
                self.s.connect(path)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                if i == 249:
                    raise
                time.sleep(0.02)
        self.buf = b""

    def send(self, f):
        self.s.sendall(struct.pack(">I", len(f)) + f)

    def send_raw(self, b):
        self.s.sendall(b)

    def recv_all(self, wait=0.3):
        """Every frame that arrives within wait seconds of quiet."""
        out = []
        end = time.time() + wait
        while True:
            left = end - time.time()
            if left <= 0:
                break
            r, _, _ = select.select([self.s], [], [], left)
            if not r:
                break
            d = self.s.recv(1 << 20)
            if not d:
                out.append(None)	# closed
                break
            self.buf += d
            end = time.time() + wait
        while len(self.buf) >= 4:
            n = struct.unpack(">I", self.buf[:4])[0]
            if len(self.buf) < 4 + n:
                break
            out.append(self.buf[4:4 + n])
            self.buf = self.buf[4 + n:]
        return out

    def close(self):
        self.s.close()


def tags(frames):
    return sorted(f[14:].rstrip(b".").decode() for f in frames if f)


def start(path, *args):
    p = subprocess.Popen([INCSWITCH, "--listen", path, "--name", "sw"] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(100):
        if os.path.exists(path):
            break
        time.sleep(0.02)
    return p


def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        return None, b""
    return p.returncode, err


def main():
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "sw.sock")

    # ---- option errors
    for args, what in ([[], "no --listen"], [["--listen", path, "--ports", "1"], "--ports 1"],
                       [["--listen", path, "--loss", "1"], "--loss 1"],
                       [["--listen", path, "--queue", "10"], "--queue 10"],
                       [["--listen", path, "extra"], "an extra argument"]):
        r = subprocess.run([INCSWITCH] + args, capture_output=True, timeout=5)
        check(r.returncode == 2 and r.stderr, "bad options (%s): exit 2 with a message" % what)
    check(not os.path.exists(path), "bad options create no socket")

    # ---- learning, flooding, no hairpin
    p = start(path, "--queue", "262144")
    a, b, c = Port(path), Port(path), Port(path)
    time.sleep(0.1)
    a.send(frame(BCAST, mac(1), "bcast-from-a"))
    rb, rc, ra = b.recv_all(), c.recv_all(), a.recv_all(0.1)
    check(tags(rb) == ["bcast-from-a"] and tags(rc) == ["bcast-from-a"],
          "a broadcast reaches every other port")
    check(ra == [], "a broadcast does not come back to its own port")
    a.send(frame(mac(9), mac(1), "unknown-dst"))
    check(tags(b.recv_all()) == ["unknown-dst"] and tags(c.recv_all()) == ["unknown-dst"],
          "an unknown destination is flooded")
    b.send(frame(mac(1), mac(2), "b-to-a"))
    check(tags(a.recv_all()) == ["b-to-a"] and c.recv_all(0.2) == [],
          "a learned destination goes to its port only")
    a.send(frame(mac(2), mac(1), "a-to-b"))
    check(tags(b.recv_all()) == ["a-to-b"] and c.recv_all(0.2) == [],
          "learned both ways")
    big = frame(mac(2), mac(1), "jumbo", 9014)
    a.send(big)
    got = b.recv_all()
    check(got == [big], "a 9014-byte frame arrives whole and unchanged")
    a.send(frame(mac(1), mac(1), "to-self"))
    check(a.recv_all(0.2) == [] and b.recv_all(0.2) == [] and c.recv_all(0.2) == [],
          "a frame for a MAC behind its own port is not sent anywhere")

    # ---- malformed length closes only that port; the others carry on
    c.send_raw(struct.pack(">I", 3) + b"abc")
    rc = c.recv_all(0.5)
    check(rc == [None], "a malformed length closes that port")
    a.send(frame(mac(2), mac(1), "after-malformed"))
    check(tags(b.recv_all()) == ["after-malformed"], "the other ports carry on")
    c.close()
    # a port coming back gets frames again
    c = Port(path)
    time.sleep(0.1)
    c.send(frame(mac(1), mac(3), "c-back"))
    check(tags(a.recv_all()) == ["c-back"], "a new connection is a working port")

    # ---- a peer that does not read: its queue fills, frames dropped, others fine
    b.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    n = 2000
    for i in range(n):
        a.send(frame(mac(2), mac(1), "f%d" % i, 1500))
    a.send(frame(mac(3), mac(1), "to-c"))
    check(tags(c.recv_all()) == ["to-c"], "a stalled port does not stall the others")
    got = [f for f in b.recv_all(1.0) if f]
    check(0 < len(got) < n, "the stalled port got part of %d frames, %d, in order"
          % (n, len(got)) if 0 < len(got) < n else "stalled port: %d of %d" % (len(got), n))
    check([f[14:].rstrip(b".").decode() for f in got] ==
          ["f%d" % i for i in range(len(got))] if got else False,
          "what it got is a prefix, in order, nothing duplicated")
    rc_, err = stop(p)
    check(rc_ == 0, "SIGTERM: exit 0")
    check(b"dropped" in err and not os.path.exists(path),
          "SIGTERM: counters printed, socket removed")
    for s in (a, b, c):
        s.close()

    # ---- --loss: every Nth unicast frame, broadcasts never
    p = start(path, "--loss", "5")
    a, b = Port(path), Port(path)
    time.sleep(0.1)
    b.send(frame(BCAST, mac(2), "hello"))
    a.recv_all()
    for i in range(50):
        a.send(frame(mac(2), mac(1), "u%d" % i))
    got = tags(b.recv_all())
    want = sorted("u%d" % i for i in range(50) if (i + 1) % 5 != 0)
    check(got == want, "--loss 5: exactly every 5th unicast frame dropped (%d of 50 arrive)" % len(got))
    for i in range(10):
        a.send(frame(BCAST, mac(1), "b%d" % i))
    check(len(tags(b.recv_all())) == 10, "--loss: broadcasts are never dropped")
    rc_, err = stop(p)
    check(rc_ == 0 and b"10 dropped by --loss" in err, "--loss: the drops are counted")

    print("1..%d" % n_test)
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
