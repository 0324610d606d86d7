#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Installs inceptionn.ko (driver/) and its socket-option header: what
# `make install`, `make uninstall`, `make install-headers`,
# `make dkms-install` and `make dkms-remove` run (docs/lab-hosts.md).
#
# usage: scripts/install-module.sh ACTION
#   install          build inceptionn.ko against KDIR (scripts/build-module.sh)
#                    and install it as
#                    $DESTDIR$INSTALL_MOD_PATH/lib/modules/$KVER/$INSTALL_MOD_DIR/inceptionn.ko,
#                    then run depmod (with -b when staging into a directory);
#                    and the management firmware (make firmware) as
#                    $DESTDIR$INSTALL_MOD_PATH/lib/firmware/inceptionn/inceptionn-fw.bin,
#                    where the driver's request_firmware() looks
#   uninstall        remove both files, run depmod
#   install-headers  include/uapi/inceptionn/inceptionn.h to
#                    $DESTDIR$PREFIX/include/inceptionn/
#   dkms-install     copy the sources (dkms.conf, Kbuild, driver/, include/) to
#                    /usr/src/inceptionn-$VERSION, then dkms add, build and
#                    install for KVER; an earlier registration of the same
#                    version is removed first; the firmware as for install
#                    (it does not depend on the kernel, so DKMS does not
#                    carry it)
#   dkms-remove      dkms remove every registered version of inceptionn, and
#                    their /usr/src/inceptionn-* copies; the firmware
#   dkms-tree DIR    only copy the DKMS source tree to DIR (used by the tests)
#   version          print the driver's version (INC_DRV_VERSION, driver/inc.h)
# environment:
#   KDIR, KVER       the kernel (scripts/kdir.sh: KDIR, else
#                    /lib/modules/$KVER/build, else the running kernel's,
#                    else the newest under /lib/modules); KVER defaults to
#                    KDIR's release (its UTS_RELEASE)
#   INSTALL_MOD_PATH, DESTDIR   staging root for the module (default: none,
#                    the live system); both may be set, DESTDIR goes first
#   INSTALL_MOD_DIR  default extra (as Kbuild's modules_install)
#   PREFIX           default /usr (install-headers only)
#   DEPMOD           default depmod; DEPMOD=true skips it
#   BUILD            default build (scripts/build-module.sh)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
NAME=inceptionn

die() { echo "install-module.sh: $*" >&2; exit 1; }

version() {
	local v
	v=$(sed -n 's/^#define INC_DRV_VERSION[[:space:]]*"\(.*\)"$/\1/p' driver/inc.h)
	[ -n "$v" ] || die "no INC_DRV_VERSION in driver/inc.h"
	echo "$v"
}

# the DKMS source tree: the repository's layout, only what the module needs
dkms_tree() {
	local dst=$1 d f
	mkdir -p "$dst"
	install -m 0644 dkms.conf Kbuild "$dst/"
	for d in driver include; do
		(cd "$d" && find . -type f \( -name '*.[ch]' -o -name Kbuild \)) |
			while read -r f; do
				install -D -m 0644 "$d/$f" "$dst/$d/$f"
			done
	done
}

FW_REL=lib/firmware/inceptionn/inceptionn-fw.bin

# the firmware image, built (firmware/firmware.mk; clang and lld)
fw_image() {
	make --no-print-directory BUILD="${BUILD:-build}" firmware >&2 ||
		die "make firmware failed (clang, lld: scripts/install-deps.sh rtl)"
	echo "${BUILD:-build}/firmware/inceptionn-fw.bin"
}

fw_install() {	# fw_install ROOT
	local fw
	fw=$(fw_image)
	install -D -m 0644 "$fw" "$1/$FW_REL"
	echo "  INSTALL $1/$FW_REL"
}

fw_remove() {	# fw_remove ROOT
	rm -f "$1/$FW_REL"
	rmdir --ignore-fail-on-non-empty "$(dirname "$1/$FW_REL")" 2>/dev/null || true
	echo "  REMOVE  $1/$FW_REL"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || die "$1 needs root (sudo make $1)"
}

action=${1:-}
case $action in
version)
	version ;;
dkms-tree)
	[ $# -eq 2 ] || die "usage: $0 dkms-tree DIR"
	dkms_tree "$2" ;;
install | uninstall)
	kdir=$(scripts/kdir.sh)
	kver=$(KDIR=$kdir scripts/kdir.sh --kver)
	root=${DESTDIR:-}${INSTALL_MOD_PATH:-}
	dir=$root/lib/modules/$kver/${INSTALL_MOD_DIR:-extra}
	if [ "$action" = install ]; then
		ko=$(KDIR=$kdir scripts/build-module.sh)
		[ -n "$root" ] || need_root install
		install -D -m 0644 "$ko" "$dir/$NAME.ko"
		echo "  INSTALL $dir/$NAME.ko"
		fw_install "$root"
	else
		[ -n "$root" ] || need_root uninstall
		rm -f "$dir/$NAME.ko"
		rmdir --ignore-fail-on-non-empty "$dir" 2>/dev/null || true
		echo "  REMOVE  $dir/$NAME.ko"
		fw_remove "$root"
	fi
	depmod=${DEPMOD:-depmod}
	if [ -n "$root" ]; then
		# a staging tree has no modules.order or modules.builtin: depmod
		# says so on stderr and still writes modules.dep and modules.alias
		"$depmod" -a -b "$root" "$kver" 2>/dev/null ||
			die "$depmod -a -b $root $kver failed"
	else
		"$depmod" -a "$kver"
	fi ;;
install-headers)
	dst=${DESTDIR:-}${PREFIX:-/usr}/include/inceptionn
	install -D -m 0644 include/uapi/inceptionn/inceptionn.h "$dst/inceptionn.h"
	echo "  INSTALL $dst/inceptionn.h" ;;
dkms-install)
	need_root dkms-install
	command -v dkms >/dev/null || die "dkms is not installed (scripts/install-deps.sh lab)"
	kdir=$(scripts/kdir.sh)
	kver=$(KDIR=$kdir scripts/kdir.sh --kver)
	ver=$(version)
	src=/usr/src/$NAME-$ver
	if [ -n "$(dkms status -m "$NAME" -v "$ver" 2>/dev/null)" ]; then
		dkms remove -m "$NAME" -v "$ver" --all
	fi
	rm -rf "$src"
	dkms_tree "$src"
	dkms add -m "$NAME" -v "$ver"
	dkms build -m "$NAME" -v "$ver" -k "$kver" --kernelsourcedir "$kdir"
	dkms install -m "$NAME" -v "$ver" -k "$kver" --kernelsourcedir "$kdir"
	fw_install ""
	dkms status -m "$NAME" ;;
dkms-remove)
	need_root dkms-remove
	command -v dkms >/dev/null || die "dkms is not installed"
	# "inceptionn/0.1.0, 6.1.0-57-amd64, x86_64: installed" or
	# "inceptionn/0.1.0: added"
	dkms status -m "$NAME" 2>/dev/null | sed -n "s|^$NAME/\([^,:]*\)[,:].*|\1|p" |
		sort -u | while read -r v; do
			dkms remove -m "$NAME" -v "$v" --all
		done
	for d in /usr/src/"$NAME"-*; do
		[ -f "$d/dkms.conf" ] && grep -q "^PACKAGE_NAME=\"$NAME\"" "$d/dkms.conf" &&
			rm -rf "$d" && echo "  REMOVE  $d"
	done
	fw_remove ""
	true ;;
*)
	echo "usage: $0 install|uninstall|install-headers|dkms-install|dkms-remove|dkms-tree DIR|version" >&2
	exit 2 ;;
esac
