#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# incgrad over loopback, no VM and no inceptionn module: TCP and UDP, IPv4
# and IPv6, unmarked transfers bit-exact, --emulate-nic within 2^-k for
# several k and every mode (paper, sparse, width), real gradients, damaged
# transfers (--test-drop, --test-corrupt, --test-stop, forged protocol
# records) detected as failures, --mark refused cleanly, the verify
# subcommand on crafted files, file and usage errors. TAP output. Every
# process runs under timeout(1).
# usage: BUILD=build tests/incgrad/test_incgrad.sh   (or INCGRAD=path/to/incgrad)
set -u
BUILD=${BUILD:-build}
IG=${INCGRAD:-$BUILD/bin/incgrad}
GRADS=${INC_GRADIENTS:-../shared/gradients}
T=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$T"' EXIT
n=0 bad=0

ok() {	# ok STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		bad=$((bad + 1))
	fi
}

skip() {	# skip DESCRIPTION REASON
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

diag() {	# show what a failed check saw
	local f
	for f in "$@"; do
		[ -s "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" | head -c 1500
	done
	return 0
}

# j FILE PYTHON-EXPR: true when EXPR holds for the JSON object (the last
# line of FILE) bound to j; e.g. j c.json 'j["result"] == "pass"'
j() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
try:
    j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    sys.exit(0 if eval('(' + sys.argv[2] + '\n)') else 1)
except Exception as e:
    print("# json check %r: %s" % (sys.argv[2], e))
    sys.exit(1)
EOF
}

# serve NAME ARGS...: a --once server on a port the kernel picks (--port 0;
# the server prints it, so there is no race for a free port). Its JSON goes
# to $T/NAME.json, stderr to $T/NAME.err; $port, $spid. 1 if it did not come up.
serve() {
	local name=$1 i
	shift
	port=
	: >"$T/$name.err"
	timeout 30 "$IG" server --once --port 0 --json --timeout 5 "$@" \
		>"$T/$name.json" 2>"$T/$name.err" &
	spid=$!
	for i in $(seq 200); do
		port=$(sed -n 's/.*listening on .*:\([0-9][0-9]*\) (.*/\1/p' "$T/$name.err")
		[ -n "$port" ] && return 0
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.05
	done
	return 1
}

reap() {	# wait for the server; its exit status in $src
	wait "$spid"
	src=$?
	spid=
}

client() {	# client NAME HOST FILE ARGS...: exit status in $crc
	local name=$1
	shift
	timeout 30 "$IG" client "$@" --port "$port" --json --timeout 5 \
		>"$T/$name.json" 2>"$T/$name.err"
	crc=$?
}

# xfer NAME "SERVER ARGS" HOST FILE CLIENT-ARGS...: one transfer; the
# outputs are $T/NAME-s.* and $T/NAME-c.*, exit statuses $src and $crc
xfer() {
	local name=$1 sargs=$2
	shift 2
	# shellcheck disable=SC2086
	if ! serve "$name-s" $sargs; then
		src=99 crc=99
		kill "$spid" 2>/dev/null
		reap
		return 1
	fi
	client "$name-c" "$@"
	reap
}

# fields every client and server JSON object has (PROTOCOL.md)
CKEYS='role result reason server port proto family file file_bytes file_crc
mark marked k mode msg_bytes repeat messages datagrams dropped_on_purpose
host_tx_drops host_neigh_failed payload_bytes bytes_written seconds throughput_mbps server_result
server_verified server_crc_match server_within_bound server_payload_bytes
server_messages server_lost server_host_drops server_ip_errors server_not_exact
server_max_abs_err server_seconds server_throughput_mbps'
SKEYS='role result reason peer proto family session marked emulated k mode
bound file_bytes file_crc msg_bytes repeat messages_expected
messages_received messages_lost duplicates reordered host_rx_drops
host_ip_errors messages_late datagrams_bad
datagrams_foreign payload_bytes bytes_received seconds throughput_mbps
rounds_crc_ok rounds_crc_bad rounds_incomplete crc_match messages_not_exact
verified verify_file values_compared values_not_exact values_over_bound
nonfinite_bad max_abs_err within_bound'
keys_ok() {	# keys_ok FILE KEYS: every key present, no others
	j "$1" "sorted(j) == sorted('''$2'''.split())"
}

# a clean transfer: both pass, every value and byte accounted for
clean() {	# clean NAME FILE-BYTES
	local c=$T/$1-c.json s=$T/$1-s.json
	[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] &&
		keys_ok "$c" "$CKEYS" && keys_ok "$s" "$SKEYS" &&
		j "$c" "j['result'] == 'pass' and j['server_result'] == 'pass' and
			j['file_bytes'] == $2 and j['payload_bytes'] == $2 * j['repeat'] and
			j['bytes_written'] > j['payload_bytes'] and
			j['server_payload_bytes'] == j['payload_bytes'] and
			j['server_lost'] == 0 and j['throughput_mbps'] > 0 and
			j['seconds'] > 0 and
			(j['proto'] == 'udp') == (j['host_tx_drops'] is not None) and
			(j['proto'] == 'udp') == (j['server_host_drops'] is not None) and
			(j['proto'] == 'udp') == (j['server_ip_errors'] is not None)" &&
		j "$s" "j['result'] == 'pass' and j['reason'] is None and
			j['messages_received'] == j['messages_expected'] > 0 and
			j['messages_lost'] == 0 and j['payload_bytes'] == $2 * j['repeat'] and
			j['throughput_mbps'] > 0 and j['rounds_incomplete'] == 0" &&
		# every byte the client wrote, the server read (loopback loses nothing)
		python3 -c "import json,sys; c, s = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(c['bytes_written'] != s['bytes_received'] or c['messages'] != s['messages_expected'])" "$c" "$s"
}

command -v python3 >/dev/null || { echo "Bail out! python3 is needed"; exit 1; }
[ -x "$IG" ] || { echo "Bail out! no $IG (make $IG)"; exit 1; }

# ---- test data -----------------------------------------------------------------
# g.f32: 60000 gradient-like values (normal, scale 1e-3) with specials:
# NaNs with payloads, +-Inf, -0, subnormals, large values, ties at 2^-10
python3 - "$T/g.f32" <<'EOF'
import random, struct, sys
random.seed(7)
v = [random.gauss(0, 1e-3) for _ in range(60000)]
bits = [struct.unpack('<I', struct.pack('<f', x))[0] for x in v]
special = [0x7fc00001, 0xffa12345, 0x7f800000, 0xff800000, 0x80000000,
           0x00000001, 0x807fffff, 0x4b000000, 0xc7c35000, 0x3a800000,
           0xba800000, 0x3f800000, 0x42c80000]
for i, s in enumerate(special):
    bits[97 * i + 5] = s
open(sys.argv[1], 'wb').write(struct.pack('<%dI' % len(bits), *bits))
EOF
G=$T/g.f32
GB=$(stat -c %s "$G")

# ---- TCP and UDP, IPv4 and IPv6, unmarked: bit-exact ------------------------------
for proto in tcp udp; do
	u=
	[ $proto = udp ] && u=--udp
	xfer $proto-v4 "$u -4 --bind 127.0.0.1 --verify $G --save $T/$proto-v4.out" \
		127.0.0.1 "$G" $u --no-mark
	clean $proto-v4 "$GB" && cmp -s "$G" "$T/$proto-v4.out" &&
		j "$T/$proto-v4-s.json" "j['proto'] == '$proto' and j['family'] == 'ipv4' and
			not j['marked'] and j['values_not_exact'] == 0 and j['max_abs_err'] == 0 and
			j['crc_match'] and j['values_compared'] == $GB // 4 and j['within_bound']" &&
		j "$T/$proto-v4-c.json" "j['mark'] == 'off' and not j['marked'] and
			j['server_crc_match'] and j['server_not_exact'] == 0"
	r=$?
	ok $r "$proto IPv4 --no-mark: pass, saved copy bit-exact, bytes and messages add up"
	[ $r -eq 0 ] || diag "$T/$proto-v4-c.json" "$T/$proto-v4-s.json" "$T/$proto-v4-s.err" "$T/$proto-v4-c.err"

	if ! serve probe6 -6 --bind ::1; then
		reap
		skip "$proto IPv6 (::1) --no-mark" "no IPv6 loopback ($(head -c 80 "$T/probe6.err"))"
	else
		timeout 5 "$IG" client ::1 "$G" --port "$port" --timeout 2 >/dev/null 2>&1
		reap
		xfer $proto-v6 "$u -6 --bind ::1 --verify $G --save $T/$proto-v6.out" \
			::1 "$G" $u --no-mark
		clean $proto-v6 "$GB" && cmp -s "$G" "$T/$proto-v6.out" &&
			j "$T/$proto-v6-s.json" "j['family'] == 'ipv6' and j['proto'] == '$proto' and
				j['peer'].startswith('[::1]:')" &&
			j "$T/$proto-v6-c.json" "j['family'] == 'ipv6'"
		r=$?
		ok $r "$proto IPv6 (::1) --no-mark: pass, saved copy bit-exact"
		[ $r -eq 0 ] || diag "$T/$proto-v6-c.json" "$T/$proto-v6-s.json" "$T/$proto-v6-s.err"
	fi
done

# small messages, several rounds: every header boundary is checked
xfer rep "--verify $G --save $T/rep.out" localhost "$G" --no-mark --msg 1000 --repeat 3
clean rep "$GB" && cmp -s "$G" "$T/rep.out" &&
	j "$T/rep-s.json" "j['messages_expected'] == 3 * (($GB + 999) // 1000) and
		j['rounds_crc_ok'] == 3 and j['msg_bytes'] == 1000 and j['repeat'] == 3"
r=$?
ok $r "tcp --msg 1000 --repeat 3: $((3 * ((GB + 999) / 1000))) messages, 3 rounds with equal CRC-32C"
[ $r -eq 0 ] || diag "$T/rep-s.json" "$T/rep-s.err"

# UDP: messages arriving in swapped pairs are put back in place
xfer swap "--udp --verify $G --save $T/swap.out" 127.0.0.1 "$G" --udp --no-mark --test-swap
clean swap "$GB" && cmp -s "$G" "$T/swap.out" && j "$T/swap-s.json" "j['reordered'] > 0"
r=$?
ok $r "udp --test-swap: reordered messages reassembled bit-exact"
[ $r -eq 0 ] || diag "$T/swap-s.json" "$T/swap-s.err"

# ---- --emulate-nic: within 2^-k, several k, every mode ---------------------------
for spec in tcp:2:paper tcp:10:sparse tcp:20:paper udp:6:sparse udp:10:paper udp:16:sparse \
	tcp:10:width udp:8:width tcp:24:width; do
	IFS=: read -r proto k mode <<<"$spec"
	u=
	[ $proto = udp ] && u=--udp
	name=emu-$proto-$k-$mode
	xfer $name "$u --verify $G --save $T/$name.out" 127.0.0.1 "$G" $u --emulate-nic -k "$k" --mode "$mode"
	clean $name "$GB" &&
		j "$T/$name-s.json" "j['marked'] and j['emulated'] and j['k'] == $k and j['mode'] == '$mode' and
			j['bound'] == 2.0 ** -$k and j['within_bound'] and j['values_over_bound'] == 0 and
			j['nonfinite_bad'] == 0 and 0 < j['max_abs_err'] <= 2.0 ** -$k and
			j['values_not_exact'] > 0 and not j['crc_match']" &&
		j "$T/$name-c.json" "j['mark'] == 'emulated' and j['marked'] and
			j['server_within_bound'] and j['server_max_abs_err'] <= 2.0 ** -$k" &&
		timeout 10 "$IG" verify "$G" "$T/$name.out" -k "$k" >/dev/null &&
		{ timeout 10 "$IG" verify "$G" "$T/$name.out" --exact >/dev/null; [ $? -eq 1 ]; }
	r=$?
	ok $r "$proto --emulate-nic k=$k $mode: pass, 0 < max error <= 2^-$k, saved copy passes verify -k $k, not --exact"
	[ $r -eq 0 ] || diag "$T/$name-s.json" "$T/$name-s.err" "$T/$name-c.err"
done

# ---- real gradients (../shared/gradients) -------------------------------------------
for spec in mlp-step0000:tcp:no-mark:10 cnn-step0050:udp:emulate-nic:10 \
	charlm-step0299:tcp:emulate-nic:12; do
	IFS=: read -r f proto how k <<<"$spec"
	F=$GRADS/$f.f32
	if [ ! -r "$F" ]; then
		skip "real gradients $f.f32 over $proto --$how" "$GRADS absent"
		continue
	fi
	u=
	[ $proto = udp ] && u=--udp
	xfer real-$f "$u --verify $F" localhost "$F" $u --"$how" -k "$k"
	clean real-$f "$(stat -c %s "$F")" &&
		if [ "$how" = no-mark ]; then
			j "$T/real-$f-s.json" "j['values_not_exact'] == 0 and j['crc_match']"
		else
			j "$T/real-$f-s.json" "j['within_bound'] and j['max_abs_err'] <= 2.0 ** -$k and
				j['values_not_exact'] > 0"
		fi
	r=$?
	ok $r "real gradients $f.f32 over $proto --$how k=$k: pass"
	[ $r -eq 0 ] || diag "$T/real-$f-s.json" "$T/real-$f-s.err" "$T/real-$f-c.err"
done

# ---- damaged transfers are failures ---------------------------------------------------
xfer drop "--udp --verify $G" 127.0.0.1 "$G" --udp --no-mark --test-drop 7
[ "$crc" -eq 1 ] && [ "$src" -eq 1 ] && keys_ok "$T/drop-s.json" "$SKEYS" &&
	j "$T/drop-s.json" "j['result'] == 'fail' and 'lost' in j['reason'] and
		0 < j['messages_lost'] == j['messages_expected'] - j['messages_received'] and
		j['rounds_incomplete'] == 1 and not j['crc_match']" &&
	j "$T/drop-c.json" "j['result'] == 'fail' and j['dropped_on_purpose'] > 0 and
		j['server_lost'] > 0 and j['payload_bytes'] < $GB and
		type(j['server_host_drops']) is int and type(j['host_tx_drops']) is int and
		type(j['host_neigh_failed']) is int" &&
	j "$T/drop-s.json" "type(j['host_rx_drops']) is int and
		j['host_ip_errors'] == 0 and j['messages_late'] == 0"
r=$?
ok $r "udp --test-drop 7: lost datagrams fail the transfer (exit 1 both sides), counts consistent, host drop counters reported"
[ $r -eq 0 ] || diag "$T/drop-s.json" "$T/drop-c.json"

xfer droploss "--udp --allow-loss" 127.0.0.1 "$G" --udp --no-mark --test-drop 4
[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] && j "$T/droploss-s.json" "j['result'] == 'pass' and
	j['messages_lost'] == j['messages_expected'] // 2 and j['messages_received'] > 0 and
	j['messages_not_exact'] == 0 and j['datagrams_bad'] == 0"
r=$?
ok $r "udp --test-drop 4 (every 2nd payload datagram) with --allow-loss: pass, headers without payload counted lost, nothing misplaced"
[ $r -eq 0 ] || diag "$T/droploss-s.json"

xfer droph "--udp --verify $G" 127.0.0.1 "$G" --udp --no-mark --test-drop 3
[ "$crc" -eq 1 ] && [ "$src" -eq 1 ] && j "$T/droph-s.json" "j['messages_lost'] > 0 and
	j['datagrams_bad'] > 0 and j['values_not_exact'] == 0"
r=$?
ok $r "udp --test-drop 3 (headers too): payloads without their header are discarded, not placed; fail"
[ $r -eq 0 ] || diag "$T/droph-s.json"

# the last message after the end record: later than --udp-wait, read while
# the server waits for its drop counters (1.5 s): late, not lost; later
# than that: lost
xfer late "--udp --verify $G --udp-wait 100" 127.0.0.1 "$G" --udp --no-mark --test-late 700
[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] && j "$T/late-s.json" "j['result'] == 'pass' and
	j['messages_late'] == 1 and j['messages_lost'] == 0 and j['crc_match'] and
	j['host_ip_errors'] == 0" &&
	j "$T/late-c.json" "j['server_lost'] == 0 and j['server_ip_errors'] == 0"
r=$?
ok $r "udp --test-late 700 with --udp-wait 100: the message after the wait is read as late, not lost; pass"
[ $r -eq 0 ] || diag "$T/late-s.json" "$T/late-c.json"
xfer latelost "--udp --verify $G --udp-wait 100 --allow-loss" 127.0.0.1 "$G" --udp --no-mark --test-late 2500
[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] && j "$T/latelost-s.json" "j['messages_late'] == 0 and
	j['messages_lost'] == 1 and not j['crc_match']"
r=$?
ok $r "udp --test-late 2500 with --udp-wait 100: past the counters' wait the message is lost"
[ $r -eq 0 ] || diag "$T/latelost-s.json" "$T/latelost-c.json"

# a payload after another message's header (its own payload and the next
# header lost): its tag tells, it is not placed (PROTOCOL.md, version 2)
xfer mispair "--udp --verify $G --allow-loss" 127.0.0.1 "$G" --udp --no-mark --test-mispair 5
[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] && j "$T/mispair-s.json" "j['result'] == 'pass' and
	j['messages_lost'] > 0 and j['datagrams_bad'] == j['messages_lost'] // 2 and
	j['values_not_exact'] == 0 and j['messages_not_exact'] == 0"
r=$?
ok $r "udp --test-mispair 5 unmarked: every payload after a foreign header discarded (datagrams_bad), nothing misplaced, every placed value exact"
[ $r -eq 0 ] || diag "$T/mispair-s.json"
xfer mispairq "--udp --verify $G --allow-loss" 127.0.0.1 "$G" --udp --emulate-nic --k 8 --test-mispair 3
[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] && j "$T/mispairq-s.json" "j['result'] == 'pass' and
	j['messages_lost'] > 0 and j['datagrams_bad'] > 0 and j['within_bound'] and
	j['values_over_bound'] == 0"
r=$?
ok $r "udp --test-mispair 3, lossy (--emulate-nic k=8): the NaN tag survives the codec, nothing misplaced, within the bound"
[ $r -eq 0 ] || diag "$T/mispairq-s.json"

xfer corrupt "" 127.0.0.1 "$G" --no-mark --test-corrupt 1 --msg 40000
[ "$crc" -eq 1 ] && [ "$src" -eq 1 ] &&
	j "$T/corrupt-s.json" "j['result'] == 'fail' and 'CRC' in j['reason'] and not j['verified'] and
		j['messages_not_exact'] == j['messages_received'] == j['messages_expected']"
r=$?
ok $r "tcp unmarked --test-corrupt without --verify: the headers' CRC-32C catch every damaged message (exit 1)"
[ $r -eq 0 ] || diag "$T/corrupt-s.json"

xfer corrupt2 "--udp --verify $G" 127.0.0.1 "$G" --udp --emulate-nic -k 8 --test-corrupt 5
[ "$crc" -eq 1 ] && [ "$src" -eq 1 ] &&
	j "$T/corrupt2-s.json" "j['result'] == 'fail' and 'bound' in j['reason'] and
		not j['within_bound'] and j['values_over_bound'] + j['nonfinite_bad'] > 0 and
		j['max_abs_err'] > 2.0 ** -8" &&
	j "$T/corrupt2-c.json" "j['server_within_bound'] is False and j['result'] == 'fail'"
r=$?
ok $r "udp --emulate-nic --test-corrupt 5: values outside 2^-8 fail the bound (exit 1)"
[ $r -eq 0 ] || diag "$T/corrupt2-s.json" "$T/corrupt2-c.json"

xfer stop "--verify $G" 127.0.0.1 "$G" --no-mark --msg 8000 --test-stop 3
[ "$crc" -eq 3 ] && [ "$src" -eq 3 ] &&
	j "$T/stop-s.json" "j['result'] == 'error' and 'short read' in j['reason'] and
		j['messages_received'] == 3" &&
	j "$T/stop-c.json" "j['result'] == 'error' and j['server_result'] is None"
r=$?
ok $r "tcp --test-stop 3: a transfer cut short mid-payload is an error on both sides (exit 3)"
[ $r -eq 0 ] || diag "$T/stop-s.json" "$T/stop-c.json"

xfer stopu "--udp --verify $G" 127.0.0.1 "$G" --udp --no-mark --test-stop 10
[ "$crc" -eq 3 ] && [ "$src" -eq 3 ] &&
	j "$T/stopu-s.json" "j['result'] == 'error' and 'end record' in j['reason']"
r=$?
ok $r "udp --test-stop 10: no end record is an error (exit 3)"
[ $r -eq 0 ] || diag "$T/stopu-s.json"

# the server's --verify file is not what the client sends
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[401] ^= 1
open(sys.argv[2], 'wb').write(d)" "$G" "$T/other.f32"
xfer other "--verify $T/other.f32" 127.0.0.1 "$G" --no-mark
[ "$crc" -eq 1 ] && [ "$src" -eq 1 ] && j "$T/other-s.json" "\"not the client's file\" in j['reason']"
r=$?
ok $r "--verify with another file of the same length: fail (exit 1)"
[ $r -eq 0 ] || diag "$T/other-s.json"

head -c 4000 "$G" >"$T/short.f32"
xfer vlen "--verify $T/short.f32" 127.0.0.1 "$G" --no-mark
[ "$crc" -eq 3 ] && [ "$src" -eq 3 ] && grep -q "length differs" "$T/vlen-c.err"
r=$?
ok $r "--verify file of another length: the server refuses, the client says why (exit 3)"
[ $r -eq 0 ] || diag "$T/vlen-c.err" "$T/vlen-s.err"

xfer noudp "" 127.0.0.1 "$G" --udp --no-mark
[ "$crc" -eq 3 ] && grep -q "start it with --udp" "$T/noudp-c.err"
r=$?
ok $r "udp client, server without --udp: refused with a clear message (exit 3)"
[ $r -eq 0 ] || diag "$T/noudp-c.err"

# ---- marking: no inceptionn module on this host ----------------------------------------
for fam in 127.0.0.1:tcp ::1:udp; do
	host=${fam%:*} proto=${fam##*:}
	u=
	[ $proto = udp ] && u=--udp
	xfer mark-$proto "$u" "$host" "$G" $u --mark
	[ "$crc" -eq 3 ] && [ "$src" -eq 3 ] &&
		grep -q "no gradient socket option.*INC_SO_GRADIENT" "$T/mark-$proto-c.err" &&
		j "$T/mark-$proto-c.json" "j['result'] == 'error' and 'inceptionn module' in j['reason'] and
			j['payload_bytes'] == 0" &&
		j "$T/mark-$proto-s.json" "j['result'] == 'error' and j['k'] is None"
	r=$?
	ok $r "--mark over $proto to $host without the module: clear error, exit 3, nothing sent"
	[ $r -eq 0 ] || diag "$T/mark-$proto-c.err" "$T/mark-$proto-c.json"
done

xfer trymark "--verify $G" 127.0.0.1 "$G"
clean trymark "$GB" && grep -q "warning: gradient marking unavailable" "$T/trymark-c.err" &&
	j "$T/trymark-c.json" "j['mark'] == 'unavailable' and not j['marked']" &&
	j "$T/trymark-s.json" "j['values_not_exact'] == 0"
r=$?
ok $r "no marking option given, no module: warns, sends unmarked, bit-exact pass"
[ $r -eq 0 ] || diag "$T/trymark-c.err" "$T/trymark-c.json"

# ---- forged protocol records at the server ---------------------------------------------
# hello, then message headers, built here independently of the C code
forge() {	# forge MODE PORT: talk to the server as a broken client
	timeout 10 python3 - "$@" <<'EOF'
import socket, struct, sys, time
def crc32c(b):
    c = 0xffffffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82f63b78 & -(c & 1))
    return c ^ 0xffffffff
def seal(b):
    return b + struct.pack('<I', crc32c(b))
mode, port = sys.argv[1], int(sys.argv[2])
s = socket.create_connection(('127.0.0.1', port))
data = bytes(range(256)) * 16                  # 4096 bytes, 1024 floats
hmode = {'width': 3, 'mode4': 4}.get(mode, 2)  # the hello's mode byte
hello = seal(struct.pack('<IHHQQIIIBB6x', 0x48524749, 2, 0, len(data), 2, 2048, 1,
                         crc32c(data), 10, hmode))
def msg(seq, off, n, magic=0x4d524749):
    return seal(struct.pack('<IIIIQI', magic, seq, 0, n, off, crc32c(data[off:off + n])))
if mode == 'garbage':
    s.sendall(b'GET / HTTP/1.0\r\n' * 3)
elif mode == 'shorthello':
    s.sendall(hello[:20])
else:
    s.sendall(hello)
    r = s.recv(16)
    if mode == 'mode4':     # status 3: invalid transfer parameters
        assert len(r) == 16 and r[:4] == b'IGRA' and r[6:8] == b'\3\0', r
    else:
        assert len(r) == 16 and r[:4] == b'IGRA' and r[6:8] == b'\0\0', r
    if mode == 'badcrc':
        h = bytearray(msg(0, 0, 2048)); h[9] ^= 1
        s.sendall(bytes(h) + data[:2048])
    elif mode == 'outofseq':
        s.sendall(msg(1, 2048, 2048) + data[2048:])
    elif mode == 'badend':
        s.sendall(msg(0, 0, 2048) + data[:2048] + msg(1, 2048, 2048) + data[2048:])
        s.sendall(seal(struct.pack('<IIIIQI', 0x45524749, 3, 1, 0, 4096, 0)))
    elif mode in ('good', 'width'):
        s.sendall(msg(0, 0, 2048) + data[:2048] + msg(1, 2048, 2048) + data[2048:])
        s.sendall(seal(struct.pack('<IIIIQI', 0x45524749, 2, 1, 0, 4096, 0)))
        r = s.recv(72)
        assert r[:4] == b'IGRR' and r[4:6] == b'\0\0', r
time.sleep(0.2)
s.close()
EOF
}
for spec in "good:0:pass" "width:0:pass" "mode4:3:mode 4" "garbage:3:bad magic" \
	"shorthello:3:short handshake" "badcrc:3:CRC-32C mismatch" "outofseq:3:out of sequence" \
	"badend:3:end record says"; do
	IFS=: read -r mode want text <<<"$spec"
	if serve forge-$mode; then
		forge "$mode" "$port" >"$T/forge-$mode.py" 2>&1
		fr=$?
		reap
		[ "$fr" -eq 0 ] && [ "$src" -eq "$want" ] &&
			{ [ "$want" -eq 0 ] && j "$T/forge-$mode.json" "j['result'] == 'pass' and
				j['mode'] == ('width' if '$mode' == 'width' else 'sparse')" ||
			  j "$T/forge-$mode.json" "j['result'] == 'error' and '$text' in j['reason']"; }
		r=$?
	else
		reap
		r=1
	fi
	ok $r "server given a forged client ($mode): exit $want, '$text'"
	[ $r -eq 0 ] || diag "$T/forge-$mode.json" "$T/forge-$mode.err" "$T/forge-$mode.py"
done

# ---- verify subcommand on crafted files ---------------------------------------------------
# pairs (original bits, received bits) and whether they meet 2^-10 / are exact
python3 - "$T" <<'EOF'
import struct, sys
d = sys.argv[1]
def f(x): return struct.unpack('<I', struct.pack('<f', x))[0]
eb = 2.0 ** -10
cases = {
    # name: [(orig, received)], within 2^-10
    'tie':     [(f(1.0), f(1.0 + eb)), (f(0.5), f(0.5 - eb)), (f(-3.0), f(-3.0 - eb))],
    'over':    [(f(1.0), f(1.0 + eb) + 1)],                # one ulp past the bound
    'tiny':    [(f(eb), 0x00000001)],                      # 2^-10 - 2^-149: within
    'tinyneg': [(f(eb), 0x80000001)],                      # 2^-10 + 2^-149: over
    'negzero': [(0x80000000, 0x00000000)],                 # -0 -> +0: within
    'nan':     [(0x7fc00001, 0x7fc00002)],                 # NaN payload changed
    'inf':     [(0x7f800000, f(3.0e38))],
}
for name, pairs in cases.items():
    a = [p[0] for p in pairs]; b = [p[1] for p in pairs]
    open('%s/v-%s-a' % (d, name), 'wb').write(struct.pack('<%dI' % len(a), *a))
    open('%s/v-%s-b' % (d, name), 'wb').write(struct.pack('<%dI' % len(b), *b))
EOF
for spec in tie:0:1:3:0 over:1:1:1:0 tiny:0:1:1:0 tinyneg:1:1:1:0 negzero:0:1:1:0 \
	nan:1:1:1:1 inf:1:1:1:1; do
	IFS=: read -r name want wantx ne nf <<<"$spec"
	timeout 10 "$IG" verify "$T/v-$name-a" "$T/v-$name-b" -k 10 --json >"$T/v-$name.json" 2>&1
	rb=$?
	timeout 10 "$IG" verify "$T/v-$name-a" "$T/v-$name-b" --exact >/dev/null 2>&1
	rx=$?
	[ "$rb" -eq "$want" ] && [ "$rx" -eq "$wantx" ] &&
		j "$T/v-$name.json" "j['role'] == 'verify' and j['check'] == 'bound' and
			j['result'] == ('pass' if $want == 0 else 'fail') and
			j['within_bound'] == ($want == 0) and j['values_not_exact'] == $ne and
			j['nonfinite_bad'] == $nf"
	r=$?
	ok $r "verify -k 10 on crafted '$name' values: bound exit $want, --exact exit $wantx"
	[ $r -eq 0 ] || diag "$T/v-$name.json"
done

timeout 10 "$IG" verify "$G" "$G" --exact --json >"$T/v-same.json"
[ $? -eq 0 ] && j "$T/v-same.json" "j['result'] == 'pass' and j['values_compared'] == $GB // 4 and
	j['values_not_exact'] == 0 and j['max_abs_err'] == 0"
ok $? "verify --exact of a file against itself: pass, every value compared"

timeout 10 "$IG" verify "$G" "$T/short.f32" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] && grep -q "lengths differ" "$T/err"
ok $? "verify of files of different lengths: fail (exit 1)"

# the codec library's own round trip (inccodec) meets the bound incgrad checks
INCCODEC=$BUILD/bin/inccodec
if [ -x "$INCCODEC" ]; then
	"$INCCODEC" compress -k 7 --mode paper "$G" "$T/g.incg" >/dev/null &&
		"$INCCODEC" decompress "$T/g.incg" "$T/g.dec" >/dev/null &&
		timeout 10 "$IG" verify "$G" "$T/g.dec" -k 7 >/dev/null &&
		{ timeout 10 "$IG" verify "$G" "$T/g.dec" -k 8 >/dev/null; [ $? -eq 1 ]; }
	ok $? "verify: inccodec's k=7 round trip passes -k 7 and fails the tighter -k 8"
else
	skip "verify against inccodec's round trip" "no $INCCODEC"
fi

# ---- file and network errors: exit 3 -----------------------------------------------------
head -c 10 "$G" >"$T/ten"
: >"$T/empty"
expect() {	# expect WANT-EXIT STDERR-REGEX DESCRIPTION -- COMMAND...
	local want=$1 re=$2 what=$3 rc
	shift 4
	timeout 20 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq "$want" ] && grep -qE -- "$re" "$T/err"
	ok $? "$what (exit $rc, stderr: $(head -c 100 "$T/err" | tr '\n' ' '))"
}
expect 3 "No such file" "client: missing file" -- "$IG" client 127.0.0.1 "$T/nope.f32"
expect 3 "not a multiple of 4" "client: 10-byte file" -- "$IG" client 127.0.0.1 "$T/ten"
expect 3 "empty file" "client: empty file" -- "$IG" client 127.0.0.1 "$T/empty"
expect 3 "Is a directory" "client: a directory" -- "$IG" client 127.0.0.1 "$T"
expect 3 "not a multiple of 4" "server: --verify file of 10 bytes" -- "$IG" server --verify "$T/ten"
expect 3 "No such file" "verify: missing file" -- "$IG" verify "$G" "$T/nope.f32"
# a port nothing listens on: a server that came and went
serve closed && timeout 5 "$IG" client 127.0.0.1 "$G" --port "$port" --no-mark >/dev/null 2>&1
reap
expect 3 "Connection refused" "client: nothing listens on the port" -- \
	"$IG" client 127.0.0.1 "$G" --port "$port" --no-mark --timeout 2
timeout 5 "$IG" client 127.0.0.1 "$G" --port "$port" --no-mark --json >"$T/refused.json" 2>/dev/null
[ $? -eq 3 ] && j "$T/refused.json" "j['result'] == 'error' and 'cannot connect' in j['reason'] and
	j['server_result'] is None and j['bytes_written'] == 0"
ok $? "client --json when the connection is refused: result error, exit 3"
expect 3 "Name or service not known|not known|resolution" "client: a host name that does not resolve" -- \
	"$IG" client no-such-host.invalid "$G" --timeout 2

# ---- usage errors: exit 2 ------------------------------------------------------------------
expect 2 "no subcommand" "no subcommand" -- "$IG"
expect 2 "unknown subcommand" "unknown subcommand" -- "$IG" serve
expect 2 "needs HOST and FILE" "client without FILE" -- "$IG" client 127.0.0.1
expect 2 "1\.\.24" "client -k 0" -- "$IG" client 127.0.0.1 "$G" -k 0
expect 2 "1\.\.24" "client -k 25" -- "$IG" client 127.0.0.1 "$G" -k 25
expect 2 "1\.\.24" "client --k ten" -- "$IG" client 127.0.0.1 "$G" --k ten
expect 2 "paper, sparse or width" "client --mode dense" -- "$IG" client 127.0.0.1 "$G" --mode dense
expect 2 "exclude each other" "--no-mark with --emulate-nic" -- "$IG" client 127.0.0.1 "$G" --no-mark --emulate-nic
expect 2 "for --udp" "--test-drop without --udp" -- "$IG" client 127.0.0.1 "$G" --test-drop 3
expect 2 "multiple of 4" "--msg 6" -- "$IG" client 127.0.0.1 "$G" --msg 6
expect 2 "at most 65500" "--msg 65508 over UDP" -- "$IG" client 127.0.0.1 "$G" --udp --msg 65508
expect 2 "unrecognized option" "client --bogus" -- "$IG" client 127.0.0.1 "$G" --bogus
expect 2 "--port" "server --port 70000" -- "$IG" server --port 70000
expect 2 "unexpected argument" "server with an argument" -- "$IG" server extra
expect 2 "1\.\.24" "verify -k 30" -- "$IG" verify "$G" "$G" -k 30
expect 2 "ORIGINAL and RECEIVED" "verify with one file" -- "$IG" verify "$G"
timeout 5 "$IG" --help | grep -q "incgrad client HOST FILE"
ok $? "--help prints the usage on stdout, exit 0"

echo "1..$n"
[ "$bad" -eq 0 ]
