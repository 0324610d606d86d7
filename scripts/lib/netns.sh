# SPDX-License-Identifier: MIT
#
# Hosts as Linux network namespaces on one bridge, with links shaped by tbf:
# sourced by scripts/bench-inccl.sh and scripts/bench-train.sh (root).
#
# Host r is the namespace ID-hR with one veth, eth0 (NET.(r+1)/24), whose
# other end is hR on the bridge br0 of the namespace ID-br; this host's
# own networking is untouched. tbf on both ends of every veth: the host's
# side shapes what it sends, the bridge's side what it receives, so each
# host has the link rate each way, as with a NIC (shaping only the sending
# side would let an aggregator receive from every worker at once at N-1
# times the rate).
#
# Links: tbf rate R, burst max(64 KiB, 1 ms at R), limit 20 ms at R plus the
# burst (1gbit: 125000 and 2625000 bytes; 10gbit: 1250000 and 26250000). The
# burst is what a host that was idle may send above R: it must cover the
# shaper's timer and scheduling delays or R is not reached (at 10 Gbit/s a
# 64 KiB burst gave iperf3 5.3 Gbit/s, 1.25 MB 9.4), and hold a whole 64 KiB
# GSO packet. The limit is the queue, a switch port's buffer: past it tbf
# drops. A worker-aggregator's incast (every worker sending to rank 0 at
# once) overflowed a 5 ms queue, and TCP's retransmissions made it 10-30%
# slower; 20 ms held it without a drop.
#
# The caller defines bad_opt MESSAGE and cannot MESSAGE (say what is wrong
# with an option, or why this host cannot run it, and exit), an array NS, to
# which every namespace made is appended, and an array PIDS of the
# processes it runs in them; netns_cleanup stops those and deletes these
# (their veths go with them).

# netns_rate RATE: the bits per second of a tc rate in NETNS_BPS; 1 if it
# is not a rate as tc writes it, 2 if it is not from 1mbit to 100gbit
netns_rate() {
	[[ $1 =~ ^([0-9]+)(kbit|mbit|gbit)$ ]] || return 1
	case ${BASH_REMATCH[2]} in
	kbit) NETNS_BPS=$((BASH_REMATCH[1] * 1000)) ;;
	mbit) NETNS_BPS=$((BASH_REMATCH[1] * 1000000)) ;;
	gbit) NETNS_BPS=$((BASH_REMATCH[1] * 1000000000)) ;;
	esac
	[ "$NETNS_BPS" -ge 1000000 ] && [ "$NETNS_BPS" -le 100000000000 ] || return 2
}

# netns_rates "RATE...": bad_opt unless each is a tc rate, 1mbit to 100gbit
netns_rates() {
	local rate
	for rate in $1; do
		netns_rate "$rate"
		case $? in
		1) bad_opt "RATES: '$rate': a rate as tc writes it expected, e.g. 1gbit, 500mbit" ;;
		2) bad_opt "RATES: '$rate': from 1mbit to 100gbit" ;;
		esac
	done
	[ -n "${1// /}" ] || bad_opt "RATES is empty"
}

# netns_cleanup: TERM the processes of PIDS, wait for them, delete NS
netns_cleanup() {
	local p n
	for p in ${PIDS[@]+"${PIDS[@]}"}; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in ${PIDS[@]+"${PIDS[@]}"}; do
		wait "$p" 2>/dev/null
	done
	for n in ${NS[@]+"${NS[@]}"}; do
		ip netns delete "$n" 2>/dev/null
	done
}

# netns_check: root, and the commands, or cannot
netns_check() {
	local c
	[ "$(id -u)" -eq 0 ] ||
		cannot "must run as root: it creates network namespaces, veth pairs and tbf qdiscs (try sudo)"
	for c in ip tc timeout; do
		command -v "$c" >/dev/null ||
			cannot "no '$c' command (ip and tc: scripts/install-deps.sh netns)"
	done
}

# netns_stale PREFIX: delete the namespaces PREFIX<pid>-* of earlier runs
# whose process is gone (killed before they could clean up)
netns_stale() {
	local n p
	for n in $(ip netns list 2>/dev/null | sed -n "s/^\($1[0-9]*-\(br\|h[0-9]\)\)\( .*\)\?$/\1/p"); do
		p=${n%-*}
		kill -0 "${p#"$1"}" 2>/dev/null || ip netns delete "$n" 2>/dev/null
	done
}

_netns() {	# _netns WHAT COMMAND...: run it, or cannot with what it said
	local what=$1 err
	shift
	err=$("$@" 2>&1) || cannot "$what: '$*' failed: $err"
}

# netns_hosts ID N NET: the bridge and N hosts
netns_hosts() {
	local id=$1 n=$2 net=$3 r
	NS+=("$id-br")
	_netns "network namespaces unavailable" ip netns add "$id-br"
	_netns "no bridge" ip -n "$id-br" link add br0 type bridge
	_netns "no bridge" ip -n "$id-br" link set br0 up
	for ((r = 0; r < n; r++)); do
		NS+=("$id-h$r")
		_netns "network namespaces unavailable" ip netns add "$id-h$r"
		_netns "no veth" ip -n "$id-br" link add "h$r" type veth peer name eth0 netns "$id-h$r"
		_netns "no bridge" ip -n "$id-br" link set "h$r" master br0 up
		_netns "cannot configure the host" ip -n "$id-h$r" addr add "$net.$((r + 1))/24" dev eth0
		_netns "cannot configure the host" ip -n "$id-h$r" link set eth0 up
		_netns "cannot configure the host" ip -n "$id-h$r" link set lo up
	done
}

# netns_shape ID N RATE: tbf at RATE on both ends of every host's veth;
# NETNS_QDISC is the qdisc it set
netns_shape() {
	local id=$1 n=$2 rate=$3 b r
	netns_rate "$rate" || cannot "rate '$rate': not a tc rate from 1mbit to 100gbit"
	b=$((NETNS_BPS / 8000))
	[ "$b" -ge 65536 ] || b=65536
	NETNS_QDISC="tbf rate $rate burst $b limit $((b + NETNS_BPS / 400))"
	for ((r = 0; r < n; r++)); do
		# shellcheck disable=SC2086
		_netns "tbf unavailable (sch_tbf)" tc -n "$id-h$r" qdisc replace dev eth0 root $NETNS_QDISC
		# shellcheck disable=SC2086
		_netns "tbf unavailable (sch_tbf)" tc -n "$id-br" qdisc replace dev "h$r" root $NETNS_QDISC
	done
}
