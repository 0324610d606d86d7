#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of a smoke guest (tests/sim/run-smoke.sh): loads inc_smoke.ko
# with the inc_smoke.* options of the kernel command line (e.g.
# inc_smoke.mode=icmp), prints the TAP lines it logged, unloads it.
# Exit status 0 when the module loaded, printed its plan and unloaded.
args=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^inc_smoke\.//p' | tr '\n' ' ')
echo "# insmod inc_smoke.ko $args"
# shellcheck disable=SC2086
insmod /lib/modules/inc_smoke.ko $args
rc=$?
dmesg | sed -n 's/^.*inc_smoke: //p' >/tmp/tap
cat /tmp/tap
grep 'inc_smoke' /proc/interrupts | sed 's/^/# /'
if ! grep -q '^1\.\.' /tmp/tap; then
	echo "# inc_smoke.ko printed no plan (insmod status $rc)"
	dmesg | tail -n 20 | sed 's/^/# dmesg: /'
	exit 1
fi
[ "$rc" -eq 0 ] || exit "$rc"
rmmod inc_smoke || exit 1
