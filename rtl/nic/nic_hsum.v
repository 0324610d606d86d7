// SPDX-License-Identifier: MIT
/*
 * nic_hsum: the ones' complement sum (not folded) of the 16-bit words of a
 * 160-byte header vector whose byte offsets are in [lo, hi), lo and hi even.
 * Used for IPv4 header checksums and pseudo-header addresses.
 *
 * Pipelined, a new result every clock: sum holds the sum of the inputs as
 * they were 3 clocks before (inputs that change at a clock edge give their
 * sum after the third edge from it). The stages, each at most a few LUT
 * levels (docs/rtl.md, "Logic depth"): the words in range, registered; a
 * carry-save tree from 80 words to 8 (six layers of 3:2 compressors),
 * registered; from 8 to 2 (four layers) and one add, registered. lo and hi
 * should come from registers: the range compare is in the first stage.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_hsum
(
    input  wire          clk,
    input  wire [1279:0] hdr,   // byte i in bits 8i+7:8i
    input  wire [7:0]    lo,
    input  wire [7:0]    hi,
    output reg  [22:0]   sum = 0
);

// stage 1: the words in range, zero-extended to the sum's width
reg  [80*23-1:0] w1 = 0;

genvar i;
generate
    for (i = 0; i < 80; i = i + 1) begin : word
        wire [7:0] at = 2 * i;
        always @(posedge clk)
            w1[23*i +: 23] <= (at >= lo && at < hi) ?
                              {7'd0, hdr[16*i +: 8], hdr[16*i + 8 +: 8]} : 23'd0;
    end
endgenerate

// stage 2: 80 -> 8
wire [8*23-1:0] t8;
reg  [8*23-1:0] w2 = 0;

nic_csa_tree #(.N(80), .W(23), .M(8)) tree80 (.in(w1), .out(t8));

// stage 3: 8 -> 2, resolved
wire [2*23-1:0] t2;

nic_csa_tree #(.N(8), .W(23), .M(2)) tree8 (.in(w2), .out(t2));

always @(posedge clk) begin
    w2 <= t8;
    sum <= t2[22:0] + t2[45:23];
end

endmodule

`resetall
