#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Shared by the inceptionn selftests (run in a test VM by the kernel's
# kselftest runner, tests/driver/run-driver.sh): the setup the guest's
# /test.sh made, and small helpers. Exit 0 pass, 1 fail, 4 skip.
IF=${INC_IF:-eth0}
SELF4=10.0.0.1
PEER4=10.0.0.2
SELF6=fd00::1
PEER6=fd00::2
KSFT_SKIP=4

log() { echo "$*"; }
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit "$KSFT_SKIP"; }

# stat NAME: a counter of `ethtool -S $IF`
stat() {
	ethtool -S "$IF" | sed -n "s/^ *$1: //p"
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds
wait_for() {
	t=$1
	shift
	while [ "$t" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
		t=$((t - 1))
	done
	"$@" >/dev/null 2>&1
}

carrier_up() { [ "$(cat /sys/class/net/$IF/carrier 2>/dev/null)" = 1 ]; }

# setup_if: addresses and MTU on $IF (after every insmod)
setup_if() {
	ip link set "$IF" mtu "${INC_MTU:-1500}" || return 1
	ip addr add "$SELF4/24" dev "$IF" || return 1
	# no duplicate address detection: the address is usable at once
	echo 0 >"/proc/sys/net/ipv6/conf/$IF/accept_dad"
	ip -6 addr add "$SELF6/64" dev "$IF" || return 1
	ip link set "$IF" up || return 1
	wait_for 30 carrier_up
}

# no kernel warning, oops or BUG since the guest started
dmesg_clean() {
	! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t|use-after-free|list_del corruption' 
}
