#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Installing the module, as TAP (docs/lab-hosts.md):
#   - `make install INSTALL_MOD_PATH=<tmp>` stages inceptionn.ko under
#     lib/modules/KVER/extra/, with depmod's files, and modinfo on it shows
#     the right name, vermagic, version, licence and PCI aliases (the board,
#     10ee:4943, and incsim's ivshmem device, 1af4:1110); and the management
#     firmware as lib/firmware/inceptionn/inceptionn-fw.bin, the image make
#     firmware built, which mkfwimage --check accepts; `make uninstall`
#     removes both;
#   - `make install-headers DESTDIR=<tmp>` stages the socket option's header;
#   - dkms.conf's version is the driver's (INC_DRV_VERSION, driver/inc.h);
#   - `dkms build` of the DKMS source tree against the same kernel builds
#     inceptionn.ko, in a DKMS tree of its own (--dkmstree, --sourcetree) and
#     with a throwaway signing key, so that the system's /var/lib/dkms and
#     /usr/src are untouched (checked).
# KDIR/KVER: scripts/kdir.sh's rule, as `make module`. dkms comes from
# install-deps.sh's lab group, installed here when missing (as under
# `make check`, root on Debian 12).
#
# usage: tests/driver/test-install.sh     environment: BUILD (default build),
#   KDIR, KVER
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export BUILD

n=0 fails=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1)) fails=$((fails + 1))
	echo "not ok $n - $1"
}
check() {	# check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
diag() { sed 's/^/# /'; }

echo "1..21"

KDIR=$(scripts/kdir.sh) || { echo "Bail out! no kernel headers (scripts/install-deps.sh vm)"; exit 1; }
KVER=$(KDIR=$KDIR scripts/kdir.sh --kver) || { echo "Bail out! no kernel release in $KDIR"; exit 1; }
VER=$(scripts/install-module.sh version) || { echo "Bail out! no driver version"; exit 1; }
echo "# KDIR=$KDIR KVER=$KVER version $VER"
export KDIR KVER

TMP=$(mktemp -d "${TMPDIR:-/tmp}/inc-install.XXXXXX") || exit 1
cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT

# ---- make install into a staging tree -----------------------------------
stage=$TMP/stage
ko=$stage/lib/modules/$KVER/extra/inceptionn.ko
if make --no-print-directory install INSTALL_MOD_PATH="$stage" >"$TMP/install.log" 2>&1; then
	ok "make install INSTALL_MOD_PATH=<tmp>"
else
	not_ok "make install INSTALL_MOD_PATH=<tmp>"
	tail -n 20 "$TMP/install.log" | diag
fi
check "it staged lib/modules/$KVER/extra/inceptionn.ko" test -f "$ko"
check "depmod ran on the staging tree: modules.dep lists it" \
	grep -q '^extra/inceptionn.ko:' "$stage/lib/modules/$KVER/modules.dep"
# nothing outside lib/modules/KVER and lib/firmware/inceptionn of the staging tree
check "it wrote nothing but lib/modules/$KVER and lib/firmware/inceptionn" \
	test "$(cd "$stage" && find . -mindepth 1 -maxdepth 3 | sort | tr '\n' ' ')" = \
	"./lib ./lib/firmware ./lib/firmware/inceptionn ./lib/modules ./lib/modules/$KVER "
fw=$stage/lib/firmware/inceptionn/inceptionn-fw.bin
check "it staged lib/firmware/inceptionn/inceptionn-fw.bin: make firmware's image" \
	cmp -s "$BUILD/firmware/inceptionn-fw.bin" "$fw"
if "$BUILD/firmware/host/mkfwimage" --check "$fw" >"$TMP/fwcheck.log" 2>&1; then
	ok "mkfwimage --check accepts the staged firmware"
else
	not_ok "mkfwimage --check accepts the staged firmware"
	diag <"$TMP/fwcheck.log"
fi

modinfo "$ko" >"$TMP/modinfo" 2>&1
field() { sed -n "s/^$1: *//p" "$TMP/modinfo"; }
check "modinfo: name inceptionn" test "$(field name)" = inceptionn
starts_with() { [[ $1 == "$2"* ]]; }
check "modinfo: vermagic for $KVER" starts_with "$(field vermagic)" "$KVER "
check "modinfo: version $VER" test "$(field version)" = "$VER"
check "modinfo: license GPL" test "$(field license)" = GPL
check "modinfo: alias for the board, PCI 10ee:4943" \
	grep -qx 'alias: *pci:v000010EEd00004943sv\*sd\*bc\*sc\*i\*' "$TMP/modinfo"
check "modinfo: alias for incsim's ivshmem device, PCI 1af4:1110" \
	grep -qx 'alias: *pci:v00001AF4d00001110sv\*sd\*bc\*sc\*i\*' "$TMP/modinfo"
check "modinfo: firmware inceptionn/inceptionn-fw.bin (MODULE_FIRMWARE, for initramfs tools)" \
	grep -qx 'firmware: *inceptionn/inceptionn-fw.bin' "$TMP/modinfo"
[ "$fails" -eq 0 ] || diag <"$TMP/modinfo"

if make --no-print-directory uninstall INSTALL_MOD_PATH="$stage" >"$TMP/uninstall.log" 2>&1; then
	ok "make uninstall INSTALL_MOD_PATH=<tmp>"
else
	not_ok "make uninstall INSTALL_MOD_PATH=<tmp>"
	tail -n 20 "$TMP/uninstall.log" | diag
fi
check "it removed inceptionn.ko and the firmware" test ! -e "$ko" -a ! -e "$fw"

# ---- the header ------------------------------------------------------------
if make --no-print-directory install-headers DESTDIR="$TMP/hdr" >"$TMP/hdr.log" 2>&1 &&
	cmp -s include/uapi/inceptionn/inceptionn.h "$TMP/hdr/usr/include/inceptionn/inceptionn.h"; then
	ok "make install-headers DESTDIR=<tmp>: usr/include/inceptionn/inceptionn.h"
else
	not_ok "make install-headers DESTDIR=<tmp>: usr/include/inceptionn/inceptionn.h"
	diag <"$TMP/hdr.log"
fi

# ---- DKMS --------------------------------------------------------------------
# shellcheck disable=SC2016
conf_ver=$(cd "$TMP" && bash -c '. "$1"; echo "$PACKAGE_NAME $PACKAGE_VERSION"' _ "$ROOT/dkms.conf")
check "dkms.conf: package inceptionn, version $VER (from driver/inc.h)" \
	test "$conf_ver" = "inceptionn $VER"

if ! command -v dkms >/dev/null; then
	scripts/install-deps.sh lab >"$TMP/deps.log" 2>&1 || diag <"$TMP/deps.log"
fi
if ! command -v dkms >/dev/null; then
	for t in "dkms add" "dkms build" "modinfo of DKMS's inceptionn.ko" "system DKMS state untouched"; do
		not_ok "$t # dkms is not installed and scripts/install-deps.sh lab failed"
	done
	exit 1
fi

state() {	# what a stray dkms run would change on the system
	find /var/lib/dkms /usr/src -maxdepth 2 2>/dev/null | sort
	find /lib/modules -path '*/updates/dkms/*' 2>/dev/null | sort
}
state >"$TMP/state.before"

D=(--sourcetree "$TMP/src" --dkmstree "$TMP/dkms")
mkdir -p "$TMP/dkms"
scripts/install-module.sh dkms-tree "$TMP/src/inceptionn-$VER"
if dkms add -m inceptionn -v "$VER" "${D[@]}" >"$TMP/dkms-add.log" 2>&1; then
	ok "dkms add inceptionn/$VER (a private DKMS tree)"
else
	not_ok "dkms add inceptionn/$VER (a private DKMS tree)"
	diag <"$TMP/dkms-add.log"
fi
# the throwaway key: dkms would otherwise create /var/lib/dkms/mok.key
if env mok_signing_key="$TMP/mok.key" mok_certificate="$TMP/mok.pub" \
	dkms build -m inceptionn -v "$VER" -k "$KVER" --kernelsourcedir "$KDIR" "${D[@]}" \
	>"$TMP/dkms-build.log" 2>&1; then
	ok "dkms build inceptionn/$VER -k $KVER"
else
	not_ok "dkms build inceptionn/$VER -k $KVER"
	diag <"$TMP/dkms-build.log"
	find "$TMP/dkms" -name make.log -exec tail -n 30 {} \; | diag
fi
dko=$(find "$TMP/dkms/inceptionn/$VER/$KVER" -path '*/module/inceptionn.ko' 2>/dev/null | head -n 1)
if [ -n "$dko" ] && modinfo "$dko" >"$TMP/dkms-modinfo" 2>&1 &&
	grep -qx "version: *$VER" "$TMP/dkms-modinfo" &&
	grep -q "^vermagic: *$KVER " "$TMP/dkms-modinfo"; then
	ok "DKMS built inceptionn.ko, version $VER, for $KVER"
else
	not_ok "DKMS built inceptionn.ko, version $VER, for $KVER"
	[ -n "$dko" ] && diag <"$TMP/dkms-modinfo"
	find "$TMP/dkms" | diag
fi
state >"$TMP/state.after"
if cmp -s "$TMP/state.before" "$TMP/state.after"; then
	ok "the system's DKMS state, /usr/src and /lib/modules/*/updates/dkms untouched"
else
	not_ok "the system's DKMS state, /usr/src and /lib/modules/*/updates/dkms untouched"
	diff "$TMP/state.before" "$TMP/state.after" | diag
fi

[ "$fails" -eq 0 ]
