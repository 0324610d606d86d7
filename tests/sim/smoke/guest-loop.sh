#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of the fault test's guest (tests/sim/test-faults.sh): loads and
# unloads inc_smoke.ko in loopback mode over and over, so that register
# accesses, DMA and interrupts are in flight when QEMU is killed.
i=0
while :; do
	insmod /lib/modules/inc_smoke.ko mode=loopback >/dev/null 2>&1
	rmmod inc_smoke >/dev/null 2>&1
	i=$((i + 1))
	echo "round $i"
done
