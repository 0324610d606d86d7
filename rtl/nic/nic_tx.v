// SPDX-License-Identifier: MIT
/*
 * nic_tx: the transmit engine's shell around its datapath (nic_tx_dp).
 * For each descriptor of the TX ring (docs/regmap.md) it reads the
 * descriptor and the frame by DMA and hands the frame to nic_tx_dp as a
 * stream with its metadata (the descriptor's fields); nic_tx_dp compresses
 * and sends it, and returns its status, which the shell writes into the
 * descriptor before it advances CONS and raises the completion event.
 *
 *   TD  descriptors read ahead into a FIFO
 *   TR  a frame's words reserved in the datapath's frame ring (its
 *       credits, fr_free), its read asked for in chunks of 512 bytes
 *   (the read answers: a descriptor's into TD's FIFO, a frame's beats to
 *       the datapath's s_axis, tlast on its last chunk's last beat)
 *   W   the statuses, queued and written in order; CONS, the event and
 *       the statistics counters
 *
 * docs/dataflow.md, "The datapath and its shell", draws the boundary.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_tx #
(
    // codec lanes (8 or 16): 32-bit values per beat; the beat, the DMA and
    // MAC data buses and the RAM words are 32 LANES bits
    parameter LANES = 8,
    // width mode built (1, at 16 lanes only; inc_nic's WIDTH)
    parameter WIDTH = 1,
    // frame reads (RD_CHUNK bytes each) in flight; a power of 2, at most
    // 64 (inc_nic's TX_RD_OUT)
    parameter RD_OUT = 32,
    // descriptors read ahead (in flight and waiting for TR); a power of
    // 2, at least 4 (inc_nic's TX_DESC_AHEAD)
    parameter DESC_AHEAD = 16,
    // the beat in bits and bytes, and log2 of its bytes (derived: leave them)
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire          clk,
    input  wire          rst,

    input  wire          tx_en,
    input  wire [63:0]   txq_base,
    input  wire [3:0]    txq_size,
    input  wire [15:0]   txq_prod,
    output reg  [15:0]   txq_cons = 0,
    input  wire [13:0]   max_frame,

    output wire          rd_req_valid,
    input  wire          rd_req_ready,
    output wire [63:0]   rd_req_addr,
    output wire [15:0]   rd_req_len,
    input  wire [DATA_W-1:0] rd_data,
    input  wire [BB-1:0] rd_keep,
    input  wire          rd_last,
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

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [BB-1:0] m_axis_tkeep,
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire          m_axis_tlast,

    output reg           event_done = 1'b0, // a descriptor completed
    output wire          idle,
    // statistics increments (docs/regmap.md, counters 0..7)
    output reg  [127:0]  stat_inc = 0,

    // the engine test port (nic_tport): its request for the compressor,
    // granted between frames (tp_gnt: the compressor's input and output
    // are the port's), the port's chunk and the compressor's output beats
    input  wire          tp_req,
    output wire          tp_gnt,
    input  wire [DATA_W-1:0] tp_tdata,
    input  wire [BB-1:0] tp_tkeep,
    input  wire          tp_tvalid,     // (a register, 0 but during its run)
    input  wire          tp_tlast,
    input  wire [7:0]    tp_tuser,
    output wire          tp_s_tready,
    output wire [2*DATA_W-1:0] tp_m_tdata,
    output wire [2*BB-1:0] tp_m_tkeep,
    output wire          tp_m_tvalid,
    input  wire          tp_m_tready,   // (a register, 0 but during its run)
    output wire          tp_m_tlast,
    output wire [7:0]    tp_m_tuser,
    // simulation only (0 on a board): a faulty compressor, bit 0 of every
    // beat it outputs flipped, for the datapath and the test port alike
    input  wire          dbg_fault
);

`include "nic_beat_fns.vh"
// the descriptor layout, status bits and counter indices of docs/regmap.md
`include "inc_nic_regs.vh"

// the datapath's outcomes (incw_tx_result): the one the counters need
localparam [7:0] R_COMPRESSED = 8'd0;

// frames in flight (the datapath's record slots: 2^SLOT_W)
localparam SLOT_W = 5;
localparam [15:0] NR = 16'd1 << SLOT_W;
// the datapath's frame ring, in words of a beat (64 KiB: nic_tx_dp's FR_AW)
localparam FR_AW = 16 - BS;

// ===========================================================================
// TD, TR: descriptors and frames read
// ===========================================================================

// Two parts, with several reads in flight (a bridge answers reads late,
// in order): TD reads descriptors ahead into a FIFO (ND); TR takes one,
// reserves its words in the frame ring and asks for the frame (or, for a
// descriptor in error, nothing), and queues its metadata for the
// datapath (fq). The read answers are TD's or the datapath's by the order
// of the requests (tk, a FIFO of their kinds).

reg  [15:0] td_idx = 0;         // the next descriptor TD reads
reg  [15:0] tr_idx = 0;         // the next descriptor TR takes
reg  [15:0] st_idx = 0;         // the statuses the datapath gave

wire [11:0] ring_mask = ~(12'hfff << txq_size);
wire        unused_base = ^txq_base[4:0];   // below the descriptor size


// ---- the order of TX's reads: 1 a descriptor (TD's), 0 a frame's chunk;
// tkl: the chunk is its frame's last (its last beat the frame's: tlast) ----
localparam TK_AW = $clog2(RD_OUT + DESC_AHEAD);   // every read TX has in flight
reg  [(1 << TK_AW)-1:0] tk = 0, tkl = 0;
reg  [TK_AW:0] tk_wp = 0, tk_rp = 0;
wire         tk_full = tk_wp - tk_rp == (1 << TK_AW);
wire         tk_desc = tk[tk_rp[TK_AW-1:0]];        // the next answer is a descriptor
wire         tk_flast = tkl[tk_rp[TK_AW-1:0]];      // the frame's last chunk
wire         tk_any = tk_wp != tk_rp;

// ---- TD: descriptors read ahead ----
localparam ND_W = $clog2(DESC_AHEAD);
localparam [15:0] ND = DESC_AHEAD;
// the address of descriptor td_idx, BASE's bits below the descriptor size
// ignored (docs/regmap.md), in two clocks (the low 32 bits and their
// carry, then the high ones): td_fresh once both have followed td_idx
// (in units of the 32-byte descriptor)
reg  [27:0] slot_lo = 0;
reg  [58:0] td_slot = 0;
reg  [1:0]  td_age = 0;
wire        td_fresh = td_age == 2'd2;
always @(posedge clk) begin
    slot_lo <= {1'b0, txq_base[31:5]} + {16'd0, td_idx[11:0] & ring_mask};
    td_slot <= {txq_base[63:32] + {31'd0, slot_lo[27]}, slot_lo[26:0]};
end
// the descriptors read and not yet taken by TR (the FIFO and reads in
// flight) stay under ND
wire [15:0] td_ahead = td_idx - tr_idx;
reg         td_req = 1'b0;      // a request is up (it stays until taken)
reg  [58:0] td_req_slot = 0;
wire        td_go = !td_req && tx_en && txq_prod != td_idx && td_ahead < ND &&
                    td_fresh;

// the descriptors' addresses, in the order of TD's requests
reg  [58:0] tda [0:ND-1];
reg  [ND_W-1:0] tda_wp = 0, tda_rp = 0;

// the FIFO of descriptors read: the fields TR and the rest of F use
localparam DQ_W = 64 + 14 + 1 + 8 + 8 + 16 + 16 + 59 + 1;
reg  [DQ_W-1:0] dq [0:ND-1];
reg  [8:0]  dq_words [0:ND-1];  // the frame's ring words, counted as it comes
reg  [ND_W-1:0] dq_wp = 0, dq_rp = 0;
reg  [ND_W:0] dq_cnt = 0;
wire        d_resp = rd_valid && rd_ready && tk_desc;   // a descriptor arrives
// the descriptor's fields (docs/regmap.md, "TX descriptor")
wire [63:0] dsc_addr = rd_data[8*INC_TXD_ADDR +: 64];
wire [15:0] dsc_len = rd_data[8*INC_TXD_LEN +: 16];
wire        dsc_comp = rd_data[8*INC_TXD_FLAGS + INC_TXD_COMPRESS_BIT];
wire [7:0]  dsc_k = rd_data[8*INC_TXD_K +: 8];
wire [7:0]  dsc_mode = rd_data[8*INC_TXD_MODE +: 8];
wire [15:0] dsc_roff = rd_data[8*INC_TXD_RANGE_OFF +: 16];
wire [15:0] dsc_rlen = rd_data[8*INC_TXD_RANGE_LEN +: 16];
// a descriptor in error: a bad length (counted in tx_desc_errors)
wire        d_bad = dsc_len[15:14] != 2'd0 || dsc_len[13:0] < 14'd14 ||
                    dsc_len[13:0] > max_frame;
wire [DQ_W-1:0] d_in = {dsc_addr, dsc_len[13:0], dsc_comp, dsc_k, dsc_mode, dsc_roff,
                        dsc_rlen, tda[tda_rp], d_bad};

// ---- TR: a frame's words reserved in the ring, its read asked for ----
// the datapath's frame ring: TR reserves from fr_ptr, the datapath frees
// up to fr_free (its credits; a wrap bit above the word address)
wire [FR_AW:0]   fr_free;
reg  [FR_AW:0]   fr_ptr = 0;
reg  [FR_AW:0]   f_room = 0;
// (f_room a clock late: it only grows while TR waits)
always @(posedge clk)
    f_room <= (1 << FR_AW) - (fr_ptr - fr_free);

// the head of dq
wire [63:0] t_addr;
wire [13:0] t_len;
wire        t_comp;
wire [7:0]  t_k, t_mode;
wire [15:0] t_off, t_rlen;
wire [58:0] t_dslot;
wire        t_err;
assign {t_addr, t_len, t_comp, t_k, t_mode, t_off, t_rlen, t_dslot, t_err} = dq[dq_rp];
wire [8:0]  t_words = dq_words[dq_rp];
wire        t_fits = f_room >= {{(FR_AW - 8){1'b0}}, t_words};
wire [15:0] f_inflight = tr_idx - st_idx;

// frames asked for (or in error, not asked), in order: the datapath's
// metadata (s_meta_*)
localparam FQ_W = DQ_W - 64;
// (as many as reads may be in flight: a frame of one read each)
localparam FQ_AW = $clog2(RD_OUT);
localparam [FQ_AW:0] FQ_N = RD_OUT;
reg  [FQ_W-1:0] fq [0:RD_OUT-1];
reg  [FQ_AW-1:0] fq_wp = 0, fq_rp = 0;
reg  [FQ_AW:0] fq_cnt = 0;

// A frame is read in requests of RD_CHUNK bytes (as a PCIe bridge splits
// reads at its maximum read request size): the receive engine's
// descriptor reads, answered in order with them, wait for at most RD_OUT
// of them, however long the frame
localparam [13:0] RD_CHUNK = 14'd512;
localparam RO_W = $clog2(RD_OUT) + 1;
localparam [RO_W-1:0] TR_MAX = RD_OUT;
reg         tr_req = 1'b0;      // a chunk's read is up
reg  [RO_W-1:0] tr_out = 0;    // chunks whose requests were taken, not yet all in
reg  [63:0] tr_req_addr = 0;
reg  [13:0] tr_req_len = 0;
reg  [13:0] tr_left = 0;        // the frame's bytes after this chunk
wire [13:0] tr_next = tr_left > RD_CHUNK ? RD_CHUNK : tr_left;
// TR takes the head: a record slot is free, the metadata queue and tk
// have room, and (but for a descriptor in error) the ring has room for
// the frame
wire        tr_busy = tr_req || tr_left != 0;  // a frame's chunks are being asked for
wire        tr_go = !tr_busy && dq_cnt != 0 && f_inflight < NR && fq_cnt != FQ_N &&
                    (t_err || (t_fits && !tk_full && tr_out < TR_MAX));
// the frame's next chunk
wire        tr_more = !tr_req && tr_left != 0 && !tk_full && tr_out < TR_MAX;
// tr_out's steps: a chunk's request taken; a chunk's last beat in. A
// request is counted when the port takes it, not when TR raises it: TR
// reads tr_out only with no request of its own up, so the count it sees
// is the same, and the step hangs on two registers and the port's ready,
// not on tr_go's compares (dq_words, f_room, the counts)
wire        tr_up;
wire        tr_down = rd_valid && rd_ready && rd_last && !tk_desc;

// ---- the read requests: TR's, else TD's; one stays up until taken ----
reg         rq_tr = 1'b0;       // the request up is TR's
wire        rq_valid = td_req || tr_req;
wire        rq_is_tr = rq_lock ? rq_tr : tr_req;
reg         rq_lock = 1'b0;
assign rd_req_valid = rq_valid;
assign rd_req_addr = rq_is_tr ? tr_req_addr : {td_req_slot, 5'd0};
assign rd_req_len = rq_is_tr ? {2'd0, tr_req_len} : INC_TXD_BYTES[15:0];
wire        rq_fire = rq_valid && rd_req_ready;
assign      tr_up = rq_fire && rq_is_tr;

// ---- the datapath ----
wire [13:0] g_len;
wire        g_comp, g_err;
wire [7:0]  g_k, g_mode;
wire [15:0] g_off, g_rlen;
wire [58:0] g_dslot;
assign {g_len, g_comp, g_k, g_mode, g_off, g_rlen, g_dslot, g_err} = fq[fq_rp];
wire        meta_ready;
wire        meta_fire = fq_cnt != 0 && meta_ready;
wire        dp_tready;
// the read answers: a descriptor is always taken (TD asked for it only
// with room in dq); a frame's beats as the datapath takes them
assign rd_ready = tk_any && (tk_desc || dp_tready);

wire        st_valid, st_ready;
wire [58:0] st_dslot;
wire        st_err, st_comp;
wire [7:0]  st_outcome;
wire [13:0] st_sent, st_len, st_body;
wire [15:0] st_rlen;
wire        dp_idle;

nic_tx_dp #(.LANES(LANES), .WIDTH(WIDTH), .TAG_W(59), .SLOT_W(SLOT_W)) dp (
    .clk(clk), .rst(rst),
    .s_meta_valid(fq_cnt != 0), .s_meta_ready(meta_ready),
    .s_meta_len(g_len), .s_meta_comp(g_comp), .s_meta_k(g_k), .s_meta_mode(g_mode),
    .s_meta_off(g_off), .s_meta_rlen(g_rlen), .s_meta_tag(g_dslot), .s_meta_err(g_err),
    .s_axis_tdata(rd_data), .s_axis_tkeep(rd_keep),
    .s_axis_tvalid(rd_valid && tk_any && !tk_desc), .s_axis_tready(dp_tready),
    .s_axis_tlast(rd_last && tk_flast),
    .fr_free(fr_free),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_stat_valid(st_valid), .m_stat_ready(st_ready),
    .m_stat_tag(st_dslot), .m_stat_err(st_err), .m_stat_outcome(st_outcome),
    .m_stat_sent(st_sent), .m_stat_len(st_len), .m_stat_body(st_body),
    .m_stat_rlen(st_rlen), .m_stat_comp(st_comp),
    .idle(dp_idle),
    .tp_req(tp_req), .tp_gnt(tp_gnt),
    .tp_tdata(tp_tdata), .tp_tkeep(tp_tkeep), .tp_tvalid(tp_tvalid), .tp_tlast(tp_tlast),
    .tp_tuser(tp_tuser), .tp_s_tready(tp_s_tready),
    .tp_m_tdata(tp_m_tdata), .tp_m_tkeep(tp_m_tkeep), .tp_m_tvalid(tp_m_tvalid),
    .tp_m_tready(tp_m_tready), .tp_m_tlast(tp_m_tlast), .tp_m_tuser(tp_m_tuser),
    .dbg_fault(dbg_fault)
);

// tx_desc_errors, counted when a descriptor in error arrives
wire f_desc_err = d_resp && d_bad;

// ---- TD and TR ----
integer hw;
always @(posedge clk) begin
    // TD
    if (!td_fresh)
        td_age <= td_age + 2'd1;
    if (td_go) begin
        td_req <= 1'b1;
        td_req_slot <= td_slot;
        tda[tda_wp] <= td_slot;
        tda_wp <= tda_wp + 1'b1;
        td_idx <= td_idx + 16'd1;
        td_age <= 0;
    end
    if (d_resp) begin
        dq[dq_wp] <= d_in;
        dq_words[dq_wp] <= {{(BS - 5){1'b0}}, dsc_len[13:BS]} +
                           {8'd0, dsc_len[BS-1:0] != 0};
        dq_wp <= dq_wp + 1'b1;
        tda_rp <= tda_rp + 1'b1;
    end

    // TR
    if (tr_go) begin
        dq_rp <= dq_rp + 1'b1;
        tr_idx <= tr_idx + 16'd1;
        fq[fq_wp] <= {t_len, t_comp, t_k, t_mode, t_off, t_rlen, t_dslot, t_err};
        fq_wp <= fq_wp + 1'b1;
        if (!t_err) begin
            tr_req <= 1'b1;
            tr_req_addr <= t_addr;
            tr_req_len <= t_len > RD_CHUNK ? RD_CHUNK : t_len;
            tr_left <= t_len > RD_CHUNK ? t_len - RD_CHUNK : 14'd0;
            fr_ptr <= fr_ptr + {{(FR_AW - 8){1'b0}}, t_words};
        end
    end
    if (tr_more) begin
        tr_req <= 1'b1;
        tr_req_addr <= tr_req_addr + {50'd0, RD_CHUNK};
        tr_req_len <= tr_next;
        tr_left <= tr_left - tr_next;
    end

    // the request up, and the kind of its answer
    if (rq_valid && !rd_req_ready) begin
        rq_lock <= 1'b1;
        rq_tr <= rq_is_tr;
    end
    if (rq_fire) begin
        rq_lock <= 1'b0;
        if (rq_is_tr)
            tr_req <= 1'b0;
        else
            td_req <= 1'b0;
        // a decoded write (an indexed one is a shifter to yosys)
        for (hw = 0; hw < (1 << TK_AW); hw = hw + 1)
            if (tk_wp[TK_AW-1:0] == hw[TK_AW-1:0]) begin
                tk[hw] <= !rq_is_tr;
                // (the request up is TR's last chunk: nothing after it)
                tkl[hw] <= rq_is_tr && tr_left == 0;
            end
        tk_wp <= tk_wp + 1'b1;
    end
    if (rd_valid && rd_ready && rd_last)
        tk_rp <= tk_rp + 1'b1;
    dq_cnt <= dq_cnt + {{ND_W{1'b0}}, d_resp} - {{ND_W{1'b0}}, tr_go};
    // (a choice among tr_out + 1, - 1 and itself, made from the register)
    if (tr_up && !tr_down)
        tr_out <= tr_out + 1'b1;
    else if (tr_down && !tr_up)
        tr_out <= tr_out - 1'b1;


    // the metadata queue
    if (meta_fire)
        fq_rp <= fq_rp + 1'b1;
    fq_cnt <= fq_cnt + {{FQ_AW{1'b0}}, tr_go} - {{FQ_AW{1'b0}}, meta_fire};

    if (rst) begin
        td_idx <= 0;
        tr_idx <= 0;
        td_req <= 1'b0;
        tr_req <= 1'b0;
        tr_left <= 0;
        rq_lock <= 1'b0;
        td_age <= 0;
        tda_wp <= 0;
        tda_rp <= 0;
        dq_wp <= 0;
        dq_rp <= 0;
        dq_cnt <= 0;
        fq_wp <= 0;
        fq_rp <= 0;
        fq_cnt <= 0;
        tk_wp <= 0;
        tk_rp <= 0;
        fr_ptr <= 0;
        tr_out <= 0;
    end
end

// ===========================================================================
// W: the statuses, written in order
// ===========================================================================

// The queue of statuses: the descriptor's address (bits 63:5) and the
// word (16: the statuses wait there for the write channel while RX's
// frames use it, and the datapath goes on meanwhile); the datapath starts
// a frame only while it has room (st_ready), so its statuses seldom wait.
reg  [58:0] wq_addr [0:15];
reg  [31:0] wq_word [0:15];
reg  [3:0]  wq_wp = 0, wq_rp = 0;
reg  [4:0]  wq_cnt = 0;
wire        wq_pop;
assign st_ready = wq_cnt != 5'd16;
wire        wq_push = st_valid && st_ready;

// the status word (docs/regmap.md): DONE, COMPRESSED, the outcome, the
// bytes sent (INC_TXS_BYTES: bits 15:0); a descriptor in error: DONE and
// ERROR, outcome 0, no bytes
reg  [31:0] st_word;
always @* begin
    st_word = 0;
    st_word[INC_DESC_DONE_BIT] = 1'b1;
    st_word[INC_TXS_COMPRESSED_BIT] = st_outcome == R_COMPRESSED;
    st_word[INC_TXS_OUTCOME_SHIFT +: 8] = st_outcome;
    st_word[15:0] = {2'd0, st_sent};
    if (st_err)
        st_word = INC_DESC_DONE | INC_TXS_ERROR;
end

always @(posedge clk) begin
    stat_inc <= 0;
    stat_inc[16*INC_ST_TX_DESC_ERRORS +: 16] <= {15'd0, f_desc_err};
    if (wq_push) begin
        wq_addr[wq_wp] <= st_dslot;
        wq_word[wq_wp] <= st_word;
        wq_wp <= wq_wp + 4'd1;
        st_idx <= st_idx + 16'd1;
        if (!st_err) begin
            stat_inc[16*INC_ST_TX_FRAMES +: 16] <= 16'd1;
            stat_inc[16*INC_ST_TX_BYTES +: 16] <= {2'd0, st_sent};
            if (st_outcome == R_COMPRESSED) begin
                stat_inc[16*INC_ST_TX_COMP_FRAMES +: 16] <= 16'd1;
                stat_inc[16*INC_ST_TX_COMP_IN_BYTES +: 16] <= st_rlen;
                stat_inc[16*INC_ST_TX_COMP_OUT_BYTES +: 16] <= {2'd0, st_body};
                stat_inc[16*INC_ST_TX_BYTES_SAVED +: 16] <= {2'd0, st_len - st_sent};
            end else if (st_comp) begin
                stat_inc[16*INC_ST_TX_COMP_SKIPPED +: 16] <= 16'd1;
            end
        end
    end
    wq_cnt <= wq_cnt + {4'd0, wq_push} - {4'd0, wq_pop};
    if (wq_pop)
        wq_rp <= wq_rp + 4'd1;

    if (rst) begin
        st_idx <= 0;
        wq_wp <= 0;
        wq_rp <= 0;
        wq_cnt <= 0;
    end
end

// Requests run ahead of their data (up to W_MAX writes between a request
// and its done): w_rq statuses from the queue's head have their request
// taken and wait to send their word, w_pend have sent it and wait for
// their done. RX's frames hold the write data bus for a frame at a time;
// the statuses whose requests were taken meanwhile follow each other
// after it, a clock each.
localparam [3:0] W_MAX = 4'd8;
reg  [3:0] w_rq = 0;
reg  [3:0] w_pend = 0;
wire [3:0] w_e = wq_rp + w_rq;

assign wq_pop = wr_valid && wr_ready;

// (once up, a request stays until taken: the sum only falls with dones,
// the queue only grows but for entries already requested)
assign wr_req_valid = {1'b0, w_rq} < wq_cnt && w_rq + w_pend < W_MAX;
assign wr_req_addr = {wq_addr[w_e], INC_TXD_STATUS[4:0]};     // the status word
assign wr_req_len = 16'd4;
assign wr_data = {{(DATA_W - 32){1'b0}}, wq_word[wq_rp]};
assign wr_keep = {{(BB - 4){1'b0}}, 4'hf};
assign wr_last = 1'b1;
assign wr_valid = w_rq != 0;

// The dones come in order, and CONS and the completion event follow them.
always @(posedge clk) begin
    event_done <= 1'b0;
    w_rq <= w_rq + {3'd0, wr_req_valid && wr_req_ready} - {3'd0, wq_pop};
    w_pend <= w_pend + {3'd0, wq_pop} - {3'd0, wr_done};
    if (wr_done) begin
        txq_cons <= txq_cons + 16'd1;
        event_done <= 1'b1;
    end
    if (rst) begin
        w_rq <= 0;
        w_pend <= 0;
        txq_cons <= 0;
        event_done <= 1'b0;
    end
end

// nothing to do: no descriptor waiting, nothing in flight
assign idle = !td_req && !tr_busy && !tk_any && dq_cnt == 0 && fq_cnt == 0 &&
              dp_idle && wq_cnt == 0 && w_rq == 0 && w_pend == 0 &&
              !(tx_en && txq_prod != td_idx);

endmodule

`resetall
