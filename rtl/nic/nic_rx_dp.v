// SPDX-License-Identifier: MIT
/*
 * nic_rx_dp: the receive datapath. Frames from the MAC are stored in a
 * 32 KiB ring as they arrive; it then takes them one at a time, in order,
 * and restores each as incw_rx() of userspace/wire says
 * (docs/wire-format.md):
 *
 *   - a frame that is not encapsulated (not IP protocol 253) bit-exact;
 *   - an encapsulated frame restored: IP header patched back, the original
 *     L4 header with a recomputed checksum, the payload with the chunk body
 *     decoded by inc_decompressor (paper and sparse modes) or, with 16
 *     lanes, inc_width_decompressor (width mode);
 *   - a malformed encapsulated frame marked bad (the shell drops it).
 *
 * It knows nothing of rings of descriptors, buffers or registers: nic_rx
 * (the shell) takes each frame's metadata, answers with a verdict
 * (deliver, or drop: no buffer for it, or bad) and writes the delivered
 * frames' bytes to the host (docs/dataflow.md, "The datapath and its
 * shell").
 *
 * Ports:
 *   s_axis_*     frames from the MAC: no tready (a MAC cannot wait); a
 *                frame the ring cannot hold, a MAC error or a frame over
 *                max_frame is dropped whole and counted (stat_*)
 *   s_frame_room room for a whole frame of max_frame bytes now
 *   m_meta_*     the next frame's metadata, in order: its length as
 *                delivered, restored, bad (malformed: drop it), the body's
 *                and the range's lengths. Held until its verdict is taken
 *   s_verdict_*  the shell's verdict on it (valid/ready; deliver or drop),
 *                sampled at the handshake, which takes the metadata too;
 *                ready: a drop at once, a delivery when the assembler can
 *                take the frame
 *   m_axis_*     the delivered frames' bytes, in order, tlast on each
 *                frame's last beat; a frame leaves the ring (and a dropped
 *                one at once, in its turn) when its last beat is taken
 *   tp_*         the engine test port (nic_tport), granted between frames
 *
 * Three stages after the ring, each on its own frame, in order:
 *
 *   H  head: the header (its first 160 bytes, captured into a header RAM
 *      as the frame came in), its parse and checks, the outcome as a
 *      record for X (NH of them)
 *   X  examine and restore: for an encapsulated frame, the checksum pass
 *      and the body through the decompressor into one of NRX slots of the
 *      range RAM, at once (two readers of the ring); the checks; the
 *      restored header block; the outcome as a record for the verdict
 *      (NRX of them)
 *   A  assemble: the header block, the payload before the range, the
 *      decoded range and the payload after it (nic_assembler) into a
 *      small FIFO, the m_axis port
 *
 * The ring RAM has a copy for each reader (X's two, A's one). Checksums
 * are verified and recomputed from sums taken in pieces in their own
 * alignment, as in nic_tx_dp.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_rx_dp #
(
    // codec lanes (8 or 16): 32-bit values per beat; the beat, the MAC and
    // host streams and the RAM words are 32 LANES bits
    parameter LANES = 8,
    // width mode built (1, at 16 lanes only; inc_nic's WIDTH)
    parameter WIDTH = 1,
    // the beat in bits and bytes, and log2 of its bytes (derived: leave them)
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire          clk,
    input  wire          rst,

    // frames are taken into the ring while on (a frame that starts while
    // off is dropped whole)
    input  wire          rx_en,
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

    output wire          m_meta_valid,
    output wire [13:0]   m_meta_len,        // the bytes delivered
    output wire          m_meta_restore,    // an encapsulated frame, restored
    output wire          m_meta_bad,        // malformed: to be dropped
    output wire [15:0]   m_meta_body,       // the chunk body's bytes (restored)
    output wire [15:0]   m_meta_raw,        // the range's bytes (restored)

    input  wire          s_verdict_valid,
    output wire          s_verdict_ready,
    input  wire          s_verdict_deliver, // 1: to m_axis; 0: dropped

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [BB-1:0] m_axis_tkeep,
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire          m_axis_tlast,

    // the ingress's counts, a clock each: a frame's end seen (its bytes),
    // dropped for a MAC error or over max_frame, dropped for want of room
    output wire          stat_frame,
    output wire [13:0]   stat_bytes,
    output wire          stat_drop_mac,
    output wire          stat_drop_room,
    // nothing in the ring or in flight, no beat coming in
    output wire          idle,

    // the engine test port (nic_tport): its request for the decompressors,
    // granted between frames (tp_gnt: the engines' inputs and outputs are
    // the port's), the port's chunk (tp_tuser as the engines': [4:0] k,
    // [6:5] mode, 3 for the width decompressor, [20:7] raw_len) and the
    // output of the engine of its mode
    input  wire          tp_req,
    output reg           tp_gnt = 1'b0,
    // (the valids and readies: registers, one per engine, 0 but during a
    // run of that engine)
    input  wire [DATA_W-1:0] tp_tdata,
    input  wire [BB-1:0] tp_tkeep,
    input  wire          tp_p_tvalid,   // to inc_decompressor
    input  wire          tp_w_tvalid,   // to inc_width_decompressor
    input  wire          tp_tlast,
    input  wire [20:0]   tp_tuser,
    output wire          tp_s_tready,
    output wire [DATA_W-1:0] tp_m_tdata,
    output wire [BB-1:0] tp_m_tkeep,
    output wire          tp_m_tvalid,
    input  wire          tp_p_m_tready,
    input  wire          tp_w_m_tready,
    output wire          tp_m_tlast,
    output wire          tp_m_tuser,
    // simulation only (0 on a board): faulty decompressors, bit 0 of every
    // beat they output flipped, for the datapath and the test port alike
    input  wire          dbg_fault
);

`include "nic_beat_fns.vh"
`include "nic_hdr_fns.vh"
// H's records and outcomes (nic_rx_hdr)
`include "nic_rx_rec.vh"

// width mode (3): its decompressor takes a group of 16 values a beat
localparam WIDTH_OK = LANES == 16 && WIDTH != 0;
localparam RDC_W = 26 + BS;             // nic_rd_count's counts (nic_rd_stream start_cnt)
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

// The MAC's beat is registered first (in_*), with its byte count, so that
// the port reaches only flip-flops and a popcount (docs/rtl.md, "Logic
// depth"). It cannot be held (the MAC has no tready): one clock of latency.
reg  [DATA_W-1:0] in_tdata = 0;
reg         in_tvalid = 1'b0, in_tlast = 1'b0, in_tuser = 1'b0;
reg  [BS:0] in_nbytes = 0;
always @(posedge clk) begin
    in_tvalid <= s_axis_tvalid;
    in_tdata <= s_axis_tdata;
    in_tlast <= s_axis_tlast;
    in_tuser <= s_axis_tuser;
    in_nbytes <= ones_k(s_axis_tkeep);
    if (rst)
        in_tvalid <= 1'b0;
end

wire [RING_AW:0] used = in_wptr - free_ptr;
// room for a word, a clock late: with one word to spare, as the beat of
// the clock before may have taken one
reg         room = 1'b0;
always @(posedge clk)
    room <= used < RING_WORDS - 1;
wire [14:0] bytes_next = {1'b0, f_bytes} + {{(14 - BS){1'b0}}, in_nbytes};
// the bytes the frame may still take (max_frame - f_bytes, a register:
// below 0 once f_long is set), so a beat's check is one compare
reg  [14:0] f_lim = 0;
wire        over_max = {{(14 - BS){1'b0}}, in_nbytes} > f_lim;
// this beat is written, and this last beat ends a frame that is kept
wire        beat_in = in_tvalid && !f_over && !f_long && room && rx_en;
wire        frame_bad = in_tuser || f_long || over_max ||
                        (f_bytes == 0 && in_nbytes == 0);
wire        frame_nobuf = f_over || !room || !rx_en || q_cnt == 5'd16 || f_nohdr;
// the beat goes into the header RAM too (entry q_wp is free while the
// queue is not full)
wire        hdr_in = beat_in && f_beat != NHW3;
wire        hdr_we = hdr_in && q_cnt != 5'd16;
wire        push_frame = in_tvalid && in_tlast && !frame_bad && !frame_nobuf;

// (a clock late, and a beat in in_*: with two beats and a frame to spare,
// 3 + ceil(MAX_FRAME / BB) words, three queue entries). The words the ring
// may hold for that, fr_lim, follow MAX_FRAME a clock late (a register
// written while the NIC is idle), so the check is one subtraction and one
// compare.
reg  [15:0] fr_lim = 0;
always @(posedge clk) begin
    fr_lim <= {{(15 - RING_AW){1'b0}}, RING_WORDS} - 16'd4 -
              {{(2 + BS){1'b0}}, max_frame[13:BS]};
    s_frame_room <= {{(15 - RING_AW){1'b0}}, used} <= fr_lim && !fr_lim[15] &&
                    q_cnt < 5'd14;
end

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
    if (!in_tvalid)
        f_lim <= {1'b0, max_frame} - {1'b0, f_bytes};
    if (in_tvalid) begin
        if (beat_in) begin
            r_we <= 1'b1;
            r_waddr <= in_wptr[RING_AW-1:0];
            r_wdata <= in_tdata;
            in_wptr <= in_wptr + 1'b1;
        end
        if (hdr_in) begin
            f_beat <= f_beat + 3'd1;
            if (!hdr_we)
                f_nohdr <= 1'b1;
        end
        if (!room || !rx_en)
            f_over <= 1'b1;
        if (over_max)
            f_long <= 1'b1;
        f_bytes <= bytes_next[14] ? 14'h3fff : bytes_next[13:0];
        f_lim <= f_lim - {{(14 - BS){1'b0}}, in_nbytes};
        if (in_tlast) begin
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
            f_lim <= {1'b0, max_frame};
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
        f_lim <= {1'b0, max_frame};
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
            .wdata(in_tdata),
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

// records: NH frames between H and X. XI takes a record, then XO; XO
// frees it once it has XI's sums (XI may run ahead of XO: the body of the
// next frame goes into the decompressor while XO takes the last one's
// range out of it)
localparam HS_W = 2;
localparam [15:0] NH = 16'd1 << HS_W;
reg  [15:0]  h_idx = 0;         // records H wrote
reg  [15:0]  xs_idx = 0;        // records XI took
reg  [15:0]  xi_idx = 0;        // records XI is done with (its sums kept)
reg  [15:0]  xh_idx = 0;        // records XO took
reg  [15:0]  xf_idx = 0;        // records XO freed
wire [HS_W-1:0] h_slot = h_idx[HS_W-1:0];
wire [HS_W-1:0] xs_slot = xs_idx[HS_W-1:0];
wire [HS_W-1:0] xh_slot = xh_idx[HS_W-1:0];

// records: NRX frames between X and W, each with a slot of 16 KiB of the
// range RAM
localparam XS_W = 3;
localparam [15:0] NRX = 16'd1 << XS_W;
localparam BW_W = 14 - BS;      // words of a slot, log2
reg  [15:0]  x_idx = 0;         // records X wrote (the frame in X has the next)
reg  [15:0]  w_idx = 0;         // records W is done with
wire [XS_W-1:0] x_slot = x_idx[XS_W-1:0];

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

// H takes the next frame when a record slot for X is free and nic_rx_hdr
// is idle; the header RAM's words are there a clock later (hl_load), when
// the stage takes them. Its record goes into the slot taken for it.
reg  [RING_AW-1:0] fr_start = 0; // ring word of the frame
reg  [13:0]   fr_len = 0;
reg           hl_load = 1'b0;    // the header RAM's words are out
wire          hh_ready;          // nic_rx_hdr is idle
wire [15:0] h_ahead = h_idx - xf_idx;
assign h_take = !hl_load && hh_ready && h_cnt != 0 && h_ahead < NH;
assign hr_re = h_take;

reg  [1279:0]   hr_hreg [0:NH-1];
reg  [HR_W-1:0] hr_info [0:NH-1];
wire            h_rec;
wire [1279:0]   h_rec_hdr;
wire [HR_W-1:0] h_rec_info;

nic_rx_hdr #(.WIDTH_OK(WIDTH_OK ? 1 : 0), .RING_AW(RING_AW), .REC_W(HR_W)) hdr (
    .clk(clk), .rst(rst),
    .s_valid(hl_load), .s_ready(hh_ready),
    .s_hdr(hr_rdata[1279:0]), .s_len(fr_len), .s_start(fr_start),
    .m_valid(h_rec), .m_ready(1'b1), .m_hdr(h_rec_hdr), .m_info(h_rec_info)
);

always @(posedge clk) begin
    hl_load <= h_take;
    if (h_take) begin
        fr_start <= q_start[h_rp];
        fr_len <= q_len[h_rp];
    end
    if (h_rec) begin
        hr_hreg[h_slot] <= h_rec_hdr;
        hr_info[h_slot] <= h_rec_info;
        h_idx <= h_idx + 16'd1;
    end
    if (rst) begin
        hl_load <= 1'b0;
        h_idx <= 0;
    end
end

// ===========================================================================
// XI: the checksum pass and the body into the decompressor
// ===========================================================================

// For each encapsulated frame, in order: the segment through reader K into
// the checksum sums, the body through reader A into the decompressor, at
// once; the sums, once settled, kept beside the frame's record for XO. The
// next frame's body follows into the engine while XO still takes the
// last one's range out of it.

localparam [1:0] XI_IDLE = 2'd0, XI_DECIDE = 2'd1, XI_GO = 2'd2, XI_RUN = 2'd3;

reg  [1:0]    xi_state = XI_IDLE;

// H's record, what XI needs of it
reg  [1:0]    xi_kind = K_PLAIN;
reg  [RING_AW-1:0] xi_fr_start = 0;
reg  [7:0]    xi_l4_off = 0;
reg  [1:0]    xi_ch_mode = 0;
reg  [4:0]    xi_ch_k = 0;
reg  [13:0]   xi_ch_raw = 0;
reg  [15:0]   xi_ch_body = 0;
reg  [14:0]   xi_body_at = 0;
reg  [13:0]   xi_seg_in = 0;
reg  [13:0]   xi_hp_end = 0, xi_suf_start = 0;
// the checksum pass's sums, by H's record slot, for XO
reg  [31:0]   cs_all [0:NH-1];
reg  [31:0]   cs_hp [0:NH-1];
reg  [31:0]   cs_suf [0:NH-1];

// (the engine test port's request holds XI's next frame: tp_gnt below)
wire          xi_take = xi_state == XI_IDLE && h_idx != xs_idx && !tp_req && !tp_gnt;
reg  [HS_W-1:0] xi_slot = 0;    // the record XI has
// (the record's fields, as H wrote them)
wire [1:0]    hr_kind;
wire [RING_AW-1:0] hr_fr_start;
wire [7:0]    hr_l4_off;
wire [1:0]    hr_ch_mode;
wire [4:0]    hr_ch_k;
wire [15:0]   hr_ch_raw, hr_ch_body;
wire [14:0]   hr_body_at;
wire [15:0]   hr_seg_in;
wire [13:0]   hr_hp_end, hr_suf_start;
wire [1:0]    unused_hr_raw = hr_ch_raw[15:14];  // (at most 9000)
wire [1:0]    unused_hr_seg = hr_seg_in[15:14];  // (the same)
// (XO's fields)
wire [13:0]   unused_hr_len;
wire [7:0]    unused_hr_l3;
wire [4+8+8+16+16-1:0] unused_hr_ip;     // ip_ver .. sh_csum
wire [15:0]   unused_hr_csum;
wire [15+16+14+23+8-1:0] unused_hr_out;   // body_end .. ip4_hi
wire [47:0]   unused_hr_lens;
assign {hr_kind, hr_fr_start, unused_hr_len, unused_hr_l3, hr_l4_off, unused_hr_ip,
        hr_ch_mode, hr_ch_k, hr_ch_raw, hr_ch_body, unused_hr_csum, hr_body_at,
        unused_hr_out, hr_seg_in, hr_hp_end, hr_suf_start, unused_hr_lens} =
    hr_info[xs_slot];

// byte address in the ring of XI's frame
wire [14:0] xi_fbase = {xi_fr_start, {BS{1'b0}}};

// ---- reader A (ring): the decompressor's feed; K: the checksum pass (below) --

reg  [14:0]  ra_start = 0, rk_start = 0;
reg  [15:0]  ra_len = 0;
reg  [13:0]  rk_len = 0;
wire         ra_ready, rk_ready;
wire [DATA_W-1:0] ra_tdata;
wire [BB-1:0] ra_tkeep;
wire         ra_tvalid, ra_tlast;
wire         ra_tready;
wire         d_s_tready;
// both start together, each idle by then (the frame before has left them)
wire         rx_go = xi_state == XI_GO && ra_ready && rk_ready;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(RING_AW)) rd_a (
    .clk(clk), .rst(rst),
    .start_valid(rx_go), .start_ready(ra_ready),
    .start_addr(ra_start), .start_len(ra_len), .start_cnt({RDC_W{1'b0}}),
    .ram_re(a_re), .ram_raddr(a_raddr), .ram_rdata(a_rdata),
    .m_axis_tdata(ra_tdata), .m_axis_tkeep(ra_tkeep), .m_axis_tvalid(ra_tvalid),
    .m_axis_tready(ra_tready), .m_axis_tlast(ra_tlast),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tlen()
    /* verilator lint_on PINCONNECTEMPTY */
);

assign ra_tready = xi_state == XI_RUN && d_s_tready;

// W's readers: the ring, for the payload around the range; B, the range
wire         as_rda_valid, as_rdb_valid;
wire [14:0]  as_rda_addr;
wire [13+XS_W:0] as_rdb_addr;
wire [15:0]  as_rda_len, as_rdb_len;
wire [RDC_W-1:0] as_rda_cnt, as_rdb_cnt;
wire         as_rda_tready, as_rdb_tready;

wire         rw_ready;
wire [DATA_W-1:0] rw_tdata;
wire         rw_tvalid, rw_tlast;
wire [BS:0]  rw_tlen;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(RING_AW), .QUEUE(1), .PRECOUNT(1)) rd_w (
    .clk(clk), .rst(rst),
    .start_valid(as_rda_valid), .start_ready(rw_ready),
    .start_addr(as_rda_addr), .start_len(as_rda_len), .start_cnt(as_rda_cnt),
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

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(BW_W + XS_W), .QUEUE(1), .PRECOUNT(1)) rd_b (
    .clk(clk), .rst(rst),
    .start_valid(as_rdb_valid), .start_ready(rb_ready),
    .start_addr(as_rdb_addr), .start_len(as_rdb_len), .start_cnt(as_rdb_cnt),
    .ram_re(b_re), .ram_raddr(b_raddr), .ram_rdata(b_rdata),
    .m_axis_tdata(rb_tdata),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tkeep(),   // (the assembler counts bytes by tlen)
    /* verilator lint_on PINCONNECTEMPTY */
    .m_axis_tvalid(rb_tvalid),
    .m_axis_tready(as_rdb_tready), .m_axis_tlast(rb_tlast), .m_axis_tlen(rb_tlen)
);

// ---- checksum pass over [l4_off, ip_end): all, L4 header + prefix, suffix --
// (offsets from l4_off), read from the ring's K port by nic_csum_pass (the
// module nic_tx's pass is too); XI_RUN waits for the sums (cs_valid)
wire [31:0] sum_all, sum_hp, sum_suf;
wire        cs_valid;

nic_csum_pass #(.DATA_W(DATA_W), .ADDR_W(RING_AW), .NSUM(3)) cs (
    .clk(clk), .rst(rst),
    .start_valid(rx_go), .start_ready(rk_ready),
    .start_addr(rk_start), .start_len(rk_len),
    .start_lo({xi_suf_start, 14'd16, 14'd0}), .start_hi({14'h3fff, xi_hp_end, 14'h3fff}),
    .ram_re(ak_re), .ram_raddr(ak_raddr), .ram_rdata(ak_rdata),
    .sum_valid(cs_valid), .sum({sum_suf, sum_hp, sum_all})
);

// ---- the decompressors ------------------------------------------------------

// inc_decompressor takes paper and sparse chunks; with 16 lanes,
// inc_width_decompressor beside it takes width chunks. XI feeds a chunk to
// the engine of its mode; XR takes each frame's range from that engine
// again, in the order XI fed them (each engine keeps its own order, and
// neither waits on the other).
wire [DATA_W-1:0] d_tdata;
wire [BB-1:0] d_tkeep;
wire         d_tvalid, d_tlast;
wire [0:0]   d_tuser;
wire         d_tready;
reg          xi_in_done = 1'b0;  // the body went in
wire         xi_width = WIDTH_OK && xi_ch_mode == 2'd3;  // XI's chunk: width mode
reg          xr_width = 1'b0;    // XR's: width mode

// Their inputs and outputs are the test port's while tp_gnt. The port's
// request stops XI from taking a frame (xi_take: the one it has goes on);
// the grant comes when XI is idle, XR has caught up with it (so it takes
// no output: d_tready 0) and no chunk is inside either engine (d_inside:
// chunks in minus chunks out), so the frame in flight goes whole and the
// next waits. The grant holds while the request does. The port's valid
// and ready registers (0 but during its run) are ORed into the datapath's,
// and XR's output select (xr_width) follows the port's mode while granted
// (XR sets it again for its next frame): the handshakes and the select
// gain no logic level; the data, keep, last and user inputs take a 2:1
// multiplexer on the grant register (one LUT level before the engines'
// input registers).
wire         tp_w = WIDTH_OK && tp_tuser[6:5] == 2'd3;   // the port's: width
wire [DATA_W-1:0] e_tdata = tp_gnt ? tp_tdata : ra_tdata;
wire [BB-1:0] e_tkeep = tp_gnt ? tp_tkeep : ra_tkeep;
wire         e_tlast = tp_gnt ? tp_tlast : ra_tlast;
wire [20:0]  e_tuser = tp_gnt ? tp_tuser : {xi_ch_raw, xi_ch_mode, xi_ch_k};
wire         ep_tvalid = (xi_state == XI_RUN && !xi_width && ra_tvalid) || tp_p_tvalid;
wire         ew_tvalid = (xi_state == XI_RUN && xi_width && ra_tvalid) || tp_w_tvalid;
wire         dp_m_tready = (d_tready && !xr_width) || tp_p_m_tready;
wire         dw_m_tready = (d_tready && xr_width) || tp_w_m_tready;

wire [DATA_W-1:0] dp_tdata, dw_tdata;
wire [BB-1:0] dp_tkeep, dw_tkeep;
wire         dp_tvalid, dp_tlast, dp_s_tready, dw_tvalid, dw_tlast, dw_s_tready;
wire [0:0]   dp_tuser, dw_tuser;
wire [DATA_W-1:0] d_tdata_e;
wire         d_tvalid_e;

inc_decompressor #(.LANES(LANES)) decomp (
    .clk(clk), .rst(rst),
    .s_axis_tdata({{DATA_W{1'b0}}, e_tdata}), .s_axis_tkeep({{BB{1'b0}}, e_tkeep}),
    .s_axis_tvalid(ep_tvalid),
    .s_axis_tready(dp_s_tready),
    .s_axis_tlast(e_tlast),
    .s_axis_tuser(e_tuser),
    .m_axis_tdata(dp_tdata), .m_axis_tkeep(dp_tkeep), .m_axis_tvalid(dp_tvalid),
    .m_axis_tready(dp_m_tready), .m_axis_tlast(dp_tlast), .m_axis_tuser(dp_tuser),
    /* verilator lint_off PINCONNECTEMPTY */
    // (a malformed chunk's last beat says so: tuser)
    .status_valid(), .status_error()
    /* verilator lint_on PINCONNECTEMPTY */
);

generate
if (WIDTH_OK) begin : g_width
    inc_width_decompressor wdecomp (
        .clk(clk), .rst(rst),
        .s_axis_tdata({{DATA_W{1'b0}}, e_tdata}), .s_axis_tkeep({{BB{1'b0}}, e_tkeep}),
        .s_axis_tvalid(ew_tvalid),
        .s_axis_tready(dw_s_tready),
        .s_axis_tlast(e_tlast),
        .s_axis_tuser(e_tuser),
        .m_axis_tdata(dw_tdata), .m_axis_tkeep(dw_tkeep), .m_axis_tvalid(dw_tvalid),
        .m_axis_tready(dw_m_tready), .m_axis_tlast(dw_tlast),
        .m_axis_tuser(dw_tuser),
        /* verilator lint_off PINCONNECTEMPTY */
        .status_valid(), .status_error()
        /* verilator lint_on PINCONNECTEMPTY */
    );

    assign d_s_tready = xi_width ? dw_s_tready : dp_s_tready;
    assign tp_s_tready = tp_w ? dw_s_tready : dp_s_tready;
    assign d_tdata_e = xr_width ? dw_tdata : dp_tdata;
    assign d_tkeep = xr_width ? dw_tkeep : dp_tkeep;
    assign d_tvalid_e = xr_width ? dw_tvalid : dp_tvalid;
    assign d_tlast = xr_width ? dw_tlast : dp_tlast;
    assign d_tuser = xr_width ? dw_tuser : dp_tuser;
end else begin : g_no_width
    assign dw_tdata = {DATA_W{1'b0}};
    assign dw_tkeep = {BB{1'b0}};
    assign dw_tvalid = 1'b0;
    assign dw_tlast = 1'b0;
    assign dw_tuser = 1'b0;
    assign dw_s_tready = 1'b0;
    assign d_s_tready = dp_s_tready;
    assign tp_s_tready = dp_s_tready;
    assign d_tdata_e = dp_tdata;
    assign d_tkeep = dp_tkeep;
    assign d_tvalid_e = dp_tvalid;
    assign d_tlast = dp_tlast;
    assign d_tuser = dp_tuser;
    wire unused_nw = ^{dw_m_tready, ew_tvalid, dw_tdata, dw_tkeep, dw_tuser};
end
endgenerate

// the fault of dbg_fault (for the datapath and the port alike)
assign d_tdata = d_tdata_e ^ {{(DATA_W-1){1'b0}}, dbg_fault};
assign d_tvalid = d_tvalid_e;
assign tp_m_tdata = d_tdata;
assign tp_m_tkeep = d_tkeep;
assign tp_m_tvalid = d_tvalid_e;
assign tp_m_tlast = d_tlast;
assign tp_m_tuser = d_tuser[0];

// ---- XI's state machine -------------------------------------------------------

always @(posedge clk) begin
    case (xi_state)
    XI_IDLE: begin
        if (xi_take) begin
            xs_idx <= xs_idx + 16'd1;
            xi_slot <= xs_slot;
            xi_kind <= hr_kind;
            xi_fr_start <= hr_fr_start;
            xi_l4_off <= hr_l4_off;
            xi_ch_mode <= hr_ch_mode;
            xi_ch_k <= hr_ch_k;
            xi_ch_raw <= hr_ch_raw[13:0];
            xi_ch_body <= hr_ch_body;
            xi_body_at <= hr_body_at;
            xi_seg_in <= hr_seg_in[13:0];
            xi_hp_end <= hr_hp_end;
            xi_suf_start <= hr_suf_start;
            xi_state <= XI_DECIDE;
        end
    end
    XI_DECIDE: begin
        if (xi_kind != K_RESTORE) begin
            xi_idx <= xi_idx + 16'd1;   // nothing for XI to do
            xi_state <= XI_IDLE;
        end else begin
            ra_start <= xi_fbase + xi_body_at;
            ra_len <= xi_ch_body;
            rk_start <= xi_fbase + {7'd0, xi_l4_off};
            rk_len <= xi_seg_in;
            xi_in_done <= 1'b0;
            xi_state <= XI_GO;
        end
    end
    XI_GO: begin
        // both readers take their ranges (rx_go)
        if (rx_go)
            xi_state <= XI_RUN;
    end
    XI_RUN: begin
        // all of the body goes in (a bad one is drained by the engine);
        // that and the pass's sums: they are kept
        if (ra_tvalid && ra_tready && ra_tlast)
            xi_in_done <= 1'b1;
        if (cs_valid && (xi_in_done || ra_ready)) begin
            cs_all[xi_slot] <= sum_all;
            cs_hp[xi_slot] <= sum_hp;
            cs_suf[xi_slot] <= sum_suf;
            xi_idx <= xi_idx + 16'd1;
            xi_state <= XI_IDLE;
        end
    end
    default: xi_state <= XI_IDLE;
    endcase

    if (rst) begin
        xi_state <= XI_IDLE;
        xs_idx <= 0;
        xi_idx <= 0;
    end
end

// ===========================================================================
// XR: the range out of the decompressor
// ===========================================================================

// For each frame XI took, in order: an encapsulated frame's range (or its
// error beat) out of the engine into the frame's slot of the range RAM
// (the slot of W's record it will have), and its sum, kept for XO.

localparam [1:0] XR_IDLE = 2'd0, XR_DECIDE = 2'd1, XR_RUN = 2'd2, XR_SUM = 2'd3;
reg  [1:0]    xr_state = XR_IDLE;
reg  [15:0]   xr_idx = 0;       // records XR is done with
wire [XS_W-1:0] r_slot = xr_idx[XS_W-1:0];
// the range's sum and whether the engine flagged the chunk, by W's slot
reg  [31:0]   rr_sum [0:NRX-1];
reg           rr_err [0:NRX-1];

// (the next record's kind: XI has taken it, so H wrote it)
wire [1:0]    xr_kind = hr_info[xr_idx[HS_W-1:0]][HR_W-1 -: 2];
wire [1:0]    xr_mode = hr_info[xr_idx[HS_W-1:0]][HR_MODE +: 2];
wire [15:0]   xr_ahead = xr_idx - w_idx;
wire          xr_take = xr_state == XR_IDLE && xs_idx != xr_idx && xr_ahead < NRX;

reg  [BW_W-1:0] b_wptr = 0;
wire [31:0]  range_sum;
wire         range_valid;
reg          dec_err = 1'b0;
reg          dec_out_done = 1'b0;
assign d_tready = xr_state == XR_RUN && !dec_out_done;  // (the next chunk waits)

// the restored range's sum, over the beats as they are written (XR_DECIDE
// starts it; XR_SUM waits for range_valid, 4 clocks after the last beat)
wire rng_beat = xr_state == XR_RUN && d_tvalid && !dec_out_done;

nic_csum_acc #(.DATA_W(DATA_W)) sum_range (
    .clk(clk), .start(xr_state == XR_DECIDE), .lo(14'd0), .hi(14'h3fff),
    .beat(rng_beat), .last(d_tlast), .data(d_tdata), .keep(d_tkeep),
    .sum(range_sum), .sum_valid(range_valid)
);

always @(posedge clk) begin
    b_we <= 1'b0;
    case (xr_state)
    XR_IDLE: begin
        if (xr_take)
            xr_state <= XR_DECIDE;
    end
    XR_DECIDE: begin
        // (the range's sum restarts)
        b_wptr <= 0;
        dec_err <= 1'b0;
        dec_out_done <= 1'b0;
        xr_width <= WIDTH_OK && xr_mode == 2'd3;
        if (xr_kind != K_RESTORE) begin
            xr_idx <= xr_idx + 16'd1;   // nothing for XR to do
            xr_state <= XR_IDLE;
        end else begin
            xr_state <= XR_RUN;
        end
    end
    XR_RUN: begin
        if (d_tvalid && !dec_out_done) begin
            b_we <= 1'b1;
            b_waddr <= {r_slot, b_wptr};
            b_wdata <= d_tdata;
            b_wptr <= b_wptr + 1'b1;
            // summed (rng_beat)
            if (d_tlast) begin
                if (d_tuser[0])
                    dec_err <= 1'b1;
                dec_out_done <= 1'b1;
            end
        end
        if (dec_out_done)
            xr_state <= XR_SUM;
    end
    XR_SUM: begin
        if (range_valid) begin
            rr_sum[r_slot] <= range_sum;
            rr_err[r_slot] <= dec_err;
            xr_idx <= xr_idx + 16'd1;
            xr_state <= XR_IDLE;
        end
    end
    default: xr_state <= XR_IDLE;
    endcase
    // the output select follows the engine test port's mode while it has
    // the engines (XR is idle then; XR_DECIDE sets it for the next frame)
    if (tp_gnt)
        xr_width <= tp_w;
    if (rst) begin
        xr_state <= XR_IDLE;
        xr_idx <= 0;
        b_we <= 1'b0;
    end
end

// chunks inside the engines (16 at most each)
reg  [5:0]   d_inside = 0;
wire         d_in_end = e_tlast && ((ep_tvalid && dp_s_tready) || (ew_tvalid && dw_s_tready));
wire         d_out_p = dp_tvalid && dp_m_tready && dp_tlast;
wire         d_out_w = dw_tvalid && dw_m_tready && dw_tlast;

always @(posedge clk) begin
    d_inside <= d_inside + {5'd0, d_in_end} - {5'd0, d_out_p} - {5'd0, d_out_w};
    tp_gnt <= tp_req && (tp_gnt || (xi_state == XI_IDLE && xr_state == XR_IDLE &&
                                   xr_idx == xs_idx && d_inside == 6'd0));
    if (rst) begin
        d_inside <= 0;
        tp_gnt <= 1'b0;
    end
end

// ===========================================================================
// XO: the checks, the header block
// ===========================================================================

localparam [3:0] X_IDLE = 4'd0, X_DECIDE = 4'd1, X_SUMS = 4'd2,
                 X_CHECK = 4'd5, X_B3 = 4'd6, X_BUILD = 4'd7, X_REC = 4'd8;

reg  [3:0]    x_state = X_IDLE;
reg           restore = 1'b0;    // an encapsulated frame being restored
reg           drop_bad = 1'b0;   // malformed (else: no buffer)
reg  [13:0]   out_len = 0;

// H's record, as XO took it, and XI's sums
reg  [1:0]    x_kind = K_PLAIN;
reg  [RING_AW-1:0] x_fr_start = 0;
reg  [13:0]   x_fr_len = 0;
reg  [7:0]    x_l3_off = 0, x_l4_off = 0;
reg  [3:0]    x_ip_ver = 0;
reg  [7:0]    x_sh_proto = 0, x_sh_l4len = 0;
reg  [15:0]   x_sh_off = 0, x_sh_csum = 0;
reg  [15:0]   x_ch_raw = 0, x_ch_body = 0, x_in_csum = 0;
reg  [14:0]   x_body_at = 0;
reg  [14:0]   x_body_end = 0;
reg  [13:0]   x_new_end = 0;
reg  [15:0]   x_tail = 0;
reg  [22:0]   x_addr_sum = 0;
reg  [7:0]    x_ip4_hi = 0;
reg  [15:0]   x_seg_in = 0;
reg  [1279:0] x_hreg = 0;
reg  [6:0]    unused_x_chunk;       // (XI's fields: mode, k; the windows)
reg  [27:0]   unused_x_win;
reg  [15:0]   ip_total_x = 0, plen6_x = 0, seg_out_x = 0;
reg  [31:0]   x_sum_all = 0, x_sum_hp = 0, x_sum_suf = 0, x_sum_range = 0;
reg           x_dec_err = 1'b0;

// XO takes the next record once XR is done with it (so XI has taken it,
// and its W slot is free)
wire        x_take = x_state == X_IDLE && xr_idx != xh_idx;
reg  [15:0] x_fidx = 0;         // the record XO has (its index)

// byte address in the ring of frame offset o
wire [14:0] fbase = {x_fr_start, {BS{1'b0}}};

// XO's chains, each ending in a valid that its state waits for: X_SUMS
// takes XI's sums (xs_go), which are then summed and folded (X_CHECK waits
// for the four folds: xf_all); X_CHECK's sums taken (xc_go), the L4
// checksum's sum and fold (X_B3 waits: l4_fold_v); hb's IP header, loaded
// in X_SUMS, summed for its IPv4 checksum (X_BUILD waits: ip4n_v)
wire        xs_go = x_state == X_SUMS && xi_idx != x_fidx;
reg         xs_go_d = 1'b0;     // XI's sums are in x_sum_*, hb is loaded
always @(posedge clk) begin
    xs_go_d <= xs_go;
    if (rst)
        xs_go_d <= 1'b0;
end

// the shim's checksum: summed once XO has the sums, then folded (X_CHECK
// compares)
reg  [31:0] shim_acc = 0;
reg         shim_acc_v = 1'b0;
always @(posedge clk) begin
    shim_acc_v <= xs_go_d;
    if (xs_go_d)
        shim_acc <= x_sum_all - {16'd0, x_sh_csum} + {9'd0, x_addr_sum} + 32'd253 +
                    {16'd0, x_seg_in};
    if (rst)
        shim_acc_v <= 1'b0;
end
wire [15:0] shim_fold;
wire        shim_fold_v;
nic_fold fold_shim (.clk(clk), .rst(rst), .acc(shim_acc), .in_valid(shim_acc_v),
                    .folded(shim_fold), .out_valid(shim_fold_v));
wire shim_csum_ok = ~shim_fold == x_sh_csum;

// ---- the restored headers ----------------------------------------------------

// X_CHECK: the folded sums taken (xc_go); then the L4 checksum's sum and
// its fold; X_B3: the checksum
wire [15:0] f_hp, f_suf, f_range;
wire        f_hp_v, f_suf_v, f_range_v;
// the carried L4 checksum taken out of the header and prefix's sum, a
// register ahead of its fold
reg  [31:0] hp_acc = 0;
reg         hp_acc_v = 1'b0;
always @(posedge clk) begin
    hp_acc_v <= xs_go_d;
    if (xs_go_d)
        hp_acc <= x_sum_hp - {16'd0, x_in_csum};
    if (rst)
        hp_acc_v <= 1'b0;
end
nic_fold fold_hp (.clk(clk), .rst(rst), .acc(hp_acc), .in_valid(hp_acc_v),
                  .folded(f_hp), .out_valid(f_hp_v));
nic_fold fold_suf (.clk(clk), .rst(rst), .acc(x_sum_suf), .in_valid(xs_go_d),
                   .folded(f_suf), .out_valid(f_suf_v));
nic_fold fold_range (.clk(clk), .rst(rst), .acc(x_sum_range), .in_valid(xs_go_d),
                     .folded(f_range), .out_valid(f_range_v));
// the four folds' ends
wire        xf_all;
nic_join #(.N(4)) xf_join (
    .clk(clk), .rst(rst), .clear(xs_go), .valid({shim_fold_v, f_hp_v, f_suf_v, f_range_v}),
    .all(xf_all)
);
wire        xc_go = x_state == X_CHECK && xf_all;
reg         xc_go_d = 1'b0;     // the folded sums are taken
reg  [15:0] f_hp_r = 0, range_sw = 0, suf_sw = 0;
reg  [31:0] l4_rec = 0, l4_acc = 0;
reg         l4_acc_v = 1'b0;
wire [15:0] l4_fold;
wire        l4_fold_v;
nic_fold fold_l4 (.clk(clk), .rst(rst), .acc(l4_acc), .in_valid(l4_acc_v),
                  .folded(l4_fold), .out_valid(l4_fold_v));
wire        udp_none = x_sh_proto == 8'd17 && x_ip_ver == 4'd4 && x_in_csum == 16'd0;
reg  [15:0] l4_c = 0;

always @(posedge clk) begin
    xc_go_d <= xc_go;
    if (xc_go) begin
        f_hp_r <= f_hp;
        range_sw <= x_sh_off[0] ? {f_range[7:0], f_range[15:8]} : f_range;
        suf_sw <= x_ch_body[0] ^ x_ch_raw[0] ? {f_suf[7:0], f_suf[15:8]} : f_suf;
    end
    // (the record's terms summed apart, once XO has the record, so l4_acc
    // adds four terms, not six)
    if (x_state == X_DECIDE)
        l4_rec <= {9'd0, x_addr_sum} + {24'd0, x_sh_proto} + {16'd0, seg_out_x};
    l4_acc_v <= xc_go_d;
    if (xc_go_d)
        l4_acc <= l4_rec + {16'd0, f_hp_r} + {16'd0, range_sw} + {16'd0, suf_sw};
    if (x_state == X_B3 && l4_fold_v) begin
        l4_c <= udp_none ? 16'd0 :
                (~l4_fold == 16'd0 && x_sh_proto == 8'd17 ? 16'hffff : ~l4_fold);
    end
    if (rst) begin
        xc_go_d <= 1'b0;
        l4_acc_v <= 1'b0;
    end
end
wire [7:0]    out_csum_rel = x_sh_proto == 8'd6 ? 8'd16 : 8'd6;
wire [7:0]    l4_hdr_end = x_l4_off + x_sh_l4len;

// the restored header block, byte by byte: the frame's bytes up to l4_off
// (the IP header patched back: length, protocol; IPv4 checksum 0 for now),
// then the carried L4 header, which is the frame's bytes 16 places on,
// with its new checksum

// byte jj of the block: x_hreg's byte (IP header patched) below l4_off,
// then the carried L4 header's byte l4b (the checksum's bytes at csum_rel
// and the next replaced by c) below l4h_end; with put4, the IPv4 header's
// checksum c4 in its place
function [7:0] hb_byte;
    input [7:0]  jj;
    input [7:0]  l4_off;
    input [7:0]  l4h_end;
    input [7:0]  ipb;
    input [7:0]  l4b;
    input [7:0]  csum_rel;
    input [15:0] c;
    input        put4;
    input [7:0]  l3_off;
    input [15:0] c4;
    reg   [7:0]  l4_i;
    begin
        l4_i = jj - l4_off;
        if (jj < l4_off)
            hb_byte = ipb;
        else if (jj < l4h_end)
            hb_byte = l4_i == csum_rel ? c[15:8] :
                      l4_i == csum_rel + 8'd1 ? c[7:0] : l4b;
        else
            hb_byte = 8'd0;
        if (put4)
            hb_byte = ip4_csum_byte(jj, hb_byte, l3_off, c4);
    end
endfunction

wire [1279:0] hb;              // (hbyte: a register a byte)
reg  [7:0]    hb_len = 0;
wire [15:0]   ip4n_c;

// hb loads in X_SUMS (its IP header is final then: it does not depend on
// the L4 checksum), so the restored IPv4 header's checksum (nic_ip4_csum,
// from xs_go_d: ip4n_v) is there before X_BUILD, which loads it once
// more, with the L4 checksum, and writes the IPv4 checksum into it
wire hb_ld = x_state == X_SUMS || x_state == X_BUILD;
wire hb_put4 = x_state == X_BUILD && x_ip_ver == 4'd4;

genvar j;
generate
    for (j = 0; j < 160; j = j + 1) begin : hbyte
        wire [7:0] jj = j;
        reg  [7:0] b = 0;
        always @(posedge clk)
            if (hb_ld)
                b <= hb_byte(jj, x_l4_off, l4_hdr_end,
                             ip_patch_byte(x_hreg[8*j +: 8], jj - x_l3_off, x_ip_ver,
                                           ip_total_x, plen6_x, x_sh_proto),
                             j + 16 < 160 ? x_hreg[8*(j+16 < 160 ? j+16 : 0) +: 8] : 8'd0,
                             out_csum_rel, l4_c, hb_put4, x_l3_off, ip4n_c);
        assign hb[8*j +: 8] = b;
    end
endgenerate
wire          ip4n_v;
wire          xb_ip4;            // its end (X_BUILD waits)
nic_ip4_csum ip4n (.clk(clk), .rst(rst), .hdr(hb), .lo(x_l3_off), .hi(x_ip4_hi),
                   .in_valid(xs_go_d), .csum(ip4n_c), .csum_valid(ip4n_v));
nic_join #(.N(1)) xb_join (
    .clk(clk), .rst(rst), .clear(xs_go), .valid(ip4n_v), .all(xb_ip4)
);

// ---- X's records, for W ------------------------------------------------------

// the assembler's inputs (header block length, 0 for a frame as it came;
// the pieces: payload before the range and after it in the ring, the
// range in this record's slot of the range RAM), what W writes back and
// counts, the frame's words in the ring, and whether X dropped it
localparam XR_W = 8 + 16 * 5 + 14 + 1 + 1 + RING_AW + 1 + 16 + 16;
reg  [1279:0]   xr_hb [0:NRX-1];
reg  [XR_W-1:0] xr_info [0:NRX-1];
// the ring addresses of the pieces, a clock after the record's fields
// (X_DECIDE comes between them and X_REC, which uses them)
reg  [14:0]  pre_at = 0, suf_at = 0;
always @(posedge clk) begin
    pre_at <= fbase + x_body_at - {1'b0, x_sh_off[13:0]};
    suf_at <= fbase + x_body_end;
end
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

// ---- XO's state machine ------------------------------------------------------

always @(posedge clk) begin
    case (x_state)
    X_IDLE: begin
        if (x_take) begin
            {x_kind, x_fr_start, x_fr_len, x_l3_off, x_l4_off, x_ip_ver,
             x_sh_proto, x_sh_l4len, x_sh_off, x_sh_csum, unused_x_chunk,
             x_ch_raw, x_ch_body, x_in_csum, x_body_at, x_body_end, x_tail,
             x_new_end, x_addr_sum, x_ip4_hi, x_seg_in, unused_x_win, ip_total_x,
             plen6_x, seg_out_x} <=
                hr_info[xh_slot];
            x_sum_range <= rr_sum[x_slot];
            x_dec_err <= rr_err[x_slot];
            x_hreg <= hr_hreg[xh_slot];
            x_fidx <= xh_idx;
            xh_idx <= xh_idx + 16'd1;
            x_state <= X_DECIDE;
        end
    end
    X_DECIDE: begin
        restore <= 1'b0;
        drop_bad <= x_kind == K_DROP;
        out_len <= x_fr_len;
        if (x_kind != K_RESTORE) begin
            xf_idx <= xf_idx + 16'd1;   // (the record is not needed again)
            x_state <= X_REC;
        end else begin
            x_state <= X_SUMS;
        end
    end
    X_SUMS: begin
        // (hb takes its IP header now: the sums and folds of the IPv4
        // header's checksum are there long before X_BUILD)
        // (hbyte loads hb)
        // XI's sums, once it is done with the frame (xs_go); they and the
        // range's are folded (the shim's and the header's after a sum)
        if (xs_go) begin
            x_sum_all <= cs_all[x_fidx[HS_W-1:0]];
            x_sum_hp <= cs_hp[x_fidx[HS_W-1:0]];
            x_sum_suf <= cs_suf[x_fidx[HS_W-1:0]];
            xf_idx <= xf_idx + 16'd1;
            x_state <= X_CHECK;
        end
    end
    X_CHECK: begin
        // once the four folds are in (xc_go)
        if (xf_all) begin
            if (!shim_csum_ok || x_dec_err) begin
                drop_bad <= 1'b1;
                x_state <= X_REC;
            end else begin
                // (the folded sums are taken) the L4 checksum's sum and
                // its fold
                x_state <= X_B3;
            end
        end
    end
    X_B3: begin
        // the L4 checksum (l4_c), once its fold is in
        if (l4_fold_v)
            x_state <= X_BUILD;
    end
    X_BUILD: begin
        // (hbyte loads hb, with the IPv4 checksum), once it is in
        if (xb_ip4) begin
            restore <= 1'b1;
            hb_len <= l4_hdr_end;
            out_len <= x_new_end;
            x_state <= X_REC;
        end
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
        xf_idx <= 0;
    end
end



// ===========================================================================
// the verdicts, and the frames' release
// ===========================================================================

// X's records, from w_idx (released: out of the ring) to v_idx (the next
// the verdict takes) to x_idx (X wrote them)
reg  [15:0] v_idx = 0;
wire [XS_W-1:0] v_slot = v_idx[XS_W-1:0];
wire [8+16*5-1:0] unused_v_asm;     // (the assembler's, read as it starts)
wire [RING_AW:0] unused_v_words;
assign {unused_v_asm, m_meta_len, m_meta_restore, m_meta_bad, unused_v_words,
        m_meta_body, m_meta_raw} = xr_info[v_slot];
assign m_meta_valid = v_idx != x_idx;
wire         as_go, as_go_ready, as_busy;
assign s_verdict_ready = m_meta_valid && (!s_verdict_deliver || as_go_ready);
wire         v_fire = s_verdict_valid && s_verdict_ready;
assign as_go = v_fire && s_verdict_deliver;

// the release, in order: the oldest verdict's frame leaves the ring (and
// its record is free) at once if it was dropped, once its last beat is
// taken if it was delivered (o_lasts: delivered frames whose last beat
// went and that are not yet released: those behind a drop)
reg  [NRX-1:0] v_deliver = 0;       // by record slot
reg  [3:0]  o_lasts = 0;
wire [XS_W-1:0] w_slot = w_idx[XS_W-1:0];
wire        o_last = m_axis_tvalid && m_axis_tready && m_axis_tlast;
wire        w_head = w_idx != v_idx;
wire        w_del = v_deliver[w_slot];
assign pop_frame = w_head && (!w_del || o_lasts != 0 || o_last);
wire [8+16*5+14+1+1-1:0] unused_w_info;
wire [31:0] unused_w_counts;
assign {unused_w_info, pop_words, unused_w_counts} = xr_info[w_slot];

integer vi;
always @(posedge clk) begin
    if (v_fire) begin
        // (a decoded write: an indexed one is a shifter to yosys)
        for (vi = 0; vi < NRX; vi = vi + 1)
            if (v_slot == vi[XS_W-1:0])
                v_deliver[vi] <= s_verdict_deliver;
        v_idx <= v_idx + 16'd1;
    end
    o_lasts <= o_lasts + {3'd0, o_last} - {3'd0, pop_frame && w_del};
    if (pop_frame)
        w_idx <= w_idx + 16'd1;
    if (rst) begin
        v_idx <= 0;
        w_idx <= 0;
        o_lasts <= 0;
    end
end


// ===========================================================================
// A: the assembler
// ===========================================================================

// ---- the assembler ---------------------------------------------------------------

wire [DATA_W-1:0] a_tdata;
wire [BB-1:0] a_tkeep;
wire         a_tvalid, a_tlast, a_tready;
wire         o_empty;

// (as_go with the verdict: the record it reads is the verdict's)
wire [XS_W-1:0] as_slot = v_slot;
wire [7:0]  as_hb_len;
wire [15:0] as_seg0_start, as_seg0_len, as_seg1_len, as_seg2_start, as_seg2_len;
wire [13:0] unused_as_out;
wire        unused_as_restore, unused_as_bad;
wire [RING_AW:0] unused_as_words;
wire [15:0] unused_as_body, unused_as_raw;
assign {as_hb_len, as_seg0_start, as_seg0_len, as_seg1_len, as_seg2_start, as_seg2_len,
        unused_as_out, unused_as_restore, unused_as_bad, unused_as_words, unused_as_body,
        unused_as_raw} = xr_info[as_slot];

nic_assembler #(.DATA_W(DATA_W), .A_AW(RING_AW + BS), .B_AW(14 + XS_W), .QUEUE(1)) asm_rx (
    .clk(clk), .rst(rst),
    .go(as_go), .go_ready(as_go_ready), .busy(as_busy),
    /* verilator lint_off PINCONNECTEMPTY */
    .done(),            // (the release sees each frame's last beat itself)
    /* verilator lint_on PINCONNECTEMPTY */
    .hb(xr_hb[as_slot]), .hb_len(as_hb_len),
    .seg_b(3'b010),
    .seg0_start({{(XS_W - 2){1'b0}}, as_seg0_start}), .seg0_len(as_seg0_len),
    .seg1_start({as_slot, 14'd0}), .seg1_len(as_seg1_len),
    .seg2_start({{(XS_W - 2){1'b0}}, as_seg2_start}), .seg2_len(as_seg2_len),
    .rda_start_valid(as_rda_valid), .rda_start_ready(rw_ready),
    .rda_start_addr(as_rda_addr), .rda_start_len(as_rda_len), .rda_start_cnt(as_rda_cnt),
    .rda_tdata(rw_tdata), .rda_tvalid(rw_tvalid),
    .rda_tready(as_rda_tready), .rda_tlast(rw_tlast), .rda_tlen(rw_tlen),
    .rdb_start_valid(as_rdb_valid), .rdb_start_ready(rb_ready),
    .rdb_start_addr(as_rdb_addr), .rdb_start_len(as_rdb_len), .rdb_start_cnt(as_rdb_cnt),
    .rdb_tdata(rb_tdata), .rdb_tvalid(rb_tvalid),
    .rdb_tready(as_rdb_tready), .rdb_tlast(rb_tlast), .rdb_tlen(rb_tlen),
    .m_axis_tdata(a_tdata), .m_axis_tkeep(a_tkeep), .m_axis_tvalid(a_tvalid),
    .m_axis_tready(a_tready), .m_axis_tlast(a_tlast)
);

// its beats wait here while the shell writes a descriptor (or the DMA is
// busy), so the assembler goes on with the next frame meanwhile
nic_fifo #(.DATA_W(DATA_W), .ADDR_W(4)) o_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(a_tdata), .s_axis_tkeep(a_tkeep), .s_axis_tvalid(a_tvalid),
    .s_axis_tready(a_tready), .s_axis_tlast(a_tlast),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .empty(o_empty)
);

assign stat_frame = i_frame;
assign stat_bytes = i_bytes;
assign stat_drop_mac = i_drop_mac;
assign stat_drop_room = i_drop_buf;

// nothing queued, being received (a beat coming in counts: the first of a
// frame, or a one-beat frame, is in no register yet), processed or
// waiting for its verdict or release
assign idle = !hl_load && hh_ready && xi_state == XI_IDLE && xr_state == XR_IDLE &&
              x_state == X_IDLE && q_cnt == 0 && !as_busy && o_empty &&
              h_idx == xf_idx && x_idx == w_idx &&
              f_bytes == 0 && !s_axis_tvalid && !in_tvalid;

endmodule

`resetall
