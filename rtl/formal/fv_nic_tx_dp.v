// SPDX-License-Identifier: MIT
/*
 * fv_nic_tx_dp: formal harness of the transmit datapath, nic_tx_dp
 * (rtl/scripts/formal.sh nic_tx_dp 8 DEPTH, with the cut points of
 * tests/run-tests.sh): its boundary with a DMA shell and a MAC, at 8
 * lanes with 2 record slots (SLOT_W = 1; nic_tx has 32) and 8-bit tags.
 *
 * Cut points (the FORMAL_CUT line below, formal.sh): the RAMs
 * (nic_ram), the compressor (inc_compressor) and the header parse
 * (nic_hdr_parse_reg, nic_l4_parse) are removed and their outputs are
 * free in every cycle: any frame contents, any body the engine might give
 * (or none), any transmit decision. What is checked holds for all of
 * them, so it holds for the real blocks.
 *
 * Assumptions: rst high in the first cycle (fv_env; free afterwards);
 * s_meta and s_axis follow the stream rules (axis_props, ASSUME = 1); the
 * metadata's tag is its number (the metas taken since reset, 8 bits); the
 * metadata's other fields, the beats (their count and tlast too), and the
 * readiness of m_axis and m_stat are free; the test port idle.
 *
 * Assertions:
 *   - m_axis follows the stream rules (valid held, tkeep and tlast
 *     stable, keep contiguous; tdata is not in this check: it is the
 *     RAMs' and the engine's, free here) and m_stat does (valid held, its
 *     fields stable until taken)
 *   - a_order: each status is the next metadata's (its tag the count of
 *     statuses before it): none lost, none reordered, none twice
 *   - a_invent: no status without its metadata taken
 *   - a_err: the status's err is its metadata's
 *   - a_frame: a frame's status follows exactly one frame on m_axis (its
 *     own, whole: the frames' tlasts are the statuses without err plus at
 *     most the one being sent), a descriptor in error's none
 *   - a_sent: the frame on m_axis is as long as its status says it sent
 *
 * FV_BREAK_VALID: m_axis's valid as the checker sees it drops after a
 * stall, so chk_m must fail. FV_COVER: c_reach asserts no trace has a
 * stalled beat and two statuses taken; the check must then fail.
 */

// FORMAL_CUT: nic_ram inc_compressor nic_hdr_parse_reg nic_l4_parse

// Language: Verilog 2001 (formal subset: assert, assume)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_tx_dp #
(
    parameter LANES = 8,
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB),
    parameter FR_AW = 16 - BS
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire              s_meta_valid,
    input  wire [13:0]       s_meta_len,
    input  wire              s_meta_comp,
    input  wire [7:0]        s_meta_k,
    input  wire [7:0]        s_meta_mode,
    input  wire [15:0]       s_meta_off,
    input  wire [15:0]       s_meta_rlen,
    input  wire              s_meta_err,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [BB-1:0]     s_axis_tkeep,
    input  wire              s_axis_tvalid,
    input  wire              s_axis_tlast,

    input  wire              m_axis_tready,
    input  wire              m_stat_ready
);

`include "nic_beat_fns.vh"

localparam TAG_W = 8;

wire              s_meta_ready, s_axis_tready;
wire [FR_AW:0]    fr_free;
wire [DATA_W-1:0] m_axis_tdata;
wire [BB-1:0]     m_axis_tkeep;
wire              m_axis_tvalid, m_axis_tlast;
wire              m_stat_valid, m_stat_err, m_stat_comp;
wire [TAG_W-1:0]  m_stat_tag;
wire [7:0]        m_stat_outcome;
wire [13:0]       m_stat_sent, m_stat_len, m_stat_body;
wire [15:0]       m_stat_rlen;
wire              idle;

// the metadata's number: its tag
reg  [TAG_W-1:0]  n_meta = 0;

/* verilator lint_off PINCONNECTEMPTY */
nic_tx_dp #(.LANES(LANES), .WIDTH(0), .TAG_W(TAG_W), .SLOT_W(1)) dut (
    .clk(clk), .rst(rst),
    .s_meta_valid(s_meta_valid), .s_meta_ready(s_meta_ready),
    .s_meta_len(s_meta_len), .s_meta_comp(s_meta_comp), .s_meta_k(s_meta_k),
    .s_meta_mode(s_meta_mode), .s_meta_off(s_meta_off), .s_meta_rlen(s_meta_rlen),
    .s_meta_tag(n_meta), .s_meta_err(s_meta_err),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast), .fr_free(fr_free),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_stat_valid(m_stat_valid), .m_stat_ready(m_stat_ready),
    .m_stat_tag(m_stat_tag), .m_stat_err(m_stat_err), .m_stat_outcome(m_stat_outcome),
    .m_stat_sent(m_stat_sent), .m_stat_len(m_stat_len), .m_stat_body(m_stat_body),
    .m_stat_rlen(m_stat_rlen), .m_stat_comp(m_stat_comp),
    .idle(idle),
    .tp_req(1'b0), .tp_gnt(),
    .tp_tdata({DATA_W{1'b0}}), .tp_tkeep({BB{1'b0}}), .tp_tvalid(1'b0), .tp_tlast(1'b0),
    .tp_tuser(8'd0), .tp_s_tready(),
    .tp_m_tdata(), .tp_m_tkeep(), .tp_m_tvalid(), .tp_m_tready(1'b0),
    .tp_m_tlast(), .tp_m_tuser(),
    .dbg_fault(1'b0)
);
/* verilator lint_on PINCONNECTEMPTY */

wire m_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk), .rst(rst),
    .m_tvalid(m_axis_tvalid), .m_tready(m_axis_tready),
    .m_valid_chk(m_valid_chk), .past_valid(f_past_valid), .cov_stall(cov_stall)
);

localparam META_W = 14 + 1 + 8 + 8 + 16 + 16 + 1;
localparam STAT_W = TAG_W + 1 + 8 + 14 + 14 + 14 + 16 + 1;
wire [7:0] mt_beats, mt_starts, mt_ends, sa_beats, sa_starts, sa_ends;
wire [7:0] ma_beats, ma_starts, ma_ends, st_beats, st_starts, st_ends;
wire       mt_pkt, mt_xfer, sa_pkt, sa_xfer, ma_pkt, ma_xfer, st_pkt, st_xfer;
axis_props #(.DATA_W(META_W), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0),
             .CNT_W(8)) chk_meta (
    .clk(clk), .rst(rst),
    .tdata({s_meta_len, s_meta_comp, s_meta_k, s_meta_mode, s_meta_off, s_meta_rlen,
            s_meta_err}),
    .tkeep(1'b1), .tvalid(s_meta_valid), .tready(s_meta_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(mt_beats), .starts(mt_starts), .ends(mt_ends), .in_packet(mt_pkt),
    .xfer(mt_xfer)
);
axis_props #(.DATA_W(DATA_W), .KEEP_W(BB), .USER_W(1), .ASSUME(1), .KEEP_CHECK(1),
             .CNT_W(8)) chk_s (
    .clk(clk), .rst(rst), .tdata(s_axis_tdata), .tkeep(s_axis_tkeep),
    .tvalid(s_axis_tvalid), .tready(s_axis_tready), .tlast(s_axis_tlast), .tuser(1'b0),
    .beats(sa_beats), .starts(sa_starts), .ends(sa_ends), .in_packet(sa_pkt),
    .xfer(sa_xfer)
);
// (tdata: not checked, 0 to the checker)
axis_props #(.DATA_W(1), .KEEP_W(BB), .USER_W(1), .ASSUME(0), .KEEP_CHECK(1),
             .CNT_W(8)) chk_m (
    .clk(clk), .rst(rst), .tdata(1'b0), .tkeep(m_axis_tkeep),
    .tvalid(m_valid_chk), .tready(m_axis_tready), .tlast(m_axis_tlast), .tuser(1'b0),
    .beats(ma_beats), .starts(ma_starts), .ends(ma_ends), .in_packet(ma_pkt),
    .xfer(ma_xfer)
);
axis_props #(.DATA_W(STAT_W), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0),
             .CNT_W(8)) chk_stat (
    .clk(clk), .rst(rst),
    .tdata({m_stat_tag, m_stat_err, m_stat_outcome, m_stat_sent, m_stat_len, m_stat_body,
            m_stat_rlen, m_stat_comp}),
    .tkeep(1'b1), .tvalid(m_stat_valid), .tready(m_stat_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(st_beats), .starts(st_starts), .ends(st_ends), .in_packet(st_pkt),
    .xfer(st_xfer)
);

// the frame beats taken (as the design drives tvalid: chk_m may see a
// broken one, FV_BREAK_VALID)
wire ma_beat = m_axis_tvalid && m_axis_tready && !rst;

// the model: the metas taken (their err bits by tag), the statuses taken,
// the statuses without err, the frames' ends on m_axis, the bytes of the
// frame on m_axis so far and of the last one ended
reg  [TAG_W-1:0] n_stat = 0, n_ok = 0, n_mlast = 0;
reg  [15:0]      exp_err = 0;
reg  [14:0]      m_bytes = 0, m_last_bytes = 0;
wire [BS:0]      keep_n;
assign keep_n = ones_k(m_axis_tkeep);
integer i;
always @(posedge clk) begin
    if (mt_xfer) begin
        n_meta <= n_meta + 1'b1;
        for (i = 0; i < 16; i = i + 1)
            if (n_meta[3:0] == i)
                exp_err[i] <= s_meta_err;
    end
    if (st_xfer) begin
        n_stat <= n_stat + 1'b1;
        if (!m_stat_err)
            n_ok <= n_ok + 1'b1;
    end
    if (ma_beat) begin
        m_bytes <= m_axis_tlast ? 15'd0 : m_bytes + {{(14 - BS){1'b0}}, keep_n};
        if (m_axis_tlast) begin
            n_mlast <= n_mlast + 1'b1;
            m_last_bytes <= m_bytes + {{(14 - BS){1'b0}}, keep_n};
        end
    end
    if (rst) begin
        n_meta <= 0;
        n_stat <= 0;
        n_ok <= 0;
        n_mlast <= 0;
        m_bytes <= 0;
    end
end

// the frames ended on m_axis and the last one's bytes, this cycle's
// last beat included (a frame's status may come with its last beat)
wire             m_end = ma_beat && m_axis_tlast;
wire [TAG_W-1:0] n_ends = n_mlast + {{(TAG_W - 1){1'b0}}, m_end};
wire [14:0]      ended_bytes = m_end ? m_bytes + {{(14 - BS){1'b0}}, keep_n} : m_last_bytes;

`ifdef FORMAL

always @(*) begin
    if (f_past_valid && !rst) begin
        a_invent: assert(!m_stat_valid || n_stat != n_meta);
        if (m_stat_valid) begin
            a_order: assert(m_stat_tag == n_stat);
            a_err: assert(m_stat_err == exp_err[n_stat[3:0]]);
            if (m_stat_err)
                a_frame_err: assert(n_ends == n_ok);
            else begin
                a_frame: assert(n_ends == n_ok + 1'b1);
                a_sent: assert(ended_bytes == {1'b0, m_stat_sent});
            end
        end
        a_frames: assert(n_ends == n_ok || n_ends == n_ok + 1'b1);
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && st_ends >= 2));
`endif

`endif

endmodule

`resetall
