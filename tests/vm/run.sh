#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Runs one VM scenario: QEMU guests (TCG), the incsim NICs they have, and
# virtio-net NICs on the same links; prints the guests' TAP as one TAP stream.
#
# usage: tests/vm/run.sh [OPTION]... SCENARIO...
#
# SCENARIO (repeatable, in any order):
#   --guest NAME:INITRD[:MEM][:helper]
#         a guest booting /boot/vmlinuz-<tests/vm/kver.sh> with INITRD (made by
#         tests/vm/mkinitrd.sh); MEM is its RAM, e.g. 256M (the default).
#         A helper guest (e.g. a link peer) need not finish: it is stopped
#         once every other guest has finished.
#   --nic GUEST:NIC[:link-listen=L|:link-connect=L][:stats][:stall-after=N[,N...]]
#         [:tx-wedge-after=N][:gbps=G][:vectors=2|3][:fault=engine-tx|engine-rx]
#         [:model=rtl|behavioral][:lanes=16|8][:record]
#         an incsim NIC of GUEST: build/bin/incsim --ivshmem SOCK --ram
#         /dev/shm/<unique> --ram-size MEM --name NIC --check-dma --vectors V
#         [--link-listen/--link-connect SOCKET-OF-L] [--stats] [--stall-after N]
#         [--tx-wedge-after N] [--gbps G] [--fault F],
#         started (and its socket waited for) before any QEMU; the guest gets
#         `-chardev socket,id=NIC -device ivshmem-doorbell,vectors=V` (V: 3 by
#         default, vector 2 the firmware's mailbox; vectors=2: the driver
#         polls its mailbox) and a
#         shared memory-backend-file RAM (one file for all its NICs). NICs
#         appear on the guest's PCI bus in order. stall-after=N (N >= 1) hangs
#         the NIC's DMA bridge once it has sent N frames, until the driver
#         resets the NIC (docs/sim.md, "Faults"); N,M,...: again M frames
#         after that reset, and so on. tx-wedge-after=N: the MAC takes no
#         frame once N were sent, until the TX queue is flushed or the NIC
#         reset (once). fault=engine-tx|engine-rx: a faulty compressor or
#         decompressors (incsim --fault; the boot self-test fails).
#         model=: incsim --model (default $INCSIM_MODEL, else rtl: the RTL;
#         behavioral: the behavioral model, docs/sim.md "Two models");
#         lanes=: the behavioral model's lanes (incsim --lanes; the RTL's are
#         the binary's: INCSIM=build/bin/incsim8 for 8). record: the
#         compressed frames of its link into DIR/NIC.pcap (incsim
#         --record-compressed; tests/sim/beh/wire-recheck checks them).
#   --virtio GUEST:link-connect=L|link-listen=L[:mac=MAC]   (mac= last)
#         a virtio-net NIC of GUEST on link L (QEMU -netdev stream); the guest's
#         initrd needs `--kmod virtio_pci --kmod virtio_net`. MAC defaults to
#         52:54:00:12:34:NN (NN = 01, 02, ... in order).
#   --switch L[:loss=N]
#         a learning switch (build/bin/incswitch) listening as link L: any
#         number of NICs (incsim or virtio) connect to it with link-connect=L;
#         loss=N drops every Nth unicast frame it forwards.
#   --append GUEST:ARGS
#         more kernel command line for GUEST.
#   --host-root GUEST
#         this host's / shared read-only with GUEST over virtio-9p (QEMU
#         -virtfs, mount tag "host"); the guest's initrd needs `--kmod 9p
#         --kmod 9pnet_virtio --kmod virtio_pci` and mounts it with
#         `mount -t 9p -o trans=virtio,version=9p2000.L,ro host DIR`.
#   L is a link name ([A-Za-z0-9_.-]+), a UNIX socket in the run's own
#   temporary directory; NAME and NIC are QEMU ids ([A-Za-z][A-Za-z0-9_-]*).
#
# OPTION:
#   --timeout SEC    wall-clock limit of the whole scenario (default 120)
#   --log-dir DIR    where logs go (default build/vm): DIR/NAME.log is a guest's
#                    console, DIR/NIC.incsim.log an incsim's stdout and stderr
#   --kernel FILE    instead of /boot/vmlinuz-<tests/vm/kver.sh>
#   environment: INCSIM (default build/bin/incsim), INCSWITCH (default
#   build/bin/incswitch), QEMU (qemu-system-x86_64), INCSIM_MODEL (every
#   NIC's model=, unless its spec says: rtl or behavioral), INCSIM_LANES
#   (the behavioral NICs' lanes= likewise)
#
# Guests run with -smp 1 -nographic -no-reboot -nic none and the kernel command
# line "console=ttyS0 quiet panic=-1 oops=panic"; a guest is done when QEMU
# exits (the initrd's /init prints "VM-EXIT <status>" and powers off).
#
# Output (stdout): TAP. Every guest's console lines that start with "ok ",
# "not ok ", "# " or "1.." are renumbered in one sequence, each description
# prefixed with "NAME: "; then, per guest, a test point for how it ended
# ("VM-EXIT 0" and as many test points as its own "1..N" plan said, else
# not ok: timed out, panicked or powered off without VM-EXIT, VM-EXIT N), and
# per NIC one for incsim (started, exited with status 0 after its QEMU).
# Every incsim runs with --check-dma: a driver that moved a queue (BASE or
# SIZE written) while the NIC could still DMA, i.e. freed or reused memory
# the NIC could still write, makes it exit with status 3, a failing test
# point "NIC: incsim exited with status 3" (its log says which write).
# Failures carry the last console and incsim log lines as "# " diagnostics.
# Exit status: 0 when every test point is ok, 1 otherwise, 2 for bad usage.
#
# Everything started runs in its own process group and is killed, and every
# socket and /dev/shm file removed, when the scenario ends, times out or the
# script is interrupted. Names are unique per run (PID), so runs can overlap
# (give them different --log-dir when guest names are the same).
#
# example:
#   tests/vm/run.sh --timeout 120 --guest vm0:build/sim/smoke/a.cpio.gz:256M \
#     --nic vm0:nic0:link-listen=l0 --guest peer:build/sim/smoke/p.cpio.gz:helper \
#     --virtio peer:link-connect=l0
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
INCSIM=${INCSIM:-$BUILD/bin/incsim}
INCSWITCH=${INCSWITCH:-$BUILD/bin/incswitch}
QEMU=${QEMU:-qemu-system-x86_64}
TIMEOUT=120
LOGDIR=$BUILD/vm
KERNEL=
APPEND_BASE="console=ttyS0 quiet panic=-1 oops=panic"
STARTUP_WAIT=20		# seconds for an incsim to create its sockets
EXIT_GRACE=10		# seconds for an incsim to exit after its QEMU
TAIL_LINES=25

usage() {
	sed -n '3,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
	exit 2
}

die() {
	echo "run.sh: $*" >&2
	exit 2
}

now() {
	echo "${EPOCHREALTIME/,/.}"
}

elapsed() {	# elapsed SINCE [UNTIL]: seconds with one decimal
	awk -v a="$1" -v b="${2:-$(now)}" 'BEGIN { printf "%.1f", b - a }'
}

valid_id() {
	[[ $1 =~ ^[A-Za-z][A-Za-z0-9_-]*$ ]]
}

guests=() nics=() virtios=() switches=()
declare -A G_INITRD=() G_MEM=() G_HELPER=() G_APPEND=() G_NICS=() G_VIRTIOS=() G_ROOT=()
declare -A N_GUEST=() N_MODE=() N_LINK=() N_STATS=() N_STALL=() N_WEDGE=() N_GBPS=() N_VEC=() N_FAULT=() N_MODEL=() N_LANES=() N_REC=()
declare -A V_MODE=() V_LINK=() V_MAC=()

has_guest() {
	local g
	for g in ${guests[@]+"${guests[@]}"}; do
		[ "$g" = "$1" ] && return 0
	done
	return 1
}

link_opt() {	# link_opt WHAT KEY=VALUE -> sets MODE, LINK
	case $2 in
	link-listen=*) MODE=listen LINK=${2#link-listen=} ;;
	link-connect=*) MODE=connect LINK=${2#link-connect=} ;;
	*) die "$1: unknown option '$2'" ;;
	esac
	[[ $LINK =~ ^[A-Za-z0-9_.-]+$ ]] || die "$1: bad link name '$LINK'"
}

# ---------------------------------------------------------------- options
declare -a nic_specs=() virtio_specs=() append_specs=() root_specs=()
[ $# -gt 0 ] || usage
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage ;;
	--timeout | --log-dir | --kernel | --guest | --nic | --virtio | --append | --switch | --host-root)
		[ $# -ge 2 ] || die "$1 needs an argument" ;;
	*) die "unknown option $1 (--help)" ;;
	esac
	case $1 in
	--timeout)
		[[ $2 =~ ^[0-9]+$ ]] || die "--timeout $2: seconds expected"
		TIMEOUT=$2 ;;
	--log-dir) LOGDIR=$2 ;;
	--kernel) KERNEL=$2 ;;
	--guest)
		IFS=: read -r -a f <<<"$2"
		[ ${#f[@]} -ge 2 ] || die "--guest $2: NAME:INITRD[:MEM][:helper] expected"
		g=${f[0]}
		valid_id "$g" || die "--guest $2: bad name '$g'"
		has_guest "$g" && die "--guest $g given twice"
		[ -r "${f[1]}" ] || die "--guest $2: initrd ${f[1]} not found"
		guests+=("$g")
		G_INITRD[$g]=${f[1]} G_MEM[$g]=256M G_HELPER[$g]=0 G_APPEND[$g]=
		G_NICS[$g]='' G_VIRTIOS[$g]=''
		for x in "${f[@]:2}"; do
			case $x in
			helper) G_HELPER[$g]=1 ;;
			[0-9]*[MG]) G_MEM[$g]=$x ;;
			*) die "--guest $2: unknown field '$x'" ;;
			esac
		done ;;
	--nic) nic_specs+=("$2") ;;
	--virtio) virtio_specs+=("$2") ;;
	--append) append_specs+=("$2") ;;
	--host-root) root_specs+=("$2") ;;
	--switch)
		[[ $2 =~ ^[A-Za-z0-9_.-]+(:loss=[0-9]+)?$ ]] || die "--switch $2: L[:loss=N] expected"
		switches+=("$2") ;;
	esac
	shift 2
done
[ ${#guests[@]} -gt 0 ] || die "no --guest"

for spec in ${nic_specs[@]+"${nic_specs[@]}"}; do
	IFS=: read -r -a f <<<"$spec"
	[ ${#f[@]} -ge 2 ] || die "--nic $spec: GUEST:NIC[:link-...] expected"
	g=${f[0]} n=${f[1]}
	has_guest "$g" || die "--nic $spec: no guest '$g'"
	valid_id "$n" || die "--nic $spec: bad NIC name '$n'"
	[ -z "${N_GUEST[$n]:-}" ] || die "--nic $n given twice"
	nics+=("$n")
	N_GUEST[$n]=$g N_MODE[$n]='' N_LINK[$n]='' N_STATS[$n]=0 N_STALL[$n]= N_WEDGE[$n]= N_GBPS[$n]=
	N_VEC[$n]=3
	N_FAULT[$n]=
	N_MODEL[$n]=${INCSIM_MODEL:-rtl}
	N_LANES[$n]=${INCSIM_LANES:-}
	N_REC[$n]=0
	G_NICS[$g]+="$n "
	for x in "${f[@]:2}"; do
		case $x in
		stats) N_STATS[$n]=1 ;;
		record) N_REC[$n]=1 ;;
		gbps=*)
			N_GBPS[$n]=${x#gbps=}
			[[ ${N_GBPS[$n]} =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
				die "--nic $spec: gbps=G expected (Gbit/s, 0: no limit)" ;;
		stall-after=*)
			N_STALL[$n]=${x#stall-after=}
			[[ ${N_STALL[$n]} =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
				die "--nic $spec: stall-after=N[,N...] expected, N >= 1 frames" ;;
		vectors=*)
			N_VEC[$n]=${x#vectors=}
			[[ ${N_VEC[$n]} =~ ^[23]$ ]] ||
				die "--nic $spec: vectors=2 or vectors=3 expected" ;;
		fault=engine-tx | fault=engine-rx) N_FAULT[$n]=${x#fault=} ;;
		model=rtl | model=behavioral) N_MODEL[$n]=${x#model=} ;;
		model=*) die "--nic $spec: model=rtl or model=behavioral expected" ;;
		lanes=16 | lanes=8) N_LANES[$n]=${x#lanes=} ;;
		lanes=*) die "--nic $spec: lanes=16 or lanes=8 expected" ;;
		tx-wedge-after=*)
			N_WEDGE[$n]=${x#tx-wedge-after=}
			[[ ${N_WEDGE[$n]} =~ ^[1-9][0-9]*$ ]] ||
				die "--nic $spec: tx-wedge-after=N expected, N >= 1 frames" ;;
		*)
			link_opt "--nic $spec" "$x"
			N_MODE[$n]=$MODE N_LINK[$n]=$LINK ;;
		esac
	done
done

i=0
for spec in ${virtio_specs[@]+"${virtio_specs[@]}"}; do
	IFS=: read -r -a f <<<"$spec"
	g=${f[0]}
	has_guest "$g" || die "--virtio $spec: no guest '$g'"
	i=$((i + 1))
	v=vnet$i
	virtios+=("$v")
	V_MODE[$v]='' V_MAC[$v]=$(printf '52:54:00:12:34:%02x' $i)
	G_VIRTIOS[$g]+="$v "
	for ((j = 1; j < ${#f[@]}; j++)); do
		x=${f[j]}
		case $x in
		mac=*)	# the MAC's own colons: it takes the rest of the spec
			V_MAC[$v]=$(IFS=:; echo "${f[*]:j}")
			V_MAC[$v]=${V_MAC[$v]#mac=}
			break ;;
		*) link_opt "--virtio $spec" "$x"; V_MODE[$v]=$MODE V_LINK[$v]=$LINK ;;
		esac
	done
	[ -n "${V_MODE[$v]}" ] || die "--virtio $spec: link-connect=L or link-listen=L expected"
done

for spec in ${append_specs[@]+"${append_specs[@]}"}; do
	g=${spec%%:*}
	if ! has_guest "$g" || [ "$g" = "$spec" ]; then
		die "--append $spec: GUEST:ARGS expected"
	fi
	G_APPEND[$g]+=" ${spec#*:}"
done

for g in ${root_specs[@]+"${root_specs[@]}"}; do
	has_guest "$g" || die "--host-root $g: no guest '$g'"
	G_ROOT[$g]=1
done

if [ -z "$KERNEL" ]; then
	kv=$("$ROOT/tests/vm/kver.sh") || exit 2
	KERNEL=/boot/vmlinuz-$kv
fi
[ -r "$KERNEL" ] || die "kernel $KERNEL not readable"
command -v "$QEMU" >/dev/null || die "$QEMU not found (scripts/install-deps.sh vm)"
if [ ${#nics[@]} -gt 0 ] && [ ! -x "$INCSIM" ]; then
	die "$INCSIM not found (make build/bin/incsim)"
fi
mkdir -p "$LOGDIR" || die "cannot create $LOGDIR"

# ---------------------------------------------------------------- cleanup
RUN=$(mktemp -d "/tmp/incvm.$$.XXXXXX") || die "mktemp failed"
SHM=/dev/shm/incvm-$$
pgids=()

kill_group() {	# kill_group PID: TERM its process group, KILL it if it stays
	local p=$1 i
	kill -TERM -- "-$p" 2>/dev/null || return 0
	for i in $(seq 20); do
		kill -0 -- "-$p" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL -- "-$p" 2>/dev/null
}

cleanup() {
	local p
	trap '' INT TERM
	for p in ${pgids[@]+"${pgids[@]}"}; do
		kill -TERM -- "-$p" 2>/dev/null
	done
	for p in ${pgids[@]+"${pgids[@]}"}; do
		kill_group "$p"
	done
	wait 2>/dev/null
	rm -rf "$RUN"
	rm -f "$SHM"-*
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; exit 130' INT
trap 'echo "run.sh: terminated" >&2; exit 143' TERM

start() {	# start LOG CMD...: in a new process group; sets PID
	local log=$1
	shift
	{
		printf '+'
		printf ' %q' "$@"
		printf '\n'
	} >"$log"
	setsid "$@" </dev/null >>"$log" 2>&1 &
	PID=$!
	pgids+=("$PID")
}

T0=$(now)
DEADLINE=$(awk -v t="$T0" -v d="$TIMEOUT" 'BEGIN { printf "%d", t + d }')

# ---------------------------------------------------------------- switches
declare -A S_PID=()
if [ ${#switches[@]} -gt 0 ] && [ ! -x "$INCSWITCH" ]; then
	die "$INCSWITCH not found (make build/bin/incswitch)"
fi
for spec in ${switches[@]+"${switches[@]}"}; do
	l=${spec%%:*} sargs=()
	[ "$l" != "$spec" ] && sargs=(--loss "${spec#*:loss=}")
	start "$LOGDIR/switch-$l.log" "$INCSWITCH" --listen "$RUN/link-$l.sock" \
		--name "switch-$l" ${sargs[@]+"${sargs[@]}"}
	S_PID[$l]=$PID
	t=$(now)
	until [ -S "$RUN/link-$l.sock" ]; do
		kill -0 "$PID" 2>/dev/null || die "switch $l did not start ($LOGDIR/switch-$l.log)"
		awk -v e="$(elapsed "$t")" -v w=$STARTUP_WAIT 'BEGIN { exit !(e > w) }' &&
			die "switch $l did not create its socket"
		sleep 0.05
	done
done

# ---------------------------------------------------------------- incsims
declare -A N_PID=() N_RC=() N_FAIL=()
declare -A G_PID=() G_RC=() G_STATE=() G_T0=() G_T1=() G_FAIL=() N_SKIP=()

# listening ones first; each one's sockets before the next
ordered=()
for n in ${nics[@]+"${nics[@]}"}; do
	[ "${N_MODE[$n]}" = listen ] && ordered+=("$n")
done
for n in ${nics[@]+"${nics[@]}"}; do
	[ "${N_MODE[$n]}" != listen ] && ordered+=("$n")
done
for n in ${ordered[@]+"${ordered[@]}"}; do
	g=${N_GUEST[$n]}
	args=(--ivshmem "$RUN/$n.sock" --ram "$SHM-$g" --ram-size "${G_MEM[$g]}"
		--name "$n" --check-dma --vectors "${N_VEC[$n]}")
	[ -n "${N_MODE[$n]}" ] && args+=("--link-${N_MODE[$n]}" "$RUN/link-${N_LINK[$n]}.sock")
	[ "${N_STATS[$n]}" = 1 ] && args+=(--stats)
	[ -n "${N_STALL[$n]}" ] && args+=(--stall-after "${N_STALL[$n]}")
	[ -n "${N_WEDGE[$n]}" ] && args+=(--tx-wedge-after "${N_WEDGE[$n]}")
	[ -n "${N_GBPS[$n]}" ] && args+=(--gbps "${N_GBPS[$n]}")
	[ -n "${N_FAULT[$n]}" ] && args+=(--fault "${N_FAULT[$n]}")
	args+=(--model "${N_MODEL[$n]}")
	[ -n "${N_LANES[$n]}" ] && args+=(--lanes "${N_LANES[$n]}")
	[ "${N_REC[$n]}" = 1 ] && args+=(--record-compressed "$LOGDIR/$n.pcap")
	start "$LOGDIR/$n.incsim.log" "$INCSIM" "${args[@]}"
	N_PID[$n]=$PID
	t=$(now)
	while :; do
		if ! kill -0 "$PID" 2>/dev/null; then
			wait "$PID"
			N_RC[$n]=$?
			N_FAIL[$n]="exited with status ${N_RC[$n]} while starting"
			break
		fi
		if [ -S "$RUN/$n.sock" ] && { [ "${N_MODE[$n]}" != listen ] ||
			[ -S "$RUN/link-${N_LINK[$n]}.sock" ]; }; then
			break
		fi
		if awk -v e="$(elapsed "$t")" -v w=$STARTUP_WAIT 'BEGIN { exit !(e > w) }'; then
			N_FAIL[$n]="did not create its sockets in ${STARTUP_WAIT}s"
			break
		fi
		sleep 0.05
	done
done

# ---------------------------------------------------------------- guests
for g in "${guests[@]}"; do
	bad=
	for n in ${G_NICS[$g]}; do
		[ -n "${N_FAIL[$n]:-}" ] && bad+="$n "
	done
	if [ -n "$bad" ]; then
		G_STATE[$g]="not started: incsim failed (${bad% })"
		continue
	fi
	q=(-name "$g" -m "${G_MEM[$g]}" -smp 1 -nographic -no-reboot -nic none
		-kernel "$KERNEL" -initrd "${G_INITRD[$g]}"
		-append "$APPEND_BASE${G_APPEND[$g]}")
	if [ -n "${G_NICS[$g]}" ]; then
		q+=(-object "memory-backend-file,id=ram,size=${G_MEM[$g]},mem-path=$SHM-$g,share=on"
			-machine memory-backend=ram)
	fi
	for n in ${G_NICS[$g]}; do
		q+=(-chardev "socket,path=$RUN/$n.sock,id=$n"
			-device "ivshmem-doorbell,chardev=$n,vectors=${N_VEC[$n]}")
	done
	if [ -n "${G_ROOT[$g]:-}" ]; then
		q+=(-virtfs "local,path=/,mount_tag=host,security_model=none,readonly=on")
	fi
	for v in ${G_VIRTIOS[$g]}; do
		srv=off
		[ "${V_MODE[$v]}" = listen ] && srv=on
		q+=(-netdev "stream,id=$v,server=$srv,addr.type=unix,addr.path=$RUN/link-${V_LINK[$v]}.sock"
			-device "virtio-net-pci,netdev=$v,mac=${V_MAC[$v]},romfile=")
	done
	start "$LOGDIR/$g.log" "$QEMU" "${q[@]}"
	G_PID[$g]=$PID G_STATE[$g]=running G_T0[$g]=$(now)
done

# ---------------------------------------------------------------- wait
running() {	# guests still running, of the kind $1 (0 main, 1 helper, all)
	local g c=0
	for g in "${guests[@]}"; do
		[ "${G_STATE[$g]}" = running ] || continue
		[ "$1" = all ] || [ "${G_HELPER[$g]}" = "$1" ] || continue
		c=$((c + 1))
	done
	echo $c
}

mains=0
for g in "${guests[@]}"; do
	[ "${G_HELPER[$g]}" = 0 ] && mains=$((mains + 1))
done
while :; do
	for g in "${guests[@]}"; do
		[ "${G_STATE[$g]}" = running ] || continue
		if ! kill -0 "${G_PID[$g]}" 2>/dev/null; then
			wait "${G_PID[$g]}"
			G_RC[$g]=$? G_STATE[$g]=exited G_T1[$g]=$(now)
		fi
	done
	for n in ${nics[@]+"${nics[@]}"}; do
		[ -n "${N_RC[$n]:-}" ] && continue
		if ! kill -0 "${N_PID[$n]}" 2>/dev/null; then
			wait "${N_PID[$n]}"
			N_RC[$n]=$?
		fi
	done
	if [ "$mains" -gt 0 ]; then
		[ "$(running 0)" -eq 0 ] && break
	else
		[ "$(running all)" -eq 0 ] && break
	fi
	if [ "$(date +%s)" -ge "$DEADLINE" ]; then
		for g in "${guests[@]}"; do
			if [ "${G_STATE[$g]}" = running ] && [ "${G_HELPER[$g]}" = 0 ]; then
				G_STATE[$g]=timeout G_T1[$g]=$(now)
				kill_group "${G_PID[$g]}"
			fi
		done
		break
	fi
	sleep 0.2
done
# helpers still running are stopped now
for g in "${guests[@]}"; do
	if [ "${G_STATE[$g]}" = running ]; then
		G_STATE[$g]=stopped G_T1[$g]=$(now)
		kill_group "${G_PID[$g]}"
	fi
	[ -n "${G_PID[$g]:-}" ] && wait "${G_PID[$g]}" 2>/dev/null
done
# incsims should exit by themselves once their QEMU is gone
t=$(now)
for n in ${nics[@]+"${nics[@]}"}; do
	[ -n "${N_PID[$n]:-}" ] || continue
	if [ -z "${N_RC[$n]:-}" ] && [ -z "${G_PID[${N_GUEST[$n]}]:-}" ]; then
		kill_group "${N_PID[$n]}"	# its guest was not started
		wait "${N_PID[$n]}" 2>/dev/null
		N_RC[$n]=killed N_SKIP[$n]=1
	fi
	while [ -z "${N_RC[$n]:-}" ]; do
		if ! kill -0 "${N_PID[$n]}" 2>/dev/null; then
			wait "${N_PID[$n]}"
			N_RC[$n]=$?
		elif awk -v e="$(elapsed "$t")" -v w=$EXIT_GRACE 'BEGIN { exit !(e > w) }'; then
			N_FAIL[$n]="still running ${EXIT_GRACE}s after its QEMU exited (killed)"
			kill_group "${N_PID[$n]}"
			wait "${N_PID[$n]}" 2>/dev/null
			N_RC[$n]=killed
		else
			sleep 0.1
		fi
	done
done

# ---------------------------------------------------------------- report
K=0 FAILED=0
tp() {	# tp ok|not-ok DESCRIPTION
	K=$((K + 1))
	if [ "$1" = ok ]; then
		echo "ok $K - $2"
	else
		echo "not ok $K - $2"
		FAILED=$((FAILED + 1))
	fi
}

console() {	# the console log without CRs and terminal escapes
	# (a bare CR or a terminal reset, ESC c, ends a line too: the firmware's
	# last line has no newline)
	sed -e 's/\r$//' -e 's/\r/\n/g' -e 's/\x1bc/\n/g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][0-9A-Za-z]//g' \
		-e 's/\x1b[78=>]//g' "$1"
}

show_tail() {	# show_tail FILE WHAT
	[ -s "$1" ] || { echo "# ($2: empty)"; return; }
	# a kernel's first report of a panic or oops scrolls away under its trace
	console "$1" | grep -m 5 -E 'Kernel panic|BUG:|Oops|general protection|WARNING:|RIP:' |
		sed 's/^/# kernel: /'
	echo "# last lines of $2 ($1):"
	console "$1" | tail -n "$TAIL_LINES" | sed 's/^/#   | /'
}

for g in "${guests[@]}"; do
	log=$LOGDIR/$g.log
	plan='' count=0 vmexit='' gfail=0
	if [ -r "$log" ]; then
		while IFS= read -r l; do
			if [[ $l =~ ^(not\ ok|ok)([\ ]+[0-9]+)?([\ ]+-)?([\ ]+(.*))?$ ]]; then
				d=${BASH_REMATCH[5]}
				count=$((count + 1))
				if [ "${BASH_REMATCH[1]}" = ok ]; then
					tp ok "$g: $d"
				else
					tp not-ok "$g: $d"
					gfail=1
				fi
			elif [[ $l =~ ^1\.\.([0-9]+) ]]; then
				plan=${BASH_REMATCH[1]}
			elif [[ $l == '# '* ]]; then
				echo "# $g: ${l#\# }"
			elif [[ $l =~ ^VM-EXIT\ (-?[0-9]+) ]]; then
				vmexit=${BASH_REMATCH[1]}
			fi
		done < <(console "$log")
	fi
	st=${G_STATE[$g]}
	dt=
	[ -n "${G_T1[$g]:-}" ] && dt=$(elapsed "${G_T0[$g]}" "${G_T1[$g]}")
	why=
	case $st in
	"not started"*) why="$g: $st" ;;
	timeout) why="$g: timed out after ${dt}s (--timeout $TIMEOUT)" ;;
	stopped)
		[ -n "$vmexit" ] && [ "$vmexit" != 0 ] && why="$g: VM-EXIT $vmexit" ;;
	exited)
		if [ -z "$vmexit" ]; then
			why="$g: QEMU exited (status ${G_RC[$g]}) after ${dt}s without VM-EXIT (panic?)"
		elif [ "$vmexit" != 0 ]; then
			why="$g: VM-EXIT $vmexit after ${dt}s"
		fi ;;
	esac
	if [ -z "$why" ] && [ -n "$plan" ] && [ "$plan" != "$count" ]; then
		why="$g: planned $plan test points, printed $count"
	fi
	if [ -z "$why" ] && [ "$st" = stopped ]; then
		tp ok "$g: helper stopped after ${dt}s, when the other guests had finished"
	elif [ -z "$why" ]; then
		tp ok "$g: VM-EXIT 0 after ${dt}s"
	else
		tp not-ok "$why"
		gfail=1
	fi
	if [ "$gfail" = 1 ] && [ -r "$log" ]; then
		show_tail "$log" "$g's console"
	fi
	G_FAIL[$g]=$gfail
done

for n in ${nics[@]+"${nics[@]}"}; do
	g=${N_GUEST[$n]} ilog=$LOGDIR/$n.incsim.log
	if [ -n "${N_SKIP[$n]:-}" ] && [ -z "${N_FAIL[$n]:-}" ]; then
		tp ok "$n: # SKIP its guest was not started"
		continue
	elif [ -n "${N_FAIL[$n]:-}" ]; then
		tp not-ok "$n: incsim ${N_FAIL[$n]}"
	elif [ "${N_RC[$n]}" != 0 ]; then
		r=${N_RC[$n]}
		[ "$r" -gt 128 ] 2>/dev/null && r="$r (signal $((r - 128)))"
		tp not-ok "$n: incsim exited with status $r"
	else
		tp ok "$n: incsim exited with status 0"
		[ "${G_FAIL[$g]}" = 1 ] && show_tail "$ilog" "$n's incsim log"
		continue
	fi
	show_tail "$ilog" "$n's incsim log"
done

echo "1..$K"
echo "# $((K - FAILED)) passed, $FAILED failed in $(elapsed "$T0")s (logs: $LOGDIR)"
[ "$FAILED" -eq 0 ]
