#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's generic netdev selftest, tools/testing/selftests/net/
# netdevice.sh of linux-source-6.1, unmodified (run-driver.sh extracts it to
# /kselftest/net/netdevice.sh), against this guest's NICs: for every ethX it
# brings the interface up, sets the MAC address 02:03:04:05:06:07 while it is
# up, runs ethtool -k, -d and -S, and brings it down. It leaves alone an
# interface that is already up ("SKIP: interface already up"), so the ethX
# that are up are taken down first. Afterwards every ethX gets back its MAC
# address, its state and its global addresses (IPv6 ones go with the link),
# and the peers must answer again. netdevice.sh always exits 0: any "FAIL:"
# line of its output fails this test, and so does an inceptionn NIC it did not
# test.
. ./lib.sh

NETDEVICE=/kselftest/net/netdevice.sh
[ -r "$NETDEVICE" ] || skip "no $NETDEVICE"

ifs=$(ls /sys/class/net | grep -E '^eth[0-9]+$')
[ -n "$ifs" ] || skip "no ethX interface"
# the state to restore: MAC, up or not, global addresses (ip addr replace)
for i in $ifs; do
	cat "/sys/class/net/$i/address" >"/tmp/ksft.$i.mac"
	up=$(($(cat "/sys/class/net/$i/flags") & 1))
	echo "$up" >"/tmp/ksft.$i.up"
	ip -o addr show dev "$i" scope global |
		awk '$3 == "inet" || $3 == "inet6" { print $4 }' >"/tmp/ksft.$i.addrs"
	log "  $i: $(basename "$(readlink "/sys/class/net/$i/device/driver")")," \
		"MAC $(cat "/tmp/ksft.$i.mac"), up $up," \
		"addresses $(tr '\n' ' ' <"/tmp/ksft.$i.addrs")"
	[ "$up" = 1 ] && { ip link set "$i" down || fail "ip link set $i down"; }
done

if [ -x "$NETDEVICE" ]; then
	"$NETDEVICE" >/tmp/ksft.out 2>&1
else
	sh "$NETDEVICE" >/tmp/ksft.out 2>&1
fi
rc=$?
echo "  netdevice.sh (exit $rc):"
sed 's/^/    /' /tmp/ksft.out

# restore, whatever the verdict
bad=
for i in $ifs; do
	mac=$(cat "/tmp/ksft.$i.mac")
	ip link set "$i" down || bad="$bad $i:down"
	ip link set "$i" address "$mac" || bad="$bad $i:address"
	[ "$(cat "/sys/class/net/$i/address")" = "$mac" ] || bad="$bad $i:MAC"
	[ "$(cat "/tmp/ksft.$i.up")" = 1 ] || continue
	ip link set "$i" up || bad="$bad $i:up"
	while read -r a; do
		ip addr replace "$a" dev "$i" || bad="$bad $i:$a"
	done <"/tmp/ksft.$i.addrs"
	wait_for 30 sh -c "[ \"\$(cat /sys/class/net/$i/carrier)\" = 1 ]" ||
		bad="$bad $i:carrier"
done
[ -z "$bad" ] || fail "restoring the configuration:$bad"
if [ "$(cat "/tmp/ksft.$IF.up" 2>/dev/null)" = 1 ]; then
	wait_for 30 ping -c 1 -W 2 "$PEER4" || fail "no ping $PEER4 after netdevice.sh"
	wait_for 30 ping -6 -c 1 -W 2 "$PEER6" || fail "no ping $PEER6 after netdevice.sh"
fi

np=$(grep -c '^PASS:' /tmp/ksft.out)
ns=$(grep -c '^SKIP:' /tmp/ksft.out)
nf=$(grep -c '^FAIL:' /tmp/ksft.out)
log "  netdevice.sh: $np PASS, $ns SKIP, $nf FAIL"
[ "$nf" -eq 0 ] || fail "netdevice.sh: $(grep '^FAIL:' /tmp/ksft.out | tr '\n' ' ')"
[ "$rc" -eq 0 ] || fail "netdevice.sh exited with $rc"
# every inceptionn NIC was tested (an interface left up is skipped)
for i in $ifs; do
	case $(basename "$(readlink "/sys/class/net/$i/device/driver")") in
	inceptionn*) ;;
	*) continue ;;
	esac
	grep -q "^PASS: $i: set interface up" /tmp/ksft.out ||
		fail "netdevice.sh did not test $i"
done
dmesg_clean || fail "kernel warnings"
exit 0
