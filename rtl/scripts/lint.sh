#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Lints the RTL with `verilator --lint-only -Wall` (no warning waivers on
# the command line): the engines inc_compressor and inc_decompressor for
# LANES = 8 and 16, every leaf module (and width mode's 16-lane
# inc_width_decompressor, which has no LANES) as its own top, and the NIC (rtl/nic)
# top and blocks: the top, nic_tx, nic_rx and nic_tport for LANES = 8 and 16, the
# blocks with a data width for DATA_W = 256 and 512, and the management
# subsystem (rtl/mgmt: the core, its memory, timer and SoC top). An engine
# whose file does not exist yet is skipped.
#
# usage: rtl/scripts/lint.sh [BUILD_DIR]      (default build/rtl-lint)
#
# Output: TAP, one test point per top; the warnings are diagnostics.
# Exits non-zero if any top has a warning or an error. INC_RTL_DIR
# overrides the source directory (default rtl/codec), VERILATOR the tool.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

B=${1:-build/rtl-lint}
RTL=${INC_RTL_DIR:-rtl/codec}
VERILATOR=${VERILATOR:-verilator}

ENGINES=(inc_compressor inc_decompressor)
LEAVES=(inc_quant inc_quant_shift inc_quant_round inc_dequant inc_dequant_abs inc_dequant_norm inc_tag_offsets inc_group_pack inc_group_unpack inc_width_group
	inc_axis_packer inc_width_decompressor)
# the NIC (rtl/nic): the top and its blocks (by LANES, by DATA_W, the rest)
NIC_DIR=${INC_NIC_DIR:-rtl/nic}
NIC_LANES=(inc_nic nic_tx nic_tx_dp nic_rx nic_rx_dp nic_tport)
NIC_WIDTH=(nic_assembler nic_rd_stream nic_csum_acc nic_frame_fifo nic_fifo)
NIC=(nic_csr nic_dma_arb nic_dma_rd nic_dma_wr nic_irq nic_irq_port nic_hdr_parse nic_hdr_parse_reg nic_l4_parse nic_rd_count nic_hsum
	nic_fold nic_ip4_csum nic_ram nic_mgmt nic_rx_hdr nic_join)
# the management subsystem (rtl/mgmt)
MGMT_DIR=${INC_MGMT_DIR:-rtl/mgmt}
MGMT=(mgmt_cpu mgmt_ram mgmt_timer mgmt_soc)

n=0
failed=0
mkdir -p "$B"

if ! command -v "$VERILATOR" >/dev/null; then
	echo "not ok 1 - $VERILATOR not found"
	echo "1..1"
	exit 1
fi
echo "# $("$VERILATOR" --version)"

# lint TOP [PARAM...]: one test point; an engine's file may be missing
lint() {
	local top=$1 desc log
	shift
	desc="verilator --lint-only -Wall $top${*:+ $*}"
	n=$((n + 1))
	local dir=$RTL
	[ -f "$RTL/$top.v" ] || dir=$NIC_DIR
	[ -f "$dir/$top.v" ] || [ ! -f "$MGMT_DIR/$top.v" ] || dir=$MGMT_DIR
	if [ ! -f "$dir/$top.v" ]; then
		if [[ " ${ENGINES[*]} " == *" $top "* ]]; then
			echo "ok $n - $desc # SKIP $RTL/$top.v does not exist yet"
		else
			echo "not ok $n - $desc: $RTL/$top.v not found"
			failed=1
		fi
		return 0
	fi
	log=$B/$top${*:+-${*//[^A-Za-z0-9=]/_}}.log
	if "$VERILATOR" --lint-only -Wall --Mdir "$B/obj" -y "$RTL" -y "$NIC_DIR" -y "$MGMT_DIR" \
		--top-module "$top" "$@" "$dir/$top.v" >"$log" 2>&1 &&
	   ! grep -q '%Warning\|%Error' "$log"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' "$log"
		failed=1
	fi
}

for top in "${ENGINES[@]}"; do
	for lanes in 8 16; do
		lint "$top" "-GLANES=$lanes"
	done
done
for top in "${NIC_LANES[@]}"; do
	for lanes in 8 16; do
		lint "$top" "-GLANES=$lanes"
	done
done
# 16 lanes without width mode (WIDTH=0: make NIC_WIDTH=0, incsim-nowidth)
for top in inc_compressor "${NIC_LANES[@]}"; do
	lint "$top" -GLANES=16 -GWIDTH=0
done
for top in "${NIC_WIDTH[@]}"; do
	for w in 256 512; do
		lint "$top" "-GDATA_W=$w"
	done
done
for top in "${LEAVES[@]}" "${NIC[@]}" "${MGMT[@]}"; do
	lint "$top"
done

echo "1..$n"
exit "$failed"
