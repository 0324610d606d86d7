#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Width mode (mode 3, docs/codec.md section 12) over TCP, IPv4 and IPv6:
# the socket option takes it, and the driver hands width-marked frames to
# the NIC to compress only when FEATURES bit 12 (INC_FEAT_MODE_WIDTH) says
# the NIC has the mode: the 16-lane NIC does (register map 1.3), an 8-lane
# one does not. With the bit: compressed, fewer bytes on the link than
# sparse mode sends for the same file, every value within 2^-k at the
# server (incgrad's verdict), none counted plain. Without it: every
# width-marked frame leaves as it is, the server gets every byte exact,
# and the frames count in drv_tx_plain_feature. A sparse-marked transfer
# still compresses and adds nothing there.
. ./lib.sh
[ -r "$GRAD" ] || skip "no gradient file (../shared/gradients)"

feat=$(features)
[ -n "$feat" ] || fail "ethtool -d: no FEATURES word (offset 0x8)"
config=$(regs | sed -n 's/^0x0000000c //p')
[ -n "$config" ] || fail "ethtool -d: no CONFIG word (offset 0xc)"
lanes=$((config & 255))
mtu=$(cat "/sys/class/net/$IF/mtu")
WIDTH_BIT=12	# INC_FEAT_MODE_WIDTH, include/hw/inc_nic_regs.h
has_width=$((feat >> WIDTH_BIT & 1))
log "  FEATURES $feat: width mode $([ "$has_width" = 1 ] && echo advertised || echo not advertised), $lanes lanes, MTU $mtu"
# (the engines take a group of 16 values a beat: 16 lanes have the mode)
[ "$has_width" = $((lanes == 16)) ] ||
	fail "FEATURES bit 12 is $has_width on a NIC of $lanes lanes"

C="drv_tx_marked drv_tx_plain_feature drv_tx_packets tx_comp_skipped"
for host in "$PEER4" "$PEER6"; do
	# shellcheck disable=SC2086
	c0=$(counters $C)
	xfer "$host" tcp --mark 10 width
	# shellcheck disable=SC2086
	c1=$(counters $C)
	marked=$(delta drv_tx_marked "$c0" "$c1")
	plain=$(delta drv_tx_plain_feature "$c0" "$c1")
	frames=$(delta drv_tx_packets "$c0" "$c1")
	skipped=$(delta tx_comp_skipped "$c0" "$c1")
	pay=$(jfield payload_bytes "$OUT")
	log "  width: $marked frames handed to the NIC to compress, $plain plain for want of the feature, of $frames"
	[ "$(jfield marked "$OUT")" = true ] || fail "width: not marked (setsockopt mode 3 refused?)"
	[ "$(jfield mode "$OUT")" = width ] || fail "width: client mode $(jfield mode "$OUT")"
	if [ "$has_width" = 1 ]; then
		# a NIC with the feature: compressed, as nic_grad_tcp.sh checks
		# (xfer: the server's verdict, every value within 2^-k)
		[ "$DCOMP" -gt 0 ] || fail "width: no frame compressed by a NIC that advertises it"
		[ "$marked" -gt 0 ] || fail "width: nothing handed to the NIC to compress"
		[ "$DTX" -lt "$pay" ] || fail "width: $DTX bytes on the link for $pay bytes"
		[ "$plain" -eq 0 ] || fail "width: $plain frames plain on a NIC with the feature"
		[ "$skipped" -eq 0 ] || fail "width: the NIC skipped $skipped frames it was asked to compress"
		wtx=$DTX
		# the same file in sparse mode: width sends fewer bytes
		xfer "$host" tcp --mark 10 sparse
		log "  link bytes for $pay bytes of gradients: width $wtx, sparse $DTX"
		[ "$wtx" -lt "$DTX" ] || fail "width: $wtx bytes on the link, sparse $DTX"
		continue
	fi
	# arrived intact: every byte exact
	[ "$(jfield server_crc_match "$OUT")" = true ] || fail "width: CRC differs"
	[ "$(jfield server_not_exact "$OUT")" = 0 ] || fail "width: values differ"
	# uncompressed: nothing asked of the NIC, nothing compressed
	[ "$DCOMP" -eq 0 ] || fail "width: $DCOMP frames compressed"
	[ "$marked" -eq 0 ] || fail "width: $marked frames handed to the NIC to compress"
	[ "$skipped" -eq 0 ] || fail "width: the NIC skipped $skipped frames it was asked to compress"
	[ "$DTX" -ge "$pay" ] || fail "width: $DTX bytes on the link for $pay bytes of gradients"
	# counted: the frames that carried the marked bytes (each at most
	# one MTU of them; 9/10 leaves room for the frames at message edges
	# whose marked part is too short to mark)
	[ $((plain * mtu)) -ge $((pay * 9 / 10)) ] ||
		fail "width: $plain frames counted in drv_tx_plain_feature for $pay bytes"
	[ "$plain" -le "$frames" ] || fail "width: $plain plain of $frames frames"
done

# sparse, which the NIC has: compressed, and not counted as plain
# shellcheck disable=SC2086
c0=$(counters $C)
xfer "$PEER4" tcp --mark 10 sparse
# shellcheck disable=SC2086
c1=$(counters $C)
[ "$DCOMP" -gt 0 ] || fail "sparse: no frame compressed"
[ "$(delta drv_tx_plain_feature "$c0" "$c1")" -eq 0 ] ||
	fail "sparse: frames counted in drv_tx_plain_feature"
[ "$(delta drv_tx_marked "$c0" "$c1")" -gt 0 ] || fail "sparse: nothing marked"

dmesg_clean || fail "kernel warnings"
exit 0
