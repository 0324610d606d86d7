// SPDX-License-Identifier: MIT
/*
 * nic_hdr_parse_reg: nic_hdr_parse with its results registered, taken when
 * en is high. nic_tx and nic_rx parse the header this way, a register
 * between the parse (9 LUT levels) and what reads its results
 * (docs/rtl.md, "Logic depth").
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_hdr_parse_reg
(
    input  wire          clk,
    input  wire          en,        // take this clock's parse

    input  wire [1279:0] hdr,       // the frame's first 160 bytes
    input  wire [13:0]   len,       // the frame's length

    output reg  [1:0]    result = 0,     // as nic_hdr_parse's
    output reg  [7:0]    l3_off = 0,
    output reg  [3:0]    ip_ver = 0,
    output reg  [7:0]    ip_hlen = 0,
    output reg  [13:0]   ip_end = 0,
    output reg  [7:0]    proto = 0,
    output reg           fragment = 1'b0,
    output reg  [7:0]    l4_off = 0
);

wire [1:0]  c_result;
wire [7:0]  c_l3_off, c_ip_hlen, c_proto, c_l4_off;
wire [3:0]  c_ip_ver;
wire [13:0] c_ip_end;
wire        c_fragment;

nic_hdr_parse parse (
    .hdr(hdr), .len(len),
    .result(c_result), .l3_off(c_l3_off),
    .ip_ver(c_ip_ver), .ip_hlen(c_ip_hlen), .ip_end(c_ip_end),
    .proto(c_proto), .fragment(c_fragment), .l4_off(c_l4_off)
);

always @(posedge clk) begin
    if (en) begin
        result <= c_result;
        l3_off <= c_l3_off;
        ip_ver <= c_ip_ver;
        ip_hlen <= c_ip_hlen;
        ip_end <= c_ip_end;
        proto <= c_proto;
        fragment <= c_fragment;
        l4_off <= c_l4_off;
    end
end

endmodule

`resetall
