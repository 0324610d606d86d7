#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# iperf3 between the two hosts, no marking: TCP both ways, UDP.
. ./lib.sh

for args in "" "-R" "-u -b 5M"; do
	# shellcheck disable=SC2086
	out=$(iperf3 -c "$PEER4" -t 4 $args -f m 2>&1) || { echo "$out"; fail "iperf3 $args"; }
	echo "$out" | grep -E 'sender|receiver' | sed "s/^/  iperf3 $args: /"
	echo "$out" | grep -q 'receiver' || fail "iperf3 $args: no result"
done
dmesg_clean || fail "kernel warnings"
exit 0
