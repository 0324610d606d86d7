#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make bench-train`, shortened (SHORT=1): 4 network namespaces at 1 Gbit/s,
# the digits MLP, stock DDP against the inceptionn hook (ring k=10 sparse,
# sw); the run must finish with every rank's weights equal and the hook's
# hosts sending fewer bytes per step. No speed is asserted. Then its option
# errors, and that no namespace is left behind. TAP on stdout. Needs root.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
export BUILD
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
[ "$(id -u)" -eq 0 ] || { echo "Bail out! needs root (network namespaces)"; exit 1; }

while IFS='|' read -r env want; do
	out=$(env $env scripts/bench-train.sh 2>&1)
	rc=$?
	check "bad option $env: exit 2, says '$want'" eval '[ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out"'
done <<EOF
RATES=fast|RATES: 'fast': a rate as tc writes it
RATES=0gbit|RATES: '0gbit': from 1mbit to 100gbit
MODELS=vgg|MODELS: 'vgg': mlp, cnn or charlm
SETTINGS=stock,fp32|SETTINGS: setting 'fp32'
STEPS=2|STEPS=2: at least 4
RANKS=9|RANKS=9: from 2 to 8
EOF

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/bench.log
SHORT=1 BENCH_OUT=$tmp/out scripts/bench-train.sh >"$log" 2>&1
rc=$?
sed 's/^/# /' "$log"
check "bench-train SHORT=1 exits 0, every rank with the same weights" \
	eval '[ "$rc" -eq 0 ] && grep -q "^every run finished, every rank with the same weights" "$log"'
for s in stock ring-k10-sparse; do
	check "a row for 1gbit mlp $s" grep -qE "^1gbit +mlp +$s +[0-9.]+ " "$log"
done
check "the hook's hosts sent at least 3x fewer bytes per step than stock's" \
	/usr/bin/python3 -c 'import json, sys
r = {x["setting"]: x for x in map(json.loads, open(sys.argv[1]))}
sys.exit(not r["ring-k10-sparse"]["bytes_per_step_tail"] * 3 < r["stock"]["bytes_per_step_tail"])' \
	"$tmp/out/results.jsonl"
check "no namespace left behind" eval '! grep -q "^inct" <<<"$(ip netns list)"'
echo "1..$n"
