#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /test.sh of the peer guest: inceptionn.ko, eth0 as 10.0.0.2 / fd00::2
# with MTU 9000, and the servers the selftests talk to (iperf3, incgrad on
# TCP and UDP port 7700 verifying against /data/grad.f32). Runs until stopped.
. /kselftest/inceptionn/lib.sh
SELF4=$PEER4 SELF6=$PEER6 INC_MTU=9000

insmod /lib/modules/inceptionn.ko || exit 1
# the services first: once this guest answers on eth0 they listen
iperf3 -s -D
/kselftest/inceptionn/sockopt --sink 7790 >/dev/null 2>&1 &
start_incgrad_servers
wait_for 30 listening 5201 && wait_for 30 listening 7790 ||
	echo "# iperf3 or the sockopt sink does not listen"
setup_if || exit 1
while :; do sleep 3600; done
