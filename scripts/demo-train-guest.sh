#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /test.sh of one host of `make demo-train` (scripts/demo-train.sh): /init
# has loaded the 9p modules and inceptionn.ko. This mounts the host's root
# filesystem (shared read-only over virtio-9p) on /host with proc, sys,
# dev and a tmpfs /tmp inside, brings eth0 (the incsim NIC) up as
# 10.0.0.(H+1), waits for every host, then runs PyTorch from the host's
# root as rank H of N:
#   chroot /host env RANK=H WORLD_SIZE=N MASTER_ADDR=10.0.0.1 MASTER_PORT=29400 \
#     GLOO_SOCKET_IFNAME=eth0 /usr/bin/python3 ROOT/scripts/train/rank.py \
#     ARGS... --iface eth0 --nic-counters
# ARGS are the lines of /train/args; ROOT is the checkout's path on the host
# (inc.root=), and libinccl.so the one at inc.lib= (INCCL_LIB). Rank 0
# prints one "TRAIN-REC {json}" line per setting.
#
# Kernel command line: inc.host=H inc.hosts=N inc.root=DIR inc.lib=FILE.
# Output on the
# console: TAP and the TRAIN-REC lines.

# wait_for, carrier_up, inc_arg, ip_of, wait_hosts: the driver selftests' own
. /lib/inc-lib.sh

H=$(inc_arg host)
N=$(inc_arg hosts)
ROOT=$(inc_arg root)
LIB=$(inc_arg lib)
IF=eth0
n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); bad=1; echo "not ok $n - $*"; }
finish() { echo "1..$n"; exit "$bad"; }

# the guest's writable /tmp is a tmpfs over the host's, unless the checkout
# is under the host's /tmp: then the host's stays in view and /dev/shm is
# the guest's temporary directory
GTMP=/tmp
case $ROOT in /tmp/*) GTMP=/dev/shm ;; esac
mkdir -p /host
if mount -t 9p -o trans=virtio,version=9p2000.L,ro host /host &&
	mount -t proc proc /host/proc && mount -t sysfs sysfs /host/sys &&
	mount -t devtmpfs devtmpfs /host/dev && mkdir -p /host/dev/shm &&
	mount -t tmpfs tmpfs /host/dev/shm &&
	{ [ "$GTMP" != /tmp ] || mount -t tmpfs tmpfs /host/tmp; }; then
	ok "host$H: the host's root filesystem on /host (virtio-9p, read-only)"
else
	nok "host$H: mount the host's root filesystem over virtio-9p"
	finish
fi
if [ -r "/host$ROOT/scripts/train/rank.py" ]; then
	ok "host$H: the checkout at $ROOT"
else
	nok "host$H: no $ROOT/scripts/train/rank.py on the host's root (inc.root=)"
	finish
fi
if ip addr add "$(ip_of "$H")/24" dev "$IF" && ip link set "$IF" up &&
	wait_for 30 carrier_up; then
	ok "host$H: $IF up as $(ip_of "$H") ($(ethtool -i "$IF" | sed -n 's/^driver: //p'))"
else
	nok "host$H: $IF up"
	finish
fi
wait_hosts "$N" || { nok "host$H: host$LOST answers"; finish; }
ok "host$H: all $N hosts answer"

t0=$(cut -d' ' -f1 /proc/uptime)
# OPENBLAS_CORETYPE: OpenBLAS takes QEMU's TCG CPU (qemu64, an AMD vendor
# string) for an Opteron, whose kernels use an instruction TCG does not
# implement: any BLAS call (numpy's dot, torch's matmul) then dies of
# SIGILL. Prescott's kernels need SSE3, which qemu64 has.
# shellcheck disable=SC2046
chroot /host /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$GTMP" TMPDIR="$GTMP" \
	OPENBLAS_CORETYPE=Prescott \
	PYTHONDONTWRITEBYTECODE=1 RANK="$H" WORLD_SIZE="$N" MASTER_ADDR=10.0.0.1 \
	MASTER_PORT=29400 GLOO_SOCKET_IFNAME="$IF" INCCL_LIB="$LIB" \
	/usr/bin/python3 "$ROOT/scripts/train/rank.py" $(cat /train/args) \
	--iface "$IF" --nic-counters 2>&1
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
if [ "$rc" -eq 0 ]; then
	ok "host$H: rank $H of $N trained every setting ($secs s, PyTorch's import included)"
else
	nok "host$H: rank $H of $N: rank.py exit $rc after $secs s"
fi
if dmesg | grep -E 'WARNING:|BUG:|Oops|general protection'; then
	nok "host$H: no kernel warning"
else
	ok "host$H: no kernel warning"
fi
finish
