// SPDX-License-Identifier: MIT
/*
 * inc_width_group: one group of width mode (docs/codec.md, section 12) from
 * its 16 quantized values: the group's bit string and its RAW values,
 * bit-exact with group_put() of the C golden model
 * (userspace/codec/chunk_width.c).
 *
 * A pipeline without stalls: the outputs, at clock t + 3, are those of the
 * inputs at clock t. It has no valid of its own; the compressor keeps
 * valid beside it and writes the outputs into its ring the clock they
 * appear (they are combinational from the last registers: the bit
 * string's placement, 3-4 LUT levels).
 *
 *   P1  class masks (coded in the mask form, RAW, ZERO), the OR of the
 *       magnitudes and w its bit count, the ZERO count, every value's rank
 *       among the coded values of either form and among the RAW values
 *   P2  D (dense) from the ZERO count and w (a table on w), the form's
 *       coded set and ranks, the RAW values compacted, the value-field
 *       sizes of both forms (m * (1 + w))
 *   P3  the coded fields compacted (slot j: the coded value of rank j),
 *       the string's length in bits
 *   out the fields placed at (1 + w) bits each after the 6, 22 or 38
 *       header bits; the length in bytes
 *
 * Inputs per lane i (value i of the group): on (the lane holds one of the
 * chunk's values; a short last group has fewer), tag (0 ZERO, 1 Q8, 2 Q16,
 * 3 RAW, inc_quant_round), mag (|q| of a Q8 or Q16 value, 0 for ZERO), neg
 * (the value is negative and not ZERO), word (the value's 32 bits, used
 * for RAW). A lane that is not on must have tag 0.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_width_group
(
    input  wire          clk,

    input  wire [15:0]   on,
    input  wire [31:0]   tags,
    input  wire [239:0]  mags,      // 15 bits a lane
    input  wire [15:0]   negs,
    input  wire [511:0]  words,

    output reg  [295:0]  bits,      // the bit string, 0-padded (37 bytes);
                                    // all 0 for an absent group
    output reg  [5:0]    bits_len,  // its bytes, 1..37 (0: absent group)
    output wire [511:0]  raw,       // the RAW values, compacted
    output wire [4:0]    raw_cnt,   // how many (0..16)
    output wire          present    // a value is not ZERO
);

// ---- helpers ----------------------------------------------------------------

`include "inc_width_fns.vh"

// ---- P1 ---------------------------------------------------------------------------

reg  [15:0] c_cm, c_rm, c_zm;
reg  [14:0] c_or;
integer     l;
always @* begin
    c_or = 0;
    for (l = 0; l < 16; l = l + 1) begin
        c_cm[l] = tags[2*l +: 2] == 2'd1 || tags[2*l +: 2] == 2'd2;
        c_rm[l] = tags[2*l +: 2] == 2'd3;
        c_zm[l] = on[l] && tags[2*l +: 2] == 2'd0;
        if (c_cm[l])
            c_or = c_or | mags[15*l +: 15];
    end
end

wire [15:0] c_nd = on & ~c_rm;   // coded in the dense form

reg  [3:0]   p1_w = 0;
reg  [4:0]   p1_zeros = 0;
reg  [15:0]  p1_cm = 0, p1_rm = 0, p1_nd = 0;
reg  [63:0]  p1_rk_m = 0, p1_rk_d = 0, p1_rk_r = 0;
reg  [4:0]   p1_m_m = 0, p1_m_d = 0, p1_nraw = 0;
reg  [255:0] p1_f = 0;           // sign, then |q|: 16 bits a lane
reg  [511:0] p1_words = 0;

always @(posedge clk) begin
    p1_w <= bitlen15(c_or);
    p1_zeros <= pc16(c_zm);
    p1_cm <= c_cm;
    p1_rm <= c_rm;
    p1_nd <= c_nd;
    p1_rk_m <= ranks(c_cm[14:0]);
    p1_rk_d <= ranks(c_nd[14:0]);
    p1_rk_r <= ranks(c_rm[14:0]);
    p1_m_m <= pc16(c_cm);
    p1_m_d <= pc16(c_nd);
    p1_nraw <= pc16(c_rm);
    for (l = 0; l < 16; l = l + 1)
        p1_f[16*l +: 16] <= {mags[15*l +: 15], negs[l]};
    p1_words <= words;
end

// ---- P2 ---------------------------------------------------------------------------

wire       d_dense = dense_of(p1_zeros, p1_w);
wire [4:0] d_s = {1'b0, p1_w} + 5'd1;

reg [511:0] d_raw;
integer     j;
always @* begin
    d_raw = 0;
    for (j = 0; j < 16; j = j + 1)
        for (l = 0; l < 16; l = l + 1)
            if (p1_rm[l] && p1_rk_r[4*l +: 4] == j[3:0])
                d_raw[32*j +: 32] = d_raw[32*j +: 32] | p1_words[32*l +: 32];
end

reg  [3:0]   p2_w = 0;
reg          p2_dense = 1'b0, p2_hasraw = 1'b0, p2_present = 1'b0;
reg  [15:0]  p2_cm = 0, p2_rm = 0, p2_coded = 0;
reg  [63:0]  p2_rk = 0;
reg  [8:0]   p2_vb_m = 0, p2_vb_d = 0;  // value bits of each form
reg  [255:0] p2_f = 0;
reg  [511:0] p2_raw = 0;
reg  [4:0]   p2_nraw = 0;

always @(posedge clk) begin
    p2_w <= p1_w;
    p2_dense <= d_dense;
    p2_hasraw <= p1_rm != 16'd0;
    p2_present <= (p1_cm | p1_rm) != 16'd0;
    p2_cm <= p1_cm;
    p2_rm <= p1_rm;
    p2_coded <= d_dense ? p1_nd : p1_cm;
    p2_rk <= d_dense ? p1_rk_d : p1_rk_m;
    p2_vb_m <= {4'd0, p1_m_m} * {4'd0, d_s};
    p2_vb_d <= {4'd0, p1_m_d} * {4'd0, d_s};
    p2_f <= p1_f;
    p2_raw <= d_raw;
    p2_nraw <= p1_nraw;
end

// ---- P3 ---------------------------------------------------------------------------

reg [255:0] e_slots;
always @* begin
    e_slots = 0;
    for (j = 0; j < 16; j = j + 1)
        for (l = 0; l < 16; l = l + 1)
            if (p2_coded[l] && p2_rk[4*l +: 4] == j[3:0])
                e_slots[16*j +: 16] = e_slots[16*j +: 16] | p2_f[16*l +: 16];
end

// header bits: 6, then the coded mask (mask form), then the RAW mask
wire [5:0] e_hdr_bits = 6'd6 + (p2_dense ? 6'd0 : 6'd16) +
                        (p2_hasraw ? 6'd16 : 6'd0);

reg  [3:0]   p3_w = 0;
reg          p3_dense = 1'b0, p3_hasraw = 1'b0, p3_present = 1'b0;
reg  [15:0]  p3_cm = 0, p3_rm = 0;
reg  [255:0] p3_slots = 0;
reg  [8:0]   p3_len = 0;          // the string's bits, 6..294
reg  [511:0] p3_raw = 0;
reg  [4:0]   p3_nraw = 0;

always @(posedge clk) begin
    p3_w <= p2_w;
    p3_dense <= p2_dense;
    p3_hasraw <= p2_hasraw;
    p3_present <= p2_present;
    p3_cm <= p2_cm;
    p3_rm <= p2_rm;
    p3_slots <= e_slots;
    p3_len <= {3'd0, e_hdr_bits} + (p2_dense ? p2_vb_d : p2_vb_m);
    p3_raw <= p2_raw;
    p3_nraw <= p2_nraw;
end

// ---- out: the fields placed ---------------------------------------------------------------

wire [5:0] o_bytes = p3_len[8:3] + {5'd0, p3_len[2:0] != 3'd0};  // 1..37

// slot j at j (1 + w); a slot's bits from 1 + w up are 0 (|q| < 2^w)
reg [255:0] o_vals;
integer     s, oj;
always @* begin
    o_vals = 0;
    for (s = 1; s <= 16; s = s + 1)
        for (oj = 0; oj < 16; oj = oj + 1)
            if (p3_w == s[3:0] - 4'd1)
                o_vals = o_vals | ({240'd0, p3_slots[16*oj +: 16]} << (oj * s));
end

always @* begin
    bits = {290'd0, p3_hasraw, p3_dense, p3_w};
    if (!p3_dense)
        bits = bits | {274'd0, p3_cm, 6'd0};
    if (p3_hasraw)
        bits = bits | ({280'd0, p3_rm} << (p3_dense ? 6 : 22));
    if (!p3_dense && p3_hasraw)
        bits = bits | {2'd0, o_vals, 38'd0};
    else if (!p3_dense || p3_hasraw)
        bits = bits | {18'd0, o_vals, 22'd0};
    else
        bits = bits | {34'd0, o_vals, 6'd0};
    // an absent group has no bytes: none of its bits may reach the item
    if (!p3_present)
        bits = 0;
    bits_len = p3_present ? o_bytes : 6'd0;
end

assign raw = p3_raw;
assign raw_cnt = p3_nraw;
assign present = p3_present;

endmodule

`resetall
