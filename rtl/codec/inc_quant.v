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
 * Purely combinational: inc_quant_shift then inc_quant_round, which the
 * compressor uses with a register between them.
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

wire [7:0]  kc = 8'd142 - {3'd0, k};
wire [15:0] y;
wire        raw_exp, zero;

inc_quant_shift shift (
    .value(value),
    .kc(kc),
    .y(y),
    .raw_exp(raw_exp),
    .zero(zero)
);

inc_quant_round round (
    .value(value),
    .y(y),
    .raw_exp(raw_exp),
    .zero(zero),
    .tag(tag),
    .word(word),
    /* verilator lint_off PINCONNECTEMPTY */
    .mag()              // width mode's magnitude: not part of this wrapper
    /* verilator lint_on PINCONNECTEMPTY */
);

endmodule

`resetall
