// SPDX-License-Identifier: MIT
/*
 * fv_nic_frame_fifo: formal harness of the NIC's MAC TX port
 * (rtl/scripts/formal.sh nic_frame_fifo - DEPTH [prove]). inc_nic's
 * m_axis_tx_* are nic_frame_fifo's m_axis, tvalid gated by the loopback
 * bit, which changes only in a clock that leaves no beat offered (no beat
 * offered and none inside a frame, or a frame's last beat taken): what
 * holds here holds at the port.
 *
 * The FIFO at small sizes (4 beats of RAM, 2 frames, a 6-bit tdata): its
 * control does not depend on the data width, and the depths are
 * parameters whose logic is the same at every size.
 *
 * Assumptions: rst is high in the first cycle (and free afterwards);
 * s_axis_tvalid, s_axis_tlast, s_axis_tkeep, s_drop and m_axis_tready are
 * free in every cycle (no handshake rule: the TX engine's side may do
 * anything); tdata is the scoreboard's (below), which the FIFO never
 * looks at.
 *
 * Assertions:
 *   - m_axis follows the AXI4-Stream rules (axis_props, ASSUME = 0):
 *     tvalid low after a reset cycle; tvalid held and tdata, tkeep, tlast
 *     stable while stalled
 *   - a_no_gap: once a frame's first beat has left, tvalid is high in every
 *     cycle up to its tlast beat (a MAC treats a gap as an underrun)
 *   - a_beat, a_last, a_keep: each input beat carries its index among the
 *     beats kept since reset (a frame dropped by s_drop gives its indices
 *     back) and its own tkeep and tlast as data; each output beat carries
 *     the index of the next beat out, and tkeep and tlast as its data says:
 *     no beat lost, duplicated, reordered or let out of a dropped frame, and
 *     every frame ends where it ended coming in (tlast comes from the
 *     FIFO's stored lengths, not its RAM)
 *   - a_bound: at most the RAM and the output buffer's 2 beats are inside
 *
 * FV_BREAK_VALID: tvalid as the checker sees it drops after a stall, so the
 * check must fail. FV_COVER: c_reach asserts no trace has a stalled output
 * beat and two frames out; the check must then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_frame_fifo #
(
    // log2 of the beats stored
    parameter ADDR_W = 2,
    // log2 of the complete frames waiting
    parameter FRAMES_W = 1,
    // the beat indices of the scoreboard, bits (more than the beats the
    // FIFO can hold: 2^ADDR_W + the output buffer's 2)
    parameter IDX_W = ADDR_W + 2,
    // tdata width, bits: {tkeep, tlast, index}
    parameter DATA_W = IDX_W + 2
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire              s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    input  wire              s_drop,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire              m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,
    output wire              empty
);

nic_frame_fifo #(
    .DATA_W(DATA_W),
    .KEEP_W(1),
    .ADDR_W(ADDR_W),
    .FRAMES_W(FRAMES_W)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_drop(s_drop),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .empty(empty)
);

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
    .DATA_W(DATA_W),
    .KEEP_W(1),
    .USER_W(1),
    .ASSUME(0),
    .KEEP_CHECK(0),
    .CNT_W(8)
) chk_m (
    .clk(clk),
    .rst(rst),
    .tdata(m_axis_tdata),
    .tkeep(m_axis_tkeep),
    .tvalid(m_valid_chk),
    .tready(m_axis_tready),
    .tlast(m_axis_tlast),
    .tuser(1'b0),
    .beats(out_beats),
    .starts(out_starts),
    .ends(out_ends),
    .in_packet(out_pkt),
    .xfer(out_xfer)
);

// ---- scoreboard: every beat carries its index -------------------------------
// The FIFO never looks at tdata, so tdata may be constrained without
// hiding behaviour: each input beat carries {tkeep, tlast, its index among
// the beats kept since reset} (the frame being written when s_drop comes
// gives its indices back). Every output beat must then carry the index of
// the next beat out, and its tkeep and tlast must be the ones its data
// says: order, loss, duplication, the frame lengths (tlast comes from the
// FIFO's stored lengths, not from the RAM) and the drops are all checked.
wire in_fire = s_axis_tvalid && s_axis_tready && !rst;

reg  [IDX_W-1:0]  in_n = 0;         // beats kept since reset (dropped ones given back)
reg  [IDX_W-1:0]  h_flen = 0;       // beats of the frame being written
reg  [IDX_W-1:0]  out_n = 0;        // beats out since reset

always @(posedge clk) begin
    if (s_drop) begin
        // the frame being written goes, with this clock's beat
        in_n <= in_n - h_flen;
        h_flen <= 0;
    end else if (in_fire) begin
        in_n <= in_n + 1'b1;
        h_flen <= s_axis_tlast ? {IDX_W{1'b0}} : h_flen + 1'b1;
    end
    if (out_xfer)
        out_n <= out_n + 1'b1;
    if (rst) begin
        in_n <= 0;
        h_flen <= 0;
        out_n <= 0;
    end
end

// beats inside the FIFO (modulo 2^IDX_W)
wire [IDX_W-1:0] held_n = in_n - out_n;

// the previous cycle sent a beat that was not its frame's last
reg f_mid = 1'b0;
always @(posedge clk)
    f_mid <= out_xfer && !m_axis_tlast;

`ifdef FORMAL

// the input beats' data: {tkeep, tlast, index}
always @(*)
    if (s_axis_tvalid)
        m_index: assume(s_axis_tdata == {s_axis_tkeep, s_axis_tlast, in_n});

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        if (f_mid)
            a_no_gap: assert(m_valid_chk);
        if (out_xfer) begin
            a_beat: assert(m_axis_tdata[IDX_W-1:0] == out_n);
            a_last: assert(m_axis_tlast == m_axis_tdata[IDX_W]);
            a_keep: assert(m_axis_tkeep == m_axis_tdata[IDX_W+1]);
        end
        // the FIFO holds at most its RAM and output buffer
        a_bound: assert(held_n <= (1 << ADDR_W) + 2);
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && out_ends >= 2));
`endif

`endif

endmodule

`resetall
