#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench-incsim's guest row: TCP throughput between two QEMU guests (TCG)
# through two incsim NICs of the RTL model, through two of the behavioral
# model (docs/sim.md "Two models"), and through virtio-net, each pair on
# its own incswitch, in one run: the same machine, the same guests, one
# path after the other. Prints a table: each path, each direction, and
# each model's share of virtio-net.
#
# environment: SECS (iperf3 seconds per direction and path, default 10),
#   GBPS (incsim's wire rate, default incsim's own), BUILD
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
SECS=${SECS:-10}
[[ $SECS =~ ^[1-9][0-9]*$ ]] || { echo "bench-guests: SECS: a number >= 1" >&2; exit 2; }
OUT=$BUILD/bench-guests
mkdir -p "$OUT"

ko=$(scripts/build-module.sh) || { echo "bench-guests: the module did not build" >&2; exit 1; }
make --no-print-directory "$BUILD/bin/incsim" >&2 || exit 1
tests/vm/mkinitrd.sh "$OUT/guest.cpio.gz" --kmod virtio_pci --kmod virtio_net \
	--file "$ko:/lib/modules/inceptionn.ko" \
	--file tests/driver/selftests/lib.sh:/lib/inc-lib.sh \
	--bin iperf3 --bin /sbin/ip \
	--script scripts/bench-guests-guest.sh >&2 || { echo "bench-guests: mkinitrd" >&2; exit 1; }

gb=${GBPS:+:gbps=$GBPS}
log=$OUT/run.log
tests/vm/run.sh --timeout $((SECS * 4 + 300)) --log-dir "$OUT" \
	--guest "a:$OUT/guest.cpio.gz:384M" --guest "b:$OUT/guest.cpio.gz:384M:helper" \
	--append "a:inc.host=0 inc.secs=$SECS" --append "b:inc.host=1 inc.secs=$SECS" \
	--switch l0 --switch l1 --switch l2 \
	--nic "a:nica:link-connect=l0:stats:model=rtl$gb" --nic "b:nicb:link-connect=l0:stats:model=rtl$gb" \
	--nic "a:behava:link-connect=l2:stats:model=behavioral$gb" \
	--nic "b:behavb:link-connect=l2:stats:model=behavioral$gb" \
	--virtio a:link-connect=l1 --virtio b:link-connect=l1 >"$log" 2>&1
rc=$?
grep -q '^not ok' "$log" && rc=1
row() { sed -n "s/^# a: bench: $1 //p" "$log" | tail -1; }
inc=$(row incsim) beh=$(row behavioral) vio=$(row virtio)
if [ $rc -ne 0 ] || [ -z "$inc" ] || [ -z "$beh" ] || [ -z "$vio" ]; then
	echo "bench-guests: the run failed ($log)" >&2
	grep -E '^not ok' "$log" >&2
	exit 1
fi
val() { echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else print "-" }'; }
printf '\n%-34s %14s %14s\n' "two TCG guests, iperf3 TCP" "a to b, Mbit/s" "b to a, Mbit/s"
printf '%-34s %14s %14s\n' "through two incsims, RTL" "$(val "$inc" tx)" "$(val "$inc" rx)"
printf '%-34s %14s %14s\n' "through two incsims, behavioral" "$(val "$beh" tx)" "$(val "$beh" rx)"
printf '%-34s %14s %14s\n' "through virtio-net" "$(val "$vio" tx)" "$(val "$vio" rx)"
printf '%-34s %14s %14s\n' "RTL / virtio-net" "$(share "$(val "$inc" tx)" "$(val "$vio" tx)")" \
	"$(share "$(val "$inc" rx)" "$(val "$vio" rx)")"
printf '%-34s %14s %14s\n' "behavioral / virtio-net" "$(share "$(val "$beh" tx)" "$(val "$vio" tx)")" \
	"$(share "$(val "$beh" rx)" "$(val "$vio" rx)")"
for n in nica nicb behava behavb; do
	sed -n "s/^$n: stats: \(wall\|clocks\)/$n: \1/p" "$OUT/$n.incsim.log"
done
echo
echo "iperf3 -t $SECS per direction, one path after the other, both guests -smp 1 under TCG;"
echo "incsim wire rate ${GBPS:-100} Gbit/s (GBPS; incsim's default 100). The figures measure the simulation, not a board."
