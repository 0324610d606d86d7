#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds inceptionn.ko (driver/) against KDIR, out of tree: driver/ and
# include/ are copied to $BUILD/driver/src (only files that changed), so the
# source tree gets no build products. Prints the module's path.
#
# usage: scripts/build-module.sh [KBUILD-ARG]...   (e.g. W=1 C=1)
# environment: KDIR (default: /lib/modules/$KVER/build if KVER is set, else
#   /lib/modules/$(uname -r)/build if it exists, else the newest
#   /lib/modules/*/build: scripts/kdir.sh), BUILD (default build)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac

# the kernel: scripts/kdir.sh's rule (KDIR, else KVER's, the running one's,
# the newest)
KDIR=$("$ROOT/scripts/kdir.sh")

SRC=$BUILD/driver/src
mkdir -p "$SRC"
# mirror driver/ and include/, keeping timestamps of unchanged files
for d in driver include; do
	mkdir -p "$SRC/$d"
	(cd "$ROOT/$d" && find . -type f \( -name '*.[ch]' -o -name Kbuild \)) | while read -r f; do
		mkdir -p "$SRC/$d/$(dirname "$f")"
		cmp -s "$ROOT/$d/$f" "$SRC/$d/$f" || cp "$ROOT/$d/$f" "$SRC/$d/$f"
	done
	# files removed from the source go from the copy too
	(cd "$SRC/$d" && find . -type f \( -name '*.[ch]' -o -name Kbuild \)) | while read -r f; do
		[ -e "$ROOT/$d/$f" ] || rm -f "$SRC/$d/$f"
	done
done

log=$BUILD/driver/build.log
if ! make -C "$KDIR" M="$SRC/driver" INC_INCLUDE="$SRC/include" "$@" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build-module.sh: building inceptionn.ko failed (KDIR=$KDIR)" >&2
	exit 1
fi
if grep -E 'warning:|error:' "$log" >&2; then
	echo "build-module.sh: inceptionn.ko built with warnings ($log)" >&2
	exit 1
fi
echo "$SRC/driver/inceptionn.ko"
