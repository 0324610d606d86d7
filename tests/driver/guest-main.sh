#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /test.sh of the driver test guest (tests/driver/run-driver.sh): loads
# inceptionn.ko, brings eth0 up as 10.0.0.1 / fd00::1, waits for the peer
# guest, then runs the selftests with the kernel's kselftest runner. The
# kernel option inc.tests=A,B runs only those.
. /kselftest/inceptionn/lib.sh
# the kselftest runner logs to /dev/stdout: devtmpfs has no such link
[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd

insmod /lib/modules/inceptionn.ko || { echo "# insmod inceptionn.ko failed"; exit 1; }
setup_if || { echo "# $IF did not come up"; dmesg | tail -20 | sed 's/^/# /'; exit 1; }
wait_for 90 ping -c 1 -W 2 "$PEER4" || echo "# the peer does not answer yet"

tests=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^inc\.tests=//p' | tr ',' ' ')
[ -n "$tests" ] || tests=$(cat /kselftest/inceptionn/list)
cd /kselftest/inceptionn || exit 1
BASE_DIR=/kselftest
export BASE_DIR
# shellcheck disable=SC1091
. /kselftest/kselftest/runner.sh
# shellcheck disable=SC2086
run_many $tests
