#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The table and the verdicts of `make demo-train` (scripts/demo-train.sh).

Reads rank 0's console (its "TRAIN-REC {json}" lines, scripts/train/rank.py)
and tests/vm/run.sh's TAP. Settings: stock, then the same inccl setting
with @nic and with @sw. Verdicts: every guest finished cleanly; a record for
each setting, every rank with the same finite weights; the nic run's
weights bit-identical to the sw run's; in the nic run every NIC sent
compressed frames and restored received ones, and put fewer bytes on the
link than its host handed it; in the others no NIC compressed anything
(nothing was marked); no NIC dropped a malformed frame; test accuracy of
the nic run within 3 points of stock, and stock at 50% or more (it learned:
chance is 10%).

usage: demo-report.py --log HOST0.LOG --run-tap RUN.TAP --hosts N
         --settings stock,S@nic,S@sw [--tap]
"""
import argparse
import json
import re
import sys


class Report:
    def __init__(self, tap):
        self.tap, self.n, self.failed = tap, 0, 0

    def point(self, good, what):
        self.n += 1
        self.failed += not good
        if self.tap:
            print(f"{'ok' if good else 'not ok'} {self.n} - {what}")
        elif not good:
            print(f"FAILED: {what}")

    def diag(self, text):
        for line in text.splitlines():
            print(f"# {line}" if self.tap else line)


def console_lines(path):
    try:
        raw = open(path, "rb").read().decode(errors="replace")
    except OSError:
        return []
    return [ln.rstrip("\r") for ln in raw.replace("\r\n", "\n").split("\n")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", required=True)
    ap.add_argument("--run-tap", required=True)
    ap.add_argument("--hosts", type=int, required=True)
    ap.add_argument("--settings", required=True)
    ap.add_argument("--tap", action="store_true")
    a = ap.parse_args()
    rep = Report(a.tap)
    settings = a.settings.split(",")
    stock, nic, sw = settings

    # the guests, as tests/vm/run.sh saw them
    for line in console_lines(a.run_tap):
        m = re.match(r"^(ok|not ok) \d+ - (.*)$", line)
        if m:
            rep.point(m.group(1) == "ok", m.group(2))
        elif line.startswith("#") and a.tap:
            print(line)
        elif line.startswith("#") and ("failed" in line or "not ok" in line):
            print(line)

    recs = {}
    for line in console_lines(a.log):
        if line.startswith("TRAIN-REC "):
            try:
                r = json.loads(line[10:])
                recs[r["setting"]] = r
            except ValueError as e:
                rep.point(False, f"rank 0's record is not JSON ({e}): {line[:120]}")
    for s in settings:
        rep.point(s in recs, f"{s}: rank 0 reported the run")
    if any(s not in recs for s in settings):
        print(f"1..{rep.n}" if a.tap else f"{rep.failed} verdict(s) FAILED (logs: {a.log})")
        return 1

    # the table
    hdr = ("setting", "test acc %", "loss", "link B/step", "host->NIC B/step", "ratio",
           "comp frames", "bytes saved", "step ms", "weights")
    rows = []
    for s in settings:
        r = recs[s]
        nics = r["nic"] or []
        link = sum(x.get("tx_bytes", 0) for x in nics) / len(nics) / r["steps"]
        host = sum(x.get("drv_tx_bytes", 0) for x in nics) / len(nics) / r["steps"]
        comp = sum(x.get("tx_comp_frames", 0) for x in nics)
        saved = sum(x.get("tx_bytes_saved", 0) for x in nics)
        rows.append((s, f"{r['acc']:.2f}", f"{r['loss']:.3f}", f"{link:,.0f}", f"{host:,.0f}",
                     f"{host / link:.2f}x" if link else "-", f"{comp:,}", f"{saved:,}",
                     f"{r['step_ms']:.0f}", r["digest"]))
    w = [max(len(str(x[i])) for x in rows + [hdr]) for i in range(len(hdr))]
    fmt = "  ".join(f"{{:{'<' if i in (0, 9) else '>'}{w[i]}}}" for i in range(len(hdr)))
    r0 = recs[stock]
    table = [f"DDP on {a.hosts} simulated hosts (QEMU guests, incsim NICs, one incswitch): "
             f"the digits MLP ({r0['params']:,} parameters), {r0['steps']} steps, seed {r0['seed']}, "
             f"batch 16 per rank",
             fmt.format(*hdr)] + [fmt.format(*x) for x in rows] + [
             "per rank and step: link B = bytes the NIC put on the wire, host->NIC B = bytes the "
             "driver handed the NIC (ethtool -S tx_bytes, drv_tx_bytes; every byte: gradients, "
             "Gloo, TCP/IP headers); comp frames, bytes saved: all NICs together; step ms: "
             "simulated time is QEMU (TCG) and incsim (the NIC's RTL or behavioral model), not the design's speed"]
    rep.diag("\n".join(table))

    # the verdicts
    for s in settings:
        r = recs[s]
        rep.point(r["same_weights"] and r["finite"],
                  f"{s}: every rank ended with the same finite weights ({r['digest']})")
        nics = r["nic"] or []
        rep.point(len(nics) == a.hosts, f"{s}: NIC counters of all {a.hosts} ranks")
        mal = [i for i, x in enumerate(nics) if x.get("rx_drop_malformed", 0)]
        rep.point(not mal, f"{s}: no NIC dropped a malformed frame"
                  + (f" (rank {mal})" if mal else ""))
        comp = [x.get("tx_comp_frames", 0) for x in nics]
        if s == nic:
            dec = [x.get("rx_decomp_frames", 0) for x in nics]
            rep.point(all(c > 0 for c in comp) and all(d > 0 for d in dec),
                      f"{s}: every NIC compressed what it sent ({comp} frames) and restored what "
                      f"it received ({dec})")
            tight = all(x.get("tx_bytes", 0) < x.get("drv_tx_bytes", 0) for x in nics)
            rep.point(tight, f"{s}: every NIC put fewer bytes on the link than its host handed it")
        else:
            rep.point(all(c == 0 for c in comp),
                      f"{s}: nothing marked, so no NIC compressed a frame ({comp})")
    rep.point(recs[nic]["digest"] == recs[sw]["digest"],
              f"{nic} trained weights bit-identical to {sw}: {recs[nic]['digest']} and "
              f"{recs[sw]['digest']} (the NIC, RTL or behavioral model, is bit-exact with the codec)")
    rep.point(recs[nic]["digest"] != r0["digest"],
              f"{nic} weights differ from {stock}'s: the gradients went through the lossy codec")
    rep.point(r0["acc"] >= 50.0, f"{stock}: test accuracy {r0['acc']:.2f}% (at least 50%; "
              "chance is 10%)")
    d = recs[nic]["acc"] - r0["acc"]
    rep.point(d >= -3.0, f"{nic}: test accuracy {recs[nic]['acc']:.2f}%, {d:+.2f} points "
              "against stock (at most 3 below)")
    if a.tap:
        print(f"1..{rep.n}")
    elif rep.failed:
        print(f"{rep.failed} of {rep.n} verdicts FAILED (logs: {a.log})")
    else:
        print(f"every verdict held ({rep.n}): weights bit-identical nic vs sw, the NICs compressed "
              "only the marked gradients")
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
