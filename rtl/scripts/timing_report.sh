#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Logic depth report: rtl/scripts/timing.sh for every module of
# rtl/timing-budget (or those named), one markdown table on stdout, each
# row by the method its budget line names (lut or carry).
#
# usage: rtl/scripts/timing_report.sh [MODULE[:LANES]...]
#
# rtl/timing-budget lists "MODULE LANES BUDGET METHOD [ci]" per line: the
# levels each module is allowed today by that method (8, the target, or a
# known gap that must not grow); "ci" marks the rows `make check` runs.
# TIMING_METHOD, when set, overrides every row's method (a comparison; the
# budgets are then only a reference). Each run's TAP output goes
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

echo "| module | lanes | method | levels | budget | target | longest path (from, to) | yosys s |"
echo "|---|---:|---|---:|---:|---:|---|---:|"
failed=0
while read -r m l budget method _; do
	case $m in '' | \#*) continue ;; esac
	want "$m" "$l" "$@" || continue
	method=${TIMING_METHOD:-$method}
	tap=$B/report-$m-$l-$method.tap
	echo "# timing $m LANES=$l ($method) ..." >&2
	rc=0
	TIMING_METHOD=$method rtl/scripts/timing.sh "$m" "$l" "$budget" >"$tap" 2>&1 || rc=$?
	res=$(grep -m1 '^# RESULT ' "$tap" || true)
	if [ -z "$res" ]; then
		echo "| $m | $l | $method | failed | $budget | | see $tap | |"
		failed=1
		continue
	fi
	[ "$rc" -eq 0 ] || failed=1
	path=$(sed -n 's/^# longest path: [0-9.]* [^,]*, from \(.*\)/\1/p' "$tap" |
		sed 's/ to /, /; s/|/\\|/g')
	lv=$(field levels "$res")
	[ "$rc" -eq 0 ] || lv="**$lv** (over budget)"
	echo "| $m | $l | $method | $lv | $budget | $(field target "$res") | $path | $(field seconds "$res") |"
done <"$LIST"
exit $failed
