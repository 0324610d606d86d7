#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make demo`: a simulated inceptionn cluster moving real gradients.
#
# HOSTS QEMU guests (Debian's kernel, inceptionn.ko), each with an incsim NIC
# (the NIC's RTL under Verilator), all plugged into one simulated switch
# (incswitch). Around the ring of hosts, one sender at a time, each host
# sends the demo file to the next: with iperf3 unmarked, with incgrad marked
# as gradients, and with incgrad unmarked; every receiver verifies what it
# got. Then one table: throughput, bytes, compression, errors, verdicts, and
# the NICs' counters (docs/demo.md explains each number).
#
# MODE=width: a NIC that advertises width mode (FEATURES bit 12: the 16-lane
# NIC, register map 1.3, as incsim's is) compresses and restores it, and the
# marked rows get the usual checks (compressed, within the bound). On a NIC
# without the bit (an 8-lane one) the driver sends the width-marked frames
# uncompressed and counts them in drv_tx_plain_feature: the marked rows of
# those hosts then check exactly that (nothing compressed, every frame
# counted, every byte exact) and say so. After the table, which hosts had
# the bit, and the library's own width and sparse ratios on the file, in
# software on this host.
#
# usage: scripts/demo.sh   (options in the environment, as make passes them)
#   HOSTS=N        hosts, 2 to 8 (default 2)
#   K=K            error bound 2^-K of the marked transfer, 1 to 24 (default 10)
#   MODE=M         paper, sparse or width (default sparse, which every NIC
#                  takes; width: see above)
#   MTU=M          1500 or 9000 (default 1500)
#   DEMO_FILE=F    a raw float32 file (default ../shared/gradients/charlm-step0150.f32;
#                  a directory: its charlm-step0150.f32)
#   DEMO_TIMEOUT=S wall-clock limit in seconds (default 600)
#   IPERF_SECONDS=S length of the iperf3 phase (default 5)
#   SIM=M          the NICs' model: rtl (default: the NIC's RTL, Verilated,
#                  against the real driver) or behavioral (incsim --model
#                  behavioral: the same device without the RTL's timing,
#                  much faster; docs/sim.md "Two models")
# Exit status: 0 when every verification passed, 1 when one failed or the
# cluster did not run, 2 for a bad option. Logs: build/demo/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
OUT=$BUILD/demo
HOSTS=${HOSTS:-2}
K=${K:-10}
MODE=${MODE:-sparse}
MTU=${MTU:-1500}
DEMO_FILE=${DEMO_FILE:-../shared/gradients/charlm-step0150.f32}
DEMO_TIMEOUT=${DEMO_TIMEOUT:-600}
IPERF_SECONDS=${IPERF_SECONDS:-5}
SIM=${SIM:-rtl}

bad_opt() {
	echo "make demo: $*" >&2
	exit 2
}
[[ $HOSTS =~ ^[0-9]+$ ]] && [ "$HOSTS" -ge 2 ] && [ "$HOSTS" -le 8 ] ||
	bad_opt "HOSTS=$HOSTS: a number of hosts from 2 to 8 expected"
[[ $K =~ ^[0-9]+$ ]] && [ "$K" -ge 1 ] && [ "$K" -le 24 ] ||
	bad_opt "K=$K: the error bound is 2^-K, K from 1 to 24"
[ "$MODE" = paper ] || [ "$MODE" = sparse ] || [ "$MODE" = width ] ||
	bad_opt "MODE=$MODE: paper, sparse or width expected"
[ "$MTU" = 1500 ] || [ "$MTU" = 9000 ] || bad_opt "MTU=$MTU: 1500 or 9000 expected"
[ "$SIM" = rtl ] || [ "$SIM" = behavioral ] ||
	bad_opt "SIM=$SIM: rtl (the NIC's RTL) or behavioral (its behavioral model) expected"
[[ $DEMO_TIMEOUT =~ ^[0-9]+$ ]] || bad_opt "DEMO_TIMEOUT=$DEMO_TIMEOUT: seconds expected"
[[ $IPERF_SECONDS =~ ^[0-9]+$ ]] && [ "$IPERF_SECONDS" -ge 1 ] && [ "$IPERF_SECONDS" -le 60 ] ||
	bad_opt "IPERF_SECONDS=$IPERF_SECONDS: 1 to 60 seconds expected"
[ -d "$DEMO_FILE" ] && DEMO_FILE=$DEMO_FILE/charlm-step0150.f32
[ -f "$DEMO_FILE" ] && [ -r "$DEMO_FILE" ] ||
	bad_opt "DEMO_FILE=$DEMO_FILE: no such readable file (a raw float32 file)"
size=$(stat -c %s "$DEMO_FILE")
[ "$size" -ge 4 ] && [ $((size % 4)) -eq 0 ] ||
	bad_opt "DEMO_FILE=$DEMO_FILE: $size bytes is not a whole number of float32 values"
[ "$size" -le $((64 << 20)) ] ||
	bad_opt "DEMO_FILE=$DEMO_FILE: $size bytes; at most 64 MiB (the guests keep it in RAM)"

T0=$(date +%s.%N)
stamp() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "[%6.1fs]", b - a }'; }
step() { echo "$(stamp) $*"; }

RUNPID=
cleanup() {
	trap '' INT TERM
	if [ -n "$RUNPID" ] && kill -0 "$RUNPID" 2>/dev/null; then
		kill -TERM "$RUNPID" 2>/dev/null	# run.sh stops its guests and NICs
		wait "$RUNPID" 2>/dev/null
	fi
	rm -f "$OUT"/*.cpio.gz
}
trap cleanup EXIT
trap 'echo; step "interrupted: stopping the cluster"; exit 130' INT
trap 'step "terminated: stopping the cluster"; exit 143' TERM

mkdir -p "$OUT" || exit 1
rm -f "$OUT"/logs/*.log
step "building: inceptionn.ko, incsim, incswitch, incgrad"
ko=$(scripts/build-module.sh 2>"$OUT/build.log") || {
	cat "$OUT/build.log" >&2
	step "the module did not build"
	exit 1
}
make --no-print-directory "$BUILD/bin/incsim" "$BUILD/bin/incswitch" \
	"$BUILD/bin/incgrad" "$BUILD/bin/inccodec" >>"$OUT/build.log" 2>&1 || {
	tail -n 20 "$OUT/build.log" >&2
	step "the simulator or the tools did not build"
	exit 1
}
tests/vm/mkinitrd.sh "$OUT/host.cpio.gz" --file "$ko:/lib/modules/inceptionn.ko" \
	--file "$DEMO_FILE:/data/demo.f32" --file tests/driver/selftests/lib.sh:/lib/inc-lib.sh \
	--bin ethtool --bin iperf3 \
	--bin "$BUILD/bin/incgrad" --script scripts/demo-guest.sh >>"$OUT/build.log" 2>&1 || {
	tail -n 20 "$OUT/build.log" >&2
	step "the guest image did not build"
	exit 1
}

mem=$(((size * 3 >> 20) + 256))M
args=(--timeout "$DEMO_TIMEOUT" --log-dir "$OUT/logs" --switch sw0)
for ((h = 0; h < HOSTS; h++)); do
	args+=(--guest "host$h:$OUT/host.cpio.gz:$mem" --nic "host$h:nic$h:link-connect=sw0:model=$SIM"
		--append "host$h:inc.host=$h inc.hosts=$HOSTS inc.k=$K inc.mode=$MODE inc.mtu=$MTU inc.iperf=$IPERF_SECONDS")
done
if [ "$SIM" = rtl ]; then simdesc="the NIC's RTL (Verilator)"; else simdesc="the NIC's behavioral model"; fi
step "booting $HOSTS hosts (QEMU, Debian $(tests/vm/kver.sh)), each with an incsim NIC ($simdesc), on one switch;" \
	"file $DEMO_FILE ($size bytes), K=$K MODE=$MODE MTU=$MTU"
[ "$MODE" = width ] &&
	step "MODE=width: a NIC compresses width mode if it advertises it (FEATURES bit 12: 16 lanes, register map 1.3); without the bit the marked transfers go uncompressed"
mkdir -p "$OUT/logs"
tests/vm/run.sh "${args[@]}" >"$OUT/run.tap" 2>&1 &
RUNPID=$!

# progress: the hosts' "DEMO: " lines as they come, whole lines only
# (scripts/lib/console.sh)
. scripts/lib/console.sh
declare -A seen=()
progress() {
	local h log n l
	for ((h = 0; h < HOSTS; h++)); do
		log=$OUT/logs/host$h.log
		[ -r "$log" ] || continue
		n=0
		while IFS= read -r l; do
			n=$((n + 1))
			[ "$n" -le "${seen[$h]:-0}" ] && continue
			seen[$h]=$n
			l=${l%$'\r'}
			[[ $l == DEMO:\ * ]] && step "${l#DEMO: }"
		done < <(whole_lines "$log" | grep -a '^DEMO: ')
	done
}
while kill -0 "$RUNPID" 2>/dev/null; do
	progress
	sleep 0.5
done
wait "$RUNPID"
rc=$?
RUNPID=
progress
step "cluster stopped"

# MODE=width: the codec library in software on this host (what inccl's sw
# transport and the DDP hook use by default): bytes of the file in width
# and sparse mode, for the table's note
sw_w=- sw_s=-
if [ "$MODE" = width ]; then
	for m in width sparse; do
		if "$BUILD/bin/inccodec" compress -k "$K" --mode "$m" "$DEMO_FILE" "$OUT/sw-$m.inc" 2>>"$OUT/build.log"; then
			if [ "$m" = width ]; then sw_w=$(stat -c %s "$OUT/sw-$m.inc"); else sw_s=$(stat -c %s "$OUT/sw-$m.inc"); fi
		fi
		rm -f "$OUT/sw-$m.inc"
	done
fi
# ---- the table
results=$(cat "$OUT"/logs/host*.log 2>/dev/null | tr -d '\r' | grep -a '^DEMO-RESULT ')
stats=$(cat "$OUT"/logs/host*.log 2>/dev/null | tr -d '\r' | grep -a '^DEMO-STAT ')
awk -v hosts="$HOSTS" -v k="$K" -v mode="$MODE" -v mtu="$MTU" -v size="$size" -v sim="$simdesc" \
	-v sw_w="$sw_w" -v sw_s="$sw_s" '
function kv(line, key,   i, n, f) {
	n = split(line, f, " ")
	for (i = 1; i <= n; i++)
		if (index(f[i], key "=") == 1)
			return substr(f[i], length(key) + 2)
	return ""
}
function mb(b) { return sprintf("%.2f", b / 1e6) }
# a hex word "0x..." as a number (mawk has no strtonum)
function hex(s,   i, v) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
/^DEMO-RESULT/ {
	ph = kv($0, "phase")
	if (ph == "nic") {
		f = kv($0, "features")
		feat[kv($0, "host")] = f
		# FEATURES bit 12: the NIC compresses and restores width mode
		wfeat[kv($0, "host")] = f ~ /^0x[0-9a-fA-F]+$/ && int(hex(f) / 4096) % 2
		next
	}
	if (ph == "iperf3-recv") {
		exact[kv($0, "host")] = kv($0, "exact")
		next
	}
	key = ph SUBSEP kv($0, "from")
	for (i = 2; i <= NF; i++) { split($i, p, "="); R[key, p[1]] = p[2] }
	have[ph, kv($0, "from")] = 1
}
/^DEMO-STAT/ {
	split($2, hh, "="); S[hh[2], $3] = $4
	if (!($3 in names)) { names[$3] = 1; order[++nn] = $3 }
}
END {
	fails = 0
	printf "\n%s\n", "inceptionn demo: " hosts " hosts on one switch, " size " bytes of float32 per transfer, K=" k " (bound 2^-" k "), MODE=" mode ", MTU=" mtu
	printf "%s\n", "NIC model: " sim
	printf "\n%-9s %-10s %9s %12s %12s %12s %8s %12s %-28s\n", "transfer", "from->to", "Mbit/s", "app bytes", "link bytes", "NIC saved", "ratio", "max error", "verdict"
	for (ph = 1; ph <= 3; ph++) {
		name = ph == 1 ? "iperf3" : ph == 2 ? "marked" : "unmarked"
		for (h = 0; h < hosts; h++) {
			key = name SUBSEP h
			to = (h + 1) % hosts
			if (!have[name, h]) {
				printf "%-9s %-10s %9s %12s %12s %12s %8s %12s %-28s\n", name, h "->" to, "-", "-", "-", "-", "-", "-", "FAIL (did not run)"
				fails++
				continue
			}
			link = R[key, "link_bytes"]
			if (name == "iperf3") {
				app = 0
				ok = exact[to] == "yes" && R[key, "comp_frames"] == 0
				v = ok ? "pass: 0 compressed, 0 csum err" : "FAIL: " (exact[to] == "yes" ? "frames compressed" : "checksum errors")
				err = "0"
				saved = 0
			} else {
				app = R[key, "written"]
				saved = R[key, "saved"]
				err = R[key, "max_err"]
				ok = R[key, "rc"] == 0 && R[key, "verdict"] == "pass"
				if (name == "marked" && mode == "width" && !wfeat[h]) {
					# the NIC lacks width mode (8 lanes, or before
					# 1.3): sent as it is, and counted; nothing
					# compressed, every byte exact
					plain = R[key, "plain_feature"]
					ok = ok && R[key, "comp_frames"] == 0 && saved == 0 &&
					     plain > 0 && err == 0 && R[key, "crc_match"] == "true"
					plain_total += plain
					nowidth++
					if (ok)
						v = "pass: sent plain, exact (" plain " in drv_tx_plain_feature)"
					else if (R[key, "reason"] != "")
						v = "FAIL: " R[key, "reason"]
					else
						v = "FAIL: compressed " R[key, "comp_frames"] ", plain_feature " plain ", max error " err
				} else if (name == "marked") {
					ok = ok && R[key, "comp_frames"] > 0
					v = ok ? "pass: within 2^-" k : "FAIL: " R[key, "reason"]
				} else {
					ok = ok && R[key, "comp_frames"] == 0 && R[key, "crc_match"] == "true"
					v = ok ? "pass: every byte exact" : "FAIL: " R[key, "reason"]
				}
			}
			if (!ok)
				fails++
			if (name == "iperf3")
				printf "%-9s %-10s %9.2f %12s %12d %12d %8s %12s %-28s\n", name, h "->" to, R[key, "mbps"], "-", link, saved, "-", "-", v
			else
				printf "%-9s %-10s %9.2f %12d %12d %12d %7.2fx %12.6g %-28s\n", name, h "->" to, R[key, "mbps"], app, link, saved, (link > 0 ? app / link : 0), err, v
		}
	}
	printf "\nNIC counters (ethtool -S) after the run:\n%-22s", "counter"
	for (h = 0; h < hosts; h++)
		printf " %14s", "host" h
	printf "\n"
	for (i = 1; i <= nn; i++) {
		printf "%-22s", order[i]
		for (h = 0; h < hosts; h++)
			printf " %14s", S[h, order[i]] == "" ? "-" : S[h, order[i]]
		printf "\n"
	}
	if (mode == "width") {
		no = yes = ""
		for (h = 0; h < hosts; h++)
			if (wfeat[h])
				yes = yes " host" h
			else
				no = no " host" h " (FEATURES " (h in feat ? feat[h] : "unknown") ")"
		printf "\n"
		if (yes != "")
			printf "MODE=width: FEATURES bit 12 is set on%s: those NICs take width mode\n" \
			       "(mode 3), and their marked rows are checked as in any mode (compressed, within the bound).\n", yes
		if (no != "")
			printf "MODE=width: FEATURES bit 12 is clear on%s:\n" \
			       "those NICs do not take width mode (it needs 16 lanes and register map 1.3).\n" \
			       "The driver sent the width-marked frames of those hosts uncompressed, as they are\n" \
			       "(%d frames, counted in drv_tx_plain_feature), so their marked rows above\n" \
			       "show no NIC compression: the values arrived exact. On such a NIC use\n" \
			       "MODE=sparse or MODE=paper.\n", no, plain_total
		if (sw_w ~ /^[1-9][0-9]*$/ && sw_s ~ /^[1-9][0-9]*$/) {
			printf "In software (the codec library, inccodec on this host, k=%s): width mode %.2fx\n", k, size / sw_w
			printf "on this file, sparse %.2fx: %.2f times fewer bytes in width mode (docs/codec.md\n", size / sw_s, sw_s / sw_w
			printf "section 12). The sw transport of inccl and the DDP hook use width by default.\n"
		} else {
			printf "In software: inccodec could not compress the file (log: build.log)\n"
			fails++
		}
	}
	printf "\n%s\n", fails ? fails " verification(s) FAILED" : "every verification passed"
	exit fails ? 1 : 0
}' <<<"$results"$'\n'"$stats"
verdict=$?
if [ "$rc" -ne 0 ]; then
	echo
	echo "the cluster did not run cleanly (run.sh exit $rc):"
	grep -E '^not ok|^# ' "$OUT/run.tap" | head -30
	verdict=1
fi
step "logs: $OUT/logs/ (each host's console, each NIC's incsim, the switch)"
exit "$verdict"
