#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make bench-inccl`: inccl's all-reduce over shaped links, side by side.
#
# RANKS hosts, each a Linux network namespace whose one veth leads to a
# bridge in a namespace of its own (the host's networking is untouched).
# tbf on both ends of every veth: the host's side shapes what it sends, the
# bridge's side what it receives, so each host has the link rate each way,
# as with a NIC (shaping only the sending side would let the aggregator
# receive from all workers at once at RANKS-1 times the rate). Per link rate
# and size, incbench all-reduce runs once per configuration, one process per
# rank in the namespaces (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, as
# torchrun sets them): ring and wa (worker-aggregator), each with transport
# none, sw k=10 and sw k=8, on real gradients. Every result must pass
# incbench's check. Then one table: the times, the cut of ring+sw against
# wa+none and against ring+none, ring+sw's compression ratio and codec CPU.
#
# usage: scripts/bench-inccl.sh   (as root; options in the environment)
#   RATES="1gbit 10gbit"  link rates: a number, then kbit, mbit or gbit
#   SIZES="1M 3809600 16M 44726568"
#                  all-reduce sizes in bytes (K, M, G: powers of 1024), each
#                  a multiple of 4. A size's data is the largest real gradient
#                  set not above it, tiled to the size: mlp+cnn (808528 bytes),
#                  charlm (3809600), charlm at 4 training steps (15238400),
#                  ResNet-18 (44726568; made once by gen.py into
#                  $BUILD/gradients/, and if python3-torch cannot be had,
#                  left out: charlm stands in, labelled so)
#   ITERS=N WARM=N timed and warm-up iterations per run (default 10 and 2)
#   RANKS=N        hosts, 2 to 8 (default 4)
#   RUN_TIMEOUT=S  wall-clock limit of one incbench run (default 600)
#   SHORT=1        the CI form: defaults RATES=1gbit SIZES="1M 3809600"
#                  ITERS=2 WARM=1 (the same code path, a minute or less)
#   BENCH_OUT=DIR  logs, CSVs and data (default $BUILD/bench-inccl)
# Exit status: 0 when every run passed its check, 1 when one did not (its
# cells say FAIL), 2 for a bad option, 3 when this host cannot run it (not
# root, no network namespaces, veth, bridge or tbf). Results: one line per
# run in $BENCH_OUT/results.tsv; each rank's output in $BENCH_OUT/logs/.
#
# Links: scripts/lib/netns.sh (tbf's rate, burst and queue, and why).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 3
BUILD=${BUILD:-build}
G=${INC_GRADIENTS:-../shared/gradients}
OUT=${BENCH_OUT:-$BUILD/bench-inccl}
if [ "${SHORT:-0}" = 1 ]; then
	RATES=${RATES:-1gbit} SIZES=${SIZES:-1M 3809600} ITERS=${ITERS:-2} WARM=${WARM:-1}
else
	RATES=${RATES:-1gbit 10gbit} SIZES=${SIZES:-1M 3809600 16M 44726568}
	ITERS=${ITERS:-10} WARM=${WARM:-2}
fi
RANKS=${RANKS:-4}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
PORT=29500
NET=198.18.0	# RFC 2544's range for benchmarks; host r is $NET.(r+1)
RESNET18_BYTES=44726568	# torchvision's resnet18, 10 classes: 11181642 float32
# the six configurations: algorithm, transport, k
CONFIGS=("ring none 10" "wa none 10" "ring sw 10" "wa sw 10" "ring sw 8" "wa sw 8")
unset "${!INCCL_@}"	# only the options below configure the ranks

bad_opt() {
	echo "bench-inccl: $*" >&2
	exit 2
}
cannot() {
	echo "bench-inccl: $*" >&2
	exit 3
}

# ---- options
. scripts/lib/netns.sh
netns_rates "$RATES"
BYTES=()
for s in $SIZES; do
	[[ $s =~ ^([0-9]+)([KMG]?)$ ]] ||
		bad_opt "SIZES: '$s': a size in bytes expected (K, M, G suffixes)"
	case ${BASH_REMATCH[2]} in
	K) b=$((BASH_REMATCH[1] << 10)) ;;
	M) b=$((BASH_REMATCH[1] << 20)) ;;
	G) b=$((BASH_REMATCH[1] << 30)) ;;
	*) b=${BASH_REMATCH[1]} ;;
	esac
	[ "$b" -ge 1024 ] && [ "$b" -le $((1 << 30)) ] && [ $((b % 4)) -eq 0 ] ||
		bad_opt "SIZES: '$s': a multiple of 4 bytes from 1K to 1G expected"
	BYTES+=("$b")
done
[ ${#BYTES[@]} -gt 0 ] || bad_opt "SIZES is empty"
for v in ITERS WARM RANKS RUN_TIMEOUT; do
	[[ ${!v} =~ ^[0-9]+$ ]] || bad_opt "$v=${!v}: a whole number expected"
done
[ "$ITERS" -ge 1 ] || bad_opt "ITERS=$ITERS: at least 1"
[ "$RANKS" -ge 2 ] && [ "$RANKS" -le 8 ] || bad_opt "RANKS=$RANKS: from 2 to 8"
[ "$RUN_TIMEOUT" -ge 1 ] || bad_opt "RUN_TIMEOUT=$RUN_TIMEOUT: at least 1 second"

# ---- what the host must offer
netns_check
for f in mlp-step0150 cnn-step0150 charlm-step0010 charlm-step0050 charlm-step0150 charlm-step0299; do
	[ -r "$G/$f.f32" ] || cannot "no real gradients: $G/$f.f32 is missing"
done

T0=$(date +%s.%N)
stamp() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "[%6.1fs]", b - a }'; }
step() { echo "$(stamp) $*"; }

# ---- cleanup: the ranks, the namespaces (their veths go with them), temp files
ID=incb$$
NS=() PIDS=() TMPS=()
cleanup() {
	local p
	trap '' INT TERM
	netns_cleanup
	for p in "${TMPS[@]}"; do
		rm -rf "$p"
	done
}
trap cleanup EXIT
trap 'echo; step "interrupted: removing the namespaces"; exit 130' INT
trap 'step "terminated: removing the namespaces"; exit 143' TERM

mkdir -p "$OUT/logs" "$OUT/csv" "$OUT/data" || exit 1
rm -f "$OUT"/logs/*.log "$OUT"/csv/*.csv "$OUT/results.tsv"

# namespaces of an earlier run killed before it could remove them
netns_stale incb

step "building incbench"
make --no-print-directory BUILD="$BUILD" "$BUILD/bin/incbench" >"$OUT/build.log" 2>&1 || {
	tail -n 20 "$OUT/build.log" >&2
	echo "bench-inccl: incbench did not build (log: $OUT/build.log)" >&2
	exit 1
}
IB=$BUILD/bin/incbench

# ---- data: real gradient sets, smallest first
DNAME=() DFILE=() DSIZE=()
add_data() {	# add_data NAME FILE
	DNAME+=("$1") DFILE+=("$2") DSIZE+=("$(stat -c %s "$2")")
}
cat "$G/mlp-step0150.f32" "$G/cnn-step0150.f32" >"$OUT/data/mlp+cnn.f32" &&
	cat "$G"/charlm-step{0010,0050,0150,0299}.f32 >"$OUT/data/charlm-4steps.f32" ||
	exit 1
add_data "mlp+cnn" "$OUT/data/mlp+cnn.f32"
add_data "charlm" "$G/charlm-step0150.f32"
add_data "charlm 4 steps" "$OUT/data/charlm-4steps.f32"

# resnet18: ResNet-18's gradient at step 59 of gen.py's training run; made
# once (about a minute), kept in $BUILD/gradients/. 1 (and $DATA_NOTE) when
# it cannot be made.
DATA_NOTE=
resnet18() {
	local f=$BUILD/gradients/resnet18-step0059.f32 tmp
	if [ ! -s "$f" ]; then
		step "ResNet-18 gradients: making them once with $G/gen.py into $BUILD/gradients/"
		if ! scripts/install-deps.sh torch >"$OUT/torch-install.log" 2>&1; then
			DATA_NOTE="python3-torch and python3-torchvision could not be installed ($OUT/torch-install.log)"
			return 1
		fi
		mkdir -p "$BUILD/gradients" && tmp=$(mktemp -d "$BUILD/gradients/tmp.XXXXXX") || return 1
		TMPS+=("$tmp")
		if ! /usr/bin/python3 "$G/gen.py" "$tmp" 1 resnet18 >"$OUT/gen.log" 2>&1 ||
			[ ! -s "$tmp/resnet18-step0059.f32" ]; then
			DATA_NOTE="gen.py made no ResNet-18 gradients ($OUT/gen.log)"
			return 1
		fi
		mv "$tmp"/resnet18-step*.f32 "$BUILD/gradients/" || return 1
	fi
	add_data "ResNet-18" "$f"
}
max=0
for b in "${BYTES[@]}"; do
	[ "$b" -gt "$max" ] && max=$b
done
if [ "$max" -ge "$RESNET18_BYTES" ] && ! resnet18; then
	step "no ResNet-18 gradients: $DATA_NOTE; charlm stands in, tiled"
	DATA_NOTE="ResNet-18 gradients unavailable: $DATA_NOTE; charlm stands in, tiled"
fi

# data_for SIZE: the index of the largest set not above SIZE (else the smallest)
data_for() {
	local i best=0
	for i in "${!DSIZE[@]}"; do
		[ "${DSIZE[$i]}" -le "$1" ] && best=$i
	done
	echo "$best"
}

# ---- the hosts
step "hosts: $RANKS network namespaces $ID-h0..$((RANKS - 1)) ($NET.1-$RANKS), bridge in $ID-br"
netns_hosts "$ID" "$RANKS" "$NET"

# run RATE SIZE DATA-INDEX ALGO TRANSPORT K: one incbench all-reduce, one
# process per rank; a line of $OUT/results.tsv
run() {
	local rate=$1 size=$2 d=$3 algo=$4 tr=$5 k=$6 cfg tag csv r rc msg why='' row
	cfg=$algo+$tr
	[ "$tr" = sw ] && cfg=$cfg$k
	tag=$rate-$size-$cfg
	csv=$OUT/csv/$tag.csv
	PIDS=()
	for ((r = 0; r < RANKS; r++)); do
		# rank 0 writes the CSV
		ip netns exec "$ID-h$r" env RANK=$r WORLD_SIZE="$RANKS" MASTER_ADDR="$NET.1" \
			MASTER_PORT=$PORT timeout -k 5 "$RUN_TIMEOUT" "$IB" allreduce \
			--algo "$algo" --transport "$tr" -k "$k" --mode sparse -b "$size" -e "$size" \
			-n "$ITERS" -w "$WARM" --data "${DFILE[$d]}" --csv "$csv" \
			>"$OUT/logs/$tag.rank$r.log" 2>&1 &
		PIDS+=($!)
	done
	for ((r = 0; r < RANKS; r++)); do
		wait "${PIDS[$r]}"
		rc=$?
		if [ "$rc" -eq 124 ]; then
			why="$why rank $r timed out ($RUN_TIMEOUT s);"
		elif [ "$rc" -ne 0 ]; then
			# with its last words: an error, or the row of a failed check
			msg=$(grep -v '^#\|^ *$' "$OUT/logs/$tag.rank$r.log" | tail -n 1 | tr -s ' ')
			why="$why rank $r exit $rc${msg:+ (${msg# })};"
		fi
	done
	PIDS=()
	row=$(sed -n 2p "$csv" 2>/dev/null)
	[ -n "$row" ] || why="$why no result;"
	# incbench's CSV: ...,time_us(9),...,wire_max(13),ratio(14),codec_us(15),...,check(18)
	[ -z "$row" ] || [ "$(cut -d, -f18 <<<"$row")" = ok ] || why="$why check failed;"
	if [ -z "$why" ]; then
		IFS=, read -r _ _ _ _ _ _ _ _ t _ _ _ wmax ratio codec _ <<<"$row"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\tok\n' "$rate" "$size" "$d" "$cfg" "$t" \
			"$ratio" "$codec" "$wmax" >>"$OUT/results.tsv"
		step "$(printf '%-7s %10s %-10s %10.1f ms  ok' "$rate" "$size" "$cfg" "$(awk -v t="$t" 'BEGIN { print t / 1000 }')")"
	else
		printf '%s\t%s\t%s\t%s\t-\t-\t-\t-\tFAIL:%s\n' "$rate" "$size" "$d" "$cfg" "$why" >>"$OUT/results.tsv"
		step "$(printf '%-7s %10s %-10s FAILED:%s' "$rate" "$size" "$cfg" "$why") logs: $OUT/logs/$tag.rank*.log"
	fi
}

for rate in $RATES; do
	netns_shape "$ID" "$RANKS" "$rate"
	step "links: $NETNS_QDISC on every host's TX and RX"
	for size in "${BYTES[@]}"; do
		d=$(data_for "$size")
		for c in "${CONFIGS[@]}"; do
			# shellcheck disable=SC2086
			run "$rate" "$size" "$d" $c
		done
	done
done

# ---- the table
step "done"
dnames=$(printf '%s\n' "${DNAME[@]}" | paste -sd '|')
dsizes=$(printf '%s\n' "${DSIZE[@]}" | paste -sd '|')
awk -F '\t' -v ranks="$RANKS" -v iters="$ITERS" -v warm="$WARM" -v cores="$(nproc)" \
	-v dnames="$dnames" -v dsizes="$dsizes" -v note="$DATA_NOTE" '
function ms(us) { return us == "-" ? "FAIL" : sprintf("%.1f", us / 1000) }
function cut(a, b) { return a == "-" || b == "-" ? "-" : sprintf("%.1f%%", 100 * (1 - a / b)) }
function x(r) { return r == "-" ? "-" : sprintf("%.1fx", r) }
function center(t, w,   l) { l = int((w - length(t)) / 2); return sprintf("%*s%s%*s", l, "", t, w - l - length(t), "") }
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++n] = key; R[key] = $1; S[key] = $2; D[key] = $3 }
	T[key, $4] = $5; RATIO[key, $4] = $6; CODEC[key, $4] = $7
	runs++
	if ($9 != "ok") bad[++nbad] = $1 " " $2 " " $4 ": " $9
}
END {
	split(dnames, dn, "|"); split(dsizes, ds, "|")
	printf "\ninccl all-reduce, %d ranks: network namespaces on one bridge, tbf on every host'"'"'s TX and RX;\n", ranks
	printf "incbench, transport sw (the codec in software), sparse mode; per run %d timed iterations after %d warm-up;\n", iters, warm
	printf "%d CPU cores shared by the %d ranks, their codecs and the kernel'"'"'s networking\n\n", cores, ranks
	printf "%-7s %10s %-24s|%s|%s|%s|%s|%s\n", "", "", "", center("time (ms)", 60), \
		center("cut vs wa+none", 16), center("cut vs ring+none", 16), \
		center("ring+sw ratio", 16), center("codec CPU ms", 14)
	printf "%-7s %10s %-24s|%10s %9s %9s %9s %9s %9s |%7s %7s |%7s %7s |%7s %7s |%6s %6s\n", \
		"rate", "size (B)", "data", "ring+none", "wa+none", "ring+sw10", "wa+sw10", "ring+sw8", "wa+sw8", \
		"k10", "k8", "k10", "k8", "k10", "k8", "k10", "k8"
	for (i = 1; i <= n; i++) {
		k = order[i]
		d = D[k] + 1
		label = dn[d] (S[k] > ds[d] ? " (tiled)" : S[k] < ds[d] ? " (prefix)" : "")
		printf "%-7s %10d %-24s|%10s %9s %9s %9s %9s %9s |%7s %7s |%7s %7s |%7s %7s |%6s %6s\n", \
			R[k], S[k], label, \
			ms(T[k, "ring+none"]), ms(T[k, "wa+none"]), ms(T[k, "ring+sw10"]), \
			ms(T[k, "wa+sw10"]), ms(T[k, "ring+sw8"]), ms(T[k, "wa+sw8"]), \
			cut(T[k, "ring+sw10"], T[k, "wa+none"]), cut(T[k, "ring+sw8"], T[k, "wa+none"]), \
			cut(T[k, "ring+sw10"], T[k, "ring+none"]), cut(T[k, "ring+sw8"], T[k, "ring+none"]), \
			x(RATIO[k, "ring+sw10"]), x(RATIO[k, "ring+sw8"]), \
			ms(CODEC[k, "ring+sw10"]), ms(CODEC[k, "ring+sw8"])
	}
	print ""
	print "time: the slowest rank'"'"'s mean per all-reduce; ring+sw10: ring, transport sw, k=10 (error bound 2^-10)"
	print "cut: 1 - time(ring+sw) / time(wa+none or ring+none); ratio: float bytes / bytes on the wire of ring+sw"
	print "codec ms: CPU time in the codec per rank per all-reduce, ring+sw"
	print "data: real gradients times (rank+1)/" ranks " per rank; mlp+cnn: mlp and cnn at step 150; charlm: step 150;"
	print "charlm 4 steps: steps 10, 50, 150, 299; ResNet-18: step 59 of gen.py (seed 1)"
	if (note != "")
		print note
	if (nbad) {
		printf "\n%d of %d runs FAILED:\n", nbad, runs
		for (i = 1; i <= nbad; i++)
			print "  " bad[i]
		exit 1
	}
	printf "\nevery run passed its check (%d runs: equal to the model bit for bit, within the bound)\n", runs
}' "$OUT/results.tsv"
