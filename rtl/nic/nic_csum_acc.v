// SPDX-License-Identifier: MIT
/*
 * nic_csum_acc: the Internet checksum's sum (RFC 1071) of the bytes of a
 * stream of beats (32 or 64 bytes) that lie in a window [lo, hi) of stream
 * offsets, pipelined so that no adder sits between a beat and the
 * accumulator.
 *
 * The sum of a beat's big-endian 16-bit words is not resolved: a tree of
 * 6:3 counters (nic_csa_fns.vh, each layer one LUT level: a bit of a
 * counter's output is a function of six inputs) takes the words to four
 * vectors in one clock, and a second tree takes those and the accumulator,
 * kept in carry-save form (two vectors S and C whose sum is the running
 * total), back into S and C. One 32-bit add resolves S + C, in a stage of
 * its own. Not folded: callers fold the 32-bit sum (nic_fold); 32 bits hold
 * the sum of 2^16 words, far more than a 9018-byte frame has.
 *
 * Timing (one beat a clock at most):
 *   clock t      start: lo and hi are taken, the sum restarts and
 *                sum_valid drops; the next beat is the stream's first
 *                (offsets 0..BB-1)
 *   clock t      beat: a beat is counted (data, keep as they are now)
 *   clock t + 4  sum holds every beat counted up to clock t; with last
 *                high at that beat, sum_valid is high from here until
 *                the next start (callers wait for it, not for a count
 *                of clocks)
 *
 * The window: a byte counts when its keep bit is set and lo <= its offset
 * < hi. lo and hi are kept as distances from the current beat, lowered by
 * BB a beat (saturating at 0), so no comparison of wide offsets lies on
 * the beat's path.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_csum_acc #
(
    // beat width, bits: 256 or 512 (the trees of nic_csa_fns.vh)
    parameter DATA_W = 256,
    // bytes per beat, and their log2 (derived: leave them)
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire              clk,

    input  wire              start,      // a new sum, window [lo, hi)
    input  wire [13:0]       lo,         // first stream offset that counts
    input  wire [13:0]       hi,         // first stream offset that does not

    input  wire              beat,       // count this beat
    input  wire              last,       // with beat: the stream's last
    input  wire [DATA_W-1:0] data,       // byte i in bits 8i+7:8i
    input  wire [BB-1:0]     keep,

    output reg  [31:0]       sum = 0,    // the sum, 4 clocks after a beat
    output reg               sum_valid = 1'b0  // the last beat is in sum
);

localparam NW = BB / 2;                 // 16-bit words in a beat
localparam [13:0] BBN = BB[13:0];

// bytes of the window still ahead of the current beat's first byte
reg  [13:0] lo_left = 0, hi_left = 0;

// keep bits of the bytes at offsets < n of this beat (n >= BB: all)
function [BB-1:0] prefix;
    input [13:0] n;
    begin
        if (n[13:BS] != 0)
            prefix = {BB{1'b1}};
        else
            prefix = ~({BB{1'b1}} << n[BS-1:0]);
    end
endfunction

wire [BB-1:0] win = prefix(hi_left) & ~prefix(lo_left);

`include "nic_csa_fns.vh"

// stage 1: the beat's bytes that count (the others 0), registered (held
// between beats: stage 2 takes them only after a beat). The mask is the
// flip-flops' synchronous reset, a byte's bits together, so that the
// tree's first layer sees only data: a 6:3 counter has no input to spare
// for a keep bit.
reg  [DATA_W-1:0] d1 = 0;
reg               v1 = 1'b0, clr1 = 1'b0;
reg  [2:0]        tail = 0;     // the last beat, through the stages
wire [BB-1:0]     kw = keep & win;

genvar b;
generate
    for (b = 0; b < BB; b = b + 1) begin : byte_in
        always @(posedge clk)
            if (beat)
                d1[8*b +: 8] <= kw[b] ? data[8*b +: 8] : 8'd0;
    end
endgenerate

always @(posedge clk) begin
    if (beat) begin
        lo_left <= lo_left[13:BS] != 0 ? lo_left - BBN : 14'd0;
        hi_left <= hi_left[13:BS] != 0 ? hi_left - BBN : 14'd0;
    end
    v1 <= beat;
    clr1 <= start;
    tail <= {tail[1:0], beat && last};
    if (tail[2])
        sum_valid <= 1'b1;
    if (start) begin
        tail <= 0;
        sum_valid <= 1'b0;
    end
    if (start) begin
        lo_left <= lo;
        hi_left <= hi;
    end
end

// stage 2: the beat's words to four vectors, in the clocked block under
// v1: a tree as a function (nic_csa_fns.vh), so that a simulator
// evaluates it only after a beat
function [NW*32-1:0] words;
    input [DATA_W-1:0] d;
    integer g;
    begin
        for (g = 0; g < NW; g = g + 1)
            words[32*g +: 32] = {16'd0, d[16*g +: 8], d[16*g + 8 +: 8]};
    end
endfunction

reg  [4*32-1:0] w4r = 0;
reg             v2 = 1'b0, clr2 = 1'b0;

generate
    if (NW == 32) begin : beat64
        always @(posedge clk)
            if (v1)
                w4r <= csa_32_4(words(d1));
    end else begin : beat32
        always @(posedge clk)
            if (v1)
                w4r <= csa_16_4(words(d1));
    end
endgenerate

always @(posedge clk) begin
    v2 <= v1;
    clr2 <= clr1;
end

// stage 3: those and S + C back into S and C
reg  [31:0] s_acc = 0, c_acc = 0;

always @(posedge clk) begin
    if (clr2) begin
        s_acc <= 0;
        c_acc <= 0;
    end else if (v2) begin
        {c_acc, s_acc} <= csa_6_2({c_acc, s_acc, w4r});
    end
    // stage 4: resolved
    sum <= s_acc + c_acc;
end

endmodule

`resetall
