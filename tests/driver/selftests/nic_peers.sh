#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Peer learning an attacker cannot steer (driver/inc_peers.c). The plain
# guest, on eth1's link, forges ICMP errors of the kind a host without an
# inceptionn NIC sends for a compressed frame (tests/driver/selftests/forge.c,
# run there through its command port), and the table of eth1 must learn
# only what a real peer's answer would teach it:
#   - errors about destinations this host never sent marked frames to
#     (a flood of 500, IPv4 and IPv6): nothing learned;
#   - an error whose sender is not the destination it quotes: rejected;
#   - an error quoting a source that is not this host's: rejected;
#   - consistent errors about destinations it did send marked frames to:
#     learned, and frames to them go uncompressed;
#   - a full table (peers_max 4) evicts the least recently used entry,
#     never one in use;
#   - an error about eth0's peer arriving on eth1 changes nothing for eth0:
#     the tables are per device, and marked traffic to eth0's peer stays
#     compressed.
. ./lib.sh
KO=/lib/modules/inceptionn.ko
FORGE=/kselftest/inceptionn/forge

# a fresh module: empty tables
rmmod inceptionn || fail "rmmod"
insmod $KO || fail "insmod"
setup_if || fail "$IF did not come up"
setup_plain_if || fail "$PLAIN_IF did not come up"
wait_for 60 ping -c 1 -W 2 "$PLAIN4" || fail "the plain guest does not answer"
wait_for 30 ping -c 1 -W 2 "$PEER4" || fail "the peer does not answer"

# remote CMD...: a command in the plain guest (its command port, guest-plain.sh)
remote() { printf '%s\nexit\n' "$*" | nc "$PLAIN4" 7800; }
wait_for 30 sh -c "printf 'echo up\nexit\n' | nc $PLAIN4 7800 | grep -q up" ||
	fail "the plain guest's command port does not answer"
MAC1=$(cat /sys/class/net/$PLAIN_IF/address)
PMAC=$(remote cat /sys/class/net/eth0/address)
[ -n "$PMAC" ] || fail "no MAC of the plain guest"

D1=$(dbgdir "$PLAIN_IF")
D0=$(dbgdir "$IF")
[ -r "$D1/peers_stats" ] || fail "no $D1/peers_stats"
# pstat DIR NAME: a line of DIR/peers_stats
pstat() { sed -n "s/^$2 //p" "$1/peers_stats"; }
# grows DIR NAME BEFORE MIN: NAME grew by at least MIN since BEFORE
grows() {
	d=$(($(pstat "$1" "$2") - $3))
	[ "$d" -ge "$4" ] || fail "$2 grew by $d, expected at least $4"
	log "  $2 +$d"
}
# forge4 OUTER QSRC QDST COUNT: ICMP errors from the plain guest to eth1
forge4() { remote "$FORGE icmp4 eth0 $MAC1 $PLAIN_SELF4 $*" >/dev/null || fail "forge icmp4 $*"; }
forge6() { remote "$FORGE icmp6 eth0 $MAC1 $PLAIN_SELF6 $*" >/dev/null || fail "forge icmp6 $*"; }

log "made-up destinations"
r=$(pstat "$D1" rejected_not_sent)
forge4 =qdst "$PLAIN_SELF4" 10.0.1.100 500
forge6 =qdst "$PLAIN_SELF6" fd01::100 200
sleep 2
grows "$D1" rejected_not_sent "$r" 650
[ "$(pstat "$D1" entries)" = 0 ] || fail "learned from forged errors: $(cat "$D1/peers")"

log "a sender that is not the destination it quotes"
r=$(pstat "$D1" rejected_quote)
forge4 "$PLAIN4" "$PLAIN_SELF4" 10.0.1.100 50
forge6 "$PLAIN6" "$PLAIN_SELF6" fd01::100 50
sleep 1
grows "$D1" rejected_quote "$r" 90

# destinations this host sends marked frames to: 10.0.1.20-25, neighbours
# on the plain guest's MAC (its kernel drops them: not its address)
i=20
while [ $i -le 25 ]; do
	arp -i "$PLAIN_IF" -s 10.0.1.$i "$PMAC" || fail "neighbour 10.0.1.$i"
	$FORGE marked-udp 10.0.1.$i 9 10 >/dev/null || fail "marked UDP to 10.0.1.$i"
	i=$((i + 1))
done

log "a quoted source that is not this host's"
r=$(pstat "$D1" rejected_not_local)
forge4 =qdst 10.0.1.77 10.0.1.20 6
forge4 =qdst 10.0.1.77 10.0.1.20 6
sleep 1
grows "$D1" rejected_not_local "$r" 10
[ "$(pstat "$D1" entries)" = 0 ] || fail "learned with a foreign quoted source"

log "consistent errors about real destinations: learned"
# each three times: a simulated link under load may lose one (seen losing
# two in a row with make check's background jobs on the same two cores)
forge4 =qdst "$PLAIN_SELF4" 10.0.1.20 4
forge4 =qdst "$PLAIN_SELF4" 10.0.1.20 4
forge4 =qdst "$PLAIN_SELF4" 10.0.1.20 4
sleep 1
[ "$(pstat "$D1" entries)" = 4 ] ||
	fail "$(pstat "$D1" entries) entries, expected 4: $(cat "$D1/peers") $(cat "$D1/peers_stats")"
p0=$(IF=$PLAIN_IF; stat drv_tx_plain_peer)
$FORGE marked-udp 10.0.1.20 9 10 >/dev/null
p1=$(IF=$PLAIN_IF; stat drv_tx_plain_peer)
[ $((p1 - p0)) -ge 10 ] || fail "frames to a learned peer not sent plain ($p0 -> $p1)"

log "a full table evicts the least recently used"
echo 4 >"$D1/peers_max" || fail "peers_max"
sleep 2
$FORGE marked-udp 10.0.1.20 9 3 >/dev/null
$FORGE marked-udp 10.0.1.21 9 3 >/dev/null
e=$(pstat "$D1" evicted)
forge4 =qdst "$PLAIN_SELF4" 10.0.1.24 2
forge4 =qdst "$PLAIN_SELF4" 10.0.1.24 2
sleep 1
cat "$D1/peers" | sed 's/^/  /'
for a in 10.0.1.20 10.0.1.21 10.0.1.24 10.0.1.25; do
	grep -q "^::ffff:$a " "$D1/peers" || fail "$a not in the table"
done
for a in 10.0.1.22 10.0.1.23; do
	! grep -q "^::ffff:$a " "$D1/peers" || fail "$a (least recently used) still in the table"
done
grows "$D1" evicted "$e" 2
echo 256 >"$D1/peers_max"

log "an error about eth0's peer, on eth1"
forge4 =qdst "$SELF4" "$PEER4" 20
sleep 1
[ "$(pstat "$D0" entries)" = 0 ] || fail "eth0's table learned from eth1: $(cat "$D0/peers")"
! grep -q "$PEER4 " "$D1/peers" || fail "eth1 learned eth0's peer"
xfer "$PEER4" tcp --mark 10 sparse
[ "$DCOMP" -gt 0 ] && [ "$DPLAIN" = 0 ] ||
	fail "marked TCP to the peer: $DCOMP compressed, $DPLAIN plain"

for n in learned rejected_quote rejected_not_local rejected_not_sent evicted; do
	log "  eth1 $n $(pstat "$D1" $n)"
done
dmesg_clean || fail "kernel warnings"
exit 0
