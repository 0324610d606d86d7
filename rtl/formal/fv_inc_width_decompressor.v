// SPDX-License-Identifier: MIT
/*
 * fv_inc_width_decompressor: formal harness of inc_width_decompressor's
 * AXI4-Stream ports and status outputs (rtl/scripts/formal.sh
 * inc_width_decompressor - DEPTH): fv_inc_decompressor's, at 16 lanes,
 * with one rule changed (a_frames, below).
 *
 * Every input of the engine is free (the harness's own inputs, unconstrained
 * by the solver) except for these assumptions:
 *   - rst is high in the first cycle (it may also rise at any later cycle)
 *   - s_axis follows the AXI4-Stream rules (axis_props, ASSUME = 1): tvalid
 *     low after a reset cycle, held until tready, tdata/tkeep/tlast/tuser
 *     stable while waiting. Its contents are otherwise arbitrary: any body
 *     bytes, k, mode and raw_len, any tkeep (the engine flags malformed
 *     chunks but must still keep the stream rules).
 *   - m_axis_tready is free: the sink may stall at any time.
 *
 * Assertions:
 *   - m_axis follows the AXI4-Stream rules (axis_props, ASSUME = 0): tvalid
 *     low after a reset cycle; tvalid held, and tdata, tkeep, tlast, tuser
 *     stable, while stalled; tkeep contiguous from byte 0 and all ones but on
 *     the tlast beat (docs/rtl.md, decompressor ports)
 *   - a_err_beat: a beat with tuser[0] (malformed chunk) is a tlast beat
 *     with tkeep = 0
 *   - a_no_spurious: no output beat and no status pulse before the first
 *     input beat after reset
 *   - a_status_reset, a_status_err: status_valid low after a reset cycle;
 *     status_error only with status_valid
 *   - a_frames: packets out (tlast beats) never exceed the status pulses
 *     (counting one on status_valid now: this engine raises it the clock
 *     after the tlast beat leaves, from its output FIFO's pop, where
 *     inc_decompressor raises it as the beat enters its FIFO), which never
 *     exceed the packets started on s_axis: one output packet
 *     and one status pulse per chunk, no tlast invented or duplicated (a
 *     chunk whose body goes on past what its groups call for is flagged
 *     before its body's tlast: its verdict needs no more of it)
 *   - a_good_frames: packets out without the error flag never exceed input
 *     packets ended: a good chunk's verdict comes after its body's tlast
 *     (its length is judged at its end).
 *
 * Not checked: the raw bytes (the bit-exact simulation tests do that), that
 * a chunk yields exactly ceil(raw_len / (4 LANES)) beats, liveness.
 *
 * FV_COVER (a define): c_reach asserts that no trace has a stalled output
 * beat and two output packets, one of them good; the check must then fail
 * (it shows the harness is not vacuous).
 *
 * FV_BREAK_VALID (a define): the harness drops m_axis_tvalid on its way to
 * the checker in the cycle after a stall, as a broken engine would; the
 * check must then fail (formal.sh's self-test of the harness).
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_inc_width_decompressor #
(
    // 32-bit lanes per raw beat of the engine: 16 (its only width)
    parameter LANES = 16,
    // Rows of the engine's ring and tables: fewer than it needs for line
    // rate (16) keep the model small; the handshake rules do not depend on
    // it
    parameter BUF_ROWS = 8,
    // Width of the transfer counters, bits (a check must stay shorter than
    // 2^CNT_W cycles)
    parameter CNT_W = 8
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [LANES*64-1:0]   s_axis_tdata,
    input  wire [LANES*8-1:0]    s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [20:0]           s_axis_tuser,

    output wire [LANES*32-1:0]   m_axis_tdata,
    output wire [LANES*4-1:0]    m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [0:0]            m_axis_tuser,

    output wire                  status_valid,
    output wire                  status_error
);

inc_width_decompressor #(
    .BUF_ROWS(BUF_ROWS)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .status_valid(status_valid),
    .status_error(status_error)
);

// first cycle, reset, the output valid the checker sees (FV_BREAK_VALID: a
// broken one), a stalled output beat seen (FV_COVER)
wire m_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk),
    .rst(rst),
    .m_tvalid(m_axis_tvalid),
    .m_tready(m_axis_tready),
    .m_valid_chk(m_valid_chk),
    .past_valid(f_past_valid),
    .cov_stall(cov_stall)
);

wire [CNT_W-1:0] in_beats, in_starts, in_ends;
wire [CNT_W-1:0] out_beats, out_starts, out_ends;
wire             in_pkt, out_pkt, in_xfer, out_xfer;

axis_props #(
    .DATA_W(LANES*64),
    .KEEP_W(LANES*8),
    .USER_W(21),
    .ASSUME(1),
    .KEEP_CHECK(0),
    .CNT_W(CNT_W)
) chk_s (
    .clk(clk),
    .rst(rst),
    .tdata(s_axis_tdata),
    .tkeep(s_axis_tkeep),
    .tvalid(s_axis_tvalid),
    .tready(s_axis_tready),
    .tlast(s_axis_tlast),
    .tuser(s_axis_tuser),
    .beats(in_beats),
    .starts(in_starts),
    .ends(in_ends),
    .in_packet(in_pkt),
    .xfer(in_xfer)
);

axis_props #(
    .DATA_W(LANES*32),
    .KEEP_W(LANES*4),
    .USER_W(1),
    .ASSUME(0),
    .KEEP_CHECK(1),
    .CNT_W(CNT_W)
) chk_m (
    .clk(clk),
    .rst(rst),
    .tdata(m_axis_tdata),
    .tkeep(m_axis_tkeep),
    .tvalid(m_valid_chk),
    .tready(m_axis_tready),
    .tlast(m_axis_tlast),
    .tuser(m_axis_tuser),
    .beats(out_beats),
    .starts(out_starts),
    .ends(out_ends),
    .in_packet(out_pkt),
    .xfer(out_xfer)
);

// status pulses and good output packets since the last reset
reg [CNT_W-1:0] status_cnt = 0;
reg [CNT_W-1:0] good_ends = 0;
always @(posedge clk) begin
    if (status_valid && !rst)
        status_cnt <= status_cnt + 1'b1;
    if (out_xfer && m_axis_tlast && !m_axis_tuser[0])
        good_ends <= good_ends + 1'b1;
    if (rst) begin
        status_cnt <= 0;
        good_ends <= 0;
    end
end

`ifdef FORMAL

always @(posedge clk) begin
    if (f_past_valid && $past(rst))
        a_status_reset: assert(!status_valid);
    if (f_past_valid && !rst) begin
        a_status_err: assert(status_valid || !status_error);
        if (m_valid_chk && m_axis_tuser[0])
            a_err_beat: assert(m_axis_tlast && m_axis_tkeep == 0);
        if (in_beats == 0)
            a_no_spurious: assert(!m_valid_chk && !status_valid);
        a_frames: assert(out_ends <= status_cnt + {{(CNT_W-1){1'b0}}, status_valid} &&
                         status_cnt <= in_starts);
        a_good_frames: assert(good_ends <= in_ends);
    end
end

`ifdef FV_COVER
// a trace exists with a stalled output beat and two output packets, one of
// them good: the check must fail here, or the harness's assumptions leave
// nothing to check
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && out_ends >= 2 && good_ends >= 1));
`endif

`endif

endmodule

`resetall
