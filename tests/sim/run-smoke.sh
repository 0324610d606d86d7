#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Smoke test of incsim: real QEMU guests drive the NIC's RTL through incsim
# (docs/sim.md), with the test module tests/sim/smoke/inc_smoke.c.
#
# usage: tests/sim/run-smoke.sh [SCENARIO]...    (default: all three)
#   loopback  one guest, one NIC: registers through the shim, SCRATCH,
#             DMA both ways in loopback, the RX MSI-X vector
#   pair      one guest, two NICs whose incsims are linked back to back:
#             a frame each way
#   icmp      a guest with a NIC, and a second guest with virtio-net on the
#             same link as 10.0.0.2: an ICMP echo request from the NIC is
#             answered by the second guest's kernel
# environment: TIMEOUT per scenario (default 120 s), BUILD (default build)
#
# Output: TAP, each scenario's test points renumbered and prefixed with its
# name, then "N passed, N failed". Logs: build/vm/smoke-SCENARIO/ (consoles
# NAME.log, incsim logs NIC.incsim.log). Needs build/bin/incsim
# (make build/bin/incsim) and the packages of scripts/install-deps.sh vm.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
TIMEOUT=${TIMEOUT:-120}
OUT=$BUILD/sim/smoke
PEER_MAC=52:54:00:12:34:02
export BUILD

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(loopback pair icmp)
for s in "${scenarios[@]}"; do
	case $s in
	loopback | pair | icmp) ;;
	*) echo "run-smoke.sh: unknown scenario $s (loopback, pair, icmp)" >&2; exit 2 ;;
	esac
done

if [ ! -x "$BUILD/bin/incsim" ]; then
	echo "Bail out! $BUILD/bin/incsim not found (make build/bin/incsim)"
	exit 1
fi
ko=$(tests/sim/smoke/build.sh "$OUT") || { echo "Bail out! inc_smoke.ko did not build"; exit 1; }
tests/vm/mkinitrd.sh "$OUT/smoke.cpio.gz" --file "$ko:/lib/modules/inc_smoke.ko" \
	--script tests/sim/smoke/guest-smoke.sh || { echo "Bail out! mkinitrd failed"; exit 1; }
if [[ " ${scenarios[*]} " == *" icmp "* ]]; then
	tests/vm/mkinitrd.sh "$OUT/peer.cpio.gz" --kmod virtio_pci --kmod virtio_net \
		--script tests/sim/smoke/guest-peer.sh || { echo "Bail out! mkinitrd failed"; exit 1; }
fi

K=0 PASSED=0 FAILED=0

# run SCENARIO run.sh-ARGS...: its TAP, renumbered into ours
run() {
	local name=$1 out rc line t0 t1
	shift
	echo "# scenario $name"
	t0=$(date +%s)
	out=$(tests/vm/run.sh --timeout "$TIMEOUT" --log-dir "$BUILD/vm/smoke-$name" "$@" 2>&1)
	rc=$?
	t1=$(date +%s)
	local fails=0
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ ok|ok)\ [0-9]+\ -\ (.*)$ ]]; then
			K=$((K + 1))
			echo "${BASH_REMATCH[1]} $K - $name: ${BASH_REMATCH[2]}"
			if [ "${BASH_REMATCH[1]}" = ok ]; then
				PASSED=$((PASSED + 1))
			else
				FAILED=$((FAILED + 1)) fails=$((fails + 1))
			fi
		elif [[ $line =~ ^1\.\. ]]; then
			:
		elif [[ $line == '#'* ]]; then
			echo "$line"
		else
			echo "# $line"
		fi
	done <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$fails" -eq 0 ]; then
		K=$((K + 1)) FAILED=$((FAILED + 1))
		echo "not ok $K - $name: tests/vm/run.sh exited with status $rc"
	fi
	echo "# scenario $name: $((t1 - t0)) s"
}

for s in "${scenarios[@]}"; do
	case $s in
	loopback)
		run loopback --guest "vm:$OUT/smoke.cpio.gz" --nic vm:nic0 \
			--append vm:inc_smoke.mode=loopback ;;
	pair)
		run pair --guest "vm:$OUT/smoke.cpio.gz" \
			--nic vm:nic0:link-listen=l0 --nic vm:nic1:link-connect=l0 \
			--append vm:inc_smoke.mode=pair ;;
	icmp)
		run icmp --guest "vm:$OUT/smoke.cpio.gz" --nic vm:nic0:link-listen=l0 \
			--append "vm:inc_smoke.mode=icmp inc_smoke.peer_mac=$PEER_MAC" \
			--guest "peer:$OUT/peer.cpio.gz:helper" \
			--virtio "peer:link-connect=l0:mac=$PEER_MAC" ;;
	esac
done

echo "1..$K"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
