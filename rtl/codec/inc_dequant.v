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
 * q * 2^(1-k) is exact in float32 (|q| <= 2^15): the sign of q, the
 * position p of its leading one giving the exponent 127 + p + 1 - k, and
 * the bits below the leading one as the significand. Purely combinational.
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

wire        neg = tag == 2'd1 ? payload[7] : payload[15];
wire [15:0] q16 = tag == 2'd1 ? {{8{payload[7]}}, payload[7:0]} : payload[15:0];
// |q|, 1..32768 (-32768 negates to itself, read as unsigned 2^15)
wire [15:0] mag = neg ? (~q16 + 16'd1) : q16;

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
wire [31:0] scaled = {neg, expo, below, 7'd0};

assign value = tag == 2'd3 ? payload :
               (tag == 2'd0 || q16 == 16'd0) ? 32'd0 : scaled;

endmodule

`resetall
