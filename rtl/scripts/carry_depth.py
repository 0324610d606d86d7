#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Carry-aware logic depth of a netlist (docs/rtl.md "Logic depth").

usage: carry_depth.py NETLIST.json TOP [--over L]

NETLIST.json is yosys `write_json` of a flattened module, either generic
(`abc -lut 6` LUTs, fine-grained flip-flops, and `$alu` cells kept whole:
rtl/scripts/timing.sh's carry method) or Xilinx-mapped (`synth_xilinx`: its
xilinx method). Prints the longest register-to-register path in LUT
levels, where

  - a LUT (any size) is 1 level: the LUT and the general-routing hop into it;
  - a cell input reached over general routing is 1 level too (a carry
    chain's CYINIT, a wide multiplexer's select, a LUTRAM's or SRL's
    address);
  - the dedicated arcs inside and between slices cost their share of a
    level by yosys's 7-series cell delays (techlibs/xilinx/cells_sim.v,
    specify blocks), against the slowest LUT6 arc (642 ps) as one level:
    a LUT into its slice's carry logic (S, DI) to CO/O 1.0 (up to 618 ps),
    carry in to carry out 0.2 (up to 114 ps per CARRY4, 4 bits), carry in
    to a sum bit 0.55 (up to 334 ps), a LUT into MUXF7 0.35 (223 ps),
    MUXF7 into MUXF8 (or MUXF8 into MUXF9) 0.17 (104 ps).

A `$alu` cell kept whole (an adder, subtractor or comparator of W bits) is
charged as the carry chain it becomes, in CARRY4s of 4 bits: the LUT that
makes S, the entry, (ceil(W/4) - 2) x 0.2, the last sum bit 0.55. So a
32-bit add into a register is 1 + 1 + 6 x 0.2 + 0.55 = 3.75 levels (8
CARRY4s; UltraScale+ has CARRY8, 8 bits a cell, so this overstates it),
where `abc -lut 6` alone charges the carry as LUTs (11 levels). Flip-flops,
block RAMs and the write side of LUTRAMs and SRLs end and start paths;
ports count as registers. Output lines:

  levels L            (rounded up to a tenth)
  path  ARRIVAL  CELL-TYPE  CELL  (NET)   one per step, source first

With --over L, also every register (by name, bits together) whose input
arrives later than L levels, deepest first, with the start of its
deepest path:

  over  LEVELS  END  <-  START
"""

import json
import sys

# dedicated arcs: (cell type, input port, output port prefix) -> levels
CARRY_CI = 0.2
CARRY_CI_SUM = 0.55
CARRY_ENTRY = 1.0
MUXF7_IN = 0.35
MUXF8_IN = 0.17

SEQ_PREFIXES = ("FD", "RAMB", "FIFO", "DSP", "URAM")
GENERIC_SEQ = ("$dff", "$adff", "$sdff", "$dffe", "$adffe", "$sdffe",
               "$sdffce", "$aldff", "$aldffe", "$dffsr", "$dffsre", "$dlatch",
               "$adlatch", "$dlatchsr", "$sr", "$mem", "$mem_v2")


def is_lut(t):
    # an INV is a LUT1; $lut is abc's
    return t.startswith("LUT") or t in ("INV", "$lut")


def is_seq(t):
    if t.startswith("$_"):
        return "DFF" in t or "DLATCH" in t or t.startswith("$_SR_")
    return t.startswith(SEQ_PREFIXES) or t in GENERIC_SEQ


def alu_levels(width):
    """A W-bit carry chain of CARRY4s, from the LUT that makes S."""
    n4 = (width + 3) // 4
    return (1.0 + CARRY_ENTRY + max(0, n4 - 2) * CARRY_CI +
            (CARRY_CI_SUM if n4 >= 2 else 0.0))


def param_int(v):
    return int(v, 2) if isinstance(v, str) else int(v)


def arc_levels(cell, iport, oport, driver_type):
    """Levels from input iport to output oport of a cell; driver_type is
    the type of the cell that drives iport (None: a port, a register, a
    constant)."""
    ctype = cell["type"]
    if is_lut(ctype):
        return 1.0
    if ctype == "$alu":
        return alu_levels(param_int(cell["parameters"]["Y_WIDTH"]))
    if ctype in ("CARRY4", "CARRY8"):
        if iport == "CI" or iport.startswith("CI_TOP"):
            return CARRY_CI if oport == "CO" else CARRY_CI_SUM
        if iport in ("S", "DI") and driver_type is not None and is_lut(driver_type):
            return CARRY_ENTRY
        return 1.0 + (CARRY_ENTRY if iport in ("S", "DI") else 0.0)
    if ctype == "MUXF7":
        if iport in ("I0", "I1") and driver_type is not None and is_lut(driver_type):
            return MUXF7_IN
        return 1.0
    if ctype in ("MUXF8", "MUXF9"):
        want = "MUXF7" if ctype == "MUXF8" else "MUXF8"
        if iport in ("I0", "I1") and driver_type == want:
            return MUXF8_IN
        return 1.0
    # LUTRAM read, SRL tap select, anything else combinational: a level
    return 1.0


def comb_arcs(ctype, inputs, outputs):
    """(input port, output port) pairs that are combinational, or None
    when the cell is sequential (its inputs end paths, outputs start them)."""
    if is_seq(ctype):
        return None
    if ctype.startswith("RAM") or ctype.startswith("SRL"):
        # the read address reaches the output; data, enables and clocks
        # are written on the clock edge
        addr = [p for p in inputs
                if p.startswith("ADDR") or p == "A" or
                (len(p) == 2 and p[0] == "A" and p[1].isdigit()) or
                p.startswith("DPRA") or p.startswith("RADR")]
        return [(i, o) for i in addr for o in outputs]
    if ctype in ("GND", "VCC", "$scopeinfo"):
        return []
    return [(i, o) for i in inputs for o in outputs]


def main():
    over = None
    if len(sys.argv) == 5 and sys.argv[3] == "--over":
        over = float(sys.argv[4])
    elif len(sys.argv) != 3:
        sys.exit("usage: carry_depth.py NETLIST.json TOP [--over L]")
    with open(sys.argv[1]) as f:
        mods = json.load(f)["modules"]
    if sys.argv[2] not in mods:
        sys.exit("carry_depth.py: module %s not in %s" % (sys.argv[2], sys.argv[1]))
    m = mods[sys.argv[2]]

    names = {}
    for n, net in m.get("netnames", {}).items():
        for i, b in enumerate(net["bits"]):
            if isinstance(b, int) and (b not in names or n[0] != "$"):
                names[b] = n if len(net["bits"]) == 1 else "%s[%d]" % (n, i)

    driver = {}   # bit -> cell name (combinational drivers only)
    dtype = {}    # bit -> type of whatever cell drives it
    dcell = {}    # bit -> name of whatever cell drives it
    cells = m["cells"]
    for cn, c in cells.items():
        dirs = c.get("port_directions", {})
        for p, bits in c["connections"].items():
            if dirs.get(p) == "output":
                for b in bits:
                    if isinstance(b, int):
                        dtype[b] = c["type"]
                        dcell[b] = cn
                        if comb_arcs(c["type"], [], [p]) is not None:
                            driver[b] = cn

    # longest arrival per bit, memoized depth-first over the drivers
    arrival = {}
    back = {}
    sys.setrecursionlimit(1 << 20)

    def arr(bit):
        if not isinstance(bit, int) or bit not in driver:
            return 0.0
        if bit in arrival:
            if arrival[bit] is None:
                sys.exit("carry_depth.py: combinational loop through %s"
                         % names.get(bit, bit))
            return arrival[bit]
        arrival[bit] = None
        cn = driver[bit]
        c = cells[cn]
        dirs = c["port_directions"]
        oport = next(p for p, bits in c["connections"].items()
                     if dirs.get(p) == "output" and bit in bits)
        ins = [p for p in c["connections"] if dirs.get(p) == "input"]
        best, via = 0.0, None
        for ip, op in comb_arcs(c["type"], ins, [oport]):
            for b in c["connections"][ip]:
                if not isinstance(b, int):
                    continue
                t = arr(b) + arc_levels(c, ip, op, dtype.get(b))
                if t > best:
                    best, via = t, b
        arrival[bit] = best
        back[bit] = (cn, via)
        return best

    # endpoints: inputs of sequential cells, output ports; owner names
    # each endpoint bit by the register (or port) it ends in
    ends = []
    owner = {}
    for cn, c in cells.items():
        dirs = c.get("port_directions", {})
        ins = [p for p in c["connections"] if dirs.get(p) == "input"]
        arcs = comb_arcs(c["type"], ins, [])
        if arcs is None:
            ins_b = [b for p in ins for b in c["connections"][p]]
            ends += ins_b
            outs = [b for p, bits in c["connections"].items()
                    if dirs.get(p) == "output" for b in bits]
            oname = names.get(outs[0], cn) if outs else cn
            for b in ins_b:
                owner.setdefault(b, oname)
        elif c["type"].startswith("RAM") or c["type"].startswith("SRL"):
            used = {i for i, _ in comb_arcs(c["type"], ins, ["O"])}
            ends += [b for p in ins if p not in used
                     for b in c["connections"][p]]
    for pn, p in m.get("ports", {}).items():
        if p["direction"] == "output":
            ends += p["bits"]
            for b in p["bits"]:
                owner.setdefault(b, pn)
    worst, wbit = 0.0, None
    for b in ends:
        t = arr(b)
        if t > worst:
            worst, wbit = t, b
    print("levels %.1f" % (int(worst * 10 + 0.999) / 10))
    path = []
    b = wbit
    while isinstance(b, int) and b in back:
        cn, via = back[b]
        path.append((arrival[b], cells[cn]["type"], cn, names.get(b, str(b))))
        b = via
    if isinstance(b, int):
        path.append((0.0, dtype.get(b, "port"), dcell.get(b, "-"),
                     names.get(b, str(b))))
    for a, t, cn, n in reversed(path):
        print("path %6.2f  %-8s %s  (%s)" % (a, t, cn, n))
    if over is not None:
        report_over(ends, owner, arr, back, dtype, names, over)


def base(name):
    """A register's name without its bit index."""
    return name.split("[")[0] if name.endswith("]") else name


def report_over(ends, owner, arr, back, dtype, names, over):
    """Every register (bits grouped) with an input deeper than `over`."""
    worst = {}
    for b in ends:
        t = arr(b)
        if t <= over:
            continue
        key = base(str(owner.get(b, b)))
        if key not in worst or t > worst[key][0]:
            worst[key] = (t, b)
    for key, (t, b) in sorted(worst.items(), key=lambda kv: -kv[1][0]):
        s = b
        while isinstance(s, int) and s in back:
            s = back[s][1]
        print("over %5.1f  %s  <-  %s" % (int(t * 10 + 0.999) / 10, key,
                                          names.get(s, str(s))))


if __name__ == "__main__":
    main()
