#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""gen-regs-vh.py: the NIC's register map and descriptor layouts for the RTL,
made from the one C definition of them, include/hw/inc_nic_regs.h.

    rtl/scripts/gen-regs-vh.py [HEADER [OUT]]      write OUT
    rtl/scripts/gen-regs-vh.py --check [HEADER [OUT]]
                                                   exit 1 if OUT differs

Defaults: include/hw/inc_nic_regs.h, rtl/nic/inc_nic_regs.vh. Each object-
like macro whose value is an integer literal or (1u << n) becomes a 32-bit
localparam of the same name and value; a (1u << n) also gives NAME_BIT = n.
Function-like macros and other values (INC_STATS_LIST, INC_COAL) are left
out. The C header's section comments are kept. The output is included
inside a module body (`include "inc_nic_regs.vh"), so it has no include
guard; a module uses the names it needs (Verilator's UNUSEDPARAM is off
inside it, for the rest).
"""

import re
import sys

DEF = re.compile(r"^#define\s+(INC_\w+)\s+(.*?)\s*(?:/\*\s*(.*?)\s*\*/)?\s*$")
SECTION = re.compile(r"^/\*\s*----\s*(.*?)\s*----\s*\*/\s*$")
INT = re.compile(r"^(0x[0-9a-fA-F]+|[0-9]+)[uU]?$")
SHIFT = re.compile(r"^\(\s*1[uU]?\s*<<\s*([0-9]+)\s*\)$")


def fail(msg):
    print(f"gen-regs-vh: {msg}", file=sys.stderr)
    sys.exit(2)


def convert(header):
    try:
        with open(header, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(f"{header}: {e.strerror}")
    out = [
        "// SPDX-License-Identifier: MIT",
        "/*",
        " * inc_nic_regs.vh: the NIC's register offsets, bits, descriptor layouts",
        " * and counter indices (docs/regmap.md), for the RTL. Made from",
        " * include/hw/inc_nic_regs.h by rtl/scripts/gen-regs-vh.py: do not edit;",
        " * change the C header and run the script (make check compares them).",
        " *",
        " * Included inside a module body: `include \"inc_nic_regs.vh\"",
        " */",
        "",
        "/* verilator lint_off UNUSEDPARAM */",
    ]
    names = set()
    n = 0
    for line in lines:
        s = SECTION.match(line)
        if s:
            out += ["", f"// ---- {s.group(1)} ----"]
            continue
        d = DEF.match(line)
        if not d:
            continue
        name, value, comment = d.group(1), d.group(2), d.group(3)
        if "(" in name or value.endswith("\\"):
            continue
        note = f"   // {comment}" if comment else ""
        m = INT.match(value)
        sh = SHIFT.match(value)
        if m:
            v = int(m.group(1), 0)
        elif sh:
            bit = int(sh.group(1))
            if bit > 31:
                fail(f"{name}: bit {bit} does not fit 32 bits")
            v = 1 << bit
        else:
            continue            # a value the RTL has no use for
        if v >= 1 << 32:
            fail(f"{name}: {value} does not fit 32 bits")
        if name in names:
            fail(f"{name} defined twice")
        names.add(name)
        out.append(f"localparam [31:0] {name} = 32'h{v:08x};{note}")
        if sh:
            if name + "_BIT" in names:
                fail(f"{name}_BIT defined twice")
            names.add(name + "_BIT")
            out.append(f"localparam integer {name}_BIT = {bit};")
        n += 1
    if n == 0:
        fail(f"{header}: no constants found")
    out += ["", "/* verilator lint_on UNUSEDPARAM */", ""]
    return "\n".join(out)


def main(argv):
    check = False
    if argv and argv[0] == "--check":
        check = True
        argv = argv[1:]
    if len(argv) > 2 or any(a.startswith("-") for a in argv):
        fail("usage: gen-regs-vh.py [--check] [HEADER [OUT]]")
    header = argv[0] if argv else "include/hw/inc_nic_regs.h"
    target = argv[1] if len(argv) > 1 else "rtl/nic/inc_nic_regs.vh"
    text = convert(header)
    if check:
        try:
            with open(target, encoding="utf-8") as f:
                old = f.read()
        except OSError as e:
            print(f"gen-regs-vh: {target}: {e.strerror}", file=sys.stderr)
            return 1
        if old != text:
            print(f"gen-regs-vh: {target} is not what {header} gives: "
                  f"run rtl/scripts/gen-regs-vh.py", file=sys.stderr)
            return 1
        return 0
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
