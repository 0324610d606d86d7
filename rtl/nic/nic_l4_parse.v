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

// the TCP data offset: the high nibble of byte 12
wire [10:0] doff_at = {l4_off + 8'd12, 3'd4};
wire [3:0]  tcp_doff = hdr[doff_at +: 4];
wire [13:0] l4_end = {6'd0, l4_off} + {6'd0, l4_len};

reg hdr_ok;
always @* begin
    hdr_ok = 1'b1;
    l4_len = 0;
    if (proto == 8'd17) begin
        l4_len = 8'd8;
    end else if (proto == 8'd6) begin
        l4_len = {2'd0, tcp_doff, 2'd0};
        if ({6'd0, l4_off} + 14'd13 > ip_end || l4_len < 8'd20)
            hdr_ok = 1'b0;
    end else begin
        hdr_ok = 1'b0;
    end
end

assign ok = hdr_ok && l4_end <= ip_end;
endmodule

`resetall
