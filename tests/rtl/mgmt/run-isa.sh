#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The management core's ISA tests (firmware/tests/isa/*.S, and cprog.c: C
# as the firmware will be built) on mgmt_soc,
# under Icarus and under Verilator, with the harness's negative checks.
#
# usage: tests/rtl/mgmt/run-isa.sh [BUILD_DIR]      (default build/mgmt-isa)
#
# Builds every program with clang --target=riscv32 -march=rv32im and ld.lld
# (firmware/tests/isa/link.ld), turns it into IMEM/DMEM images
# (elf2hex.py), builds the testbench tests/rtl/mgmt/tb_mgmt_soc.v with
# iverilog -g2005 -Wall and with verilator --binary --timing -Wall (a
# warning fails the build's test point), and runs each program on each: a
# program passes when it writes 1 to tohost. Then the same programs on the
# core alone (tests/rtl/mgmt/tb_mgmt_cpu_stall.v) with a memory system
# that stalls both ports at random and checks the core's handshakes; there
# the retire pulses must also add up to minstret. Negative checks: fail.S (its
# check 3 expects a wrong value) must report check 3 failed, and cores
# built with a deliberate fault (mgmt_cpu's MUTANT) must fail the program
# that covers it (Icarus: all five; Verilator: one). Then a CPI table
# (mcycle / minstret at the end of each program) as diagnostics.
#
# Output: TAP. MGMT_SIMS (default "icarus verilator") picks the simulators;
# MGMT_TIMEOUT the clocks a program may take (default 200000). Exits
# non-zero if any point fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

B=${1:-build/mgmt-isa}
SIMS=${MGMT_SIMS:-icarus verilator}
TIMEOUT=${MGMT_TIMEOUT:-200000}
SRC=firmware/tests/isa
RTL=rtl/mgmt
TB=tests/rtl/mgmt/tb_mgmt_soc.v
TB_STALL=tests/rtl/mgmt/tb_mgmt_cpu_stall.v
CLANG=${CLANG:-clang}
LLD=${LLD:-ld.lld}
PROGS=(alu shift compare branch jump upper loadstore mul div csr trap irq regbus cprog)
# MUTANT:program that must fail with it (mgmt_cpu.v's MUTANT list)
MUTANTS=(1:shift 2:div 3:mul 4:trap 5:irq)
VL_MUTANT=2:div

n=0
failed=0
point() {	# point OK DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}
diag() { sed 's/^/# /' "$1"; }
finish() {
	echo "1..$n"
	exit "$failed"
}

mkdir -p "$B"
RTL_SRCS=("$RTL/mgmt_soc.v" "$RTL/mgmt_cpu.v" "$RTL/mgmt_ram.v" "$RTL/mgmt_timer.v")

# ---- the programs ----------------------------------------------------------
for tool in "$CLANG" "$LLD" python3; do
	command -v "$tool" >/dev/null || { point 1 "$tool not found (make deps)"; finish; }
done
log=$B/build-programs.log
: >"$log"
ok=0
CFLAGS=(--target=riscv32 -march=rv32im -mabi=ilp32 -mno-relax -nostdlib -ffreestanding
	-Wall -Wextra -Werror -I"$SRC")
for p in "${PROGS[@]}" fail; do
	{
		if [ -f "$SRC/$p.c" ]; then
			# a C program: -O2, with crt0.S
			"$CLANG" "${CFLAGS[@]}" -O2 -c "$SRC/$p.c" -o "$B/$p.o" &&
			"$CLANG" "${CFLAGS[@]}" -c "$SRC/crt0.S" -o "$B/crt0.o" &&
			"$LLD" -T "$SRC/link.ld" -o "$B/$p.elf" "$B/crt0.o" "$B/$p.o"
		else
			"$CLANG" "${CFLAGS[@]}" -c "$SRC/$p.S" -o "$B/$p.o" &&
			"$LLD" -T "$SRC/link.ld" -o "$B/$p.elf" "$B/$p.o"
		fi &&
		python3 "$SRC/elf2hex.py" "$B/$p.elf" "$B/$p" >"$B/$p.words"
	} >>"$log" 2>&1 || { ok=1; echo "($p failed)" >>"$log"; }
done
point $ok "${#PROGS[@]} ISA programs (one in C) and fail.S build ($CLANG --target=riscv32 -march=rv32im, $LLD)"
[ $ok -eq 0 ] || { diag "$log"; finish; }

# ---- the simulators ----------------------------------------------------------
# build SIM MUTANT [stall]: the testbench binary for SIM with mgmt_cpu's
# MUTANT (stall: the stalling one, MUTANT 0), in BIN (empty when the build
# failed); one test point
build() {
	local sim=$1 m=$2 top=tb_mgmt_soc tb=$TB srcs=("${RTL_SRCS[@]}") log tag
	tag=m$m
	if [ "${3:-}" = stall ]; then
		top=tb_mgmt_cpu_stall tb=$TB_STALL srcs=("$RTL/mgmt_cpu.v" "$RTL/mgmt_timer.v") tag=stall
	fi
	BIN=
	if [ "$sim" = icarus ]; then
		log=$B/tb-icarus-$tag.log
		if iverilog -g2005 -Wall -Itests/rtl/mgmt -P$top.MUTANT="$m" -s $top \
			-o "$B/tb-icarus-$tag.vvp" "$tb" "${srcs[@]}" >"$log" 2>&1 &&
		   [ ! -s "$log" ]; then
			BIN=$B/tb-icarus-$tag.vvp
		fi
		point "$([ -n "$BIN" ]; echo $?)" "iverilog -g2005 -Wall $top (MUTANT=$m)"
		[ -n "$BIN" ] || diag "$log"
	else
		log=$B/tb-verilator-$tag.log
		rm -rf "$B/vl-$tag"
		if verilator --binary --timing -Wall -Itests/rtl/mgmt -GMUTANT="$m" --top-module $top \
			--Mdir "$B/vl-$tag" -o Vtb "$tb" "${srcs[@]}" >"$log" 2>&1 &&
		   ! grep -q '%Warning\|%Error' "$log"; then
			BIN=$B/vl-$tag/Vtb
		fi
		point "$([ -n "$BIN" ]; echo $?)" "verilator --binary --timing -Wall $top (MUTANT=$m)"
		[ -n "$BIN" ] || grep '%' "$log" | head -30 | sed 's/^/# /'
	fi
}

# run SIM BINARY PROGRAM: the RESULT line
run() {
	local sim=$1 bin=$2 p=$3 ni nd
	read -r ni nd <"$B/$p.words"
	local args=("+imem=$B/$p.imem.hex" "+imem_words=$ni" "+dmem=$B/$p.dmem.hex"
		"+dmem_words=$nd" "+timeout=$TIMEOUT")
	if [ "$sim" = icarus ]; then
		vvp -n "$bin" "${args[@]}" 2>&1 | grep -m1 '^RESULT' || echo "RESULT status=crashed"
	else
		"$bin" "${args[@]}" 2>&1 | grep -m1 '^RESULT' || echo "RESULT status=crashed"
	fi
}
# a program's source file name
sname() { if [ -f "$SRC/$1.c" ]; then echo "$1.c"; else echo "$1.S"; fi; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }

declare -A CPI
for sim in $SIMS; do
	build "$sim" 0
	[ -n "$BIN" ] || continue
	for p in "${PROGS[@]}"; do
		r=$(run "$sim" "$BIN" "$p")
		st=$(field status "$r")
		cyc=$(field cycles "$r") ins=$(field instret "$r")
		if [ "$st" = pass ]; then
			cpi=$(awk -v c="$cyc" -v i="$ins" 'BEGIN { printf "%.2f", c / i }')
			[ "$p" != csr ] || cpi="-"	# csr.S writes mcycle and minstret
			CPI[$p]="$cyc $ins $cpi"
			point 0 "$sim $(sname "$p"): pass ($cyc cycles, $ins instructions, CPI $cpi)"
		else
			point 1 "$sim $(sname "$p"): $st, check $(field test "$r") (tohost $(field tohost "$r"))"
			echo "# $r"
		fi
	done
	# the harness notices a failing program
	r=$(run "$sim" "$BIN" fail)
	[ "$(field status "$r")" = fail ] && [ "$(field test "$r")" = 3 ]
	point $? "$sim fail.S reports check 3 failed (tohost $(field tohost "$r"))"
	# the core alone, both ports stalled at random
	build "$sim" 0 stall
	if [ -n "$BIN" ]; then
		for p in "${PROGS[@]}" fail; do
			r=$(run "$sim" "$BIN" "$p")
			st=$(field status "$r")
			want=pass
			[ "$p" != fail ] || want=fail
			ok=1
			if [ "$st" = "$want" ] && { [ "$p" != fail ] || [ "$(field test "$r")" = 3 ]; }; then
				ok=0
				# csr.S writes minstret: there the pulses and the counter differ
				[ "$p" = csr ] || [ "$(field retired "$r")" = "$(field instret "$r")" ] || ok=1
			fi
			point $ok "$sim stalled ports $(sname "$p"): $st (check $(field test "$r"), $(field clocks "$r") clocks, $(field retired "$r") retired, minstret $(field instret "$r"))"
			[ $ok -eq 0 ] || echo "# $r"
		done
	fi
	# and a faulty core
	if [ "$sim" = icarus ]; then
		mutants=("${MUTANTS[@]}")
	else
		mutants=("$VL_MUTANT")
	fi
	for mp in "${mutants[@]}"; do
		IFS=: read -r m p <<<"$mp"
		build "$sim" "$m"
		[ -n "$BIN" ] || continue
		r=$(run "$sim" "$BIN" "$p")
		st=$(field status "$r")
		[ "$st" = fail ] || [ "$st" = timeout ]
		point $? "$sim MUTANT=$m: $p.S fails ($st, check $(field test "$r"))"
	done
done

echo "# CPI: mcycle / minstret at each program's end (csr.S writes both)"
echo "# program cycles instructions CPI"
for p in "${PROGS[@]}"; do
	[ -z "${CPI[$p]:-}" ] || echo "# $p ${CPI[$p]}"
done
finish
