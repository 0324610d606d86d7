// SPDX-License-Identifier: MIT
/*
 * nic_hsum: the ones' complement sum (not folded) of the 16-bit words of a
 * 160-byte header vector whose byte offsets are in [lo, hi), lo and hi even.
 * Used for IPv4 header checksums and pseudo-header addresses.
 * Combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_hsum
(
    input  wire [1279:0] hdr,   // byte i in bits 8i+7:8i
    input  wire [7:0]    lo,
    input  wire [7:0]    hi,
    output reg  [22:0]   sum
);

integer i;
always @* begin
    sum = 0;
    for (i = 0; i < 80; i = i + 1)
        if (2 * i >= lo && 2 * i < hi)
            sum = sum + {7'd0, hdr[16*i +: 8], hdr[16*i + 8 +: 8]};
end

endmodule

`resetall
