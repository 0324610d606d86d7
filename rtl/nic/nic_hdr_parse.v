// SPDX-License-Identifier: MIT
/*
 * nic_hdr_parse: finds the IP header of a frame from its first 160 bytes,
 * exactly as incw_parse() does (userspace/wire, docs/wire-format.md):
 * Ethernet, up to two VLAN tags (0x8100, 0x88a8), IPv4 (any IHL) or IPv6
 * (no extension headers). nic_l4_parse goes on to TCP or UDP. Bytes of
 * hdr past the frame's length must be 0. Purely combinational.
 *
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_hdr_parse
(
    input  wire [1279:0] hdr,       // the frame's first 160 bytes
    input  wire [13:0]   len,       // the frame's length

    output wire [1:0]    result,    // 0 ok, 1 not IP, 2 bad IP
    output reg  [7:0]    l3_off,
    output reg  [3:0]    ip_ver,    // 4 or 6
    output reg  [7:0]    ip_hlen,
    output reg  [13:0]   ip_end,
    output reg  [7:0]    proto,
    output reg           fragment,
    output reg  [7:0]    l4_off     // the header after the IP header
);

localparam [1:0] P_OK = 2'd0, P_NOT_IP = 2'd1, P_BAD_IP = 2'd2;

function [15:0] be16;
    input [1279:0] h;
    input [7:0]    at;
    begin
        be16 = {h[{at, 3'd0} +: 8], h[{at + 8'd1, 3'd0} +: 8]};
    end
endfunction

reg  [1:0]    vlans;

function [7:0] byte_at;
    input [1279:0] h;
    input [7:0]    at;
    begin
        byte_at = h[{at, 3'd0} +: 8];
    end
endfunction

// the IP header fields the rules need
wire [7:0] ip_b0 = byte_at(hdr, l3_off);
wire [7:0] ip_b2 = byte_at(hdr, l3_off + 8'd2);
wire [7:0] ip_b3 = byte_at(hdr, l3_off + 8'd3);
wire [7:0] ip_b4 = byte_at(hdr, l3_off + 8'd4);
wire [7:0] ip_b5 = byte_at(hdr, l3_off + 8'd5);
wire [7:0] ip_b6 = byte_at(hdr, l3_off + 8'd6);
wire [7:0] ip_b7 = byte_at(hdr, l3_off + 8'd7);
wire [7:0] ip_b9 = byte_at(hdr, l3_off + 8'd9);

// ---- Ethernet and VLAN tags ----
wire [15:0] type0 = be16(hdr, 8'd12);
wire [15:0] type1 = be16(hdr, 8'd16);
wire [15:0] type2 = be16(hdr, 8'd20);
wire        tag0 = type0 == 16'h8100 || type0 == 16'h88a8;
wire        tag1 = tag0 && (type1 == 16'h8100 || type1 == 16'h88a8);
wire [15:0] etype = tag1 ? type2 : (tag0 ? type1 : type0);
// a tag whose next type field is past the frame
wire        eth_short = len < 14'd14 || (tag0 && len < 14'd18) || (tag1 && len < 14'd22);

always @* begin
    vlans = tag1 ? 2'd2 : (tag0 ? 2'd1 : 2'd0);
    l3_off = 8'd14 + {4'd0, vlans, 2'd0};
end

// ---- IP ----
reg [1:0]  ip_result;
reg [15:0] tot, plen;
always @* begin
    ip_result = P_OK;
    ip_ver = 0;
    ip_hlen = 0;
    ip_end = 0;
    proto = 0;
    fragment = 1'b0;
    tot = 0;
    plen = 0;
    if (eth_short) begin
        ip_result = P_NOT_IP;
    end else if (etype == 16'h0800) begin
        ip_ver = 4'd4;
        ip_hlen = {2'd0, ip_b0[3:0], 2'd0};
        tot = {ip_b2, ip_b3};
        proto = ip_b9;
        // MF or fragment offset: the low 14 bits of bytes 6-7
        fragment = {ip_b6[5:0], ip_b7} != 14'd0;
        ip_end = {6'd0, l3_off} + tot[13:0];
        if (len < {6'd0, l3_off} + 14'd20 || ip_b0[7:4] != 4'd4 ||
            ip_hlen < 8'd20 || tot < {8'd0, ip_hlen} || tot[15:14] != 2'd0 ||
            ip_end > len || ip_end < tot[13:0])
            ip_result = P_BAD_IP;
    end else if (etype == 16'h86dd) begin
        ip_ver = 4'd6;
        ip_hlen = 8'd40;
        plen = {ip_b4, ip_b5};
        proto = ip_b6;
        ip_end = {6'd0, l3_off} + 14'd40 + plen[13:0];
        if (len < {6'd0, l3_off} + 14'd40 || ip_b0[7:4] != 4'd6 ||
            plen[15:14] != 2'd0 || ip_end > len || ip_end < plen[13:0])
            ip_result = P_BAD_IP;
    end else begin
        ip_result = P_NOT_IP;
    end
end

always @* begin
    l4_off = l3_off + ip_hlen;
end

assign result = ip_result;

// the TCP data offset: the high nibble of byte 12
endmodule

`resetall
