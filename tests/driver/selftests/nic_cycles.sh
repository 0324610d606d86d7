#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the module 100 times (INC_CYCLES), each time while
# traffic flows: in turn unmarked TCP (iperf3), marked UDP and marked TCP
# with the mark toggled per message (incgrad). No warning or oops, the NIC
# works after every load, and the memory comes back: slab and available
# memory measured before and after, with the page cache dropped (the test
# kernel has no kmemleak). Leaking the RX buffers of one open (256 pages)
# would show as 100 MB.
. ./lib.sh
KO=/lib/modules/inceptionn.ko
N=${INC_CYCLES:-100}
FORGE=/kselftest/inceptionn/forge

# mem: "SLAB_KB AVAILABLE_KB" after dropping the page cache
mem() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^Slab:/ { s = $2 } /^MemAvailable:/ { a = $2 } END { print s, a }' /proc/meminfo
}

wait_for 60 ping -c 1 -W 2 "$PEER4" || fail "the peer does not answer"
# one cycle first: whatever the first load allocates once stays
rmmod_retry || fail "rmmod"
insmod $KO || fail "insmod"
setup_if || fail "setup"
set -- $(mem)
slab0=$1 avail0=$2
t0=$(cut -d' ' -f1 /proc/uptime)

i=1
while [ $i -le "$N" ]; do
	case $((i % 3)) in
	0) iperf3 -c "$PEER4" -t 20 >/dev/null 2>&1 & ;;
	1) $FORGE marked-udp "$PEER4" 9 20000 >/dev/null 2>&1 & ;;
	2) [ -r "$GRAD" ] && incgrad client "$PEER4" "$GRAD" --port "$INCGRAD_PORT" \
		--mark --repeat 20 --timeout 20 >/dev/null 2>&1 & ;;
	esac
	pid=$!
	sleep 0.3
	rmmod_retry || fail "rmmod, cycle $i"
	[ ! -e "/sys/class/net/$IF" ] || fail "$IF still there after rmmod, cycle $i"
	insmod $KO || fail "insmod, cycle $i"
	setup_if || fail "setup after insmod, cycle $i"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ $((i % 10)) = 0 ]; then
		wait_for 10 ping -c 1 -W 2 "$PEER4" || fail "no traffic after cycle $i"
	fi
	i=$((i + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
wait_for 30 ping -c 1 -W 2 "$PEER4" || fail "no traffic after $N cycles"
set -- $(mem)
dslab=$(($1 - slab0)) davail=$((avail0 - $2))
log "  $N load/unload cycles under traffic in $(awk "BEGIN { print $t1 - $t0 }") s; slab $slab0 -> $1 kB ($dslab), available memory $avail0 -> $2 kB ($((-davail)))"
[ $dslab -lt 2048 ] || fail "slab grew by $dslab kB over $N cycles"
[ $davail -lt 16384 ] || fail "available memory fell by $davail kB over $N cycles"
! dmesg | grep -q "stalled pool shutdown" || fail "a page pool kept pages after its netdev went"
dmesg_clean || fail "kernel warnings"
exit 0
