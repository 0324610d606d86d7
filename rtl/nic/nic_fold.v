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

wire [16:0] f1 = {1'b0, acc[15:0]} + {1'b0, acc[31:16]};
assign folded = f1[15:0] + {15'd0, f1[16]};

endmodule

`resetall
