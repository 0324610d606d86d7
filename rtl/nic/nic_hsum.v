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

// the words in range, then a balanced tree of adders (7 levels for 128
// leaves) rather than a chain of 80: the depth of the sum grows with the log
// of the terms (docs/rtl.md, "Logic depth")
wire [22:0] t0 [0:127];

genvar i, l;
generate
    for (i = 0; i < 128; i = i + 1) begin : leaf
        if (i < 80) begin : word
            wire [7:0] at = 2 * i;
            assign t0[i] = (at >= lo && at < hi) ?
                           {7'd0, hdr[16*i +: 8], hdr[16*i + 8 +: 8]} : 23'd0;
        end else begin : pad
            assign t0[i] = 23'd0;
        end
    end
    for (l = 1; l <= 7; l = l + 1) begin : lvl
        wire [22:0] t [0:(128 >> l)-1];
        for (i = 0; i < (128 >> l); i = i + 1) begin : add
            if (l == 1) begin : first
                assign t[i] = t0[2*i] + t0[2*i+1];
            end else begin : rest
                assign t[i] = lvl[l-1].t[2*i] + lvl[l-1].t[2*i+1];
            end
        end
    end
endgenerate

always @*
    sum = lvl[7].t[0];

endmodule

`resetall
