#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Real gradients over UDP between the two NICs, IPv4 and IPv6: marked, the
# server gets every datagram (headers exact, values within 2^-k), and fewer
# bytes cross the link than the application wrote; unmarked, every byte
# exact and nothing compressed. UDP may lose a datagram under the simulator
# (a receiving guest that is not scheduled in time finds its RX ring
# without buffers; a neighbour resolution that times out): a lost datagram
# must be counted as dropped by one of the two hosts (the NIC's drop
# counters in rx_dropped, socket, queue and neighbour-queue counters;
# incgrad reports them), or a failed address resolution on the sender
# must explain it (the kernel drops what was queued for it without
# counting each packet); at least half the messages must arrive. Every
# datagram that arrives is checked. Packets the server's IP layer refused
# are reported, not taken as an explanation: a frame the NIC restored with
# a bad header would show there.
. ./lib.sh
[ -r "$GRAD" ] || skip "no gradient file (../shared/gradients)"

few_lost() {
	lost=$(jfield server_lost "$OUT")
	n=$(jfield messages "$OUT")
	rxd=$(jfield server_host_drops "$OUT")
	txd=$(jfield host_tx_drops "$OUT")
	nf=$(jfield host_neigh_failed "$OUT")
	ipe=$(jfield server_ip_errors "$OUT")
	[ "$lost" = 0 ] && return 0
	log "  $lost of $n messages (2 datagrams each) lost; packets dropped:" \
		"$rxd counted at the server's host, $txd at the sender's;" \
		"$nf failed address resolutions at the sender;" \
		"$ipe refused by the server's IP layer"
	case "$rxd$txd$nf" in
	*[!0-9]*) fail "drop counters missing (server $rxd, sender $txd, $nf)" ;;
	esac
	if [ "$lost" -gt $((rxd + txd)) ] && [ "$nf" -eq 0 ]; then
		ip neigh show dev "$IF"
		ethtool -S "$IF" | grep -E 'drop|err'
		fail "$lost of $n messages lost, only $((rxd + txd)) packets counted as dropped"
	fi
	[ $((lost * 2)) -le "$n" ] || fail "$lost of $n messages lost (over half)"
}

for host in "$PEER4" "$PEER6"; do
	for km in "10 sparse" "8 paper"; do
		# shellcheck disable=SC2086
		set -- $km
		xfer "$host" udp --mark "$1" "$2"
		[ "$(jfield marked "$OUT")" = true ] || fail "not marked"
		few_lost
		[ "$DCOMP" -gt 0 ] || fail "no frame was compressed"
		pay=$(jfield payload_bytes "$OUT")
		[ "$DTX" -lt "$pay" ] ||
			fail "$DTX bytes on the link for $pay bytes of gradients"
		[ "$DTX" -lt "$DHOST" ] || fail "link $DTX >= host $DHOST bytes"
	done
	xfer "$host" udp --no-mark 10 sparse
	few_lost
	if [ "$(jfield server_lost "$OUT")" = 0 ]; then
		[ "$(jfield server_crc_match "$OUT")" = true ] || fail "unmarked: CRC differs"
	fi
	[ "$(jfield server_not_exact "$OUT")" = 0 ] || fail "unmarked: values differ"
	[ "$DCOMP" -eq 0 ] || fail "unmarked: $DCOMP frames compressed"
done
dmesg_clean || fail "kernel warnings"
exit 0
