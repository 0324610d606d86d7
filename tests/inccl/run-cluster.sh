#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# inccl on a simulated cluster: HOSTS QEMU guests (default 4; Debian's
# kernel, TCG), each with an incsim NIC (the NIC's RTL under Verilator), all
# on one incswitch, as `make demo HOSTS=4` sets them up. Each guest
# (tests/inccl/cluster-guest.sh) is one rank: host H is RANK=H of
# WORLD_SIZE=HOSTS, MASTER_ADDR=10.0.0.1, and runs
#   incbench allreduce --algo ALGO -k K --mode MODE -b SIZE -e SIZE \
#     -n ITERS -w WARM --transport nic --digest --no-check --data GRAD
# for every ALGO and SIZE, one incbench per (ALGO, SIZE), reading its NIC's
# counters (ethtool -S) and simulated clock around each. This host runs the
# same incbench with --transport sw --local HOSTS --digest and the model
# check. The test asserts, per run: this host's check passed; the guests'
# result (rank 0's digest, the same on every rank) is bit-identical to this
# host's; every rank's incbench exited 0; the NICs compressed (every rank of
# a ring, every worker of wa: compressed frames > 0); for the ring, every
# rank's link bytes are at most LINK_MAX (default 0.5) of the bytes its host
# handed the NIC; no NIC dropped a malformed frame.
#
# The simulated clock: incsim counts the NIC's clock cycles in BAR2 (u64 at
# INCSIM_OFF_CLOCKS, include/uapi/inceptionn/incsim.h); the guest reads it
# with busybox devmem (the kernel command line has iomem=relaxed, since the
# driver holds the BAR). incsim clocks the RTL while the NIC has work; idle
# (no firmware here: the core halted), it skips clocks at 1 NIC ms per 100
# wall ms (docs/sim.md, "A sleeping core"), so a run's delta is the NIC's
# busy time in cycles plus that small share of its idle wall time, at the
# NIC's nominal 250 MHz (docs/sim.md) clocks / 250e6 seconds.
#
# usage: tests/inccl/run-cluster.sh [--bench]
#   --bench   print the figures as a table (per configuration and rank: app
#             bytes, bytes the host handed the NIC, link bytes, ratio,
#             compressed frames, NIC clocks and their time at 250 MHz, wall
#             time) instead of TAP; `make bench-inccl-sim`
# environment: BUILD (default build), HOSTS (2..8, default 4), ALGOS
#   (default "ring wa"), SIZES (default "64K 256K 1M"), K (10), MODE
#   (sparse), ITERS (default 1; --bench 3), WARM (default 0; --bench 1),
#   GRAD (default ../shared/gradients/cnn-step0050.f32; generated data when
#   missing), TIMEOUT (seconds for the guests, default 600), KO (a built
#   inceptionn.ko), LINK_MAX (0.5), SIM (the NICs' model: rtl, the default
#   for the tests, or behavioral, --bench's default; docs/sim.md "Two models")
# Output: TAP (the guests' test points through tests/vm/run.sh, then this
# host's checks), or the table. Logs: $BUILD/vm/inccl-cluster/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
BENCH=0
case ${1:-} in
--bench) BENCH=1 ;;
"") ;;
*) echo "usage: $0 [--bench]" >&2; exit 2 ;;
esac
HOSTS=${HOSTS:-4}
ALGOS=${ALGOS:-ring wa}
SIZES=${SIZES:-64K 256K 1M}
K=${K:-10}
MODE=${MODE:-sparse}
if [ "$BENCH" = 1 ]; then
	ITERS=${ITERS:-3} WARM=${WARM:-1} SIM=${SIM:-behavioral}
else
	ITERS=${ITERS:-1} WARM=${WARM:-0} SIM=${SIM:-rtl}
fi
[ "$SIM" = rtl ] || [ "$SIM" = behavioral ] ||
	{ echo "run-cluster.sh: SIM=$SIM: rtl or behavioral" >&2; exit 2; }
export INCSIM_MODEL=$SIM
GRAD=${GRAD:-../shared/gradients/cnn-step0050.f32}
TIMEOUT=${TIMEOUT:-600}
LINK_MAX=${LINK_MAX:-0.5}
NIC_HZ=250000000	# the NIC's clock (docs/sim.md)
OUT=$BUILD/inccl/vm-cluster
LOGS=$BUILD/vm/inccl-cluster
export BUILD

[[ $HOSTS =~ ^[0-9]+$ ]] && [ "$HOSTS" -ge 2 ] && [ "$HOSTS" -le 8 ] ||
	{ echo "run-cluster.sh: HOSTS=$HOSTS: 2 to 8" >&2; exit 2; }
T0=$(date +%s.%N)
mkdir -p "$OUT" "$LOGS" || exit 1
rm -f "$LOGS"/*.log

# ---- build: the module, incsim, incswitch, incbench; the guests' image
need=()
for t in bin/incbench bin/incsim bin/incswitch; do
	[ -x "$BUILD/$t" ] || need+=("$BUILD/$t")
done
if [ ${#need[@]} -gt 0 ]; then
	make --no-print-directory "${need[@]}" >&2 || { echo "Bail out! ${need[*]} did not build"; exit 1; }
fi
ko=${KO:-}
[ -n "$ko" ] || ko=$(scripts/build-module.sh) || { echo "Bail out! inceptionn.ko did not build"; exit 1; }

# NAME ARGS per run (the guests add --transport nic, this host --transport sw)
runs=()
for a in $ALGOS; do
	for s in $SIZES; do
		runs+=("$a-$s allreduce --algo $a -k $K --mode $MODE -b $s -e $s -n $ITERS -w $WARM --timeout 300")
	done
done
printf '%s\n' "${runs[@]}" >"$OUT/runs"
files=(--file "$OUT/runs:/inccl/runs" --file tests/driver/selftests/lib.sh:/lib/inc-lib.sh)
data=()
if [ -r "$GRAD" ]; then
	files+=(--file "$GRAD:/data/grad.f32")
	data=(--data "$GRAD")
fi
tests/vm/mkinitrd.sh "$OUT/host.cpio.gz" --module "$ko" "${files[@]}" --bin ethtool \
	--bin "$BUILD/bin/incbench" --script tests/inccl/cluster-guest.sh ||
	{ echo "Bail out! mkinitrd"; exit 1; }

n=0 fails=0
ok() { n=$((n + 1)); [ "$BENCH" = 1 ] || echo "ok $n - $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
diag() { [ "$BENCH" = 1 ] || echo "# $*"; }

# ---- this host: --transport sw, --local HOSTS, with the model check
declare -A want=() wtime=()
for r in "${runs[@]}"; do
	read -r name args <<<"$r"
	# shellcheck disable=SC2086
	out=$("$BUILD/bin/incbench" $args --local "$HOSTS" --transport sw --digest \
		${data[@]+"${data[@]}"} 2>&1)
	rc=$?
	row=$(awk '$1 ~ /^[0-9]+$/ { print $(NF - 1), $NF, $3 }' <<<"$out")
	read -r chk digest t_us <<<"$row"
	if [ "$rc" -eq 0 ] && [ "${chk:-}" = ok ]; then
		want[$name]=$digest wtime[$name]=$t_us
		ok "this host: incbench $name --local $HOSTS --transport sw: equal to the model (digest $digest)"
	else
		nok "this host: incbench $name --local $HOSTS --transport sw: exit $rc, check '${chk:-none}'"
		sed 's/^/#   /' <<<"$out"
	fi
done

# ---- the cluster
args=(--timeout "$TIMEOUT" --log-dir "$LOGS" --switch sw0)
mem=384M
for ((h = 0; h < HOSTS; h++)); do
	args+=(--guest "host$h:$OUT/host.cpio.gz:$mem" --nic "host$h:nic$h:link-connect=sw0:stats"
		--append "host$h:inc.host=$h inc.hosts=$HOSTS iomem=relaxed")
done
[ "$BENCH" = 1 ] && echo "booting $HOSTS guests, each with an incsim NIC, on one incswitch; ${#runs[@]} incbench runs (logs: $LOGS) ..." >&2
TC0=$(date +%s.%N)
tests/vm/run.sh "${args[@]}" >"$OUT/run.tap" 2>&1
rc=$?
TC1=$(date +%s.%N)
while IFS= read -r l; do
	if [[ $l =~ ^(ok|not\ ok)\ [0-9]+\ -\ (.*)$ ]]; then
		if [ "${BASH_REMATCH[1]}" = ok ]; then ok "${BASH_REMATCH[2]}"; else nok "${BASH_REMATCH[2]}"; fi
	elif [[ $l =~ ^1\.\. ]]; then
		:
	elif [[ $l == '#'* ]]; then
		diag "${l#\# }"
	else
		diag "$l"
	fi
done <"$OUT/run.tap"
[ "$rc" -eq 0 ] || [ "$fails" -gt 0 ] || nok "tests/vm/run.sh exit $rc"

# ---- what the guests reported
stats=$(cat "$LOGS"/host*.log 2>/dev/null | tr -d '\r' | grep -a '^INCCL-STAT ')
declare -A got=() gchk=() gtime=()
while read -r _ name size chk digest t_us; do
	got[$name]=$digest gchk[$name]=$chk gtime[$name]=$t_us
done < <(tr -d '\r' <"$LOGS/host0.log" 2>/dev/null | grep -a '^INCCL-ROW ')
# kv LINE KEY: the value of KEY=VALUE in LINE
kv() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
declare -A S=()
while IFS= read -r l; do
	[ -n "$l" ] || continue
	r=$(kv "$l" run) h=$(kv "$l" host)
	S[$r/$h]=$l
done <<<"$stats"

for r in "${runs[@]}"; do
	read -r name _ <<<"$r"
	algo=${name%%-*}
	if [ -n "${want[$name]:-}" ] && [ "${got[$name]:-}" = "${want[$name]}" ] &&
		[ "${gchk[$name]}" = same ]; then
		ok "$name: the cluster's result (nic, $HOSTS guests) is bit-identical to this host's (sw): ${want[$name]}, the same on every rank"
	else
		nok "$name: cluster digest ${got[$name]:-none} (${gchk[$name]:-no row}), this host's ${want[$name]:-none}"
	fi
	missing='' nocomp='' wide='' malformed=''
	for ((h = 0; h < HOSTS; h++)); do
		l=${S[$name/$h]:-}
		if [ -z "$l" ]; then
			missing+=" $h"
			continue
		fi
		if [ "$algo" = ring ] || [ "$h" -gt 0 ]; then
			[ "$(kv "$l" tx_comp_frames)" -gt 0 ] || nocomp+=" $h"
		fi
		if [ "$algo" = ring ]; then
			awk -v a="$(kv "$l" tx_bytes)" -v b="$(kv "$l" drv_tx_bytes)" -v m="$LINK_MAX" \
				'BEGIN { exit !(b > 0 && a <= m * b) }' || wide+=" $h"
		fi
		[ "$(kv "$l" rx_drop_malformed)" -eq 0 ] || malformed+=" $h"
	done
	if [ -n "$missing" ]; then
		nok "$name: NIC figures of every rank (none from rank$missing)"
		continue
	fi
	who="every rank"
	[ "$algo" = ring ] || who="every worker (rank 0 sends the sum exact)"
	if [ -z "$nocomp" ]; then
		ok "$name: the NICs compressed: $who sent compressed frames"
	else
		nok "$name: no compressed frame from rank$nocomp"
	fi
	if [ "$algo" = ring ]; then
		if [ -z "$wide" ]; then
			ok "$name: every rank's link bytes <= $LINK_MAX x the bytes its host handed the NIC"
		else
			nok "$name: link bytes > $LINK_MAX x host bytes on rank$wide"
		fi
	fi
	if [ -z "$malformed" ]; then
		ok "$name: no NIC dropped a malformed frame"
	else
		nok "$name: malformed frames dropped on rank$malformed"
	fi
done

# ---- the figures
T1=$(date +%s.%N)
table() {
	local lines=''
	for r in "${runs[@]}"; do
		read -r name _ <<<"$r"
		for ((h = 0; h < HOSTS; h++)); do
			lines+="${S[$name/$h]:-INCCL-STAT run=$name host=$h} sw_us=${wtime[$name]:-0} nic_us=${gtime[$name]:-0}"$'\n'
		done
	done
	awk -v hz=$NIC_HZ -v hosts="$HOSTS" '
	function kv(key,   i) {
		for (i = 2; i <= NF; i++)
			if (index($i, key "=") == 1)
				return substr($i, length(key) + 2)
		return ""
	}
	function row(cfg, rk, app, hb, lb, cf, clk, wall, t) {
		printf "%-10s %5s %12s %12s %12s %7s %7s %12s %9s %7s %10s\n", cfg, rk,
			app, hb, lb, (lb > 0 ? sprintf("%.2fx", hb / lb) : "-"), cf,
			clk, (clk != "-" ? sprintf("%.3f", clk / hz * 1e3) : "-"), wall, t
	}
	BEGIN {
		printf "%-10s %5s %12s %12s %12s %7s %7s %12s %9s %7s %10s\n", "config", "rank",
			"app B", "host->NIC B", "link B", "ratio", "comp fr", "NIC clocks",
			"NIC ms", "wall s", "incbench"
	}
	NF > 0 {
		cfg = kv("run"); h = kv("host")
		if (kv("rc") == "") {
			row(cfg, h, "-", "-", "-", "-", "-", "-", "-")
			next
		}
		app = kv("drv_tx_marked_bytes"); hb = kv("drv_tx_bytes"); lb = kv("tx_bytes")
		cf = kv("tx_comp_frames"); clk = kv("clocks"); wall = kv("wall_s")
		row(cfg, h, app, hb, lb, cf, clk, wall, h == 0 ? kv("nic_us") " us" : "")
		A[cfg] += app; HB[cfg] += hb; LB[cfg] += lb; CF[cfg] += cf
		if (clk > CK[cfg]) CK[cfg] = clk
		if (wall > W[cfg]) W[cfg] = wall
		if (h == hosts - 1) {
			row(cfg, "all", A[cfg], HB[cfg], LB[cfg], CF[cfg], CK[cfg], W[cfg], "(sw: " kv("sw_us") " us)")
			print ""
		}
	}' <<<"$lines"
}
if [ "$BENCH" = 1 ]; then
	ver=$(sed -n 's/^#define INC_DRV_VERSION[^"]*"\(.*\)"/\1/p' driver/inc.h)
	echo
	echo "inccl on a simulated cluster: $HOSTS QEMU guests (TCG, Debian $(tests/vm/kver.sh), inceptionn.ko $ver), each with an incsim NIC (RTL under Verilator), one incswitch"
	echo "allreduce, transport nic, k=$K $MODE, -n $ITERS -w $WARM per run, data ${data[1]:-generated} x (rank+1)/$HOSTS"
	echo "app B: gradient bytes the driver marked (drv_tx_marked_bytes); host->NIC B: bytes the host handed the NIC (drv_tx_bytes);"
	echo "link B: bytes the NIC put on the wire (tx_bytes); ratio: host->NIC / link; comp fr: compressed frames (tx_comp_frames);"
	echo "NIC clocks: the NIC's clock cycles during the run (simulated while the NIC has work; idle, 1 NIC ms per 100 wall ms), NIC ms: at 250 MHz;"
	echo "wall s: the incbench process on the guest; incbench: its time per iteration (rank 0, slowest rank), and on 'all' the same run with --local $HOSTS --transport sw on this host;"
	echo "'all': sums of the bytes and frames, the largest clocks and wall time"
	echo
	table
	echo "cluster: $(awk -v a="$TC0" -v b="$TC1" 'BEGIN { printf "%.1f", b - a }') s wall (boot, runs, power-off); whole script $(awk -v a="$T0" -v b="$T1" 'BEGIN { printf "%.1f", b - a }') s"
	if [ "$fails" -gt 0 ]; then
		echo "$fails check(s) FAILED (logs: $LOGS, $OUT/run.tap)"
	else
		echo "every check passed: $n (digests bit-identical to --transport sw, compressed on every NIC that sends gradients)"
	fi
else
	table | sed 's/^/# /'
	echo "1..$n"
fi
[ "$fails" -eq 0 ]
