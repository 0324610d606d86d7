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
 * -(x + r) = ~x + !r. Purely combinational.
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

wire [14:0] x = y[15:1];
wire        r = y[0];
wire        sign = value[31];

// mag = x + r: over 32767 only from x = 32767, r = 1
wire raw = raw_exp || (!zero && x == 15'h7fff && r);
wire nz = !zero && (x != 15'd0 || r);
wire q16 = x[14:7] != 8'd0 || (x[6:0] == 7'h7f && r);

// sign ? -(x + r) : x + r, 17 bits
wire [16:0] q = ({2'b00, x} ^ {17{sign}}) + {16'd0, sign ^ r};

assign tag = raw ? 2'd3 : (!nz ? 2'd0 : (q16 ? 2'd2 : 2'd1));
assign mag = nz ? x + {14'd0, r} : 15'd0;
assign word = raw ? value : (nz ? {{15{q[16]}}, q} : 32'd0);

endmodule

`resetall
