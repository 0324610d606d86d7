// SPDX-License-Identifier: MIT
/*
 * nic_ip4_csum: the IPv4 header checksum of a header block: the ones'
 * complement of the folded ones' complement sum of the 16-bit words at byte
 * offsets [lo, hi) (the IP header, its checksum field 0), byte order as on
 * the wire (csum[15:8] the field's first byte).
 *
 * Pipelined, a new result every clock: csum is that of hdr, lo and hi as
 * they were 5 clocks before (nic_hsum, 3 clocks, then nic_fold, 2). lo and
 * hi should come from registers (nic_hsum compares them in its first
 * stage). ld as nic_hsum's: high at every clock at which hdr, lo or hi may
 * have changed. The block's place for the result: nic_hdr_fns.vh, ip4_csum_byte.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_ip4_csum
(
    input  wire          clk,
    input  wire [1279:0] hdr,   // byte i in bits 8i+7:8i
    input  wire [7:0]    lo,
    input  wire [7:0]    hi,
    input  wire          ld,    // the inputs may have changed
    output wire [15:0]   csum
);

wire [22:0] sum;
wire [15:0] folded;

nic_hsum hs (.clk(clk), .hdr(hdr), .lo(lo), .hi(hi), .ld(ld), .sum(sum));
nic_fold fold (.clk(clk), .acc({9'd0, sum}), .folded(folded));

assign csum = ~folded;

endmodule

`resetall
