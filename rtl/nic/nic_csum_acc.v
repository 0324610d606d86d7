// SPDX-License-Identifier: MIT
/*
 * nic_csum_acc: the Internet checksum's sum (RFC 1071) of the bytes of a
 * stream of 32-byte beats that lie in a window [lo, hi) of stream offsets,
 * pipelined so that no adder sits between a beat and the accumulator.
 *
 * The sum of a beat's 16 big-endian 16-bit words is not resolved: the 16
 * words and the accumulator, kept in carry-save form (two vectors S and C
 * whose sum is the running total), pass a tree of 3:2 compressors (six
 * layers, each one LUT level: a bit of S and C is a function of three
 * inputs) back into S and C. One 32-bit add resolves S + C, in a stage of
 * its own. Not folded: callers fold the 32-bit sum (nic_fold); 32 bits hold
 * the sum of 2^16 words, far more than a 9018-byte frame has.
 *
 * Timing (one beat a clock at most):
 *   clock t      start: lo and hi are taken, the sum restarts; the next
 *                beat is the stream's first (offsets 0..31)
 *   clock t      beat: a beat is counted (data, keep as they are now)
 *   clock t + 3  sum holds every beat counted up to clock t
 *
 * The window: a byte counts when its keep bit is set and lo <= its offset
 * < hi. lo and hi are kept as distances from the current beat, lowered by
 * 32 a beat (saturating at 0), so no comparison of wide offsets lies on
 * the beat's path.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_csum_acc
(
    input  wire         clk,

    input  wire         start,      // a new sum, window [lo, hi)
    input  wire [13:0]  lo,         // first stream offset that counts
    input  wire [13:0]  hi,         // first stream offset that does not

    input  wire         beat,       // count this beat
    input  wire [255:0] data,       // byte i in bits 8i+7:8i
    input  wire [31:0]  keep,

    output reg  [31:0]  sum = 0     // the sum, 3 clocks after a beat
);

// bytes of the window still ahead of the current beat's first byte
reg  [13:0] lo_left = 0, hi_left = 0;

// keep bits of the bytes at offsets < n of this beat (n >= 32: all)
function [31:0] prefix;
    input [13:0] n;
    begin
        if (n[13:5] != 0)
            prefix = 32'hffffffff;
        else
            prefix = ~(32'hffffffff << n[4:0]);
    end
endfunction

wire [31:0] win = prefix(hi_left) & ~prefix(lo_left);

// stage 1: the beat and its mask, registered
reg  [255:0] d1 = 0;
reg  [31:0]  k1 = 0;
reg          v1 = 1'b0, clr1 = 1'b0;

always @(posedge clk) begin
    d1 <= data;
    k1 <= keep & win;
    v1 <= beat;
    clr1 <= start;
    if (beat) begin
        lo_left <= lo_left[13:5] != 0 ? lo_left - 14'd32 : 14'd0;
        hi_left <= hi_left[13:5] != 0 ? hi_left - 14'd32 : 14'd0;
    end
    if (start) begin
        lo_left <= lo;
        hi_left <= hi;
    end
end

// stage 2: 16 words + S + C through 3:2 compressors to S and C
reg  [31:0] s_acc = 0, c_acc = 0;

// the operands: 16 words (the masked bytes) and the accumulator
wire [18*32-1:0] ops;
wire [63:0]      sc;
genvar g;
generate
    for (g = 0; g < 16; g = g + 1) begin : word
        assign ops[32*g +: 32] = {16'd0, k1[2*g] ? d1[16*g +: 8] : 8'd0,
                                         k1[2*g+1] ? d1[16*g + 8 +: 8] : 8'd0};
    end
endgenerate
assign ops[32*16 +: 32] = s_acc;
assign ops[32*17 +: 32] = c_acc;

nic_csa_tree #(.N(18), .W(32), .M(2)) tree (.in(ops), .out(sc));

always @(posedge clk) begin
    if (clr1) begin
        s_acc <= 0;
        c_acc <= 0;
    end else if (v1) begin
        s_acc <= sc[31:0];
        c_acc <= sc[63:32];
    end
    // stage 3: resolved
    sum <= s_acc + c_acc;
end

endmodule

`resetall
