#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The driver's selftests: two QEMU guests with Debian's kernel and
# inceptionn.ko, each with an incsim NIC, the two NICs linked back to back.
# The main guest runs tests/driver/selftests/* with the kernel's kselftest
# runner (from Debian's linux-source-6.1); the peer answers (ping, iperf3,
# incgrad servers).
#
# usage: tests/driver/run-driver.sh [TEST]...   (default: every test in list)
# environment: BUILD (default build), TIMEOUT (default 900 s), KO (a built
#   inceptionn.ko to use instead of building one)
# Output: TAP (one test point per selftest, then the runner's own), logs in
# $BUILD/vm/driver/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
TIMEOUT=${TIMEOUT:-900}
OUT=$BUILD/driver/vm
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

list=$OUT/list
if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$list"
else
	printf '%s\n' nic_probe.sh nic_ethtool.sh nic_mtu.sh nic_iperf.sh nic_reload.sh >"$list"
fi
files=(--file "$ko:/lib/modules/inceptionn.ko"
	--file "$KS/tools/testing/selftests/kselftest/runner.sh:/kselftest/kselftest/runner.sh"
	--file "$list:/kselftest/inceptionn/list")
for f in tests/driver/selftests/*; do
	files+=(--file "$f:/kselftest/inceptionn/$(basename "$f")")
done
bins=(--bin ethtool --bin iperf3)
[ -x "$BUILD/bin/incgrad" ] && bins+=(--bin "$BUILD/bin/incgrad")
tests/vm/mkinitrd.sh "$OUT/main.cpio.gz" "${files[@]}" "${bins[@]}" \
	--script tests/driver/guest-main.sh || { echo "Bail out! mkinitrd"; exit 1; }
tests/vm/mkinitrd.sh "$OUT/peer.cpio.gz" "${files[@]}" "${bins[@]}" \
	--script tests/driver/guest-peer.sh || { echo "Bail out! mkinitrd"; exit 1; }

exec tests/vm/run.sh --timeout "$TIMEOUT" --log-dir "$BUILD/vm/driver" \
	--guest "main:$OUT/main.cpio.gz:384M" --guest "peer:$OUT/peer.cpio.gz:384M:helper" \
	--nic main:nic0:link-listen=l0 --nic peer:nic1:link-connect=l0
