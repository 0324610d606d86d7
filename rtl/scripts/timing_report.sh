#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Logic depth report: rtl/scripts/timing.sh for every module of
# rtl/timing-budget (or those named), one markdown table on stdout; its
# method is TIMING_METHOD's (default lut; carry, xilinx to compare).
#
# usage: rtl/scripts/timing_report.sh [MODULE[:LANES]...]
#
# rtl/timing-budget lists "MODULE LANES BUDGET [ci]" per line: the levels
# each module is allowed today (8, the target, or a known gap that must not
# grow); "ci" marks the rows `make check` runs. Each run's TAP output goes
# to build/rtl-timing/report-MODULE-LANES.tap (TIMING_BUILD overrides).
# Exits non-zero if a run fails or exceeds its budget.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

B=${TIMING_BUILD:-build/rtl-timing}
LIST=rtl/timing-budget
mkdir -p "$B"

field() {
	sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"
}

want() {
	local m=$1 l=$2 a
	[ $# -gt 2 ] || return 0
	shift 2
	for a in "$@"; do
		[ "$a" = "$m" ] || [ "$a" = "$m:$l" ] && return 0
	done
	return 1
}

echo "| module | lanes | levels (${TIMING_METHOD:-lut}) | budget | target | longest path (from, to) | yosys s |"
echo "|---|---:|---:|---:|---:|---|---:|"
failed=0
while read -r m l budget _; do
	case $m in '' | \#*) continue ;; esac
	want "$m" "$l" "$@" || continue
	tap=$B/report-$m-$l.tap
	echo "# timing $m LANES=$l ..." >&2
	rc=0
	rtl/scripts/timing.sh "$m" "$l" "$budget" >"$tap" 2>&1 || rc=$?
	res=$(grep -m1 '^# RESULT ' "$tap" || true)
	if [ -z "$res" ]; then
		echo "| $m | $l | failed | $budget | | see $tap | |"
		failed=1
		continue
	fi
	[ "$rc" -eq 0 ] || failed=1
	path=$(sed -n 's/^# longest path: [0-9.]* [^,]*, from \(.*\)/\1/p' "$tap" |
		sed 's/ to /, /; s/|/\\|/g')
	lv=$(field levels "$res")
	[ "$rc" -eq 0 ] || lv="**$lv** (over budget)"
	echo "| $m | $l | $lv | $budget | $(field target "$res") | $path | $(field seconds "$res") |"
done <"$LIST"
exit $failed
