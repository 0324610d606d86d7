#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of one host of tests/inccl/run-cluster.sh: /init has loaded
# inceptionn.ko; this brings eth0 (the incsim NIC) up as 10.0.0.(H+1),
# waits for every host, then runs the incbench runs of /inccl/runs in
# order, as rank H of inc.hosts ranks (MASTER_ADDR 10.0.0.1):
#   RANK=H WORLD_SIZE=N MASTER_ADDR=10.0.0.1 MASTER_PORT=P \
#     incbench ARG... --transport nic --digest --no-check [--data /data/grad.f32]
# ("NAME ARG..." per line of /inccl/runs; P differs per run). Around each
# run it reads the NIC's counters (ethtool -S) and the simulated NIC clock
# (incsim's BAR2 word INCSIM_OFF_CLOCKS through /dev/mem: the kernel
# command line has iomem=relaxed, as the driver holds the BAR) and the
# guest's uptime.
#
# Kernel command line: inc.host=H inc.hosts=N. Output on the console: TAP,
# per run a line "INCCL-STAT run=NAME host=H rc=RC wall_s=S clocks=C
# COUNTER=DELTA ...", and on host 0 per incbench row "INCCL-ROW NAME SIZE
# CHECK DIGEST TIME_US" (the host compares them with --transport sw).

# wait_for, carrier_up, counters, delta, inc_arg, ip_of, wait_hosts: the
# driver selftests' own
. /lib/inc-lib.sh

H=$(inc_arg host)
N=$(inc_arg hosts)
IF=eth0
RUNS=/inccl/runs
DATA=/data/grad.f32
PORT0=29500
STATS="tx_frames tx_bytes tx_comp_frames tx_comp_in_bytes tx_comp_out_bytes tx_bytes_saved
rx_frames rx_bytes rx_decomp_frames rx_drop_malformed rx_drop_no_buffer drv_tx_bytes
drv_tx_marked drv_tx_marked_bytes drv_tx_compressed drv_rx_restored"
n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); bad=1; echo "not ok $n - $*"; }
finish() { echo "1..$n"; exit "$bad"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# the simulated NIC clock: BAR2 of the ivshmem device, offset 0x20 (u64)
BAR2=$(sed -n 3p "/sys/class/net/$IF/device/resource" 2>/dev/null | cut -d' ' -f1)
clocks() {
	[ -n "$BAR2" ] || return 1
	v=$(devmem $((BAR2 + 0x20)) 64 2>/dev/null) || return 1
	echo $((v))
}

if ip addr add "$(ip_of "$H")/24" dev "$IF" && ip link set "$IF" up &&
	wait_for 30 carrier_up; then
	ok "host$H: $IF up as $(ip_of "$H") ($(ethtool -i "$IF" | sed -n 's/^driver: //p'))"
else
	nok "host$H: $IF up"
	finish
fi
if c=$(clocks) && [ "$c" -gt 0 ]; then
	ok "host$H: the NIC's simulated clock is readable (BAR2 $BAR2: $c clocks)"
else
	nok "host$H: the NIC's simulated clock at BAR2 ${BAR2:-?} + 0x20 (iomem=relaxed?)"
fi
wait_hosts "$N" || { nok "host$H: host$LOST answers"; finish; }
ok "host$H: all $N hosts answer"

data=
[ -r "$DATA" ] && data="--data $DATA"
i=0
while read -r name args; do
	[ -n "$name" ] || continue
	i=$((i + 1))
	# shellcheck disable=SC2086
	c0=$(counters $STATS)
	k0=$(clocks || echo 0)
	t0=$(uptime_s)
	# shellcheck disable=SC2086
	out=$(RANK=$H WORLD_SIZE=$N MASTER_ADDR=10.0.0.1 MASTER_PORT=$((PORT0 + i)) \
		incbench $args --transport nic --digest --no-check $data 2>&1)
	rc=$?
	t1=$(uptime_s)
	k1=$(clocks || echo 0)
	# shellcheck disable=SC2086
	c1=$(counters $STATS)
	line="INCCL-STAT run=$name host=$H rc=$rc wall_s=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") clocks=$((k1 - k0))"
	for s in $STATS; do
		line="$line $s=$(delta "$s" "$c0" "$c1")"
	done
	echo "$line"
	if [ "$H" -eq 0 ]; then
		echo "$out" | sed 's/^/# /'
		echo "$out" | awk -v name="$name" '$1 ~ /^[0-9]+$/ { print "INCCL-ROW " name " " $1 " " $(NF - 1) " " $NF " " $3 }'
	fi
	if [ "$rc" -eq 0 ]; then
		ok "host$H: incbench $name as rank $H of $N"
	else
		nok "host$H: incbench $name as rank $H of $N: exit $rc"
		echo "$out" | tail -n 5 | sed 's/^/# /'
	fi
done <"$RUNS"

if dmesg | grep -E 'WARNING:|BUG:|Oops|general protection'; then
	nok "host$H: no kernel warning"
else
	ok "host$H: no kernel warning"
fi
finish
