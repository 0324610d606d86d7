#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Real gradients over TCP between the two NICs, IPv4 and IPv6: marked, the
# server gets every header exact and every value within 2^-k, and fewer
# bytes cross the link than the application wrote; unmarked, every byte
# exact and nothing compressed.
. ./lib.sh
[ -r "$GRAD" ] || skip "no gradient file (../shared/gradients)"

for host in "$PEER4" "$PEER6"; do
	for km in "10 sparse" "8 paper"; do
		# shellcheck disable=SC2086
		set -- $km
		xfer "$host" tcp --mark "$1" "$2"
		[ "$(jfield marked "$OUT")" = true ] || fail "not marked"
		[ "$DCOMP" -gt 0 ] || fail "no frame was compressed"
		pay=$(jfield payload_bytes "$OUT")
		[ "$DTX" -lt "$pay" ] ||
			fail "$DTX bytes on the link for $pay bytes of gradients"
		[ "$DTX" -lt "$DHOST" ] || fail "link $DTX >= host $DHOST bytes"
	done
	xfer "$host" tcp --no-mark 10 sparse
	[ "$(jfield server_crc_match "$OUT")" = true ] || fail "unmarked: CRC differs"
	[ "$(jfield server_not_exact "$OUT")" = 0 ] || fail "unmarked: values differ"
	[ "$DCOMP" -eq 0 ] || fail "unmarked: $DCOMP frames compressed"
done
dmesg_clean || fail "kernel warnings"
exit 0
