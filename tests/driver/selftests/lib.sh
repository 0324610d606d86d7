#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Shared by the inceptionn selftests (run in a test VM by the kernel's
# kselftest runner, tests/driver/run-driver.sh): the setup the guest's
# /test.sh made, and small helpers. Exit 0 pass, 1 fail, 4 skip. Helpers
# keep their own variables local (busybox ash), so a test's variables
# survive them.
IF=${INC_IF:-eth0}
SELF4=10.0.0.1
PEER4=10.0.0.2
SELF6=fd00::1
PEER6=fd00::2
# the main guest's second NIC (eth1), linked to a guest with virtio-net
PLAIN_IF=eth1
PLAIN_SELF4=10.0.1.1
PLAIN4=10.0.1.2
PLAIN_SELF6=fd01::1
PLAIN6=fd01::2
PLAIN_VLAN=5		# a VLAN on that link: 10.0.5.1 and 10.0.5.2
PLAIN_VLAN_SELF4=10.0.5.1
PLAIN_VLAN4=10.0.5.2
GRAD=/data/grad.f32
INCGRAD_PORT=7700	# TCP; the UDP server is on the next port
KSFT_SKIP=4

log() { echo "$*"; }
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit "$KSFT_SKIP"; }

# stat NAME: a counter of `ethtool -S $IF`
stat() {
	ethtool -S "$IF" | sed -n "s/^ *$1: //p"
}

# regs: ethtool -d's hex dump as "OFFSET VALUE" lines, one per pair of
# little-endian 32-bit words (the driver dumps (offset, value) pairs)
regs() {
	ethtool -d "$IF" | awk '/^0x[0-9a-f]+:/ { for (i = 2; i <= NF; i++) b[n++] = $i }
		END {
			for (i = 0; i + 8 <= n; i += 8)
				printf "0x%s%s%s%s 0x%s%s%s%s\n", b[i + 3], b[i + 2],
					b[i + 1], b[i], b[i + 7], b[i + 6], b[i + 5], b[i + 4]
			if (n % 8) print "odd"
		}'
}

# features: the NIC's FEATURES register (docs/regmap.md, offset 0x8) from
# the register dump, as 0x...; empty when the dump has no such word
features() {
	regs | sed -n 's/^0x00000008 //p'
}

# reg OFFSET: one register of the dump (OFFSET as 0x%08x)
reg() { regs | sed -n "s/^$1 //p"; }

# ---- the management firmware (nic_firmware.sh, nic_fw_admin.sh,
# nic_fw_selftest.sh; docs/firmware.md) ----
FW=/lib/firmware/inceptionn/inceptionn-fw.bin
MGMT_BIT=13	# FEATURES bits, include/hw/inc_nic_regs.h: INC_FEAT_MGMT,
WIDTH_BIT=12	# INC_FEAT_MODE_WIDTH,
TPORT_BIT=14	# INC_FEAT_TPORT (the engine test port, register map 1.5)

# pci_of IF: the PCI name of IF's NIC (the driver's dmesg prefix)
pci_of() { basename "$(readlink -f "/sys/class/net/$1/device")"; }
# fw_image_version: $FW's version, header bytes 8..11 (little-endian), as
# MAJOR.MINOR.PATCH
fw_image_version() {
	local v
	v=$(od -An -tu4 -j8 -N4 "$FW" | tr -d ' ')
	echo "$((v >> 16)).$(((v >> 8) & 0xff)).$((v & 0xff))"
}
# fwver: ethtool -i's firmware-version of $IF
fwver() { ethtool -i "$IF" | sed -n 's/^firmware-version: //p'; }
# running: the "firmware vWANT (build ...) running" messages of the NIC
# $pci so far ($want, $pci: the test's); READY comes seconds after the
# probe on incsim
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

# wait_for SECONDS COMMAND...: until COMMAND succeeds
wait_for() {
	local left=$1
	shift
	while [ "$left" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
		left=$((left - 1))
	done
	"$@" >/dev/null 2>&1
}

# debugfs (the driver's /sys/kernel/debug/inceptionn/<PCI name>/), mounted once
mount_debugfs() {
	grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
		mount -t debugfs debugfs /sys/kernel/debug
}

# dbgdir IFACE: the driver's debugfs directory of IFACE's NIC
dbgdir() {
	mount_debugfs
	echo "/sys/kernel/debug/inceptionn/$(basename "$(readlink -f "/sys/class/net/$1/device")")"
}

carrier_up() { [ "$(cat /sys/class/net/$IF/carrier 2>/dev/null)" = 1 ]; }

# The simulated clusters (make demo, make demo-train, the inccl cluster
# test): host H is $(ip_of H) = 10.0.0.(H+1); inc_arg NAME is the value of
# inc.NAME= on the kernel command line.
inc_arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^inc\.$1=//p"; }
ip_of() { echo "10.0.0.$(($1 + 1))"; }
# wait_hosts N: until hosts 0..N-1 answer a ping (120 s each); else 1, with
# the first that did not in LOST
wait_hosts() {
	LOST=0
	while [ "$LOST" -lt "$1" ]; do
		wait_for 120 ping -c 1 -W 2 "$(ip_of "$LOST")" || return 1
		LOST=$((LOST + 1))
	done
}

# rmmod_retry: rmmod; while an application is inside the socket option (a
# UDP mark change waits for the socket's datagrams in flight) the module is
# busy and rmmod answers EAGAIN, as for any module in use: retry for 30 s
rmmod_retry() {
	local n=0 err
	until err=$(rmmod inceptionn 2>&1); do
		n=$((n + 1))
		if [ $n -ge 300 ]; then
			log "  rmmod still fails after 30 s: $err"
			lsmod | grep inceptionn
			return 1
		fi
		sleep 0.1
	done
	[ $n -eq 0 ] || log "  rmmod busy $n times (a socket option call in progress)"
}

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

# setup_plain_if: the second NIC, toward the guest without an inceptionn NIC
setup_plain_if() {
	[ -d "/sys/class/net/$PLAIN_IF" ] || return 1
	ip addr replace "$PLAIN_SELF4/24" dev "$PLAIN_IF" || return 1
	echo 0 >"/proc/sys/net/ipv6/conf/$PLAIN_IF/accept_dad"
	ip -6 addr replace "$PLAIN_SELF6/64" dev "$PLAIN_IF" || return 1
	ip link set "$PLAIN_IF" up || return 1
	wait_for 30 sh -c "[ \"\$(cat /sys/class/net/$PLAIN_IF/carrier)\" = 1 ]"
}

# listening PORT: a TCP socket of this host listens on PORT (IPv4 or IPv6)
listening() {
	grep -Eq ":$(printf %04X "$1") [0-9A-F]+:0000 0A " /proc/net/tcp /proc/net/tcp6
}

# start_incgrad_servers: the servers the transfer tests talk to (peer
# guests), back once both listen (the peer guests start them before their
# interface answers, so a test that runs first never finds them missing).
# UDP: a guest of a loaded simulator can stall for seconds, so the server
# waits 3 s after the last datagram before it counts the rest lost (it
# waits only when something is missing).
start_incgrad_servers() {
	incgrad server --port "$INCGRAD_PORT" --verify "$GRAD" >/dev/null 2>&1 &
	incgrad server --port $((INCGRAD_PORT + 1)) --udp --verify "$GRAD" \
		--allow-loss --udp-wait 3000 >/dev/null 2>&1 &
	wait_for 60 listening "$INCGRAD_PORT" &&
		wait_for 60 listening $((INCGRAD_PORT + 1)) ||
		echo "# the incgrad servers do not listen"
}

# jfield NAME JSON: the value of a top-level field of incgrad's JSON output
jfield() {
	echo "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"
}

# counters NAME...: "NAME=VALUE ..." of `ethtool -S $IF`, for deltas
counters() {
	local s n
	s=$(ethtool -S "$IF")
	for n in "$@"; do
		printf '%s=%s ' "$n" "$(echo "$s" | sed -n "s/^ *$n: //p")"
	done
}

# delta NAME BEFORE AFTER: how much counter NAME grew between two counters()
delta() {
	local a b
	b=$(echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p")
	a=$(echo "$3" | tr ' ' '\n' | sed -n "s/^$1=//p")
	echo $((a - b))
}

# xfer HOST PROTO MARK K MODE: one incgrad transfer of $GRAD to the server on
# HOST (PROTO tcp or udp; MARK --mark or --no-mark) while $IF's counters are
# read before and after. Sets OUT (the client's JSON), DTX (bytes on the
# link), DHOST (bytes the host handed the NIC), DCOMP (frames compressed),
# DPLAIN (frames sent plain toward a peer without the NIC). Fails the test
# when the client fails or the server's verdict is not pass.
xfer() {
	local u rate c0 c1 t0 t1 rc
	u="--port $INCGRAD_PORT"
	# UDP pacing: a loaded simulator carries about 1.5 Mbit/s (CI), so
	# unmarked datagrams go at 1M; marked ones shrink 4-5x on the link
	rate=3M
	[ "$3" = --no-mark ] && rate=1M
	[ "$2" = udp ] && u="--port $((INCGRAD_PORT + 1)) --udp --rate $rate"
	c0=$(counters tx_bytes drv_tx_bytes tx_comp_frames drv_tx_plain_peer)
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086
	OUT=$(incgrad client "$1" "$GRAD" $u "$3" \
		--k "$4" --mode "$5" --json --timeout 120 2>&1)
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	c1=$(counters tx_bytes drv_tx_bytes tx_comp_frames drv_tx_plain_peer)
	DTX=$(delta tx_bytes "$c0" "$c1")
	DHOST=$(delta drv_tx_bytes "$c0" "$c1")
	DCOMP=$(delta tx_comp_frames "$c0" "$c1")
	DPLAIN=$(delta drv_tx_plain_peer "$c0" "$c1")
	log "  $2 $1 $3 k=$4 $5: result $(jfield result "$OUT")," \
		"server $(jfield server_result "$OUT")," \
		"payload $(jfield payload_bytes "$OUT") B," \
		"written $(jfield bytes_written "$OUT") B, on link $DTX B" \
		"(host $DHOST B), compressed frames $DCOMP, plain-peer $DPLAIN," \
		"max err $(jfield server_max_abs_err "$OUT")," \
		"lost $(jfield server_lost "$OUT")," \
		"server $(jfield server_throughput_mbps "$OUT") Mbit/s," \
		"client run $(awk "BEGIN { print $t1 - $t0 }") s"
	[ $rc -eq 0 ] || { echo "$OUT"; fail "incgrad client exit $rc"; }
	[ "$(jfield result "$OUT")" = pass ] || { echo "$OUT"; fail "client result"; }
	[ "$(jfield server_result "$OUT")" = pass ] || { echo "$OUT"; fail "server verdict"; }
	[ "$(jfield server_verified "$OUT")" = true ] || { echo "$OUT"; fail "not verified"; }
}
