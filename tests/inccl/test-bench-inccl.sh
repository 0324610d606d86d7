#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make bench-inccl`, its SHORT form (scripts/bench-inccl.sh): option and
# host checks; one run at 1 Gbit/s on two sizes, whose table must be
# complete and every incbench run of which must pass its check; and a run
# interrupted as Ctrl-C would, which must leave no rank and no namespace
# behind. No speed is asserted (that is the benchmark's business).
# TAP on stdout. Needs root (network namespaces, tc).
# usage: BUILD=build tests/inccl/test-bench-inccl.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
export BUILD
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

scripts/install-deps.sh netns >/dev/null ||
	{ echo "Bail out! scripts/install-deps.sh netns failed"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "Bail out! needs root (network namespaces)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-bench-inccl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export BENCH_OUT=$tmp/out

# left: the namespaces of the run whose script had PID $1
left() { ip netns list | grep -c "^incb$1-"; }

# ---- bad options: exit 2 and a message naming the option
while IFS='|' read -r env want; do
	out=$(env SHORT=1 $env scripts/bench-inccl.sh 2>&1)
	rc=$?
	check "bad option $env: exit 2, says '$want'" \
		eval '[ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out"'
done <<EOF
RATES=fast|RATES: 'fast': a rate as tc writes it
RATES=0gbit|RATES: '0gbit': from 1mbit to 100gbit
SIZES=1000001|SIZES: '1000001': a multiple of 4 bytes
SIZES=1T|SIZES: '1T': a size in bytes
ITERS=0|ITERS=0: at least 1
RANKS=9|RANKS=9: from 2 to 8
WARM=two|WARM=two: a whole number
EOF

# ---- not root: exit 3 before touching anything
if setpriv --reuid 65534 --regid 65534 --clear-groups test -r scripts/bench-inccl.sh 2>/dev/null; then
	out=$(setpriv --reuid 65534 --regid 65534 --clear-groups env SHORT=1 scripts/bench-inccl.sh 2>&1)
	rc=$?
	check "not root: exit 3, says it must run as root" \
		eval '[ "$rc" -eq 3 ] && grep -q "must run as root" <<<"$out"'
else
	n=$((n + 1))
	echo "ok $n # SKIP the user nobody cannot read this checkout"
fi

# ---- the SHORT form: 1gbit, 1 MiB (mlp+cnn tiled) and charlm, 6 configurations
log=$tmp/short.log
SHORT=1 scripts/bench-inccl.sh >"$log" 2>&1 &
pid=$!
wait "$pid"
rc=$?
sed 's/^/# /' "$log"
check "SHORT=1 exits 0" [ "$rc" -eq 0 ]
check "it says every run passed its check (12 runs)" \
	grep -q '^every run passed its check (12 runs' "$log"
check "results.tsv: 12 runs, each ok, each with a time" awk -F '\t' '
	$9 == "ok" && $5 > 0 { good++ } END { exit !(NR == 12 && good == 12) }' "$BENCH_OUT/results.tsv"
# a table row: rate, size, data, |, 6 times, |, 2 cuts, |, 2 cuts, |, 2 ratios, |, 2 codec ms
row() {	# row SIZE DATA
	awk -v size="$1" -v data="$2" '
		$1 == "1gbit" && $2 == size {
			split($0, p, "|")
			if (p[1] !~ data) exit 1
			if (split(p[2], t, " ") != 6 || split(p[3], a, " ") != 2 ||
			    split(p[4], b, " ") != 2 || split(p[5], r, " ") != 2 ||
			    split(p[6], c, " ") != 2) exit 1
			for (i = 1; i <= 6; i++) if (t[i] !~ /^[0-9]+\.[0-9]$/ || t[i] <= 0) exit 1
			for (i = 1; i <= 2; i++)
				if (a[i] !~ /^-?[0-9]+\.[0-9]%$/ || b[i] !~ /^-?[0-9]+\.[0-9]%$/ ||
				    r[i] !~ /^[0-9]+\.[0-9]x$/ || c[i] !~ /^[0-9]+\.[0-9]$/) exit 1
			found++
		}
		END { exit found != 1 }' "$log"
}
check "table row 1 MiB: mlp+cnn (tiled), 6 times, cuts, ratios, codec CPU" row 1048576 'mlp\+cnn \(tiled\)'
check "table row 3809600 B: charlm, 6 times, cuts, ratios, codec CPU" row 3809600 'charlm '
check "ring+sw compresses the real gradients (ratio above 1x in every row)" awk '
	$1 == "1gbit" { split($0, p, "|"); split(p[5], r, " ")
		if (!(r[1] + 0 > 1 && r[2] + 0 > 1)) bad = 1; rows++ }
	END { exit bad || rows != 2 }' "$log"
check "each rank of each run logged, rank 0 wrote its CSV" eval \
	'[ "$(ls "$BENCH_OUT"/logs/*.rank[0-3].log | wc -l)" -eq 48 ] &&
	 [ "$(ls "$BENCH_OUT"/csv/*.csv | wc -l)" -eq 12 ]'
check "no namespace of the run is left" [ "$(left "$pid")" -eq 0 ]

# ---- a run that fails (here: too slow for its time limit) fails the benchmark
flog=$tmp/fail.log
SHORT=1 RATES=1mbit SIZES=4M ITERS=1 WARM=0 RUN_TIMEOUT=1 BENCH_OUT=$tmp/fail \
	scripts/bench-inccl.sh >"$flog" 2>&1 &
pid=$!
wait "$pid"
rc=$?
check "a run over its time limit: exit 1 (got $rc)" [ "$rc" -eq 1 ]
# (which rank the summary names first depends on timing: one times out,
# the others may exit on the broken connection before their own limit)
check "its cells say FAIL, the summary says why" eval \
	'grep -qE "^1mbit +4194304 .*\| +FAIL " "$flog" && grep -q "runs FAILED" "$flog" &&
	 grep -qE "ring\+none: FAIL: .*rank [0-3] timed out \(1 s\);" "$flog"'
check "no namespace of the failed run is left" [ "$(left "$pid")" -eq 0 ]
[ "$failed" -eq 0 ] || sed 's/^/# fail: /' "$flog"

# ---- interrupted mid-run: exit 130, no rank and no namespace left
ilog=$tmp/int.log
# a background job of a script starts with SIGINT ignored: undo that, and
# give it its own process group, as a terminal's foreground job has
SHORT=1 ITERS=50 BENCH_OUT=$tmp/int python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])' scripts/bench-inccl.sh >"$ilog" 2>&1 &
pid=$!
for _ in $(seq 120); do
	grep -q ' ms  ok$' "$ilog" && break
	sleep 0.5
done
check "interrupt test: the first run finished" grep -q ' ms  ok$' "$ilog"
check "interrupt test: namespaces exist while it runs" [ "$(left "$pid")" -eq $((4 + 1)) ]
kill -INT -- "-$pid"
for _ in $(seq 60); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.5
done
wait "$pid"
rc=$?
check "interrupted: exit 130 (got $rc)" [ "$rc" -eq 130 ]
check "interrupted: says it removes the namespaces" grep -q 'interrupted: removing the namespaces' "$ilog"
check "interrupted: no namespace left" [ "$(left "$pid")" -eq 0 ]
check "interrupted: no incbench rank left" eval '! pgrep -f "$tmp/int/" >/dev/null'
[ "$failed" -eq 0 ] || sed 's/^/# int: /' "$ilog"

echo "1..$n"
[ "$failed" -eq 0 ]
