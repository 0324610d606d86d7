#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The NIC probed through incsim: driver bound, ID block reported, link up,
# both address families reach the peer.
. ./lib.sh

drv=$(basename "$(readlink /sys/class/net/$IF/device/driver)")
[ "$drv" = inceptionn-sim ] || fail "$IF is bound to '$drv', not inceptionn-sim"
info=$(ethtool -i "$IF") || fail "ethtool -i"
echo "$info" | sed 's/^/  /'
echo "$info" | grep -q '^driver: inceptionn$' || fail "ethtool -i: driver"
# the management firmware's (nic_firmware.sh): running, still starting, or none
echo "$info" | grep -Eq '^firmware-version: ([0-9]+\.[0-9]+\.[0-9]+ build [0-9a-f]{8}|starting|none)$' ||
	fail "ethtool -i: firmware-version"
echo "$info" | grep -q '^bus-info: 0000:' || fail "ethtool -i: bus-info"
dmesg | grep -q "inceptionn NIC v1\.[0-9]*\.[0-9]* .* via incsim (ivshmem), MSI-X" ||
	fail "no probe message with version and MSI-X"
carrier_up || fail "no carrier"
ethtool "$IF" | grep -q 'Link detected: yes' || fail "ethtool: link not detected"
ping -c 2 -W 5 "$PEER4" || fail "ping $PEER4"
ping -6 -c 2 -W 5 "$PEER6" || fail "ping $PEER6"
grep -q "$IF" /proc/interrupts && grep "$IF" /proc/interrupts
dmesg_clean || fail "kernel warnings"
exit 0
