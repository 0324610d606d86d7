#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# MTU and ring-size changes under traffic with allocations failing
# (the driver's fault injection in debugfs, fail_alloc_every and
# fail_alloc_times, docs/lab-hosts.md: Debian's kernel has no failslab).
# A change builds its new rings before it touches the running ones, so it
# either takes, or fails and leaves the old configuration running; it never
# leaves the interface up without rings (before: ip link set down and rmmod
# then hung in napi_disable). Failed RX refills in NAPI drop a frame, and
# are counted.
. ./lib.sh
D=$(dbgdir "$IF")
[ -w "$D/fail_alloc_every" ] || fail "no $D/fail_alloc_every"
wait_for 60 ping -c 1 -W 2 "$PEER4" || fail "the peer does not answer"

mtu() { cat "/sys/class/net/$IF/mtu"; }
# cur RX|TX: the current ring size
cur() { ethtool -g "$IF" | grep -A5 'Current hardware' | sed -n "s/^$1:[[:space:]]*//p"; }
config() { echo "mtu $(mtu) rx $(cur RX) tx $(cur TX)"; }
works() { wait_for 15 ping -c 1 -W 2 "$PEER4" || fail "no traffic at $(config) after $1"; }
inject() { echo "$2" >"$D/fail_alloc_times"; echo "$1" >"$D/fail_alloc_every"; }
injected() { cat "$D/fail_alloc_injected"; }

log "the first allocation of a change fails: nothing changes"
before=$(config)
inject 1 1
ip link set "$IF" mtu 9000 2>/dev/null && fail "MTU 9000 taken although its allocation failed"
[ "$(config)" = "$before" ] || fail "MTU change failed, but the configuration changed: $(config)"
works "a failed MTU change"
inject 1 1
ethtool -G "$IF" rx 1024 tx 64 2>/dev/null && fail "ring change taken although its allocation failed"
[ "$(config)" = "$before" ] || fail "ring change failed, but the configuration changed: $(config)"
works "a failed ring change"
inject 200 1	# the 200th RX buffer of the new rings
ethtool -G "$IF" rx 1024 2>/dev/null && fail "ring change taken although buffer 200 failed"
[ "$(config)" = "$before" ] || fail "configuration changed: $(config)"
works "a failed ring change (buffer 200)"
inject 0 0
[ "$(injected)" -ge 3 ] || fail "only $(injected) failures injected"

log "16 changes under traffic, a failure somewhere in each"
iperf3 -c "$PEER4" -R -t 300 >/dev/null 2>&1 &
p1=$!
/kselftest/inceptionn/forge marked-udp "$PEER4" 9 100000 >/dev/null 2>&1 &
p2=$!
d0=$(stat drv_rx_dropped)
taken=0 failed=0 i=0
while [ $i -lt 16 ]; do
	before=$(config)
	m=$(mtu) rx=$(cur RX) tx=$(cur TX)
	case $((i % 8)) in
	0) m=9000 ;;
	1) rx=1024 tx=512 ;;
	2) m=1500 ;;
	3) rx=64 tx=16 ;;
	4) m=4000 ;;
	5) rx=128 tx=4096 ;;
	6) rx=256 tx=256 ;;
	7) m=1500 ;;
	esac
	case $((i % 8)) in
	0 | 2 | 4 | 7) cmd="ip link set $IF mtu $m" ;;
	*) cmd="ethtool -G $IF rx $rx tx $tx" ;;
	esac
	# the k-th allocation from now fails: in the change's rings, or later
	# in an RX refill under traffic
	inject $((1 + (i * 97) % 400)) 1
	echo "nic_reconfig: change $i: $cmd" >/dev/kmsg
	if $cmd 2>/dev/null; then
		taken=$((taken + 1))
		[ "$(config)" = "mtu $m rx $rx tx $tx" ] ||
			fail "'$cmd' said it took, configuration $(config)"
	else
		failed=$((failed + 1))
		[ "$(config)" = "$before" ] || fail "'$cmd' failed, configuration changed: $before -> $(config)"
	fi
	[ "$(cat /sys/class/net/$IF/operstate)" = up ] || fail "$IF not up after '$cmd'"
	works "'$cmd'"
	i=$((i + 1))
done
inject 0 0
kill "$p1" "$p2" 2>/dev/null
wait "$p1" "$p2" 2>/dev/null
log "  $taken changes taken, $failed failed and kept the old configuration; $(injected) failures injected; RX frames dropped for a failed refill: $(($(stat drv_rx_dropped) - d0))"
[ $taken -gt 0 ] && [ $failed -gt 0 ] || fail "expected changes that take and changes that fail"

ip link set "$IF" mtu 1500 && ethtool -G "$IF" rx 256 tx 256 || fail "back to 1500, 256/256"
ip link set "$IF" down || fail "down"
ip link set "$IF" up || fail "up"
# going down took the IPv6 address (IPv4 addresses stay)
ip -6 addr replace "$SELF6/64" dev "$IF" || fail "IPv6 address"
wait_for 30 carrier_up || fail "no carrier"
works "down and up"
wait_for 15 ping -c 1 -W 2 "$PEER6" || fail "no IPv6 traffic after down and up"
# the peer restores every compressed frame: nothing may have taught the
# table otherwise (a frame mangled by a change would)
[ "$(sed -n 's/^entries //p' "$D/peers_stats")" = 0 ] ||
	fail "the peer was learned as plain: $(cat "$D/peers") $(cat "$D/peers_stats")"
dmesg_clean || fail "kernel warnings"
exit 0
