#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The driver's use of the firmware's admin commands (docs/firmware.md, "The
# driver"), in the main guest (the one whose initramfs carries the image):
#  (a) under iperf3 traffic, GET_VERSION (devlink dev info's fw.mgmt.build),
#      STATS_SNAPSHOT (ethtool -S) and GET_LINK (devlink health diagnose,
#      reporter fw) in a loop: every command answered through interrupt
#      vector 2 (its /proc/interrupts count rises by at least one per
#      command), the counters never go back between snapshots, the traffic
#      completes with no drop and no error;
#  (b) SET_MAC through the firmware (ip link set address): the MAC
#      registers, ARP and ping use the new address; a multicast address is
#      refused and changes nothing;
#  (c) the hung firmware (debugfs fw_hang: DEBUG_HANG): the command times
#      out with one message, the watchdog declares it dead once, the
#      netdev passes traffic, ethtool --reset (the whole NIC, then the
#      management core alone) boots it again;
#  (d) a firmware fault (debugfs fw_fault: DEBUG_FAULT, an EBREAK): EVENT
#      bit 2 on vector 2 ends the command at once and the firmware is
#      declared dead within seconds (not the heartbeat's 50 s), once.
# With run-driver.sh's VECTORS=2 the NIC has no vector 2: the same, with
# the mailbox polled (said once at probe) and DEBUG_FAULT timing out.
. ./lib.sh
ITER_MIN=6	# command rounds at least, while iperf3 runs (60 s; 6 to 12 s a
		# round on a loaded machine)

f=$(features)
[ -n "$f" ] || fail "no FEATURES in ethtool -d"
[ $(((f >> MGMT_BIT) & 1)) -eq 1 ] || skip "the NIC has no management block (FEATURES $f)"
[ -r "$FW" ] || fail "$FW missing from the guest"
want=$(fw_image_version)
pci=$(pci_of "$IF")
dbg=$(dbgdir "$IF")
dl=pci/$pci

dbgv() { cat "$dbg/$1"; }
# vector 2's interrupts (every CPU's column), from /proc/interrupts
irqs() {
	awk -v name="inceptionn-mgmt@$pci" '$NF == name {
		s = 0
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		print s; found = 1 }
		END { if (!found) print "none" }' /proc/interrupts
}
# the NIC's 18 counters (ethtool -S's first 18 lines: docs/regmap.md) as
# "name=value" words
hwstats() {
	ethtool -S "$IF" | sed -n '2,19s/^ *\([a-z_]*\): \([0-9]*\)$/\1=\2/p' | tr '\n' ' '
}
# the NIC's drop and error counters and the driver's error counters
bad_counters() {
	counters rx_drop_no_buffer rx_drop_malformed rx_drop_mac tx_desc_errors \
		drv_tx_errors drv_rx_errors drv_rx_dropped drv_tx_dropped
}

# this load's firmware running (an earlier test may have reloaded the module)
n=0
until case $(fwver) in "$want build "????????) true ;; *) false ;; esac; do
	n=$((n + 1))
	[ $n -le 150 ] || fail "ethtool -i firmware-version '$(fwver)', not '$want build ...', for 150 s"
	sleep 1
done
log "firmware $(fwver)"

# ---- vector 2 -----------------------------------------------------------
# run-driver.sh's VECTORS=2 gives the NIC two vectors: the mailbox polled
polled=0
if dmesg | grep -q "$pci: firmware mailbox polled"; then
	polled=1
	dmesg | grep "$pci: firmware mailbox polled" | sed 's/^/  /'
	# said once by a probe that loads the image (before its NIC line)
	dmesg | grep "$pci" | awk '/firmware mailbox polled/ { n++ }
		/inceptionn NIC v/ { if (n > 1) bad = 1; last = n; n = 0 }
		END { exit !(!bad && last == 1) }' ||
		fail "the polled mailbox not said exactly once by the last probe (or more than once by one)"
	[ "$(irqs)" = none ] || fail "polled, and yet inceptionn-mgmt@$pci in /proc/interrupts"
	dmesg | grep "$pci.*inceptionn NIC v" | tail -1 | grep -q "MSI-X," ||
		fail "the probe message does not say MSI-X (two vectors)"
else
	grep "inceptionn-mgmt@$pci" /proc/interrupts | sed 's/^/  /'
	[ "$(irqs)" != none ] || fail "no interrupt inceptionn-mgmt@$pci in /proc/interrupts"
	dmesg | grep "$pci.*inceptionn NIC v" | tail -1 | grep -q "MSI-X (3 vectors)" ||
		fail "the probe message does not say MSI-X (3 vectors)"
fi
log "  polled $polled"

# ---- (a) admin commands under traffic -----------------------------------
log "(a) GET_VERSION, STATS_SNAPSHOT, GET_LINK in a loop under iperf3"
b0=$(bad_counters)
i0=$(irqs)
c0=$(dbgv fw_cmds)
e0=$(dbgv fw_cmd_errors)
s0=$(dbgv fw_snapshots)
iperf3 -c "$PEER4" -t 60 -f m >/tmp/iperf.out 2>&1 &
ipid=$!
sleep 2
kill -0 $ipid 2>/dev/null || { cat /tmp/iperf.out; fail "iperf3 did not start"; }
prev=$(hwstats)
it=0
t0=$(cut -d' ' -f1 /proc/uptime)
while kill -0 $ipid 2>/dev/null; do
	it=$((it + 1))
	devlink dev info "$dl" >/tmp/i 2>&1 || { cat /tmp/i; fail "devlink dev info, round $it"; }
	grep -q "^[[:space:]]*fw $want\$" /tmp/i || { cat /tmp/i; fail "devlink dev info: no fw $want, round $it"; }
	grep -q "^[[:space:]]*fw\.mgmt\.build [0-9a-f]\{8\}\$" /tmp/i ||
		{ cat /tmp/i; fail "devlink dev info: GET_VERSION not answered (no fw.mgmt.build), round $it"; }
	s=$(dbgv fw_snapshots)
	cur=$(hwstats)
	[ "$(dbgv fw_snapshots)" -eq $((s + 1)) ] ||
		fail "ethtool -S did not take its counters from STATS_SNAPSHOT, round $it"
	[ "$(echo "$cur" | wc -w)" -eq 18 ] || fail "ethtool -S: not 18 NIC counters ($cur)"
	for w in $cur; do
		name=${w%%=*}
		a=$(delta "$name" "$prev" "$cur")
		[ "$a" -ge 0 ] || fail "$name went back between snapshots ($prev -> $cur), round $it"
	done
	prev=$cur
	devlink health diagnose "$dl" reporter fw >/tmp/d 2>&1 ||
		{ cat /tmp/d; fail "devlink health diagnose reporter fw, round $it"; }
	grep -q "link_up: true" /tmp/d ||
		{ cat /tmp/d; fail "GET_LINK not answered, or the link down, round $it"; }
	grep -q "link_speed_mbps: [0-9]" /tmp/d || { cat /tmp/d; fail "GET_LINK: no speed, round $it"; }
done
t1=$(cut -d' ' -f1 /proc/uptime)
wait $ipid
irc=$?
grep -E 'sender|receiver' /tmp/iperf.out | sed 's/^/  iperf3: /'
[ $irc -eq 0 ] || { cat /tmp/iperf.out; fail "iperf3 exit $irc"; }
grep -q receiver /tmp/iperf.out || fail "iperf3: no result"
sed -n 's/^ *\(state.*\)/  diagnose: \1/p' /tmp/d | head -3
i1=$(irqs)
c1=$(dbgv fw_cmds)
e1=$(dbgv fw_cmd_errors)
b1=$(bad_counters)
cmds=$((c1 - c0))
log "  $it rounds in $(awk "BEGIN { print $t1 - $t0 }") s under iperf3: $cmds commands answered," \
	"errors $((e1 - e0)), vector 2 interrupts $i0 -> $i1, snapshots $(($(dbgv fw_snapshots) - s0))"
log "  drops/errors before: $b0"
log "  drops/errors after:  $b1"
[ $it -ge $ITER_MIN ] || fail "only $it rounds while iperf3 ran (at least $ITER_MIN)"
[ $cmds -ge $((3 * it)) ] || fail "$cmds commands answered for $it rounds of 3"
[ $((e1 - e0)) -eq 0 ] || fail "$((e1 - e0)) commands failed"
if [ $polled = 0 ]; then
	[ $((i1 - i0)) -ge $cmds ] || fail "vector 2: $((i1 - i0)) interrupts for $cmds completions"
fi
for name in rx_drop_no_buffer rx_drop_malformed rx_drop_mac tx_desc_errors drv_tx_errors \
	drv_rx_errors drv_rx_dropped drv_tx_dropped; do
	[ "$(delta $name "$b0" "$b1")" -eq 0 ] || fail "$name grew during the run"
done

# ---- (b) SET_MAC through the firmware -----------------------------------
log "(b) SET_MAC"
old=$(cat "/sys/class/net/$IF/address")
new=02:11:22:33:44:55
c0=$(dbgv fw_cmds)
ip link set dev "$IF" address $new || fail "ip link set address $new"
[ "$(cat "/sys/class/net/$IF/address")" = $new ] || fail "the interface's address is not $new"
[ "$(dbgv fw_cmds)" -eq $((c0 + 1)) ] || fail "the address did not go through the firmware (fw_cmds $c0 -> $(dbgv fw_cmds))"
dmesg | grep -q "$pci.*SET_MAC through the firmware failed" && fail "SET_MAC fell back to a direct write"
lo=$(reg 0x00000108)
hi=$(reg 0x0000010c)
log "  $old -> $new: MAC_LO $lo, MAC_HI $hi"
{ [ "$lo" = 0x33221102 ] && [ "$hi" = 0x00005544 ]; } || fail "MAC registers $lo $hi, not 0x33221102 0x00005544"
# the peer learns the new address from our ARP request: its replies reach
# us only if sent to it (a frame to the old address is not ours)
ip neigh flush dev "$IF" >/dev/null 2>&1
ping -c 3 -W 5 "$PEER4" >/dev/null || fail "ping from $new"
ip neigh show dev "$IF" | sed 's/^/  neigh: /'
m0=$(reg 0x00000108)
out=$(ip link set dev "$IF" address 01:00:5e:00:00:01 2>&1) && fail "a multicast address was accepted"
log "  multicast 01:00:5e:00:00:01: $out"
echo "$out" | grep -q "Cannot assign requested address" || fail "multicast refused without EADDRNOTAVAIL: $out"
[ "$(cat "/sys/class/net/$IF/address")" = $new ] || fail "the address changed after the refusal"
[ "$(reg 0x00000108)" = "$m0" ] || fail "MAC_LO changed after the refusal"
ip link set dev "$IF" address "$old" || fail "ip link set address $old"
[ "$(dbgv fw_cmds)" -eq $((c0 + 2)) ] || fail "the old address did not go through the firmware"
ip neigh flush dev "$IF" >/dev/null 2>&1
ping -c 2 -W 5 "$PEER4" >/dev/null || fail "ping from $old again"

# ---- (c) a hung firmware ------------------------------------------------
log "(c) DEBUG_HANG"
d0=$(dbgv fw_deaths)
r0=$(dbgv resets)
run0=$(running)
stop0=$(dmesg | grep -c "$pci.*firmware heartbeat stopped")
e0=$(dmesg | grep -c "$pci.*firmware did not complete admin command 0x00f0 DEBUG_HANG")
h0=$(devlink health show "$dl" reporter fw | sed -n 's/.* error \([0-9]*\).*/\1/p')
[ -n "$h0" ] || { devlink health show "$dl" reporter fw; fail "devlink health: no reporter fw"; }
t0=$(cut -d' ' -f1 /proc/uptime)
echo 1 >"$dbg/fw_hang" || fail "debugfs fw_hang: the firmware did not hang (the write failed)"
t1=$(cut -d' ' -f1 /proc/uptime)
log "  fw_hang returned after $(awk "BEGIN { print $t1 - $t0 }") s"
dmesg | grep "$pci.*DEBUG_HANG" | sed 's/^/  /'
[ "$(dmesg | grep -c "$pci.*firmware did not complete admin command 0x00f0 DEBUG_HANG")" -eq $((e0 + 1)) ] ||
	fail "not one timeout message for DEBUG_HANG"
# the mailbox stays blocked: ethtool -S reads the registers, not the firmware
s0=$(dbgv fw_snapshots)
ethtool -S "$IF" >/dev/null || fail "ethtool -S with the firmware hung"
[ "$(dbgv fw_snapshots)" -eq "$s0" ] || fail "a snapshot from a hung firmware"
ping -c 2 -W 5 "$PEER4" >/dev/null || fail "ping with the firmware hung"
n=0
until [ "$(dmesg | grep -c "$pci.*firmware heartbeat stopped")" -gt "$stop0" ]; do
	n=$((n + 1))
	[ $n -le 150 ] || fail "no 'firmware heartbeat stopped' 150 s after the hang"
	sleep 1
done
log "  declared dead about $n s after the timeout"
dmesg | grep "$pci.*firmware heartbeat stopped" | tail -1 | sed 's/^/  /'
sleep 2
[ "$(dmesg | grep -c "$pci.*firmware heartbeat stopped")" -eq $((stop0 + 1)) ] ||
	fail "heartbeat stop logged more than once"
[ "$(dbgv fw_deaths)" -eq $((d0 + 1)) ] || fail "fw_deaths $(dbgv fw_deaths), not $((d0 + 1))"
[ "$(fwver)" = "$want dead" ] || fail "ethtool -i firmware-version '$(fwver)', not '$want dead'"
h1=$(devlink health show "$dl" reporter fw | sed -n 's/.* error \([0-9]*\).*/\1/p')
[ "$h1" = $((h0 + 1)) ] || fail "devlink health reporter fw: error count $h0 -> $h1"
st=$(reg 0x00000500)
[ $((st & 1)) -eq 1 ] || fail "MGMT_CTRL $st: the core is not halted"
# the netdev passes traffic without its firmware
out=$(iperf3 -c "$PEER4" -t 3 -f m 2>&1) || { echo "$out"; fail "iperf3 with the firmware dead"; }
echo "$out" | grep receiver | sed 's/^/  iperf3 (firmware dead): /'

# a reset of the NIC boots the firmware again
out=$(ethtool --reset "$IF" dedicated 2>&1) || { echo "$out"; fail "ethtool --reset dedicated"; }
echo "$out" | sed 's/^/  /'
echo "$out" | grep -q "Components reset: *0xffff" || fail "ethtool --reset dedicated: not every component reset"
[ "$(dbgv resets)" -eq $((r0 + 1)) ] || fail "resets $(dbgv resets), not $((r0 + 1))"
wait_running "$run0" || fail "the firmware did not run again after the NIC reset"
dmesg | grep "$pci" | tail -3 | sed 's/^/  /'
case $(fwver) in
"$want build "????????) ;;
*) fail "ethtool -i firmware-version '$(fwver)' after the reset" ;;
esac
wait_for 30 carrier_up || fail "no carrier after the reset"
devlink dev info "$dl" | grep -q "fw\.mgmt\.build" || fail "GET_VERSION not answered after the reset"
s0=$(dbgv fw_snapshots)
ethtool -S "$IF" >/dev/null
[ "$(dbgv fw_snapshots)" -eq $((s0 + 1)) ] || fail "no snapshot after the reset"
ping -c 2 -W 10 "$PEER4" >/dev/null || fail "ping after the reset"

# the management core alone: the firmware again, the datapath untouched
run1=$(running)
out=$(ethtool --reset "$IF" mgmt 2>&1) || { echo "$out"; fail "ethtool --reset mgmt"; }
echo "$out" | sed 's/^/  /'
echo "$out" | grep -q "Components reset: *0x1\$" || fail "ethtool --reset mgmt: the core not reset"
wait_running "$run1" || fail "the firmware did not run again after ethtool --reset mgmt"
[ "$(dbgv resets)" -eq $((r0 + 1)) ] || fail "ethtool --reset mgmt reset the NIC"
devlink dev info "$dl" | grep -q "fw\.mgmt\.build" || fail "GET_VERSION not answered after --reset mgmt"
ping -c 2 -W 10 "$PEER4" >/dev/null || fail "ping after ethtool --reset mgmt"

# ---- (d) a firmware fault, on vector 2 ----------------------------------
log "(d) DEBUG_FAULT"
d0=$(dbgv fw_deaths)
stop0=$(dmesg | grep -c "$pci.*firmware heartbeat stopped")
h0=$(devlink health show "$dl" reporter fw | sed -n 's/.* error \([0-9]*\).*/\1/p')
run1=$(running)
t0=$(cut -d' ' -f1 /proc/uptime)
echo 1 >"$dbg/fw_fault" || fail "debugfs fw_fault: the firmware did not fault (the write failed)"
t1=$(cut -d' ' -f1 /proc/uptime)
dt=$(awk "BEGIN { print $t1 - $t0 }")
log "  fw_fault returned after $dt s"
if [ $polled = 0 ]; then
	# EVENT bit 2 ends the command at once: not its 10 s timeout, no message
	awk "BEGIN { exit !($dt < 8) }" || fail "the command waited $dt s: the fault event did not end it"
	dmesg | grep -q "$pci.*did not complete admin command 0x00f1" && fail "DEBUG_FAULT timed out"
else
	# polled: no event, the command times out (one message)
	[ "$(dmesg | grep -c "$pci.*did not complete admin command 0x00f1 DEBUG_FAULT")" -eq 1 ] ||
		fail "polled: not one timeout message for DEBUG_FAULT"
fi
# and the watchdog's verdict at once, not 50 s of heartbeat later
n=0
until [ "$(dmesg | grep -c "$pci.*firmware heartbeat stopped")" -gt "$stop0" ]; do
	n=$((n + 1))
	[ $n -le 10 ] || fail "no 'firmware heartbeat stopped' 10 s after the fault event"
	sleep 1
done
dmesg | grep "$pci.*firmware heartbeat stopped" | tail -1 | sed 's/^/  /'
dmesg | grep "$pci.*firmware heartbeat stopped" | tail -1 | grep -q "firmware fault 0x0103 (mcause 3," ||
	fail "the message does not give the fault (0x0103, mcause 3: EBREAK)"
sleep 2
[ "$(dmesg | grep -c "$pci.*firmware heartbeat stopped")" -eq $((stop0 + 1)) ] || fail "the fault logged more than once"
[ "$(dbgv fw_deaths)" -eq $((d0 + 1)) ] || fail "fw_deaths $(dbgv fw_deaths), not $((d0 + 1))"
[ "$(fwver)" = "$want dead" ] || fail "ethtool -i firmware-version '$(fwver)', not '$want dead'"
h1=$(devlink health show "$dl" reporter fw | sed -n 's/.* error \([0-9]*\).*/\1/p')
[ "$h1" = $((h0 + 1)) ] || fail "devlink health reporter fw: error count $h0 -> $h1"
ping -c 2 -W 5 "$PEER4" >/dev/null || fail "ping with the firmware faulted"
out=$(ethtool --reset "$IF" mgmt 2>&1) || { echo "$out"; fail "ethtool --reset mgmt after the fault"; }
wait_running "$run1" || fail "the firmware did not run again after the fault"
devlink dev info "$dl" | grep -q "fw\.mgmt\.build" || fail "GET_VERSION not answered after the fault's reset"
dmesg_clean || fail "kernel warnings"
exit 0
