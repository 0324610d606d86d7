#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ethtool: ring sizes get/set (bad sizes refused), coalescing get/set,
# statistics with the NIC's compression counters and the driver's.
. ./lib.sh

ethtool -g "$IF" | tee /tmp/g
grep -A2 'Pre-set maximums' /tmp/g | grep -q 'RX:[[:space:]]*4096' || fail "max RX ring 4096"
ethtool -G "$IF" rx 512 tx 128 || fail "ethtool -G rx 512 tx 128"
wait_for 30 carrier_up || fail "no carrier after -G"
ethtool -g "$IF" | grep -A5 'Current hardware' | grep -q 'RX:[[:space:]]*512' || fail "RX ring not 512"
ethtool -g "$IF" | grep -A5 'Current hardware' | grep -q 'TX:[[:space:]]*128' || fail "TX ring not 128"
ping -c 2 -W 5 "$PEER4" || fail "ping with rings 512/128"
for bad in 100 8 8192; do
	ethtool -G "$IF" rx "$bad" 2>/dev/null && fail "ethtool -G rx $bad accepted"
done
ethtool -G "$IF" rx 256 tx 256 || fail "ethtool -G back to 256"
wait_for 30 carrier_up || fail "no carrier"

ethtool -C "$IF" rx-usecs 20 rx-frames 8 tx-usecs 0 tx-frames 4 || fail "ethtool -C"
ethtool -c "$IF" | tee /tmp/c
grep -q '^rx-usecs:[[:space:]]*20' /tmp/c && grep -q '^rx-frames:[[:space:]]*8' /tmp/c &&
	grep -q '^tx-frames:[[:space:]]*4' /tmp/c || fail "coalescing not read back"
ping -c 3 -W 5 "$PEER4" || fail "ping with coalescing"
ethtool -C "$IF" rx-usecs 70000 2>/dev/null && fail "rx-usecs 70000 accepted"
ethtool -C "$IF" rx-usecs 0 rx-frames 0 tx-frames 0 || fail "ethtool -C back to 0"

tx0=$(stat tx_frames)
ping -c 3 -W 5 "$PEER4" >/dev/null || fail ping
tx1=$(stat tx_frames)
ethtool -S "$IF"
[ "$tx1" -ge $((tx0 + 3)) ] || fail "NIC tx_frames $tx0 -> $tx1 after 3 pings"
for s in tx_comp_frames tx_bytes_saved rx_decomp_frames rx_drop_malformed drv_tx_marked drv_rx_restored; do
	[ -n "$(stat $s)" ] || fail "ethtool -S has no $s"
done
dmesg_clean || fail "kernel warnings"
exit 0
