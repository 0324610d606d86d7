// SPDX-License-Identifier: MIT
/*
 * nic_rd_count: the counts nic_rd_stream keeps for a byte range: the RAM
 * words it touches, the beats it takes, the bytes of its last beat and
 * whether its last beat takes two words. Purely combinational; the one
 * definition of them, used by nic_rd_stream itself and by callers that
 * make them a clock ahead (nic_assembler, nic_rd_stream PRECOUNT = 1).
 *
 * A range of len = BB q + r bytes starting at byte s of a word touches q
 * words and one or two more for the r bytes (s + r past BB: two), and
 * takes q beats and one more for r != 0. An empty range touches no word
 * and is one beat with no byte.
 *
 * cnt = {words[11:0], beats[11:0], last_keep[BS:0], extra}, CNT_W bits.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_rd_count #
(
    // bytes per RAM word and beat (32 or 64)
    parameter BB = 32,
    // log2 of BB, and the width of cnt (derived: leave them)
    parameter BS = $clog2(BB),
    parameter CNT_W = 26 + BS
)
(
    input  wire [BS-1:0]    s,      // the range's first byte in its word
    input  wire [15:0]      len,    // its length in bytes
    output wire [CNT_W-1:0] cnt
);

localparam [BS:0] BBN = BB[BS:0];

wire [BS:0]  s_r = {1'b0, s} + {1'b0, len[BS-1:0]};
wire [11:0]  len_words = {{(BS - 4){1'b0}}, len[15:BS]};
wire         empty = len == 0;
wire [11:0]  words = empty ? 12'd0 : len_words +
                     (s_r > BBN ? 12'd2 : (s_r != 0 ? 12'd1 : 12'd0));
wire [11:0]  beats = empty ? 12'd1 : len_words + {11'd0, len[BS-1:0] != 0};
wire [BS:0]  last_keep = empty ? {(BS+1){1'b0}} :
                         (len[BS-1:0] == 0 ? BBN : {1'b0, len[BS-1:0]});
wire         extra = !empty && words != beats;

assign cnt = {words, beats, last_keep, extra};

endmodule

`resetall
