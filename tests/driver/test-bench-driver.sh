#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench-driver's shortened form (suite driver/bench-short): one round of
# this tree's driver only, its table; bad options. No speed is asserted.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
. tests/lib/tap.sh

out=$(BUILD=$BUILD ROUNDS=1 scripts/bench-driver.sh 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
tap $rc "bench-driver ROUNDS=1: exit 0 ($rc)"
grep -Eq '^this +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ *$' <<<"$out"
tap $? "a table row for this driver with both directions"
BUILD=$BUILD ROUNDS=0 scripts/bench-driver.sh >/dev/null 2>&1
rc=$?
tap $((rc != 2)) "ROUNDS=0: exit 2 ($rc)"
BUILD=$BUILD BASE=no-such-revision scripts/bench-driver.sh >/dev/null 2>&1
rc=$?
tap $((rc != 2)) "BASE=no-such-revision: exit 2 ($rc)"
tap_done
