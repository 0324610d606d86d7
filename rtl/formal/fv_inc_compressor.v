// SPDX-License-Identifier: MIT
/*
 * fv_inc_compressor: formal harness of inc_compressor's AXI4-Stream ports
 * (rtl/scripts/formal.sh inc_compressor LANES DEPTH).
 *
 * Every input of the engine is free (the harness's own inputs, unconstrained
 * by the solver) except for these assumptions:
 *   - rst is high in the first cycle (it may also rise at any later cycle)
 *   - s_axis follows the AXI4-Stream rules (axis_props, ASSUME = 1): tvalid
 *     low after a reset cycle, held until tready, tdata/tkeep/tlast/tuser
 *     stable while waiting. Its contents are otherwise arbitrary: any k and
 *     mode, short or non-contiguous tkeep, chunks of any length (the engine
 *     flags bad chunks but must still keep the stream rules).
 *   - m_axis_tready is free: the sink may stall at any time.
 *
 * Assertions:
 *   - m_axis follows the AXI4-Stream rules (axis_props, ASSUME = 0): tvalid
 *     low after a reset cycle; tvalid held, and tdata, tkeep, tlast, tuser
 *     stable, while stalled; tkeep contiguous from byte 0 and all ones but on
 *     the tlast beat (docs/rtl.md, compressor ports)
 *   - a_no_spurious: no output beat before the first input beat after reset
 *   - a_frames: packets out (tlast beats) never exceed packets in: no tlast
 *     is invented or duplicated
 *   - a_starts: packets started on m_axis never exceed those started on
 *     s_axis
 *   - a_beats: output beats never exceed input beats (a chunk never needs
 *     more output beats than input beats: docs/rtl.md, line rate)
 *
 * Not checked: the body's bytes and tuser values (the bit-exact simulation
 * tests do that), liveness (a bounded check cannot show that a beat comes
 * out eventually).
 *
 * FV_COVER (a define): c_reach asserts that no trace has a stalled output
 * beat and two output packets; the check must then fail (it shows the
 * harness is not vacuous).
 *
 * FV_BREAK_VALID (a define): the harness drops m_axis_tvalid on its way to
 * the checker in the cycle after a stall, as a broken engine would; the
 * check must then fail (formal.sh's self-test of the harness).
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_inc_compressor #
(
    // 32-bit lanes per raw beat of the engine: 8 or 16
    parameter LANES = 8,
    // Width of the transfer counters, bits (a check must stay shorter than
    // 2^CNT_W cycles)
    parameter CNT_W = 8
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [LANES*32-1:0]   s_axis_tdata,
    input  wire [LANES*4-1:0]    s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [7:0]            s_axis_tuser,

    output wire [LANES*64-1:0]   m_axis_tdata,
    output wire [LANES*8-1:0]    m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [7:0]            m_axis_tuser
);

inc_compressor #(
    .LANES(LANES)
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
    .m_axis_tuser(m_axis_tuser)
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
    .DATA_W(LANES*32),
    .KEEP_W(LANES*4),
    .USER_W(8),
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
    .DATA_W(LANES*64),
    .KEEP_W(LANES*8),
    .USER_W(8),
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

`ifdef FORMAL

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        if (in_beats == 0)
            a_no_spurious: assert(!m_valid_chk);
        a_frames: assert(out_ends <= in_ends);
        a_starts: assert(out_starts <= in_starts);
        a_beats: assert(out_beats <= in_beats);
    end
end

`ifdef FV_COVER
// a trace exists with a stalled output beat and two output packets: the
// check must fail here, or the harness's assumptions leave nothing to check
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && out_ends >= 2));
`endif

`endif

endmodule

`resetall
