#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload and load the module repeatedly, also while iperf3 traffic flows:
# no warning, the NIC works after every load. Runs last (it leaves the
# module loaded and configured, as it found it).
. ./lib.sh
KO=/lib/modules/inceptionn.ko

reload() {
	rmmod inceptionn || fail "rmmod $1"
	[ ! -e /sys/class/net/$IF ] || fail "$IF still there after rmmod"
	insmod $KO || fail "insmod $1"
	setup_if || fail "setup after insmod $1"
}

i=1
while [ $i -le 5 ]; do
	reload "round $i"
	ping -c 1 -W 10 "$PEER4" >/dev/null || fail "ping after reload $i"
	i=$((i + 1))
done
log "5 reloads idle: ok"

i=1
while [ $i -le 3 ]; do
	iperf3 -c "$PEER4" -t 30 >/dev/null 2>&1 &
	pid=$!
	sleep 3
	reload "under traffic, round $i"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	ping -c 1 -W 10 "$PEER4" >/dev/null || fail "ping after reload under traffic $i"
	i=$((i + 1))
done
log "3 reloads under iperf3 traffic: ok"
dmesg_clean || fail "kernel warnings"
exit 0
