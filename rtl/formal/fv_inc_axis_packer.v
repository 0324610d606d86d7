// SPDX-License-Identifier: MIT
/*
 * fv_inc_axis_packer: formal harness of inc_axis_packer as inc_compressor
 * instantiates it (rtl/scripts/formal.sh inc_axis_packer LANES DEPTH
 * [prove]). The packer alone drives the compressor's m_axis, so what holds
 * here for every item stream holds for the compressor's output port at any
 * depth: this is the harness small enough for an unbounded proof.
 *
 * Assumptions:
 *   - rst is high in the first cycle (it may also rise at any later cycle)
 *   - items are free (valid, data, last, user: any value in any cycle, no
 *     handshake rule needed), but an item's length is at most IN_BYTES, as
 *     the packer's header states and the compressor's emitter guarantees
 *     (header 17 bytes, 32 per group, 3 tail bytes)
 *   - m_axis_tready is free
 *
 * Assertions:
 *   - m_axis follows the AXI4-Stream rules (axis_props, ASSUME = 0): tvalid
 *     low after a reset cycle; tvalid held, and tdata, tkeep, tlast, tuser
 *     stable, while stalled; tkeep contiguous from byte 0 and all ones but on
 *     the tlast beat
 *   - a_no_spurious: no output beat before the first item taken
 *   - a_frames: a tlast beat leaves only for a last item taken before it,
 *     and at most 4 such packets are pending (the FIFO's depth): no tlast
 *     invented or duplicated
 *
 * FV_COVER (a define): c_reach asserts that no trace has a stalled output
 * beat and two output packets; the check must then fail (it shows the
 * harness is not vacuous).
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_inc_axis_packer #
(
    // 32-bit lanes of the compressor this packer serves: 8 or 16
    parameter LANES = 8
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [(20+4*LANES)*8-1:0] s_item_data,
    input  wire [7:0]            s_item_len,
    input  wire                  s_item_last,
    input  wire [7:0]            s_item_user,
    input  wire                  s_item_valid,
    output wire                  s_item_ready,

    output wire [LANES*64-1:0]   m_axis_tdata,
    output wire [LANES*8-1:0]    m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [7:0]            m_axis_tuser
);

// as in inc_compressor: header 17 bytes, 32 per group, 3 tail bytes
localparam ITEM = 17 + 32 * (LANES / 8) + 3;

inc_axis_packer #(
    .IN_BYTES(ITEM),
    .OUT_BYTES(8 * LANES),
    .USER_W(8),
    .LEN_W(8)
) dut (
    .clk(clk),
    .rst(rst),
    .s_item_data(s_item_data[ITEM*8-1:0]),
    .s_item_len(s_item_len),
    .s_item_last(s_item_last),
    .s_item_user(s_item_user),
    .s_item_valid(s_item_valid),
    .s_item_ready(s_item_ready),
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

wire [7:0] out_beats, out_starts, out_ends;
wire       out_pkt, out_xfer;

axis_props #(
    .DATA_W(LANES*64),
    .KEEP_W(LANES*8),
    .USER_W(8),
    .ASSUME(0),
    .KEEP_CHECK(1),
    .CNT_W(8)
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

wire take = s_item_valid && s_item_ready && !rst;

// last items taken whose tlast beat has not left yet; an item taken since
// reset
reg [3:0] pend = 0;
reg       taken = 1'b0;
always @(posedge clk) begin
    pend <= pend + {3'd0, take && s_item_last} - {3'd0, out_xfer && m_axis_tlast};
    if (take)
        taken <= 1'b1;
    if (rst) begin
        pend <= 0;
        taken <= 1'b0;
    end
end

`ifdef FORMAL

always @(*)
    m_item_len: assume(s_item_len <= ITEM);

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        if (!taken)
            a_no_spurious: assert(!m_valid_chk);
        if (out_xfer && m_axis_tlast)
            a_frames: assert(pend != 0);
        a_frames_max: assert(pend <= 4);
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
