// SPDX-License-Identifier: MIT
/*
 * inc_width_group: one group of width mode (docs/codec.md, section 12) from
 * its 16 quantized values: the group's bit string and its RAW values,
 * bit-exact with group_put() of the C golden model
 * (userspace/codec/chunk_width.c).
 *
 * A pipeline without stalls: the outputs, at clock t + 3, are those of the
 * inputs at clock t, when en was high at t (the compressor's valid of a
 * width-mode beat); a stage holds what it has while the stage before it
 * took nothing. It has no valid output; the compressor keeps valid beside
 * it and writes the outputs into its ring the clock they appear (they are
 * combinational from the last registers: the bit string's placement, 3-4
 * LUT levels). Each stage's logic is a function evaluated in the clocked
 * block, under its enable: the same logic, and a simulator spends nothing
 * on an idle stage.
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

    input  wire          en,        // take the inputs (a group)
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

// the stages' enables
reg v1 = 1'b0, v2 = 1'b0;

always @(posedge clk) begin
    v1 <= en;
    v2 <= v1;
end

// ---- P1 ---------------------------------------------------------------------------

// the class masks: coded in the mask form (Q8, Q16), RAW, ZERO
function [15:0] cls_coded;
    input [31:0] t;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            cls_coded[i] = t[2*i +: 2] == 2'd1 || t[2*i +: 2] == 2'd2;
    end
endfunction

function [15:0] cls_raw;
    input [31:0] t;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            cls_raw[i] = t[2*i +: 2] == 2'd3;
    end
endfunction

function [15:0] cls_zero;
    input [15:0] o;
    input [31:0] t;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            cls_zero[i] = o[i] && t[2*i +: 2] == 2'd0;
    end
endfunction

// the OR of the coded values' magnitudes
function [14:0] mag_or;
    input [15:0]  cm;
    input [239:0] m;
    integer i;
    begin
        mag_or = 0;
        for (i = 0; i < 16; i = i + 1)
            if (cm[i])
                mag_or = mag_or | m[15*i +: 15];
    end
endfunction

// (cheap: 2-bit compares a lane; the stage's costly logic is in its block)
wire [15:0] c_cm = cls_coded(tags);
wire [15:0] c_rm = cls_raw(tags);
wire [15:0] c_nd = on & ~c_rm;   // coded in the dense form

reg  [3:0]   p1_w = 0;
reg  [4:0]   p1_zeros = 0;
reg  [15:0]  p1_cm = 0, p1_rm = 0, p1_nd = 0;
reg  [63:0]  p1_rk_m = 0, p1_rk_d = 0, p1_rk_r = 0;
reg  [4:0]   p1_m_m = 0, p1_m_d = 0, p1_nraw = 0;
reg  [255:0] p1_f = 0;           // sign, then |q|: 16 bits a lane
reg  [511:0] p1_words = 0;

integer l;
always @(posedge clk) begin
    if (en) begin
        p1_w <= bitlen15(mag_or(c_cm, mags));
        p1_zeros <= pc16(cls_zero(on, tags));
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
end

// ---- P2 ---------------------------------------------------------------------------

// the RAW values compacted: slot j the RAW value of rank j (a lane's rank
// is at most its index: slot j takes from lanes j..15)
function [511:0] raw_compact;
    input [15:0]  rm;
    input [63:0]  rk;
    input [511:0] w;
    integer i, j;
    begin
        raw_compact = 0;
        for (j = 0; j < 16; j = j + 1)
            for (i = j; i < 16; i = i + 1)
                if (rm[i] && rk[4*i +: 4] == j[3:0])
                    raw_compact[32*j +: 32] = raw_compact[32*j +: 32] | w[32*i +: 32];
    end
endfunction

reg  [3:0]   p2_w = 0;
reg          p2_dense = 1'b0, p2_hasraw = 1'b0, p2_present = 1'b0;
reg  [15:0]  p2_cm = 0, p2_rm = 0, p2_coded = 0;
reg  [63:0]  p2_rk = 0;
reg  [8:0]   p2_vb_m = 0, p2_vb_d = 0;  // value bits of each form
reg  [255:0] p2_f = 0;
reg  [511:0] p2_raw = 0;
reg  [4:0]   p2_nraw = 0;

always @(posedge clk) begin
    if (v1) begin
        p2_w <= p1_w;
        p2_dense <= dense_of(p1_zeros, p1_w);
        p2_hasraw <= p1_rm != 16'd0;
        p2_present <= (p1_cm | p1_rm) != 16'd0;
        p2_cm <= p1_cm;
        p2_rm <= p1_rm;
        p2_coded <= dense_of(p1_zeros, p1_w) ? p1_nd : p1_cm;
        p2_rk <= dense_of(p1_zeros, p1_w) ? p1_rk_d : p1_rk_m;
        p2_vb_m <= {4'd0, p1_m_m} * ({5'd0, p1_w} + 9'd1);
        p2_vb_d <= {4'd0, p1_m_d} * ({5'd0, p1_w} + 9'd1);
        p2_f <= p1_f;
        p2_raw <= raw_compact(p1_rm, p1_rk_r, p1_words);
        p2_nraw <= p1_nraw;
    end
end

// ---- P3 ---------------------------------------------------------------------------

// the coded fields compacted: slot j the coded value of rank j (from
// lanes j..15, as above)
function [255:0] slots_compact;
    input [15:0]  coded;
    input [63:0]  rk;
    input [255:0] f;
    integer i, j;
    begin
        slots_compact = 0;
        for (j = 0; j < 16; j = j + 1)
            for (i = j; i < 16; i = i + 1)
                if (coded[i] && rk[4*i +: 4] == j[3:0])
                    slots_compact[16*j +: 16] = slots_compact[16*j +: 16] | f[16*i +: 16];
    end
endfunction

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
    if (v2) begin
        p3_w <= p2_w;
        p3_dense <= p2_dense;
        p3_hasraw <= p2_hasraw;
        p3_present <= p2_present;
        p3_cm <= p2_cm;
        p3_rm <= p2_rm;
        p3_slots <= slots_compact(p2_coded, p2_rk, p2_f);
        p3_len <= {3'd0, e_hdr_bits} + (p2_dense ? p2_vb_d : p2_vb_m);
        p3_raw <= p2_raw;
        p3_nraw <= p2_nraw;
    end
end

// ---- out: the fields placed ---------------------------------------------------------------

wire [5:0] o_bytes = p3_len[8:3] + {5'd0, p3_len[2:0] != 3'd0};  // 1..37

// slot j at j (1 + w); a slot's bits from 1 + w up are 0 (|q| < 2^w), so
// its 16 bits may overlap the next slot's (a constant part-select each:
// cheaper to simulate than a shift of the whole vector)
reg [255:0] o_vals;
integer     s, oj;
always @* begin
    o_vals = 0;
    oj = 0;                 // (assigned on every path: no latch)
    for (s = 1; s <= 16; s = s + 1)
        if (p3_w == s[3:0] - 4'd1)
            for (oj = 0; oj < 16; oj = oj + 1)
                o_vals[oj * s +: 16] = o_vals[oj * s +: 16] | p3_slots[16*oj +: 16];
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
