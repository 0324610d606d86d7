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
 * Two stages after the ring, each on its own frame, in order:
 *
 *   X  examine: the header's parse and checks, the checksum pass, the body
 *      through the decompressor into one of two slots of the range RAM,
 *      the restored header block; the outcome as a record (NRX of them)
 *   W  deliver: the next RX descriptor, the frame written to its buffer
 *      (nic_assembler), the descriptor's length and status, CONS; or the
 *      drop, counted. A frame leaves the ring when W is done with it.
 *
 * The ring RAM has a copy for each stage's reader.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_rx
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
    input  wire [255:0]  s_axis_tdata,
    input  wire [31:0]   s_axis_tkeep,
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
    output wire [255:0]  wr_data,
    output wire [31:0]   wr_keep,
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

localparam RING_AW = 10;                 // ring words (32 bytes): 32 KiB
localparam [10:0] RING_WORDS = 11'd1024;

// ---- ingress: MAC -> ring ----------------------------------------------

reg  [10:0] in_wptr = 0;                 // words, one bit past the ring
reg  [10:0] free_ptr = 0;
reg  [10:0] f_start = 0;
reg  [13:0] f_bytes = 0;
reg         f_over = 1'b0;               // no room: the ring is full
reg         f_long = 1'b0;               // longer than MAX_FRAME

// frames waiting: start word and length
reg  [9:0]  q_start [0:15];
reg  [13:0] q_len [0:15];
reg  [3:0]  q_wp = 0, q_rp = 0;
reg  [4:0]  q_cnt = 0;
// X takes frames from x_rp on; W pops them (q_rp) when it is done
reg  [3:0]  x_rp = 0;
reg  [4:0]  x_cnt = 0;          // frames queued that X has not taken
wire        x_take;

wire [10:0] used = in_wptr - free_ptr;
wire        room = used < RING_WORDS;
wire [5:0]  beat_bytes = ones32(s_axis_tkeep);
wire [14:0] bytes_next = {1'b0, f_bytes} + {9'd0, beat_bytes};
// this beat is written, and this last beat ends a frame that is kept
wire        beat_in = s_axis_tvalid && !f_over && !f_long && room && rx_en;
wire        frame_bad = s_axis_tuser || f_long || bytes_next > {1'b0, max_frame} ||
                        bytes_next == 0;
wire        frame_nobuf = f_over || !room || !rx_en || q_cnt == 5'd16;
wire        push_frame = s_axis_tvalid && s_axis_tlast && !frame_bad && !frame_nobuf;

// (a clock late, so with a beat and a frame to spare: 2 + ceil(MAX_FRAME / 32)
// words, two queue entries)
always @(posedge clk)
    s_frame_room <= {1'b0, used} + {3'd0, max_frame[13:5]} + 12'd3 <= {1'b0, RING_WORDS} &&
                    q_cnt < 5'd15;

reg         r_we = 1'b0;
reg  [9:0]  r_waddr = 0;
reg  [255:0] r_wdata = 0;
wire        pop_frame;                   // from the processing side
wire [10:0] pop_words;

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
            r_waddr <= in_wptr[9:0];
            r_wdata <= s_axis_tdata;
            in_wptr <= in_wptr + 11'd1;
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
                q_start[q_wp] <= f_start[9:0];
                q_len[q_wp] <= bytes_next[13:0];
                q_wp <= q_wp + 4'd1;
                f_start <= in_wptr + {10'd0, beat_in};
            end
            f_bytes <= 0;
            f_over <= 1'b0;
            f_long <= 1'b0;
        end
    end
    q_cnt <= q_cnt + {4'd0, push_frame} - {4'd0, pop_frame};
    x_cnt <= x_cnt + {4'd0, push_frame} - {4'd0, x_take};
    if (x_take)
        x_rp <= x_rp + 4'd1;
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
        q_wp <= 0;
        q_rp <= 0;
        q_cnt <= 0;
        x_rp <= 0;
        x_cnt <= 0;
    end
end

// ---- the ring RAM (A: X's copy, AW: W's) and the decoded-range RAM (B) ------

wire         a_re, aw_re;
wire [9:0]   a_raddr, aw_raddr;
wire [255:0] a_rdata, aw_rdata;

nic_ram #(.WIDTH(256), .ADDR_W(RING_AW)) ram_a (
    .clk(clk), .we(r_we), .waddr(r_waddr), .wdata(r_wdata),
    .re(a_re), .raddr(a_raddr), .rdata(a_rdata)
);
nic_ram #(.WIDTH(256), .ADDR_W(RING_AW)) ram_aw (
    .clk(clk), .we(r_we), .waddr(r_waddr), .wdata(r_wdata),
    .re(aw_re), .raddr(aw_raddr), .rdata(aw_rdata)
);

// records: NRX frames between X and W, each with a slot of the range RAM
localparam NRX = 2;
reg  [15:0]  x_idx = 0;         // records X wrote (the frame in X has the next)
reg  [15:0]  w_idx = 0;         // records W is done with
wire         x_slot = x_idx[0];
wire         w_slot = w_idx[0];

reg          b_we = 1'b0;
reg  [9:0]   b_waddr = 0;
reg  [255:0] b_wdata = 0;
wire         b_re;
wire [9:0]   b_raddr;
wire [255:0] b_rdata;

nic_ram #(.WIDTH(256), .ADDR_W(10)) ram_b (
    .clk(clk), .we(b_we), .waddr(b_waddr), .wdata(b_wdata),
    .re(b_re), .raddr(b_raddr), .rdata(b_rdata)
);

// ---- the frame being processed ----------------------------------------------

localparam [4:0] R_IDLE = 5'd0, R_HDR_GO = 5'd1, R_HDR = 5'd2,
                 R_PARSE = 5'd3, R_CSUM_GO = 5'd4, R_CSUM = 5'd5,
                 R_CHECK = 5'd6, R_DEC_GO = 5'd7, R_DEC = 5'd8,
                 R_BUILD1 = 5'd9, R_BUILD2 = 5'd10, R_REC = 5'd11,
                 R_P1 = 5'd19, R_P2 = 5'd20,
                 R_P3 = 5'd21, R_P4 = 5'd22, R_CHK0 = 5'd23,
                 R_B1 = 5'd24, R_B2 = 5'd25, R_B3 = 5'd26, R_IP4 = 5'd27,
                 R_CS_END = 5'd28, R_CS_END2 = 5'd29, R_B0 = 5'd30;

reg  [4:0]    state = R_IDLE;
reg  [2:0]    p_wait = 0;        // clocks in R_P4, R_CHK0, R_B0, R_B2, R_IP4
reg  [9:0]    fr_start = 0;      // ring word of the frame
reg  [13:0]   fr_len = 0;
reg  [1279:0] hreg = 0;
reg  [2:0]    hdr_word = 0;
reg           restore = 1'b0;    // an encapsulated frame being restored
reg           drop_bad = 1'b0;   // malformed (else: no buffer)
reg  [13:0]   out_len = 0;

// no frame queued, being received (a beat coming in counts: the first of a
// frame, or a one-beat frame, is in no register yet) or processed
assign idle = state == R_IDLE && w_state == W_IDLE && q_cnt == 0 && !as_busy &&
              x_idx == w_idx && f_bytes == 0 && !s_axis_tvalid;

// The header's fields and what follows from them are registered over seven
// clocks once the header is in (R_P1..R_P3, then R_P4 for four clocks while
// the IPv4 header's sum is checked), each a few LUT levels deep
// (docs/rtl.md, "Logic depth"); they stay until the next frame's header.

// R_P1: the parser's results
wire [1:0]   p_result;
wire [7:0]   p_l3_off, p_ip_hlen, p_proto, p_l4_off;
wire [3:0]   p_ip_ver;
wire [13:0]  p_ip_end;
wire         p_fragment;

nic_hdr_parse_reg parse (
    .clk(clk), .en(state == R_P1),
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

// R_P2: the fields the receive rules read, at the parsed offsets
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
    if (state == R_P2) begin
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
// settle (the bounds a clock after the parse, R_P2): there from R_P5 on
// (R_P4 waits; hs_ip4n uses ip4_hi later)
reg  [7:0]  addr_lo = 0, addr_hi = 0, ip4_hi = 0;
always @(posedge clk) begin
    addr_lo <= p_ip_ver == 4'd4 ? p_l3_off + 8'd12 : p_l3_off + 8'd8;
    addr_hi <= p_ip_ver == 4'd4 ? p_l3_off + 8'd20 : p_l3_off + 8'd40;
    ip4_hi <= p_l3_off + p_ip_hlen;
end
wire [22:0] ip4_sum, addr_sum;
nic_hsum hs_ip4 (.clk(clk), .hdr(hreg), .lo(p_l3_off), .hi(ip4_hi), .sum(ip4_sum));
nic_hsum hs_addr (.clk(clk), .hdr(hreg), .lo(addr_lo), .hi(addr_hi), .sum(addr_sum));

// R_P3: the chunk header's bound (codec.md, section 6), positions in the
// frame (17 bits: range_off can be large), the IPv4 checksum folded;
// R_P4: the checks on them
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
    if (state == R_P3) begin
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
    if (state == R_P4) begin
        chunk_ok <= (ch_mode == 8'd1 || ch_mode == 8'd2) && ch_k >= 8'd1 && ch_k <= 8'd24 &&
                    ch_rsvd == 0 && ch_raw <= 16'd9000 && ch_raw != 0 &&
                    {1'b0, ch_body} <= c_bound;
        lens_ok <= body_end <= {3'd0, p_ip_end} && new_end <= 17'd9018;
    end
    // the IPv4 checksum's check, from hs_ip4's sum (R_P4 waits for it)
    ip4_ok <= p_ip_ver != 4'd4 || ~ip4_fold == ip4_field;
end

wire hdr_ok = !p_fragment && seg_ok && shim_ok && chunk_ok && lens_ok;

// ---- reader A (ring): header, checksum pass, decompressor feed, send ------

reg          ra_go = 1'b0;
reg  [14:0]  ra_start = 0;
reg  [15:0]  ra_len = 0;
wire         ra_ready;
wire [255:0] ra_tdata;
wire [31:0]  ra_tkeep;
wire         ra_tvalid, ra_tlast;
wire         ra_tready;

wire         as_rda_valid, as_rdb_valid;
wire [14:0]  as_rda_addr;
wire [14:0]  as_rdb_addr;
wire [15:0]  as_rda_len, as_rdb_len;
wire         as_rda_tready, as_rdb_tready;
wire         d_s_tready;

nic_rd_stream #(.ADDR_W(RING_AW)) rd_a (
    .clk(clk), .rst(rst),
    .start_valid(ra_go), .start_ready(ra_ready),
    .start_addr(ra_start), .start_len(ra_len),
    .ram_re(a_re), .ram_raddr(a_raddr), .ram_rdata(a_rdata),
    .m_axis_tdata(ra_tdata), .m_axis_tkeep(ra_tkeep), .m_axis_tvalid(ra_tvalid),
    .m_axis_tready(ra_tready), .m_axis_tlast(ra_tlast),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tlen()
    /* verilator lint_on PINCONNECTEMPTY */
);

assign ra_tready = state == R_DEC ? d_s_tready :
                   (state == R_HDR || state == R_CSUM);

// W's reader of the ring, for the assembler
wire         rw_ready;
wire [255:0] rw_tdata;
wire         rw_tvalid, rw_tlast;
wire [5:0]   rw_tlen;

nic_rd_stream #(.ADDR_W(RING_AW)) rd_w (
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
wire [255:0] rb_tdata;
wire         rb_tvalid, rb_tlast;
wire [5:0]   rb_tlen;

nic_rd_stream #(.ADDR_W(10)) rd_b (
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

// byte address in the ring of frame offset o
wire [14:0] fbase = {fr_start, 5'd0};

// ---- checksum pass over [l4_off, ip_end): all, L4 header + prefix, suffix --
// (stream offsets: the pass starts at l4_off; nic_csum_acc's sums are
// there 3 clocks after the last beat: R_CS_END and R_CS_END2 wait)
reg  [13:0] hp_end = 0, suf_start = 0;
wire [31:0] sum_all, sum_hp, sum_suf;
wire        cs_start = state == R_CSUM_GO;
wire        cs_beat = state == R_CSUM && ra_tvalid;

// (sh_* are taken in R_P2, body_end in R_P3: both settled by R_PARSE)
always @(posedge clk) begin
    hp_end <= 14'd16 + {6'd0, sh_l4len} + sh_off[13:0];
    suf_start <= body_end[13:0] - {6'd0, p_l4_off};
end

nic_csum_acc sum_all_b (
    .clk(clk), .start(cs_start), .lo(14'd0), .hi(14'h3fff),
    .beat(cs_beat), .data(ra_tdata), .keep(ra_tkeep), .sum(sum_all)
);
nic_csum_acc sum_hp_b (
    .clk(clk), .start(cs_start), .lo(14'd16), .hi(hp_end),
    .beat(cs_beat), .data(ra_tdata), .keep(ra_tkeep), .sum(sum_hp)
);
nic_csum_acc sum_suf_b (
    .clk(clk), .start(cs_start), .lo(suf_start), .hi(14'h3fff),
    .beat(cs_beat), .data(ra_tdata), .keep(ra_tkeep), .sum(sum_suf)
);

// the segment's length, from the parse on
reg  [15:0] seg_in = 0;
always @(posedge clk)
    seg_in <= {2'd0, p_ip_end} - {8'd0, p_l4_off};
// R_CHK0 (3 clocks): the shim's checksum summed (the same sum each clock)
// and folded (2 clocks); R_CHECK: compared
reg  [31:0] shim_acc = 0;
always @(posedge clk)
    if (state == R_CHK0)
        shim_acc <= sum_all - {16'd0, sh_csum} + {9'd0, addr_sum} + 32'd253 +
                    {16'd0, seg_in};
wire [15:0] shim_fold;
nic_fold fold_shim (.clk(clk), .acc(shim_acc), .folded(shim_fold));
wire shim_csum_ok = ~shim_fold == sh_csum;

// ---- the decompressor -------------------------------------------------------

wire [255:0] d_tdata;
wire [31:0]  d_tkeep;
wire         d_tvalid, d_tlast;
wire [0:0]   d_tuser;
wire         d_status_valid, d_status_error;
reg  [8:0]   b_wptr = 0;
wire [31:0]  range_sum;
reg          dec_err = 1'b0;
reg          dec_out_done = 1'b0, dec_in_done = 1'b0;

inc_decompressor #(.LANES(8)) decomp (
    .clk(clk), .rst(rst),
    .s_axis_tdata({256'd0, ra_tdata}), .s_axis_tkeep({32'd0, ra_tkeep}),
    .s_axis_tvalid(state == R_DEC && ra_tvalid), .s_axis_tready(d_s_tready),
    .s_axis_tlast(ra_tlast),
    .s_axis_tuser({ch_raw[13:0], ch_mode[1:0], ch_k[4:0]}),
    .m_axis_tdata(d_tdata), .m_axis_tkeep(d_tkeep), .m_axis_tvalid(d_tvalid),
    .m_axis_tready(state == R_DEC), .m_axis_tlast(d_tlast), .m_axis_tuser(d_tuser),
    .status_valid(d_status_valid), .status_error(d_status_error)
);

// the restored range's sum, over the beats as they are written (R_CHECK
// starts it; there 3 clocks after the last beat, folded 2 later: R_B0
// waits three)
wire rng_beat = state == R_DEC && d_tvalid && !dec_out_done;

nic_csum_acc sum_range (
    .clk(clk), .start(state == R_CHECK), .lo(14'd0), .hi(14'h3fff),
    .beat(rng_beat), .data(d_tdata), .keep(d_tkeep), .sum(range_sum)
);

// ---- the restored headers ----------------------------------------------------

// before the header block is built: R_B1: the folded sums taken; R_B2
// (3 clocks): the L4 checksum's sum and its fold; R_B3: the checksum
wire [15:0] f_hp, f_suf, f_range;
// the carried L4 checksum taken out of the header and prefix's sum, a
// register ahead of its fold (both settled long before R_B1)
reg  [31:0] hp_acc = 0;
always @(posedge clk)
    hp_acc <= sum_hp - {16'd0, in_csum};
nic_fold fold_hp (.clk(clk), .acc(hp_acc), .folded(f_hp));
nic_fold fold_suf (.clk(clk), .acc(sum_suf), .folded(f_suf));
nic_fold fold_range (.clk(clk), .acc(range_sum), .folded(f_range));
reg  [15:0] f_hp_r = 0, range_sw = 0, suf_sw = 0;
// lengths of the restored frame, from new_end (R_P3 on), a register each
reg  [15:0] seg_out = 0;
reg  [31:0] l4_acc = 0;
wire [15:0] l4_fold;
nic_fold fold_l4 (.clk(clk), .acc(l4_acc), .folded(l4_fold));
wire        udp_none = sh_proto == 8'd17 && p_ip_ver == 4'd4 && in_csum == 16'd0;
reg  [15:0] l4_c = 0;
reg  [15:0] ip_total = 0, plen6 = 0;

always @(posedge clk) begin
    seg_out <= new_end[15:0] - {8'd0, p_l4_off};
    ip_total <= new_end[15:0] - {8'd0, p_l3_off};
    plen6 <= ip_total - 16'd40;
end

always @(posedge clk) begin
    if (state == R_B1) begin
        f_hp_r <= f_hp;
        range_sw <= sh_off[0] ? {f_range[7:0], f_range[15:8]} : f_range;
        suf_sw <= ch_body[0] ^ ch_raw[0] ? {f_suf[7:0], f_suf[15:8]} : f_suf;
    end
    if (state == R_B2)
        l4_acc <= {9'd0, addr_sum} + {24'd0, sh_proto} + {16'd0, seg_out} +
                  {16'd0, f_hp_r} + {16'd0, range_sw} + {16'd0, suf_sw};
    if (state == R_B3) begin
        l4_c <= udp_none ? 16'd0 :
                (~l4_fold == 16'd0 && sh_proto == 8'd17 ? 16'hffff : ~l4_fold);
    end
end
wire [7:0]    out_csum_rel = sh_proto == 8'd6 ? 8'd16 : 8'd6;
wire [7:0]    l4_hdr_end = p_l4_off + sh_l4len;
wire [1279:0] hb_next;

// the restored header block, byte by byte: the frame's bytes up to l4_off
// (the IP header patched back: length, protocol; IPv4 checksum 0 for now),
// then the carried L4 header, which is the frame's bytes 16 places on,
// with its new checksum
genvar j;
generate
    for (j = 0; j < 160; j = j + 1) begin : hbyte
        wire [7:0] jj = j;
        wire [7:0] rel = jj - p_l3_off;
        wire [7:0] l4_i = jj - p_l4_off;
        reg  [7:0] v;
        always @* begin
            if (jj < p_l4_off) begin
                v = hreg[8*j +: 8];
                if (p_ip_ver == 4'd4) begin
                    case (rel)
                    8'd2: v = ip_total[15:8];
                    8'd3: v = ip_total[7:0];
                    8'd9: v = sh_proto;
                    8'd10, 8'd11: v = 8'd0;
                    default: ;
                    endcase
                end else begin
                    case (rel)
                    8'd4: v = plen6[15:8];
                    8'd5: v = plen6[7:0];
                    8'd6: v = sh_proto;
                    default: ;
                    endcase
                end
            end else if (jj < l4_hdr_end) begin
                v = j + 16 < 160 ? hreg[8*(j+16 < 160 ? j+16 : 0) +: 8] : 8'd0;
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

reg  [1279:0] hb = 0;
reg  [7:0]    hb_len = 0;
// R_IP4 (5 clocks): the restored IPv4 header's sum (3) and its fold (2),
// written into it in R_BUILD2
wire [22:0]   ip4n_sum;
nic_hsum hs_ip4n (.clk(clk), .hdr(hb), .lo(p_l3_off), .hi(ip4_hi), .sum(ip4n_sum));
wire [15:0]   ip4n_fold;
nic_fold fold_ip4n (.clk(clk), .acc({9'd0, ip4n_sum}), .folded(ip4n_fold));
wire [15:0]   ip4n_c = ~ip4n_fold;

// ---- descriptor -------------------------------------------------------------

wire [11:0] ring_mask = ~(12'hfff << rxq_size);
// the next descriptor's address, BASE's bits below the descriptor size
// ignored (docs/regmap.md), kept up to date in two clocks (the low 32 bits
// and their carry, then the high ones): CONS moves many clocks before the
// next frame asks for a descriptor
reg  [32:0] slot_lo = 0;
wire        unused_base = ^rxq_base[3:0];   // below the descriptor size
reg  [63:0] slot_addr = 0;
// slot_fresh: slot_addr is the address of descriptor CONS (two clocks
// since W last moved CONS; kept by W)
reg  [1:0]  slot_age = 0;
wire        slot_fresh = slot_age == 2'd2;
wire        unused_slot = ^slot_addr[3:0];  // (0: 16-byte descriptors)
always @(posedge clk) begin
    slot_lo <= {1'b0, rxq_base[31:4], 4'd0} + {17'd0, rxq_cons[11:0] & ring_mask, 4'd0};
    slot_addr <= {rxq_base[63:32] + {31'd0, slot_lo[32]}, slot_lo[31:0]};
end

// D: the descriptor at CONS, read ahead (while W is busy with the frame
// before): D_REQ is entered only when there is one and slot_addr is its
// address; once up, the request stays until taken, whatever RX_EN or PROD
// do meanwhile. The descriptor is kept until W uses it (CONS moves) or RX
// is turned off (the ring may change then).
localparam [1:0] D_IDLE = 2'd0, D_REQ = 2'd1, D_WAIT = 2'd2;
reg  [1:0]  d_state = D_IDLE;
reg         d_have = 1'b0;
reg  [63:4] d_slot = 0;     // (16-byte descriptors)
reg  [63:0] d_buf = 0;
reg  [15:0] d_buf_len = 0;
wire        d_used;         // W moves CONS past it
reg  [1:0]  dones = 0;

// ---- X's records, for W ------------------------------------------------------

// the assembler's inputs (header block length, 0 for a frame as it came;
// the pieces: payload before the range and after it in the ring, the
// range in this record's slot of the range RAM), what W writes back and
// counts, the frame's words in the ring, and whether X dropped it
localparam XR_W = 8 + 16 * 5 + 14 + 1 + 1 + 11 + 16 + 16;
reg  [1279:0]   xr_hb [0:NRX-1];
reg  [XR_W-1:0] xr_info [0:NRX-1];
wire [14:0]  pre_at = fbase + body_at[14:0] - {1'b0, sh_off[13:0]};
wire [14:0]  suf_at = fbase + body_end[14:0];
wire [10:0]  frame_words = {1'b0, fr_len[13:5]} + {10'd0, fr_len[4:0] != 5'd0};
wire [XR_W-1:0] x_info = {restore ? hb_len : 8'd0,
                          restore ? {1'b0, pre_at} : {1'b0, fbase},
                          restore ? sh_off : {2'd0, fr_len},
                          restore ? ch_raw : 16'd0,
                          {1'b0, suf_at},
                          restore ? tail[15:0] : 16'd0,
                          out_len, restore, drop_bad, frame_words, ch_body, ch_raw};

// W's record
wire [7:0]  w_hb_len;
wire [15:0] w_seg0_start, w_seg0_len, w_seg1_len, w_seg2_start, w_seg2_len;
wire [13:0] w_out_len;
wire        w_restore, w_bad;
wire [10:0] w_words;
wire [15:0] w_body, w_raw;
assign {w_hb_len, w_seg0_start, w_seg0_len, w_seg1_len, w_seg2_start, w_seg2_len,
        w_out_len, w_restore, w_bad, w_words, w_body, w_raw} = xr_info[w_slot];

// ---- W: the assembler ---------------------------------------------------------

localparam [3:0] W_IDLE = 4'd0, W_DESC = 4'd2, W_WREQ = 4'd3,
                 W_WDATA = 4'd4, W_DWREQ = 4'd5, W_DWDATA = 4'd6, W_DONE = 4'd7,
                 W_DROP = 4'd8;
reg  [3:0]   w_state = W_IDLE;
reg          w_drop_bad = 1'b0;

reg          as_go = 1'b0;
wire         as_done, as_busy;
wire [255:0] o_tdata;
wire [31:0]  o_tkeep;
wire         o_tvalid, o_tlast;

nic_assembler #(.A_AW(15), .B_AW(15)) asm_rx (
    .clk(clk), .rst(rst),
    .go(as_go), .busy(as_busy), .done(as_done),
    .hb(xr_hb[w_slot]), .hb_len(w_hb_len),
    .seg_b(3'b010),
    .seg0_start(w_seg0_start), .seg0_len(w_seg0_len),
    .seg1_start({1'b0, w_slot, 14'd0}), .seg1_len(w_seg1_len),
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

// ---- DMA ----------------------------------------------------------------------

assign d_used = w_state == W_DONE && dones == 2'd2;

wire have_buf = rx_en && rxq_prod != rxq_cons;
assign rd_req_valid = d_state == D_REQ;
assign rd_req_addr = {d_slot, 4'd0};
assign rd_req_len = 16'd16;
assign rd_ready = d_state == D_WAIT;

always @(posedge clk) begin
    if (!slot_fresh)
        slot_age <= slot_age + 2'd1;
    case (d_state)
    D_IDLE: begin
        if (!d_have && have_buf && slot_fresh && !d_used) begin
            d_slot <= slot_addr[63:4];
            d_state <= D_REQ;
        end
    end
    D_REQ: begin
        if (rd_req_ready)
            d_state <= D_WAIT;
    end
    D_WAIT: begin
        if (rd_valid) begin
            d_buf <= rd_data[63:0];
            d_buf_len <= rd_data[79:64];
            d_have <= 1'b1;
            d_state <= D_IDLE;
        end
    end
    default: d_state <= D_IDLE;
    endcase
    if (d_used) begin
        d_have <= 1'b0;
        slot_age <= 0;
    end
    if (!rx_en && d_state == D_IDLE)
        d_have <= 1'b0;
    if (rst) begin
        d_state <= D_IDLE;
        d_have <= 1'b0;
    end
end

assign wr_req_valid = w_state == W_WREQ || w_state == W_DWREQ;
assign wr_req_addr = w_state == W_WREQ ? d_buf : {d_slot, 4'd8};
assign wr_req_len = w_state == W_WREQ ? {2'd0, w_out_len} : 16'd8;
wire [63:0] desc_wb = {1'b1, w_restore, 30'd0, 2'd0, w_out_len, d_buf_len};
assign wr_data = w_state == W_WDATA ? o_tdata : {192'd0, desc_wb};
assign wr_keep = w_state == W_WDATA ? o_tkeep : 32'h000000ff;
assign wr_last = w_state == W_WDATA ? o_tlast : 1'b1;
assign wr_valid = (w_state == W_WDATA && o_tvalid) || w_state == W_DWDATA;

// ---- X's state machine -----------------------------------------------------------

// the frame leaves the ring when W has delivered or dropped it
assign pop_frame = (w_state == W_DONE && dones == 2'd2) || w_state == W_DROP;
assign pop_words = w_words;

// X takes the next frame when a record slot is free
wire [15:0] x_ahead = x_idx - w_idx;
assign x_take = state == R_IDLE && x_cnt != 0 && x_ahead < NRX;

integer hw;
always @(posedge clk) begin
    ra_go <= 1'b0;
    b_we <= 1'b0;

    case (state)
    R_IDLE: begin
        if (x_take) begin
            fr_start <= q_start[x_rp];
            fr_len <= q_len[x_rp];
            hreg <= 0;
            hdr_word <= 0;
            ra_go <= 1'b1;
            ra_start <= {q_start[x_rp], 5'd0};
            ra_len <= q_len[x_rp] < 14'd160 ? {2'd0, q_len[x_rp]} : 16'd160;
            state <= R_HDR_GO;
        end
    end
    R_HDR_GO: state <= R_HDR;
    R_HDR: begin
        if (ra_tvalid) begin
            // a decoded write, not an indexed part-select (a
            // 1280-bit shifter by yosys)
            for (hw = 0; hw < 5; hw = hw + 1)
                if (hdr_word == hw[2:0])
                    hreg[256*hw +: 256] <= masked(ra_tdata, ra_tkeep);
            hdr_word <= hdr_word + 3'd1;
            if (ra_tlast)
                state <= R_P1;
        end
    end
    R_P1: state <= R_P2;        // the parse is taken (nic_hdr_parse_reg)
    R_P2: state <= R_P3;
    R_P3: begin
        p_wait <= 0;
        state <= R_P4;
    end
    R_P4: begin
        // 6 clocks: hs_ip4's sum, less the field (ip4_acc), its fold (2)
        // and its check (ip4_ok)
        p_wait <= p_wait + 3'd1;
        if (p_wait == 3'd5)
            state <= R_PARSE;
    end
    R_PARSE: begin
        restore <= 1'b0;
        drop_bad <= 1'b0;
        if (bad_ip_ours) begin
            drop_bad <= 1'b1;
            state <= R_REC;
        end else if (!encap) begin
            out_len <= fr_len;
            state <= R_REC;
        end else if (!ip4_ok || !hdr_ok) begin
            drop_bad <= 1'b1;
            state <= R_REC;
        end else begin
            ra_go <= 1'b1;
            ra_start <= fbase + {7'd0, p_l4_off};
            ra_len <= seg_in;
            state <= R_CSUM_GO;
        end
    end
    R_CSUM_GO: state <= R_CSUM;
    R_CSUM: begin
        // every beat is summed (cs_beat)
        if (ra_tvalid && ra_tlast)
            state <= R_CS_END;
    end
    R_CS_END: state <= R_CS_END2;
    R_CS_END2: begin
        p_wait <= 0;
        state <= R_CHK0;
    end
    R_CHK0: begin
        p_wait <= p_wait + 3'd1;
        if (p_wait == 3'd2)
            state <= R_CHECK;
    end
    R_CHECK: begin
        if (!shim_csum_ok) begin
            drop_bad <= 1'b1;
            state <= R_REC;
        end else begin
            ra_go <= 1'b1;
            ra_start <= fbase + body_at[14:0];
            ra_len <= ch_body;
            b_wptr <= 0;
            dec_err <= 1'b0;
            dec_out_done <= 1'b0;
            dec_in_done <= 1'b0;
            state <= R_DEC_GO;
        end
    end
    R_DEC_GO: state <= R_DEC;
    R_DEC: begin
        // all of the body goes in (a bad one is drained by the engine), and
        // the chunk comes out, or its error beat
        if (ra_tvalid && ra_tready && ra_tlast)
            dec_in_done <= 1'b1;
        // (the engine reports an error twice: status, and tuser on tlast)
        if (d_status_valid && d_status_error)
            dec_err <= 1'b1;
        if (d_tvalid && !dec_out_done) begin
            b_we <= 1'b1;
            b_waddr <= {x_slot, b_wptr};
            b_wdata <= d_tdata;
            b_wptr <= b_wptr + 9'd1;
            // summed (rng_beat); R_B0 waits for the sum
            if (d_tlast) begin
                if (d_tuser[0])
                    dec_err <= 1'b1;
                dec_out_done <= 1'b1;
            end
        end
        p_wait <= 0;
        if (dec_out_done && (dec_in_done || ra_ready))
            state <= R_B0;
    end
    R_B0: begin
        p_wait <= p_wait + 3'd1;
        if (p_wait == 3'd2)
            state <= R_B1;
    end
    R_B1: begin
        p_wait <= 0;
        state <= R_B2;
    end
    R_B2: begin
        p_wait <= p_wait + 3'd1;
        if (p_wait == 3'd2)
            state <= R_B3;
    end
    R_B3: state <= R_BUILD1;
    R_BUILD1: begin
        if (dec_err) begin
            drop_bad <= 1'b1;
            state <= R_REC;
        end else begin
            restore <= 1'b1;
            hb <= hb_next;
            hb_len <= p_l4_off + sh_l4len;
            out_len <= new_end[13:0];
            p_wait <= 0;
            state <= R_IP4;
        end
    end
    R_IP4: begin
        // hs_ip4n's sum of hb is there 3 clocks after hb changed, its
        // fold 2 clocks later
        p_wait <= p_wait + 3'd1;
        if (p_wait == 3'd4)
            state <= R_BUILD2;
    end
    R_BUILD2: begin
        if (p_ip_ver == 4'd4) begin
            // (the IP header starts at byte 14, 18 or 22)
            case (p_l3_off)
            8'd14: hb[8*24 +: 16] <= {ip4n_c[7:0], ip4n_c[15:8]};
            8'd18: hb[8*28 +: 16] <= {ip4n_c[7:0], ip4n_c[15:8]};
            default: hb[8*32 +: 16] <= {ip4n_c[7:0], ip4n_c[15:8]};
            endcase
        end
        state <= R_REC;
    end
    R_REC: begin
        // the outcome, for W
        xr_hb[x_slot] <= hb;
        xr_info[x_slot] <= x_info;
        x_idx <= x_idx + 16'd1;
        state <= R_IDLE;
    end
    default: state <= R_IDLE;
    endcase

    if (rst) begin
        state <= R_IDLE;
        x_idx <= 0;
        b_we <= 1'b0;
    end
end

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
            w_state <= w_bad || !(d_have || have_buf) ? W_DROP : W_DESC;
        end
    end
    W_DESC: begin
        // D reads it, if it has not yet
        if (d_have)
            w_state <= d_buf_len < {2'd0, w_out_len} ? W_DROP :  // too small
                                                       W_WREQ;
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
