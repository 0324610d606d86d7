// SPDX-License-Identifier: MIT
/*
 * nic_sum: the Internet checksum's ones' complement arithmetic (RFC 1071)
 * over a 32-byte beat: the sum of its 16 big-endian 16-bit words, with the
 * bytes whose keep bit is clear taken as 0. Not folded: callers add beats
 * in a wide accumulator and fold at the end (nic_fold). Combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_sum
(
    input  wire [255:0] data,   // byte i in bits 8i+7:8i
    input  wire [31:0]  keep,
    output reg  [20:0]  sum
);

integer i;
always @* begin
    sum = 0;
    for (i = 0; i < 16; i = i + 1)
        sum = sum + {5'd0, keep[2*i] ? data[16*i +: 8] : 8'd0,
                           keep[2*i+1] ? data[16*i + 8 +: 8] : 8'd0};
end

endmodule

`resetall
