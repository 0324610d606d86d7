// SPDX-License-Identifier: MIT
/*
 * inc_dequant_norm: the second half of the dequantizer (inc_dequant) of one
 * lane: inc_dequant_abs's kind and word to float32 bits. For a quantized
 * value, q * 2^(1-k) is exact in float32 (|q| <= 2^15): the sign, the
 * position p of the leading one of |q| giving the exponent 127 + p + 1 - k,
 * and the bits below the leading one as the significand. Purely
 * combinational.
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

wire        neg = word[16];
wire [15:0] mag = word[15:0];

// position of the leading one of mag
reg [3:0] p;
integer i;
always @* begin
    p = 4'd0;
    for (i = 0; i < 16; i = i + 1)
        if (mag[i])
            p = i[3:0];
end

wire [7:0]  expo = 8'd128 + {4'd0, p} - {3'd0, k};
// the bits below the leading one, moved to the top (the one falls off)
wire [15:0] below = mag << (5'd16 - {1'b0, p});

assign value = kind == 2'd3 ? word :
               kind == 2'd1 ? {neg, expo, below, 7'd0} : 32'd0;

endmodule

`resetall
