#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of the guest of tests/inccl/run-guest.sh: a QEMU guest without
# any inceptionn NIC, where /init has loaded inceptionn.ko. Checks that the
# module needs no device for INC_SO_GRADIENT, runs `test_inccl -t nic`
# (every collective, ranks forked on 127.0.0.1, sockets marked) and the
# incbench runs listed in /inccl/runs ("NAME ARG..." per line, run as
# `incbench ARG... --transport nic --digest --data /data/grad.f32` when that
# file exists). Output: TAP on the console, and per incbench row a line
# "INCCL-ROW NAME SIZE CHECK DIGEST" that the host compares with its own
# --transport sw runs.
RUNS=/inccl/runs
DATA=/data/grad.f32
n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); bad=1; echo "not ok $n - $*"; }

echo "# guest: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU, $(sed -n 's/^MemTotal: *//p' /proc/meminfo) RAM"
if [ -d /sys/module/inceptionn ]; then
	ok "inceptionn.ko loaded"
else
	nok "inceptionn.ko loaded"
fi
# the guest has no NIC at all: no inceptionn netdev, no PCI device of it
nets=$(ls /sys/class/net | tr '\n' ' ')
drv=$(ls /sys/bus/pci/drivers/inceptionn*/ 2>/dev/null | grep -c '^[0-9a-f]\{4\}:')
if [ "$nets" = "lo " ] && [ "$drv" -eq 0 ]; then
	ok "no inceptionn device in the guest (interfaces: $nets)"
else
	nok "no inceptionn device in the guest (interfaces: $nets, bound devices: $drv)"
fi
# INC_SO_GRADIENT answers without a device: transport nic starts (it
# fails with exit 3, "is inceptionn.ko loaded?", when getsockopt does not)
out=$(incbench allreduce --local 2 --transport nic -b 4K -e 4K -n 1 -w 0 --timeout 60 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "INC_SO_GRADIENT answers without an inceptionn NIC: incbench --transport nic runs"
else
	nok "INC_SO_GRADIENT without an inceptionn NIC: incbench exit $rc"
	echo "$out" | tail -n 5 | sed 's/^/# /'
fi

# test_inccl -t nic: its test points as ours, its plan checked
t0=$(cut -d' ' -f1 /proc/uptime)
{
	test_inccl -t nic 2>&1
	echo "TEST-INCCL-RC $?"
} | while IFS= read -r l; do
	case $l in
	"ok "* | "not ok "*) echo "$l"; echo "$l" >>/tmp/points ;;
	"TEST-INCCL-RC "*) echo "${l#TEST-INCCL-RC }" >/tmp/rc ;;
	1..*) echo "${l#1..}" >/tmp/plan ;;
	*) echo "# $l" ;;
	esac
done
t1=$(cut -d' ' -f1 /proc/uptime)
points=$(cat /tmp/points 2>/dev/null | wc -l)
fails=$(grep -c '^not ok' /tmp/points 2>/dev/null)
n=$((n + points))
[ "${fails:-0}" -eq 0 ] || bad=1
rc=$(cat /tmp/rc 2>/dev/null)
plan=$(cat /tmp/plan 2>/dev/null)
if [ "$rc" = 0 ] && [ "$plan" = "$points" ]; then
	ok "test_inccl -t nic: exit 0, $points test points as planned ($(awk "BEGIN { printf \"%.0f\", $t1 - $t0 }") s)"
else
	nok "test_inccl -t nic: exit ${rc:-?}, $points test points, plan ${plan:-none}"
fi

# incbench runs: each row's check and digest
data=
[ -r "$DATA" ] && data="--data $DATA"
while read -r name args; do
	[ -n "$name" ] || continue
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086
	out=$(incbench $args --transport nic --digest $data 2>&1)
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$out" | sed 's/^/# /'
	rows=$(echo "$out" | grep -cE '^ +[0-9]+ ')
	notok=$(echo "$out" | grep -E '^ +[0-9]+ ' | grep -vcE ' ok +[0-9a-f]{8}$')
	echo "$out" | awk -v name="$name" '$1 ~ /^[0-9]+$/ { print "INCCL-ROW " name " " $1 " " $(NF - 1) " " $NF }'
	if [ "$rc" -eq 0 ] && [ "$rows" -gt 0 ] && [ "$notok" -eq 0 ]; then
		ok "incbench $name ($args): $rows sizes, every row ok ($(awk "BEGIN { printf \"%.0f\", $t1 - $t0 }") s)"
	else
		nok "incbench $name ($args): exit $rc, $rows rows, $notok not ok"
	fi
done <"$RUNS"

if dmesg | grep -E 'WARNING:|BUG:|Oops|general protection'; then
	nok "no kernel warning"
else
	ok "no kernel warning"
fi
echo "1..$n"
exit "$bad"
