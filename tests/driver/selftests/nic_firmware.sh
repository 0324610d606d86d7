#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The management firmware (docs/firmware.md, "The driver"): loaded at probe
# from /lib/firmware/inceptionn/inceptionn-fw.bin (the initramfs carries
# build/firmware/inceptionn-fw.bin there), its version in dmesg, ethtool -i
# and devlink; FW_HEARTBEAT advancing (ethtool -d); ethtool -t's result
# (FAIL: the codec vector sets do not run, the NIC has no engine test port);
# the watchdog (debugfs fw_halt: "firmware heartbeat stopped", ethtool -i
# "dead", the NIC passes traffic); a corrupt image (one clear message,
# firmware-version "none", traffic), then the good one again.
. ./lib.sh
KO=/lib/modules/inceptionn.ko
FW=/lib/firmware/inceptionn/inceptionn-fw.bin
MGMT_BIT=13	# INC_FEAT_MGMT, include/hw/inc_nic_regs.h

f=$(features)
[ -n "$f" ] || fail "no FEATURES in ethtool -d"
[ $(((f >> MGMT_BIT) & 1)) -eq 1 ] || skip "the NIC has no management block (FEATURES $f)"
[ -r "$FW" ] || fail "$FW missing from the guest"

# the image's version: header bytes 8..11, little-endian
v=$(od -An -tu4 -j8 -N4 "$FW" | tr -d ' ')
want="$((v >> 16)).$(((v >> 8) & 0xff)).$((v & 0xff))"
log "image $FW: firmware $want"

reg() { regs | sed -n "s/^$1 //p"; }
fwver() { ethtool -i "$IF" | sed -n 's/^firmware-version: //p'; }
pci=$(basename "$(readlink -f "/sys/class/net/$IF/device")")

reload() {
	rmmod_retry || fail "rmmod ($1)"
	insmod $KO || fail "insmod ($1)"
	setup_if || fail "setup after insmod ($1)"
}

# the probe starts the firmware; READY comes later (seconds on incsim)
running() { dmesg | grep -c "$pci: firmware v$want (build [0-9a-f]\{8\}) running"; }
# wait_running N: until more than N "running" messages (150 s)
wait_running() {
	local n=0
	while [ "$(running)" -le "$1" ]; do
		n=$((n + 1))
		[ $n -le 150 ] || return 1
		sleep 1
	done
}
# this load's firmware (earlier tests may have reloaded the module)
n=0
while [ "$(fwver)" = starting ]; do
	n=$((n + 1))
	[ $n -le 150 ] || fail "ethtool -i firmware-version still 'starting' after 150 s"
	sleep 1
done
wait_running 0 || fail "dmesg: no 'firmware v$want (build ...) running' for $pci"
dmesg | grep "$pci: firmware" | sed 's/^/  /'
fv=$(fwver)
log "ethtool -i firmware-version: $fv"
case $fv in
"$want build "????????) ;;
*) fail "ethtool -i firmware-version '$fv', not '$want build XXXXXXXX'" ;;
esac
st=$(reg 0x00000510)
log "FW_STATUS $st"
[ $((st & 1)) -eq 1 ] || fail "FW_STATUS $st: not READY"
# +1 a firmware millisecond: 250000 clocks, seconds of incsim's time
h1=$(reg 0x00000518)
n=0
while :; do
	sleep 1
	n=$((n + 1))
	h2=$(reg 0x00000518)
	[ $((h2)) -gt $((h1)) ] && break
	[ $n -lt 60 ] || fail "FW_HEARTBEAT does not advance in 60 s ($h1, $h2)"
done
log "FW_HEARTBEAT $h1, $n s later $h2"
devlink dev info "pci/$pci" | tee /tmp/i | sed 's/^/  /'
grep -q "^[[:space:]]*fw $want\$" /tmp/i || fail "devlink dev info: no running fw $want"

# ethtool -t: the mailbox works (0), the six codec vector sets do not run
# (no engine test port): the result is FAIL, not a pass for nothing run
ethtool -t "$IF" >/tmp/t 2>&1
sed 's/^/  /' /tmp/t
grep -q 'The test result is FAIL' /tmp/t || fail "ethtool -t: not FAIL"
grep -q 'fw mailbox (0 ok)[[:space:]]*0$' /tmp/t || fail "ethtool -t: the mailbox failed"
grep -q 'codec sets not run (of 6)[[:space:]]*6$' /tmp/t || fail "ethtool -t: sets not run is not 6"
dmesg | grep -q "self-test: codec vector sets run 0 of 6.*no engine test port" ||
	fail "dmesg: no self-test message"
ping -c 2 -W 5 "$PEER4" >/dev/null || fail "ping after ethtool -t"

# the watchdog: the core halted behind the driver's back (500 ms of the
# NIC's time: on incsim its clock count, which goes on while the core is
# halted, at 1 NIC ms per 100 wall ms when nothing else runs: about 50 s)
echo 1 >"$(dbgdir "$IF")/fw_halt" || fail "debugfs fw_halt"
n=0
until dmesg | grep -q "$pci.*firmware heartbeat stopped"; do
	n=$((n + 1))
	[ $n -le 150 ] || fail "no 'firmware heartbeat stopped' 150 s after the halt"
	sleep 1
done
log "heartbeat stop seen after about $n s"
dmesg | grep "firmware heartbeat stopped" | sed 's/^/  /'
# counted in the NIC's time: at least the 500 ms
nicms=$(dmesg | sed -n "s/.*$pci.*firmware heartbeat stopped: FW_HEARTBEAT [0-9]* for \([0-9]*\) ms of the NIC's time.*/\1/p" | head -1)
[ -n "$nicms" ] && [ "$nicms" -ge 500 ] ||
	fail "heartbeat stop not after 500 ms of the NIC's time ('${nicms:-no count}' ms)"
[ "$(dmesg | grep -c "$pci.*firmware heartbeat stopped")" -eq 1 ] || fail "heartbeat stop logged more than once"
fv=$(fwver)
[ "$fv" = "$want dead" ] || fail "ethtool -i firmware-version '$fv' after the stop, not '$want dead'"
ethtool -t "$IF" >/tmp/t 2>&1
grep -q 'fw mailbox (0 ok)[[:space:]]*1$' /tmp/t || fail "ethtool -t: the mailbox of a dead firmware did not fail"
ping -c 2 -W 5 "$PEER4" >/dev/null || fail "ping with the firmware dead"

# a corrupt image: a payload byte flipped
cp "$FW" /tmp/fw.good
b=$(od -An -tu1 -j100 -N1 "$FW" | tr -d ' ')
{
	dd if=/tmp/fw.good bs=1 count=100 2>/dev/null
	printf "\\$(printf %o $((b ^ 0xff)))"
	dd if=/tmp/fw.good bs=1 skip=101 2>/dev/null
} >"$FW"
cmp -s "$FW" /tmp/fw.good && fail "the corrupt copy equals the image"
r0=$(running)
reload "corrupt image"
dmesg | grep "firmware" | tail -4 | sed 's/^/  /'
dmesg | grep -q "$pci: firmware inceptionn/inceptionn-fw.bin: bad payload CRC-32.*running without firmware" ||
	fail "no bad payload CRC message for $pci"
fv=$(fwver)
[ "$fv" = none ] || fail "ethtool -i firmware-version '$fv' with a corrupt image, not none"
st=$(reg 0x00000500)
[ $((st & 1)) -eq 1 ] || fail "MGMT_CTRL $st: the core is not halted"
ping -c 2 -W 10 "$PEER4" >/dev/null || fail "ping without firmware"

[ "$(running)" -eq "$r0" ] || fail "a corrupt image ran"
cp /tmp/fw.good "$FW"
reload "good image again"
wait_running "$r0" || fail "the good image did not run again"
case $(fwver) in
"$want build "????????) ;;
*) fail "ethtool -i firmware-version '$(fwver)' after the reload" ;;
esac
ping -c 2 -W 10 "$PEER4" >/dev/null || fail "ping after the reload"
dmesg_clean || fail "kernel warnings"
exit 0
