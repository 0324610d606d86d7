#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# incsim faults with a real QEMU (docs/sim.md, "Faults"): QEMU is killed
# (SIGKILL) while its guest keeps the NIC busy (register accesses, DMA,
# interrupts); incsim must say "QEMU disconnected", exit with status 0 within
# a few seconds, and leave no socket behind. Link faults and bad input are
# covered by tests/sim/test_incsim.py. TAP output.
#
# usage: tests/sim/test-faults.sh          (BUILD, default build)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
OUT=$BUILD/sim/faults
QEMU=${QEMU:-qemu-system-x86_64}
mkdir -p "$OUT"
. tests/lib/tap.sh

ko=$(tests/sim/smoke/build.sh "$BUILD/sim/smoke") || { echo "Bail out! inc_smoke.ko did not build"; exit 1; }
tests/vm/mkinitrd.sh "$OUT/loop.cpio.gz" --file "$ko:/lib/modules/inc_smoke.ko" \
	--script tests/sim/smoke/guest-loop.sh || { echo "Bail out! mkinitrd failed"; exit 1; }
KV=$(tests/vm/kver.sh)
TMP=$(mktemp -d /tmp/inc-faults.XXXXXX)
RAM=/dev/shm/inc-faults-$$
qpid= spid=
cleanup() {
	[ -n "$qpid" ] && kill -9 "$qpid" 2>/dev/null
	[ -n "$spid" ] && kill -9 "$spid" 2>/dev/null
	rm -rf "$TMP" "$RAM"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$BUILD/bin/incsim" --ivshmem "$TMP/nic.sock" --ram "$RAM" --ram-size 256M \
	--name nic0 --stats 2>"$OUT/incsim.log" &
spid=$!
for _ in $(seq 100); do [ -S "$TMP/nic.sock" ] && break; sleep 0.05; done
"$QEMU" -m 256 -smp 1 -nographic -no-reboot -nic none \
	-kernel "/boot/vmlinuz-$KV" -initrd "$OUT/loop.cpio.gz" \
	-append "console=ttyS0 quiet panic=-1" \
	-object "memory-backend-file,id=ram,size=256M,mem-path=$RAM,share=on" \
	-machine memory-backend=ram \
	-chardev "socket,path=$TMP/nic.sock,id=nic0" \
	-device ivshmem-doorbell,chardev=nic0,vectors=2 \
	</dev/null >"$OUT/guest.log" 2>&1 &
qpid=$!

# wait until the guest has gone round a few times, then kill QEMU mid-round
rounds=0
for _ in $(seq 600); do
	rounds=$(grep -c '^round' "$OUT/guest.log" 2>/dev/null)
	[ "$rounds" -ge 3 ] && break
	kill -0 "$qpid" 2>/dev/null || break
	sleep 0.1
done
[ "$rounds" -ge 3 ]
tap $? "the guest drives the NIC in a loop ($rounds rounds before the kill)"
sleep 0.3
kill -9 "$qpid"
wait "$qpid" 2>/dev/null
qpid=
t0=$(date +%s.%N)
for _ in $(seq 100); do kill -0 "$spid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$spid" 2>/dev/null; then
	tap 1 "incsim exits after QEMU is killed (still running after 5 s)"
	kill -9 "$spid"
	spid=
else
	wait "$spid"
	rc=$?
	spid=
	tap "$rc" "incsim exits with status 0 after QEMU is killed (status $rc, $(awk "BEGIN { printf \"%.2f\", $(date +%s.%N) - $t0 }") s)"
fi
grep -q 'QEMU disconnected' "$OUT/incsim.log"
tap $? "incsim reports \"QEMU disconnected\""
[ ! -e "$TMP/nic.sock" ]
tap $? "incsim removed its socket"
grep -q 'stats: commands [1-9]' "$OUT/incsim.log" && grep -q 'interrupts tx [0-9]*, rx [1-9]' "$OUT/incsim.log"
tap $? "incsim served commands and interrupts before the kill"
grep 'stats: \(clocks\|commands\|interrupts\)' "$OUT/incsim.log" | sed 's/^/# /'
tap_done
