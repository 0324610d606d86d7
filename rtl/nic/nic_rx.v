// SPDX-License-Identifier: MIT
/*
 * nic_rx: the receive engine. Frames from the MAC are stored in a 32 KiB
 * ring as they arrive; the engine then takes them one at a time and
 * delivers each to a buffer of the RX ring (docs/regmap.md) as
 * incw_rx() of userspace/wire says (docs/wire-format.md):
 *
 *   - a frame that is not encapsulated (not IP protocol 253) bit-exact;
 *   - an encapsulated frame restored: IP header patched back, the original
 *     L4 header with a recomputed checksum, the payload with the chunk body
 *     decoded by inc_decompressor;
 *   - a malformed encapsulated frame nowhere: dropped and counted.
 *
 * Then it writes the descriptor's length and status and advances CONS.
 * Checksums are verified and recomputed from sums taken in pieces in their
 * own alignment, as in nic_tx.
 *
 * Three stages after the ring, each on its own frame, in order:
 *
 *   H  head: the header (its first 160 bytes, captured into a header RAM
 *      as the frame came in), its parse and checks, the outcome as a
 *      record for X (NH of them)
 *   X  examine and restore: for an encapsulated frame, the checksum pass
 *      and the body through the decompressor into one of NRX slots of the
 *      range RAM, at once (two readers of the ring); the checks; the
 *      restored header block; the outcome as a record for W (NRX of them)
 *   W  deliver: the next RX descriptor (read ahead, up to ND of them), the
 *      frame written to its buffer (nic_assembler), the descriptor's length
 *      and status, CONS; or the drop, counted. A frame leaves the ring when
 *      W is done with it.
 *
 * The ring RAM has a copy for each reader (X's two, W's one).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_rx #
(
    // codec lanes (8 or 16): 32-bit values per beat; the beat, the DMA and
    // MAC data buses and the RAM words are 32 LANES bits
    parameter LANES = 8,
    // the beat in bits and bytes, and log2 of its bytes (derived: leave them)
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire          clk,
    input  wire          rst,

    input  wire          rx_en,
    input  wire [63:0]   rxq_base,
    input  wire [3:0]    rxq_size,
    input  wire [15:0]   rxq_prod,
    output reg  [15:0]   rxq_cons = 0,
    input  wire [13:0]   max_frame,

    // frames in (from the MAC, or TX in loopback)
    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [BB-1:0] s_axis_tkeep,
    input  wire          s_axis_tvalid,
    input  wire          s_axis_tlast,
    input  wire          s_axis_tuser,
    // room for a whole frame of MAX_FRAME bytes now, even if one ended a
    // clock ago (internal loopback holds TX frames back until then)
    output reg           s_frame_room = 1'b0,

    output wire          rd_req_valid,
    input  wire          rd_req_ready,
    output wire [63:0]   rd_req_addr,
    output wire [15:0]   rd_req_len,
    input  wire [79:0]   rd_data,      // the descriptor's first 10 bytes
    input  wire          rd_valid,
    output wire          rd_ready,

    output wire          wr_req_valid,
    input  wire          wr_req_ready,
    output wire [63:0]   wr_req_addr,
    output wire [15:0]   wr_req_len,
    output wire [DATA_W-1:0] wr_data,
    output wire [BB-1:0] wr_keep,
    output wire          wr_last,
    output wire          wr_valid,
    input  wire          wr_ready,
    input  wire          wr_done,

    output reg           event_done = 1'b0,
    output wire          idle,
    // statistics increments (docs/regmap.md, counters 8..17)
    output reg  [159:0]  stat_inc = 0
);

`include "nic_beat_fns.vh"

localparam RING_AW = 15 - BS;            // ring words (a beat each): 32 KiB
localparam [RING_AW:0] RING_WORDS = 1 << RING_AW;
// words of the header RAM (a frame's first 160 bytes are kept)
localparam NHW = (160 + BB - 1) / BB;
localparam [2:0] NHW3 = NHW[2:0];

// ---- ingress: MAC -> ring ----------------------------------------------

reg  [RING_AW:0] in_wptr = 0;            // words, one bit past the ring
reg  [RING_AW:0] free_ptr = 0;
reg  [RING_AW:0] f_start = 0;
reg  [13:0] f_bytes = 0;
reg         f_over = 1'b0;               // no room: the ring is full
reg         f_long = 1'b0;               // longer than MAX_FRAME

// frames waiting: start word and length
reg  [RING_AW-1:0] q_start [0:15];
reg  [13:0] q_len [0:15];
reg  [3:0]  q_wp = 0, q_rp = 0;
reg  [4:0]  q_cnt = 0;
// H takes frames from h_rp on; W pops them (q_rp) when it is done
reg  [3:0]  h_rp = 0;
reg  [4:0]  h_cnt = 0;          // frames queued that H has not taken
wire        h_take;
// the frame's beats so far, up to NHW (the header RAM's words); a header
// beat that found the queue full (its entry not free): the frame is dropped
reg  [2:0]  f_beat = 0;
reg         f_nohdr = 1'b0;

wire [RING_AW:0] used = in_wptr - free_ptr;
wire        room = used < RING_WORDS;
wire [BS:0] beat_bytes = ones_k(s_axis_tkeep);
wire [14:0] bytes_next = {1'b0, f_bytes} + {{(14 - BS){1'b0}}, beat_bytes};
// this beat is written, and this last beat ends a frame that is kept
wire        beat_in = s_axis_tvalid && !f_over && !f_long && room && rx_en;
wire        frame_bad = s_axis_tuser || f_long || bytes_next > {1'b0, max_frame} ||
                        bytes_next == 0;
wire        frame_nobuf = f_over || !room || !rx_en || q_cnt == 5'd16 || f_nohdr;
// the beat goes into the header RAM too (entry q_wp is free while the
// queue is not full)
wire        hdr_in = beat_in && f_beat != NHW3;
wire        hdr_we = hdr_in && q_cnt != 5'd16;
wire        push_frame = s_axis_tvalid && s_axis_tlast && !frame_bad && !frame_nobuf;

// (a clock late, so with a beat and a frame to spare: 2 + ceil(MAX_FRAME / BB)
// words, two queue entries)
always @(posedge clk)
    s_frame_room <= {{(15 - RING_AW){1'b0}}, used} + {{(2 + BS){1'b0}}, max_frame[13:BS]} +
                    16'd3 <= {{(15 - RING_AW){1'b0}}, RING_WORDS} && q_cnt < 5'd15;

reg         r_we = 1'b0;
reg  [RING_AW-1:0] r_waddr = 0;
reg  [DATA_W-1:0] r_wdata = 0;
wire        pop_frame;                   // from the processing side
wire [RING_AW:0] pop_words;

// ingress counters, merged into stat_inc below
reg         i_frame = 1'b0, i_drop_mac = 1'b0, i_drop_buf = 1'b0;
reg  [13:0] i_bytes = 0;

always @(posedge clk) begin
    r_we <= 1'b0;
    i_frame <= 1'b0;
    i_drop_mac <= 1'b0;
    i_drop_buf <= 1'b0;
    i_bytes <= 0;
    if (s_axis_tvalid) begin
        if (beat_in) begin
            r_we <= 1'b1;
            r_waddr <= in_wptr[RING_AW-1:0];
            r_wdata <= s_axis_tdata;
            in_wptr <= in_wptr + 1'b1;
        end
        if (hdr_in) begin
            f_beat <= f_beat + 3'd1;
            if (!hdr_we)
                f_nohdr <= 1'b1;
        end
        if (!room || !rx_en)
            f_over <= 1'b1;
        if (bytes_next > {1'b0, max_frame})
            f_long <= 1'b1;
        f_bytes <= bytes_next[14] ? 14'h3fff : bytes_next[13:0];
        if (s_axis_tlast) begin
            i_frame <= 1'b1;
            i_bytes <= bytes_next[14] ? 14'h3fff : bytes_next[13:0];
            if (frame_bad) begin
                i_drop_mac <= 1'b1;
                in_wptr <= f_start;
            end else if (frame_nobuf) begin
                i_drop_buf <= 1'b1;
                in_wptr <= f_start;
            end else begin
                q_start[q_wp] <= f_start[RING_AW-1:0];
                q_len[q_wp] <= bytes_next[13:0];
                q_wp <= q_wp + 4'd1;
                f_start <= in_wptr + {{RING_AW{1'b0}}, beat_in};
            end
            f_bytes <= 0;
            f_over <= 1'b0;
            f_long <= 1'b0;
            f_beat <= 0;
            f_nohdr <= 1'b0;
        end
    end
    q_cnt <= q_cnt + {4'd0, push_frame} - {4'd0, pop_frame};
    h_cnt <= h_cnt + {4'd0, push_frame} - {4'd0, h_take};
    if (h_take)
        h_rp <= h_rp + 4'd1;
    if (pop_frame) begin
        q_rp <= q_rp + 4'd1;
        free_ptr <= free_ptr + pop_words;
    end
    if (rst) begin
        in_wptr <= 0;
        free_ptr <= 0;
        f_start <= 0;
        f_bytes <= 0;
        f_over <= 1'b0;
        f_long <= 1'b0;
        f_beat <= 0;
        f_nohdr <= 1'b0;
        q_wp <= 0;
        q_rp <= 0;
        q_cnt <= 0;
        h_rp <= 0;
        h_cnt <= 0;
    end
end

// ---- the header RAM: a frame's first five beats, by queue entry -----------

wire         hr_re;
wire [NHW*DATA_W-1:0] hr_rdata;

genvar hi;
generate
    for (hi = 0; hi < NHW; hi = hi + 1) begin : hram
        nic_ram #(.WIDTH(DATA_W), .ADDR_W(4)) ram (
            .clk(clk), .we(hdr_we && f_beat == hi), .waddr(q_wp),
            .wdata(s_axis_tdata),
            .re(hr_re), .raddr(h_rp), .rdata(hr_rdata[DATA_W*hi +: DATA_W])
        );
    end
    if (NHW * DATA_W > 1280) begin : hram_past
        wire unused_hram = ^hr_rdata[NHW*DATA_W-1:1280];     // past 160 bytes
    end
endgenerate

// ---- the ring RAM (A, K: X's copies, AW: W's) and the decoded-range RAM (B) --

wire         a_re, ak_re, aw_re;
wire [RING_AW-1:0] a_raddr, ak_raddr, aw_raddr;
wire [DATA_W-1:0]  a_rdata, ak_rdata, aw_rdata;

nic_ram #(.WIDTH(DATA_W), .ADDR_W(RING_AW)) ram_a (
    .clk(clk), .we(r_we), .waddr(r_waddr), .wdata(r_wdata),
    .re(a_re), .raddr(a_raddr), .rdata(a_rdata)
);
nic_ram #(.WIDTH(DATA_W), .ADDR_W(RING_AW)) ram_k (
    .clk(clk), .we(r_we), .waddr(r_waddr), .wdata(r_wdata),
    .re(ak_re), .raddr(ak_raddr), .rdata(ak_rdata)
);
nic_ram #(.WIDTH(DATA_W), .ADDR_W(RING_AW)) ram_aw (
    .clk(clk), .we(r_we), .waddr(r_waddr), .wdata(r_wdata),
    .re(aw_re), .raddr(aw_raddr), .rdata(aw_rdata)
);

// records: NH frames between H and X
localparam [15:0] NH = 16'd2;
reg  [15:0]  h_idx = 0;         // records H wrote
reg  [15:0]  xh_idx = 0;        // records X took
wire         h_slot = h_idx[0];
wire         xh_slot = xh_idx[0];

// records: NRX frames between X and W, each with a slot of 16 KiB of the
// range RAM
localparam XS_W = 2;
localparam [15:0] NRX = 16'd1 << XS_W;
localparam BW_W = 14 - BS;      // words of a slot, log2
reg  [15:0]  x_idx = 0;         // records X wrote (the frame in X has the next)
reg  [15:0]  w_idx = 0;         // records W is done with
wire [XS_W-1:0] x_slot = x_idx[XS_W-1:0];
wire [XS_W-1:0] w_slot = w_idx[XS_W-1:0];

reg          b_we = 1'b0;
reg  [BW_W+XS_W-1:0] b_waddr = 0;
reg  [DATA_W-1:0] b_wdata = 0;
wire         b_re;
wire [BW_W+XS_W-1:0] b_raddr;
wire [DATA_W-1:0] b_rdata;

nic_ram #(.WIDTH(DATA_W), .ADDR_W(BW_W + XS_W)) ram_b (
    .clk(clk), .we(b_we), .waddr(b_waddr), .wdata(b_wdata),
    .re(b_re), .raddr(b_raddr), .rdata(b_rdata)
);

// ===========================================================================
// H: the header, its parse and checks
// ===========================================================================

localparam [2:0] H_IDLE = 3'd0, H_LOAD = 3'd1, H_P1 = 3'd2, H_P2 = 3'd3,
                 H_P3 = 3'd4, H_P4 = 3'd5, H_PARSE = 3'd6;

reg  [2:0]    h_state = H_IDLE;
reg  [2:0]    p_wait = 0;        // clocks in H_P4
reg  [RING_AW-1:0] fr_start = 0; // ring word of the frame
reg  [13:0]   fr_len = 0;
reg  [1279:0] hreg = 0;

// H takes the next frame when a record slot for X is free
wire [15:0] h_ahead = h_idx - xh_idx;
assign h_take = h_state == H_IDLE && h_cnt != 0 && h_ahead < NH;
assign hr_re = h_take;

// the header RAM's words, the bytes past the frame's end cleared: what the
// frame's first min(len, 160) bytes are, zeros after them
function [1279:0] hdr_mask;
    input [1279:0] d;
    input [13:0]   len;
    integer b;
    begin
        for (b = 0; b < 160; b = b + 1)
            hdr_mask[8*b +: 8] = {18'd0, len} > b ? d[8*b +: 8] : 8'd0;
    end
endfunction

// The header's fields and what follows from them are registered over
// seven clocks once the header is in (H_P1..H_P3, then H_P4 for six clocks
// while the IPv4 header's sum is checked), each a few LUT levels deep
// (docs/rtl.md, "Logic depth"); they stay until the next frame's header.

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

function [7:0] byte_at;
    input [1279:0] h;
    input [7:0]    at;
    begin
        byte_at = h[{at, 3'd0} +: 8];
    end
endfunction

function [3:0] hi_nibble_at;
    input [1279:0] h;
    input [7:0]    at;
    begin
        hi_nibble_at = h[{at, 3'd4} +: 4];
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
wire [7:0]  in_l4 = p_l4_off + 8'd16;              // the carried L4 header
wire [15:0] in_csum = sh_proto == 8'd6 ? in_csum_tcp : in_csum_udp;

always @(posedge clk) begin
    if (h_state == H_P2) begin
        ip_vn <= hi_nibble_at(hreg, p_l3_off);
        ip_b6 <= byte_at(hreg, p_l3_off + 8'd6);
        ip_b9 <= byte_at(hreg, p_l3_off + 8'd9);
        ip4_field <= {byte_at(hreg, p_l3_off + 8'd10), byte_at(hreg, p_l3_off + 8'd11)};
        sh_magic <= byte_at(hreg, p_l4_off);
        sh_ver <= byte_at(hreg, p_l4_off + 8'd1);
        sh_proto <= byte_at(hreg, p_l4_off + 8'd2);
        sh_l4len <= byte_at(hreg, p_l4_off + 8'd3);
        sh_off <= {byte_at(hreg, p_l4_off + 8'd4), byte_at(hreg, p_l4_off + 8'd5)};
        sh_csum <= {byte_at(hreg, p_l4_off + 8'd6), byte_at(hreg, p_l4_off + 8'd7)};
        ch_mode <= byte_at(hreg, p_l4_off + 8'd8);
        ch_k <= byte_at(hreg, p_l4_off + 8'd9);
        ch_raw <= {byte_at(hreg, p_l4_off + 8'd11), byte_at(hreg, p_l4_off + 8'd10)};
        ch_body <= {byte_at(hreg, p_l4_off + 8'd13), byte_at(hreg, p_l4_off + 8'd12)};
        ch_rsvd <= {byte_at(hreg, p_l4_off + 8'd15), byte_at(hreg, p_l4_off + 8'd14)};
        in_doff <= hi_nibble_at(hreg, in_l4 + 8'd12);
        in_csum_tcp <= {byte_at(hreg, in_l4 + 8'd16), byte_at(hreg, in_l4 + 8'd17)};
        in_csum_udp <= {byte_at(hreg, in_l4 + 8'd6), byte_at(hreg, in_l4 + 8'd7)};
    end
end

// what the parser's result means here (incw_rx)
wire encap = p_result == 2'd0 && p_proto == 8'd253;
// a broken IP header is ours to drop only if it says 253
wire bad_ip_ours = p_result == 2'd2 && {6'd0, p_l3_off} + 14'd10 <= fr_len &&
                   ((ip_vn == 4'd4 && ip_b9 == 8'd253) ||
                    (ip_vn == 4'd6 && ip_b6 == 8'd253));

// the IPv4 header's sum (checksum field as 0) and the pseudo-header
// addresses' sum: nic_hsum, 3 clocks after the header and the bounds
// settle (the bounds a clock after the parse, H_P2): there in H_P4's
// fourth clock (H_P4 waits; hs_ip4n uses ip4_hi later)
reg  [7:0]  addr_lo = 0, addr_hi = 0, ip4_hi = 0;
always @(posedge clk) begin
    addr_lo <= p_ip_ver == 4'd4 ? p_l3_off + 8'd12 : p_l3_off + 8'd8;
    addr_hi <= p_ip_ver == 4'd4 ? p_l3_off + 8'd20 : p_l3_off + 8'd40;
    ip4_hi <= p_l3_off + p_ip_hlen;
end
wire [22:0] ip4_sum, addr_sum;
nic_hsum hs_ip4 (.clk(clk), .hdr(hreg), .lo(p_l3_off), .hi(ip4_hi), .sum(ip4_sum));
nic_hsum hs_addr (.clk(clk), .hdr(hreg), .lo(addr_lo), .hi(addr_hi), .sum(addr_sum));

// H_P3: the chunk header's bound (codec.md, section 6), positions in the
// frame (17 bits: range_off can be large), the IPv4 checksum folded;
// H_P4: the checks on them
wire [13:0] c_n = ch_raw[15:2];
wire [13:0] c_groups = {3'd0, c_n[13:3]} + {13'd0, c_n[2:0] != 3'd0};
wire [16:0] c_bound_c = {2'd0, c_groups, 1'b0} + {1'b0, c_n, 2'd0} + {15'd0, ch_raw[1:0]} +
                        (ch_mode == 8'd2 ? {6'd0, c_groups[13:3]} +
                         {16'd0, c_groups[2:0] != 3'd0} : 17'd0);
wire [16:0] body_at_c = {9'd0, p_l4_off} + 17'd16 + {9'd0, sh_l4len} + {1'b0, sh_off};
wire [16:0] body_end_c = body_at_c + {1'b0, ch_body};
wire [15:0] ip4_fold;
// (the field taken out a clock ahead of the fold, which takes 2)
reg  [31:0] ip4_acc = 0;
always @(posedge clk)
    ip4_acc <= {9'd0, ip4_sum} - {16'd0, ip4_field};
nic_fold fold_ip4 (.clk(clk), .acc(ip4_acc), .folded(ip4_fold));

reg  [16:0] c_bound = 0, body_end = 0, new_end = 0;
reg  [14:0] body_at = 0;     // (the bits used)
reg  [15:0] tail = 0;
reg         shim_ok = 1'b0, seg_ok = 1'b0;
reg         chunk_ok = 1'b0, lens_ok = 1'b0, ip4_ok = 1'b0;

always @(posedge clk) begin
    if (h_state == H_P3) begin
        c_bound <= c_bound_c;
        body_at <= body_at_c[14:0];
        body_end <= body_end_c;
        tail <= {2'd0, p_ip_end} - body_end_c[15:0];
        // l4_off + l4len + off + raw + tail, the terms that cancel taken out
        new_end <= {3'd0, p_ip_end} + {1'b0, ch_raw} - {1'b0, ch_body} - 17'd16;
        shim_ok <= sh_magic == 8'h49 && sh_ver == 8'h10 &&
                   ((sh_proto == 8'd17 && sh_l4len == 8'd8) ||
                    (sh_proto == 8'd6 && sh_l4len >= 8'd20 && sh_l4len <= 8'd60 &&
                     sh_l4len[1:0] == 2'd0 && {2'd0, in_doff, 2'd0} == sh_l4len));
        seg_ok <= p_ip_end - {6'd0, p_l4_off} >= 14'd16;
    end
    if (h_state == H_P4) begin
        chunk_ok <= (ch_mode == 8'd1 || ch_mode == 8'd2) && ch_k >= 8'd1 && ch_k <= 8'd24 &&
                    ch_rsvd == 0 && ch_raw <= 16'd9000 && ch_raw != 0 &&
                    {1'b0, ch_body} <= c_bound;
        lens_ok <= body_end <= {3'd0, p_ip_end} && new_end <= 17'd9018;
    end
    // the IPv4 checksum's check, from hs_ip4's sum (H_P4 waits for it)
    ip4_ok <= p_ip_ver != 4'd4 || ~ip4_fold == ip4_field;
end

wire hdr_ok = !p_fragment && seg_ok && shim_ok && chunk_ok && lens_ok;

// what X needs of the checks' positions, from the parse on: the checksum
// pass's windows (stream offsets from l4_off: the L4 header and the
// payload before the range; the payload after it), the segment's length
// (sh_* are taken in H_P2, body_end in H_P3: all settled by H_PARSE)
reg  [13:0] hp_end = 0, suf_start = 0;
reg  [15:0] seg_in = 0;
always @(posedge clk) begin
    hp_end <= 14'd16 + {6'd0, sh_l4len} + sh_off[13:0];
    suf_start <= body_end[13:0] - {6'd0, p_l4_off};
    seg_in <= {2'd0, p_ip_end} - {8'd0, p_l4_off};
end

// the outcome H hands X
localparam [1:0] K_PLAIN = 2'd0, K_DROP = 2'd1, K_RESTORE = 2'd2;
wire [1:0] h_kind = bad_ip_ours ? K_DROP :
                    !encap ? K_PLAIN :
                    !ip4_ok || !hdr_ok ? K_DROP : K_RESTORE;

// ---- H's records, for X ------------------------------------------------------

localparam HR_W = 2 + RING_AW + 14 + 8 + 8 + 4 + 8 + 8 + 16 + 16 + 2 + 5 + 16 + 16 +
                  16 + 15 + 15 + 16 + 16 + 23 + 8 + 16 + 14 + 14;
reg  [1279:0]   hr_hreg [0:1];
reg  [HR_W-1:0] hr_info [0:1];
wire [HR_W-1:0] h_info = {h_kind, fr_start, fr_len, p_l3_off, p_l4_off, p_ip_ver,
                          sh_proto, sh_l4len, sh_off, sh_csum,
                          ch_mode[1:0], ch_k[4:0], ch_raw, ch_body, in_csum,
                          body_at, body_end[14:0], tail, new_end[15:0], addr_sum,
                          ip4_hi, seg_in, hp_end, suf_start};

// ---- H's state machine -------------------------------------------------------

always @(posedge clk) begin
    case (h_state)
    H_IDLE: begin
        // (the header RAM is read: hr_re)
        if (h_take) begin
            fr_start <= q_start[h_rp];
            fr_len <= q_len[h_rp];
            h_state <= H_LOAD;
        end
    end
    H_LOAD: begin
        hreg <= hdr_mask(hr_rdata[1279:0], fr_len);
        h_state <= H_P1;
    end
    H_P1: h_state <= H_P2;      // the parse is taken (nic_hdr_parse_reg)
    H_P2: h_state <= H_P3;
    H_P3: begin
        p_wait <= 0;
        h_state <= H_P4;
    end
    H_P4: begin
        // 6 clocks: hs_ip4's sum, less the field (ip4_acc), its fold (2)
        // and its check (ip4_ok)
        p_wait <= p_wait + 3'd1;
        if (p_wait == 3'd5)
            h_state <= H_PARSE;
    end
    H_PARSE: begin
        hr_hreg[h_slot] <= hreg;
        hr_info[h_slot] <= h_info;
        h_idx <= h_idx + 16'd1;
        h_state <= H_IDLE;
    end
    default: h_state <= H_IDLE;
    endcase

    if (rst) begin
        h_state <= H_IDLE;
        h_idx <= 0;
    end
end

// ===========================================================================
// X: checksum pass and decompression, checks, the restored header block
// ===========================================================================

localparam [3:0] X_IDLE = 4'd0, X_DECIDE = 4'd1, X_GO = 4'd2, X_RUN = 4'd3,
                 X_WAIT = 4'd4, X_CHECK = 4'd5, X_B3 = 4'd6, X_BUILD = 4'd7,
                 X_REC = 4'd8;

reg  [3:0]    x_state = X_IDLE;
// X_WAIT: x_wait + 1 clocks, then x_next
reg  [2:0]    x_wait = 0;
reg  [3:0]    x_next = X_IDLE;
reg           restore = 1'b0;    // an encapsulated frame being restored
reg           drop_bad = 1'b0;   // malformed (else: no buffer)
reg  [13:0]   out_len = 0;

// H's record, as X took it
reg  [1:0]    x_kind = K_PLAIN;
reg  [RING_AW-1:0] x_fr_start = 0;
reg  [13:0]   x_fr_len = 0;
reg  [7:0]    x_l3_off = 0, x_l4_off = 0;
reg  [3:0]    x_ip_ver = 0;
reg  [7:0]    x_sh_proto = 0, x_sh_l4len = 0;
reg  [15:0]   x_sh_off = 0, x_sh_csum = 0;
reg  [1:0]    x_ch_mode = 0;
reg  [4:0]    x_ch_k = 0;
reg  [15:0]   x_ch_raw = 0, x_ch_body = 0, x_in_csum = 0;
reg  [14:0]   x_body_at = 0;
reg  [14:0]   x_body_end = 0;
reg  [15:0]   x_new_end = 0;
reg  [15:0]   x_tail = 0;
reg  [22:0]   x_addr_sum = 0;
reg  [7:0]    x_ip4_hi = 0;
reg  [15:0]   x_seg_in = 0;
reg  [13:0]   x_hp_end = 0, x_suf_start = 0;
reg  [1279:0] x_hreg = 0;

// X takes the next record when one of W's record slots is free
wire [15:0] x_ahead = x_idx - w_idx;
wire        x_take = x_state == X_IDLE && h_idx != xh_idx && x_ahead < NRX;

// byte address in the ring of frame offset o
wire [14:0] fbase = {x_fr_start, {BS{1'b0}}};

// ---- reader A (ring): the decompressor's feed; reader K: the checksum pass --

reg  [14:0]  ra_start = 0, rk_start = 0;
reg  [15:0]  ra_len = 0, rk_len = 0;
wire         ra_ready, rk_ready;
wire [DATA_W-1:0] ra_tdata, rk_tdata;
wire [BB-1:0] ra_tkeep, rk_tkeep;
wire         ra_tvalid, ra_tlast, rk_tvalid, rk_tlast;
wire         ra_tready;
wire         d_s_tready;
// both start together, each idle by then (the frame before has left them)
wire         rx_go = x_state == X_GO && ra_ready && rk_ready;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(RING_AW)) rd_a (
    .clk(clk), .rst(rst),
    .start_valid(rx_go), .start_ready(ra_ready),
    .start_addr(ra_start), .start_len(ra_len),
    .ram_re(a_re), .ram_raddr(a_raddr), .ram_rdata(a_rdata),
    .m_axis_tdata(ra_tdata), .m_axis_tkeep(ra_tkeep), .m_axis_tvalid(ra_tvalid),
    .m_axis_tready(ra_tready), .m_axis_tlast(ra_tlast),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tlen()
    /* verilator lint_on PINCONNECTEMPTY */
);

assign ra_tready = x_state == X_RUN && d_s_tready;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(RING_AW)) rd_k (
    .clk(clk), .rst(rst),
    .start_valid(rx_go), .start_ready(rk_ready),
    .start_addr(rk_start), .start_len(rk_len),
    .ram_re(ak_re), .ram_raddr(ak_raddr), .ram_rdata(ak_rdata),
    .m_axis_tdata(rk_tdata), .m_axis_tkeep(rk_tkeep), .m_axis_tvalid(rk_tvalid),
    .m_axis_tready(x_state == X_RUN), .m_axis_tlast(rk_tlast),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tlen()
    /* verilator lint_on PINCONNECTEMPTY */
);

// W's readers: the ring, for the payload around the range; B, the range
wire         as_rda_valid, as_rdb_valid;
wire [14:0]  as_rda_addr;
wire [13+XS_W:0] as_rdb_addr;
wire [15:0]  as_rda_len, as_rdb_len;
wire         as_rda_tready, as_rdb_tready;

wire         rw_ready;
wire [DATA_W-1:0] rw_tdata;
wire         rw_tvalid, rw_tlast;
wire [BS:0]  rw_tlen;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(RING_AW)) rd_w (
    .clk(clk), .rst(rst),
    .start_valid(as_rda_valid), .start_ready(rw_ready),
    .start_addr(as_rda_addr), .start_len(as_rda_len),
    .ram_re(aw_re), .ram_raddr(aw_raddr), .ram_rdata(aw_rdata),
    .m_axis_tdata(rw_tdata),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tkeep(),   // (the assembler counts bytes by tlen)
    /* verilator lint_on PINCONNECTEMPTY */
    .m_axis_tvalid(rw_tvalid), .m_axis_tready(as_rda_tready),
    .m_axis_tlast(rw_tlast), .m_axis_tlen(rw_tlen)
);

wire         rb_ready;
wire [DATA_W-1:0] rb_tdata;
wire         rb_tvalid, rb_tlast;
wire [BS:0]  rb_tlen;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(BW_W + XS_W)) rd_b (
    .clk(clk), .rst(rst),
    .start_valid(as_rdb_valid), .start_ready(rb_ready),
    .start_addr(as_rdb_addr), .start_len(as_rdb_len),
    .ram_re(b_re), .ram_raddr(b_raddr), .ram_rdata(b_rdata),
    .m_axis_tdata(rb_tdata),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tkeep(),   // (the assembler counts bytes by tlen)
    /* verilator lint_on PINCONNECTEMPTY */
    .m_axis_tvalid(rb_tvalid),
    .m_axis_tready(as_rdb_tready), .m_axis_tlast(rb_tlast), .m_axis_tlen(rb_tlen)
);

// ---- checksum pass over [l4_off, ip_end): all, L4 header + prefix, suffix --
// (stream offsets: the pass starts at l4_off; nic_csum_acc's sums are
// there 4 clocks after the last beat)
wire [31:0] sum_all, sum_hp, sum_suf;
wire        cs_start = x_state == X_DECIDE;
wire        cs_beat = x_state == X_RUN && rk_tvalid;

nic_csum_acc #(.DATA_W(DATA_W)) sum_all_b (
    .clk(clk), .start(cs_start), .lo(14'd0), .hi(14'h3fff),
    .beat(cs_beat), .data(rk_tdata), .keep(rk_tkeep), .sum(sum_all)
);
nic_csum_acc #(.DATA_W(DATA_W)) sum_hp_b (
    .clk(clk), .start(cs_start), .lo(14'd16), .hi(x_hp_end),
    .beat(cs_beat), .data(rk_tdata), .keep(rk_tkeep), .sum(sum_hp)
);
nic_csum_acc #(.DATA_W(DATA_W)) sum_suf_b (
    .clk(clk), .start(cs_start), .lo(x_suf_start), .hi(14'h3fff),
    .beat(cs_beat), .data(rk_tdata), .keep(rk_tkeep), .sum(sum_suf)
);

// the shim's checksum: summed a clock after sum_all settles, folded 2
// later (X_CHECK compares, 7 clocks or more after the pass's last beat)
reg  [31:0] shim_acc = 0;
always @(posedge clk)
    shim_acc <= sum_all - {16'd0, x_sh_csum} + {9'd0, x_addr_sum} + 32'd253 +
                {16'd0, x_seg_in};
wire [15:0] shim_fold;
nic_fold fold_shim (.clk(clk), .acc(shim_acc), .folded(shim_fold));
wire shim_csum_ok = ~shim_fold == x_sh_csum;

// ---- the decompressor -------------------------------------------------------

wire [DATA_W-1:0] d_tdata;
wire [BB-1:0] d_tkeep;
wire         d_tvalid, d_tlast;
wire [0:0]   d_tuser;
wire         d_status_valid, d_status_error;
reg  [BW_W-1:0] b_wptr = 0;
wire [31:0]  range_sum;
reg          dec_err = 1'b0;
reg          dec_out_done = 1'b0, dec_in_done = 1'b0;
reg          cs_done = 1'b0;     // the checksum pass's last beat was summed

inc_decompressor #(.LANES(LANES)) decomp (
    .clk(clk), .rst(rst),
    .s_axis_tdata({{DATA_W{1'b0}}, ra_tdata}), .s_axis_tkeep({{BB{1'b0}}, ra_tkeep}),
    .s_axis_tvalid(x_state == X_RUN && ra_tvalid), .s_axis_tready(d_s_tready),
    .s_axis_tlast(ra_tlast),
    .s_axis_tuser({x_ch_raw[13:0], x_ch_mode, x_ch_k}),
    .m_axis_tdata(d_tdata), .m_axis_tkeep(d_tkeep), .m_axis_tvalid(d_tvalid),
    .m_axis_tready(x_state == X_RUN), .m_axis_tlast(d_tlast), .m_axis_tuser(d_tuser),
    .status_valid(d_status_valid), .status_error(d_status_error)
);

// the restored range's sum, over the beats as they are written (X_DECIDE
// starts it; there 4 clocks after the last beat, folded 2 later)
wire rng_beat = x_state == X_RUN && d_tvalid && !dec_out_done;

nic_csum_acc #(.DATA_W(DATA_W)) sum_range (
    .clk(clk), .start(x_state == X_DECIDE), .lo(14'd0), .hi(14'h3fff),
    .beat(rng_beat), .data(d_tdata), .keep(d_tkeep), .sum(range_sum)
);

// ---- the restored headers ----------------------------------------------------

// X_CHECK: the folded sums taken; then (3 clocks) the L4 checksum's sum and
// its fold; X_B3: the checksum
wire [15:0] f_hp, f_suf, f_range;
// the carried L4 checksum taken out of the header and prefix's sum, a
// register ahead of its fold
reg  [31:0] hp_acc = 0;
always @(posedge clk)
    hp_acc <= sum_hp - {16'd0, x_in_csum};
nic_fold fold_hp (.clk(clk), .acc(hp_acc), .folded(f_hp));
nic_fold fold_suf (.clk(clk), .acc(sum_suf), .folded(f_suf));
nic_fold fold_range (.clk(clk), .acc(range_sum), .folded(f_range));
reg  [15:0] f_hp_r = 0, range_sw = 0, suf_sw = 0;
// lengths of the restored frame, from new_end, a register each (there two
// clocks after X took the record)
reg  [15:0] seg_out = 0;
reg  [31:0] l4_acc = 0;
wire [15:0] l4_fold;
nic_fold fold_l4 (.clk(clk), .acc(l4_acc), .folded(l4_fold));
wire        udp_none = x_sh_proto == 8'd17 && x_ip_ver == 4'd4 && x_in_csum == 16'd0;
reg  [15:0] l4_c = 0;
reg  [15:0] ip_total = 0, plen6 = 0;

always @(posedge clk) begin
    seg_out <= x_new_end - {8'd0, x_l4_off};
    ip_total <= x_new_end - {8'd0, x_l3_off};
    plen6 <= ip_total - 16'd40;
end

always @(posedge clk) begin
    if (x_state == X_CHECK) begin
        f_hp_r <= f_hp;
        range_sw <= x_sh_off[0] ? {f_range[7:0], f_range[15:8]} : f_range;
        suf_sw <= x_ch_body[0] ^ x_ch_raw[0] ? {f_suf[7:0], f_suf[15:8]} : f_suf;
    end
    l4_acc <= {9'd0, x_addr_sum} + {24'd0, x_sh_proto} + {16'd0, seg_out} +
              {16'd0, f_hp_r} + {16'd0, range_sw} + {16'd0, suf_sw};
    if (x_state == X_B3) begin
        l4_c <= udp_none ? 16'd0 :
                (~l4_fold == 16'd0 && x_sh_proto == 8'd17 ? 16'hffff : ~l4_fold);
    end
end
wire [7:0]    out_csum_rel = x_sh_proto == 8'd6 ? 8'd16 : 8'd6;
wire [7:0]    l4_hdr_end = x_l4_off + x_sh_l4len;
wire [1279:0] hb_next;

// the restored header block, byte by byte: the frame's bytes up to l4_off
// (the IP header patched back: length, protocol; IPv4 checksum 0 for now),
// then the carried L4 header, which is the frame's bytes 16 places on,
// with its new checksum
genvar j;
generate
    for (j = 0; j < 160; j = j + 1) begin : hbyte
        wire [7:0] jj = j;
        wire [7:0] rel = jj - x_l3_off;
        wire [7:0] l4_i = jj - x_l4_off;
        reg  [7:0] v;
        always @* begin
            if (jj < x_l4_off) begin
                v = x_hreg[8*j +: 8];
                if (x_ip_ver == 4'd4) begin
                    case (rel)
                    8'd2: v = ip_total[15:8];
                    8'd3: v = ip_total[7:0];
                    8'd9: v = x_sh_proto;
                    8'd10, 8'd11: v = 8'd0;
                    default: ;
                    endcase
                end else begin
                    case (rel)
                    8'd4: v = plen6[15:8];
                    8'd5: v = plen6[7:0];
                    8'd6: v = x_sh_proto;
                    default: ;
                    endcase
                end
            end else if (jj < l4_hdr_end) begin
                v = j + 16 < 160 ? x_hreg[8*(j+16 < 160 ? j+16 : 0) +: 8] : 8'd0;
                if (l4_i == out_csum_rel)
                    v = l4_c[15:8];
                if (l4_i == out_csum_rel + 8'd1)
                    v = l4_c[7:0];
            end else begin
                v = 8'd0;
            end
        end
        assign hb_next[8*j +: 8] = v;
    end
endgenerate

// hb takes hb_next while the body is decompressed (its IP header is final
// by then: it does not depend on the L4 checksum), so the restored IPv4
// header's sum (3 clocks) and fold (2) are there long before X_BUILD,
// which takes hb_next once more, with the L4 checksum, and writes the IPv4
// checksum into it
reg  [1279:0] hb = 0;
reg  [7:0]    hb_len = 0;
wire [22:0]   ip4n_sum;
nic_hsum hs_ip4n (.clk(clk), .hdr(hb), .lo(x_l3_off), .hi(x_ip4_hi), .sum(ip4n_sum));
wire [15:0]   ip4n_fold;
nic_fold fold_ip4n (.clk(clk), .acc({9'd0, ip4n_sum}), .folded(ip4n_fold));
wire [15:0]   ip4n_c = ~ip4n_fold;

// ---- X's records, for W ------------------------------------------------------

// the assembler's inputs (header block length, 0 for a frame as it came;
// the pieces: payload before the range and after it in the ring, the
// range in this record's slot of the range RAM), what W writes back and
// counts, the frame's words in the ring, and whether X dropped it
localparam XR_W = 8 + 16 * 5 + 14 + 1 + 1 + RING_AW + 1 + 16 + 16;
reg  [1279:0]   xr_hb [0:NRX-1];
reg  [XR_W-1:0] xr_info [0:NRX-1];
wire [14:0]  pre_at = fbase + x_body_at - {1'b0, x_sh_off[13:0]};
wire [14:0]  suf_at = fbase + x_body_end;
wire [RING_AW:0] frame_words = {1'b0, x_fr_len[13:BS]} +
                               {{RING_AW{1'b0}}, x_fr_len[BS-1:0] != 0};
wire [XR_W-1:0] x_info = {restore ? hb_len : 8'd0,
                          restore ? {1'b0, pre_at} : {1'b0, fbase},
                          restore ? x_sh_off : {2'd0, x_fr_len},
                          restore ? x_ch_raw : 16'd0,
                          {1'b0, suf_at},
                          restore ? x_tail : 16'd0,
                          out_len, restore, drop_bad, frame_words, x_ch_body,
                          x_ch_raw};

// ---- X's state machine -------------------------------------------------------

always @(posedge clk) begin
    b_we <= 1'b0;

    case (x_state)
    X_IDLE: begin
        if (x_take) begin
            {x_kind, x_fr_start, x_fr_len, x_l3_off, x_l4_off, x_ip_ver,
             x_sh_proto, x_sh_l4len, x_sh_off, x_sh_csum, x_ch_mode, x_ch_k,
             x_ch_raw, x_ch_body, x_in_csum, x_body_at, x_body_end, x_tail,
             x_new_end, x_addr_sum, x_ip4_hi, x_seg_in, x_hp_end, x_suf_start} <=
                hr_info[xh_slot];
            x_hreg <= hr_hreg[xh_slot];
            xh_idx <= xh_idx + 16'd1;
            x_state <= X_DECIDE;
        end
    end
    X_DECIDE: begin
        // (the sums restart: cs_start)
        restore <= 1'b0;
        drop_bad <= x_kind == K_DROP;
        out_len <= x_fr_len;
        if (x_kind != K_RESTORE) begin
            x_state <= X_REC;
        end else begin
            ra_start <= fbase + x_body_at;
            ra_len <= x_ch_body;
            rk_start <= fbase + {7'd0, x_l4_off};
            rk_len <= x_seg_in;
            b_wptr <= 0;
            dec_err <= 1'b0;
            dec_out_done <= 1'b0;
            dec_in_done <= 1'b0;
            cs_done <= 1'b0;
            x_state <= X_GO;
        end
    end
    X_GO: begin
        // both readers take their ranges (rx_go)
        if (rx_go)
            x_state <= X_RUN;
    end
    X_RUN: begin
        // the pass's beats are summed (cs_beat); all of the body goes in
        // (a bad one is drained by the engine), and the chunk comes out,
        // or its error beat
        hb <= hb_next;
        if (rk_tvalid && rk_tlast)
            cs_done <= 1'b1;
        if (ra_tvalid && ra_tready && ra_tlast)
            dec_in_done <= 1'b1;
        // (the engine reports an error twice: status, and tuser on tlast)
        if (d_status_valid && d_status_error)
            dec_err <= 1'b1;
        if (d_tvalid && !dec_out_done) begin
            b_we <= 1'b1;
            b_waddr <= {x_slot, b_wptr};
            b_wdata <= d_tdata;
            b_wptr <= b_wptr + 1'b1;
            // summed (rng_beat)
            if (d_tlast) begin
                if (d_tuser[0])
                    dec_err <= 1'b1;
                dec_out_done <= 1'b1;
            end
        end
        if (cs_done && dec_out_done && (dec_in_done || ra_ready)) begin
            // the sums settle (4 clocks after the last beats) and are
            // folded (2 more; the shim's a clock later): X_CHECK in 6
            x_wait <= 3'd4;
            x_next <= X_CHECK;
            x_state <= X_WAIT;
        end
    end
    X_WAIT: begin
        x_wait <= x_wait - 3'd1;
        if (x_wait == 0)
            x_state <= x_next;
    end
    X_CHECK: begin
        if (!shim_csum_ok || dec_err) begin
            drop_bad <= 1'b1;
            x_state <= X_REC;
        end else begin
            // (the folded sums are taken) the L4 checksum's sum, a
            // clock later, and its fold: X_B3 in 4
            x_wait <= 3'd2;
            x_next <= X_B3;
            x_state <= X_WAIT;
        end
    end
    X_B3: x_state <= X_BUILD;   // (the L4 checksum: l4_c)
    X_BUILD: begin
        restore <= 1'b1;
        hb <= hb_next;
        if (x_ip_ver == 4'd4) begin
            // (the IP header starts at byte 14, 18 or 22)
            case (x_l3_off)
            8'd14: hb[8*24 +: 16] <= {ip4n_c[7:0], ip4n_c[15:8]};
            8'd18: hb[8*28 +: 16] <= {ip4n_c[7:0], ip4n_c[15:8]};
            default: hb[8*32 +: 16] <= {ip4n_c[7:0], ip4n_c[15:8]};
            endcase
        end
        hb_len <= l4_hdr_end;
        out_len <= x_new_end[13:0];
        x_state <= X_REC;
    end
    X_REC: begin
        // the outcome, for W
        xr_hb[x_slot] <= hb;
        xr_info[x_slot] <= x_info;
        x_idx <= x_idx + 16'd1;
        x_state <= X_IDLE;
    end
    default: x_state <= X_IDLE;
    endcase

    if (rst) begin
        x_state <= X_IDLE;
        x_idx <= 0;
        xh_idx <= 0;
        b_we <= 1'b0;
    end
end

// ===========================================================================
// W: descriptors, delivery
// ===========================================================================

// ---- descriptors, read ahead --------------------------------------------------

wire [11:0] ring_mask = ~(12'hfff << rxq_size);
wire        unused_base = ^rxq_base[3:0];   // below the descriptor size
// D reads descriptors from d_fidx on into a FIFO of ND, as long as PROD is
// ahead of it and frames in the ring have none yet (a descriptor is read
// once a frame has come for it, not before, so it is read as it was when
// that frame came); W takes the FIFO's head. d_cnt: fetched (or being
// fetched) and not used yet, so d_fidx = CONS + d_cnt. What was read ahead
// is read again after a frame found the head's buffer too small (the
// driver may have posted it before it was ready, or the read may have
// failed: bus mastering off) and when RX is turned off (the ring may
// change then).
localparam [2:0] ND = 3'd4;
reg  [15:0] d_fidx = 0;
reg  [2:0]  d_cnt = 0;
reg  [2:0]  d_avail = 0;            // in the FIFO
reg  [1:0]  d_wp = 0, d_rp = 0;
reg  [59:0] df_slot [0:3];          // the descriptor's address / 16
reg  [63:0] df_buf [0:3];
reg  [15:0] df_len [0:3];
// the address of descriptor d_fidx, BASE's bits below the descriptor size
// ignored (docs/regmap.md), in two clocks (the low 32 bits and their
// carry, then the high ones): slot_fresh once both have followed d_fidx
reg  [32:0] slot_lo = 0;
reg  [63:0] slot_addr = 0;
reg  [1:0]  slot_age = 0;
wire        slot_fresh = slot_age == 2'd2;
wire        unused_slot = ^slot_addr[3:0];  // (0: 16-byte descriptors)
always @(posedge clk) begin
    slot_lo <= {1'b0, rxq_base[31:4], 4'd0} + {17'd0, d_fidx[11:0] & ring_mask, 4'd0};
    slot_addr <= {rxq_base[63:32] + {31'd0, slot_lo[32]}, slot_lo[31:0]};
end

localparam [1:0] D_IDLE = 2'd0, D_REQ = 2'd1, D_WAIT = 2'd2;
reg  [1:0]  d_state = D_IDLE;
reg  [59:0] d_req_slot = 0;
wire        d_used;                 // W is done with the head (CONS moves)
wire        w_holds;                // W is using the head
wire        w_small;                // the head's buffer is too small for W's frame
reg         d_flush = 1'b0;         // read again from CONS, once D is idle
wire        d_fetch = d_state == D_IDLE && rx_en && rxq_prod != d_fidx &&
                      d_cnt != ND && {2'd0, d_cnt} < q_cnt && slot_fresh &&
                      !d_flush;

// the head, for W
wire [59:0] d_slot = df_slot[d_rp];
wire [63:0] d_buf = df_buf[d_rp];
wire [15:0] d_buf_len = df_len[d_rp];

assign rd_req_valid = d_state == D_REQ;
assign rd_req_addr = {d_req_slot, 4'd0};
assign rd_req_len = 16'd16;
assign rd_ready = d_state == D_WAIT;

always @(posedge clk) begin
    if (!slot_fresh)
        slot_age <= slot_age + 2'd1;
    case (d_state)
    D_IDLE: begin
        // (once up, a request stays until taken, whatever RX_EN or PROD
        // do meanwhile)
        if (d_fetch) begin
            d_req_slot <= slot_addr[63:4];
            d_fidx <= d_fidx + 16'd1;
            slot_age <= 0;
            d_state <= D_REQ;
        end
    end
    D_REQ: begin
        if (rd_req_ready)
            d_state <= D_WAIT;
    end
    D_WAIT: begin
        if (rd_valid) begin
            df_slot[d_wp] <= d_req_slot;
            df_buf[d_wp] <= rd_data[63:0];
            df_len[d_wp] <= rd_data[79:64];
            d_wp <= d_wp + 2'd1;
            d_state <= D_IDLE;
        end
    end
    default: d_state <= D_IDLE;
    endcase
    d_cnt <= d_cnt + {2'd0, d_fetch} - {2'd0, d_used};
    d_avail <= d_avail + {2'd0, d_state == D_WAIT && rd_valid} - {2'd0, d_used};
    if (d_used)
        d_rp <= d_rp + 2'd1;
    // what was read ahead goes, but for the head if W is using it
    if (w_small)
        d_flush <= 1'b1;
    if ((!rx_en || d_flush) && d_state == D_IDLE) begin
        d_wp <= d_rp + {1'b0, w_holds};
        d_avail <= {2'd0, w_holds && !d_used};
        d_cnt <= {2'd0, w_holds && !d_used};
        d_fidx <= rxq_cons + {15'd0, w_holds};
        slot_age <= 0;
        d_flush <= 1'b0;
    end
    if (rst) begin
        d_flush <= 1'b0;
        d_state <= D_IDLE;
        d_fidx <= 0;
        d_cnt <= 0;
        d_avail <= 0;
        d_wp <= 0;
        d_rp <= 0;
        slot_age <= 0;
    end
end

// W's record
wire [7:0]  w_hb_len;
wire [15:0] w_seg0_start, w_seg0_len, w_seg1_len, w_seg2_start, w_seg2_len;
wire [13:0] w_out_len;
wire        w_restore, w_bad;
wire [RING_AW:0] w_words;
wire [15:0] w_body, w_raw;
assign {w_hb_len, w_seg0_start, w_seg0_len, w_seg1_len, w_seg2_start, w_seg2_len,
        w_out_len, w_restore, w_bad, w_words, w_body, w_raw} = xr_info[w_slot];

// ---- W: the assembler ---------------------------------------------------------

localparam [3:0] W_IDLE = 4'd0, W_DESC = 4'd2, W_WREQ = 4'd3,
                 W_WDATA = 4'd4, W_DWREQ = 4'd5, W_DWDATA = 4'd6, W_DONE = 4'd7,
                 W_DROP = 4'd8;
reg  [3:0]   w_state = W_IDLE;
reg          w_drop_bad = 1'b0;
reg  [1:0]   dones = 0;

reg          as_go = 1'b0;
wire         as_done, as_busy;
wire [DATA_W-1:0] o_tdata;
wire [BB-1:0] o_tkeep;
wire         o_tvalid, o_tlast;

nic_assembler #(.DATA_W(DATA_W), .A_AW(RING_AW + BS), .B_AW(14 + XS_W)) asm_rx (
    .clk(clk), .rst(rst),
    .go(as_go), .busy(as_busy), .done(as_done),
    .hb(xr_hb[w_slot]), .hb_len(w_hb_len),
    .seg_b(3'b010),
    .seg0_start(w_seg0_start), .seg0_len(w_seg0_len),
    .seg1_start({w_slot, 14'd0}), .seg1_len(w_seg1_len),
    .seg2_start(w_seg2_start), .seg2_len(w_seg2_len),
    .rda_start_valid(as_rda_valid), .rda_start_ready(rw_ready),
    .rda_start_addr(as_rda_addr), .rda_start_len(as_rda_len),
    .rda_tdata(rw_tdata), .rda_tvalid(rw_tvalid),
    .rda_tready(as_rda_tready), .rda_tlast(rw_tlast), .rda_tlen(rw_tlen),
    .rdb_start_valid(as_rdb_valid), .rdb_start_ready(rb_ready),
    .rdb_start_addr(as_rdb_addr), .rdb_start_len(as_rdb_len),
    .rdb_tdata(rb_tdata), .rdb_tvalid(rb_tvalid),
    .rdb_tready(as_rdb_tready), .rdb_tlast(rb_tlast), .rdb_tlen(rb_tlen),
    .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
    .m_axis_tready(wr_ready && w_state == W_WDATA), .m_axis_tlast(o_tlast)
);

// ---- DMA writes ---------------------------------------------------------------

assign d_used = w_state == W_DONE && dones == 2'd2;
assign w_holds = w_state == W_WREQ || w_state == W_WDATA || w_state == W_DWREQ ||
                 w_state == W_DWDATA || w_state == W_DONE;
assign w_small = w_state == W_DESC && d_avail != 0 && !d_flush &&
                 d_buf_len < {2'd0, w_out_len};

wire have_buf = rx_en && rxq_prod != rxq_cons;

assign wr_req_valid = w_state == W_WREQ || w_state == W_DWREQ;
assign wr_req_addr = w_state == W_WREQ ? d_buf : {d_slot, 4'd8};
assign wr_req_len = w_state == W_WREQ ? {2'd0, w_out_len} : 16'd8;
wire [63:0] desc_wb = {1'b1, w_restore, 30'd0, 2'd0, w_out_len, d_buf_len};
assign wr_data = w_state == W_WDATA ? o_tdata : {{(DATA_W - 64){1'b0}}, desc_wb};
assign wr_keep = w_state == W_WDATA ? o_tkeep : {{(BB - 8){1'b0}}, 8'hff};
assign wr_last = w_state == W_WDATA ? o_tlast : 1'b1;
assign wr_valid = (w_state == W_WDATA && o_tvalid) || w_state == W_DWDATA;

// the frame leaves the ring when W has delivered or dropped it
assign pop_frame = (w_state == W_DONE && dones == 2'd2) || w_state == W_DROP;
assign pop_words = w_words;

// no frame queued, being received (a beat coming in counts: the first of a
// frame, or a one-beat frame, is in no register yet), processed or
// delivered, no descriptor being read
assign idle = h_state == H_IDLE && x_state == X_IDLE && w_state == W_IDLE &&
              d_state == D_IDLE && q_cnt == 0 && !as_busy && h_idx == xh_idx &&
              x_idx == w_idx && f_bytes == 0 && !s_axis_tvalid;

// ---- W's state machine -----------------------------------------------------------

always @(posedge clk) begin
    as_go <= 1'b0;
    event_done <= 1'b0;
    stat_inc <= 0;
    // ingress counters
    stat_inc[15:0] <= {15'd0, i_frame};                    // rx_frames
    stat_inc[31:16] <= {2'd0, i_bytes};                    // rx_bytes
    stat_inc[111:96] <= {15'd0, i_drop_buf};               // rx_drop_no_buffer
    stat_inc[127:112] <= {15'd0, i_drop_mac};              // rx_drop_mac

    case (w_state)
    W_IDLE: begin
        if (x_idx != w_idx) begin
            // dropped by X as malformed; or without a buffer: no buffer
            w_drop_bad <= w_bad;
            w_state <= w_bad || !have_buf ? W_DROP : W_DESC;
        end
    end
    W_DESC: begin
        // D reads it, if it has not yet; a buffer too small is not used
        // (w_small: it is read again for the next frame)
        if (d_avail != 0 && !d_flush)
            w_state <= w_small ? W_DROP : W_WREQ;
    end
    W_WREQ: begin
        dones <= 0;
        if (wr_req_ready) begin
            as_go <= 1'b1;
            w_state <= W_WDATA;
        end
    end
    W_WDATA: begin
        if (wr_done)
            dones <= dones + 2'd1;
        if (as_done)
            w_state <= W_DWREQ;
    end
    W_DWREQ: begin
        if (wr_done)
            dones <= dones + 2'd1;
        if (wr_req_ready)
            w_state <= W_DWDATA;
    end
    W_DWDATA: begin
        if (wr_done)
            dones <= dones + 2'd1;
        if (wr_ready)
            w_state <= W_DONE;
    end
    W_DONE: begin
        if (wr_done)
            dones <= dones + 2'd1;
        if (dones == 2'd2) begin
            rxq_cons <= rxq_cons + 16'd1;
            event_done <= 1'b1;
            stat_inc[143:128] <= 16'd1;                    // rx_delivered
            stat_inc[159:144] <= {2'd0, w_out_len};        // rx_delivered_bytes
            if (w_restore) begin
                stat_inc[47:32] <= 16'd1;                  // rx_decomp_frames
                stat_inc[63:48] <= w_body;                 // rx_decomp_in_bytes
                stat_inc[79:64] <= w_raw;                  // rx_decomp_out_bytes
            end
            w_idx <= w_idx + 16'd1;
            w_state <= W_IDLE;
        end
    end
    W_DROP: begin
        if (w_drop_bad)
            stat_inc[95:80] <= 16'd1;                      // rx_drop_malformed
        else
            stat_inc[111:96] <= {15'd0, i_drop_buf} + 16'd1; // rx_drop_no_buffer
        w_idx <= w_idx + 16'd1;
        w_state <= W_IDLE;
    end
    default: w_state <= W_IDLE;
    endcase

    if (rst) begin
        w_state <= W_IDLE;
        w_idx <= 0;
        rxq_cons <= 0;
    end
end

endmodule

`resetall
