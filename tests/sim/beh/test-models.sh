#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The RTL and the behavioral model of the NIC, each behind incsim, driven by
# build/tests/diff-models with one workload (TX of every frame kind and
# mode, RX of those frames and damaged copies, loopback, every counter):
# their records must be equal byte for byte, at 16 lanes (incsim) and at 8
# (incsim8 against --lanes 8); and a deliberately wrong behavioral model
# (build/tests/incsim-mutant: one bit of the third compressed frame) must
# be caught. TAP; MODELS_FRAMES sets the frames (default 400).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
B=${BUILD:-build}
N=${MODELS_FRAMES:-400}
G=../shared/gradients/cnn-step0050.f32
n=0 fail=0
run() {		# run DESCRIPTION diff-models-args...
	local d=$1 out rc
	shift
	n=$((n + 1))
	out=$("$B/tests/diff-models" --frames "$N" --gradients "$G" "$@" 2>&1)
	rc=$?
	sed 's/^/# /' <<<"$out"
	if [ $rc -eq 0 ]; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		fail=1
	fi
}
run "16 lanes: RTL and behavioral models, the same frames, statuses, deliveries and counters" \
	--a "$B/bin/incsim:--model,rtl" --b "$B/bin/incsim:--model,behavioral"
run "8 lanes: incsim8's RTL and the behavioral model at --lanes 8, the same" --seed 7 \
	--a "$B/bin/incsim8:--model,rtl" --b "$B/bin/incsim:--model,behavioral,--lanes,8"
run "a behavioral model one bit wrong in one compressed frame is caught" \
	--expect-differ --a "$B/bin/incsim:--model,rtl" --b "$B/tests/incsim-mutant:--model,behavioral"
echo "1..$n"
exit $fail
