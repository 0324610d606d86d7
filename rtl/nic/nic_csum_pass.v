// SPDX-License-Identifier: MIT
/*
 * nic_csum_pass: the checksum pass of both directions (nic_tx: the TCP
 * header and payload before the range, and the payload after it; nic_rx:
 * the whole segment, the header and prefix, and the suffix). It reads a
 * byte range [start_addr, start_addr + start_len) of a RAM, a word a
 * clock from the word that holds its first byte, and sums (RFC 1071, not
 * folded) the bytes of NSUM windows of it: window i is [lo_i, hi_i) in
 * offsets from start_addr, clipped to the range, each a nic_csum_acc.
 *
 * The words are summed where they lie in the RAM, not realigned to the
 * range's first byte: a checksum pairs bytes from the segment's first
 * byte, and so does this as long as start_addr is even (the L4 header of
 * a frame at a word's start: the parser's L3 offsets are 14, 18 and 22,
 * IP headers a multiple of 4 bytes long), which the caller guarantees.
 * The windows are moved by the range's place in its first word instead;
 * the bytes before the range and after it count in no window. No shifter
 * (nic_rd_stream's realignment was about 3,700 LUTs at 64-byte words).
 *
 * The handshake: a pass starts at a clock with start_valid and
 * start_ready (start_ready: no pass under way, its sums final); its
 * inputs are taken then. sum_valid drops at the next clock and rises once
 * every window's sum is final (nic_csum_acc's sum_valid, 4 clocks after
 * the last word's beat); the sums then hold until the next pass starts. A pass of n words takes n + 6
 * clocks from the start to sum_valid. Nothing stalls it: the RAM port is
 * its own and the accumulators take a word a clock.
 *
 * Timing: the window bounds (a 14-bit compare, a choice and a 6-bit add)
 * and the word count are made a clock after the start, from registers.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_csum_pass #
(
    // RAM word width, bits: 256 or 512 (nic_csum_acc)
    parameter DATA_W = 512,
    // log2 of the RAM's words; addresses wrap at its end
    parameter ADDR_W = 8,
    // windows summed (1 to 3)
    parameter NSUM = 3,
    // bytes per word, and their log2 (derived: leave them)
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire                   clk,
    input  wire                   rst,

    // a pass over [start_addr, start_addr + start_len): start_addr even
    input  wire                   start_valid,
    output wire                   start_ready,
    input  wire [ADDR_W+BS-1:0]   start_addr,
    input  wire [13:0]            start_len,
    input  wire [14*NSUM-1:0]     start_lo,     // window i: bits 14i+13:14i
    input  wire [14*NSUM-1:0]     start_hi,

    // the RAM's read port (rdata a clock after re)
    output wire                   ram_re,
    output reg  [ADDR_W-1:0]      ram_raddr = 0,
    input  wire [DATA_W-1:0]      ram_rdata,

    output wire                   sum_valid,
    output wire [32*NSUM-1:0]     sum           // window i: bits 32i+31:32i
);

localparam [1:0] S_IDLE = 2'd0, S_WIN = 2'd1, S_READ = 2'd2;
localparam CNT_W = 15 - BS;             // words of a pass: up to 2^14 + BB - 1 bytes
localparam [14:0] BBM1 = BB[14:0] - 15'd1;
localparam [CNT_W-1:0] ONE = 1;

reg  [1:0]        state = S_IDLE;
reg  [BS-1:0]     b0 = 0;               // the range's first byte in its first word
reg  [13:0]       len = 0;
reg  [14*NSUM-1:0] lo = 0, hi = 0;
reg  [CNT_W-1:0]  left = 0;             // words still to read
reg               have = 1'b0;          // a pass started since the reset
/* verilator lint_off UNUSEDSIGNAL */
wire [NSUM-1:0]   acc_valid;            // (all alike, the same beats: bit 0 read)
/* verilator lint_on UNUSEDSIGNAL */

// the sums are final when the accumulators say so (they dropped their
// sum_valid at S_WIN's start)
assign sum_valid = have && state == S_IDLE && acc_valid[0];
assign start_ready = state == S_IDLE && (!have || acc_valid[0]);
assign ram_re = state == S_READ;

// S_WIN: a bound clipped to the range and moved by its place in the word
function [13:0] bound;
    input [13:0]   b;
    input [13:0]   n;
    input [BS-1:0] at;
    begin
        bound = (b < n ? b : n) + {{(14 - BS){1'b0}}, at};
    end
endfunction

// the words: ceil((b0 + len) / BB), at least one (an empty pass reads a
// word of which nothing counts)
/* verilator lint_off UNUSEDSIGNAL */
wire [14:0] span = {1'b0, len} + {{(15 - BS){1'b0}}, b0} + BBM1;   // (bits BS-1:0 unused)
/* verilator lint_on UNUSEDSIGNAL */
wire [CNT_W-1:0] words = span[14:BS] == 0 ? ONE : span[14:BS];

always @(posedge clk) begin
    case (state)
    S_IDLE: begin
        if (start_valid && start_ready) begin
            have <= 1'b1;
            ram_raddr <= start_addr[ADDR_W+BS-1:BS];
            b0 <= start_addr[BS-1:0];
            len <= start_len;
            lo <= start_lo;
            hi <= start_hi;
            state <= S_WIN;
        end
    end
    S_WIN: begin
        // the accumulators take the bounds (acc_start)
        left <= words;
        state <= S_READ;
    end
    S_READ: begin
        ram_raddr <= ram_raddr + {{(ADDR_W - 1){1'b0}}, 1'b1};
        left <= left - ONE;
        if (left == ONE)
            state <= S_IDLE;
    end
    default: state <= S_IDLE;
    endcase
    if (rst) begin
        state <= S_IDLE;
        have <= 1'b0;
    end
end

// a word read is a beat of every window a clock later
reg beat = 1'b0, beat_last = 1'b0;
always @(posedge clk) begin
    beat <= ram_re;
    beat_last <= ram_re && left == ONE;
end

wire acc_start = state == S_WIN;

genvar i;
generate
    for (i = 0; i < NSUM; i = i + 1) begin : win
        nic_csum_acc #(.DATA_W(DATA_W)) acc (
            .clk(clk), .start(acc_start),
            .lo(bound(lo[14*i +: 14], len, b0)), .hi(bound(hi[14*i +: 14], len, b0)),
            .beat(beat), .last(beat_last), .data(ram_rdata), .keep({BB{1'b1}}),
            .sum(sum[32*i +: 32]), .sum_valid(acc_valid[i])
        );
    end
endgenerate

endmodule

`resetall
