// SPDX-License-Identifier: MIT
/*
 * nic_hsum: the ones' complement sum (not folded) of the 16-bit words of a
 * 160-byte header vector whose byte offsets are in [lo, hi), lo and hi even.
 * Used for IPv4 header checksums and pseudo-header addresses.
 *
 * Pipelined, a new result every clock. The stages, each at most a few LUT
 * levels (docs/rtl.md, "Logic depth"): the words in range, registered; a
 * carry-save tree from 80 words to 6 (four layers of 6:3 counters),
 * registered; from 6 to 2 (two layers) and one add, registered. lo and hi
 * should come from registers: the range compare is in the first stage.
 *
 * in_valid says hdr, lo and hi are the ones to sum; it goes down the
 * stages beside the data and comes out as sum_valid three clocks later,
 * with sum the sum of the inputs as they were then. A stage loads only
 * with its valid, so sum holds after sum_valid until the next inputs come
 * through: a caller raises in_valid for a clock once its inputs are final
 * and waits for sum_valid, never for a count of clocks. (The stages'
 * enables also spare a simulator the trees of an idle header:
 * nic_csa_fns.vh.) rst empties the stages (sum_valid low after it).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_hsum
(
    input  wire          clk,
    input  wire          rst,
    input  wire [1279:0] hdr,   // byte i in bits 8i+7:8i
    input  wire [7:0]    lo,
    input  wire [7:0]    hi,
    input  wire          in_valid,
    output reg  [22:0]   sum = 0,
    output reg           sum_valid = 1'b0
);

`include "nic_csa_fns.vh"

// the stages' valids (their enables)
reg v1 = 1'b0, v2 = 1'b0;

always @(posedge clk) begin
    v1 <= in_valid;
    v2 <= v1;
    sum_valid <= v2;
    if (rst) begin
        v1 <= 1'b0;
        v2 <= 1'b0;
        sum_valid <= 1'b0;
    end
end

// stage 1: the words in range, zero-extended to 32 bits
reg  [80*32-1:0] w1 = 0;

genvar i;
generate
    for (i = 0; i < 80; i = i + 1) begin : word
        wire [7:0] at = 2 * i;
        always @(posedge clk)
            if (in_valid)
                w1[32*i +: 32] <= (at >= lo && at < hi) ?
                                  {16'd0, hdr[16*i +: 8], hdr[16*i + 8 +: 8]} : 32'd0;
    end
endgenerate

// stage 2: 80 -> 6; stage 3: 6 -> 2, resolved (the sum < 2^23: bits 31:23
// of the 32-bit operands are 0)
reg  [6*32-1:0] w2 = 0;

function [22:0] resolve;
    /* verilator lint_off UNUSEDSIGNAL */
    input [63:0] t;     // bits 31:23 and 63:55 are 0
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        resolve = t[22:0] + t[54:32];
    end
endfunction

always @(posedge clk) begin
    if (v1)
        w2 <= csa_80_6(w1);
    if (v2)
        sum <= resolve(csa_6_2(w2));
end

endmodule

`resetall
