// SPDX-License-Identifier: MIT
/*
 * inc_quant: the codec's tag classifier and quantizer for one 32-bit lane.
 *
 * Bit-exact with inc_classify() in userspace/codec (docs/codec.md, section 2,
 * "Normative bit-level form"): with e the exponent field, m the significand
 * with its implicit one, and sh = 151 - k - e,
 *
 *   e + k >= 143            -> RAW (covers Inf and NaN)
 *   mag = (m + 2^(sh-1)) >> sh   (0 when sh >= 25)
 *   mag > 32767             -> RAW
 *   mag = 0                 -> ZERO,  1..127 -> Q8,  128..32767 -> Q16
 *
 * m_axis_word carries what the payload is cut from: q = sign ? -mag : mag in
 * two's complement for Q8 and Q16, the original bits for RAW, 0 for ZERO.
 * Purely combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_quant
(
    input  wire [31:0] value,   // float32 bits
    input  wire [4:0]  k,       // error bound 2^-k, 1..24
    output wire [1:0]  tag,     // 0 ZERO, 1 Q8, 2 Q16, 3 RAW
    output wire [31:0] word     // q (two's complement) or raw bits
);

wire [7:0]  e = value[30:23];
wire [23:0] m = {1'b1, value[22:0]};

// e + k >= 143: |q| >= 2^15 (sh <= 8), or Inf/NaN
wire [8:0] ek = {1'b0, e} + {4'd0, k};
wire       raw_exp = ek >= 9'd143;

// sh = 151 - k - e, 9..150 when raw_exp is clear
wire [8:0] sh = 9'd151 - ek;
// sh >= 25 gives mag = 0; otherwise sh is 9..24
wire       sh_big = sh >= 9'd25;
wire [4:0] s = sh[4:0];

// (m + 2^(s-1)) >> s: 17 bits from bit s up (at most 2^15, as s >= 9)
wire [24:0] sum = {1'b0, m} + (25'd1 << (s - 5'd1));
wire [40:0] sum_ext = {16'd0, sum};
wire [16:0] mag = sh_big ? 17'd0 : sum_ext[{1'b0, s} +: 17];

wire raw = raw_exp || mag > 17'd32767;
wire nz = mag != 17'd0;
wire q16 = mag > 17'd127;

wire [31:0] mag32 = {15'd0, mag};
wire [31:0] q = value[31] ? (~mag32 + 32'd1) : mag32;

assign tag = raw ? 2'd3 : (!nz ? 2'd0 : (q16 ? 2'd2 : 2'd1));
assign word = raw ? value : (nz ? q : 32'd0);

endmodule

`resetall
