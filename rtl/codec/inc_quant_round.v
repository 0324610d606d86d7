// SPDX-License-Identifier: MIT
/*
 * inc_quant_round: the second half of the quantizer (inc_quant) of one lane.
 *
 * From inc_quant_shift's y = {x, r} (x = m >> sh, r = m[sh-1]) and flags:
 * mag = x + r (0 when zero), then (docs/codec.md, section 2)
 *
 *   raw_exp or mag > 32767  -> RAW, word = the value's bits
 *   mag = 0                 -> ZERO, word = 0
 *   mag 1..127              -> Q8
 *   mag 128..32767          -> Q16, word = q = sign ? -mag : mag (32-bit
 *                              two's complement, for Q8 too)
 *
 * mag itself is an output too (width mode codes sign and magnitude,
 * docs/codec.md section 12): x + r for Q8 and Q16, 0 for ZERO, not
 * meaningful for RAW. The tests on mag are made on x and r directly, and
 * the negation folds the rounding increment into one adder:
 * -(x + r) = ~x + !r. Purely combinational: quant_round() of
 * inc_quant_fns.vh with ports.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_quant_round
(
    input  wire [31:0] value,   // float32 bits (sign and the RAW word)
    input  wire [15:0] y,       // from inc_quant_shift
    input  wire        raw_exp,
    input  wire        zero,
    output wire [1:0]  tag,     // 0 ZERO, 1 Q8, 2 Q16, 3 RAW
    output wire [31:0] word,    // q (two's complement) or raw bits
    output wire [14:0] mag      // |q| (Q8, Q16), 0 (ZERO); RAW: not meaningful
);

`include "inc_quant_fns.vh"

assign {tag, word, mag} = quant_round(value, y, raw_exp, zero);

endmodule

`resetall
