// SPDX-License-Identifier: MIT
/*
 * nic_rx: the receive engine's shell around its datapath (nic_rx_dp).
 * nic_rx_dp takes the frames from the MAC, keeps them in its ring and
 * restores them (docs/wire-format.md, incw_rx() of userspace/wire); for
 * each it gives the metadata (the length as delivered, restored or not,
 * malformed or not). The shell delivers each frame to a buffer of the RX
 * ring (docs/regmap.md) or drops it, and tells the datapath which (its
 * verdict):
 *
 *   D   RX descriptors read ahead (up to ND of them)
 *   WA  each frame's verdict: deliver it to the head descriptor's buffer,
 *       or drop it (malformed; no buffer posted, or too small, or bus
 *       mastering off), counted
 *   WB  the DMA writes, in order: each delivered frame's bytes as the
 *       datapath streams them, then the descriptor's length and status;
 *       CONS and the completion event once both are done
 *
 * docs/dataflow.md, "The datapath and its shell", draws the boundary.
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
    // width mode built (1, at 16 lanes only; inc_nic's WIDTH)
    parameter WIDTH = 1,
    // descriptors read ahead of their frames (in flight and waiting for
    // WA); a power of 2, at least 4 (inc_nic's RX_DESC_AHEAD)
    parameter DESC_AHEAD = 16,
    // frames whose two writes are issued and not yet both done (32
    // writes: inc_nic's write port keeps 64 in flight); a power of 2, at
    // least 4 (inc_nic's RX_WR_FRAMES)
    parameter WR_FRAMES = 16,
    // the beat in bits and bytes, and log2 of its bytes (derived: leave them)
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire          clk,
    input  wire          rst,

    input  wire          rx_en,
    input  wire          dma_en,    // bus mastering on (inc_nic's dma_enable)
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
    output wire          s_frame_room,

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
    output reg  [159:0]  stat_inc = 0,

    // the engine test port (nic_tport): its request for the decompressors,
    // granted between frames (tp_gnt: the engines' inputs and outputs are
    // the port's), the port's chunk (tp_tuser as the engines': [4:0] k,
    // [6:5] mode, 3 for the width decompressor, [20:7] raw_len) and the
    // output of the engine of its mode
    input  wire          tp_req,
    output wire          tp_gnt,
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
// the descriptor layout, status bits and counter indices of docs/regmap.md
`include "inc_nic_regs.vh"

// ===========================================================================
// ===========================================================================
// D, WA, WB: descriptors, verdicts, delivery
// ===========================================================================

// ---- descriptors, read ahead --------------------------------------------------

wire [11:0] ring_mask = ~(12'hfff << rxq_size);
wire        unused_base = ^rxq_base[3:0];   // below the descriptor size
// D reads descriptors from d_fidx on into a FIFO of ND, as long as PROD is
// ahead of it, RX is on and bus mastering too (dma_en), before their
// frames come: several reads are in flight at once, and a host's read
// latency (1 us, behind the transmit engine's frame reads on the shared
// channel) stays off the frames' path through H, X and W. WA takes them
// from the FIFO, in order, for the frames it starts (wa_didx: the next it
// takes; [wa_didx, d_fidx) are in the FIFO or being read; CONS follows as
// frames complete). A frame that comes while bus mastering is off is
// dropped (for want of a buffer) without taking one. A buffer too small
// for WA's frame is read again before the frame is dropped for it: what
// was read ahead goes, and is read again from the head (a driver may have
// posted a descriptor before it wrote it). So is all of it when RX is
// turned off (the ring may change then).
localparam ND_W = $clog2(DESC_AHEAD);
localparam [ND_W:0] ND = 1 << ND_W;
reg  [15:0] d_fidx = 0;
reg  [15:0] wa_didx = 0;
// the FIFO's entries: taken by a request (d_qp), read (d_wp), taken by WA
// (d_rp); several reads in flight, their data back in order
reg  [ND_W:0] d_qp = 0, d_wp = 0, d_rp = 0;
wire [ND_W:0] d_avail = d_wp - d_rp;    // read, for WA
reg  [59:0] df_slot [0:ND-1];       // the descriptor's address / 16
reg  [63:0] df_buf [0:ND-1];
reg  [15:0] df_len [0:ND-1];
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

localparam D_IDLE = 1'b0, D_REQ = 1'b1;
reg         d_state = D_IDLE;
reg  [59:0] d_req_slot = 0;
wire        d_take;                 // WA takes the head for a frame
wire        d_complete;             // a frame's writes are done: CONS moves
wire        wa_small;               // the head's buffer is too small for WA's frame
reg         d_flush = 1'b0;         // read again from wa_didx, once D is idle
wire        d_fetch = d_state == D_IDLE && rx_en && dma_en && rxq_prod != d_fidx &&
                      d_qp - d_rp != ND && slot_fresh && !d_flush;
wire        wa_wait;                // WA waits for a descriptor for its frame
// (nothing in flight)
wire        d_flushing = (d_flush || (!rx_en && !wa_wait)) && d_state == D_IDLE &&
                         d_qp == d_wp;

// the head, for WA
wire [59:0] d_slot = df_slot[d_rp[ND_W-1:0]];
wire [63:0] d_buf = df_buf[d_rp[ND_W-1:0]];
wire [15:0] d_buf_len = df_len[d_rp[ND_W-1:0]];

assign rd_req_valid = d_state == D_REQ;
assign rd_req_addr = {d_req_slot, 4'd0};
assign rd_req_len = INC_RXD_BYTES[15:0];
assign rd_ready = 1'b1;             // (room taken with the request)

always @(posedge clk) begin
    if (!slot_fresh)
        slot_age <= slot_age + 2'd1;
    case (d_state)
    D_IDLE: begin
        // (once up, a request stays until taken, whatever RX_EN or PROD
        // do meanwhile)
        if (d_fetch) begin
            df_slot[d_qp[ND_W-1:0]] <= slot_addr[63:4];
            d_req_slot <= slot_addr[63:4];
            d_qp <= d_qp + 1'b1;
            d_fidx <= d_fidx + 16'd1;
            slot_age <= 0;
            d_state <= D_REQ;
        end
    end
    D_REQ: begin
        if (rd_req_ready)
            d_state <= D_IDLE;
    end
    default: d_state <= D_IDLE;
    endcase
    if (rd_valid) begin
        df_buf[d_wp[ND_W-1:0]] <= rd_data[8*INC_RXD_ADDR +: 64];
        df_len[d_wp[ND_W-1:0]] <= rd_data[8*INC_RXD_BUF_LEN +: 16];
        d_wp <= d_wp + 1'b1;
    end
    if (d_take) begin
        d_rp <= d_rp + 1'b1;
        wa_didx <= wa_didx + 16'd1;
    end
    if (wa_small)
        d_flush <= 1'b1;
    // what was read ahead goes (WA takes nothing meanwhile: it waits for
    // the flush; RX off waits for the frame WA has a descriptor coming for)
    if (d_flushing) begin
        d_qp <= d_rp;
        d_wp <= d_rp;
        d_fidx <= wa_didx;
        slot_age <= 0;
        d_flush <= 1'b0;
    end
    if (rst) begin
        d_flush <= 1'b0;
        d_state <= D_IDLE;
        d_fidx <= 0;
        wa_didx <= 0;
        d_qp <= 0;
        d_wp <= 0;
        d_rp <= 0;
        slot_age <= 0;
    end
end
// ---- WA: each frame's verdict: its buffer, or a drop --------------------------

// the datapath's next frame (its metadata, held until the verdict)
wire        w_meta;
wire [13:0] w_out_len;
wire        w_restore, w_bad;
wire [15:0] w_body, w_raw;

// WB's queue: what WA decided for each frame, in order (K_*: deliver, or
// drop as malformed, or for want of a buffer)
localparam [1:0] Q_DELIVER = 2'd0, Q_BAD = 2'd1, Q_NOBUF = 2'd2;
localparam WQ_W = 2 + 60 + 64 + 16 + 14 + 1 + 16 + 16;
reg  [WQ_W-1:0] wq [0:3];
reg  [1:0]  wq_wp = 0, wq_rp = 0;
reg  [2:0]  wq_cnt = 0;
wire        wq_push, wq_pop;

localparam WA_IDLE = 1'b0, WA_CHK = 1'b1;
reg         wa_state = WA_IDLE;

// (WA_CHK: the metadata and the FIFO's head are there a clock before)
// a descriptor was posted for it as WA took it (then WA waits for it to be
// read, RX_EN or not, unless nothing is being read with RX off)
reg  wa_buf = 1'b0;
// the head was read again for this frame (after it looked too small)
reg  wa_rechk = 1'b0;
// the head's buffer against the frame's length, compared a clock before:
// valid (wa_lt_ok) when the head was there then (the metadata and the
// head at d_rp are unchanged until WA is done with them); the verdict
// waits for that (the compare of two multiplexed 16-bit fields is not
// then in front of the assembler's start)
reg  wa_lt = 1'b0, wa_lt_ok = 1'b0;
wire wa_starved = !rx_en && d_qp == d_rp && d_state == D_IDLE;
wire wa_toosmall = wa_state == WA_CHK && !w_bad && wa_buf && !d_flush && d_avail != 0 &&
                   wa_lt_ok && wa_lt;
assign wa_small = wa_toosmall && !wa_rechk;         // read it again
wire wa_drop = w_bad || !wa_buf || (wa_toosmall && wa_rechk) ||
               (wa_starved && !d_flush) || !dma_en;
assign wa_wait = wa_state == WA_CHK && !w_bad && wa_buf;
// the verdict: a drop, or (the head's buffer read, large enough) a
// delivery, which the datapath takes once its assembler can (v_ready)
wire wa_fits = !wa_drop && !wa_toosmall && !d_flush && d_avail != 0 && wa_lt_ok;
wire v_valid = wa_state == WA_CHK && wq_cnt != 3'd4 && (wa_drop || wa_fits);
wire v_ready;
wire wa_done = v_valid && v_ready;
assign d_take = wa_done && !wa_drop;
assign wq_push = wa_done;

always @(posedge clk) begin
    wa_lt <= d_buf_len < {2'd0, w_out_len};
    wa_lt_ok <= d_avail != 0;
    case (wa_state)
    WA_IDLE: begin
        wa_buf <= rx_en && rxq_prod != wa_didx;
        if (w_meta)
            wa_state <= WA_CHK;
    end
    WA_CHK: begin
        // dropped by X as malformed; or without a buffer (none posted, or
        // too small, read again: not used); or delivered (the assembler
        // starts now)
        if (wa_small)
            wa_rechk <= 1'b1;
        if (wa_done) begin
            wa_rechk <= 1'b0;
            wq[wq_wp] <= {w_bad ? Q_BAD : wa_drop ? Q_NOBUF : Q_DELIVER,
                          d_slot, d_buf, d_buf_len, w_out_len, w_restore, w_body,
                          w_raw};
            wa_state <= WA_IDLE;
        end
    end
    default: wa_state <= WA_IDLE;
    endcase
    if (wq_push)
        wq_wp <= wq_wp + 2'd1;
    if (wq_pop)
        wq_rp <= wq_rp + 2'd1;
    wq_cnt <= wq_cnt + {2'd0, wq_push} - {2'd0, wq_pop};
    if (rst) begin
        wa_state <= WA_IDLE;
        wq_wp <= 0;
        wq_rp <= 0;
        wq_cnt <= 0;
    end
end

// ---- the datapath ----------------------------------------------------------------

wire [DATA_W-1:0] o_tdata;
wire [BB-1:0] o_tkeep;
wire         o_tvalid, o_tlast;
wire         o_tready;
// its ingress counts
wire         i_frame, i_drop_mac, i_drop_buf;
wire [13:0]  i_bytes;
wire         dp_idle;

nic_rx_dp #(.LANES(LANES), .WIDTH(WIDTH)) dp (
    .clk(clk), .rst(rst),
    .rx_en(rx_en), .max_frame(max_frame),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid), .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser), .s_frame_room(s_frame_room),
    .m_meta_valid(w_meta), .m_meta_len(w_out_len), .m_meta_restore(w_restore),
    .m_meta_bad(w_bad), .m_meta_body(w_body), .m_meta_raw(w_raw),
    .s_verdict_valid(v_valid), .s_verdict_ready(v_ready),
    .s_verdict_deliver(!wa_drop),
    .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
    .m_axis_tready(o_tready), .m_axis_tlast(o_tlast),
    .stat_frame(i_frame), .stat_bytes(i_bytes), .stat_drop_mac(i_drop_mac),
    .stat_drop_room(i_drop_buf),
    .idle(dp_idle),
    .tp_req(tp_req), .tp_gnt(tp_gnt),
    .tp_tdata(tp_tdata), .tp_tkeep(tp_tkeep), .tp_p_tvalid(tp_p_tvalid),
    .tp_w_tvalid(tp_w_tvalid), .tp_tlast(tp_tlast), .tp_tuser(tp_tuser),
    .tp_s_tready(tp_s_tready),
    .tp_m_tdata(tp_m_tdata), .tp_m_tkeep(tp_m_tkeep), .tp_m_tvalid(tp_m_tvalid),
    .tp_p_m_tready(tp_p_m_tready), .tp_w_m_tready(tp_w_m_tready),
    .tp_m_tlast(tp_m_tlast), .tp_m_tuser(tp_m_tuser),
    .dbg_fault(dbg_fault)
);


// ---- WB: the DMA writes, in order -------------------------------------------------

// the head of WB's queue
wire [1:0]  q_kind;
wire [59:0] unused_q_slot;      // (WR's)
wire [63:0] unused_q_buf;
wire [15:0] q_buf_len;
wire [13:0] q_out_len;
wire        q_restore;
wire [15:0] q_body, q_raw;
assign {q_kind, unused_q_slot, unused_q_buf, q_buf_len, q_out_len, q_restore,
        q_body, q_raw} = wq[wq_rp];

// WB in two halves. WR issues the write requests, each frame's data write
// and then its descriptor's, running ahead of the data (the entries it has
// passed: wr_off from the head; wr_desc: the frame's is issued, the
// descriptor's next); it skips the drops. WD sends the data in the same
// order: the frame's beats, then the descriptor's 8 bytes, and pops the
// entry; a drop is popped once WR has passed it. (inc_nic routes the data
// in request order, so WD's data waits for its request by itself.)
localparam [1:0] WB_IDLE = 2'd0, WB_DATA = 2'd1, WB_DDATA = 2'd2;
reg  [1:0]   wb_state = WB_IDLE;
reg  [2:0]   wr_off = 0;
reg          wr_desc = 1'b0;
wire [1:0]   wr_e = wq_rp + wr_off[1:0];
wire [1:0]   rq_kind;
wire [59:0]  rq_slot;
wire [63:0]  rq_buf;
wire [13:0]  rq_out_len;
wire [15:0]  unused_rq_buf_len;
wire         unused_rq_restore;
wire [31:0]  unused_rq_counts;
assign {rq_kind, rq_slot, rq_buf, unused_rq_buf_len, rq_out_len, unused_rq_restore,
        unused_rq_counts} = wq[wr_e];
wire         wr_have = {1'b0, wr_off} < {1'b0, wq_cnt};
wire         wr_skip = wr_have && rq_kind != Q_DELIVER;
// (a frame's request once WD is on it, or writing the descriptor before
// it: requests far ahead of their data would keep TX's status writes
// waiting behind RX's frames)
assign wr_req_valid = wr_have && rq_kind == Q_DELIVER &&
                      (wr_desc || wr_off == 3'd0 || (wr_off == 3'd1 && wb_state == WB_DDATA));
// the descriptor's write-back: bytes WB0 to its end (buf_len as read, len,
// status)
localparam [31:0] WB0 = INC_RXD_BUF_LEN;
localparam [31:0] WB_BYTES = INC_RXD_BYTES - WB0;
assign wr_req_addr = wr_desc ? {rq_slot, WB0[3:0]} : rq_buf;
assign wr_req_len = wr_desc ? WB_BYTES[15:0] : {2'd0, rq_out_len};
wire         wr_fire = wr_req_valid && wr_req_ready;
wire         wr_pass = wr_skip || (wr_fire && wr_desc);   // WR leaves an entry


// frames whose two writes were issued and not yet both done: what their
// completion counts
localparam CQ_AW = $clog2(WR_FRAMES);
localparam [CQ_AW:0] CQ_N = WR_FRAMES;
localparam [CQ_AW:0] CQ_N2 = WR_FRAMES - 2;     // room for two more
reg  [46:0]  cq [0:WR_FRAMES-1];
reg  [CQ_AW-1:0] cq_wp = 0, cq_rp = 0;
reg  [CQ_AW:0] cq_cnt = 0;
reg          c_half = 1'b0;     // the oldest one's data write is done
wire         cq_push = wb_state == WB_DDATA && wr_ready;
assign d_complete = wr_done && c_half;
wire [13:0]  c_out_len;
wire         c_restore;
wire [15:0]  c_body, c_raw;
assign {c_out_len, c_restore, c_body, c_raw} = cq[cq_rp];

assign o_tready = wb_state == WB_DATA && wr_ready;
reg  [8*WB_BYTES-1:0] desc_wb;
always @* begin
    desc_wb = 0;
    desc_wb[8*(INC_RXD_BUF_LEN - WB0) +: 16] = q_buf_len;
    desc_wb[8*(INC_RXD_LEN - WB0) +: 16] = {2'd0, q_out_len};
    desc_wb[8*(INC_RXD_STATUS - WB0) + INC_DESC_DONE_BIT] = 1'b1;
    desc_wb[8*(INC_RXD_STATUS - WB0) + INC_RXS_RESTORED_BIT] = q_restore;
end
assign wr_data = wb_state == WB_DATA ? o_tdata : {{(DATA_W - 8*WB_BYTES){1'b0}}, desc_wb};
assign wr_keep = wb_state == WB_DATA ? o_tkeep : {{(BB - WB_BYTES){1'b0}}, {WB_BYTES{1'b1}}};
assign wr_last = wb_state == WB_DATA ? o_tlast : 1'b1;
assign wr_valid = (wb_state == WB_DATA && o_tvalid) || wb_state == WB_DDATA;

// a drop (once WR passed it; counted), or a delivered frame's data written
// (the datapath releases the frames itself)
wire wb_drop = wb_state == WB_IDLE && wq_cnt != 0 && q_kind != Q_DELIVER && wr_off != 0;
// (WB_DDATA: the entry after the head, and room for one more completion)
wire [1:0] wq_rp1 = wq_rp + 2'd1;
wire [1:0] q_next_kind = wq[wq_rp1][WQ_W-1 -: 2];
wire wb_next_go = wq_cnt >= 3'd2 && q_next_kind == Q_DELIVER && cq_cnt <= CQ_N2;
wire wb_data_end = wb_state == WB_DATA && wr_ready && o_tvalid && o_tlast;
assign wq_pop = wb_drop || cq_push;

// no descriptor being read, no verdict or write under way, the datapath
// idle
assign idle = wa_state == WA_IDLE && wb_state == WB_IDLE && d_state == D_IDLE &&
              wq_cnt == 0 && cq_cnt == 0 && dp_idle;

// ---- WB's state machine, the completions, the counters ---------------------------

// counter i's increment in stat_inc (RX's counters, from INC_ST_RX_FRAMES)
function integer ST;
    input integer i;
    begin
        ST = 16 * (i - INC_ST_RX_FRAMES);
    end
endfunction

always @(posedge clk) begin
    event_done <= 1'b0;
    stat_inc <= 0;
    // ingress counters
    stat_inc[ST(INC_ST_RX_FRAMES) +: 16] <= {15'd0, i_frame};
    stat_inc[ST(INC_ST_RX_BYTES) +: 16] <= {2'd0, i_bytes};
    stat_inc[ST(INC_ST_RX_DROP_NO_BUFFER) +: 16] <= {15'd0, i_drop_buf};
    stat_inc[ST(INC_ST_RX_DROP_MAC) +: 16] <= {15'd0, i_drop_mac};

    case (wb_state)
    WB_IDLE: begin
        if (wb_drop) begin
            if (q_kind == Q_BAD)
                stat_inc[ST(INC_ST_RX_DROP_MALFORMED) +: 16] <= 16'd1;
            else
                stat_inc[ST(INC_ST_RX_DROP_NO_BUFFER) +: 16] <= {15'd0, i_drop_buf} + 16'd1;
        end else if (wq_cnt != 0 && q_kind == Q_DELIVER && cq_cnt != CQ_N) begin
            wb_state <= WB_DATA;
        end
    end
    WB_DATA: begin
        if (wb_data_end)
            wb_state <= WB_DDATA;
    end
    WB_DDATA: begin
        if (wr_ready) begin
            cq[cq_wp] <= {q_out_len, q_restore, q_body, q_raw};
            // the next frame's data at once if it is one to deliver
            wb_state <= wb_next_go ? WB_DATA : WB_IDLE;
        end
    end
    default: wb_state <= WB_IDLE;
    endcase
    // WR
    if (wr_fire)
        wr_desc <= !wr_desc;
    wr_off <= wr_off + {2'd0, wr_pass} - {2'd0, wq_pop};

    // two writes a frame, their dones in order: the second completes it
    if (wr_done)
        c_half <= !c_half;
    if (d_complete) begin
        rxq_cons <= rxq_cons + 16'd1;
        event_done <= 1'b1;
        stat_inc[ST(INC_ST_RX_DELIVERED) +: 16] <= 16'd1;
        stat_inc[ST(INC_ST_RX_DELIVERED_BYTES) +: 16] <= {2'd0, c_out_len};
        if (c_restore) begin
            stat_inc[ST(INC_ST_RX_DECOMP_FRAMES) +: 16] <= 16'd1;
            stat_inc[ST(INC_ST_RX_DECOMP_IN_BYTES) +: 16] <= c_body;
            stat_inc[ST(INC_ST_RX_DECOMP_OUT_BYTES) +: 16] <= c_raw;
        end
    end
    if (cq_push)
        cq_wp <= cq_wp + 1'b1;
    if (d_complete)
        cq_rp <= cq_rp + 1'b1;
    cq_cnt <= cq_cnt + {{CQ_AW{1'b0}}, cq_push} - {{CQ_AW{1'b0}}, d_complete};

    if (rst) begin
        wb_state <= WB_IDLE;
        wr_off <= 0;
        wr_desc <= 1'b0;
        rxq_cons <= 0;
        c_half <= 1'b0;
        cq_wp <= 0;
        cq_rp <= 0;
        cq_cnt <= 0;
    end
end

endmodule

`resetall
