#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A faulty codec engine caught by the firmware's self-test (docs/firmware.md,
# "The self-test"): the main guest's second NIC (eth1, toward the plain
# guest) runs on an incsim started with --fault engine-rx (run-driver.sh):
# its decompressors flip bit 0 of every beat they output, for frames and
# for the engine test port alike. The boot self-test fails the decompress
# sets and dmesg names them; ethtool -t FAILs naming them again, with the
# first failure; SELFTEST_PASS is clear; and the netdev still passes plain
# (unmarked) traffic, which no decompressor touches.
. ./lib.sh
KO=/lib/modules/inceptionn.ko

IF=$PLAIN_IF
[ -d "/sys/class/net/$IF" ] || skip "no $IF (run-driver.sh's plain link)"
f=$(features)
[ -n "$f" ] || fail "no FEATURES in ethtool -d of $IF"
[ $(((f >> MGMT_BIT) & 1)) -eq 1 ] && [ $(((f >> TPORT_BIT) & 1)) -eq 1 ] ||
	skip "$IF's NIC has no firmware or no engine test port (FEATURES $f)"
pci=$(pci_of "$IF")

# the decompress sets the NIC has: paper, sparse (and width)
if [ $(((f >> WIDTH_BIT) & 1)) -eq 1 ]; then
	names="paper decompress, sparse decompress, width decompress"
	bits=0x3f15 nbad=3
else
	names="paper decompress, sparse decompress"
	bits=0x0f05 nbad=2
fi

# the firmware boots (seconds on incsim), its self-test fails at boot
n=0
until dmesg | grep -q "$pci: firmware v.* running"; do
	n=$((n + 1))
	[ $n -le 150 ] || fail "no firmware running on $pci after 150 s"
	sleep 1
done
dmesg | grep "$pci: firmware" | sed 's/^/  /'
dmesg | grep -q "$pci: firmware boot self-test FAILED (FW_SELFTEST $bits): $names\$" ||
	fail "dmesg: no boot self-test failure naming '$names' (FW_SELFTEST $bits) for $pci"
st=$(reg 0x00000510)
log "FW_STATUS $st, FW_SELFTEST $(reg 0x0000051c)"
[ $((st & 7)) -eq 3 ] || fail "FW_STATUS $st: not READY and SELFTEST_DONE with SELFTEST_PASS clear"

# ethtool -t: FAIL, the failed sets named in the log with the first failure
ethtool -t "$IF" >/tmp/t 2>&1
sed 's/^/  /' /tmp/t
grep -q 'The test result is FAIL' /tmp/t || fail "ethtool -t: not FAIL"
grep -q 'fw mailbox (0 ok)[[:space:]]*0$' /tmp/t || fail "ethtool -t: the mailbox failed"
grep -q 'codec sets not run[[:space:]]*0$' /tmp/t || fail "ethtool -t: sets not run"
grep -q "codec sets failed[[:space:]]*$nbad\$" /tmp/t || fail "ethtool -t: not $nbad sets failed"
dmesg | grep "$IF: self-test" | tail -2 | sed 's/^/  /'
dmesg | grep -q "$IF: self-test FAILED: $names (first failure: set 1 vector 0)" ||
	fail "dmesg: ethtool -t's failure does not name '$names' and the first failure"
b=$(reg 0x0000051c)
[ $((b)) -eq $((bits)) ] || fail "FW_SELFTEST $b after ethtool -t, not $bits"

# plain traffic still passes (the faulty decompressors are not on its path)
setup_plain_if || fail "$IF did not come up"
wait_for 60 ping -c 1 -W 2 "$PLAIN4" || fail "the plain guest does not answer"
ping -c 5 -s 1400 -W 5 "$PLAIN4" >/tmp/p 2>&1 || { cat /tmp/p; fail "ping -s 1400 over $IF"; }
tail -2 /tmp/p | sed 's/^/  /'
ping -6 -c 3 -W 5 "$PLAIN6" >/dev/null || fail "ping over IPv6 on $IF"
dmesg_clean || fail "kernel warnings"
exit 0
