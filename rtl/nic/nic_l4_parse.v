// SPDX-License-Identifier: MIT
/*
 * nic_l4_parse: after nic_hdr_parse, the TCP or UDP header's length as
 * incw_parse() finds it: 8 for UDP; for TCP its data offset, which must be
 * at least 5 and whose byte must be inside the IP packet. ok is 0 for any
 * other protocol, or a header that does not fit in the IP packet.
 * Purely combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_l4_parse
(
    input  wire [1279:0] hdr,       // the frame's first 160 bytes
    input  wire [7:0]    l4_off,
    input  wire [13:0]   ip_end,
    input  wire [7:0]    proto,
    output wire          ok,
    output reg  [7:0]    l4_len
);

// the TCP data offset: the high nibble of byte 12 (the header from byte
// 12 on, indexed by l4_off: no adder in front of the multiplexer)
wire [1183:0] hdr12 = hdr[1279:96];
wire          unused_hdr = ^hdr[95:0];  // (the L4 header starts at 34 or later)
wire [3:0]  tcp_doff = hdr12[{l4_off, 3'd4} +: 4];
// the IP packet's bytes from l4_off on, beside the multiplexer; the checks
// compare against it (l4_off + n <= ip_end is n <= room)
wire [14:0] room = {1'b0, ip_end} - {7'd0, l4_off};
wire        room_neg = room[14];
reg hdr_ok;
always @* begin
    hdr_ok = 1'b1;
    l4_len = 0;
    if (proto == 8'd17) begin
        l4_len = 8'd8;
    end else if (proto == 8'd6) begin
        l4_len = {2'd0, tcp_doff, 2'd0};
        if (room_neg || room[13:0] < 14'd13 || l4_len < 8'd20)
            hdr_ok = 1'b0;
    end else begin
        hdr_ok = 1'b0;
    end
end
assign ok = hdr_ok && !room_neg && {6'd0, l4_len} <= room[13:0];

endmodule

`resetall
