#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unmarked iperf3 throughput to the peer, for scripts/bench-driver.sh (not
# in the test list): TCP each way, 10 s each. Prints
# "bench: tcp_tx MBITS tcp_rx MBITS".
. ./lib.sh
secs=10
wait_for 60 ping -c 1 -W 2 "$PEER4" || fail "the peer does not answer"
rate() {
	# shellcheck disable=SC2086
	out=$(iperf3 -c "$PEER4" -t "$secs" $1 -f m 2>&1) || { echo "$out"; fail "iperf3 $1"; }
	echo "$out" | sed -n 's/.* \([0-9.]*\) Mbits\/sec.*receiver$/\1/p' | tail -1
}
tx=$(rate "")
rx=$(rate -R)
[ -n "$tx" ] && [ -n "$rx" ] || fail "no iperf3 result"
echo "bench: tcp_tx $tx tcp_rx $rx"
exit 0
