// SPDX-License-Identifier: MIT
/*
 * inc_dequant_abs: the first half of the dequantizer (inc_dequant) of one
 * lane: the tag and payload bytes to a kind and a word,
 *
 *   kind 0   the value is +0.0 (ZERO, or a quantized q = 0)   word 0
 *   kind 1   a quantized q != 0 (Q8, Q16)   word {15'd0, sign, |q|}
 *   kind 3   RAW                             word the payload's 32 bits
 *
 * |q| is 1..32768 (-32768 negates to itself, read as unsigned 2^15). The
 * negation's carry is this half's depth; inc_dequant_norm finds the
 * leading one and builds the float. The decompressor registers between the
 * two (docs/rtl.md, "Logic depth"); inc_dequant joins them. Purely
 * combinational: dequant_abs() of inc_group_fns.vh with ports.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_dequant_abs
(
    input  wire [1:0]  tag,     // 0 ZERO, 1 Q8, 2 Q16, 3 RAW
    input  wire [31:0] payload, // payload bytes, low-aligned, zero above
    output wire [1:0]  kind,    // 0 zero, 1 quantized, 3 raw
    output wire [31:0] word     // by kind (above)
);

`include "inc_group_fns.vh"

assign {kind, word} = dequant_abs(tag, payload);

endmodule

`resetall
