#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Prints the kernel build directory inceptionn.ko is built against, or with
# --kver that kernel's release (what `uname -r` says when it runs, and what
# the module's vermagic starts with). One place for the rule that
# scripts/build-module.sh, scripts/install-module.sh and the driver's tests
# share:
#   KDIR if set; else /lib/modules/$KVER/build if KVER is set; else the
#   running kernel's /lib/modules/$(uname -r)/build if it exists; else the
#   newest /lib/modules/*/build.
#
# usage: scripts/kdir.sh [--kver]     environment: KDIR, KVER
set -euo pipefail

kdir=${KDIR:-}
if [ -z "$kdir" ] && [ -n "${KVER:-}" ]; then
	kdir=/lib/modules/$KVER/build
fi
if [ -z "$kdir" ]; then
	kdir=/lib/modules/$(uname -r)/build
	if [ ! -d "$kdir" ]; then
		kdir=$(find /lib/modules -mindepth 2 -maxdepth 2 -name build 2>/dev/null | sort -V | tail -n 1)
	fi
fi
if [ -z "$kdir" ] || [ ! -f "$kdir/Makefile" ]; then
	echo "kdir.sh: no kernel build directory (KDIR=${kdir:-unset}); install linux-headers-amd64 or set KDIR" >&2
	exit 1
fi

case ${1:-} in
'')	echo "$kdir" ;;
--kver)
	# include/config/kernel.release is no use here: Debian's headers
	# override KERNELRELEASE (6.1.0-57-amd64 where it says 6.1.192);
	# UTS_RELEASE is what the module's vermagic carries.
	h=$kdir/include/generated/utsrelease.h
	kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$h" 2>/dev/null)
	[ -n "$kver" ] || { echo "kdir.sh: no UTS_RELEASE in $h" >&2; exit 1; }
	if [ -n "${KVER:-}" ] && [ "$KVER" != "$kver" ]; then
		echo "kdir.sh: KVER=$KVER but $kdir is for $kver" >&2
		exit 1
	fi
	echo "$kver" ;;
*)	echo "usage: $0 [--kver]" >&2; exit 2 ;;
esac
