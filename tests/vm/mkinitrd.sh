#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds a small initramfs (cpio newc, gzip) for a test VM: busybox-static,
# an /init, kernel modules, files, programs and a test script.
#
# usage: tests/vm/mkinitrd.sh OUT.cpio.gz [OPTION]...
#   --module FILE.ko     a module to load with insmod at boot (in the order given)
#   --kmod NAME          a module of the VM kernel (tests/vm/kver.sh), with the
#                        modules it depends on, loaded at boot (e.g. virtio_net)
#   --file SRC:DEST      copy the file SRC to DEST in the image
#   --bin PROGRAM        a program (name in $PATH, or a path) and every library
#                        ldd lists for it; it goes to /usr/local/bin
#   --script FILE        the test script, run as /test.sh
#
# At boot /init mounts proc, sysfs and devtmpfs, brings up lo, loads the
# modules in order (a failed insmod prints "# insmod NAME failed" and goes
# on), runs /test.sh with its stdout and stderr on the console (ttyS0) and
# stdin from /dev/null, prints "VM-EXIT <status>" with the script's exit status
# (0 when there is no script) and powers off (poweroff -f). The kernel
# command line option inc.shell=1 starts a shell on the console instead of
# powering off (for debugging by hand).
#
# Idempotent; writes only OUT and a temporary directory under $BUILD
# (default build/), removed on exit.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}

die() {
	echo "mkinitrd.sh: $*" >&2
	exit 2
}

[ $# -ge 1 ] || die "usage: $0 OUT.cpio.gz [--module FILE.ko]... [--kmod NAME]... [--file SRC:DEST]... [--bin PROGRAM]... [--script FILE]"
OUT=$1
shift
case $OUT in
-*) die "the first argument is the output file, not $OUT" ;;
esac

modules=() kmods=() files=() bins=() script=
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || die "$1 needs an argument"
	case $1 in
	--module) modules+=("$2") ;;
	--kmod) kmods+=("$2") ;;
	--file) files+=("$2") ;;
	--bin) bins+=("$2") ;;
	--script) script=$2 ;;
	*) die "unknown option $1" ;;
	esac
	shift 2
done

BUSYBOX=
for b in "$(command -v busybox || true)" /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] || continue
	# a static program has no interpreter (ldd: "not a dynamic executable")
	if ! ldd "$b" >/dev/null 2>&1; then
		BUSYBOX=$b
		break
	fi
done
[ -n "$BUSYBOX" ] || die "no statically linked busybox (scripts/install-deps.sh vm)"
for t in cpio gzip; do
	command -v $t >/dev/null || die "$t not found"
done

mkdir -p "$BUILD"
TMP=$(mktemp -d "$BUILD/mkinitrd.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
R=$TMP/root
mkdir -p "$R"/{bin,sbin,etc,proc,sys,dev,tmp,root,run,usr/bin,usr/sbin,usr/local/bin,lib/modules/test}

# busybox and its applets
cp "$BUSYBOX" "$R/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ "$a" = busybox ] || ln -s busybox "$R/bin/$a"
done

# modules, numbered in load order
n=0
add_module() {
	local src=$1 base
	[ -r "$src" ] || die "module $src not found"
	base=$(basename "$src")
	n=$((n + 1))
	case $base in
	*.ko) cp "$src" "$R/lib/modules/test/$(printf %02d "$n")-$base" ;;
	*.ko.xz) xz -dc "$src" >"$R/lib/modules/test/$(printf %02d "$n")-${base%.xz}" ;;
	*.ko.zst) zstd -qdc "$src" >"$R/lib/modules/test/$(printf %02d "$n")-${base%.zst}" ;;
	*.ko.gz) gzip -dc "$src" >"$R/lib/modules/test/$(printf %02d "$n")-${base%.gz}" ;;
	*) die "$src: not a kernel module (.ko)" ;;
	esac
}
if [ ${#kmods[@]} -gt 0 ]; then
	KV=$("$ROOT/tests/vm/kver.sh")
	declare -A seen=()
	for m in "${kmods[@]}"; do
		deps=$(modprobe -S "$KV" --show-depends "$m" 2>&1) ||
			die "--kmod $m: $deps"
		while read -r what path _; do
			[ "$what" = insmod ] || continue	# "builtin NAME": nothing to load
			[ -n "${seen[$path]:-}" ] && continue
			seen[$path]=1
			add_module "$path"
		done <<<"$deps"
	done
fi
for m in ${modules[@]+"${modules[@]}"}; do
	add_module "$m"
done

for f in ${files[@]+"${files[@]}"}; do
	src=${f%%:*} dest=${f#*:}
	if [ "$src" = "$f" ] || [ -z "$dest" ]; then
		die "--file $f: expected SRC:DEST"
	fi
	[ -e "$src" ] || die "--file $f: $src not found"
	mkdir -p "$R/$(dirname "$dest")"
	cp -aL "$src" "$R/$dest"
done

# programs and their libraries (at the paths ldd gives, plus a ld.so cache)
for b in ${bins[@]+"${bins[@]}"}; do
	p=$(command -v "$b" || true)
	[ -x "$p" ] || die "--bin $b: not found"
	cp -L "$p" "$R/usr/local/bin/$(basename "$p")"
	libs=$(ldd "$p" 2>/dev/null || true)
	case $libs in
	*"not a dynamic executable"* | "") continue ;;
	esac
	while read -r l; do
		case $l in
		*"=> not found"*) die "--bin $b: ${l%% *} not found" ;;
		*"=> /"*) lib=${l#*=> } lib=${lib%% (*} ;;
		/*) lib=${l%% (*} ;;
		*) continue ;;	# linux-vdso
		esac
		mkdir -p "$R/$(dirname "$lib")"
		cp -L "$lib" "$R/$lib"
	done <<<"$libs"
done
if [ ${#bins[@]} -gt 0 ]; then
	printf '%s\n' /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 \
		/usr/lib /lib >"$R/etc/ld.so.conf"
	ldconfig -r "$R" 2>/dev/null || true
fi

if [ -n "$script" ]; then
	[ -r "$script" ] || die "--script $script not found"
	cp "$script" "$R/test.sh"
	chmod 755 "$R/test.sh"
fi

cat >"$R/init" <<'EOF'
#!/bin/sh
# generated by tests/vm/mkinitrd.sh
export PATH=/usr/local/bin:/bin:/sbin:/usr/bin:/usr/sbin HOME=/root
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
for m in /lib/modules/test/*.ko; do
	[ -e "$m" ] || continue
	insmod "$m" || echo "# insmod ${m##*/} failed"
done
status=0
if [ -x /test.sh ]; then
	/test.sh </dev/null
	status=$?
fi
echo "VM-EXIT $status"
if grep -q 'inc.shell=1' /proc/cmdline; then
	setsid cttyhack sh
fi
sync
poweroff -f
echo o >/proc/sysrq-trigger
sleep 5
EOF
chmod 755 "$R/init"

mkdir -p "$(dirname "$OUT")"
(cd "$R" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 | gzip -9n) >"$TMP/out.cpio.gz"
mv -f "$TMP/out.cpio.gz" "$OUT"
