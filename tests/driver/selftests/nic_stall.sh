#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Recovery from a hung NIC. Run with eth0's incsim wedging its MAC once
# (run-driver.sh WEDGE=200: incsim --tx-wedge-after, cleared by a flush of
# the TX queue) and hanging its DMA bridge three times (STALL=1500,500,500:
# --stall-after; the first stall beyond the frames phase 0 sends), and every incsim checking that no queue is moved to new
# memory while the NIC could still DMA with the old one (--check-dma: the
# run fails otherwise).
#   0. Traffic until the MAC takes no more frames, DMA still works: the TX
#      watchdog fires, the reset task flushes the TX queue alone (QFLUSH),
#      the NIC is not reset, traffic resumes.
#   1. Traffic until the DMA bridge hangs: the watchdog fires, the flush
#      cannot end (or a second timeout comes with nothing sent since it),
#      the NIC is reset (devlink health reporter "tx"), traffic resumes.
#   2. Traffic until it hangs again, then the interface goes down before
#      the watchdog fires: the stop resets the NIC before its memory is
#      freed; up again, it works.
#   3. The same with an MTU change while the NIC hangs.
. ./lib.sh
D=$(dbgdir "$IF")
PCI=$(basename "$(readlink -f "/sys/class/net/$IF/device")")
[ -r "$D/resets" ] || fail "no $D/resets"
wait_for 60 ping -c 1 -W 2 "$PEER4" || fail "the peer does not answer"

# traffic SECONDS: UDP datagrams toward the peer in the background, about
# 500 a second (marked: the NIC compresses them); no server needed
traffic() {
	/kselftest/inceptionn/forge marked-udp "$PEER4" 9 $(($1 * 500)) >/dev/null 2>&1 &
	TPID=$!
}
stop_traffic() {
	kill "$TPID" 2>/dev/null
	wait "$TPID" 2>/dev/null
}
# wait_hung SECONDS: until completed transmissions stop growing for 1.5 s
wait_hung() {
	t=$(($1 * 10))
	last=$(stat drv_tx_packets) same=0
	while [ $t -gt 0 ]; do
		sleep 0.3
		now=$(stat drv_tx_packets)
		if [ "$now" = "$last" ]; then
			same=$((same + 1))
			[ $same -ge 5 ] && return 0
		else
			same=0 last=$now
		fi
		t=$((t - 3))
	done
	return 1
}
resumes() {
	wait_for 30 ping -c 1 -W 2 "$PEER4" || fail "$1: no traffic after the reset"
}

# health ERRORS: devlink's reporter "tx" counted ERRORS errors (at least)
# and recovered from each, and is healthy
health() {
	command -v devlink >/dev/null || return 0
	h=$(devlink health show "pci/$PCI" reporter tx)
	echo "$h" | sed 's/^/  /'
	e=$(echo "$h" | sed -n 's/.* error \([0-9]*\) .*/\1/p')
	r=$(echo "$h" | sed -n 's/.* recover \([0-9]*\) .*/\1/p')
	[ -n "$e" ] && [ "$e" -ge "$1" ] || fail "devlink health: error count '$e', not $1 or more"
	[ "$r" = "$e" ] || fail "devlink health: $e errors, $r recoveries"
	echo "$h" | grep -q "state healthy" || fail "devlink health: not healthy"
}

log "0. the MAC hangs, DMA does not: the TX queue alone is flushed"
f0=$(cat "$D/tx_flushes") r0=$(cat "$D/resets") to0=$(cat "$D/tx_timeouts")
# 1000 datagrams: past the wedge (WEDGE=200) and enough to fill the ring
# behind it, never as far as the first DMA stall (STALL=1500,...)
traffic 2
wait_for 60 sh -c "[ \$(cat $D/tx_flushes) -gt $f0 ]" || fail "no TX queue flush within 60 s"
stop_traffic
resumes "flush"
[ "$(cat "$D/tx_timeouts")" -gt "$to0" ] || fail "no TX timeout counted"
[ "$(cat "$D/resets")" = "$r0" ] || fail "the NIC was reset: the flush of its TX queue was enough"
dmesg | grep -q "TX stalled" || fail "no TX stall message"
dmesg | grep -q "TX queue flushed" || fail "no TX flush message"
health 1

log "1. the DMA bridge hangs during traffic: the watchdog, a reset"
r0=$(cat "$D/resets") to0=$(cat "$D/tx_timeouts")
traffic 60
wait_for 60 sh -c "[ \$(cat $D/resets) -gt $r0 ]" || fail "no reset within 60 s"
stop_traffic
resumes "timeout"
[ "$(cat "$D/tx_timeouts")" -gt "$to0" ] || fail "no TX timeout counted"
dmesg | grep -qE "TX queue flush failed|no frame sent since the last TX queue flush" ||
	fail "the reset came without the flush tried first"
health 2

log "2. down while hung"
r0=$(cat "$D/resets") to0=$(cat "$D/tx_timeouts")
traffic 60
wait_hung 60 || fail "the second hang did not come"
stop_traffic
ip link set "$IF" down || fail "down while hung"
[ "$(cat "$D/resets")" -gt "$r0" ] || fail "the stop did not reset the hung NIC"
ip link set "$IF" up || fail "up after the reset"
wait_for 30 carrier_up || fail "no carrier after the reset"
resumes "down/up"
[ "$(cat "$D/tx_timeouts")" = "$to0" ] || log "  (the watchdog fired as well)"

log "3. an MTU change while hung"
r0=$(cat "$D/resets")
traffic 60
wait_hung 60 || fail "the third hang did not come"
stop_traffic
ip link set "$IF" mtu 9000 || fail "MTU 9000 while hung"
[ "$(cat "$D/resets")" -gt "$r0" ] || fail "the MTU change did not reset the hung NIC"
resumes "MTU change"
ping -c 2 -W 10 -s 8000 "$PEER4" >/dev/null || fail "ping -s 8000 after the change"
ip link set "$IF" mtu 1500 || fail "MTU 1500"
resumes "MTU 1500"

log "  resets $(cat "$D/resets"), TX timeouts $(cat "$D/tx_timeouts"), TX flushes $(cat "$D/tx_flushes")"
dmesg | grep -E "inceptionn.*(reset|stalled|not idle|flush)" | sed 's/^/  /'
dmesg_clean || fail "kernel warnings"
exit 0
