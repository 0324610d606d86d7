#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make demo`, shortened: its option checks, one real run of a 2-host cluster
# on a small gradient file (every verdict in its table checked), one in
# width mode, which incsim's 16-lane NIC takes (FEATURES bit 12: the NICs
# compress and restore it, the marked rows pass as in any mode, the table
# says so, with the library's width ratio in software), one in sparse mode
# on the same file and k, whose marked transfers must put more bytes on the
# link than width's, inccodec-demo (make demo-codec) in width mode, and a
# run interrupted as Ctrl-C would, which must leave no process or file
# behind. TAP on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
export BUILD
GRAD=../shared/gradients/mlp-step0050.f32
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

# ---- bad options: exit 2 and a message that names the option
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'abcde' >"$tmp/odd.f32"
while IFS='|' read -r env want; do
	out=$(env $env scripts/demo.sh 2>&1)
	rc=$?
	check "bad option $env: exit 2, says '$want'" \
		eval '[ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out"'
done <<EOF2
HOSTS=1|HOSTS=1: a number of hosts from 2 to 8
HOSTS=abc|HOSTS=abc
K=0|K=0: the error bound
K=25|K=25
MODE=fast|MODE=fast: paper, sparse or width
MTU=1234|MTU=1234: 1500 or 9000
SIM=fast|SIM=fast: rtl (the NIC's RTL) or behavioral
DEMO_FILE=/nonexistent.f32|DEMO_FILE=/nonexistent.f32: no such readable file
DEMO_FILE=$tmp/odd.f32|not a whole number of float32 values
EOF2

# ---- the progress reader takes whole lines only: the console log grows a
# byte at a time, and a line caught half written must wait for the next look
. scripts/lib/console.sh
printf 'boot\r\nDEMO: host0: linked\r\nDEMO: host0: do' >"$tmp/console.log"
check "whole_lines leaves out a line still being written" eval \
	'[ "$(whole_lines "$tmp/console.log" | grep -c "^DEMO: ")" -eq 1 ]'
printf 'ne (all checks passed)\r\n' >>"$tmp/console.log"
check "whole_lines gives it once it ends" eval \
	'[ "$(whole_lines "$tmp/console.log" | grep -a "^DEMO: " | tail -n 1 | tr -d "\r")" = "DEMO: host0: done (all checks passed)" ]'

if [ ! -r "$GRAD" ]; then
	echo "ok $((n + 1)) - # SKIP $GRAD missing: no cluster run"
	echo "1..$((n + 1))"
	exit 0
fi

# ---- a real run: 2 hosts, paper mode, k=8, jumbo frames
log=$tmp/demo.log
DEMO_FILE=$GRAD K=8 MODE=paper MTU=9000 IPERF_SECONDS=1 DEMO_TIMEOUT=300 \
	scripts/demo.sh >"$log" 2>&1
rc=$?
sed 's/^/# /' "$log" | grep -v '^# \[' | head -60
check "demo exits 0" [ "$rc" -eq 0 ]
check "demo says every verification passed" grep -q '^every verification passed' "$log"
progress_lines() {
	local got
	got=$(grep -E "host[01]: (NIC up|linked|done \(all checks passed\))" "$log")
	[ "$(grep -c . <<<"$got")" -eq 6 ] && return 0
	echo "# progress lines (6 expected):"
	grep '^\[' "$log" | sed 's/^/#   /'
	return 1
}
check "progress: both hosts booted, linked and finished" progress_lines
for t in "iperf3    0->1" "iperf3    1->0" "marked    0->1" "marked    1->0" \
	"unmarked  0->1" "unmarked  1->0"; do
	check "row '$t' passes" grep -q "^$t .* pass: " "$log"
done
# marked rows: fewer bytes on the link than the application wrote, error
# within 2^-8 but not zero (the values really went through the codec)
awk '/^marked / { print $4, $5, $8 }' "$log" >"$tmp/marked"
check "marked: compressed on the link (link bytes < app bytes / 2)" \
	awk '{ if (!($2 > 0 && $2 * 2 < $1)) bad = 1 } END { exit bad || NR != 2 }' "$tmp/marked"
check "marked: 0 < max error <= 2^-8" \
	awk '{ if (!($3 > 0 && $3 <= 0.00390625)) bad = 1 } END { exit bad || NR != 2 }' "$tmp/marked"
check "unmarked: max error 0, nothing saved" \
	awk '/^unmarked / { if ($8 != 0 || $6 != 0) bad = 1; c++ } END { exit bad || c != 2 }' "$log"
check "counters: both hosts compressed and restored frames" awk '
	/^tx_comp_frames / && $2 > 0 && $3 > 0 { a = 1 }
	/^rx_decomp_frames / && $2 > 0 && $3 > 0 { b = 1 }
	/^rx_drop_malformed / && $2 == 0 && $3 == 0 { c = 1 }
	END { exit !(a && b && c) }' "$log"
check "the table says MTU=9000 and MODE=paper" grep -q 'MODE=paper, MTU=9000' "$log"
check "the table names the model: the NIC's RTL (SIM's default)" \
	grep -q "^NIC model: the NIC's RTL (Verilator)" "$log"
check "paper mode: no width note, nothing counted in drv_tx_plain_feature" awk '
	/^MODE=width/ { bad = 1 }
	/^drv_tx_plain_feature / { seen = 1; if ($2 != 0 || $3 != 0) bad = 1 }
	END { exit bad || !seen }' "$log"

# ---- width mode: incsim's NIC has 16 lanes and register map 1.3, so it
# advertises width mode (FEATURES bit 12) and compresses and restores the
# width-marked frames: the marked rows get the usual checks
wlog=$tmp/demo-width.log
DEMO_FILE=$GRAD MODE=width IPERF_SECONDS=1 DEMO_TIMEOUT=300 scripts/demo.sh >"$wlog" 2>&1
rc=$?
sed 's/^/# /' "$wlog" | grep -v '^# \[' | grep -v '^# [a-z_]* *[0-9]* *[0-9]*$' | head -40
check "MODE=width: demo exits 0, every verification passed" \
	eval '[ "$rc" -eq 0 ] && grep -q "^every verification passed" "$wlog"'
# FEATURES bit 12 set: the fourth hex digit from the right is odd
# (the "NIC up" line gives ethtool -i's firmware-version, the management
# firmware's, "none" here: bit 12 alone says the NIC has width mode)
check "MODE=width: both hosts report FEATURES with bit 12 set" eval \
	'[ "$(grep -Ec "host[01]: NIC up: .*FEATURES 0x[0-9a-f]*[13579bdf][0-9a-f]{3}\$" "$wlog")" -eq 2 ]'
for t in "marked    0->1" "marked    1->0"; do
	check "MODE=width: row '$t' passes within 2^-10" grep -q "^$t .* pass: within 2^-10" "$wlog"
done
# marked rows: bytes saved, fewer bytes on the link than the application
# wrote, error within 2^-10 but not zero (the values went through the codec)
check "MODE=width: marked rows: bytes saved, link bytes < app bytes, 0 < max error <= 2^-10" \
	awk '/^marked / { if (!($6 > 0 && $5 > 0 && $5 < $4 && $8 > 0 && $8 <= 0.0009765625)) bad = 1; c++ }
	     END { exit bad || c != 2 }' "$wlog"
check "MODE=width: both NICs compressed and restored frames, none malformed, none sent plain" awk '
	/^tx_comp_frames / && $2 > 0 && $3 > 0 { a = 1 }
	/^rx_decomp_frames / && $2 > 0 && $3 > 0 { b = 1 }
	/^rx_drop_malformed / && $2 == 0 && $3 == 0 { c = 1 }
	/^drv_tx_plain_feature / && $2 == 0 && $3 == 0 { d = 1 }
	/^drv_tx_compressed / && $2 > 0 && $3 > 0 { e = 1 }
	END { exit !(a && b && c && d && e) }' "$wlog"
check "MODE=width: the table says bit 12 is set on both hosts, and clear on none" \
	eval 'grep -q "^MODE=width: FEATURES bit 12 is set on host0 host1: those NICs take width mode" "$wlog" &&
	      ! grep -q "bit 12 is clear" "$wlog"'
# the library's ratio in software, against inccodec's own on the file
want_w=$(awk -v a="$(stat -c %s "$GRAD")" -v b="$("$BUILD/bin/inccodec" compress -k 10 --mode width "$GRAD" - | wc -c)" 'BEGIN { printf "%.2fx", a / b }')
check "MODE=width: the library's width ratio in software ($want_w, inccodec's) is shown, above sparse's" \
	eval 'grep -q "^In software (the codec library, inccodec on this host, k=10): width mode $want_w\$" "$wlog" &&
	      grep -Eq "^on this file, sparse [0-9.]+x: 1\.[3-9][0-9] times fewer bytes in width mode" "$wlog"'

# ---- the same file and k in sparse mode: the NICs' width mode must put
# fewer bytes on the link for each marked transfer
slog=$tmp/demo-sparse.log
DEMO_FILE=$GRAD MODE=sparse IPERF_SECONDS=1 DEMO_TIMEOUT=300 scripts/demo.sh >"$slog" 2>&1
rc=$?
grep -E '^(marked|unmarked) |verification' "$slog" | sed 's/^/# sparse: /'
check "MODE=sparse (K=10, MTU 1500, the same file): demo exits 0, every verification passed" \
	eval '[ "$rc" -eq 0 ] && grep -q "^every verification passed" "$slog" && grep -qF "K=10 (bound 2^-10), MODE=sparse, MTU=1500" "$slog"'
for t in "0->1" "1->0"; do
	wb=$(awk -v t="$t" '$1 == "marked" && $2 == t { print $5 }' "$wlog")
	sb=$(awk -v t="$t" '$1 == "marked" && $2 == t { print $5 }' "$slog")
	check "marked $t: link bytes width ${wb:-?} < sparse ${sb:-?}" \
		eval '[ -n "$wb" ] && [ -n "$sb" ] && [ "$wb" -gt 0 ] && [ "$wb" -lt "$sb" ]'
done

# ---- make demo-codec's tool in width mode: its header says so, and width
# puts fewer bytes on the wire than sparse on the same file
cd_w=$("$BUILD/bin/inccodec-demo" --mode width "$GRAD" 2>&1)
rc_w=$?
cd_s=$("$BUILD/bin/inccodec-demo" --mode sparse "$GRAD" 2>&1)
check "inccodec-demo --mode width: exit 0, mode width, within the bound, fewer bytes than sparse" eval '
	[ "$rc_w" -eq 0 ] && grep -q "^inceptionn gradient codec: mode width, k 10" <<<"$cd_w" &&
	grep -q "^every value of every file came back within the bound" <<<"$cd_w" &&
	[ "$(awk "/^all / { print \$5 }" <<<"$cd_w")" -lt "$(awk "/^all / { print \$5 }" <<<"$cd_s")" ]'
out=$("$BUILD/bin/inccodec-demo" --mode dense "$GRAD" 2>&1)
rc=$?
check "inccodec-demo --mode dense: exit 2, 'paper, sparse or width'" \
	eval '[ "$rc" -eq 2 ] && grep -q "paper, sparse or width" <<<"$out"'

# ---- interrupted: everything it started goes away
ilog=$tmp/int.log
# a background job of a script starts with SIGINT ignored: undo that, and
# give it its own process group, as a terminal's foreground job has
DEMO_FILE=$GRAD IPERF_SECONDS=30 python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])' scripts/demo.sh >"$ilog" 2>&1 &
pid=$!
for _ in $(seq 240); do
	grep -q 'linked: all' "$ilog" && break
	sleep 0.5
done
check "interrupt test: the cluster came up" grep -q 'linked: all' "$ilog"
kill -INT -- "-$pid"
for _ in $(seq 60); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.5
done
wait "$pid"
rc=$?
check "interrupted demo exits 130 (got $rc)" [ "$rc" -eq 130 ]
check "interrupted demo says it stops the cluster" grep -q 'interrupted: stopping the cluster' "$ilog"
sleep 1
check "no QEMU, incsim or incswitch left" eval \
	'! pgrep -f "$BUILD/demo/host.cpio.gz|--name switch-sw0|incvm-.*-host0" >/dev/null'
check "no guest RAM file left in /dev/shm" eval '! ls /dev/shm/incvm-*-host* >/dev/null 2>&1'

echo "1..$n"
[ "$failed" -eq 0 ]
