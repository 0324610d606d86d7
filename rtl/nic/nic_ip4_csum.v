// SPDX-License-Identifier: MIT
/*
 * nic_ip4_csum: the IPv4 header checksum of a header block: the ones'
 * complement of the folded ones' complement sum of the 16-bit words at byte
 * offsets [lo, hi) (the IP header, its checksum field 0), byte order as on
 * the wire (csum[15:8] the field's first byte).
 *
 * nic_hsum (3 clocks), then nic_fold (2): in_valid, raised for a clock once
 * hdr, lo and hi are final, comes out as csum_valid five clocks later, and
 * csum holds from then until the next inputs come through. lo and hi
 * should come from registers (nic_hsum compares them in its first stage).
 * The block's place for the result: nic_hdr_fns.vh, ip4_csum_byte.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_ip4_csum
(
    input  wire          clk,
    input  wire          rst,
    input  wire [1279:0] hdr,   // byte i in bits 8i+7:8i
    input  wire [7:0]    lo,
    input  wire [7:0]    hi,
    input  wire          in_valid,
    output wire [15:0]   csum,
    output wire          csum_valid
);

wire [22:0] sum;
wire        sum_valid;
wire [15:0] folded;

nic_hsum hs (.clk(clk), .rst(rst), .hdr(hdr), .lo(lo), .hi(hi), .in_valid(in_valid),
             .sum(sum), .sum_valid(sum_valid));
nic_fold fold (.clk(clk), .rst(rst), .acc({9'd0, sum}), .in_valid(sum_valid),
               .folded(folded), .out_valid(csum_valid));

assign csum = ~folded;

endmodule

`resetall
