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

// The IP header is at byte 14, 18 or 22 (0, 1 or 2 VLAN tags). Its checks
// are made for all three places at once, from bytes at fixed places (no
// adder in front of a multiplexer), and the tags pick one at the end.

function [15:0] be16;
    input [1279:0] h;
    input integer  at;
    begin
        be16 = {h[8*at +: 8], h[8*(at + 1) +: 8]};
    end
endfunction

// ---- Ethernet and VLAN tags ----
wire [15:0] type0 = be16(hdr, 12);
wire [15:0] type1 = be16(hdr, 16);
wire        tag0 = type0 == 16'h8100 || type0 == 16'h88a8;
wire        tag1 = tag0 && (type1 == 16'h8100 || type1 == 16'h88a8);
wire [1:0]  vlans = tag1 ? 2'd2 : (tag0 ? 2'd1 : 2'd0);

// ---- IP, for each place: result, version, header length, end, protocol,
// fragment ----
wire [3*2-1:0]  c_result;
wire [3*4-1:0]  c_ver;
wire [3*8-1:0]  c_hlen;
wire [3*14-1:0] c_end;
wire [3*8-1:0]  c_proto;
wire [2:0]      c_frag;
wire [3*8-1:0]  c_l4;

genvar v;
generate
    for (v = 0; v < 3; v = v + 1) begin : at
        localparam integer L3 = 14 + 4 * v;
        // the smallest length fields whose end wraps 14 bits
        localparam integer WRAP4_I = 16384 - L3, WRAP6_I = 16384 - L3 - 40;
        localparam [13:0] WRAP4 = WRAP4_I[13:0], WRAP6 = WRAP6_I[13:0];
        wire [15:0] etype = be16(hdr, L3 - 2);
        wire [7:0]  b0 = hdr[8*L3 +: 8];
        wire [15:0] tot = be16(hdr, L3 + 2);
        wire [15:0] plen = be16(hdr, L3 + 4);
        wire [7:0]  b6 = hdr[8*(L3 + 6) +: 8];
        wire [7:0]  b7 = hdr[8*(L3 + 7) +: 8];
        wire [7:0]  b9 = hdr[8*(L3 + 9) +: 8];
        wire [7:0]  hlen4 = {2'd0, b0[3:0], 2'd0};
        wire [13:0] end4 = L3[13:0] + tot[13:0];
        wire [13:0] end6 = L3[13:0] + 14'd40 + plen[13:0];
        // a tag whose next type field is past the frame
        wire        short = len < L3[13:0];
        // the checks on the end (end > len, and end < the length field:
        // the 14-bit sum wrapped) without the sum: the field against the
        // bytes after the header's start (len - L3, its own subtraction,
        // valid where len is long enough, else the frame is bad anyway)
        // and against a constant
        wire [13:0] after3 = len - L3[13:0];
        wire [13:0] after6 = len - L3[13:0] - 14'd40;
        wire        bad4 = len < L3[13:0] + 14'd20 || b0[7:4] != 4'd4 ||
                           hlen4 < 8'd20 || tot < {8'd0, hlen4} || tot[15:14] != 2'd0 ||
                           tot[13:0] > after3 || tot[13:0] >= WRAP4;
        wire        bad6 = len < L3[13:0] + 14'd40 || b0[7:4] != 4'd6 ||
                           plen[15:14] != 2'd0 || plen[13:0] > after6 ||
                           plen[13:0] >= WRAP6;
        wire        is4 = !short && etype == 16'h0800;
        wire        is6 = !short && etype == 16'h86dd;
        assign c_result[2*v +: 2] = is4 ? (bad4 ? P_BAD_IP : P_OK) :
                             is6 ? (bad6 ? P_BAD_IP : P_OK) : P_NOT_IP;
        assign c_ver[4*v +: 4] = is4 ? 4'd4 : is6 ? 4'd6 : 4'd0;
        assign c_hlen[8*v +: 8] = is4 ? hlen4 : is6 ? 8'd40 : 8'd0;
        assign c_end[14*v +: 14] = is4 ? end4 : is6 ? end6 : 14'd0;
        assign c_proto[8*v +: 8] = is4 ? b9 : is6 ? b6 : 8'd0;
        // MF or fragment offset: the low 14 bits of bytes 6-7
        assign c_frag[v] = is4 && {b6[5:0], b7} != 14'd0;
        // the L4 header's place (each place's own sum, picked like the rest)
        assign c_l4[8*v +: 8] = L3[7:0] + c_hlen[8*v +: 8];
    end
endgenerate

// (vlans is 0, 1 or 2)
wire [1:0] pick = vlans == 2'd3 ? 2'd0 : vlans;
assign result = c_result[2*pick +: 2];
always @* begin
    l3_off = 8'd14 + {4'd0, vlans, 2'd0};
    ip_ver = c_ver[4*pick +: 4];
    ip_hlen = c_hlen[8*pick +: 8];
    ip_end = c_end[14*pick +: 14];
    proto = c_proto[8*pick +: 8];
    fragment = c_frag[pick];
    l4_off = c_l4[8*pick +: 8];
end

endmodule

`resetall
