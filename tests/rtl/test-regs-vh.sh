#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The RTL's register map (rtl/nic/inc_nic_regs.vh) is made from the C one
# (include/hw/inc_nic_regs.h) by rtl/scripts/gen-regs-vh.py: the two must
# agree, a change to either alone must be caught, and bad input must give a
# clear error, not a half-written file. TAP output.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GEN=$ROOT/rtl/scripts/gen-regs-vh.py
H=$ROOT/include/hw/inc_nic_regs.h
VH=$ROOT/rtl/nic/inc_nic_regs.vh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$ROOT/tests/lib/tap.sh"

# the checked-in file is what the header gives
"$GEN" --check "$H" "$VH" 2>"$T/err"
tap $? "inc_nic_regs.vh is what inc_nic_regs.h gives$( [ -s "$T/err" ] && echo ": $(cat "$T/err")")"

# every integer constant of the header, with its value, in the RTL's copy
miss=0 count=0
while read -r name value; do
	count=$((count + 1))
	case $value in
	\(1u\<\<*\)) b=${value//[^0-9]/}; v=$((1 << ${b#1})) ;;   # (1u<<N): N
	*) v=$((value)) ;;
	esac
	grep -q "^localparam \[31:0\] $name = 32'h$(printf %08x "$v");" "$VH" || {
		echo "# $name = $value not in $VH"
		miss=$((miss + 1))
	}
done < <(sed -n 's/^#define[[:space:]]\+\(INC_[A-Z0-9_]\+\)[[:space:]]\+\(0x[0-9a-fA-F]\+\|[0-9]\+\|(1u << [0-9]\+)\)\([[:space:]].*\)\?$/\1 \2/p' "$H" |
	sed 's/(1u << \([0-9]*\))/(1u<<\1)/')
[ "$count" -gt 50 ] || miss=$((miss + 1))
tap $miss "each of the header's $count integer constants is a localparam of the same value"

# a value changed in the header alone is caught
sed 's/^#define INC_TXD_STATUS\t\t24/#define INC_TXD_STATUS\t\t20/' "$H" >"$T/h1.h"
cmp -s "$H" "$T/h1.h" && echo "# the edit did not apply"
"$GEN" --check "$T/h1.h" "$VH" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "is not what" "$T/err"
tap $? "a changed header offset (INC_TXD_STATUS) fails the check (exit $rc: $(head -c 120 "$T/err"))"

# so is a hand edit of the RTL's copy
sed 's/^localparam \[31:0\] INC_RXQ = .*/localparam [31:0] INC_RXQ = 32'"'"'h00000380;/' "$VH" >"$T/e.vh"
"$GEN" --check "$H" "$T/e.vh" 2>/dev/null
[ $? -eq 1 ]
tap $? "a hand-edited inc_nic_regs.vh fails the check"

# writing: the same file as checked in, from a copy of the header
"$GEN" "$H" "$T/out.vh" && cmp -s "$T/out.vh" "$VH"
tap $? "writing gives the checked-in file byte for byte"

# bad input: a missing header, a bit that does not fit, a name twice, no
# constants; exit 2 with a message, and no output file written.
# bad_input DESC HEADER-TEXT|- MESSAGE ("-": no header file at all)
bad_input() {
	local h=$T/bad$TAP_N.h out=$T/bad$TAP_N.vh rc
	[ "$2" = - ] || printf '%b' "$2" >"$h"
	"$GEN" "$h" "$out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$3" "$T/err" && [ ! -e "$out" ]
	tap $? "$1: exit 2, a message ('$3'), nothing written (exit $rc)"
}
bad_input "a missing header" - "bad$TAP_N.h"
bad_input "a bit past 31" '#define INC_BIG\t\t(1u << 40)\n' INC_BIG
bad_input "a name defined twice" '#define INC_A\t\t1\n#define INC_A\t\t2\n' "INC_A defined twice"
bad_input "a header with no constants" '/* nothing */\n' "no constants"

tap_done
