#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A marked sender toward a peer without an inceptionn NIC (the plain guest,
# virtio-net, on the link of eth1): the peer's kernel drops the first
# compressed frames (an unknown IP protocol) and answers with ICMP; from
# then on the driver sends that peer's frames uncompressed. The peer never
# gets an altered value: every value it receives is exact. Also through a
# VLAN on that link.
. ./lib.sh
[ -r "$GRAD" ] || skip "no gradient file (../shared/gradients)"
setup_plain_if || fail "$PLAIN_IF did not come up"
wait_for 60 ping -c 1 -W 2 "$PLAIN4" || fail "the plain guest does not answer"
wait_for 30 ping -c 1 -W 2 "$PLAIN6" || fail "the plain guest does not answer on IPv6"
IF=$PLAIN_IF

plain_total=0
for host in "$PLAIN4" "$PLAIN6"; do
	for proto in tcp udp; do
		xfer "$host" "$proto" --mark 10 sparse
		[ "$(jfield server_not_exact "$OUT")" = 0 ] ||
			fail "the plain peer received altered values"
		if [ "$proto" = tcp ]; then
			[ "$(jfield server_crc_match "$OUT")" = true ] ||
				fail "TCP data differs at the plain peer"
		fi
		plain_total=$((plain_total + DPLAIN))
	done
done
[ "$plain_total" -gt 0 ] || fail "the driver never sent plain to the peer"

# the same peer through a VLAN on that link: learned from its ICMP answer
# inside the VLAN tag too, TCP recovers
V=$PLAIN_IF.$PLAIN_VLAN
[ -d /sys/class/net/$V ] || vconfig add "$PLAIN_IF" "$PLAIN_VLAN" >/dev/null ||
	fail "cannot add VLAN $PLAIN_VLAN"
ip addr replace "$PLAIN_VLAN_SELF4/24" dev "$V" && ip link set "$V" up ||
	fail "cannot set up $V"
wait_for 30 ping -c 1 -W 2 "$PLAIN_VLAN4" || fail "no answer through VLAN $PLAIN_VLAN"
xfer "$PLAIN_VLAN4" tcp --mark 10 sparse
[ "$(jfield server_crc_match "$OUT")" = true ] || fail "VLAN: TCP data differs at the plain peer"
[ "$DPLAIN" -gt 0 ] || fail "VLAN: the driver never sent plain to the peer"
dmesg | grep -i 'inceptionn' | grep -i 'peer' | sed 's/^/  /'
dmesg_clean || fail "kernel warnings"
exit 0
