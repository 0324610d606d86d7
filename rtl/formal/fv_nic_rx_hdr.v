// SPDX-License-Identifier: MIT
/*
 * fv_nic_rx_hdr: formal harness of nic_rx's header stage, nic_rx_hdr
 * (rtl/scripts/formal.sh nic_rx_hdr - DEPTH): the boundary of a stage of
 * the receive path, its header in and its record out, both valid/ready.
 *
 * Assumptions: rst high in the first cycle (fv_env; free afterwards); s
 * follows the stream rules (axis_props, ASSUME = 1: valid held and the
 * length and ring word stable until taken); the header's bytes, the
 * lengths and m_ready free (any frame, any consumer).
 *
 * Assertions, against a model of its own (the header taken and not yet
 * answered: its length and ring word):
 *   - m follows the stream rules (axis_props, ASSUME = 0, the record as
 *     tdata): valid held and the record stable until taken, no valid
 *     after a reset cycle
 *   - a_one: the stage takes no header while one is in it (s_ready low
 *     from the take until its record is taken)
 *   - a_invent: no record without a header taken
 *   - a_same: the record taken carries the length and ring word of the
 *     header taken (none lost, none swapped: one at a time, in order)
 *   - a_prompt: a header's record is offered at most 10 clocks after its
 *     take (its chains end: nothing in the stage waits forever)
 *
 * FV_BREAK_VALID: valid as the checker sees it drops after a stall, so
 * chk_m must fail. FV_COVER: c_reach asserts no trace has a stalled
 * record and two records taken; the check must then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_rx_hdr #
(
    // the header and record sizes as nic_rx has them at 16 lanes
    parameter RING_AW = 9,
    parameter REC_W = 2 + RING_AW + 320
)
(
    input  wire               clk,
    input  wire               rst,

    input  wire               s_valid,
    input  wire [1279:0]      s_hdr,
    input  wire [13:0]        s_len,
    input  wire [RING_AW-1:0] s_start,
    input  wire               m_ready
);

wire               s_ready, m_valid;
wire [1279:0]      m_hdr;
wire [REC_W-1:0]   m_info;

nic_rx_hdr #(.WIDTH_OK(1), .RING_AW(RING_AW), .REC_W(REC_W)) dut (
    .clk(clk), .rst(rst),
    .s_valid(s_valid), .s_ready(s_ready), .s_hdr(s_hdr), .s_len(s_len), .s_start(s_start),
    .m_valid(m_valid), .m_ready(m_ready), .m_hdr(m_hdr), .m_info(m_info)
);

wire m_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk), .rst(rst),
    .m_tvalid(m_valid), .m_tready(m_ready),
    .m_valid_chk(m_valid_chk), .past_valid(f_past_valid), .cov_stall(cov_stall)
);

wire [7:0] s_beats, s_starts, s_ends, m_beats, m_starts, m_ends;
wire       s_pkt, s_xfer, m_pkt, m_xfer;
axis_props #(.DATA_W(14 + RING_AW), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0),
             .CNT_W(8)) chk_s (
    .clk(clk), .rst(rst), .tdata({s_len, s_start}), .tkeep(1'b1), .tvalid(s_valid),
    .tready(s_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(s_beats), .starts(s_starts), .ends(s_ends), .in_packet(s_pkt), .xfer(s_xfer)
);
axis_props #(.DATA_W(REC_W), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0),
             .CNT_W(8)) chk_m (
    .clk(clk), .rst(rst), .tdata(m_info), .tkeep(1'b1), .tvalid(m_valid_chk),
    .tready(m_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(m_beats), .starts(m_starts), .ends(m_ends), .in_packet(m_pkt), .xfer(m_xfer)
);

// the record's ring word and length (nic_rx_rec.vh: below the kind)
wire [RING_AW-1:0] r_start = m_info[REC_W-3 -: RING_AW];
wire [13:0]        r_len = m_info[REC_W-3-RING_AW -: 14];

// the model: the header taken, not yet answered; clocks since its take
// without a record offered
reg                pending = 1'b0;
reg  [RING_AW-1:0] exp_start = 0;
reg  [13:0]        exp_len = 0;
reg  [3:0]         age = 0;
wire               take = s_valid && s_ready && !rst;
wire               give = m_valid && m_ready && !rst;
always @(posedge clk) begin
    if (give)
        pending <= 1'b0;
    if (take) begin
        pending <= 1'b1;
        exp_start <= s_start;
        exp_len <= s_len;
    end
    age <= pending && !m_valid && age != 4'd15 ? age + 4'd1 : 4'd0;
    if (rst) begin
        pending <= 1'b0;
        age <= 0;
    end
end

`ifdef FORMAL

always @(*) begin
    if (f_past_valid && !rst) begin
        a_one: assert(!(pending && s_ready));
        a_invent: assert(!m_valid || pending);
        if (m_valid)
            a_same: assert(r_start == exp_start && r_len == exp_len);
        a_prompt: assert(age <= 4'd9);
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && m_ends >= 2));
`endif

`endif

endmodule

`resetall
