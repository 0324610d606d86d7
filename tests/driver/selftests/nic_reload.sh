#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload and load the module repeatedly, also while iperf3 traffic and
# marked incgrad traffic (TCP and UDP) flow:
# no warning, the NIC works after every load. Runs last (it leaves the
# module loaded and configured, as it found it).
. ./lib.sh
KO=/lib/modules/inceptionn.ko

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
# mark=0: the NIC driver without the socket option
rmmod_retry || fail "rmmod before mark=0"
insmod $KO mark=0 || fail "insmod mark=0"
setup_if || fail "setup with mark=0"
ping -c 1 -W 10 "$PEER4" >/dev/null || fail "ping with mark=0"
err=$(/kselftest/inceptionn/forge marked-udp "$PEER4" 9 1 2>&1) &&
	fail "INC_SO_GRADIENT accepted with mark=0"
echo "$err" | grep -q "Protocol not available" || fail "mark=0: $err"
dmesg | grep -q "mark=0: no gradient socket option" || fail "no mark=0 message"
reload "after mark=0"
/kselftest/inceptionn/forge marked-udp "$PEER4" 9 1 >/dev/null || fail "no socket option after reload"
log "mark=0: the NIC works, setsockopt says ENOPROTOOPT: ok"
dmesg_clean || fail "kernel warnings"
exit 0
