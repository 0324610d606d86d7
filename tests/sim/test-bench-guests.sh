#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench-incsim's guest row in short form (suite sim/bench-guests-short):
# scripts/bench-guests.sh with 2 s per direction and path; its table has a
# row for each path with both directions and the share row; bad SECS. No
# speed is asserted.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
. tests/lib/tap.sh

out=$(BUILD=$BUILD SECS=2 scripts/bench-guests.sh 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
tap $rc "bench-guests SECS=2: exit 0 ($rc)"
num='[0-9]+(\.[0-9]+)?'
grep -Eq "^through two incsims, RTL +$num +$num *$" <<<"$out"
tap $? "a row for the RTL incsim path, both directions"
grep -Eq "^through two incsims, behavioral +$num +$num *$" <<<"$out"
tap $? "a row for the behavioral incsim path, both directions"
grep -Eq "^through virtio-net +$num +$num *$" <<<"$out"
tap $? "a row for the virtio-net path, both directions"
grep -Eq "^RTL / virtio-net +$num% +$num% *$" <<<"$out"
tap $? "the RTL's share row"
grep -Eq "^behavioral / virtio-net +$num% +$num% *$" <<<"$out"
tap $? "the behavioral model's share row"
BUILD=$BUILD SECS=0 scripts/bench-guests.sh >/dev/null 2>&1
rc=$?
tap $((rc != 2)) "SECS=0: exit 2 ($rc)"
tap_done
