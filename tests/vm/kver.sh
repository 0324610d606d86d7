#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Prints the version of the kernel the VM tests boot and build modules for:
# the newest /boot/vmlinuz-*-amd64 whose /lib/modules/<version> exists (with
# --build: whose /lib/modules/<version>/build exists too, i.e. with headers).
# $KVER, when set, is taken as it is. Every VM script picks the kernel here.
# usage: tests/vm/kver.sh [--build]      (exit 1: no such kernel)
set -euo pipefail

if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi
need=
[ "${1:-}" = --build ] && need=/build
best=
for k in /boot/vmlinuz-*-amd64; do
	[ -e "$k" ] || continue
	v=${k#/boot/vmlinuz-}
	[ -d "/lib/modules/$v$need" ] || continue
	best+="$v"$'\n'
done
v=$(printf '%s' "$best" | sort -V | tail -n 1)
if [ -z "$v" ]; then
	echo "kver.sh: no /boot/vmlinuz-*-amd64 with /lib/modules/<version>$need" \
		"(scripts/install-deps.sh vm)" >&2
	exit 1
fi
echo "$v"
