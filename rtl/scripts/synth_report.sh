#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Resource report of the codec engines: runs the xilinx flow of
# rtl/scripts/synth.sh (yosys synth_xilinx -family xcup, UltraScale+, out of
# context) for each module and LANES, and writes a markdown table to stdout.
#
# usage: rtl/scripts/synth_report.sh [MODULE...]
#        (default: inc_compressor inc_decompressor; a module whose file does
#        not exist is skipped)
#
# SYNTH_LANES (default "8 16") picks the lane counts. Progress goes to
# stderr; each run's TAP output to build/rtl-synth/report-MODULE-LANES.tap
# (SYNTH_BUILD overrides build/rtl-synth). Exits non-zero if a run fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

RTL=${INC_RTL_DIR:-rtl/codec}
B=${SYNTH_BUILD:-build/rtl-synth}
LANES_LIST=${SYNTH_LANES:-8 16}
if [ $# -gt 0 ]; then
	MODULES=("$@")
else
	MODULES=(inc_compressor inc_decompressor)
fi
mkdir -p "$B"

rows=()
notes=()
failed=0

# field NAME LINE: the value of NAME=... in a RESULT line
field() {
	sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"
}

for m in "${MODULES[@]}"; do
	if [ ! -f "$RTL/$m.v" ]; then
		notes+=("$m: skipped, $RTL/$m.v does not exist")
		echo "# $m: skipped, $RTL/$m.v does not exist" >&2
		continue
	fi
	for l in $LANES_LIST; do
		tap=$B/report-$m-$l.tap
		echo "# synth_xilinx $m LANES=$l ..." >&2
		if rtl/scripts/synth.sh "$m" "$l" xilinx >"$tap" 2>&1; then
			res=$(grep -m1 '^# RESULT ' "$tap")
			b36=$(field bram36 "$res")
			b18=$(field bram18 "$res")
			if [ "$b36" -eq 0 ] && [ "$b18" -eq 0 ]; then
				bram=0
			else
				bram="${b36} x 36K + ${b18} x 18K"
			fi
			rows+=("| $m | $l | $(field luts "$res") | $(field ffs "$res") | $(field lutram "$res") | $(field srl "$res") | $bram | $(field dsp "$res") | $(field carry8 "$res") | $(field carry4 "$res") | $(field muxf "$res") | $(field seconds "$res") s |")
			echo "# $(grep -m1 '^ok ' "$tap")" >&2
		else
			failed=1
			rows+=("| $m | $l | failed | | | | | | | | | see $tap |")
			grep -E '^not ok|^# ' "$tap" | tail -n 15 >&2 || true
		fi
	done
done

echo "| module | lanes | LUTs | FFs | LUTRAM | SRL | BRAM | DSP48E2 | CARRY8 | CARRY4 | MUXF7-9 | yosys time |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in "${rows[@]}"; do
	echo "$r"
done
echo
echo "$(yosys -V), \`synth_xilinx -family xcup -flatten -noiopad -noclkbuf\` (UltraScale+, out of context)."
echo "LUTs: LUT1..LUT6 cells; FFs: FDRE/FDSE/FDCE/FDPE; LUTRAM: LUTs used as distributed RAM (RAM64M = 4, RAM32X1D = 2, ...);"
echo "SRL: SRL16E/SRLC32E. Yosys 0.23 maps adders to CARRY4 even for UltraScale+, so CARRY8 stays 0 and CARRY4 is listed."
for note in ${notes[@]+"${notes[@]}"}; do
	echo
	echo "$note"
done
exit "$failed"
