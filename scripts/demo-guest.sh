#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of one host of `make demo` (scripts/demo.sh): loads inceptionn.ko,
# brings eth0 up as 10.0.0.(H+1), then moves data around the ring of hosts,
# host H sending to host H+1 (mod N), one sender at a time: host 0 sends
# first; every other host sends once it has received from its predecessor.
#
#   1. iperf3, unmarked, for inc.iperf seconds: throughput; the sender's NIC
#      must compress nothing and the receiver's TCP must see no checksum
#      error. (iperf3 -F, which would let the receiver compare bytes, loses
#      data in iperf3 3.12 itself when a write is partial: the byte-for-byte
#      check of unmarked data is phase 3.)
#   2. incgrad, marked (INC_SO_GRADIENT, k, mode): the receiver checks every
#      header exactly and every value against the bound. In a mode the NIC
#      does not advertise (width: FEATURES bit 12, set on a 16-lane NIC of
#      register map 1.3, as incsim's, clear on an 8-lane one) the driver
#      sends the marked frames uncompressed and counts them in
#      drv_tx_plain_feature; the NIC's FEATURES word is reported so that
#      demo.sh can tell which.
#   3. incgrad, unmarked: every value exact.
#   4. ethtool -S of the NIC.
#
# Kernel command line: inc.host=H inc.hosts=N inc.k=K inc.mode=MODE
# inc.mtu=MTU inc.iperf=SECONDS. The demo file is /data/demo.f32. Output on the console:
# "DEMO: ..." progress lines, "DEMO-RESULT key=value ..." lines, one per
# transfer sent, "DEMO-STAT host=H NAME VALUE" lines, and exit status 0 only
# when every check of this host passed.

# counters, delta, jfield, wait_for, carrier_up, inc_arg, ip_of, wait_hosts:
# the driver selftests' own
. /lib/inc-lib.sh

H=$(inc_arg host)
N=$(inc_arg hosts)
K=$(inc_arg k)
MODE=$(inc_arg mode)
MTU=$(inc_arg mtu)
IPERF_T=$(inc_arg iperf)
F=/data/demo.f32
IF=eth0
NEXT=$(((H + 1) % N))
say() { echo "DEMO: host$H: $*"; }
bad=0

wait_pid() {	# wait_pid PID SECONDS: until PID exits; 1 if it did not
	t=$2
	while kill -0 "$1" 2>/dev/null; do
		[ "$t" -gt 0 ] || return 1
		sleep 1
		t=$((t - 1))
	done
	wait "$1" 2>/dev/null
	return 0
}

say "booted ($(uname -r))"
insmod /lib/modules/inceptionn.ko || { say "insmod inceptionn.ko failed"; exit 1; }
ip link set "$IF" mtu "$MTU" && ip addr add "$(ip_of "$H")/24" dev "$IF" &&
	ip link set "$IF" up || { say "cannot configure $IF"; exit 1; }
wait_for 30 carrier_up || { say "no carrier on $IF"; exit 1; }
FEAT=$(features)
say "NIC up: $(ethtool -i "$IF" | sed -n 's/^firmware-version: //p'), $(ip_of "$H"), MTU $MTU, FEATURES ${FEAT:-unreadable}"
echo "DEMO-RESULT phase=nic host=$H features=${FEAT:-none}"

# the servers this host's predecessor sends to; each serves one client
iperf3 -s -1 >/tmp/iperf-server.log 2>&1 &
IPERF_S=$!
incgrad server --once --port 7700 --verify "$F" --json --timeout 300 >/tmp/marked.json 2>/tmp/marked.err &
MARKED_S=$!
incgrad server --once --port 7702 --verify "$F" --json --timeout 300 >/tmp/plain.json 2>/tmp/plain.err &
PLAIN_S=$!

wait_hosts "$N" || { say "host$LOST does not answer"; exit 1; }
say "linked: all $N hosts answer"

# turn: wait for the predecessor to finish sending what SERVER-PID receives
turn() {
	[ "$H" -eq 0 ] && return 0
	wait_pid "$1" 600 || { say "nothing received from host$(((H + N - 1) % N))"; bad=1; }
}
# after the sending, host 0 still receives from the last host
done_receiving() {
	[ "$H" -eq 0 ] || return 0
	wait_pid "$1" 600 || { say "nothing received from host$((N - 1))"; bad=1; }
}

# ---- 1. iperf3, unmarked
CSUM0=$(awk '/^Tcp:/ { if (!n++) for (i = 1; i <= NF; i++) h[i] = $i; else for (i = 1; i <= NF; i++) if (h[i] == "InCsumErrors") print $i }' /proc/net/snmp)
turn "$IPERF_S"
say "phase 1: iperf3 to host$NEXT (unmarked)"
c0=$(counters tx_bytes tx_comp_frames)
t=0
while :; do
	out=$(iperf3 -c "$(ip_of "$NEXT")" -t "$IPERF_T" -f m 2>&1) && break
	t=$((t + 1))
	[ "$t" -lt 30 ] || { say "iperf3 failed: $out"; bad=1; break; }
	sleep 1
done
c1=$(counters tx_bytes tx_comp_frames)
mbps=$(echo "$out" | sed -n 's/.* \([0-9.]*\) Mbits\/sec.*receiver.*/\1/p' | tail -n 1)
echo "DEMO-RESULT phase=iperf3 from=$H to=$NEXT mbps=${mbps:-0}" \
	"link_bytes=$(delta tx_bytes "$c0" "$c1") comp_frames=$(delta tx_comp_frames "$c0" "$c1")"
done_receiving "$IPERF_S"
# what this host received: no TCP checksum error, no malformed frame
csum_errors() { awk '/^Tcp:/ { if (!n++) for (i = 1; i <= NF; i++) h[i] = $i; else for (i = 1; i <= NF; i++) if (h[i] == "InCsumErrors") print $i }' /proc/net/snmp; }
if [ "$(csum_errors)" = "$CSUM0" ] && [ "$(ethtool -S "$IF" | sed -n 's/^ *rx_drop_malformed: //p')" = 0 ]; then
	echo "DEMO-RESULT phase=iperf3-recv host=$H exact=yes csum_errors=0"
else
	echo "DEMO-RESULT phase=iperf3-recv host=$H exact=no csum_errors=$(($(csum_errors) - CSUM0))"
	bad=1
fi

# xfer PHASE PORT MARK-OPTIONS...: incgrad to the next host
xfer() {
	phase=$1 port=$2
	shift 2
	say "phase $phase: incgrad to host$NEXT ($*)"
	c0=$(counters tx_bytes drv_tx_bytes tx_comp_frames tx_bytes_saved drv_tx_plain_feature)
	t=0
	while :; do
		out=$(incgrad client "$(ip_of "$NEXT")" "$F" --port "$port" "$@" \
			--json --timeout 300 2>/dev/null)
		rc=$?
		# the next host's server may not listen yet
		echo "$out" | grep -q '"reason":"cannot connect' || break
		t=$((t + 1))
		[ "$t" -lt 60 ] || break
		sleep 1
	done
	c1=$(counters tx_bytes drv_tx_bytes tx_comp_frames tx_bytes_saved drv_tx_plain_feature)
	echo "DEMO-RESULT phase=$phase from=$H to=$NEXT rc=$rc" \
		"result=$(jfield result "$out") verdict=$(jfield server_result "$out")" \
		"mbps=$(jfield server_throughput_mbps "$out")" \
		"payload=$(jfield payload_bytes "$out") written=$(jfield bytes_written "$out")" \
		"link_bytes=$(delta tx_bytes "$c0" "$c1") host_bytes=$(delta drv_tx_bytes "$c0" "$c1")" \
		"comp_frames=$(delta tx_comp_frames "$c0" "$c1") saved=$(delta tx_bytes_saved "$c0" "$c1")" \
		"plain_feature=$(delta drv_tx_plain_feature "$c0" "$c1")" \
		"max_err=$(jfield server_max_abs_err "$out") crc_match=$(jfield server_crc_match "$out")" \
		"not_exact=$(jfield server_not_exact "$out") reason=$(jfield reason "$out" | tr ' ' '_')"
	[ "$rc" -eq 0 ] && [ "$(jfield server_result "$out")" = pass ] || bad=1
}

# ---- 2. incgrad, marked
turn "$MARKED_S"
xfer marked 7700 --mark --k "$K" --mode "$MODE"
done_receiving "$MARKED_S"
# ---- 3. incgrad, unmarked
turn "$PLAIN_S"
xfer unmarked 7702 --no-mark
done_receiving "$PLAIN_S"
for s in marked plain; do
	[ -s /tmp/$s.json ] || { say "the $s server reported nothing: $(cat /tmp/$s.err)"; bad=1; }
done

# ---- 4. counters
ethtool -S "$IF" | sed -n 's/^ *\([a-z0-9_]*\): \([0-9]*\)$/DEMO-STAT host='"$H"' \1 \2/p'
dmesg | grep -E 'WARNING:|BUG:|Oops' && { say "kernel warnings"; bad=1; }
say "done ($([ "$bad" -eq 0 ] && echo "all checks passed" || echo "A CHECK FAILED"))"
exit "$bad"
