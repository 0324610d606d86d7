// SPDX-License-Identifier: MIT
/*
 * inc_dequant: decodes one lane: a tag and its payload bytes back to float32
 * bits. Bit-exact with the library's decoder (docs/codec.md, section 3):
 *
 *   ZERO -> +0.0
 *   Q8   -> q * 2^(1-k), q the payload's low byte as a signed integer
 *   Q16  -> q * 2^(1-k), q the payload's low 16 bits as a signed integer
 *   RAW  -> the payload's 32 bits
 *
 * The two halves joined: inc_dequant_abs (sign and |q|) and
 * inc_dequant_norm (leading one, exponent, significand). The decompressor
 * uses the halves with a register between them; this whole form is what the
 * unit tests check against the C decoder. Purely combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_dequant
(
    input  wire [1:0]  tag,     // 0 ZERO, 1 Q8, 2 Q16, 3 RAW
    input  wire [31:0] payload, // payload bytes, low-aligned, zero above
    input  wire [4:0]  k,       // error bound 2^-k, 1..24
    output wire [31:0] value    // float32 bits
);

wire [1:0]  kind;
wire [31:0] word;

inc_dequant_abs dq_abs (
    .tag(tag),
    .payload(payload),
    .kind(kind),
    .word(word)
);

inc_dequant_norm dq_norm (
    .kind(kind),
    .word(word),
    .k(k),
    .value(value)
);

endmodule

`resetall
