#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /test.sh of the plain guest: no inceptionn NIC, an ordinary virtio-net
# NIC (eth0, 10.0.1.2 / fd01::2; VLAN 5 on it, 10.0.5.2) on the link of the main guest's eth1, and
# the incgrad servers. A frame the main guest's NIC compressed is an unknown
# IP protocol here: this kernel answers it with ICMP, never delivers it.
# Port 7800 runs a shell for the selftests (nc -e): test guests only.
. /kselftest/inceptionn/lib.sh
IF=eth0 SELF4=$PLAIN4 SELF6=$PLAIN6

# the services first: once this guest answers on eth0 they listen
start_incgrad_servers
# a command port for the selftests (nic_peers.sh forges ICMP from here)
nc -ll -p 7800 -e /bin/sh &
setup_if || exit 1
# and VLAN 5 on it: 10.0.5.2
vconfig add eth0 "$PLAIN_VLAN" && ip addr add "$PLAIN_VLAN4/24" dev "eth0.$PLAIN_VLAN" &&
	ip link set "eth0.$PLAIN_VLAN" up || echo "# VLAN $PLAIN_VLAN not set up"
while :; do sleep 3600; done
