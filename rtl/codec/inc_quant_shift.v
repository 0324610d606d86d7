// SPDX-License-Identifier: MIT
/*
 * inc_quant_shift: the first half of the quantizer (inc_quant) of one lane.
 *
 * With e the exponent field, m the significand with its implicit one and
 * sh = 151 - k - e (docs/codec.md, section 2, "Normative bit-level form"),
 * the magnitude is mag = (m + 2^(sh-1)) >> sh = (m >> sh) + m[sh-1]. This
 * half finds sh and shifts; inc_quant_round adds the rounding bit, sorts
 * and negates. The compressor registers between the two (one LUT level
 * budget each: docs/rtl.md, "Logic depth"); inc_quant joins them.
 *
 * kc = 142 - k comes from the chunk's k, computed once per chunk. Then
 * t = kc - e = sh - 9:
 *
 *   t < 0       e + k >= 143: RAW (covers Inf and NaN)        raw_exp
 *   t >= 16     sh >= 25: mag = 0                              zero
 *   else        y = m[23:8] >> t: y[15:1] = m >> sh, y[0] = m[sh-1]
 *
 * Purely combinational: quant_shift() of inc_quant_fns.vh with ports.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_quant_shift
(
    input  wire [31:0] value,   // float32 bits
    input  wire [7:0]  kc,      // 142 - k, k the error bound 2^-k (1..24)
    output wire [15:0] y,       // {m >> sh, m[sh-1]} when neither flag is set
    output wire        raw_exp, // e + k >= 143
    output wire        zero     // sh >= 25, mag = 0 (raw_exp clear)
);

`include "inc_quant_fns.vh"

assign {y, raw_exp, zero} = quant_shift(value, kc);

endmodule

`resetall
