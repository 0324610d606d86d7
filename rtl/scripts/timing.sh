#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Logic depth of one RTL module: the longest register-to-register path in
# LUT levels, an estimate of the clock it can reach (docs/rtl.md).
#
# usage: rtl/scripts/timing.sh TOP LANES|- [BUDGET]
#
#   TOP     a module in rtl/codec/, rtl/nic/ or rtl/mgmt/
#   LANES   8 or 16, its LANES parameter ("-": it has none)
#   BUDGET  the levels it is allowed (default: TIMING_TARGET, 8)
#
# Methods (TIMING_METHOD):
#   lut     (default) flatten, generic synthesis; memories of 128 words or more
#           (block RAMs, with registered reads) cut at their ports, smaller
#           ones mapped to flip-flops and multiplexers; `abc -lut 6` (LUT6
#           mapping for depth, TIMING_ABC below); `ltp -noff` (the longest topological path
#           with flip-flops cut). Carry logic is charged as LUTs (a 32-bit
#           add: 11 levels). Whole levels.
#   carry   the same, but adders, subtractors and comparators of
#           20 bits or more (`$alu` cells: accumulators, counters,
#           addresses; TIMING_CARRY_MIN sets the width) are kept
#           whole through ABC and charged as the carry
#           chains they become (rtl/scripts/carry_depth.py: a 32-bit add
#           3.75 levels, by yosys's 7-series cell delays); narrower ones
#           stay with ABC as in lut. Levels to a tenth.
#   xilinx  `synth_xilinx -family xcup -flatten` (every adder on a carry
#           chain, wide multiplexers, LUTRAMs, block RAMs as Vivado would
#           infer them), then carry_depth.py. Charges chains of narrow
#           adders in full, where ABC may restructure them. A comparison.
# Ports count as registers: a path from an input or to an output is charged
# in full to this module. TIMING_ABC (below): how ABC maps to LUTs.
#
# Output: TAP, one test point; the path's first and last signals; with carry
# or xilinx, every register deeper than the target (`over` lines of the
# path file, rtl/scripts/carry_depth.py --over); and
#
#   # RESULT top=T lanes=L method=M levels=N target=8 budget=B seconds=S
#
# The point passes when levels <= BUDGET. The target is 8 LUT levels (a
# proxy for 250 MHz on UltraScale+); a BUDGET above it records a known gap
# that must not grow, and the point says so.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

usage() {
	echo "usage: $0 TOP LANES|- [BUDGET]" >&2
	exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
TOP=$1 LANES=$2
TARGET=${TIMING_TARGET:-8}
BUDGET=${3:-$TARGET}
METHOD=${TIMING_METHOD:-lut}
# carry: the narrowest adder charged as a carry chain (bits)
CARRY_MIN=${TIMING_CARRY_MIN:-20}
case $LANES in - | [0-9] | [0-9][0-9]) ;; *) usage ;; esac
[[ $BUDGET =~ ^[0-9]+(\.[0-9])?$ ]] || usage
[[ $CARRY_MIN =~ ^[0-9]+$ ]] || { echo "$0: TIMING_CARRY_MIN must be a number of bits" >&2; exit 2; }
case $METHOD in carry | lut | xilinx) ;; *) echo "$0: TIMING_METHOD must be carry, lut or xilinx" >&2; exit 2 ;; esac

RTL=${INC_RTL_DIR:-rtl/codec}
NIC_DIR=${INC_NIC_DIR:-rtl/nic}
MGMT_DIR=${INC_MGMT_DIR:-rtl/mgmt}
B=${TIMING_BUILD:-build/rtl-timing}
YOSYS=${YOSYS:-yosys}
mkdir -p "$B"

fail() {
	echo "not ok 1 - timing $*"
	echo "1..1"
	exit 1
}

top_file=$RTL/$TOP.v
[ -f "$top_file" ] || top_file=$NIC_DIR/$TOP.v
[ -f "$top_file" ] || top_file=$MGMT_DIR/$TOP.v
[ -f "$top_file" ] || fail "$TOP: not found in $RTL, $NIC_DIR or $MGMT_DIR"
command -v "$YOSYS" >/dev/null || fail "$TOP: $YOSYS not found"

chparam=""
if grep -Eq '^[[:space:]]*parameter[[:space:]]+LANES\b' "$top_file"; then
	[ "$LANES" != - ] || fail "$TOP: TOP has a LANES parameter; give 8 or 16"
	chparam="chparam -set LANES $LANES $TOP"
	tag=$TOP-$LANES-$METHOD
	name="$TOP LANES=$LANES"
else
	LANES=-
	tag=$TOP-$METHOD
	name=$TOP
fi

ys=$B/$tag.ys
log=$B/$tag.log
ltpf=$B/$tag.ltp
json=$B/$tag.json

# ABC's LUT mapping (TIMING_ABC): "each" (default), yosys's `abc -lut 6`
# script with `if -t` and without its last two passes (mfs2, lutpack):
# the mapper minimizes every output's depth (their average), not only the
# longest, whose depth it keeps. Without -t, ABC recovers area by letting
# every other path grow up to the longest, and mfs2 and lutpack, run after
# if -t, still do (they resynthesize and repack LUTs for area within the
# longest path's depth: asked for every register over 8, nic_rx's netlist
# of 2026-12-05 listed six at 9 with them, two without), so only the
# longest path's figure would mean anything. "each-area": with mfs2 and
# lutpack (the figures of 2026-12-05's first commits). "yosys": the script
# unchanged (the figures in docs/rtl.md before 2026-12-05).
case ${TIMING_ABC:-each} in
each) abc_cmd='abc -lut 6 -script +strash;&get,-n;&fraig,-x;&put;scorr;dc2;dretime;strash;dch,-f;if,-t' ;;
each-area) abc_cmd='abc -lut 6 -script +strash;&get,-n;&fraig,-x;&put;scorr;dc2;dretime;strash;dch,-f;if,-t;mfs2;lutpack,-S,1' ;;
yosys) abc_cmd='abc -lut 6' ;;
*) echo "$0: TIMING_ABC must be each, each-area or yosys" >&2; exit 2 ;;
esac

shopt -s nullglob
# (the NIC holds the management subsystem: nic_mgmt)
srcs=("$RTL"/*.v "$NIC_DIR"/*.v "$MGMT_DIR"/*.v)
# the management subsystem (rtl/mgmt) stands alone: its files only
[ "$top_file" != "$MGMT_DIR/$TOP.v" ] || srcs=("$MGMT_DIR"/*.v)
shopt -u nullglob

{
	echo "# generated by rtl/scripts/timing.sh $TOP $LANES"
	echo "read_verilog ${srcs[*]}"
	[ -z "$chparam" ] || echo "$chparam"
	echo "hierarchy -check -top $TOP"
	[ -z "$chparam" ] || echo "rename -top $TOP"
	if [ "$METHOD" = xilinx ]; then
		cat <<EOF
synth_xilinx -top $TOP -family xcup -flatten -noiopad -noclkbuf
write_json $json
EOF
	else
		cat <<EOF
synth -flatten -top $TOP -run begin:fine
# memories of 128 words or more are block RAMs (the RTL registers their
# reads): cut at their ports, which begin and end paths; smaller ones
# become flip-flops and read multiplexers (LUTRAM-like) and count in full
select -set bram t:\$mem_v2 r:SIZE>=128 %i
select -set bram_nets @bram %x:1 @bram %d
expose -cut @bram_nets
delete @bram
opt_clean
EOF
		if [ "$METHOD" = lut ]; then
			cat <<EOF
synth -top $TOP -run fine:check
$abc_cmd
opt_clean
tee -q -o $ltpf ltp -noff
EOF
		else
			cat <<EOF
# synth's fine steps, but wide \$alu cells stay whole (carry chains)
opt -fast -full
memory_map
opt -full
select -set wide t:\$alu r:Y_WIDTH>=$CARRY_MIN %i
select -set rest @wide %n
techmap @rest
# again: techmap made \$fa and \$alu cells of its own (multi-operand sums)
select -set wide t:\$alu r:Y_WIDTH>=$CARRY_MIN %i
select -set rest @wide %n
techmap @rest
opt -fast
$abc_cmd
opt_clean
write_json $json
EOF
		fi
	fi
} >"$ys"

rm -f "$ltpf" "$json"
t0=$(date +%s.%N)
rc=0
timeout "${TIMING_TIMEOUT:-0}" "$YOSYS" -q -l "$log" -s "$ys" >/dev/null 2>&1 || rc=$?
[ "$METHOD" = lut ] || [ "$rc" -ne 0 ] ||
	python3 rtl/scripts/carry_depth.py "$json" "$TOP" --over "$TARGET" >"$ltpf" 2>>"$log" || rc=$?
t1=$(date +%s.%N)
secs=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")

if [ "$rc" -ne 0 ] || [ ! -s "$ltpf" ]; then
	[ "$rc" -ne 124 ] || echo "# timed out after ${TIMING_TIMEOUT} s"
	tail -n 12 "$log" | sed 's/^/# /'
	fail "$name: yosys failed (exit $rc, ${secs} s; script $ys, log $log)"
fi

if [ "$METHOD" != lut ]; then
	# "levels N.N", then "path ARRIVAL TYPE CELL (NET)" from the source
	levels=$(sed -n 's/^levels \([0-9.]*\)$/\1/p' "$ltpf")
	path=$(sed -n 's/^path .*(\(.*\))$/\1/p' "$ltpf")
	unit="levels ($METHOD)"
else
	# "Longest topological path in TOP (length=N):", then one line per
	# signal, "    i: \\sig [bit] (via cell)": N LUTs from first to last
	levels=$(sed -n 's/.*Longest topological path in .*(length=\([0-9]*\)).*/\1/p' "$ltpf" | head -1)
	path=$(grep -E '^[[:space:]]+[0-9]+: ' "$ltpf" | sed -E 's/^[[:space:]]+[0-9]+: //; s/ \(via .*//')
	unit="LUT6 levels"
fi
[ -n "$levels" ] || fail "$name: no path length in $ltpf"
first=$(head -1 <<<"$path")
last=$(tail -1 <<<"$path")

echo "# $("$YOSYS" -V): $name, method $METHOD, ${secs} s (script $ys, path $ltpf)"
echo "# longest path: $levels $unit, from $first to $last"
if [ "$METHOD" != lut ]; then
	nover=$(grep -c '^over ' "$ltpf" || true)
	echo "# registers deeper than $TARGET levels: $nover (the deepest 10 below; all in $ltpf)"
	{ grep '^over ' "$ltpf" || true; } | head -n 10 | sed 's/^over */#   /'
fi
echo "# RESULT top=$TOP lanes=$LANES method=$METHOD levels=$levels target=$TARGET budget=$BUDGET seconds=$secs"
gap=""
awk "BEGIN { exit !($BUDGET > $TARGET) }" &&
	gap=", ABOVE the $TARGET-level target (a known gap, recorded as the budget)"
if awk "BEGIN { exit !($levels <= $BUDGET) }"; then
	echo "ok 1 - timing $name: $levels $unit <= $BUDGET$gap"
	echo "1..1"
	exit 0
fi
echo "not ok 1 - timing $name: $levels $unit > budget $BUDGET"
echo "1..1"
exit 1
