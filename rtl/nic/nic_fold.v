// SPDX-License-Identifier: MIT
/*
 * nic_fold: folds a 32-bit ones' complement accumulator to 16 bits (end-
 * around carry). A checksum field holds its complement. Combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_fold
(
    input  wire [31:0] acc,
    output wire [15:0] folded   // the 16-bit ones' complement sum
);

// the end-around carry by carry select: both sums at once, the carry of
// the first picks one (one adder deep, not two in a row)
wire [16:0] f0 = {1'b0, acc[15:0]} + {1'b0, acc[31:16]};
wire [15:0] f1 = acc[15:0] + acc[31:16] + 16'd1;
assign folded = f0[16] ? f1 : f0[15:0];

endmodule

`resetall
