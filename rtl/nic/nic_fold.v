// SPDX-License-Identifier: MIT
/*
 * nic_fold: folds a 32-bit ones' complement accumulator to 16 bits (end-
 * around carry). A checksum field holds its complement.
 *
 * Two stages, a new result every clock: the halves added (a 16-bit add),
 * then the carry out added back (an increment): one adder a stage
 * (docs/rtl.md, "Logic depth"). in_valid says acc is the one to fold; it
 * goes down the stages beside the data and comes out as out_valid two
 * clocks later, with folded the fold of acc as it was then. A stage loads
 * only with its valid, so folded holds after out_valid until the next
 * acc comes through: a caller waits for out_valid, never for a count of
 * clocks. rst empties the stages (out_valid low after it).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_fold
(
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] acc,
    input  wire        in_valid,
    output reg  [15:0] folded = 0,  // the 16-bit ones' complement sum
    output reg         out_valid = 1'b0
);

reg [16:0] s = 0;
reg        v1 = 1'b0;

// s <= 0x1fffe, so s[15:0] + s[16] never carries out
always @(posedge clk) begin
    v1 <= in_valid;
    out_valid <= v1;
    if (in_valid)
        s <= {1'b0, acc[15:0]} + {1'b0, acc[31:16]};
    if (v1)
        folded <= s[15:0] + {15'd0, s[16]};
    if (rst) begin
        v1 <= 1'b0;
        out_valid <= 1'b0;
    end
end

endmodule

`resetall
