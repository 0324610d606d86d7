#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The management firmware (docs/firmware.md, "The driver"): loaded at probe
# from /lib/firmware/inceptionn/inceptionn-fw.bin (the initramfs carries
# build/firmware/inceptionn-fw.bin there), its version in dmesg, ethtool -i
# and devlink; FW_HEARTBEAT advancing (ethtool -d); the boot self-test
# (FW_STATUS SELFTEST_PASS, FW_SELFTEST every set the NIC has) and ethtool
# -t's (PASS through the engine test port, its vector counts the image's:
# fw_vectors.env, written by run-driver.sh from the generated table);
# the watchdog (debugfs fw_halt: "firmware heartbeat stopped", ethtool -i
# "dead", the NIC passes traffic); a corrupt image (one clear message,
# firmware-version "none", traffic), then the good one again.
. ./lib.sh
KO=/lib/modules/inceptionn.ko

f=$(features)
[ -n "$f" ] || fail "no FEATURES in ethtool -d"
[ $(((f >> MGMT_BIT) & 1)) -eq 1 ] || skip "the NIC has no management block (FEATURES $f)"
[ -r "$FW" ] || fail "$FW missing from the guest"

# the image's version: header bytes 8..11, little-endian
want=$(fw_image_version)
log "image $FW: firmware $want"

pci=$(pci_of "$IF")

reload() {
	rmmod_retry || fail "rmmod ($1)"
	insmod $KO || fail "insmod ($1)"
	setup_if || fail "setup after insmod ($1)"
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

# the boot self-test and ethtool -t: every vector set the NIC has (paper
# and sparse, width with FEATURES bit 12) runs through the engine test port
# and passes; the vectors run are the image's
[ $(((f >> TPORT_BIT) & 1)) -eq 1 ] || fail "FEATURES $f: no engine test port (bit 14)"
. ./fw_vectors.env || fail "fw_vectors.env missing"
if [ $(((f >> WIDTH_BIT) & 1)) -eq 1 ]; then
	sets=6 bits=0x3f3f nvec=$FW_VECTORS
else
	sets=4 bits=0x0f0f nvec=$((FW_VECTORS - FW_WIDTH_VECTORS))
fi
st=$(reg 0x00000510)
[ $((st & 6)) -eq 6 ] || fail "FW_STATUS $st: SELFTEST_DONE and SELFTEST_PASS not both set"
b=$(reg 0x0000051c)
[ $((b)) -eq $((bits)) ] || fail "FW_SELFTEST $b after boot, not $bits"
ethtool -t "$IF" >/tmp/t 2>&1
sed 's/^/  /' /tmp/t
grep -q 'The test result is PASS' /tmp/t || fail "ethtool -t: not PASS"
grep -q 'fw mailbox (0 ok)[[:space:]]*0$' /tmp/t || fail "ethtool -t: the mailbox failed"
grep -q 'codec sets not run[[:space:]]*0$' /tmp/t || fail "ethtool -t: sets not run"
grep -q 'codec sets failed[[:space:]]*0$' /tmp/t || fail "ethtool -t: sets failed"
dmesg | grep "$IF: self-test" | tail -1 | sed 's/^/  /'
dmesg | grep "$IF: self-test" | tail -1 |
	grep -q "codec vector sets run $sets of the NIC's $sets, failed 0 (FW_SELFTEST $bits, $nvec vectors run, 0 failed)" ||
	fail "dmesg: not '$sets of $sets sets, $nvec vectors (the image's) run, 0 failed'"
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
