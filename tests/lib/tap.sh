# SPDX-License-Identifier: MIT
#
# TAP helpers for the shell test scripts; source it:
#
#   . tests/lib/tap.sh
#   tap STATUS DESCRIPTION    one test point: ok when STATUS is 0
#   tap_done                  the plan; returns non-zero if a point failed
#
# The count is in TAP_N, the failures in TAP_FAILS.

TAP_N=0
TAP_FAILS=0

tap() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILS=$((TAP_FAILS + 1))
	fi
}

tap_done() {
	echo "1..$TAP_N"
	[ "$TAP_FAILS" -eq 0 ]
}
