#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The RTL's figures behind test_mgmt_iss's table (tests/sim/beh/
# test_mgmt_iss.c, isa_progs[]): each ISA program and corners.S on
# tests/rtl/mgmt/tb_mgmt_soc.v under Icarus, at TIMER_PRESCALE 1 and, for
# irq.S and corners.S, 7 (a defparam), one RESULT line each (tohost,
# mcycle, minstret, mcause, mepc at the tohost write). Run it after a
# change of rtl/mgmt/ and update the table. Not part of make check (Icarus,
# about 10 s).
#
# usage: tests/sim/beh/rtl-figures.sh [BUILD_DIR]    (default build)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

BUILD=${1:-build}
B=$BUILD/mgmt-iss/rtl
ISA=$BUILD/mgmt-iss/isa
RTL=(rtl/mgmt/mgmt_soc.v rtl/mgmt/mgmt_cpu.v rtl/mgmt/mgmt_ram.v rtl/mgmt/mgmt_timer.v)
PROGS=(alu shift compare branch jump upper loadstore mul div csr trap irq regbus cprog fail corners)

elfs=()
for p in "${PROGS[@]}"; do
	elfs+=("$ISA/$p.elf")
done
make -s BUILD="$BUILD" "${elfs[@]}"
mkdir -p "$B"
printf 'module ps7;\ndefparam tb_mgmt_soc.dut.TIMER_PRESCALE = 7;\nendmodule\n' >"$B/ps7.v"
iverilog -g2005 -Itests/rtl/mgmt -s tb_mgmt_soc -o "$B/tb1.vvp" \
	tests/rtl/mgmt/tb_mgmt_soc.v "${RTL[@]}"
iverilog -g2005 -Itests/rtl/mgmt -s tb_mgmt_soc -s ps7 -o "$B/tb7.vvp" \
	tests/rtl/mgmt/tb_mgmt_soc.v "$B/ps7.v" "${RTL[@]}" 2>/dev/null

run() {	# run PRESCALE PROGRAM
	local ni nd
	read -r ni nd < <(python3 firmware/tests/isa/elf2hex.py "$ISA/$2.elf" "$B/$2")
	printf '%-10s prescale %s: ' "$2" "$1"
	vvp -n "$B/tb$1.vvp" "+imem=$B/$2.imem.hex" "+imem_words=$ni" \
		"+dmem=$B/$2.dmem.hex" "+dmem_words=$nd" +timeout=200000 | grep -m1 '^RESULT'
}
for p in "${PROGS[@]}"; do
	run 1 "$p"
done
run 7 irq
run 7 corners
