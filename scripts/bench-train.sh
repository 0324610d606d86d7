#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make bench-train`: the step time of data-parallel training over shaped
# links, stock DDP against the inceptionn hook and PyTorch's own hooks.
#
# RANKS hosts as network namespaces on one bridge, tbf on both ends of every
# link (scripts/lib/netns.sh, as `make bench-inccl` sets them up). Per link
# rate and model, one training run: RANKS processes of scripts/train/rank.py
# in the namespaces (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, as torchrun
# sets them; a Gloo process group over eth0), each setting in turn from the
# same seed, STEPS steps each. Per setting it takes rank 0's wall time per
# step over the last steps (half of STEPS, at most 100; evaluation left out)
# and the bytes each host's eth0 sent per step (every byte: gradients, Gloo,
# TCP/IP headers). Then one table.
#
# PowerSGD compresses only after its warm-up (start_powerSGD_iter, 1000 by
# default); here it starts at step 10 so the timed steps are compressed ones
# (make train-eval keeps the default for accuracy).
#
# usage: scripts/bench-train.sh   (as root; options in the environment)
#   RATES="1gbit 100mbit"   link rates as tc writes them
#   MODELS="mlp cnn charlm" models (scripts/train/tasks.py)
#   SETTINGS="stock,fp16,powersgd-r2,ring-k10-sparse,ring-k8-sparse-ef,wa-k10"
#   STEPS=N        steps per setting (default 200)
#   RANKS=N        hosts, 2 to 8 (default 4)
#   RUN_TIMEOUT=S  wall-clock limit of one training run (default 1800)
#   SHORT=1        the CI form: RATES=1gbit MODELS=mlp STEPS=30
#                  SETTINGS=stock,ring-k10-sparse
#   BENCH_OUT=DIR  logs and results (default $BUILD/bench-train)
# Exit status: 0 when every run finished with every rank's weights equal,
# 1 otherwise, 2 for a bad option, 3 when this host cannot run it (not root,
# no network namespaces, veth, bridge or tbf). Results: one JSON record per
# line in $BENCH_OUT/results.jsonl; each rank's output in $BENCH_OUT/logs/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 3
BUILD=${BUILD:-build}
OUT=${BENCH_OUT:-$BUILD/bench-train}
if [ "${SHORT:-0}" = 1 ]; then
	RATES=${RATES:-1gbit} MODELS=${MODELS:-mlp} STEPS=${STEPS:-30}
	SETTINGS=${SETTINGS:-stock,ring-k10-sparse}
else
	RATES=${RATES:-1gbit 100mbit} MODELS=${MODELS:-mlp cnn charlm} STEPS=${STEPS:-200}
	SETTINGS=${SETTINGS:-stock,fp16,powersgd-r2,ring-k10-sparse,ring-k8-sparse-ef,wa-k10}
fi
RANKS=${RANKS:-4}
RUN_TIMEOUT=${RUN_TIMEOUT:-1800}
PORT=29600
NET=198.18.1	# RFC 2544's benchmark range; host r is $NET.(r+1)
PY=/usr/bin/python3
unset "${!INCCL_@}"

bad_opt() {
	echo "bench-train: $*" >&2
	exit 2
}
cannot() {
	echo "bench-train: $*" >&2
	exit 3
}

# ---- options
. scripts/lib/netns.sh
netns_rates "$RATES"
for m in $MODELS; do
	case $m in
	mlp | cnn | charlm) ;;
	*) bad_opt "MODELS: '$m': mlp, cnn or charlm" ;;
	esac
done
[ -n "${MODELS// /}" ] || bad_opt "MODELS is empty"
for v in STEPS RANKS RUN_TIMEOUT; do
	[[ ${!v} =~ ^[0-9]+$ ]] || bad_opt "$v=${!v}: a whole number expected"
done
[ "$STEPS" -ge 4 ] || bad_opt "STEPS=$STEPS: at least 4"
[ "$RANKS" -ge 2 ] && [ "$RANKS" -le 8 ] || bad_opt "RANKS=$RANKS: from 2 to 8"
[ "$RUN_TIMEOUT" -ge 1 ] || bad_opt "RUN_TIMEOUT=$RUN_TIMEOUT: at least 1 second"
err=$("$PY" -c "import sys; sys.path.insert(0, 'scripts/train'); import tasks
try:
    tasks.parse_settings(sys.argv[1], [])
except ValueError as e:
    sys.exit(str(e))" "$SETTINGS" 2>&1) || bad_opt "SETTINGS: ${err##*$'\n'}"

netns_check

T0=$(date +%s.%N)
stamp() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "[%6.1fs]", b - a }'; }
step() { echo "$(stamp) $*"; }

# ---- cleanup: the ranks, the namespaces
ID=inct$$
NS=() PIDS=()
cleanup() {
	trap '' INT TERM
	netns_cleanup
}
trap cleanup EXIT
trap 'echo; step "interrupted: removing the namespaces"; exit 130' INT
trap 'step "terminated: removing the namespaces"; exit 143' TERM

mkdir -p "$OUT/logs" || exit 1
rm -f "$OUT"/logs/*.log "$OUT/results.jsonl"
netns_stale inct

step "building libinccl"
make --no-print-directory BUILD="$BUILD" "$BUILD/lib/libinccl.so" >"$OUT/build.log" 2>&1 || {
	tail -n 20 "$OUT/build.log" >&2
	echo "bench-train: libinccl did not build (log: $OUT/build.log)" >&2
	exit 1
}
lib=$(realpath "$BUILD/lib/libinccl.so")

step "hosts: $RANKS network namespaces $ID-h0..$((RANKS - 1)) ($NET.1-$RANKS), bridge in $ID-br"
netns_hosts "$ID" "$RANKS" "$NET"

fails=0
# run RATE MODEL: one training run, every setting; rank 0's records appended
run() {
	local rate=$1 model=$2 tag=$1-$2 r rc why=''
	PIDS=()
	for ((r = 0; r < RANKS; r++)); do
		ip netns exec "$ID-h$r" env RANK=$r WORLD_SIZE="$RANKS" MASTER_ADDR="$NET.1" \
			MASTER_PORT=$PORT GLOO_SOCKET_IFNAME=eth0 INCCL_LIB="$lib" \
			timeout -k 5 "$RUN_TIMEOUT" "$PY" scripts/train/rank.py --model "$model" \
			--settings "$SETTINGS" --steps "$STEPS" --eval "$STEPS" --iface eth0 \
			--powersgd-start 10 >"$OUT/logs/$tag.rank$r.log" 2>&1 &
		PIDS+=($!)
	done
	for ((r = 0; r < RANKS; r++)); do
		wait "${PIDS[$r]}"
		rc=$?
		[ "$rc" -eq 124 ] && why="$why rank $r timed out ($RUN_TIMEOUT s);"
		[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && why="$why rank $r exit $rc;"
	done
	PIDS=()
	sed -n "s/^TRAIN-REC //p" "$OUT/logs/$tag.rank0.log" |
		"$PY" -c 'import json, sys
for l in sys.stdin:
    r = json.loads(l); r["rate"] = sys.argv[1]; print(json.dumps(r))' "$rate" >>"$OUT/results.jsonl"
	if [ -n "$why" ]; then
		fails=$((fails + 1))
		step "$rate $model FAILED:$why logs: $OUT/logs/$tag.rank*.log"
		tail -n 5 "$OUT/logs/$tag.rank0.log" | sed 's/^/    | /'
	else
		step "$rate $model: done"
		grep '^#' "$OUT/logs/$tag.rank0.log" | sed 's/^#/    /'
	fi
}

for rate in $RATES; do
	netns_shape "$ID" "$RANKS" "$rate"
	step "links: $NETNS_QDISC on every host's TX and RX"
	for model in $MODELS; do
		run "$rate" "$model"
	done
done

step "done"
"$PY" - "$OUT/results.jsonl" "$SETTINGS" "$RATES" "$MODELS" "$RANKS" "$STEPS" "$fails" <<'EOF'
import json, sys
path, settings, rates, models, ranks, steps, fails = sys.argv[1:]
settings = settings.split(","); rates = rates.split(); models = models.split()
recs = {(r["rate"], r["model"], r["setting"]): r for r in map(json.loads, open(path))}
print(f"\nDDP step time, {ranks} ranks in network namespaces on one bridge, tbf on every host's "
      f"TX and RX; {steps} steps per setting, timed over the last {min(100, int(steps) // 2)}")
print(f"{'rate':8s} {'model':7s} {'setting':20s} {'step ms':>9s} {'vs stock':>9s} "
      f"{'B/step/rank':>12s} {'vs stock':>9s} {'same weights':>13s}")
bad = int(fails)
for rate in rates:
    for m in models:
        st = recs.get((rate, m, "stock"))
        for s in settings:
            r = recs.get((rate, m, s))
            if r is None:
                print(f"{rate:8s} {m:7s} {s:20s} {'FAIL':>9s}")
                bad += 1
                continue
            bad += not r["same_weights"]
            t, b = r["step_ms_tail"], r["bytes_per_step_tail"]
            vs_t = f"{t / st['step_ms_tail']:.2f}x" if st else "-"
            vs_b = f"{st['bytes_per_step_tail'] / b:.1f}x less" if st and b and s != "stock" else "-"
            print(f"{rate:8s} {m:7s} {s:20s} {t:9.1f} {vs_t:>9s} {b:12,.0f} {vs_b:>9s} "
                  f"{'yes' if r['same_weights'] else 'NO':>13s}")
print("\nstep ms: rank 0's wall time per step (forward, backward with the hook's communication, "
      "optimizer); vs stock: the ratio of step times (under 1: faster)")
print("B/step/rank: bytes each host's eth0 sent per step (kernel counters), mean over ranks")
print("powersgd: start_powerSGD_iter=10, so the timed steps are compressed")
if bad:
    print(f"\n{bad} run(s) or setting(s) FAILED")
    sys.exit(1)
print(f"\nevery run finished, every rank with the same weights")
EOF
