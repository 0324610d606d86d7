#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload and load the module repeatedly, also while iperf3 traffic and
# marked incgrad traffic (TCP and UDP) flow:
# no warning, the NIC works after every load. Runs last (it leaves the
# module loaded and configured, as it found it).
. ./lib.sh
KO=/lib/modules/inceptionn.ko

# rmmod_retry: rmmod; while an application is inside the socket option (a
# UDP mark change waits for the socket's datagrams in flight) the module is
# busy and rmmod answers EAGAIN, as for any module in use: retry for 30 s
rmmod_retry() {
	n=0
	until err=$(rmmod inceptionn 2>&1); do
		n=$((n + 1))
		if [ $n -ge 300 ]; then
			log "  rmmod still fails after 30 s: $err"
			lsmod | grep inceptionn
			return 1
		fi
		sleep 0.1
	done
	[ $n -eq 0 ] || log "  rmmod busy $n times (a socket option call in progress)"
}

reload() {
	${RMMOD:-rmmod inceptionn} || fail "rmmod $1"
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

# under marked traffic: TCP and UDP incgrad clients toggling the mark per
# message while the module (and with it the socket option) goes away
if [ -r "$GRAD" ]; then
	i=1
	while [ $i -le 2 ]; do
		incgrad client "$PEER4" "$GRAD" --port "$INCGRAD_PORT" --mark \
			--repeat 50 --timeout 20 >/dev/null 2>&1 &
		p1=$!
		incgrad client "$PEER6" "$GRAD" --port $((INCGRAD_PORT + 1)) --udp \
			--rate 1M --mark --repeat 50 --timeout 20 >/dev/null 2>&1 &
		p2=$!
		sleep 3
		RMMOD=rmmod_retry reload "under marked traffic, round $i"
		kill "$p1" "$p2" 2>/dev/null
		wait "$p1" "$p2" 2>/dev/null
		ping -c 1 -W 10 "$PEER4" >/dev/null || fail "ping after reload under marked traffic $i"
		i=$((i + 1))
	done
	log "2 reloads under marked TCP and UDP traffic: ok"
fi
dmesg_clean || fail "kernel warnings"
exit 0
