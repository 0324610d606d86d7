#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The driver's selftests: two QEMU guests with Debian's kernel and
# inceptionn.ko, each with an incsim NIC, the two NICs linked back to back.
# The main guest runs tests/driver/selftests/* with the kernel's kselftest
# runner (from Debian's linux-source-6.1), and the kernel's own generic
# net/netdevice.sh from there, unmodified (ksft_netdevice.sh runs it); the
# peer answers (ping, iperf3, incgrad servers).
#
# A third guest, "plain", has an ordinary virtio-net NIC linked to the main
# guest's second NIC (eth1): a peer without an inceptionn NIC. That second
# NIC's incsim runs with --fault engine-rx (a faulty decompressor: its
# firmware's self-test fails; eth1 only ever receives plain frames, which
# do not go through the decompressors): nic_fw_selftest.sh.
#
# usage: tests/driver/run-driver.sh [TEST]...   (default: every test in list)
# environment: BUILD (default build), TIMEOUT (default 900 s), KO (a built
#   inceptionn.ko to use instead of building one), GRAD (the float32 file the
#   transfer tests send; default ../shared/gradients/cnn-step0050.f32), LOSS
#   (N: main and peer meet on a switch that drops every Nth unicast frame,
#   logs in $BUILD/vm/driver-lossy/; no plain guest), STALL (N[,N...]: main's
#   NIC hangs its DMA after N frames, again after each reset: incsim
#   --stall-after; logs in $BUILD/vm/driver-stall/; no plain guest), WEDGE
#   (N, with STALL: main's NIC also stops sending after N frames until its
#   TX queue is flushed: incsim --tx-wedge-after), TAG
#   (a name added to the initrd and log directories, so that runs overlap),
#   VECTORS (2: main's NIC gets 2 MSI-X vectors, not 3: the firmware's
#   mailbox polled, no vector 2; logs in $BUILD/vm/driver-vec2/)
# Output: TAP (one test point per selftest, then the runner's own), logs in
# $BUILD/vm/driver/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
TIMEOUT=${TIMEOUT:-900}
OUT=$BUILD/driver/vm${STALL:+-stall}${LOSS:+-lossy}${VECTORS:+-vec$VECTORS}${TAG:+-$TAG}
SRC=/usr/src/linux-source-6.1.tar.xz
mkdir -p "$OUT"
export BUILD

ko=${KO:-}
[ -n "$ko" ] || ko=$(scripts/build-module.sh) || { echo "Bail out! inceptionn.ko did not build"; exit 1; }
[ -r "$SRC" ] || { echo "Bail out! $SRC missing (scripts/install-deps.sh vm)"; exit 1; }
KS=$BUILD/kselftest/src
if [ ! -r "$KS/tools/testing/selftests/kselftest/runner.sh" ]; then
	mkdir -p "$KS"
	tar -xJf "$SRC" -C "$KS" --strip-components=1 \
		linux-source-6.1/tools/testing/selftests/kselftest/runner.sh ||
		{ echo "Bail out! cannot extract runner.sh from $SRC"; exit 1; }
fi
# the kernel's generic netdev selftest, run unmodified against the NICs by
# ksft_netdevice.sh
NETDEVICE=tools/testing/selftests/net/netdevice.sh
if [ ! -r "$KS/$NETDEVICE" ]; then
	tar -xJf "$SRC" -C "$KS" --strip-components=1 "linux-source-6.1/$NETDEVICE" ||
		{ echo "Bail out! cannot extract netdevice.sh from $SRC"; exit 1; }
fi
# the C selftest: the kernel's kselftest_harness.h, static (busybox guests)
KH=tools/testing/selftests
if [ ! -r "$KS/$KH/kselftest_harness.h" ] || [ ! -r "$KS/$KH/kselftest.h" ]; then
	tar -xJf "$SRC" -C "$KS" --strip-components=1 \
		"linux-source-6.1/$KH/kselftest_harness.h" "linux-source-6.1/$KH/kselftest.h" ||
		{ echo "Bail out! cannot extract kselftest_harness.h from $SRC"; exit 1; }
fi
# -isystem: the harness itself is not -Wextra clean
gcc -static -O2 -Wall -Wextra -Werror -Iinclude/uapi -isystem "$KS/$KH" \
	-o "$OUT/sockopt" tests/driver/selftests/sockopt.c -lpthread ||
	{ echo "Bail out! tests/driver/selftests/sockopt.c did not build"; exit 1; }
gcc -static -O2 -Wall -Wextra -Werror -Iinclude/uapi -o "$OUT/forge" \
	tests/driver/selftests/forge.c ||
	{ echo "Bail out! tests/driver/selftests/forge.c did not build"; exit 1; }

list=$OUT/list
if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$list"
else
	printf '%s\n' nic_probe.sh nic_ethtool.sh ksft_netdevice.sh \
		nic_mtu.sh nic_iperf.sh \
		nic_grad_tcp.sh nic_grad_udp.sh nic_grad_width.sh nic_plain_peer.sh nic_peers.sh \
		nic_peers_retrans.sh nic_reconfig.sh \
		sockopt nic_mark_unload.sh nic_firmware.sh nic_fw_selftest.sh nic_fw_admin.sh nic_reload.sh \
		nic_cycles.sh >"$list"
fi
files=(--file "$ko:/lib/modules/inceptionn.ko"
	--file "$KS/tools/testing/selftests/kselftest/runner.sh:/kselftest/kselftest/runner.sh"
	--file "$list:/kselftest/inceptionn/list"
	--file "$KS/$NETDEVICE:/kselftest/net/netdevice.sh"
	--file "$OUT/sockopt:/kselftest/inceptionn/sockopt"
	--file "$OUT/forge:/kselftest/inceptionn/forge")
# the management firmware, where request_firmware() looks (make firmware)
FWBIN=$BUILD/firmware/inceptionn-fw.bin
make --no-print-directory firmware >&2 || { echo "Bail out! make firmware failed"; exit 1; }
# the image's self-test vectors (all, and those of width mode), for the
# self-test counts nic_firmware.sh checks
awk '/^\t\{ [0-9]+, [0-9]+, [0-9]+,/ { n++; if ($4 == "3,") w++ }
	END { printf "FW_VECTORS=%d\nFW_WIDTH_VECTORS=%d\n", n, w }' \
	"$BUILD/firmware/selftest_vectors.c" >"$OUT/fw_vectors.env"
grep -q '^FW_VECTORS=[1-9]' "$OUT/fw_vectors.env" ||
	{ echo "Bail out! no self-test vectors in $BUILD/firmware/selftest_vectors.c"; exit 1; }
files+=(--file "$OUT/fw_vectors.env:/kselftest/inceptionn/fw_vectors.env")
for f in tests/driver/selftests/*; do
	files+=(--file "$f:/kselftest/inceptionn/$(basename "$f")")
done
GRAD=${GRAD:-../shared/gradients/cnn-step0050.f32}
[ -r "$GRAD" ] && files+=(--file "$GRAD:/data/grad.f32")
# iproute2's ip and devlink (scripts/install-deps.sh vm): busybox has no
# devlink, and its ip is not the one the kernel's selftests are written for
bins=(--bin ethtool --bin iperf3 --bin /sbin/ip --bin /sbin/devlink)
[ -x "$BUILD/bin/incgrad" ] || make --no-print-directory "$BUILD/bin/incgrad" >&2 ||
	{ echo "Bail out! incgrad did not build"; exit 1; }
bins+=(--bin "$BUILD/bin/incgrad")
# the firmware in both guests with incsim NICs: a core asleep in WFI costs
# incsim next to nothing (docs/sim.md "A sleeping core")
fwfile=(--file "$FWBIN:/lib/firmware/inceptionn/inceptionn-fw.bin")
tests/vm/mkinitrd.sh "$OUT/main.cpio.gz" "${files[@]}" "${bins[@]}" \
	"${fwfile[@]}" --kmod tls --kmod 8021q \
	--script tests/driver/guest-main.sh || { echo "Bail out! mkinitrd"; exit 1; }
tests/vm/mkinitrd.sh "$OUT/peer.cpio.gz" "${files[@]}" "${bins[@]}" "${fwfile[@]}" \
	--script tests/driver/guest-peer.sh || { echo "Bail out! mkinitrd"; exit 1; }
tests/vm/mkinitrd.sh "$OUT/plain.cpio.gz" --kmod virtio_pci --kmod virtio_net --kmod 8021q \
	"${files[@]}" "${bins[@]}" --script tests/driver/guest-plain.sh ||
	{ echo "Bail out! mkinitrd"; exit 1; }

if [ -n "${STALL:-}" ]; then
	# a NIC that hangs: main's incsim stops its DMA bridge after STALL
	# frames (N,M,...: again after each reset); no plain guest
	exec tests/vm/run.sh --timeout "$TIMEOUT" --log-dir "$BUILD/vm/driver-stall${TAG:+-$TAG}" \
		--guest "main:$OUT/main.cpio.gz:384M" --guest "peer:$OUT/peer.cpio.gz:384M:helper" \
		--nic "main:nic0:link-listen=l0:stall-after=$STALL${WEDGE:+:tx-wedge-after=$WEDGE}" \
		--nic peer:nic1:link-connect=l0
fi
if [ -n "${LOSS:-}" ]; then
	# a lossy network: main and peer on a switch that drops every LOSS-th
	# unicast frame; no plain guest
	exec tests/vm/run.sh --timeout "$TIMEOUT" --log-dir "$BUILD/vm/driver-lossy${TAG:+-$TAG}" \
		--switch "l0:loss=$LOSS" \
		--guest "main:$OUT/main.cpio.gz:384M" --guest "peer:$OUT/peer.cpio.gz:384M:helper" \
		--nic main:nic0:link-connect=l0 --nic peer:nic1:link-connect=l0
fi
exec tests/vm/run.sh --timeout "$TIMEOUT" \
	--log-dir "$BUILD/vm/driver${VECTORS:+-vec$VECTORS}${TAG:+-$TAG}" \
	--guest "main:$OUT/main.cpio.gz:384M" --guest "peer:$OUT/peer.cpio.gz:384M:helper" \
	--guest "plain:$OUT/plain.cpio.gz:256M:helper" \
	--nic "main:nic0:link-listen=l0:record${VECTORS:+:vectors=$VECTORS}" --nic peer:nic1:link-connect=l0 \
	--nic main:nic2:link-listen=l1:fault=engine-rx --virtio plain:link-connect=l1
