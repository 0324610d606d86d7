#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# rtl/scripts/synth.sh's quick form (elab), the structural check make check
# runs on the engines and the NIC, must catch what it claims to: a latch, a
# combinational loop through word-level cells, two drivers on one net; and
# pass a clean registered module. TAP output.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/rtl" "$T/nic"
n=0 bad=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=$((bad + 1)); fi
}

cat >"$T/rtl/t_latch.v" <<'V'
module t_latch(input en, input [3:0] d, output reg [3:0] q);
always @* if (en) q = d;
endmodule
V
cat >"$T/rtl/t_loop.v" <<'V'
module t_loop(input [3:0] a, output [3:0] y);
wire [3:0] x = y + a;
assign y = x ^ a;
endmodule
V
cat >"$T/rtl/t_two.v" <<'V'
module t_two(input [3:0] a, input [3:0] b, output [3:0] y);
assign y = a;
assign y = b;
endmodule
V
cat >"$T/rtl/t_clean.v" <<'V'
module t_clean(input clk, input rst, input [3:0] a, output reg [3:0] q);
always @(posedge clk) q <= rst ? 4'd0 : q + a;
endmodule
V

elab() {	# elab TOP: run the quick form on one test module; its exit status
	INC_RTL_DIR=$T/rtl INC_NIC_DIR=$T/nic SYNTH_BUILD=$T/b \
		"$ROOT/rtl/scripts/synth.sh" "$1" - elab >"$T/$1.tap" 2>&1
}

for c in "t_latch:a latch" "t_loop:a combinational loop" "t_two:two drivers on one net"; do
	top=${c%%:*}
	elab "$top"
	rc=$?
	[ $rc -ne 0 ] && grep -q '^not ok 1' "$T/$top.tap"
	r=$?
	ok $r "elab fails on $top (${c#*:}): exit $rc"
	[ $r -eq 0 ] || sed 's/^/# /' "$T/$top.tap"
done
elab t_clean
rc=$?
[ $rc -eq 0 ] && grep -q '^ok 1 - yosys elaboration t_clean' "$T/t_clean.tap"
r=$?
ok $r "elab passes a clean registered module"
[ $r -eq 0 ] || sed 's/^/# /' "$T/t_clean.tap"
echo "1..$n"
[ $bad -eq 0 ]
