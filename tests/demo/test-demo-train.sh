#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make demo-train`, shortened: its option checks, then one real run, 2
# QEMU guests with incsim NICs training the digits MLP for STEPS steps per
# setting (stock, the hook with transport nic, the hook with transport
# sw), every verdict of scripts/train/demo-report.py as a test point: the
# nic run's weights bit-identical to the sw run's, the NICs compressing
# only in the nic run, accuracy against stock. TAP on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
export BUILD
STEPS=${DEMO_TRAIN_STEPS:-40}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }

# ---- bad options: exit 2 and a message that names the option (MODE=width
# is taken: the message names the next bad option)
while IFS='|' read -r env want; do
	out=$(env $env scripts/demo-train.sh 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out"; then
		ok "bad option $env: exit 2, says '$want'"
	else
		nok "bad option $env: exit $rc, '$out'"
	fi
done <<EOF
HOSTS=1|HOSTS=1: a number of hosts from 2 to 4
HOSTS=5|HOSTS=5
STEPS=5|STEPS=5: 10 to 5000
K=0|K=0: the error bound
MODE=fast|MODE=fast: paper, sparse or width
MODE=width TRAIN_TIMEOUT=10|TRAIN_TIMEOUT=10: at least 60
SEED=x|SEED=x
TRAIN_TIMEOUT=10|TRAIN_TIMEOUT=10: at least 60
SIM=fast|SIM=fast: behavioral
EOF
out=$(scripts/demo-train.sh --bogus 2>&1)
[ $? -eq 2 ] && grep -q usage <<<"$out" && ok "an unknown argument: usage, exit 2" ||
	nok "an unknown argument: '$out'"

# ---- a real run, its verdicts renumbered into this stream
log=$BUILD/demo-train/test.tap
mkdir -p "$BUILD/demo-train"
HOSTS=2 STEPS=$STEPS TRAIN_TIMEOUT=900 scripts/demo-train.sh --tap >"$log" 2>&1
rc=$?
while IFS= read -r l; do
	if [[ $l =~ ^(ok|not\ ok)\ [0-9]+\ -\ (.*)$ ]]; then
		if [ "${BASH_REMATCH[1]}" = ok ]; then ok "${BASH_REMATCH[2]}"; else nok "${BASH_REMATCH[2]}"; fi
	elif [[ $l == 'Bail out!'* ]]; then
		nok "demo-train: ${l#Bail out! }"
	elif [[ $l == '#'* ]]; then
		echo "$l"
	fi
done <"$log"
if [ "$rc" -eq 0 ]; then
	ok "demo-train --tap exits 0"
else
	nok "demo-train --tap exits $rc (log: $log)"
fi
echo "1..$n"
