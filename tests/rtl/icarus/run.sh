#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Icarus Verilog tests of the codec's RTL leaf modules (rtl/codec/), driven
# by vectors the C library (the golden model) writes, and of NIC blocks
# (rtl/nic/) that check themselves against a model in the testbench.
#
# usage: tests/rtl/icarus/run.sh [BUILD_DIR]     (default build/rtl-icarus)
#
# Builds tests/rtl/icarus/gen_vectors.c against build/lib/libinccodec.a
# (which must exist: `make build/lib/libinccodec.a`), writes the vectors,
# compiles each testbench with `iverilog -g2005 -Wall` (a warning fails the
# test point) and runs it with vvp. The testbenches' TAP streams are joined
# into one, renumbered; exits non-zero if any test point fails.
#
# Environment: VECTORS_N (quant vectors, default 200000; the other files
# scale with it), VECTORS_SEED, LIBCODEC (default build/lib/libinccodec.a),
# INC_RTL_DIR (the RTL sources, default rtl/codec; for trying the tests on
# a modified copy), INC_NIC_DIR (the NIC's, default rtl/nic), CC (default gcc). Relative paths are from the repo root.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

B=${1:-build/rtl-icarus}
RTL=${INC_RTL_DIR:-rtl/codec}
NIC=${INC_NIC_DIR:-rtl/nic}
LIBCODEC=${LIBCODEC:-build/lib/libinccodec.a}
CC=${CC:-gcc}
TB=tests/rtl/icarus
VEC=$B/vectors

n=0
failed=0

point() {	# point OK DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}

diag() {	# diag FILE: the file's lines as TAP diagnostics
	sed 's/^/# /' "$1"
}

finish() {
	echo "1..$n"
	exit "$failed"
}

mkdir -p "$B" "$VEC"

# ---- the vector generator -------------------------------------------------

if [ ! -f "$LIBCODEC" ]; then
	point 1 "$LIBCODEC not found: build it first (make build/lib/libinccodec.a)"
	finish
fi

gen=$B/gen_vectors
if [ ! -x "$gen" ] || [ "$TB/gen_vectors.c" -nt "$gen" ] ||
   [ "$LIBCODEC" -nt "$gen" ] || [ userspace/codec/inccodec.h -nt "$gen" ]; then
	if "$CC" -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		-O2 -Iuserspace/codec -o "$gen" "$TB/gen_vectors.c" \
		"$LIBCODEC" -lm -pthread >"$B/gen_vectors.build.log" 2>&1; then
		point 0 "gen_vectors builds warning-free ($CC -std=c11 -Wall -Wextra -Werror)"
	else
		point 1 "gen_vectors builds warning-free ($CC -std=c11 -Wall -Wextra -Werror)"
		diag "$B/gen_vectors.build.log"
		finish
	fi
else
	point 0 "gen_vectors is up to date ($gen)"
fi

gen_args=("$VEC" "${VECTORS_N:-200000}")
[ -n "${VECTORS_SEED:-}" ] && gen_args+=("$VECTORS_SEED")
rm -f "$VEC"/*.hex
if "$gen" "${gen_args[@]}" >"$B/gen_vectors.log" 2>&1; then
	point 0 "gen_vectors wrote the vectors (cross-checked with inc_chunk_encode/decode)"
	diag "$B/gen_vectors.log"
else
	point 1 "gen_vectors wrote the vectors"
	diag "$B/gen_vectors.log"
	finish
fi

# ---- the testbenches ------------------------------------------------------

# run_tb NAME VECTORS MODULE...: compile, run and renumber one testbench
run_tb() {
	local name=$1 vec=$2 line plan="" points=0 rc t0 t1
	local srcs=("$TB/$name.v")
	shift 2
	for m in "$@"; do
		if [ -f "$RTL/$m.v" ]; then
			srcs+=("$RTL/$m.v")
		else
			srcs+=("$NIC/$m.v")
		fi
	done

	rm -f "$B/$name.vvp"
	if iverilog -g2005 -Wall -I"$RTL" -I"$NIC" -I"$TB" -o "$B/$name.vvp" "${srcs[@]}" \
		>"$B/$name.iverilog.log" 2>&1 && [ ! -s "$B/$name.iverilog.log" ]; then
		point 0 "$name: iverilog -g2005 -Wall compiles it warning-free"
	else
		point 1 "$name: iverilog -g2005 -Wall compiles it warning-free"
		diag "$B/$name.iverilog.log"
		[ -f "$B/$name.vvp" ] || return 0
	fi

	t0=$(date +%s.%N)
	rc=0
	vvp -n "$B/$name.vvp" "+vectors=$vec" >"$B/$name.log" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ [0-9]+(\ -)?\ ?(.*)$ ]]; then
			points=$((points + 1))
			if [ -n "${BASH_REMATCH[1]}" ]; then
				point 1 "$name: ${BASH_REMATCH[3]}"
			else
				point 0 "$name: ${BASH_REMATCH[3]}"
			fi
		elif [[ $line =~ ^1\.\.([0-9]+)$ ]]; then
			plan=${BASH_REMATCH[1]}
		elif [[ $line == "#"* ]]; then
			echo "$line"
		else
			echo "# $name: $line"
		fi
	done <"$B/$name.log"
	if [ "$rc" -ne 0 ] || [ -z "$plan" ] || [ "$plan" -ne "$points" ]; then
		point 1 "$name: vvp ran to its plan (exit $rc, plan '${plan}', $points test points)"
	fi
	echo "# $name: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s in vvp"
}

run_tb tb_quant        "$VEC/quant.hex"   inc_quant inc_quant_shift inc_quant_round
run_tb tb_dequant      "$VEC/dequant.hex" inc_dequant inc_dequant_abs inc_dequant_norm
run_tb tb_tag_offsets  "$VEC/offsets.hex" inc_tag_offsets
run_tb tb_group_pack   "$VEC/pack.hex"    inc_group_pack inc_tag_offsets inc_quant inc_quant_shift inc_quant_round
run_tb tb_group_unpack "$VEC/pack.hex"    inc_group_unpack inc_tag_offsets inc_dequant inc_dequant_abs inc_dequant_norm
run_tb tb_csum_acc     -                  nic_csum_acc
run_tb tb_csum_pass    -                  nic_csum_pass nic_csum_acc
run_tb tb_ip4_csum     -                  nic_ip4_csum nic_hsum nic_fold
run_tb tb_rd_stream    -                  nic_rd_stream nic_rd_count nic_ram

finish
