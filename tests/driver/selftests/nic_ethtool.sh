#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ethtool: ring sizes get/set (bad sizes refused), coalescing get/set,
# statistics with the NIC's compression counters and the driver's, the
# IEEE 802.3 MAC statistics, link settings, the register dump; the MAC
# address changed while up; the NIC's loopback; devlink's info and health
# reporter.
. ./lib.sh

# macstat NAME: a counter of ethtool -S $IF --groups eth-mac
macstat() {
	ethtool -S "$IF" --groups eth-mac | sed -n "s/^ *eth-mac-$1: //p"
}

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
f0=$(macstat FramesTransmittedOK)
ping -c 3 -W 5 "$PEER4" >/dev/null || fail ping
ethtool -S "$IF" --groups eth-mac || fail "ethtool -S --groups eth-mac"
f1=$(macstat FramesTransmittedOK)
[ -n "$f0" ] && [ -n "$f1" ] || fail "ethtool -S --groups eth-mac: no FramesTransmittedOK"
[ "$f1" -ge $((f0 + 3)) ] || fail "FramesTransmittedOK $f0 -> $f1 after 3 pings"

# link settings: the speed from LINK_SPEED (incsim's wire rate, 100 Gbit/s)
ethtool "$IF" | tee /tmp/l || fail "ethtool $IF"
grep -q '^[[:space:]]*Speed: 100000Mb/s' /tmp/l || fail "ethtool: speed not 100000Mb/s"
grep -q '^[[:space:]]*Duplex: Full' /tmp/l || fail "ethtool: duplex not full"
grep -q 'Link detected: yes' /tmp/l || fail "ethtool: link not detected"

# the register dump: (offset, value) pairs, MAGIC "INC1" at offset 0
regs >/tmp/d || fail "ethtool -d"
sed 's/^/  /' /tmp/d
[ -s /tmp/d ] && ! grep -q odd /tmp/d || fail "ethtool -d: not (offset, value) pairs"
grep -qx '0x00000000 0x31434e49' /tmp/d || fail "ethtool -d: no MAGIC 0x31434e49 at offset 0x0"
while read -r off _; do
	[ $((off % 4)) -eq 0 ] && [ $((off)) -lt 4096 ] || fail "ethtool -d: offset $off"
done </tmp/d

# the MAC address changes while up (IFF_LIVE_ADDR_CHANGE): the NIC's MAC_LO
# and MAC_HI take it, the peer still answers (the kernel ARPs again, which
# also updates the peer's entry), and again with the old one back
mac0=$(cat "/sys/class/net/$IF/address")
ip link set "$IF" address 02:11:22:33:44:55 || fail "ip link set $IF address while up"
[ "$(cat "/sys/class/net/$IF/address")" = 02:11:22:33:44:55 ] || fail "MAC not changed"
regs >/tmp/d
grep -qx '0x00000108 0x33221102' /tmp/d && grep -qx '0x0000010c 0x00005544' /tmp/d ||
	fail "MAC_LO/MAC_HI do not hold 02:11:22:33:44:55"
ping -c 3 -W 5 "$PEER4" || fail "ping with MAC 02:11:22:33:44:55"
ip link set "$IF" address "$mac0" || fail "ip link set $IF address $mac0"
[ "$(cat "/sys/class/net/$IF/address")" = "$mac0" ] || fail "MAC not restored"
ping -c 3 -W 5 "$PEER4" || fail "ping with MAC $mac0 back"

# NETIF_F_LOOPBACK (CTRL.LOOPBACK): TX frames turn back to RX inside the
# NIC, compressed on the way out and restored on the way in
ethtool -k "$IF" | grep -q '^loopback: off$' || fail "no loopback feature"
c0=$(counters rx_frames rx_decomp_frames tx_comp_frames)
ethtool -K "$IF" loopback on || fail "ethtool -K loopback on"
regs | grep -qx '0x00000100 0x00000007' || fail "CTRL has no LOOPBACK bit"
/kselftest/inceptionn/forge marked-udp "$PEER4" 9 30 >/dev/null || fail "marked UDP in loopback"
sleep 1
c1=$(counters rx_frames rx_decomp_frames tx_comp_frames)
ethtool -K "$IF" loopback off || fail "ethtool -K loopback off"
regs | grep -qx '0x00000100 0x00000003' || fail "CTRL still has LOOPBACK"
log "  loopback: rx_frames +$(delta rx_frames "$c0" "$c1"), compressed +$(delta tx_comp_frames "$c0" "$c1"), restored +$(delta rx_decomp_frames "$c0" "$c1")"
[ "$(delta rx_decomp_frames "$c0" "$c1")" -ge 30 ] || fail "loopback: marked frames not restored on RX"
ping -c 2 -W 5 "$PEER4" >/dev/null || fail "ping after loopback off"

# devlink: driver and register map version, the health reporter "tx"
dl=pci/$(basename "$(readlink "/sys/class/net/$IF/device")")
devlink dev info "$dl" | tee /tmp/i || fail "devlink dev info $dl"
grep -q '^[[:space:]]*driver inceptionn$' /tmp/i || fail "devlink dev info: driver"
grep -q '^[[:space:]]*fw\.regmap 1\.[0-9]' /tmp/i || fail "devlink dev info: no fw.regmap 1.x"
devlink health show | tee /tmp/h || fail "devlink health show"
sed -n "\|^$dl:|,\|^[^[:space:]]|p" /tmp/h | grep -q '^[[:space:]]*reporter tx$' ||
	fail "devlink health show: no reporter tx for $dl"
devlink health show "$dl" reporter tx | grep -q 'state healthy' ||
	fail "devlink health: reporter tx not healthy"
dmesg_clean || fail "kernel warnings"
exit 0
