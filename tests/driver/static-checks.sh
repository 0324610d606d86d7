#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Static checks of the kernel module (driver/), as TAP:
#   - it builds with W=1 without a single warning (a clean build, so every
#     file is compiled);
#   - sparse (C=1, again on a clean build, so every file is checked) has
#     nothing to say;
#   - checkpatch.pl --strict has nothing to say about any file of driver/,
#     include/hw/ and include/uapi/inceptionn/ (one test point per file).
# checkpatch.pl and the files it reads (spelling.txt,
# const_structs.checkpatch) come from Debian's linux-source-6.1, extracted
# into $BUILD/kselftest/src at the first run; nothing is copied into the
# repository. Needs the kernel headers, sparse and linux-source-6.1
# (scripts/install-deps.sh vm).
#
# usage: tests/driver/static-checks.sh      environment: BUILD (default build),
#   KDIR / KVER (the kernel, as for scripts/build-module.sh)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
LINUX_SRC=/usr/src/linux-source-6.1.tar.xz
KS=$BUILD/kselftest/src
CHECKPATCH=$KS/scripts/checkpatch.pl
# the module is built here, away from `make module`'s build/driver, so that
# each run starts from a clean tree
SB=$BUILD/static-checks

# checkpatch types ignored, and why. Nothing is ignored everywhere: in
# file mode (-f) with --no-tree the tree-only checks (MAINTAINERS, SPDX
# licence list, Documentation/) do not run, and nothing else in these
# files is specific to being out of tree. The per-file exceptions:
#   BIT_MACRO in driver/inc.h: INC_RING_MIN and INC_RING_MAX are ring
#     sizes (counts, 1 << log2), not bit masks; BIT() would also turn them
#     into unsigned long and change the printk formats that print them.
#   BIT_MACRO in include/hw/ and include/uapi/: these headers are shared with
#     C11 userspace (sim/, tests/, userspace/), which has no BIT().
#   COMPLEX_MACRO and MACRO_ARG_REUSE in include/hw/inc_nic_regs.h:
#     INC_STATS_LIST(X) is an X-macro, a list of X(index, name) uses: it
#     cannot be parenthesised, and its argument is a macro name, which has
#     no side effects to repeat.
#   CAMELCASE in driver/inc_ethtool.c: the fields of the kernel's struct
#     ethtool_eth_mac_stats carry the IEEE 802.3 names (FramesTransmittedOK).
ignores_for() {
	case $1 in
	driver/inc.h)			echo BIT_MACRO ;;
	driver/inc_ethtool.c)		echo CAMELCASE ;;
	include/hw/inc_nic_regs.h)	echo BIT_MACRO,COMPLEX_MACRO,MACRO_ARG_REUSE ;;
	include/hw/* | include/uapi/*)	echo BIT_MACRO ;;
	esac
}

files=()
while IFS= read -r f; do
	files+=("$f")
done < <(find driver -maxdepth 1 -type f ! -name '.*' ! -name '*~' | sort
	ls include/hw/*.h include/uapi/inceptionn/*.h)

echo "1..$((2 + ${#files[@]}))"
n=0 fails=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1)) fails=$((fails + 1))
	echo "not ok $n - $1"
}
diag() { sed 's/^/# /'; }

# clean build: build-module.sh mirrors the sources into $SB/driver/src and
# builds there; its own log is $SB/driver/build.log
build() {
	rm -rf "$SB/driver"
	BUILD=$SB scripts/build-module.sh "$@" >"$SB/out.log" 2>&1
}
mkdir -p "$SB"

# 1: W=1
if build W=1 && ! grep -q 'warning:' "$SB/driver/build.log"; then
	ok "inceptionn.ko builds with W=1 and no warnings"
else
	not_ok "inceptionn.ko builds with W=1 and no warnings"
	{ grep -E 'warning:|error:' "$SB/driver/build.log" 2>/dev/null || tail -n 20 "$SB/out.log"; } |
		head -n 40 | diag
fi
cp "$SB/driver/build.log" "$SB/w1.log" 2>/dev/null

# 2: sparse, on every source file
nsrc=$(find driver -maxdepth 1 -name '*.c' | wc -l)
if ! command -v sparse >/dev/null; then
	not_ok "sparse (C=1) has no warnings # sparse is not installed (scripts/install-deps.sh vm)"
elif build C=1 && ! grep -qE 'warning:|error:' "$SB/driver/build.log"; then
	nchk=$(grep -c '^ *CHECK ' "$SB/driver/build.log")
	if [ "$nchk" -eq "$nsrc" ]; then
		ok "sparse (C=1) has no warnings on the $nsrc source files"
	else
		not_ok "sparse (C=1) has no warnings: it checked $nchk files of $nsrc"
	fi
else
	not_ok "sparse (C=1) has no warnings"
	{ grep -E 'warning:|error:' "$SB/driver/build.log" 2>/dev/null || tail -n 20 "$SB/out.log"; } |
		head -n 40 | diag
fi
cp "$SB/driver/build.log" "$SB/sparse.log" 2>/dev/null

# 3...: checkpatch.pl --strict, file by file
if [ ! -r "$CHECKPATCH" ] || [ ! -r "$KS/scripts/spelling.txt" ] ||
	[ ! -r "$KS/scripts/const_structs.checkpatch" ]; then
	mkdir -p "$KS"
	tar -xJf "$LINUX_SRC" -C "$KS" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch 2>&1 | diag
fi
for f in "${files[@]}"; do
	if [ ! -r "$CHECKPATCH" ]; then
		not_ok "checkpatch $f # no checkpatch.pl: $LINUX_SRC missing (scripts/install-deps.sh vm)"
		continue
	fi
	ign=$(ignores_for "$f")
	out=$(perl "$CHECKPATCH" --strict --no-tree --show-types --color=never \
		${ign:+--ignore "$ign"} -f "$f" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && ! grep -qE '^(ERROR|WARNING|CHECK):' <<<"$out"; then
		ok "checkpatch --strict $f${ign:+ (ignoring $ign)}"
	else
		not_ok "checkpatch --strict $f${ign:+ (ignoring $ign)}"
		diag <<<"$out"
	fi
done

[ "$fails" -eq 0 ]
