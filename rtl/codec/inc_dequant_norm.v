// SPDX-License-Identifier: MIT
/*
 * inc_dequant_norm: the second half of the dequantizer (inc_dequant) of one
 * lane: inc_dequant_abs's kind and word to float32 bits. For a quantized
 * value, q * 2^(1-k) is exact in float32 (|q| <= 2^15): the sign, the
 * position p of the leading one of |q| giving the exponent 127 + p + 1 - k,
 * and the bits below the leading one as the significand. Purely
 * combinational: dequant_norm() of inc_group_fns.vh with ports.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_dequant_norm
(
    input  wire [1:0]  kind,    // inc_dequant_abs: 0 zero, 1 quantized, 3 raw
    input  wire [31:0] word,    // inc_dequant_abs: its word
    input  wire [4:0]  k,       // error bound 2^-k, 1..24
    output wire [31:0] value    // float32 bits
);

`include "inc_group_fns.vh"

assign value = dequant_norm(kind, word, k);

endmodule

`resetall
