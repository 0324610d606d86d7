// SPDX-License-Identifier: MIT
/*
 * nic_fold: folds a 32-bit ones' complement accumulator to 16 bits (end-
 * around carry). A checksum field holds its complement.
 *
 * Pipelined, a new result every clock: folded is the fold of acc as it was
 * 2 clocks before (an acc that changes at a clock edge gives its fold after
 * the second edge from it). The halves are added in the first stage (a
 * 16-bit add), the carry out added back in the second (an increment): one
 * adder a stage (docs/rtl.md, "Logic depth").
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_fold
(
    input  wire        clk,
    input  wire [31:0] acc,
    output reg  [15:0] folded = 0   // the 16-bit ones' complement sum
);

reg [16:0] s = 0;

// s <= 0x1fffe, so s[15:0] + s[16] never carries out
always @(posedge clk) begin
    s <= {1'b0, acc[15:0]} + {1'b0, acc[31:16]};
    folded <= s[15:0] + {15'd0, s[16]};
end

endmodule

`resetall
