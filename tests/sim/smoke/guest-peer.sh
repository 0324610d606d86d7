#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of the link peer of the ICMP smoke scenario (tests/sim/run-smoke.sh):
# a plain guest whose virtio-net eth0 is 10.0.0.2/24, so that its kernel
# answers ARP and ICMP echo requests. It runs until the runner stops it,
# printing eth0's packet counts when they change.
echo "1..1"
if ip addr add 10.0.0.2/24 dev eth0 && ip link set eth0 up; then
	echo "ok 1 - eth0 up as 10.0.0.2 ($(cat /sys/class/net/eth0/address))"
else
	echo "not ok 1 - eth0 up as 10.0.0.2"
	ip link
	exit 1
fi
s=/sys/class/net/eth0/statistics
last=
while sleep 1; do
	now="rx $(cat $s/rx_packets) tx $(cat $s/tx_packets) packets"
	[ "$now" = "$last" ] || echo "# eth0: $now"
	last=$now
done
