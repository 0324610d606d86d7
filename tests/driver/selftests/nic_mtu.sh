#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# MTU: 9000 works end to end (the peer's is 9000), 9001 and 67 are refused,
# back to 1500.
. ./lib.sh

ip link set "$IF" mtu 9001 2>/dev/null && fail "MTU 9001 accepted"
ip link set "$IF" mtu 67 2>/dev/null && fail "MTU 67 accepted"
ip link set "$IF" mtu 9000 || fail "MTU 9000"
wait_for 30 carrier_up || fail "no carrier at MTU 9000"
ping -c 2 -W 10 -s 8900 "$PEER4" || fail "ping -s 8900 at MTU 9000"
ip link set "$IF" mtu 1500 || fail "MTU 1500"
wait_for 30 carrier_up || fail "no carrier at MTU 1500"
ping -c 2 -W 10 -s 1400 "$PEER4" || fail "ping -s 1400 at MTU 1500"
dmesg_clean || fail "kernel warnings"
exit 0
