#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of scripts/bench-guests.sh's guests: two incsim NICs (inceptionn.ko;
# the first the RTL model's, the second the behavioral model's: the order
# of their --nic) and one virtio-net NIC each, 10.0.0.H+1, 10.0.8.H+1 and
# 10.0.9.H+1 (H = inc.host=). Host 1 serves iperf3 until stopped; host 0
# runs iperf3 TCP to host 1 and back over each NIC in turn, inc.secs=
# seconds each, and prints "bench: PATH tx MBITS rx MBITS".
. /lib/inc-lib.sh
H=$(inc_arg host)
SECS=$(inc_arg secs)
# the Nth (default 1st) interface of driver $1, in PCI order
ifname() {
	k=0
	for d in /sys/class/net/eth*; do
		[ "$(basename "$(readlink -f "$d/device/driver")")" = "$1" ] || continue
		k=$((k + 1))
		[ "$k" = "${2:-1}" ] && { basename "$d"; return 0; }
	done
	return 1
}
insmod /lib/modules/inceptionn.ko || exit 1
# the interfaces appear once their drivers have probed
wait_for 30 ifname inceptionn-sim 2 && wait_for 30 ifname virtio_net || {
	echo "# interfaces and drivers:"
	for d in /sys/class/net/*; do echo "#   $d $(readlink -f "$d/device/driver")"; done
	exit 1
}
INC=$(ifname inceptionn-sim 1)
BEH=$(ifname inceptionn-sim 2)
VIO=$(ifname virtio_net)
ip addr add "10.0.0.$((H + 1))/24" dev "$INC" && ip link set "$INC" up || exit 1
ip addr add "10.0.8.$((H + 1))/24" dev "$BEH" && ip link set "$BEH" up || exit 1
ip addr add "10.0.9.$((H + 1))/24" dev "$VIO" && ip link set "$VIO" up || exit 1
if [ "$H" != 0 ]; then
	iperf3 -s -D
	while :; do sleep 3600; done
fi

echo "1..3"
n=0
for path in "incsim 10.0.0.2" "behavioral 10.0.8.2" "virtio 10.0.9.2"; do
	set -- $path
	n=$((n + 1))
	wait_for 60 ping -c 1 -W 2 "$2" || { echo "not ok $n - $1: no answer from $2"; continue; }
	tx=$(iperf3 -c "$2" -t "$SECS" -f m 2>&1 | sed -n 's/.* \([0-9.]*\) Mbits\/sec.*receiver$/\1/p')
	rx=$(iperf3 -c "$2" -t "$SECS" -R -f m 2>&1 | sed -n 's/.* \([0-9.]*\) Mbits\/sec.*receiver$/\1/p')
	if [ -n "$tx" ] && [ -n "$rx" ]; then
		echo "# bench: $1 tx $tx rx $rx"
		echo "ok $n - $1: iperf3 both ways"
	else
		echo "not ok $n - $1: no iperf3 result"
	fi
done
