#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# incbench on loopback (--local): every collective, both algorithms, the
# transports none and sw, 2, 3, 4 and 7 ranks, generated and real
# gradients; each row must say "ok" (equal to the model bit for bit,
# within the bound, the same on every rank). Then the checker itself: a
# result off by one ulp must fail; bad options and a missing driver must
# give clear errors. TAP on stdout.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
IB=${INCBENCH:-$BUILD/bin/incbench}
G=${INC_GRADIENTS:-../shared/gradients}
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }

# bench ARGS...: every table row ok, exit 0
bench() {
	local out rc rows bad
	out=$("$IB" "$@" 2>&1)
	rc=$?
	rows=$(echo "$out" | grep -cE '^ +[0-9]+ ')
	bad=$(echo "$out" | grep -E '^ +[0-9]+ ' | grep -vcE ' ok( |$)')
	if [ "$rc" -eq 0 ] && [ "$rows" -gt 0 ] && [ "$bad" -eq 0 ]; then
		ok "incbench $* ($rows sizes)"
	else
		nok "incbench $* (exit $rc, $rows rows, $bad not ok)"
		echo "$out" | tail -n 15 | sed 's/^/# /'
	fi
}

for N in 2 3 4 7; do
	for algo in ring wa; do
		for t in none sw; do
			bench allreduce --local "$N" --algo "$algo" --transport "$t" -b 4 -e 300K -f 9 -n 3 -w 1
			bench reducescatter --local "$N" --algo "$algo" --transport "$t" -b 64 -e 200K -f 13 -n 2 -w 1
			bench allgather --local "$N" --algo "$algo" --transport "$t" -b 64 -e 200K -f 13 -n 2 -w 1
			bench broadcast --local "$N" --algo "$algo" --transport "$t" --root $((N - 1)) -b 100 -e 100K -f 31 -n 2 -w 1
		done
	done
done
bench allreduce --local 4 --avg -k 6 --mode paper -b 1K -e 1M -f 32 -n 2 -w 1
bench allreduce --local 4 -k 8 --mode width -b 1K -e 1M -f 32 -n 2 -w 1
bench reducescatter --local 3 --algo wa --mode width -b 64 -e 200K -f 13 -n 2 -w 1
bench allreduce --local 3 --exact -b 1K -e 1M -f 32 -n 2 -w 1
bench allreduce --local 5 --slice 8K -b 1K -e 2M -f 8 -n 2 -w 1
if [ -r "$G/charlm-step0150.f32" ]; then
	for f in mlp-step0050 cnn-step0150 charlm-step0299; do
		for algo in ring wa; do
			bench allreduce --local 4 --algo "$algo" --data "$G/$f.f32" -b 1M -e 4M -f 4 -n 2 -w 1
		done
	done
	out=$("$IB" allreduce --local 4 --mode sparse --data "$G/charlm-step0150.f32" -b 3721K -e 3721K -n 2 -w 1 2>&1)
	ratio=$(echo "$out" | awk '$1 ~ /^[0-9]+$/ { sub("x", "", $7); print $7 }')
	awk -v r="$ratio" 'BEGIN { exit !(r > 20) }' &&
		ok "real gradients (charlm, 3.7 MB, k=10 sparse): the ring sends ${ratio}x less than the floats" ||
		nok "real gradients compress: ratio '$ratio'"
	# width mode's chunks on the same data: fewer bytes still (1.7x in
	# docs/codec.md section 12)
	out=$("$IB" allreduce --local 4 --mode width --data "$G/charlm-step0150.f32" -b 3721K -e 3721K -n 2 -w 1 2>&1)
	wratio=$(echo "$out" | awk '$1 ~ /^[0-9]+$/ { sub("x", "", $7); print $7 }')
	echo "$out" | grep -q ' ok$' && awk -v r="$ratio" -v w="$wratio" 'BEGIN { exit !(w > 1.3 * r) }' &&
		ok "real gradients, width mode: the ring sends ${wratio}x less than the floats, more than 1.3 x sparse's ${ratio}x" ||
		nok "real gradients, width mode: ratio '$wratio' (sparse '$ratio')"
	# no --mode and no INCCL_MODE: transport sw's default is width, the
	# same bytes as --mode width (so more than 1.3 x sparse's ratio)
	out=$(env -u INCCL_MODE "$IB" allreduce --local 4 --data "$G/charlm-step0150.f32" -b 3721K -e 3721K -n 2 -w 1 2>&1)
	dratio=$(echo "$out" | awk '$1 ~ /^[0-9]+$/ { sub("x", "", $7); print $7 }')
	echo "$out" | grep -q ' ok$' && echo "$out" | grep -q '^# incbench allreduce: 4 ranks, algorithm ring, transport sw (k 10, width,' &&
		[ -n "$dratio" ] && [ "$dratio" = "$wratio" ] &&
		ok "real gradients, no mode given: transport sw says width and sends what --mode width sends (${dratio}x)" ||
		{ nok "real gradients, no mode given: ratio '$dratio' (width '$wratio', sparse '$ratio')"; echo "$out" | head -3 | sed 's/^/# /'; }
else
	for i in 1 2 3 4 5 6 7 8 9; do
		n=$((n + 1)); echo "ok $n # SKIP no gradients in $G"
	done
fi

# the checker can fail
out=$("$IB" allreduce --local 3 --corrupt -b 64K -e 64K -n 1 -w 0 2>&1)
rc=$?
[ "$rc" -eq 1 ] && echo "$out" | grep -q 'FAIL: unlike the model' &&
	ok "a result one ulp off fails the check (exit 1)" ||
	{ nok "a result one ulp off fails the check (exit $rc)"; echo "$out" | sed 's/^/# /'; }
out=$("$IB" allgather --local 3 --corrupt --no-check -b 64K -e 64K -n 1 -w 0 2>&1)
rc=$?
[ "$rc" -eq 1 ] && echo "$out" | grep -q 'DIFFERS between ranks' &&
	ok "without the model, a rank that differs fails the check (exit 1)" ||
	{ nok "a rank that differs fails (exit $rc)"; echo "$out" | sed 's/^/# /'; }

# errors
expect() {	# expect RC TEXT ARGS...
	local want=$1 text=$2 out rc
	shift 2
	out=$("$IB" "$@" 2>&1)
	rc=$?
	[ "$rc" -eq "$want" ] && echo "$out" | grep -q -- "$text" &&
		ok "incbench $*: exit $rc, \"$text\"" ||
		{ nok "incbench $*: exit $rc (want $want, \"$text\")"; echo "$out" | head -5 | sed 's/^/# /'; }
}
expect 2 "allreduce, reducescatter" alltoall
expect 2 'bad value' allreduce -k 30
expect 2 'bad value' allreduce --transport fpga
expect 2 '-b <= -e' allreduce -b 1M -e 1K
expect 2 'avg applies' allgather --avg
expect 2 'whole number of float32' allreduce --local 2 --data /etc/hostname
expect 2 'No such file' allreduce --local 2 --data /nonexistent.f32
expect 3 'no rank' allreduce
if [ -e /sys/module/inceptionn ]; then
	n=$((n + 1)); echo "ok $n # SKIP inceptionn.ko is loaded here"
else
	expect 3 'inceptionn.ko loaded' allreduce --local 2 --transport nic
fi
echo "1..$n"
[ "$fails" -eq 0 ]
