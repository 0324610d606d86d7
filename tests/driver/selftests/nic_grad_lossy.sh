#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Marked TCP transfers over a lossy network (run-driver.sh with LOSS=N: the
# switch between the hosts drops every Nth unicast frame), IPv4 and IPv6.
# TCP retransmits; a retransmitted segment gets its range from its own
# sequence number, so it goes out compressed the same way: every frame the
# driver marked went out compressed, the receiver still gets every header
# exact and every value within the bound, and some segments really were
# retransmitted.
. ./lib.sh
[ -r "$GRAD" ] || skip "no gradient file (../shared/gradients)"

# tcp_stat NAME: a counter of the Tcp: lines of /proc/net/snmp
tcp_stat() {
	awk -v n="$1" '/^Tcp:/ { if (!h++) { for (i = 1; i <= NF; i++) c[$i] = i }
		else print $(c[n]) }' /proc/net/snmp
}
retrans=0
for host in "$PEER4" "$PEER6"; do
	r0=$(tcp_stat RetransSegs)
	m0=$(counters drv_tx_marked drv_tx_compressed)
	xfer "$host" tcp --mark 10 sparse
	m1=$(counters drv_tx_marked drv_tx_compressed)
	r=$(($(tcp_stat RetransSegs) - r0))
	marked=$(delta drv_tx_marked "$m0" "$m1")
	comp=$(delta drv_tx_compressed "$m0" "$m1")
	log "  $host: $r segments retransmitted, $marked frames marked, $comp compressed"
	[ "$marked" -gt 0 ] || fail "no frame marked"
	[ "$comp" -eq "$marked" ] || fail "$marked frames marked, only $comp compressed"
	[ "$(jfield server_within_bound "$OUT")" = true ] || fail "bound not held"
	retrans=$((retrans + r))
done
[ "$retrans" -gt 0 ] || fail "no segment was retransmitted: is the link lossy (LOSS)?"
dmesg_clean || fail "kernel warnings"
exit 0
