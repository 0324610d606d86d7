#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds inc_smoke.ko against the headers of the VM kernel (tests/vm/kver.sh
# --build), with W=1 and sparse (C=1) when installed, warnings being errors.
# The sources are copied to OUT/src and built there: nothing is written into
# the source tree. Prints the module's path.
# usage: tests/sim/smoke/build.sh [OUT]      (default build/sim/smoke)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/build/sim/smoke}" && cd "${1:-$ROOT/build/sim/smoke}" && pwd)
KV=$("$ROOT/tests/vm/kver.sh" --build)
SRC=$OUT/src
mkdir -p "$SRC"
for f in inc_smoke.c Kbuild; do
	cmp -s "$ROOT/tests/sim/smoke/$f" "$SRC/$f" || cp "$ROOT/tests/sim/smoke/$f" "$SRC/$f"
done
check=()
command -v sparse >/dev/null && check=(C=1)
log=$OUT/build.log
if ! make -C "/lib/modules/$KV/build" M="$SRC" INC_INCLUDE="$ROOT/include" \
	W=1 "${check[@]}" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build.sh: building inc_smoke.ko failed" >&2
	exit 1
fi
if grep -E 'warning:|error:' "$log" >&2; then
	echo "build.sh: inc_smoke.ko built with warnings ($log)" >&2
	exit 1
fi
echo "$SRC/inc_smoke.ko"
