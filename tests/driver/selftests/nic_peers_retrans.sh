#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A peer without an inceptionn NIC whose ICMP errors are filtered (the
# plain guest with net.ipv4.icmp_msgs_per_sec 0 and icmp_ratelimit 1000 s
# sends none): compressed
# segments vanish without an answer, and after INC_PLAIN_RETRANS
# retransmissions of the same segment the driver sends it plain, and the
# peer's following frames too (a "retrans" entry of eth1's table). The
# transfer completes with exact data instead of stalling forever.
. ./lib.sh
KO=/lib/modules/inceptionn.ko
[ -r "$GRAD" ] || skip "no gradient file (../shared/gradients)"

rmmod inceptionn || fail "rmmod"
insmod $KO || fail "insmod"
setup_if || fail "$IF did not come up"
setup_plain_if || fail "$PLAIN_IF did not come up"
wait_for 60 ping -c 1 -W 2 "$PLAIN4" || fail "the plain guest does not answer"
remote() { printf '%s\nexit\n' "$*" | nc "$PLAIN4" 7800; }
# no more ICMP errors: no new credit (icmp_msgs_per_sec), and the credit
# left, up to a burst of 50, used up by the per-destination limit
# (icmp_ratelimit, in ms: 1000 s between errors to one host)
remote "echo 0 >/proc/sys/net/ipv4/icmp_msgs_per_sec; echo 1000000 >/proc/sys/net/ipv4/icmp_ratelimit" ||
	fail "cannot silence the plain guest's ICMP"
D1=$(dbgdir "$PLAIN_IF")
IF=$PLAIN_IF

r0=$(stat drv_tx_plain_retrans)
xfer "$PLAIN4" tcp --mark 10 sparse
r1=$(stat drv_tx_plain_retrans)
remote "echo 1000 >/proc/sys/net/ipv4/icmp_msgs_per_sec; echo 1000 >/proc/sys/net/ipv4/icmp_ratelimit"
[ "$(jfield server_crc_match "$OUT")" = true ] || fail "TCP data differs at the plain peer"
log "  segments sent plain after retransmissions: $((r1 - r0)), then plain to the peer: $DPLAIN"
[ $((r1 - r0)) -gt 0 ] || fail "no segment was sent plain after retransmissions"
grep -q "^::ffff:$PLAIN4 retrans " "$D1/peers" || fail "no retrans entry: $(cat "$D1/peers")"
sed 's/^/  /' "$D1/peers"
dmesg_clean || fail "kernel warnings"
exit 0
