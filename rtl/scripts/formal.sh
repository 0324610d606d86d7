#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Formal check of an RTL block's stream handshakes: the harness
# rtl/formal/fv_TOP.v (with rtl/formal/axis_props.v, axil_props.v,
# fv_env.v) around TOP, checked to DEPTH cycles from reset, or proved for
# every depth.
#
# usage: rtl/scripts/formal.sh TOP LANES DEPTH [bmc|prove|selftest]
#
#   TOP    inc_compressor, inc_decompressor, inc_axis_packer, nic_csr,
#          nic_frame_fifo, nic_dma_arb, nic_dma_rd, nic_dma_wr or
#          nic_irq_port
#          (any TOP with a harness rtl/formal/fv_TOP.v)
#   LANES  8 or 16: the harness's LANES parameter; "-" for a harness
#          without one (nic_csr)
#   DEPTH  cycles checked from reset (steps 0 .. DEPTH-1; step 0 is a reset
#          cycle); in prove mode the k of k-induction (FORMAL_PROVE=ind),
#          unused by pdr
#   MODE   bmc (default): bounded model checking, ABC `bmc3` (a bounded
#          check: says nothing past DEPTH)
#          prove: a proof for all depths, ABC `pdr` (IC3), or k-induction
#          (ABC `ind`, after a bounded base case) with FORMAL_PROVE=ind; a
#          proof that does not converge is a failure
#          selftest: the check must fail twice, or the harness is vacuous:
#          with FV_BREAK_VALID (the harness drops tvalid in the cycle after
#          a stall, as a broken engine would) on a_valid_held, and with
#          FV_COVER (an assertion that a trace with a stalled output beat
#          and two output packets does not exist) on that assertion, both
#          within DEPTH
#
# Flow: yosys reads the RTL (rtl/codec, rtl/nic) and the harnesses with
# `read_verilog -formal -DFORMAL`, flattens and bit-blasts them, and writes
# an AIGER model whose bad states are the harness's asserts and whose
# constraints are its assumes; yosys-abc (ABC, part of the yosys package)
# solves it. A counterexample is replayed with yosys `sim`, which names the
# failing assertions and writes the trace as VCD.
#
# Not yosys-smtbmc: with z3 4.8.12 (Debian 12) it did not finish the first
# step of inc_compressor LANES=8 in 4 to 10 minutes (word-level or
# bit-level model; ABC's bmc3 reaches depth 14 in about 75 s), and Debian
# 12's boolector 1.5.118 predates the SMT-LIB interface yosys-smtbmc needs.
#
# Cut points (FORMAL_CUT, default the harness's "// FORMAL_CUT:" line):
# instances of the modules named are removed and their outputs become free
# inputs, new each cycle; FORMAL_CUT_MEM (default its "// FORMAL_CUT_MEM:"
# line): memories named as in the flattened design (dut.ram_a.mem; a
# pattern may end in *), removed so that their read data is free. Free
# outputs only add behaviours, so a property that holds with the cuts
# holds without them (a failure could be spurious: the trace shows). The
# engines used to be cut at their per-lane quantizer, dequantizer and
# unpacker modules; since 2026-12-07 they call that logic as functions
# (inc_quant_fns.vh, inc_group_fns.vh) in their stages, so the models are
# whole: the 8-lane checks of make check take about the same time (the
# compressor 18 steps in 75 s, the decompressor 24 in 101 s).
#
# Environment: FORMAL_BUILD (default build/rtl-formal) for the scripts,
# models, logs and traces; FORMAL_DEFINES: extra Verilog defines;
# FORMAL_TIMEOUT: seconds per solver run (default 1800); FORMAL_PROVE: pdr
# (default) or ind; INC_RTL_DIR, FORMAL_DIR: the source directories
# (rtl/codec, rtl/formal); YOSYS, YOSYS_ABC: the tools.
#
# Output: TAP (one test point, two for selftest) stating bounded or proved,
# the depth, the engine and the seconds (yosys, solver); a failure names the
# failing assertions, the step, and the VCD trace. Exits non-zero on
# failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

usage() {
	echo "usage: $0 TOP LANES DEPTH [bmc|prove|selftest]" >&2
	exit 2
}
if [ $# -lt 3 ] || [ $# -gt 4 ]; then usage; fi
TOP=$1 LANES=$2 DEPTH=$3 MODE=${4:-bmc}
case $MODE in bmc | prove | selftest) ;; *) usage ;; esac
case $LANES in - | [0-9] | [0-9][0-9]) ;; *) usage ;; esac
case $DEPTH in [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) usage ;; esac

RTL=${INC_RTL_DIR:-rtl/codec}
NIC_DIR=${INC_NIC_DIR:-rtl/nic}
MGMT_DIR=${INC_MGMT_DIR:-rtl/mgmt}
FV=${FORMAL_DIR:-rtl/formal}
B=${FORMAL_BUILD:-build/rtl-formal}
YOSYS=${YOSYS:-yosys}
YOSYS_ABC=${YOSYS_ABC:-yosys-abc}
PROVE=${FORMAL_PROVE:-pdr}
TIMEOUT=${FORMAL_TIMEOUT:-1800}
name="formal $TOP LANES=$LANES"
[ -z "${FORMAL_DEFINES:-}" ] || name="$name (${FORMAL_DEFINES})"
case $PROVE in pdr | ind) ;; *) echo "$0: FORMAL_PROVE is pdr or ind" >&2; exit 2 ;; esac

n=0
tests=1
[ "$MODE" != selftest ] || tests=2

fail() {
	echo "not ok $((n + 1)) - $name: $*"
	echo "1..$tests"
	exit 1
}

harness=$FV/fv_$TOP.v
[ -f "$harness" ] || fail "no harness $harness"
# the harness's own cut points (its "// FORMAL_CUT:" and "//
# FORMAL_CUT_MEM:" lines), unless the environment names others
CUT=${FORMAL_CUT-$(sed -n 's|^// FORMAL_CUT: *||p' "$harness")}
CUT_MEM=${FORMAL_CUT_MEM-$(sed -n 's|^// FORMAL_CUT_MEM: *||p' "$harness")}
command -v "$YOSYS" >/dev/null || fail "$YOSYS not found"
command -v "$YOSYS_ABC" >/dev/null || fail "$YOSYS_ABC not found"
mkdir -p "$B"
echo "# $("$YOSYS" -V)"

secs() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }

shopt -s nullglob
srcs=("$RTL"/*.v "$NIC_DIR"/*.v "$MGMT_DIR"/*.v "$FV"/*.v)
shopt -u nullglob

# model DEFINES...: writes $B/$tag.ys and runs it: the AIGER model
# ($tag.aig, .aim) and the word-level netlist for replays ($tag.il); sets
# tag, ysecs
model() {
	local defs="-DFORMAL" d t0 t1
	tag=$TOP-$LANES-$MODE
	for d in "$@"; do
		defs="$defs -D$d"
		tag=$tag-$d
	done
	ys=$B/$tag.ys
	ylog=$B/$tag.yosys.log
	rm -f "$B/$tag.aig" "$B/$tag.aiw" "$B/$tag.vcd"
	# flattened; assumes constrain their own step (-early); undriven wires
	# (the cut points) become inputs, free in each cycle and named in the
	# trace; memories become flip-flops, initial contents free
	{
		echo "# generated by rtl/scripts/formal.sh $TOP $LANES $DEPTH $MODE"
		echo "read_verilog -formal $defs -I$NIC_DIR ${srcs[*]}"
		[ "$LANES" = - ] || echo "chparam -set LANES $LANES fv_$TOP"
		echo "hierarchy -check -top fv_$TOP"
		# (a module with parameters is $paramod\NAME\PARAM=... or, with
		# long ones, $paramod$HASH\NAME after hierarchy)
		for c in $CUT; do
			printf 'delete t:%s t:$paramod\\%s\\* t:$paramod$*\\%s\n' "$c" "$c" "$c"
		done
		cat <<EOF
prep -flatten -top fv_$TOP
EOF
		for m in $CUT_MEM; do echo "delete c:$m"; done
		cat <<EOF
setattr -unset keep
delete -output
async2sync
chformal -assume -early
opt_clean
setundef -undriven -expose
setundef -anyseq
opt -keepdc -fast
memory_map
opt -fast
# word-level, for replaying a counterexample (its names survive)
write_rtlil $B/$tag.il
techmap
# (x bits techmap makes, an indexed part-select reaching past its
# vector's end (yosys shiftx cells): free in each cycle, as the undefined
# bits above; none in the harnesses before fv_nic_rx_hdr's parser)
setundef -anyseq
opt -fast
abc -fast
opt_clean
dffunmap
aigmap
opt_clean
stat
write_aiger -I -B -zinit -map $B/$tag.aim $B/$tag.aig
EOF
	} >"$ys"
	t0=$(date +%s.%N)
	"$YOSYS" -q -l "$ylog" -s "$ys" >/dev/null 2>&1 || {
		grep -E '^ERROR' "$ylog" | sed 's/^/# /' || tail -n 5 "$ylog" | sed 's/^/# /'
		fail "yosys failed (script $ys, log $ylog)"
	}
	t1=$(date +%s.%N)
	ysecs=$(secs "$t0" "$t1")
	echo "# model fv_$TOP${*:+ ($*)}: $(awk '$1 == "$_AND_" { a = $2 } $1 ~ /^[$]_DFF_/ { f = $2 }
		END { print a + 0 " AND gates, " f + 0 " flip-flops" }' "$ylog"), cut: ${CUT:-none}${CUT_MEM:+; memories cut: $CUT_MEM}; yosys ${ysecs} s (script $ys)"
}

# solve bmc|pdr|ind: runs ABC on $tag.aig; sets result (pass, cex or
# undecided), frame (of a cex), engine, ssecs
solve() {
	local cmd rc=0 t0 t1 status
	slog=$B/$tag.solver.log
	case $1 in
	bmc)
		cmd="bmc3 -F $DEPTH -v"
		engine="yosys-abc bmc3 -F $DEPTH"
		;;
	pdr)
		cmd="pdr -v"
		engine="yosys-abc pdr"
		;;
	ind)
		# the base case, then the step (ind takes one output: OR them)
		cmd="bmc3 -F $DEPTH; orpos; ind -F $DEPTH -v"
		engine="yosys-abc bmc3 + ind -F $DEPTH"
		;;
	esac
	t0=$(date +%s.%N)
	timeout "$TIMEOUT" "$YOSYS_ABC" -c "read_aiger $B/$tag.aig; fold; strash; $cmd; print_status; write_cex -a $B/$tag.aiw" \
		>"$slog" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	ssecs=$(secs "$t0" "$t1")
	grep -E 'No output asserted|was asserted|Property proved|Networks are|^Status' "$slog" |
		sed 's/^/# /' || true
	frame=$(sed -n 's/.*was asserted in frame \([0-9]*\).*/\1/p' "$slog" | head -n 1)
	status=$(sed -n 's/^Status = \(-\{0,1\}[0-9]*\).*/\1/p' "$slog" | tail -n 1)
	if [ "$rc" -eq 124 ]; then
		result=timeout
	elif [ -n "$frame" ] || [ "$status" = 0 ]; then
		result=cex
	elif [ "$1" = bmc ] && grep -q "^No output asserted in $DEPTH frames" "$slog"; then
		result=pass
	elif [ "$1" != bmc ] && [ "$status" = 1 ]; then
		result=pass
	else
		result=undecided
	fi
	echo "# $engine: $result, ${ssecs} s (log $slog)"
}

# replay: the counterexample through yosys sim: writes $tag.vcd, lists the
# failing assertions and sets failing to their names
replay() {
	local slog2=$B/$tag.sim.log
	failing=
	[ -s "$B/$tag.aiw" ] || return 0
	"$YOSYS" -q -l "$slog2" -p "read_rtlil $B/$tag.il; sim -clock clk -r $B/$tag.aiw -map $B/$tag.aim -vcd $B/$tag.vcd" \
		>/dev/null 2>&1 || true
	# "Warning: Assert TOP.chk_m.a_valid_held (h.v:1.2-3.4|props.v:5.6-7.8) failed."
	sed -n 's/^Warning: Assert \([^ ]*\) (\(.*|\)\{0,1\}\([^|)]*\)) failed\..*/\1 (\3)/p' "$slog2" |
		sort -u | sed 's/^/# failing: /'
	failing=$(sed -n 's/^Warning: Assert fv_[a-z_]*\.\([^ ]*\) .*/\1/p' "$slog2" | sort -u | tr '\n' ' ')
	failing=${failing% }
}

# ---- selftest: both failures must be found ------------------------------------
if [ "$MODE" = selftest ]; then
	for what in FV_BREAK_VALID FV_COVER; do
		case $what in
		FV_BREAK_VALID)
			# the checker of the broken valid: the output stream's,
			# or the read data channel's of an AXI4-Lite port
			want=chk_m.a_valid_held
			[ "$TOP" != nic_csr ] || want=chk.chk_r.a_valid_held
			[ "$TOP" != nic_dma_arb ] || want=rd.chk_m.a_valid_held
			[ "$TOP" != nic_dma_rd ] || want=chk_tx.a_valid_held
			desc="broken harness (tvalid dropped while stalled) fails" ;;
		FV_COVER) want=c_reach desc="c_reach (a stalled output beat, two output packets) is reachable" ;;
		esac
		model "$what"
		solve bmc
		[ "$result" = cex ] || fail "$what: $desc: expected a counterexample within depth $DEPTH, got $result (log $slog)"
		replay
		[[ " $failing " == *" $want "* ]] || fail "$what: expected $want to fail, got '${failing:-nothing}' (trace $B/$tag.vcd)"
		n=$((n + 1))
		echo "ok $n - $name selftest: $desc: $want at step $frame (yosys ${ysecs} s, $engine ${ssecs} s; trace $B/$tag.vcd)"
	done
	echo "1..$tests"
	exit 0
fi

# ---- bmc, prove -------------------------------------------------------------------
# shellcheck disable=SC2086
model ${FORMAL_DEFINES:-}
if [ "$MODE" = bmc ]; then
	solve bmc
else
	solve "$PROVE"
fi
times="yosys ${ysecs} s, $engine ${ssecs} s"
case $result in
pass)
	if [ "$MODE" = bmc ]; then
		echo "ok 1 - $name: handshake properties hold to depth $DEPTH, bounded check ($times)"
	else
		echo "ok 1 - $name: handshake properties proved for all depths ($times)"
	fi
	echo "1..1"
	exit 0
	;;
cex)
	replay
	case $failing in
	*" "*) what="assertions ${failing// /, } fail" ;;
	*) what="assertion ${failing:-?} fails" ;;
	esac
	fail "$what at step ${frame:-?} ($times; trace $B/$tag.vcd, log $slog)"
	;;
timeout) fail "$engine timed out after $TIMEOUT s ($times; log $slog)" ;;
*)
	if [ "$MODE" = prove ]; then
		fail "no proof: $engine did not converge ($times; log $slog)"
	fi
	fail "$engine: no result ($times; log $slog)"
	;;
esac
