#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
incsim without QEMU: this script plays QEMU's ivshmem-doorbell device (the
ivshmem client of docs/sim.md) and a link peer, and drives the NIC's RTL
through incsim's command ring, guest-RAM DMA, interrupts and link, the way
the driver's sim transport does. TAP output.

usage: tests/sim/test_incsim.py [INCSIM]   (default build/bin/incsim)
"""
import math
import mmap
import os
import random
import select
import socket
import struct
import subprocess
import sys
import tempfile
import time

INCSIM = sys.argv[1] if len(sys.argv) > 1 else "build/bin/incsim"
# INCSIM_MODEL: the model of every incsim started (docs/sim.md "Two models")
MODEL = os.environ.get("INCSIM_MODEL", "rtl")

# include/uapi/inceptionn/incsim.h
INCSIM_MAGIC = 0x31304D4953434E49
OFF_MAGIC, OFF_VERSION, OFF_STATE, OFF_BAR0 = 0x000, 0x008, 0x00C, 0x010
OFF_ENTRIES, OFF_VECTORS, OFF_PROD, OFF_CONS, OFF_RING = 0x014, 0x018, 0x040, 0x080, 0x100
OFF_FEATURES = 0x01C
OP_WRITE, OP_READ, OP_RESET, OP_MASTER = 1, 2, 3, 4
FEAT_RESET, FEAT_MASTER = 1 << 0, 1 << 1

# docs/regmap.md
MAGIC, VERSION, SCRATCH, CTRL, STATUS, MAX_FRAME = 0x00, 0x04, 0x10, 0x100, 0x104, 0x110
QFLUSH = 0x118
MAC_LO, MAC_HI = 0x108, 0x10C
STATUS_TX_IDLE, STATUS_RX_IDLE = 1 << 1, 1 << 2
TXQ, RXQ = 0x200, 0x300
IRQ_STATUS, IRQ_ENABLE = 0x400, 0x404
STATS = 0x1000
ST_TX_FRAMES, ST_TX_COMP_FRAMES, ST_RX_FRAMES, ST_RX_DECOMP_FRAMES, ST_RX_DELIVERED = 0, 2, 8, 10, 16
DONE, COMPRESSED, RESTORED = 1 << 31, 1 << 30, 1 << 30

n_test = 0
n_fail = 0


def ok(cond, name):
    global n_test, n_fail
    n_test += 1
    if not cond:
        n_fail += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n_test, name), flush=True)
    return cond


# What the RTL model shows and the behavioral model by design does not
# (docs/sim.md "Two models": DMA is never in flight between two accesses)
BEH_NO_DMA_IN_FLIGHT = "the behavioral model has no DMA in flight between two register accesses"


def rtl_ok(cond, name, why):
    """ok() with the RTL model; a SKIP with the behavioral one, saying why."""
    global n_test
    if MODEL == "rtl":
        return ok(cond, name)
    n_test += 1
    print("ok %d - %s # SKIP %s" % (n_test, name, why), flush=True)
    return True


def diag(msg):
    print("# " + msg, flush=True)


def run_bad(args, want_rc, want_text, name):
    p = subprocess.run([INCSIM, "--model", MODEL] + args, capture_output=True, text=True,
                       timeout=30)
    ok(p.returncode == want_rc and want_text in p.stderr,
       "%s: exit %d, says '%s' (got %d: %s)" % (name, want_rc, want_text,
                                                p.returncode, (p.stderr.strip().splitlines() or [""])[0][:100]))


class FakeQemu:
    """The ivshmem client side: handshake, BAR2 window, doorbell, vectors."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.msgs = []
        # version, id, shm, then 2 x (peer 0 doorbell), 2 x (own vectors)
        for _ in range(3 + 2 + 2):
            data, fds, _, _ = socket.recv_fds(self.sock, 8, 1)
            if len(data) != 8:
                raise RuntimeError("short handshake message")
            self.msgs.append((struct.unpack("<q", data)[0], fds[0] if fds else -1))
        self.shm_fd = self.msgs[2][1]
        self.bar2 = mmap.mmap(self.shm_fd, 8192)
        self.doorbell = [fd for v, fd in self.msgs[3:5]]
        self.vec = [fd for v, fd in self.msgs[5:7]]
        self.prod = self.u32(OFF_PROD)

    def u32(self, off):
        return struct.unpack_from("<I", self.bar2, off)[0]

    def put32(self, off, v):
        struct.pack_into("<I", self.bar2, off, v & 0xFFFFFFFF)

    def cmd(self, op, addr, value=0):
        """Queue one command (waiting while the ring is full); its index."""
        entries = self.u32(OFF_ENTRIES)
        t = time.time() + 10
        while (self.prod - self.u32(OFF_CONS)) & 0xFFFFFFFF >= entries:
            if time.time() > t:
                raise RuntimeError("command ring stuck")
            time.sleep(0.0005)
        idx = self.prod
        struct.pack_into("<IIII", self.bar2, OFF_RING + 16 * (idx % entries), op, addr, value, 0)
        self.prod = (self.prod + 1) & 0xFFFFFFFF
        self.put32(OFF_PROD, self.prod)          # x86: stores stay in order
        os.eventfd_write(self.doorbell[0], 1)
        return idx

    def cmds(self, *cmds):
        """Queue several (op, addr, value) commands and publish them with
        one store of prod: incsim executes them back to back."""
        entries = self.u32(OFF_ENTRIES)
        t = time.time() + 10
        while (self.prod - self.u32(OFF_CONS)) & 0xFFFFFFFF > entries - len(cmds):
            if time.time() > t:
                raise RuntimeError("command ring stuck")
            time.sleep(0.0005)
        for k, (op, addr, value) in enumerate(cmds):
            struct.pack_into("<IIII", self.bar2, OFF_RING + 16 * ((self.prod + k) % entries),
                             op, addr, value, 0)
        self.prod = (self.prod + len(cmds)) & 0xFFFFFFFF
        self.put32(OFF_PROD, self.prod)
        os.eventfd_write(self.doorbell[0], 1)

    def wait_done(self, idx, timeout=10):
        t = time.time() + timeout
        while ((self.u32(OFF_CONS) - idx - 1) & 0xFFFFFFFF) >= 0x80000000:
            if time.time() > t:
                raise RuntimeError("command %d not done" % idx)
            time.sleep(0.0002)

    def write(self, addr, value):
        self.cmd(OP_WRITE, addr, value)

    def read(self, addr):
        idx = self.cmd(OP_READ, addr)
        self.wait_done(idx)
        return struct.unpack_from("<I", self.bar2, OFF_RING + 16 * (idx % self.u32(OFF_ENTRIES)) + 8)[0]

    def stat(self, n):
        lo = self.read(STATS + 8 * n)
        return lo | self.read(STATS + 8 * n + 4) << 32

    def wait_irq(self, v, timeout=10):
        r, _, _ = select.select([self.vec[v]], [], [], timeout)
        if not r:
            return 0
        return os.eventfd_read(self.vec[v])

    def close(self):
        self.bar2.close()
        for _, fd in self.msgs:
            if fd >= 0:
                os.close(fd)
        self.sock.close()


class Peer:
    """The other end of the link: 4-byte big-endian length + frame."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""

    def send(self, frame):
        self.s.sendall(struct.pack(">I", len(frame)) + frame)

    def recv(self, timeout=10):
        t = time.time() + timeout
        while True:
            if len(self.buf) >= 4:
                n = struct.unpack(">I", self.buf[:4])[0]
                if len(self.buf) >= 4 + n:
                    f, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    return f
            left = t - time.time()
            if left <= 0:
                return None
            r, _, _ = select.select([self.s], [], [], left)
            if r:
                d = self.s.recv(65536)
                if not d:
                    return None
                self.buf += d

    def closed_by_other_end(self, timeout=10):
        t = time.time() + timeout
        while time.time() < t:
            r, _, _ = select.select([self.s], [], [], t - time.time())
            if r:
                try:
                    if not self.s.recv(65536):
                        return True
                except ConnectionResetError:
                    return True
        return False


class Rings:
    """A minimal driver: rings and buffers in the guest's RAM file."""
    TX_RING, RX_RING, TX_BUF, RX_BUF, BUF = 0x100000, 0x110000, 0x200000, 0x400000, 0x4000
    LOG2 = 4

    def __init__(self, q, ram):
        self.q, self.ram = q, ram
        self.tx_prod = self.rx_prod = 0
        n = 1 << self.LOG2
        ram[self.TX_RING:self.TX_RING + 32 * n] = bytes(32 * n)
        ram[self.RX_RING:self.RX_RING + 16 * n] = bytes(16 * n)
        for base, ring in ((TXQ, self.TX_RING), (RXQ, self.RX_RING)):
            q.write(base + 0x00, ring)
            q.write(base + 0x04, 0)
            q.write(base + 0x08, self.LOG2)
            q.write(base + 0x0C, q.read(base + 0x10))
        self.tx_prod = q.read(TXQ + 0x10)
        self.rx_prod = q.read(RXQ + 0x10)
        q.write(IRQ_ENABLE, 3)
        q.write(CTRL, 3)

    def post_rx(self, count):
        n = 1 << self.LOG2
        for _ in range(count):
            i = self.rx_prod % n
            struct.pack_into("<QHHI", self.ram, self.RX_RING + 16 * i,
                             self.RX_BUF + i * self.BUF, self.BUF, 0, 0)
            self.rx_prod = (self.rx_prod + 1) & 0xFFFF
        self.q.write(RXQ + 0x0C, self.rx_prod)

    def rx_desc(self, i):
        i %= 1 << self.LOG2
        addr, buf_len, length, status = struct.unpack_from("<QHHI", self.ram, self.RX_RING + 16 * i)
        return addr, length, status

    def send(self, frame, compress=False, k=10, mode=2, roff=0, rlen=0, kick=True):
        n = 1 << self.LOG2
        i = self.tx_prod % n
        buf = self.TX_BUF + i * self.BUF
        self.ram[buf:buf + len(frame)] = frame
        struct.pack_into("<QHHBBHH6xII", self.ram, self.TX_RING + 32 * i, buf, len(frame),
                         1 if compress else 0, k, mode, roff, rlen, 0, 0)
        self.tx_prod = (self.tx_prod + 1) & 0xFFFF
        if kick:
            self.q.write(TXQ + 0x0C, self.tx_prod)
        return i

    def tx_status(self, i):
        return struct.unpack_from("<I", self.ram, self.TX_RING + 32 * i + 24)[0]


def csum16(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp_frame(payload, src="10.0.0.1", dst="10.0.0.2"):
    sip, dip = socket.inet_aton(src), socket.inet_aton(dst)
    udp_len = 8 + len(payload)
    pseudo = sip + dip + struct.pack("!BBH", 0, 17, udp_len)
    udp = struct.pack("!HHHH", 5000, 6000, udp_len, 0) + payload
    c = csum16(pseudo + udp) or 0xFFFF
    udp = udp[:6] + struct.pack("!H", c) + udp[8:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 1, 0x4000, 64, 17, 0, sip, dip)
    ip = ip[:10] + struct.pack("!H", csum16(ip)) + ip[12:]
    eth = bytes.fromhex("020000000002" "020000000001" "0800")
    return eth + ip + udp


def wait_for(pred, timeout=10):
    t = time.time() + timeout
    while time.time() < t:
        if pred():
            return True
        time.sleep(0.002)
    return pred()


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def no_spin(sim, what):
    """Held back with work pending, incsim sleeps: under 0.1 s of CPU in 1 s."""
    c0 = cpu_seconds(sim.p.pid)
    time.sleep(1.0)
    used = cpu_seconds(sim.p.pid) - c0
    ok(used < 0.1, "%s: incsim does not spin (%.2f s of CPU in 1 s)" % (what, used))


class Sim:
    """An incsim with a fake QEMU, the guest RAM file mapped and a link peer."""

    def __init__(self, tmp, name, args):
        self.name = name
        self.ivs, link = "%s/%s-ivs.sock" % (tmp, name), "%s/%s-link.sock" % (tmp, name)
        self.ram_path = "/dev/shm/incsim-test-%d-%s" % (os.getpid(), name)
        self.p = subprocess.Popen([INCSIM, "--model", MODEL, "--ivshmem", self.ivs, "--ram", self.ram_path,
                                   "--ram-size", "64M", "--link-listen", link, "--name", name,
                                   "--stats"] + args, stderr=subprocess.PIPE, text=True)
        self.q = self.ram = None
        wait_for(lambda: os.path.exists(self.ivs) and os.path.exists(link))
        self.q = FakeQemu(self.ivs)
        fd = os.open(self.ram_path, os.O_RDWR)
        self.ram = mmap.mmap(fd, 64 << 20)
        os.close(fd)
        self.peer = Peer(link)
        if not wait_for(lambda: self.q.read(STATUS) & 1):
            raise RuntimeError("%s: link not up" % name)

    def finish(self):
        """QEMU goes away: incsim's exit status and its messages."""
        self.ram.close()
        self.q.close()
        rc = self.p.wait(timeout=20)
        return rc, self.p.stderr.read()

    def cleanup(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        try:
            os.unlink(self.ram_path)
        except FileNotFoundError:
            pass


def stat_of(text, name):
    """A number of incsim's --stats lines ("name N"), or None."""
    for line in text.splitlines():
        if "stats:" in line and name + " " in line:
            return int(line.split(name + " ", 1)[1].split(";")[0].split(",")[0].split()[0])
    return None


def send_and_wait(r, peer, frame):
    """TX one frame: it is on the link and its descriptor DONE."""
    i = r.send(frame)
    return peer.recv(timeout=5) == frame and wait_for(lambda: r.tx_status(i) & DONE, 5)


def test_reset_master(tmp):
    """Features word, INCSIM_OP_RESET and INCSIM_OP_MASTER."""
    mac = bytes.fromhex("021122334455")
    sim = Sim(tmp, "rm", ["--mac", "02:11:22:33:44:55"])
    try:
        q, ram, peer = sim.q, sim.ram, sim.peer
        ok(q.u32(OFF_FEATURES) == FEAT_RESET | FEAT_MASTER,
           "BAR2 features: reset and bus mastering (0x%x)" % q.u32(OFF_FEATURES))
        mac_lo, mac_hi = struct.unpack("<IH", mac)
        ok(q.read(MAC_LO) == mac_lo and q.read(MAC_HI) == mac_hi, "--mac is in MAC_LO/MAC_HI")

        r = Rings(q, ram)
        ok(send_and_wait(r, peer, udp_frame(b"before the reset")), "TX before the reset")
        q.write(SCRATCH, 0x12345678)
        q.write(TXQ + 0x08, 6)
        q.write(MAC_LO, 0xDEADBEEF)
        before = (q.read(SCRATCH), q.read(TXQ + 0x00), q.read(TXQ + 0x08), q.read(CTRL))
        q.cmd(OP_RESET, 0x5A5A)       # addr is ignored
        after = (q.read(SCRATCH), q.read(TXQ + 0x00), q.read(TXQ + 0x08), q.read(CTRL))
        ok(before == (0x12345678, Rings.TX_RING, 6, 3) and after == (0, 0, 4, 0),
           "OP_RESET: SCRATCH, TXQ BASE, TXQ SIZE, CTRL back to reset values (%r -> %r)"
           % (before, after))
        ok(q.read(MAC_LO) == mac_lo and q.read(MAC_HI) == mac_hi,
           "OP_RESET: the MAC address is written again")
        ok(q.read(STATUS) & 1 == 1 and q.read(TXQ + 0x10) == 0,
           "OP_RESET: the link stays up, TXQ CONS is 0")

        # a TX in flight when the reset comes: PROD and the reset back to back
        r = Rings(q, ram)
        big = udp_frame(bytes(1400))
        i = r.send(big, kick=False)
        q.cmds((OP_WRITE, TXQ + 0x0C, r.tx_prod), (OP_RESET, 0, 0))
        got = peer.recv(timeout=1)
        if MODEL == "rtl":
            ok(got is None and r.tx_status(i) == 0 and q.read(TXQ + 0x10) == 0,
               "OP_RESET drops the TX in flight: not on the link, its descriptor untouched")
        else:   # the frame left within the PROD write, before the reset
            ok(got is not None and r.tx_status(i) & DONE and q.read(TXQ + 0x10) == 0,
               "OP_RESET after a PROD write: the behavioral NIC had sent the frame, CONS reset")
        r = Rings(q, ram)
        ok(send_and_wait(r, peer, udp_frame(b"after the reset")), "TX works after the reset")

        # bus mastering off: an RX frame from the link does not reach guest RAM
        r.post_rx(4)
        q.write(IRQ_ENABLE, 3)      # events pending signal now (auto-mask) ...
        time.sleep(0.1)
        q.wait_irq(0, 0), q.wait_irq(1, 0)
        q.write(IRQ_ENABLE, 3)      # ... then both vectors are enabled, none pending
        ram[Rings.RX_BUF:Rings.RX_BUF + 4 * Rings.BUF] = b"\xa5" * (4 * Rings.BUF)
        snap = bytes(ram[Rings.RX_RING:Rings.RX_RING + 16 * 16]), bytes(ram[Rings.RX_BUF:Rings.RX_BUF + 4 * Rings.BUF])
        rx0 = q.stat(ST_RX_FRAMES)
        q.cmd(OP_MASTER, 0, 0)
        peer.send(udp_frame(b"while bus mastering is off" * 8, src="10.0.0.2", dst="10.0.0.1"))
        seen = wait_for(lambda: q.stat(ST_RX_FRAMES) > rx0 and q.read(STATUS) & STATUS_RX_IDLE)
        time.sleep(0.2)
        now = bytes(ram[Rings.RX_RING:Rings.RX_RING + 16 * 16]), bytes(ram[Rings.RX_BUF:Rings.RX_BUF + 4 * Rings.BUF])
        ok(seen and now == snap, "OP_MASTER 0: the NIC takes an RX frame, guest RAM is unchanged")
        ok(q.wait_irq(1, 0.3) == 0, "OP_MASTER 0: no RX interrupt")
        # TX: the descriptor reads as zeros (a bad length), its status write is dropped
        tx0 = q.read(TXQ + 0x10)
        i = r.send(udp_frame(b"not sent"))
        desc = bytes(ram[Rings.TX_RING + 32 * i:Rings.TX_RING + 32 * i + 32])
        seen = wait_for(lambda: q.read(TXQ + 0x10) != tx0)
        ok(seen and peer.recv(timeout=0.3) is None and q.wait_irq(0, 0.1) == 0 and
           bytes(ram[Rings.TX_RING + 32 * i:Rings.TX_RING + 32 * i + 32]) == desc,
           "OP_MASTER 0: a TX descriptor is consumed, nothing sent, no status written, no interrupt")
        q.cmd(OP_MASTER, 0, 1)
        r.post_rx(4)
        rx = udp_frame(b"bus mastering on again" * 8, src="10.0.0.2", dst="10.0.0.1")
        peer.send(rx)

        def delivered():
            for k in range(16):
                addr, length, status = r.rx_desc(k)
                if status & DONE and ram[addr:addr + length] == rx:
                    return True
            return False
        ok(wait_for(delivered) and q.wait_irq(1) >= 1, "OP_MASTER 1: the next RX frame is delivered")

        rc, text = sim.finish()
        for line in text.splitlines():
            if "stats: resets" in line or "interface errors" in line:
                diag(line)
        # (blocked: TX's descriptor read and status write; RX reads no
        # descriptor while bus mastering is off, and delivers nothing)
        ok(rc == 0 and stat_of(text, "resets") == 2 and (stat_of(text, "dma_blocked") or 0) >= 2,
           "--stats: resets 2, dma_blocked %s (exit %d)" % (stat_of(text, "dma_blocked"), rc))
        ok("bad command" not in text, "OP_RESET and OP_MASTER are not bad commands")
    finally:
        sim.cleanup()


def test_stall_list(tmp):
    """--stall-after 2,3: a second stall 3 frames after the reset that ended
    the first; a reset before a stall came keeps it armed; then no more."""
    sim = Sim(tmp, "sl", ["--stall-after", "2,3"])
    try:
        q, ram, peer = sim.q, sim.ram, sim.peer
        r = Rings(q, ram)
        good = all(send_and_wait(r, peer, udp_frame(b"a%d" % k)) for k in range(2))
        late = r.send(udp_frame(b"a late"))
        time.sleep(0.4)
        ok(good and not r.tx_status(late) & DONE, "--stall-after 2,3: the first stall after 2 frames")
        q.cmd(OP_MASTER, 0, 0)
        q.cmd(OP_RESET, 0)
        r = Rings(q, ram)
        q.cmd(OP_MASTER, 0, 1)
        good = send_and_wait(r, peer, udp_frame(b"b0"))
        q.cmd(OP_RESET, 0)          # before the second stall came: it stays armed
        r = Rings(q, ram)
        good = good and all(send_and_wait(r, peer, udp_frame(b"b%d" % k)) for k in range(1, 4))
        late = r.send(udp_frame(b"b late"))
        time.sleep(0.4)
        ok(good and not r.tx_status(late) & DONE,
           "the second stall 3 frames after the reset that followed the first")
        q.cmd(OP_RESET, 0)
        r = Rings(q, ram)
        good = all(send_and_wait(r, peer, udp_frame(b"c%d" % k)) for k in range(8))
        ok(good, "after the last stall of the list: 8 frames, no third stall")
        rc, text = sim.finish()
        ok(rc == 0 and "stall 1 of 2" in text and "stall 2 of 2" in text and
           text.count("fault: DMA bridge stalled") == 2, "both stalls reported once each (exit %d)" % rc)
    finally:
        sim.cleanup()


def test_stall(tmp):
    """--stall-after: a hung DMA bridge until OP_RESET."""
    sim = Sim(tmp, "st", ["--stall-after", "3"])
    try:
        q, ram, peer = sim.q, sim.ram, sim.peer
        r = Rings(q, ram)
        good = all(send_and_wait(r, peer, udp_frame(b"frame %d" % k)) for k in range(3))
        ok(good, "--stall-after 3: three frames sent and completed")
        late = [r.send(udp_frame(b"late frame %d" % k)) for k in range(2)]
        time.sleep(0.5)
        ok(peer.recv(timeout=0.3) is None and not any(r.tx_status(i) & DONE for i in late) and
           q.read(TXQ + 0x10) == 3, "--stall-after 3: the 4th and 5th frames do not complete")
        no_spin(sim, "stalled")
        q.cmd(OP_MASTER, 0, 0)
        time.sleep(0.3)
        ok(peer.recv(timeout=0.3) is None and not any(r.tx_status(i) & DONE for i in late),
           "OP_MASTER 0 does not unstall the bridge")
        q.cmd(OP_MASTER, 0, 1)
        q.write(TXQ + 0x00, Rings.TX_RING)      # unsafe: counted only
        q.cmd(OP_MASTER, 0, 0)
        q.cmd(OP_RESET, 0)
        r = Rings(q, ram)
        q.cmd(OP_MASTER, 0, 1)
        good = all(send_and_wait(r, peer, udp_frame(b"again %d" % k)) for k in range(6))
        ok(good, "after OP_RESET and reprogramming: six frames complete, no second stall")
        rc, text = sim.finish()
        ok(rc == 0 and text.count("fault: DMA bridge stalled after 3 frames (--stall-after") == 1,
           "the stall is reported once; exit 0 (%d)" % rc)
        rtl_ok(stat_of(text, "unsafe_reprogram") == 1 and stat_of(text, "dma_blocked") == 0 and
               "exit status 3" not in text,
               "without --check-dma an unsafe BASE write is only counted; master off answered nothing",
               BEH_NO_DMA_IN_FLIGHT)
    finally:
        sim.cleanup()


def test_wedge(tmp):
    """--tx-wedge-after: the MAC takes nothing until the TX queue is
    flushed (QFLUSH); DMA and RX go on meanwhile; once."""
    sim = Sim(tmp, "wg", ["--tx-wedge-after", "2"])
    try:
        q, ram, peer = sim.q, sim.ram, sim.peer
        r = Rings(q, ram)
        good = all(send_and_wait(r, peer, udp_frame(b"w%d" % k)) for k in range(2))
        ok(good, "--tx-wedge-after 2: two frames sent")
        late = [udp_frame(b"late %d" % k) for k in range(2)]
        for f in late:
            r.send(f)
        time.sleep(0.5)
        ok(peer.recv(timeout=0.3) is None, "wedged: the 3rd and 4th frames do not leave")
        no_spin(sim, "wedged")
        r.post_rx(4)
        rx = udp_frame(b"RX while the MAC is wedged" * 4, src="10.0.0.2", dst="10.0.0.1")
        peer.send(rx)

        def delivered():
            return any(r.rx_desc(k)[2] & DONE and ram[r.rx_desc(k)[0]:r.rx_desc(k)[0] + r.rx_desc(k)[1]] == rx
                       for k in range(16))
        ok(wait_for(delivered, 5), "wedged: an RX frame is delivered (DMA and RX go on)")
        q.write(CTRL, 2)                    # TX off, RX on
        q.write(QFLUSH, 1)
        done = wait_for(lambda: q.read(QFLUSH) == 0, 5)
        ok(done and q.read(TXQ + 0x10) == 0 and q.read(TXQ + 0x0C) == 0,
           "QFLUSH TX: done, PROD = CONS = 0")
        # what the FIFO held whole leaves now; no frame is sent twice
        got = []
        while True:
            f = peer.recv(timeout=0.5)
            if f is None:
                break
            got.append(f)
        ok(all(f in late for f in got) and len(set(got)) == len(got),
           "after the flush: %d of the frames held leave, each once" % len(got))
        ram[Rings.TX_RING:Rings.TX_RING + 32 * 16] = bytes(32 * 16)
        r.tx_prod = 0
        q.write(CTRL, 3)
        good = all(send_and_wait(r, peer, udp_frame(b"after %d" % k)) for k in range(4))
        ok(good, "TX on again from index 0: four frames sent, no second wedge")
        rc, text = sim.finish()
        ok(rc == 0 and text.count("fault: the MAC takes no frame after 2 sent") == 1 and
           "fault cleared: the TX queue is flushed" in text, "the wedge and its end reported (exit %d)" % rc)
    finally:
        sim.cleanup()


def test_check_dma(tmp):
    """--check-dma: exit status 3 after an unsafe queue reprogram."""
    sim = Sim(tmp, "cu", ["--stall-after", "1", "--check-dma"])
    try:
        q, ram, peer = sim.q, sim.ram, sim.peer
        r = Rings(q, ram)
        ok(send_and_wait(r, peer, udp_frame(b"one")), "--check-dma: a frame before the stall")
        r.send(udp_frame(b"two"))
        time.sleep(0.3)
        q.write(TXQ + 0x00, Rings.TX_RING + 0x8000)
        rc, text = sim.finish()
        rtl_ok(rc == 3 and "DMA safety: TX queue BASE written while the NIC had DMA in flight "
               "(bus mastering on)" in text and stat_of(text, "unsafe_reprogram") == 1,
               "--check-dma: BASE written while stalled with a request: the message, exit 3 (%d)" % rc,
               BEH_NO_DMA_IN_FLIGHT)
    finally:
        sim.cleanup()

    sim = Sim(tmp, "cs", ["--stall-after", "2", "--check-dma"])
    try:
        q, ram, peer = sim.q, sim.ram, sim.peer
        r = Rings(q, ram)
        r.post_rx(8)
        good = all(send_and_wait(r, peer, udp_frame(b"frame %d" % k)) for k in range(2))
        r.send(udp_frame(b"stalls"))
        time.sleep(0.3)
        # the recovery path: bus mastering off, reset, reprogram, on again
        q.cmd(OP_MASTER, 0, 0)
        q.cmd(OP_RESET, 0)
        r = Rings(q, ram)
        r.post_rx(8)
        q.cmd(OP_MASTER, 0, 1)
        good = good and send_and_wait(r, peer, udp_frame(b"recovered"))
        rx = udp_frame(b"to the guest" * 20, src="10.0.0.2", dst="10.0.0.1")
        peer.send(rx)
        good = good and wait_for(lambda: r.rx_desc(0)[2] & DONE)
        # a clean stop: queues off, wait until idle, then move them
        q.write(CTRL, 0)
        idle = wait_for(lambda: q.read(STATUS) & (STATUS_TX_IDLE | STATUS_RX_IDLE) ==
                        STATUS_TX_IDLE | STATUS_RX_IDLE)
        for k in range(4):          # RX is off: the NIC drops these, with no DMA
            peer.send(udp_frame(b"dropped %d" % k * 40, src="10.0.0.2", dst="10.0.0.1"))
        time.sleep(0.05)
        r = Rings(q, ram)
        good = good and idle and send_and_wait(r, peer, udp_frame(b"moved"))
        rc, text = sim.finish()
        ok(good and rc == 0 and stat_of(text, "unsafe_reprogram") == 0 and "DMA safety" not in text,
           "--check-dma: recovery (master off, reset, reprogram), a clean stop, frames arriving: exit 0 (%d)" % rc)
    finally:
        sim.cleanup()


MGMT_CTRL, MGMT_LOAD_ADDR, MGMT_LOAD_DATA = 0x500, 0x504, 0x508
FW_STATUS, FW_HEARTBEAT = 0x510, 0x518
FW_READY = 1 << 0
OFF_CLOCKS = 0x020
NIC_CLK_PER_MS = 250000      # the NIC's 250 MHz


def load_firmware(q, path):
    """The driver's loader: HALT, LOAD_ADDR, the payload words, un-HALT."""
    with open(path, "rb") as f:
        img = f.read()
    size, load = struct.unpack_from("<II", img, 12)
    words = struct.unpack_from("<%dI" % (size // 4), img, 32)
    q.write(MGMT_CTRL, 1)
    q.write(MGMT_LOAD_ADDR, load)
    for i in range(0, len(words), 32):
        q.cmds(*[(OP_WRITE, MGMT_LOAD_DATA, w) for w in words[i:i + 32]])
    q.write(MGMT_CTRL, 0)


def test_sleep(tmp):
    """A sleeping management core (docs/sim.md "A sleeping core"): with the
    firmware running and nothing else to do, incsim skips the clocks of its
    WFI at --sleep-scale wall ms per NIC ms: little CPU, the heartbeat goes
    on, and the published clock count advances at that rate."""
    fw = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(INCSIM))),
                      "firmware", "inceptionn-fw.bin")
    if not os.path.exists(fw):
        ok(False, "sleeping core: the firmware image %s exists (make firmware)" % fw)
        return
    scale = float(os.environ.get("SLEEP_SCALE", "200"))
    sim = Sim(tmp, "slp", ["--sleep-scale", "%g" % scale])
    if MODEL != "rtl":
        scale = 1.0     # the behavioral NIC's clock is the wall clock's
    try:
        q = sim.q
        load_firmware(q, fw)
        ready = wait_for(lambda: q.read(FW_STATUS) & FW_READY, 120)
        ok(ready, "sleeping core: the firmware is READY (FW_STATUS 0x%x)" % q.read(FW_STATUS))
        time.sleep(0.5)

        def clocks():
            return struct.unpack_from("<Q", q.bar2, OFF_CLOCKS)[0]
        hb0, c0, t0, k0 = q.read(FW_HEARTBEAT), clocks(), time.time(), cpu_seconds(sim.p.pid)
        time.sleep(4.0)
        hb1, c1, t1, k1 = q.read(FW_HEARTBEAT), clocks(), time.time(), cpu_seconds(sim.p.pid)
        wall_ms = (t1 - t0) * 1000
        want_ms = wall_ms / scale                  # NIC ms the scale gives
        nic_ms = (c1 - c0) / NIC_CLK_PER_MS
        cpu = (k1 - k0) / (t1 - t0)
        diag("sleeping core: %.0f ms wall, %.1f NIC ms by the clock count (%.1f at the scale), "
             "heartbeat +%d, incsim CPU %.1f%%" % (wall_ms, nic_ms, want_ms, hb1 - hb0, 100 * cpu))
        ok(cpu < 0.15, "sleeping core: incsim uses under 15%% of a CPU (%.1f%%)" % (100 * cpu))
        ok(0.7 * want_ms <= nic_ms <= 1.15 * want_ms,
           "sleeping core: the clock count advances at the scale (%.1f NIC ms in %.0f wall ms, want %.1f)"
           % (nic_ms, wall_ms, want_ms))
        ok(hb1 - hb0 >= 0.7 * want_ms and abs((hb1 - hb0) - nic_ms) <= 3,
           "sleeping core: the heartbeat counts those NIC ms (+%d for %.1f)" % (hb1 - hb0, nic_ms))
        # the core halted: the timer and the clock count go on, no heartbeat
        q.write(MGMT_CTRL, 1)
        hb0, c0, t0 = q.read(FW_HEARTBEAT), clocks(), time.time()
        time.sleep(1.0)
        hb1, c1, t1 = q.read(FW_HEARTBEAT), clocks(), time.time()
        nic_ms, want_ms = (c1 - c0) / NIC_CLK_PER_MS, (t1 - t0) * 1000 / scale
        ok(hb1 == hb0 and 0.7 * want_ms <= nic_ms <= 1.15 * want_ms,
           "sleeping core: halted, no heartbeat (+%d) and NIC time goes on (%.1f ms, want %.1f)"
           % (hb1 - hb0, nic_ms, want_ms))
        rc, text = sim.finish()
        for line in text.splitlines():
            if "stats: clocks" in line or "stats: timer wakeups" in line:
                diag(line)
        ok(rc == 0, "sleeping core: incsim exits 0 (%d)" % rc)
    finally:
        sim.cleanup()


def main():
    tmp = tempfile.mkdtemp(prefix="incsim-test-")
    ram_path = "/dev/shm/incsim-test-%d" % os.getpid()
    ivs_path, link_path = tmp + "/ivs.sock", tmp + "/link.sock"

    # ---- bad input ----
    run_bad([], 2, "--ivshmem PATH is required", "no options")
    run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--vectors", "1"], 2,
            "bad --vectors", "one vector")
    run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--ram-size", "12Q"], 2,
            "bad --ram-size", "bad size")
    run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--ram-size", "4G"], 2,
            "over 2.75 GiB", "RAM too big")
    run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--bogus"], 2,
            "unknown or incomplete option", "unknown option")
    for v in ("0", "-1", "abc", "3x", "", "2,", "2,0", ",2", "1,2,3,4,5,6,7,8,9"):
        run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--stall-after", v], 2,
                "bad --stall-after", "--stall-after '%s'" % v)
    for v in ("0", "-1", "abc", "3x", ""):
        run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--tx-wedge-after", v], 2,
                "bad --tx-wedge-after", "--tx-wedge-after '%s'" % v)
    for v in ("abc", "-1", "1e9", ""):
        run_bad(["--ivshmem", ivs_path, "--ram", ram_path, "--dma-latency", v], 2,
                "bad --dma-latency", "--dma-latency '%s'" % v)
    run_bad(["--ivshmem", ivs_path, "--ram", tmp + "/nope"], 1,
            "give --ram-size to create it", "missing RAM file")
    with open(tmp + "/small", "wb") as f:
        f.truncate(1 << 20)
    run_bad(["--ivshmem", ivs_path, "--ram", tmp + "/small", "--ram-size", "64M"], 1,
            "expected", "RAM file of the wrong size")
    with open(tmp + "/notsock", "w") as f:
        f.write("x")
    run_bad(["--ivshmem", tmp + "/notsock", "--ram", tmp + "/small"], 1,
            "not a socket", "socket path taken by a file")

    # ---- a running incsim ----
    p = subprocess.Popen([INCSIM, "--model", MODEL, "--ivshmem", ivs_path, "--ram", ram_path,
                          "--ram-size", "64M",
                          "--link-listen", link_path, "--name", "t0", "--stats"],
                         stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: os.path.exists(ivs_path) and os.path.exists(link_path))
        q = FakeQemu(ivs_path)
        ok([v for v, _ in q.msgs] == [0, 1, -1, 0, 0, 1, 1] and
           all(fd >= 0 for _, fd in q.msgs[2:]) and os.fstat(q.shm_fd).st_size == 8192,
           "ivshmem handshake: version 0, id 1, shm of 8192 bytes, 2 doorbells, 2 vectors")
        hdr = struct.unpack_from("<QIIIII", q.bar2, 0)
        ok(hdr == (INCSIM_MAGIC, 1, 1, 0x10000, 256, 2),
           "BAR2 header: magic, version 1, attached, BAR0 64 KiB, 256 entries, 2 vectors (%r)" % (hdr,))
        q2 = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        q2.connect(ivs_path)
        ok(q2.recv(8) == b"", "a second QEMU is refused")
        q2.close()

        ok(q.read(MAGIC) == 0x31434E49 and q.read(VERSION) >> 16 == 1,
           "MAGIC and VERSION read through the command ring")
        vals = [random.getrandbits(32) for _ in range(600)]
        good = True
        for v in vals:          # writes then a read, 600 of them: ring wraps twice
            q.write(SCRATCH, v)
        good = q.read(SCRATCH) == vals[-1]
        for v in vals[:40]:
            q.write(SCRATCH, v)
            good = good and q.read(SCRATCH) == v
        ok(good, "reads are ordered after writes; the ring wraps")
        ok(q.read(3) == 0xFFFFFFFF and q.read(0x12345) == 0xFFFFFFFF and q.read(MAGIC) == 0x31434E49,
           "unaligned and out-of-range commands read all ones; the ring goes on")
        ok(q.read(STATUS) & 1 == 0, "link down before a peer connects")

        fd = os.open(ram_path, os.O_RDWR)
        ram = mmap.mmap(fd, 64 << 20)
        os.close(fd)
        peer = Peer(link_path)
        ok(wait_for(lambda: q.read(STATUS) & 1 == 1), "link up when the peer connects")
        r = Rings(q, ram)

        # TX: a frame DMA'd from guest RAM comes out on the link
        frame = udp_frame(bytes(range(200)))
        i = r.send(frame)
        got = peer.recv()
        ok(got == frame, "TX: the frame in guest RAM arrives on the link unchanged")
        ok(q.wait_irq(0) >= 1, "TX: the TX vector's eventfd is written")
        st = r.tx_status(i)
        ok(st & DONE and st & 0xFFFF == len(frame), "TX: descriptor DONE, %d bytes (0x%08x)" % (len(frame), st))

        # RX: a frame from the link is DMA'd into a posted buffer
        r.post_rx(8)
        rx = udp_frame(b"hello from the link" * 10, src="10.0.0.2", dst="10.0.0.1")
        peer.send(rx)
        ok(q.wait_irq(1) >= 1, "RX: the RX vector's eventfd is written")
        addr, length, status = r.rx_desc(0)
        ok(status & DONE and length == len(rx) and ram[addr:addr + length] == rx,
           "RX: descriptor DONE and the frame's bytes in guest RAM")

        # compression: TX compresses the marked range, the wire carries the
        # shim, and the frame sent back is restored within 2^-k
        rng = random.Random(5)
        floats = [rng.gauss(0, 0.01) for _ in range(256)]
        payload = struct.pack("<256f", *floats)
        g = udp_frame(payload)
        q.write(IRQ_ENABLE, 3)
        i = r.send(g, compress=True, k=10, mode=2, roff=0, rlen=len(payload))
        wire = peer.recv()
        st = r.tx_status(i)
        ok(wire is not None and wire[23] == 253 and len(wire) < len(g) and st & COMPRESSED,
           "TX compression: IP protocol 253 on the wire, %d -> %d bytes" % (len(g), len(wire or b"")))
        peer.send(wire)
        ok(wait_for(lambda: r.rx_desc(1)[2] & DONE), "RX: the compressed frame is delivered")
        addr, length, status = r.rx_desc(1)
        back = bytes(ram[addr:addr + length])
        restored = struct.unpack("<256f", back[42:42 + len(payload)]) if length == len(g) else None
        err = max(abs(a - b) for a, b in zip(floats, restored)) if restored else math.inf
        ok(status & RESTORED and restored is not None and back[:40] == g[:40] and err <= 2 ** -10,
           "RX decompression: headers restored, max error %.3g <= 2^-10" % err)
        pseudo = back[26:34] + struct.pack("!BBH", 0, 17, length - 34)
        ok(restored is not None and csum16(pseudo + back[34:]) == 0,
           "RX decompression: the restored UDP checksum is right")
        ok(q.stat(ST_TX_COMP_FRAMES) == 1 and q.stat(ST_RX_DECOMP_FRAMES) == 1,
           "statistics count one compressed and one restored frame")

        # link faults: a malformed length closes the connection, link down;
        # a new peer brings it back up
        peer.s.sendall(struct.pack(">I", 0))
        ok(peer.closed_by_other_end(), "a zero-length link message closes the connection")
        ok(wait_for(lambda: q.read(STATUS) & 1 == 0), "link down after the malformed message")
        peer = Peer(link_path)
        ok(wait_for(lambda: q.read(STATUS) & 1 == 1), "link up again with a new peer")
        peer.s.sendall(struct.pack(">I", 70000) + bytes(16))
        ok(peer.closed_by_other_end(), "an over-long link message closes the connection")
        peer = Peer(link_path)
        ok(wait_for(lambda: q.read(STATUS) & 1 == 1), "link up with a third peer")
        peer.send(rx)
        ok(q.wait_irq(1) >= 1 and wait_for(lambda: r.rx_desc(2)[2] & DONE),
           "frames flow again after the faults")

        # idle: with nothing to do incsim sleeps
        time.sleep(0.3)
        c0 = cpu_seconds(p.pid)
        time.sleep(1.0)
        used = cpu_seconds(p.pid) - c0
        ok(used < 0.1, "idle: %.2f s of CPU in 1 s" % used)

        # QEMU goes away: incsim exits 0
        ram.close()
        q.close()
        rc = p.wait(timeout=20)
        err_text = p.stderr.read()
        ok(rc == 0 and "QEMU disconnected" in err_text, "QEMU disconnect: incsim exits 0 (%d)" % rc)
        ok("stats: nic rx_decomp_frames" in err_text, "--stats prints the NIC's counters")
        for line in err_text.splitlines():
            if "stats:" in line and ("clocks" in line or "interrupts" in line or "link" in line):
                diag(line)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for f in (ram_path,):
            try:
                os.unlink(f)
            except FileNotFoundError:
                pass
    test_reset_master(tmp)
    test_stall(tmp)
    test_stall_list(tmp)
    test_wedge(tmp)
    test_check_dma(tmp)
    test_sleep(tmp)
    print("1..%d" % n_test)
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
