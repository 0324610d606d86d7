#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Recovery from a hung NIC. Run with eth0's incsim hanging its DMA bridge
# three times (run-driver.sh STALL=N,N,N: incsim --stall-after), and every
# incsim checking that no queue is moved to new memory while the NIC could
# still DMA with the old one (--check-dma: the run fails otherwise).
#   1. Traffic until the NIC hangs: the TX watchdog fires, the reset task
#      resets the NIC (devlink health reporter "tx"), traffic resumes.
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

log "1. a hang during traffic: the watchdog, the reset task"
r0=$(cat "$D/resets") to0=$(cat "$D/tx_timeouts")
traffic 60
wait_for 60 sh -c "[ \$(cat $D/resets) -gt $r0 ]" || fail "no reset within 60 s"
stop_traffic
resumes "timeout"
[ "$(cat "$D/tx_timeouts")" -gt "$to0" ] || fail "no TX timeout counted"
dmesg | grep -q "TX stalled" || fail "no TX stall message"
if command -v devlink >/dev/null; then
	h=$(devlink health show "pci/$PCI" reporter tx)
	echo "$h" | sed 's/^/  /'
	echo "$h" | grep -q "error 1 " || fail "devlink health: error count not 1"
	echo "$h" | grep -q "recover 1 " || fail "devlink health: recover count not 1"
	echo "$h" | grep -q "state healthy" || fail "devlink health: not healthy"
fi

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

log "  resets $(cat "$D/resets"), TX timeouts $(cat "$D/tx_timeouts")"
dmesg | grep -E "inceptionn.*(reset|stalled|not idle)" | sed 's/^/  /'
dmesg_clean || fail "kernel warnings"
exit 0
