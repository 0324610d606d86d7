#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench-driver: unmarked iperf3 TCP throughput through two incsim NICs
# (the driver test guests, tests/driver/run-driver.sh with nic_bench.sh),
# for this tree's driver and, with BASE=<git revision>, that revision's,
# alternating ROUNDS times (default 3) so that both see the same machine.
# Prints one table: per driver, each round and the median, each direction.
#
# environment: BASE (a git revision to compare with), ROUNDS, BUILD
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-3}
OUT=$BUILD/bench-driver
mkdir -p "$OUT"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "bench-driver: ROUNDS: a number >= 1" >&2; exit 2; }

names=(this) kos=()
ko=$(scripts/build-module.sh) || { echo "bench-driver: the module did not build" >&2; exit 1; }
cp "$ko" "$OUT/this.ko"
kos+=("$OUT/this.ko")
if [ -n "${BASE:-}" ]; then
	rev=$(git rev-parse --short "$BASE") || { echo "bench-driver: BASE=$BASE: no such revision" >&2; exit 2; }
	rm -rf "$OUT/base-src"
	mkdir -p "$OUT/base-src"
	git archive "$rev" driver include scripts Kbuild | tar -x -C "$OUT/base-src" ||
		{ echo "bench-driver: cannot export $rev" >&2; exit 1; }
	bko=$(cd "$OUT/base-src" && BUILD="$ROOT/$OUT/base-build" scripts/build-module.sh) ||
		{ echo "bench-driver: the module of $rev did not build" >&2; exit 1; }
	cp "$bko" "$OUT/base.ko"
	names+=("$rev")
	kos+=("$OUT/base.ko")
fi

declare -A TX RX
for r in $(seq "$ROUNDS"); do
	for i in "${!names[@]}"; do
		n=${names[$i]}
		log=$OUT/run-$n-$r.log
		KO=${kos[$i]} TAG=bench TIMEOUT=600 tests/driver/run-driver.sh nic_bench.sh \
			>"$log" 2>&1
		line=$(sed -n 's/^# main: bench: //p' "$log" | tail -1)
		if [ -z "$line" ]; then
			echo "bench-driver: no result from $n, round $r ($log)" >&2
			exit 1
		fi
		TX[$n]+="$(echo "$line" | awk '{ print $2 }') "
		RX[$n]+="$(echo "$line" | awk '{ print $4 }') "
		echo "round $r, $n: $line" >&2
	done
done

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
printf '\n%-14s %-28s %10s %-28s %10s\n' driver "TCP to peer, Mbit/s" median "TCP from peer, Mbit/s" median
for n in "${names[@]}"; do
	printf '%-14s %-28s %10s %-28s %10s\n' "$n" "${TX[$n]}" "$(echo "${TX[$n]}" | median)" \
		"${RX[$n]}" "$(echo "${RX[$n]}" | median)"
done
echo
echo "iperf3 -t 10 each way between two QEMU guests (TCG) with incsim NICs at 100 Gbit/s (incsim's default);"
echo "the figures measure the whole simulation (guests, incsim's RTL model), not a board."
