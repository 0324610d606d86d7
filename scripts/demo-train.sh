#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make demo-train`: PyTorch DistributedDataParallel through the NIC's RTL.
#
# HOSTS QEMU guests (Debian's kernel, inceptionn.ko), each with an incsim NIC
# (the NIC's RTL under Verilator), all on one simulated switch (incswitch).
# Each guest runs PyTorch from this host's root filesystem, shared read-only
# over virtio-9p, as one rank of a Gloo process group over the incsim NICs
# (scripts/demo-train-guest.sh), and trains the digits MLP
# (scripts/train/tasks.py) from the same seed once per setting:
#   stock                  DDP's own all-reduce, exact (nothing marked)
#   ring-kK-MODE@nic       the inceptionn hook, inccl ring, transport nic:
#                          gradients on marked sockets, the NICs compress
#   ring-kK-MODE@sw        the same hook with transport sw: the codec in
#                          software on the same guests, the NICs pass
#                          everything unchanged
# Then one table: test accuracy, loss, bytes per step on the link and from
# the host to the NIC, the NICs' counters (frames compressed, bytes saved),
# the ratio, step time and the trained weights' digest; and the verdicts:
# the nic run's weights are bit-identical to the sw run's (same CPU model,
# same arithmetic: only the codec's placement differs), every rank ended
# with the same weights, every NIC compressed in the nic run and nothing in
# the others, no malformed frame, accuracy within 3 points of stock
# (scripts/train/demo-report.py).
#
# usage: scripts/demo-train.sh [--tap]   (options in the environment)
#   HOSTS=N         hosts, 2 to 4 (default 2)
#   STEPS=N         training steps per setting, 10 to 5000 (default 300)
#   K=K MODE=M      the hook's codec (default 10, sparse; paper, sparse or
#                   width: width needs NICs with FEATURES bit 12, 16 lanes of
#                   register map 1.3, as incsim's; without it the nic run
#                   would compress nothing, and its verdicts fail)
#   SEED=N          the seed of weights and batches (default 1)
#   TRAIN_TIMEOUT=S wall-clock limit in seconds (default 900)
#   SIM=M           the NICs' model: behavioral (default: incsim --model
#                   behavioral, the same device without the RTL's timing, fast
#                   enough to train through) or rtl (the NIC's RTL, Verilated;
#                   docs/sim.md "Two models")
#   --tap           TAP instead of the table (tests/demo/test-demo-train.sh)
# Exit status: 0 when every verdict held, 1 when one did not or the
# cluster did not run, 2 for a bad option. Logs: build/demo-train/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
OUT=$BUILD/demo-train
HOSTS=${HOSTS:-2}
STEPS=${STEPS:-300}
K=${K:-10}
MODE=${MODE:-sparse}
SEED=${SEED:-1}
TRAIN_TIMEOUT=${TRAIN_TIMEOUT:-900}
SIM=${SIM:-behavioral}
TAP=0
case ${1:-} in
--tap) TAP=1 ;;
"") ;;
*) echo "usage: $0 [--tap]" >&2; exit 2 ;;
esac

bad_opt() {
	echo "make demo-train: $*" >&2
	exit 2
}
[[ $HOSTS =~ ^[0-9]+$ ]] && [ "$HOSTS" -ge 2 ] && [ "$HOSTS" -le 4 ] ||
	bad_opt "HOSTS=$HOSTS: a number of hosts from 2 to 4 expected"
[[ $STEPS =~ ^[0-9]+$ ]] && [ "$STEPS" -ge 10 ] && [ "$STEPS" -le 5000 ] ||
	bad_opt "STEPS=$STEPS: 10 to 5000 training steps expected"
[[ $K =~ ^[0-9]+$ ]] && [ "$K" -ge 1 ] && [ "$K" -le 24 ] ||
	bad_opt "K=$K: the error bound is 2^-K, K from 1 to 24"
[ "$MODE" = paper ] || [ "$MODE" = sparse ] || [ "$MODE" = width ] ||
	bad_opt "MODE=$MODE: paper, sparse or width expected"
[[ $SEED =~ ^[0-9]+$ ]] || bad_opt "SEED=$SEED: a whole number expected"
[ "$SIM" = rtl ] || [ "$SIM" = behavioral ] ||
	bad_opt "SIM=$SIM: behavioral (the NIC's behavioral model) or rtl (its RTL) expected"
[[ $TRAIN_TIMEOUT =~ ^[0-9]+$ ]] && [ "$TRAIN_TIMEOUT" -ge 60 ] ||
	bad_opt "TRAIN_TIMEOUT=$TRAIN_TIMEOUT: at least 60 seconds"
PY=/usr/bin/python3
"$PY" -c 'import torch, sklearn' 2>/dev/null ||
	bad_opt "$PY cannot import torch and sklearn (scripts/install-deps.sh torch)"

T0=$(date +%s.%N)
stamp() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "[%6.1fs]", b - a }'; }
step() { [ "$TAP" = 1 ] && echo "# $(stamp) $*" || echo "$(stamp) $*"; }
bail() {
	if [ "$TAP" = 1 ]; then echo "Bail out! $*"; else step "$*"; fi
	exit 1
}

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

mkdir -p "$OUT/logs" || exit 1
rm -f "$OUT"/logs/*.log "$OUT/run.tap"
step "building: inceptionn.ko, incsim, incswitch, libinccl"
ko=$(scripts/build-module.sh 2>"$OUT/build.log") || {
	tail -n 20 "$OUT/build.log" >&2
	bail "the module did not build (log: $OUT/build.log)"
}
make --no-print-directory "$BUILD/bin/incsim" "$BUILD/bin/incswitch" \
	"$BUILD/lib/libinccl.so" >>"$OUT/build.log" 2>&1 || {
	tail -n 20 "$OUT/build.log" >&2
	bail "the simulator or libinccl did not build (log: $OUT/build.log)"
}
lib=$(realpath "$BUILD/lib/libinccl.so")
S="ring-k$K-$MODE"
SETTINGS="stock,$S@nic,$S@sw"
echo "--model mlp --seed $SEED --steps $STEPS --eval $(((STEPS + 5) / 6)) --settings $SETTINGS" >"$OUT/args"
tests/vm/mkinitrd.sh "$OUT/host.cpio.gz" --kmod 9p --kmod 9pnet_virtio --kmod virtio_pci \
	--module "$ko" --file "$OUT/args:/train/args" \
	--file tests/driver/selftests/lib.sh:/lib/inc-lib.sh --bin ethtool \
	--script scripts/demo-train-guest.sh >>"$OUT/build.log" 2>&1 ||
	bail "the guest image did not build (log: $OUT/build.log)"

args=(--timeout "$TRAIN_TIMEOUT" --log-dir "$OUT/logs" --switch sw0)
for ((h = 0; h < HOSTS; h++)); do
	args+=(--guest "host$h:$OUT/host.cpio.gz:1024M" --nic "host$h:nic$h:link-connect=sw0:model=$SIM"
		--host-root "host$h"
		--append "host$h:inc.host=$h inc.hosts=$HOSTS inc.root=$ROOT inc.lib=$lib")
done
step "booting $HOSTS hosts (QEMU, Debian $(tests/vm/kver.sh)), each with an incsim NIC ($SIM model), on one switch;" \
	"PyTorch from this host's root over virtio-9p; the digits MLP, $STEPS steps per setting: $SETTINGS"
tests/vm/run.sh "${args[@]}" >"$OUT/run.tap" 2>&1 &
RUNPID=$!

# progress: the guests' "#  mlp seed ..." lines (rank 0) as they come, whole
# lines only (scripts/lib/console.sh)
. scripts/lib/console.sh
seen=0
while kill -0 "$RUNPID" 2>/dev/null; do
	sleep 2
	if [ -r "$OUT/logs/host0.log" ]; then
		mapfile -t lines < <(whole_lines "$OUT/logs/host0.log" | tr -d '\r' | grep -a '^#  *mlp ')
		for ((i = seen; i < ${#lines[@]}; i++)); do
			step "trained:${lines[$i]#\#}"
		done
		seen=${#lines[@]}
	fi
done
wait "$RUNPID"
rc=$?
RUNPID=
step "cluster stopped (tests/vm/run.sh exit $rc)"

report=(scripts/train/demo-report.py --log "$OUT/logs/host0.log" --run-tap "$OUT/run.tap"
	--hosts "$HOSTS" --settings "$SETTINGS")
[ "$TAP" = 1 ] && report+=(--tap)
"$PY" "${report[@]}"
