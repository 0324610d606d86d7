// SPDX-License-Identifier: MIT
/*
 * fv_nic_rx_dp: formal harness of the receive datapath, nic_rx_dp
 * (rtl/scripts/formal.sh nic_rx_dp 8 DEPTH, with the cut points of
 * tests/run-tests.sh): its boundary with a MAC and a DMA shell, at 8
 * lanes.
 *
 * Cut points (the FORMAL_CUT lines below, formal.sh): the ring, range
 * and header RAMs (their read data), the decompressor (inc_decompressor)
 * and the header parse (nic_hdr_parse) are removed and their outputs are
 * free in every cycle: any frame contents as read back, any range the
 * engine might give (or none), any parse (plain, encapsulated,
 * malformed). What is checked holds for all of them, so it holds for the
 * real blocks. (The output FIFO's RAM is kept: its keep and last are the
 * frame's.)
 *
 * Assumptions: rst high in the first cycle (fv_env; free afterwards); the
 * MAC's frames as a MAC that honours s_frame_room gives them (loopback
 * does): a frame starts only while s_frame_room is up, RX on, no error
 * flag (tuser), keep contiguous from byte 0 and full but on the last
 * beat, no empty beat; MAX_FRAME 9018; the verdicts, their deliver bit,
 * and m_axis's readiness free.
 *
 * Assertions:
 *   - m_axis follows the stream rules (valid held, tkeep and tlast
 *     stable, keep contiguous; tdata is not in this check: it is the
 *     RAMs' and the engine's, free here); m_meta is held, its fields
 *     stable, until its verdict is taken
 *   - a_invent: no metadata without a frame the MAC ended; no frame on
 *     m_axis without a delivery verdict for it
 *   - a_order: a frame the datapath passes as it came (not restored,
 *     not malformed) has the length of the MAC's frame of its number:
 *     none of the frames the MAC gave lost (each frame started with room
 *     is kept), none reordered, none twice
 *   - a_len: each frame on m_axis is as long as its metadata said
 *     (frames out in the order of their deliveries, none cut, none joined)
 *
 * FV_BREAK_VALID: m_axis's valid as the checker sees it drops after a
 * stall, so chk_m must fail. FV_COVER: c_reach asserts no trace has a
 * stalled beat, a frame out and two verdicts taken; the check must then
 * fail.
 */

// FORMAL_CUT: inc_decompressor nic_hdr_parse
// FORMAL_CUT_MEM: dut.ram_a.mem dut.ram_k.mem dut.ram_aw.mem dut.ram_b.mem dut.hram*

// Language: Verilog 2001 (formal subset: assert, assume)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_rx_dp #
(
    parameter LANES = 8,
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [BB-1:0]     s_axis_tkeep,
    input  wire              s_axis_tvalid,
    input  wire              s_axis_tlast,

    input  wire              s_verdict_valid,
    input  wire              s_verdict_deliver,
    input  wire              m_axis_tready
);

`include "nic_beat_fns.vh"

wire              s_frame_room;
wire              m_meta_valid, m_meta_restore, m_meta_bad;
wire [13:0]       m_meta_len;
wire [15:0]       m_meta_body, m_meta_raw;
wire              s_verdict_ready;
wire [DATA_W-1:0] m_axis_tdata;
wire [BB-1:0]     m_axis_tkeep;
wire              m_axis_tvalid, m_axis_tlast;
wire              stat_frame, stat_drop_mac, stat_drop_room, idle;
wire [13:0]       stat_bytes;

/* verilator lint_off PINCONNECTEMPTY */
nic_rx_dp #(.LANES(LANES), .WIDTH(0)) dut (
    .clk(clk), .rst(rst),
    .rx_en(1'b1), .max_frame(14'd9018),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(1'b0),
    .s_frame_room(s_frame_room),
    .m_meta_valid(m_meta_valid), .m_meta_len(m_meta_len), .m_meta_restore(m_meta_restore),
    .m_meta_bad(m_meta_bad), .m_meta_body(m_meta_body), .m_meta_raw(m_meta_raw),
    .s_verdict_valid(s_verdict_valid), .s_verdict_ready(s_verdict_ready),
    .s_verdict_deliver(s_verdict_deliver),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .stat_frame(stat_frame), .stat_bytes(stat_bytes), .stat_drop_mac(stat_drop_mac),
    .stat_drop_room(stat_drop_room), .idle(idle),
    .tp_req(1'b0), .tp_gnt(),
    .tp_tdata({DATA_W{1'b0}}), .tp_tkeep({BB{1'b0}}), .tp_p_tvalid(1'b0),
    .tp_w_tvalid(1'b0), .tp_tlast(1'b0), .tp_tuser(21'd0), .tp_s_tready(),
    .tp_m_tdata(), .tp_m_tkeep(), .tp_m_tvalid(), .tp_p_m_tready(1'b0),
    .tp_w_m_tready(1'b0), .tp_m_tlast(), .tp_m_tuser(),
    .dbg_fault(1'b0)
);
/* verilator lint_on PINCONNECTEMPTY */

wire m_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk), .rst(rst),
    .m_tvalid(m_axis_tvalid), .m_tready(m_axis_tready),
    .m_valid_chk(m_valid_chk), .past_valid(f_past_valid), .cov_stall(cov_stall)
);

wire       v_fire = s_verdict_valid && s_verdict_ready && !rst;
wire [7:0] ma_beats, ma_starts, ma_ends, mm_beats, mm_starts, mm_ends;
wire       ma_pkt, ma_xfer, mm_pkt, mm_xfer;
// (tdata: not checked, 0 to the checker)
axis_props #(.DATA_W(1), .KEEP_W(BB), .USER_W(1), .ASSUME(0), .KEEP_CHECK(1),
             .CNT_W(8)) chk_m (
    .clk(clk), .rst(rst), .tdata(1'b0), .tkeep(m_axis_tkeep),
    .tvalid(m_valid_chk), .tready(m_axis_tready), .tlast(m_axis_tlast), .tuser(1'b0),
    .beats(ma_beats), .starts(ma_starts), .ends(ma_ends), .in_packet(ma_pkt),
    .xfer(ma_xfer)
);
// the metadata: held until its verdict (the verdict's handshake as ready)
axis_props #(.DATA_W(14 + 1 + 1 + 16 + 16), .KEEP_W(1), .USER_W(1), .ASSUME(0),
             .KEEP_CHECK(0), .CNT_W(8)) chk_meta (
    .clk(clk), .rst(rst),
    .tdata({m_meta_len, m_meta_restore, m_meta_bad, m_meta_body, m_meta_raw}),
    .tkeep(1'b1), .tvalid(m_meta_valid), .tready(s_verdict_valid && s_verdict_ready),
    .tlast(1'b1), .tuser(1'b0),
    .beats(mm_beats), .starts(mm_starts), .ends(mm_ends), .in_packet(mm_pkt),
    .xfer(mm_xfer)
);


// the frame beats taken (as the design drives tvalid: chk_m may see a
// broken one, FV_BREAK_VALID)
wire ma_beat = m_axis_tvalid && m_axis_tready && !rst;

// the model: the MAC's frames (their lengths by number), the verdicts
// taken, the deliveries (their lengths by number), the frames out
reg  [7:0]  n_mac = 0, n_vd = 0, n_del = 0, n_out = 0;
reg  [13:0] mac_len [0:15];
reg  [13:0] del_len [0:15];
reg  [13:0] in_bytes = 0, out_bytes = 0;
reg         in_frame = 1'b0;
wire        mac_beat = s_axis_tvalid && !rst;
wire [13:0] in_next = in_bytes + {{(13 - BS){1'b0}}, ones_k(s_axis_tkeep)};
wire [13:0] out_next = out_bytes + {{(13 - BS){1'b0}}, ones_k(m_axis_tkeep)};
integer i;
always @(posedge clk) begin
    if (mac_beat) begin
        in_frame <= !s_axis_tlast;
        in_bytes <= s_axis_tlast ? 14'd0 : in_next;
        if (s_axis_tlast) begin
            for (i = 0; i < 16; i = i + 1)
                if (n_mac[3:0] == i)
                    mac_len[i] <= in_next;
            n_mac <= n_mac + 1'b1;
        end
    end
    if (v_fire) begin
        n_vd <= n_vd + 1'b1;
        if (s_verdict_deliver) begin
            for (i = 0; i < 16; i = i + 1)
                if (n_del[3:0] == i)
                    del_len[i] <= m_meta_len;
            n_del <= n_del + 1'b1;
        end
    end
    if (ma_beat) begin
        out_bytes <= m_axis_tlast ? 14'd0 : out_next;
        if (m_axis_tlast)
            n_out <= n_out + 1'b1;
    end
    if (rst) begin
        n_mac <= 0;
        n_vd <= 0;
        n_del <= 0;
        n_out <= 0;
        in_bytes <= 0;
        out_bytes <= 0;
        in_frame <= 1'b0;
    end
end

`ifdef FORMAL

// the MAC
always @(*) begin
    if (f_past_valid && !rst && s_axis_tvalid) begin
        m_start_room: assume(in_frame || s_frame_room);
        m_keep_some: assume(s_axis_tkeep[0]);
        m_keep_contig: assume((s_axis_tkeep & (s_axis_tkeep + 1'b1)) == {BB{1'b0}});
        m_keep_full: assume(s_axis_tlast || &s_axis_tkeep);
        m_max: assume(in_next <= 14'd9018);
    end
end

always @(*) begin
    if (f_past_valid && !rst) begin
        a_invent_meta: assert(!m_meta_valid || n_vd != n_mac);
        if (m_meta_valid && !m_meta_restore && !m_meta_bad)
            a_order: assert(m_meta_len == mac_len[n_vd[3:0]]);
        a_invent_out: assert(!m_axis_tvalid || n_out != n_del);
        if (ma_beat && m_axis_tlast)
            a_len: assert(out_next == del_len[n_out[3:0]]);
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && ma_ends >= 1 && n_vd >= 2));
`endif

`endif

endmodule

`resetall
