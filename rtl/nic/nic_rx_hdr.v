// SPDX-License-Identifier: MIT
/*
 * nic_rx_hdr: nic_rx's stage H. A received frame's header (its first 160
 * bytes) in, parsed and checked as incw_rx() of userspace/wire does
 * (docs/wire-format.md, receive rules), its record out for the stages
 * after it (nic_rx_rec.vh: the outcome, K_PLAIN, K_DROP or K_RESTORE, the
 * offsets, the shim's and the chunk's fields, the lengths of the restored
 * frame, the pseudo-header addresses' sum), with the header itself.
 *
 * s (valid/ready): a header, taken when the stage is idle: s_hdr, the
 *   frame's first bytes (bytes past s_len are cleared here), s_len, and
 *   s_start, which the record carries (the frame's ring word).
 * m (valid/ready): the record, m_info and m_hdr, held until m_ready.
 *
 * One frame at a time: H_P1..H_P3 a clock each (the parse, the fields at
 * its offsets, the chunk's counts), then H_P4 waits for three chains, each
 * ending in a valid (the IPv4 header's sum, fold and check; the
 * addresses' sum; the chunk's bound and lengths), then the record. With
 * m_ready high, a header taken at clock t gives its record at t + 10, and
 * the stage takes the next at t + 11.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_rx_hdr #
(
    // width mode accepted (mode 3 chunks; nic_rx's WIDTH_OK)
    parameter WIDTH_OK = 1,
    // bits of a frame's ring word (nic_rx's RING_AW)
    parameter RING_AW = 9,
    // the record's width, nic_rx_rec.vh's HR_W (derived: leave it)
    parameter REC_W = 2 + RING_AW + 320
)
(
    input  wire               clk,
    input  wire               rst,

    input  wire               s_valid,
    output wire               s_ready,
    input  wire [1279:0]      s_hdr,
    input  wire [13:0]        s_len,
    input  wire [RING_AW-1:0] s_start,

    output wire               m_valid,
    input  wire               m_ready,
    output wire [1279:0]      m_hdr,
    output wire [REC_W-1:0]   m_info
);

`include "nic_rx_rec.vh"

// (REC_W, the port's width, is HR_W: nic_rx passes it; any other is a
// width mismatch at m_info = rec, which lint fails)

localparam [2:0] H_IDLE = 3'd0, H_P1 = 3'd2, H_P2 = 3'd3, H_P3 = 3'd4, H_P4 = 3'd5,
                 H_PARSE = 3'd6;

reg  [2:0]    h_state = H_IDLE;
reg  [RING_AW-1:0] fr_start = 0; // ring word of the frame
reg  [13:0]   fr_len = 0;
reg  [1279:0] hreg = 0;

assign s_ready = h_state == H_IDLE;

// the header's bytes past the frame's end cleared: what the frame's first
// min(len, 160) bytes are, zeros after them
function [1279:0] hdr_mask;
    input [1279:0] d;
    input [13:0]   len;
    integer b;
    begin
        for (b = 0; b < 160; b = b + 1)
            hdr_mask[8*b +: 8] = {18'd0, len} > b ? d[8*b +: 8] : 8'd0;
    end
endfunction

// The header's fields and what follows from them are registered in steps
// once the header is in, each a few LUT levels deep (docs/rtl.md, "Logic
// depth"): H_P1..H_P3 a clock each, then in H_P4 three chains started
// together (hc_go, below), each ending in a valid: H_P4 waits for all
// three, not for a count of clocks. They stay until the next frame's
// header.

// H_P1: the parser's results
wire [1:0]   p_result;
wire [7:0]   p_l3_off, p_ip_hlen, p_proto, p_l4_off;
wire [3:0]   p_ip_ver;
wire [13:0]  p_ip_end;
wire         p_fragment;

nic_hdr_parse_reg parse (
    .clk(clk), .en(h_state == H_P1),
    .hdr(hreg), .len(fr_len),
    .result(p_result), .l3_off(p_l3_off),
    .ip_ver(p_ip_ver), .ip_hlen(p_ip_hlen), .ip_end(p_ip_end),
    .proto(p_proto), .fragment(p_fragment), .l4_off(p_l4_off)
);

// The fields at the parsed offsets, from the header's bytes from byte at
// on (at < 160; bytes past the header's 160 read as 0): a shifter's
// stages, the coarse first, each only as wide as what is kept of it, so
// that each field is a fixed byte of one of two windows (the IP header's
// first 12 bytes; the shim's 16 and the carried L4 header after them)
// instead of a 160-way choice of its own at an added offset.
// hdr_at: the header from byte at on (the shifter, for both windows)
function [1279:0] hdr_at;
    input [1279:0] h;
    input [7:0]    at;
    integer b;
    begin
        hdr_at = h;
        for (b = 7; b >= 0; b = b - 1)
            if (at[b])
                hdr_at = hdr_at >> (8 << b);
    end
endfunction

// l3_fields: {version nibble, bytes 6, 9, 10, 11}
function [35:0] l3_fields;
    input [1279:0] h;
    input [7:0]    at;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [1279:0] r;     // (the bytes of the fields taken)
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        r = hdr_at(h, at);
        l3_fields = {r[7:4], r[8*6 +: 8], r[8*9 +: 8], r[8*10 +: 8], r[8*11 +: 8]};
    end
endfunction

// l4_fields: {the shim's 16 bytes, the carried header's bytes 6, 7, the
// high nibble of its byte 12, its bytes 16, 17}
function [16*8+20+15:0] l4_fields;
    input [1279:0] h;
    input [7:0]    at;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [1279:0] r;     // (the bytes of the fields taken)
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        r = hdr_at(h, at);
        l4_fields = {r[16*8-1:0], r[8*22 +: 16], r[8*28 + 4 +: 4], r[8*32 +: 16]};
    end
endfunction

// H_P2: the fields the receive rules read, at the parsed offsets
reg  [3:0]  ip_vn = 0;
reg  [7:0]  ip_b6 = 0, ip_b9 = 0;
reg  [15:0] ip4_field = 0;
reg  [7:0]  sh_magic = 0, sh_ver = 0, sh_proto = 0, sh_l4len = 0;
reg  [15:0] sh_off = 0, sh_csum = 0;
reg  [7:0]  ch_mode = 0, ch_k = 0;
reg  [15:0] ch_raw = 0, ch_body = 0, ch_rsvd = 0;
reg  [3:0]  in_doff = 0;
reg  [15:0] in_csum_tcp = 0, in_csum_udp = 0;  // the carried L4 checksum
wire [15:0] in_csum = sh_proto == 8'd6 ? in_csum_tcp : in_csum_udp;
wire [3:0]  f3_vn;
wire [7:0]  f3_b6, f3_b9, f3_b10, f3_b11;
wire [127:0] f4_shim;                 // its byte i: the header's l4_off + i
wire [15:0] f4_udp, f4_tcp;            // the carried header's bytes 6-7, 16-17
wire [3:0]  f4_doff;                   // ... byte 12's high nibble
assign {f3_vn, f3_b6, f3_b9, f3_b10, f3_b11} = l3_fields(hreg, p_l3_off);
assign {f4_shim, f4_udp, f4_doff, f4_tcp} = l4_fields(hreg, p_l4_off);

always @(posedge clk) begin
    if (h_state == H_P2) begin
        ip_vn <= f3_vn;
        ip_b6 <= f3_b6;
        ip_b9 <= f3_b9;
        ip4_field <= {f3_b10, f3_b11};
        sh_magic <= f4_shim[8*0 +: 8];
        sh_ver <= f4_shim[8*1 +: 8];
        sh_proto <= f4_shim[8*2 +: 8];
        sh_l4len <= f4_shim[8*3 +: 8];
        sh_off <= {f4_shim[8*4 +: 8], f4_shim[8*5 +: 8]};
        sh_csum <= {f4_shim[8*6 +: 8], f4_shim[8*7 +: 8]};
        ch_mode <= f4_shim[8*8 +: 8];
        ch_k <= f4_shim[8*9 +: 8];
        ch_raw <= {f4_shim[8*11 +: 8], f4_shim[8*10 +: 8]};
        ch_body <= {f4_shim[8*13 +: 8], f4_shim[8*12 +: 8]};
        ch_rsvd <= {f4_shim[8*15 +: 8], f4_shim[8*14 +: 8]};
        in_doff <= f4_doff;
        in_csum_tcp <= {f4_tcp[7:0], f4_tcp[15:8]};
        in_csum_udp <= {f4_udp[7:0], f4_udp[15:8]};
    end
end

// what the parser's result means here (incw_rx)
wire encap = p_result == 2'd0 && p_proto == 8'd253;
// a broken IP header is ours to drop only if it says 253
wire bad_ip_ours = p_result == 2'd2 && {6'd0, p_l3_off} + 14'd10 <= fr_len &&
                   ((ip_vn == 4'd4 && ip_b9 == 8'd253) ||
                    (ip_vn == 4'd6 && ip_b6 == 8'd253));

// The chains H_P4 waits for, started in H_P3 (hc_go), when hreg (the take),
// the parse (H_P1), the fields and the bounds (H_P2) and the chunk's
// counts (H_P3) are final. Each ends in a valid at the clock its last
// register loads: the IPv4 header's sum less its field, folded, and its
// check (ip4_ok: ip4_fold_v); the pseudo-header addresses' sum (addr_sum:
// addr_sum_v); the chunk's bound and the lengths, one adder a clock, and
// their checks (chunk_ok, lens_ok: ck3).
wire hc_go = h_state == H_P3;

// the bounds in the header, from the parse (H_P2): the pseudo-header's
// addresses, the end of the IPv4 header (XO's hs_ip4n uses it too)
reg  [7:0]  addr_lo = 0, addr_hi = 0, ip4_hi = 0;
always @(posedge clk) begin
    if (h_state == H_P2) begin
        addr_lo <= p_ip_ver == 4'd4 ? p_l3_off + 8'd12 : p_l3_off + 8'd8;
        addr_hi <= p_ip_ver == 4'd4 ? p_l3_off + 8'd20 : p_l3_off + 8'd40;
        ip4_hi <= p_l3_off + p_ip_hlen;
    end
end
// the IPv4 header's sum (checksum field as 0) and the addresses' sum
wire [22:0] ip4_sum, addr_sum;
wire        ip4_sum_v, addr_sum_v;
nic_hsum hs_ip4 (.clk(clk), .rst(rst), .hdr(hreg), .lo(p_l3_off), .hi(ip4_hi),
                 .in_valid(hc_go), .sum(ip4_sum), .sum_valid(ip4_sum_v));
nic_hsum hs_addr (.clk(clk), .rst(rst), .hdr(hreg), .lo(addr_lo), .hi(addr_hi),
                  .in_valid(hc_go), .sum(addr_sum), .sum_valid(addr_sum_v));

// H_P3: the chunk header's groups and the body's start; then (ck1..ck3),
// one adder a clock: the chunk's bound (codec.md, section 6: raw_len + 2 bytes a
// group of 8, + a byte per 8 groups in sparse mode; section 12, width
// mode: raw_len + 3 bytes a group of 16 + a byte per 128 values) and the
// body's end, positions in the frame (17 bits: range_off can be large);
// the clock after: the checks on them
wire [13:0] c_n = ch_raw[15:2];
wire [13:0] c_groups = {3'd0, c_n[13:3]} + {13'd0, c_n[2:0] != 3'd0};
wire [9:0]  c_g16 = c_n[13:4] + {9'd0, c_n[3:0] != 4'd0};
wire [6:0]  c_g128 = c_n[13:7] + {6'd0, c_n[6:0] != 7'd0};
reg  [13:0] c_groups_r = 0;
reg  [9:0]  c_g16_r = 0;
reg  [6:0]  c_g128_r = 0;
reg  [16:0] c_part = 0;      // raw_len + 2 bytes a group (of 8; width: of 16)
reg  [10:0] c_extra = 0;     // sparse mode's mask bytes; width mode's
wire [16:0] body_at_c = {9'd0, p_l4_off} + 17'd16 + {9'd0, sh_l4len} + {1'b0, sh_off};
reg  [16:0] body_at_w = 0;   // body_at_c, whole
wire [15:0] ip4_fold;
wire        ip4_fold_v;
// (the field taken out a clock ahead of the fold)
reg  [31:0] ip4_acc = 0;
reg         ip4_acc_v = 1'b0;
always @(posedge clk) begin
    ip4_acc_v <= ip4_sum_v;
    if (ip4_sum_v)
        ip4_acc <= {9'd0, ip4_sum} - {16'd0, ip4_field};
    if (rst)
        ip4_acc_v <= 1'b0;
end
nic_fold fold_ip4 (.clk(clk), .rst(rst), .acc(ip4_acc), .in_valid(ip4_acc_v),
                   .folded(ip4_fold), .out_valid(ip4_fold_v));
// the bound's and the lengths' steps
reg         ck1 = 1'b0, ck2 = 1'b0, ck3 = 1'b0;
always @(posedge clk) begin
    ck1 <= hc_go;
    ck2 <= ck1;
    ck3 <= ck2;
    if (rst) begin
        ck1 <= 1'b0;
        ck2 <= 1'b0;
        ck3 <= 1'b0;
    end
end

reg  [16:0] c_bound = 0, body_end = 0, new_end = 0;
reg  [14:0] body_at = 0;     // (the bits used)
reg  [15:0] tail = 0;
reg         shim_ok = 1'b0, seg_ok = 1'b0;
reg         chunk_ok = 1'b0, lens_ok = 1'b0, ip4_ok = 1'b0;

always @(posedge clk) begin
    if (h_state == H_P3) begin
        c_groups_r <= c_groups;
        c_g16_r <= c_g16;
        c_g128_r <= c_g128;
        body_at <= body_at_c[14:0];
        body_at_w <= body_at_c;
        // l4_off + l4len + off + raw + tail, the terms that cancel taken out
        new_end <= {3'd0, p_ip_end} + {1'b0, ch_raw} - {1'b0, ch_body} - 17'd16;
        shim_ok <= sh_magic == 8'h49 && sh_ver == 8'h10 &&
                   ((sh_proto == 8'd17 && sh_l4len == 8'd8) ||
                    (sh_proto == 8'd6 && sh_l4len >= 8'd20 && sh_l4len <= 8'd60 &&
                     sh_l4len[1:0] == 2'd0 && {2'd0, in_doff, 2'd0} == sh_l4len));
        seg_ok <= p_ip_end - {6'd0, p_l4_off} >= 14'd16;
    end
    if (ck1) begin
        c_part <= (ch_mode == 8'd3 ? {6'd0, c_g16_r, 1'b0} : {2'd0, c_groups_r, 1'b0}) +
                  {1'b0, ch_raw};
        c_extra <= ch_mode == 8'd2 ? c_groups_r[13:3] + {10'd0, c_groups_r[2:0] != 3'd0} :
                   ch_mode == 8'd3 ? {1'b0, c_g16_r} + {4'd0, c_g128_r} : 11'd0;
        body_end <= body_at_w + {1'b0, ch_body};
    end
    if (ck2) begin
        c_bound <= c_part + {6'd0, c_extra};
        tail <= {2'd0, p_ip_end} - body_end[15:0];
    end
    if (ck3) begin
        chunk_ok <= (ch_mode == 8'd1 || ch_mode == 8'd2 || (WIDTH_OK && ch_mode == 8'd3)) &&
                    ch_k >= 8'd1 && ch_k <= 8'd24 &&
                    ch_rsvd == 0 && ch_raw <= 16'd9000 && ch_raw != 0 &&
                    {1'b0, ch_body} <= c_bound;
        lens_ok <= body_end <= {3'd0, p_ip_end} && new_end <= 17'd9018;
    end
    // the IPv4 checksum's check, from hs_ip4's sum
    if (ip4_fold_v)
        ip4_ok <= p_ip_ver != 4'd4 || ~ip4_fold == ip4_field;
end

wire hdr_ok = !p_fragment && seg_ok && shim_ok && chunk_ok && lens_ok;

// what X needs of the checks' positions, from the parse on: the checksum
// pass's windows (stream offsets from l4_off: the L4 header and the
// payload before the range; the payload after it), the segment's length
// (sh_* are taken in H_P2, new_end in H_P3, body_end in ck1)
reg  [13:0] hp_end = 0, suf_start = 0;
reg  [15:0] seg_in = 0;
// and the restored frame's lengths: the IP total length, the IPv6 payload
// length, the segment's
reg  [15:0] ip_total = 0, plen6 = 0, seg_out = 0;
always @(posedge clk) begin
    if (ck1) begin
        ip_total <= new_end[15:0] - {8'd0, p_l3_off};
        seg_out <= new_end[15:0] - {8'd0, p_l4_off};
        hp_end <= 14'd16 + {6'd0, sh_l4len} + sh_off[13:0];
        seg_in <= {2'd0, p_ip_end} - {8'd0, p_l4_off};
    end
    if (ck2) begin
        plen6 <= ip_total - 16'd40;
        suf_start <= body_end[13:0] - {6'd0, p_l4_off};
    end
end

// the three chains' ends (all three: H_PARSE next)
wire h_all;
nic_join #(.N(3)) h_join (
    .clk(clk), .rst(rst), .clear(hc_go), .valid({ip4_fold_v, addr_sum_v, ck3}), .all(h_all)
);

// the outcome H hands X
wire [1:0] h_kind = bad_ip_ours ? K_DROP :
                    !encap ? K_PLAIN :
                    !ip4_ok || !hdr_ok ? K_DROP : K_RESTORE;

// ---- the record ------------------------------------------------------------------

assign m_valid = h_state == H_PARSE;
assign m_hdr = hreg;
wire [HR_W-1:0] rec = {h_kind, fr_start, fr_len, p_l3_off, p_l4_off, p_ip_ver,
                       sh_proto, sh_l4len, sh_off, sh_csum,
                       ch_mode[1:0], ch_k[4:0], ch_raw, ch_body, in_csum,
                       body_at, body_end[14:0], tail, new_end[13:0], addr_sum,
                       ip4_hi, seg_in, hp_end, suf_start, ip_total, plen6, seg_out};
assign m_info = rec;

// ---- the state machine -------------------------------------------------------

always @(posedge clk) begin
    case (h_state)
    H_IDLE: begin
        if (s_valid) begin
            fr_start <= s_start;
            fr_len <= s_len;
            hreg <= hdr_mask(s_hdr, s_len);
            h_state <= H_P1;
        end
    end
    H_P1: h_state <= H_P2;      // the parse is taken (nic_hdr_parse_reg)
    H_P2: h_state <= H_P3;
    H_P3: h_state <= H_P4;      // (hc_go starts the chains)
    H_P4: begin
        // the chains' results are in their registers from the next clock
        if (h_all)
            h_state <= H_PARSE;
    end
    H_PARSE: begin
        // the record, until it is taken
        if (m_ready)
            h_state <= H_IDLE;
    end
    default: h_state <= H_IDLE;
    endcase

    if (rst)
        h_state <= H_IDLE;
end

endmodule

`resetall
