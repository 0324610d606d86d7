// SPDX-License-Identifier: MIT
/*
 * nic_tx_dp: the transmit datapath. It takes frames as a stream, each
 * with its metadata (the descriptor's length, compress flag, k, mode and
 * range, and an opaque tag), decides by the rules of docs/wire-format.md
 * whether to send each compressed, and sends either the frame as it was
 * or the encapsulated frame, bit-exact with incw_tx() of userspace/wire;
 * then it returns one status per frame, in order, with the tag. It knows
 * nothing of rings, descriptors or registers: nic_tx (the shell) reads
 * the descriptors and frames by DMA and writes the statuses back, and
 * another shell could do the same (docs/dataflow.md, "The datapath and
 * its shell").
 *
 * Ports:
 *   s_meta_*   a frame's metadata, one per frame, in the frames' order;
 *              s_meta_err: a descriptor in error, no beats follow (its
 *              status comes back in order, with err set)
 *   s_axis_*   the frames' beats, 32 LANES bits, in order; tlast on each
 *              frame's last beat (the frame has ceil(len / BB) beats)
 *   fr_free    credits: the frame ring's words freed so far (a running
 *              count, FR_AW + 1 bits). The shell keeps its own count of
 *              the words it reserved (ceil(len / BB) per frame) and asks
 *              for a frame's bytes only once 2^FR_AW - (reserved -
 *              fr_free) covers them, so a host's read completions are
 *              never left waiting on the ring
 *   m_axis_*   the frames as sent, to the MAC (or a frame FIFO)
 *   m_stat_*   a status per frame, in order: the tag, err, the outcome
 *              (incw_tx_result), the bytes sent, the frame's and the
 *              body's length, the range's, the compress flag (with err:
 *              the tag, and 0 in the rest)
 *   tp_*       the engine test port (nic_tport), granted between frames
 *
 * A pipeline of four stages, each working on its own frame, in order:
 *
 *   F  fetch: the frame into a RAM (a ring), its first 160 bytes into a
 *      header register; the header's parse and the transmit decision (Q)
 *   P  process: a marked frame's range through inc_compressor into the
 *      body RAM while a second reader sums the rest of the segment; then
 *      the header block (IP patched, shim with its checksum, L4 header)
 *   S  send: nic_assembler streams header block + payload before the
 *      range + body + payload after it (or the frame as it was); then
 *      the status
 *
 * A frame holds, from F to S, its words in the frame RAM and (compressed)
 * the body RAM, both rings, and a record slot (NR of them): F's record
 * (metadata, header, parse) and P's (header block and pieces for the
 * assembler, the status's fields). Each stage takes the next frame in
 * order as soon as the stage before it is done with it, so up to NR
 * frames are in F, P and S at once (s_meta_ready falls while NR are).
 * P waits for the largest body its range can give in the body ring; S
 * frees both when the frame's status is taken. The frame RAM has one copy
 * per reader (P's two, S's one), each written by F.
 *
 *   hb (the header block): the frame's headers up to the L4 header with the
 *   IP header patched (protocol 253, length, IPv4 checksum), the 16-byte
 *   shim, and the original L4 header; then nic_assembler appends the
 *   payload before the range, the body, and the payload after the range.
 *
 * Checksums: the shim's is a pseudo-header checksum over the new segment.
 * Its sums are taken in pieces where the bytes already are (the frame RAM
 * and the body as it is written) in their own alignment; a piece that lands
 * an odd number of bytes away in the new frame has its folded sum
 * byte-swapped (RFC 1071, byte order independence).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_tx_dp #
(
    // codec lanes (8 or 16): 32-bit values per beat; the beat, the stream
    // and the RAM words are 32 LANES bits
    parameter LANES = 8,
    // width mode built (1, at 16 lanes only; inc_nic's WIDTH)
    parameter WIDTH = 1,
    // the metadata's opaque tag, returned with the status (nic_tx: the
    // descriptor's address / 32)
    parameter TAG_W = 59,
    // log2 of the record slots: the frames inside at once (nic_tx: 5, 32
    // frames; the formal harness: fewer)
    parameter SLOT_W = 5,
    // the beat in bits and bytes, log2 of its bytes, and log2 of the frame
    // ring's words (64 KiB; its credits: fr_free) (derived: leave them)
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB),
    parameter FR_AW = 16 - BS
)
(
    input  wire          clk,
    input  wire          rst,

    input  wire          s_meta_valid,
    output wire          s_meta_ready,
    input  wire [13:0]   s_meta_len,    // the frame's bytes (14..16383)
    input  wire          s_meta_comp,   // compress its range (the socket's mark)
    input  wire [7:0]    s_meta_k,
    input  wire [7:0]    s_meta_mode,
    input  wire [15:0]   s_meta_off,    // the range: its offset in the L4 payload
    input  wire [15:0]   s_meta_rlen,   // and its length
    input  wire [TAG_W-1:0] s_meta_tag,
    input  wire          s_meta_err,    // no frame: a status with err only

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [BB-1:0] s_axis_tkeep,
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    input  wire          s_axis_tlast,
    output reg  [FR_AW:0] fr_free = 0,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [BB-1:0] m_axis_tkeep,
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire          m_axis_tlast,

    output wire          m_stat_valid,
    input  wire          m_stat_ready,
    output wire [TAG_W-1:0] m_stat_tag,
    output wire          m_stat_err,
    output wire [7:0]    m_stat_outcome,
    output wire [13:0]   m_stat_sent,
    output wire [13:0]   m_stat_len,
    output wire [13:0]   m_stat_body,
    output wire [15:0]   m_stat_rlen,
    output wire          m_stat_comp,

    // nothing in flight
    output wire          idle,

    // the engine test port (nic_tport): its request for the compressor,
    // granted between frames (tp_gnt: the compressor's input and output
    // are the port's), the port's chunk and the compressor's output beats
    input  wire          tp_req,
    output reg           tp_gnt = 1'b0,
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
`include "nic_hdr_fns.vh"

// transmit outcomes (incw_tx_result)
localparam [7:0] R_COMPRESSED = 8'd0, R_NOT_ASKED = 8'd1, R_NOT_IP = 8'd2,
                 R_FRAGMENT = 8'd3, R_NOT_L4 = 8'd4, R_BAD_RANGE = 8'd5,
                 R_BAD_PARAMS = 8'd6, R_NO_GAIN = 8'd7;

// record slots: NR frames in flight at most
// width mode (3): only where it is built (16 lanes, WIDTH)
localparam WIDTH_OK = LANES == 16 && WIDTH != 0;
localparam [15:0] NR = 16'd1 << SLOT_W;
// the rings, in words of a beat: the frame RAM 64 KiB (seven 9018-byte
// frames, dozens of common ones), the body RAM 32 KiB (three bodies of the
// largest range)
localparam RDC_W = 26 + BS;             // nic_rd_count's counts (nic_rd_stream start_cnt)
localparam BR_AW = 15 - BS;
// words of the header register (its first 160 bytes are kept)
localparam NHW = (160 + BB - 1) / BB;
localparam [3:0] NHW4 = NHW[3:0];

// ===========================================================================
// F: frames, parse
// ===========================================================================

// Two parts, each on its own frame: TF takes a frame's metadata and writes
// its beats into the ring as they come, keeping its first 160 bytes; Q
// parses them and writes F's record.

reg  [15:0] f_idx = 0;          // records Q wrote (P may take them)
reg  [15:0] p_idx = 0;          // the next record P takes
reg  [15:0] pd_idx = 0;         // the next record P finishes
reg  [15:0] s_idx = 0;          // the next record S finishes (slots below are free)
// records in use, from TF's take to the status's
reg  [SLOT_W:0] rec_used = 0;

// ---- TF: the frames' beats into the ring ----
localparam [1:0] TF_IDLE = 2'd0, TF_FETCH = 2'd1, TF_HAND = 2'd2;
reg  [1:0]  tf_state = TF_IDLE;
// the frame TF has
reg  [13:0] f_len = 0;
reg         f_comp = 1'b0;
reg  [7:0]  f_k = 0, f_mode = 0;
reg  [15:0] f_off = 0, f_rlen = 0;
reg  [TAG_W-1:0] f_tag = 0;
reg         f_err = 1'b0;
reg  [FR_AW:0]   f_fbase = 0;
// ---- frame RAM: one copy per reader, all written by F ----
reg              a_we = 1'b0;
reg [FR_AW-1:0]  a_waddr = 0;
reg [DATA_W-1:0] a_wdata = 0;

wire              ac_re, ak_re, as_re;      // compressor feed, checksum pass, send
wire [FR_AW-1:0]  ac_raddr, ak_raddr, as_raddr;
wire [DATA_W-1:0] ac_rdata, ak_rdata, as_rdata;

nic_ram #(.WIDTH(DATA_W), .ADDR_W(FR_AW)) ram_ac (
    .clk(clk), .we(a_we), .waddr(a_waddr), .wdata(a_wdata),
    .re(ac_re), .raddr(ac_raddr), .rdata(ac_rdata)
);
nic_ram #(.WIDTH(DATA_W), .ADDR_W(FR_AW)) ram_ak (
    .clk(clk), .we(a_we), .waddr(a_waddr), .wdata(a_wdata),
    .re(ak_re), .raddr(ak_raddr), .rdata(ak_rdata)
);
nic_ram #(.WIDTH(DATA_W), .ADDR_W(FR_AW)) ram_as (
    .clk(clk), .we(a_we), .waddr(a_waddr), .wdata(a_wdata),
    .re(as_re), .raddr(as_raddr), .rdata(as_rdata)
);

// ---- header register (TF's) and the parse (Q's) ----
reg  [NHW*DATA_W-1:0] f_hregw = 0;
wire [1279:0] f_hreg = f_hregw[1279:0];
generate
    if (NHW * DATA_W > 1280) begin : hreg_past
        wire unused_hreg = ^f_hregw[NHW*DATA_W-1:1280];  // past 160 bytes
    end
endgenerate
reg  [3:0]    fetch_word = 0;
reg  [FR_AW:0] a_wptr = 0;     // the next word's place in the ring

// Q: the frame TF handed on, its header and metadata
reg  [1:0]    q_state = 2'd0;
localparam [1:0] Q_IDLE = 2'd0, Q_PARSE = 2'd1;
reg  [1279:0] q_hreg = 0;
reg  [13:0]   q_len = 0;
reg           q_comp = 1'b0;
reg  [7:0]    q_k = 0, q_mode = 0;
reg  [15:0]   q_off = 0, q_rlen = 0;
reg  [TAG_W-1:0] q_tag = 0;
reg           q_err = 1'b0;
reg  [FR_AW:0]   q_fbase = 0;
wire          unused_q_wrap = q_fbase[FR_AW];   // (the record keeps the word)
reg  [FR_AW:0]   q_fend = 0;
wire [SLOT_W-1:0] q_slot = f_idx[SLOT_W-1:0];

// The header's fields and what follows from them pass six registers (P1
// to P6), each a few LUT levels deep (docs/rtl.md, "Logic depth"), every
// clock; hdr_age counts the clocks since q_hreg changed, so Q writes the
// record once P6 holds its outcome.
wire [7:0]   fc_l4_len;
wire         fc_l4_ok;

// P1: the IP parse
wire [1:0]   f_result;
wire [7:0]   f_l3_off, f_ip_hlen, f_proto, f_l4_off;
wire [3:0]   f_ip_ver;
wire [13:0]  f_ip_end;
wire         f_fragment;

nic_hdr_parse_reg parse (
    .clk(clk), .en(1'b1),
    .hdr(q_hreg), .len(q_len),
    .result(f_result), .l3_off(f_l3_off),
    .ip_ver(f_ip_ver), .ip_hlen(f_ip_hlen), .ip_end(f_ip_end),
    .proto(f_proto), .fragment(f_fragment), .l4_off(f_l4_off)
);

reg  [7:0]   f_l4_len = 0;
reg          f_l4_ok = 1'b0;

// P2: the L4 header at the parsed offset
nic_l4_parse parse4 (
    .hdr(q_hreg), .l4_off(f_l4_off), .ip_end(f_ip_end), .proto(f_proto),
    .ok(fc_l4_ok), .l4_len(fc_l4_len)
);

// P3: where the payload starts; P4: its length, the range's start; P5:
// the range's end, the payload left after the offset (one adder each)
reg  [13:0] f_pay_off = 0, f_pay_len = 0;
reg  [13:0] f_rs = 0;                              // range start in the frame
reg  [13:0] f_re = 0;                              // range end
reg  [13:0] f_pay_rem = 0;                         // payload after q_off
reg         f_off_ok = 1'b0;                       // q_off inside the payload
// the checksum pass's windows (stream offsets from l4_off): the L4 header
// and the payload before the range; the payload after it
reg  [13:0] f_pre_end = 0, f_suf_start = 0;

// (width mode, 3, where the compressor has it: 16 lanes)
wire params_ok = q_k >= 8'd1 && q_k <= 8'd24 &&
                 (q_mode == 8'd1 || q_mode == 8'd2 || (WIDTH_OK && q_mode == 8'd3));
wire range_ok = q_rlen != 0 && q_off[15:14] == 0 && f_off_ok &&
                q_rlen <= {2'd0, f_pay_rem} && q_rlen <= 16'd9000;
// P6: the outcome, registered
reg  [7:0] f_decide = 0;
wire [7:0] decide_c = !q_comp ? R_NOT_ASKED :
                    f_result != 2'd0 ? R_NOT_IP :
                    !f_l4_ok ? R_NOT_L4 :
                    f_fragment ? R_FRAGMENT :
                    !params_ok ? R_BAD_PARAMS :
                    !range_ok ? R_BAD_RANGE : R_COMPRESSED;

// q_hreg is written: Q takes a frame
wire q_take;
reg  [2:0] hdr_age = 0;
always @(posedge clk) begin
    f_l4_ok <= fc_l4_ok;
    f_l4_len <= fc_l4_len;

    f_pay_off <= {6'd0, f_l4_off} + {6'd0, f_l4_len};
    f_pay_len <= f_ip_end - f_pay_off;
    f_rs <= f_pay_off + q_off[13:0];
    f_re <= f_rs + q_rlen[13:0];
    f_pay_rem <= f_pay_len - q_off[13:0];
    f_off_ok <= q_off[13:0] <= f_pay_len;
    f_pre_end <= {6'd0, f_l4_len} + q_off[13:0];
    f_suf_start <= f_pre_end + q_rlen[13:0];

    f_decide <= decide_c;

    if (hdr_age != 3'd6)
        hdr_age <= hdr_age + 3'd1;
    if (q_take)
        hdr_age <= 0;
end

// ---- F's records, a slot each: the metadata, the header, the parse ----
// (q_fbase: the frame's first word in the ring, q_fend: after its last)
localparam FR_W = 200 + TAG_W + FR_AW + FR_AW + 1;
reg  [1279:0]   fr_hreg [0:NR-1];
reg  [FR_W-1:0] fr_info [0:NR-1];
wire [FR_W-1:0] f_info = {q_len, q_comp, q_k, q_mode, q_off, q_rlen, q_tag,
                          q_err, f_l3_off, f_ip_ver, f_ip_hlen, f_ip_end, f_proto,
                          f_l4_off, f_l4_len, f_pay_off, f_rs, f_re, f_pre_end,
                          f_suf_start, f_decide, q_fbase[FR_AW-1:0], q_fend};

// ---- TF and Q ----
// TF hands a frame (or a descriptor in error) on through a holding
// register, so it goes on with the next frame while Q parses the last
reg           hq_full = 1'b0;
reg  [1279:0] hq_hreg = 0;
localparam HQ_W = 14 + 1 + 8 + 8 + 16 + 16 + TAG_W + 1 + 2 * (FR_AW + 1);
reg  [HQ_W-1:0] hq_info = 0;
// TF takes the next metadata with a record slot free: a frame to fetch,
// or one in error into the holding register
assign s_meta_ready = tf_state == TF_IDLE && rec_used != NR[SLOT_W:0] &&
                      (!s_meta_err || !hq_full);
wire tf_take = s_meta_valid && s_meta_ready;
wire tf_hand = tf_state == TF_HAND && !hq_full;
assign s_axis_tready = tf_state == TF_FETCH;
wire tf_beat = s_axis_tvalid && s_axis_tready;
assign q_take = q_state == Q_IDLE && hq_full;
// S's status taken: the frame's record and ring words are free
wire s_fire;

integer hw;
always @(posedge clk) begin
    a_we <= 1'b0;
    rec_used <= rec_used + {{SLOT_W{1'b0}}, tf_take} - {{SLOT_W{1'b0}}, s_fire};

    // TF
    case (tf_state)
    TF_IDLE: begin
        if (tf_take && !s_meta_err) begin
            {f_len, f_comp, f_k, f_mode, f_off, f_rlen, f_tag, f_err} <=
                {s_meta_len, s_meta_comp, s_meta_k, s_meta_mode, s_meta_off,
                 s_meta_rlen, s_meta_tag, 1'b0};
            f_fbase <= a_wptr;
            f_hregw <= 0;
            fetch_word <= 0;
            tf_state <= TF_FETCH;
        end
    end
    TF_FETCH: begin
        if (tf_beat) begin
            a_we <= 1'b1;
            a_waddr <= a_wptr[FR_AW-1:0];
            a_wdata <= s_axis_tdata;
            a_wptr <= a_wptr + 1'b1;
            if (fetch_word < NHW4) begin
                // a decoded write, not an indexed part-select (a
                // 1280-bit shifter by yosys)
                for (hw = 0; hw < NHW; hw = hw + 1)
                    if (fetch_word[2:0] == hw[2:0])
                        f_hregw[DATA_W*hw +: DATA_W] <= masked(s_axis_tdata, s_axis_tkeep);
                fetch_word <= fetch_word + 4'd1;
            end
            if (s_axis_tlast)
                tf_state <= TF_HAND;
        end
    end
    TF_HAND: begin
        // (into the holding register: tf_hand)
        if (!hq_full)
            tf_state <= TF_IDLE;
    end
    default: tf_state <= TF_IDLE;
    endcase

    // the holding register
    if (tf_hand) begin
        hq_hreg <= f_hreg;
        hq_info <= {f_len, f_comp, f_k, f_mode, f_off, f_rlen, f_tag, f_err, f_fbase,
                    a_wptr};
        hq_full <= 1'b1;
    end else if (tf_take && s_meta_err) begin
        hq_hreg <= 0;
        hq_info <= {s_meta_len, s_meta_comp, s_meta_k, s_meta_mode, s_meta_off,
                    s_meta_rlen, s_meta_tag, 1'b1, a_wptr, a_wptr};
        hq_full <= 1'b1;
    end
    if (q_take)
        hq_full <= 1'b0;    // (TF fills it again a clock later at the soonest)

    // Q
    case (q_state)
    Q_IDLE: begin
        if (q_take) begin
            q_hreg <= hq_hreg;
            {q_len, q_comp, q_k, q_mode, q_off, q_rlen, q_tag, q_err, q_fbase,
             q_fend} <= hq_info;
            q_state <= Q_PARSE;
        end
    end
    Q_PARSE: begin
        // the parse is through P6 (a descriptor in error has nothing to parse)
        if (q_err || hdr_age == 3'd6) begin
            fr_hreg[q_slot] <= q_hreg;
            fr_info[q_slot] <= f_info;
            f_idx <= f_idx + 16'd1;
            q_state <= Q_IDLE;
        end
    end
    default: q_state <= Q_IDLE;
    endcase

    if (rst) begin
        f_idx <= 0;
        rec_used <= 0;
        a_wptr <= 0;
        tf_state <= TF_IDLE;
        q_state <= Q_IDLE;
        hq_full <= 1'b0;
        a_we <= 1'b0;
    end
end

// ===========================================================================
// P: compress and build the header block
// ===========================================================================

// Two parts, each on its own frame: PI reads a marked frame's range into
// the compressor and, at once, the rest of its segment into the checksum
// sums (kept by record slot); PO takes the body out of the compressor into
// the body RAM and builds the header block. The next range goes into the
// compressor while PO still takes the last body out of it.

localparam [1:0] PI_IDLE = 2'd0, PI_DECIDE = 2'd1, PI_GO = 2'd2, PI_RUN = 2'd3;
reg  [1:0]  pi_state = PI_IDLE;
reg  [15:0] pit_idx = 0;        // records PI took
reg  [15:0] pis_idx = 0;        // records PI started (the body's place reserved)
reg  [15:0] pi_idx = 0;         // records PI is done with (its sums kept)
reg  [SLOT_W-1:0] pi_slot = 0;
// what PI needs of F's record
reg         pi_err = 1'b0;
reg  [4:0]  pi_k = 0;
reg  [1:0]  pi_mode = 0;
reg  [15:0] pi_rlen = 0;
reg  [7:0]  pi_l4_off = 0;
reg  [13:0] pi_ip_end = 0, pi_rs = 0, pi_pre_end = 0, pi_suf_start = 0;
reg  [7:0]  pi_decide = 0;
reg  [FR_AW-1:0] pi_fbase = 0;
wire [15:0] pi_fbyte = {pi_fbase, {BS{1'b0}}};
reg         pi_in_done = 1'b0;
// by record slot: the checksum pass's sums, the body's place in the body
// ring (its reservation) and the ring's end after it
reg  [31:0] ps_pre [0:NR-1];
reg  [31:0] ps_suf [0:NR-1];
reg  [BR_AW:0] ps_bbase [0:NR-1];
reg  [BR_AW:0] ps_bres [0:NR-1];
reg  [BR_AW:0] ps_bend [0:NR-1];

localparam [3:0] P_IDLE = 4'd0, P_PARSE = 4'd1,
                 P_COMP = 4'd3, P_CS_END = 4'd4,
                 P_SUMS = 4'd6, P_SHIM1 = 4'd7,
                 P_BUILD2 = 4'd9, P_IP4 = 4'd10,
                 P_DONE = 4'd12;

reg  [3:0] p_state = P_IDLE;
reg        p_comp = 1'b0;       // p_state == P_COMP (a register of its own: c_tready)
// PO takes a record once PI has started it
wire       p_take = p_state == P_IDLE && p_idx != pis_idx;
reg  [15:0] p_fidx = 0;         // the record PO has

// F's frame, as P took it
reg [13:0] d_len = 0;
reg        d_comp = 1'b0;
reg [7:0]  d_k = 0, d_mode = 0;
reg [15:0] d_off = 0, d_rlen = 0;
reg [TAG_W-1:0] d_tag = 0;     // the metadata's tag
reg        d_err = 1'b0;
reg [SLOT_W-1:0] p_slot = 0;
reg [FR_AW-1:0]  p_fbase = 0;   // the frame's first word in the frame ring
reg [FR_AW:0]    p_fend = 0;    // and after its last
wire [15:0]      p_fbyte = {p_fbase, {BS{1'b0}}};
reg [1279:0] hreg = 0;
reg [7:0]  p_l3_off = 0, p_ip_hlen = 0, p_proto = 0, p_l4_off = 0, p_l4_len = 0;
reg [3:0]  p_ip_ver = 0;
reg [13:0] p_ip_end = 0, pay_off = 0, re_ = 0;
reg [13:0] unused_rs = 0, unused_pre_end = 0, unused_suf_start = 0;  // (PI's)
reg [7:0]  decide = 0;

reg [7:0]  outcome = 0;
reg        raw = 1'b0;

// ---- reader C (compressor feed) and the checksum pass (K) ----
wire         rc_go;
reg  [15:0]  rc_start = 0, rc_len = 0;
wire         rc_ready;
wire [DATA_W-1:0] rc_tdata;
wire [BB-1:0] rc_tkeep;
wire         rc_tvalid, rc_tlast;
wire         c_s_tready;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(FR_AW)) rd_c (
    .clk(clk), .rst(rst),
    .start_valid(rc_go), .start_ready(rc_ready),
    .start_addr(rc_start), .start_len(rc_len), .start_cnt({RDC_W{1'b0}}),
    .ram_re(ac_re), .ram_raddr(ac_raddr), .ram_rdata(ac_rdata),
    .m_axis_tdata(rc_tdata), .m_axis_tkeep(rc_tkeep),
    .m_axis_tvalid(rc_tvalid), .m_axis_tready(pi_state == PI_RUN && c_s_tready),
    .m_axis_tlast(rc_tlast),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tlen()
    /* verilator lint_on PINCONNECTEMPTY */
);

wire         rk_go;
reg  [15:0]  rk_start = 0;
reg  [13:0]  rk_len = 0;
wire         rk_ready;
// both start in PI_GO, together (each is idle again once the previous
// frame's range has left it, the pass once its sums were taken), once
// the body ring has room for the largest body the range can give (then
// reserved)
wire b_fits;
assign rc_go = pi_state == PI_GO && rc_ready && rk_ready && b_fits && !tp_req && !tp_gnt;
assign rk_go = rc_go;

// ---- the compressor ----
// Its input and output are the test port's while tp_gnt. The port's
// request stops PI from starting a range (rc_go); the grant comes when PI
// is not feeding one and no chunk is inside the engine (c_inside: chunks
// in minus bodies out), so the frame in flight goes whole and the next
// waits. The grant holds while the request does. Meanwhile PI does not
// feed (not in PI_RUN) and PO does not take (every body PI started is out:
// PO is past P_COMP or has its last beat, c_tready 0), so the port's
// valid and ready registers (0 but during its run) are ORed into the
// datapath's: the handshakes gain no logic level; the data, keep, last
// and user inputs take a 2:1 multiplexer on the grant register (one LUT
// level before the engine's input register).
wire [2*DATA_W-1:0] c_tdata, c_tdata_e;
wire [2*BB-1:0] c_tkeep;
wire         c_tvalid, c_tvalid_e, c_tlast;
wire [7:0]   c_tuser;
wire         c_tready;
wire         ce_s_tvalid = (pi_state == PI_RUN && rc_tvalid) || tp_tvalid;
wire         ce_s_tlast = tp_gnt ? tp_tlast : rc_tlast;
wire         ce_m_tready = c_tready || tp_m_tready;
reg  [3:0]   c_inside = 0;
wire         c_in_end = ce_s_tvalid && c_s_tready && ce_s_tlast;
wire         c_out_end = c_tvalid_e && ce_m_tready && c_tlast;

inc_compressor #(.LANES(LANES), .WIDTH(WIDTH)) comp (
    .clk(clk), .rst(rst),
    .s_axis_tdata(tp_gnt ? tp_tdata : rc_tdata), .s_axis_tkeep(tp_gnt ? tp_tkeep : rc_tkeep),
    .s_axis_tvalid(ce_s_tvalid), .s_axis_tready(c_s_tready),
    .s_axis_tlast(ce_s_tlast), .s_axis_tuser(tp_gnt ? tp_tuser : {1'b0, pi_mode, pi_k}),
    .m_axis_tdata(c_tdata_e), .m_axis_tkeep(c_tkeep), .m_axis_tvalid(c_tvalid_e),
    .m_axis_tready(ce_m_tready), .m_axis_tlast(c_tlast), .m_axis_tuser(c_tuser)
);

// the fault of dbg_fault (for the datapath and the port alike)
assign c_tdata = c_tdata_e ^ {{(2*DATA_W-1){1'b0}}, dbg_fault};
assign c_tvalid = c_tvalid_e;
assign tp_s_tready = c_s_tready;
assign tp_m_tdata = c_tdata;
assign tp_m_tkeep = c_tkeep;
assign tp_m_tvalid = c_tvalid_e;
assign tp_m_tlast = c_tlast;
assign tp_m_tuser = c_tuser;

always @(posedge clk) begin
    c_inside <= c_inside + {3'd0, c_in_end} - {3'd0, c_out_end};
    tp_gnt <= tp_req && (tp_gnt || (pi_state != PI_RUN && c_inside == 4'd0 &&
                                   !c_in_end));
    if (rst) begin
        c_inside <= 0;
        tp_gnt <= 1'b0;
    end
end

// ---- body RAM: a ring, PI reserves from br_ptr, S frees up to bf_ptr ----
reg              b_we = 1'b0;
reg [BR_AW-1:0]  b_waddr = 0;
reg [DATA_W-1:0] b_wdata = 0;
wire             b_re;
wire [BR_AW-1:0] b_raddr;
wire [DATA_W-1:0] b_rdata;
reg  [BR_AW:0]   br_ptr = 0, bf_ptr = 0;
reg  [BR_AW:0]   b_room = 0;
// the largest body of the range (codec.md, inc_chunk_bound: 2G + 4n +
// tail + ceil(G / 8), under rlen + rlen / 8 + 64), in words
reg  [BR_AW:0]   b_need = 0;
// (b_room a clock late: it only grows while PI waits; b_need from the
// frame's range length by PI_GO)
assign b_fits = b_room >= b_need;
always @(posedge clk) begin
    b_room <= (1 << BR_AW) - (br_ptr - bf_ptr);
    b_need <= ({2'd0, pi_rlen[13:BS]} + {5'd0, pi_rlen[13:BS+3]}) + 4;
end

nic_ram #(.WIDTH(DATA_W), .ADDR_W(BR_AW)) ram_b (
    .clk(clk), .we(b_we), .waddr(b_waddr), .wdata(b_wdata),
    .re(b_re), .raddr(b_raddr), .rdata(b_rdata)
);

// the body: the compressor's beats (twice a word) split into two RAM words
reg  [2*DATA_W-1:0] sp_data = 0;
reg  [2*BB-1:0] sp_keep = 0;
reg          sp_full = 1'b0, sp_half = 1'b0, sp_last = 1'b0;
reg  [13:0]  body_len = 0;
wire [31:0]  body_sum;
reg          body_done = 1'b0;
reg          body_err = 1'b0;

reg  [BR_AW:0] b_wptr = 0;      // the next body word's place in the ring
reg  [BR_AW-1:0] p_bbase = 0;   // the body's first word
reg  [BR_AW:0] p_bend = 0;      // the ring's end after the frame's reservation
reg  [BR_AW:0] b_left = 0;      // words left of the body's reservation
reg          body_over = 1'b0;  // the body did not fit it (never, by the bound)
reg          c_got_last = 1'b0; // the body's last beat is in (the next body waits)
assign c_tready = p_comp && !sp_full && !c_got_last;

wire [DATA_W-1:0] sp_word = sp_half ? sp_data[2*DATA_W-1:DATA_W] : sp_data[DATA_W-1:0];
wire [BB-1:0] sp_wkeep = sp_half ? sp_keep[2*BB-1:BB] : sp_keep[BB-1:0];
reg  [BS:0]  sp_n_r = 0;
reg          sp_acc = 1'b0;

// the body's sum, over the words as they are written (P_PARSE starts it;
// its last word: the one P_COMP marks body_done at; P_CS_END waits for
// for its fold and the folds of PI's sums)
wire sp_final = sp_last && !(!sp_half && sp_keep[2*BB-1:BB] != 0);
wire body_valid;
nic_csum_acc #(.DATA_W(DATA_W)) sum_body (
    .clk(clk), .start(p_state == P_PARSE), .lo(14'd0), .hi(14'h3fff),
    .beat(p_state == P_COMP && sp_full), .last(sp_final), .data(sp_word),
    .keep(sp_wkeep), .sum(body_sum), .sum_valid(body_valid)
);

// ---- checksum pass over [l4_off, ip_end), beside the compression ----
// the sums of the L4 header and the payload before the range, and of the
// payload after it (offsets from l4_off), read from the frame ring's K
// port by nic_csum_pass (the module nic_rx's pass is too); PI_RUN waits
// for them (cs_valid) and keeps them; PO folds them
wire [31:0] sum_pre, sum_suf;
wire        cs_valid;
reg  [31:0] x_pre = 0, x_suf = 0;   // PO's frame's, from PI

nic_csum_pass #(.DATA_W(DATA_W), .ADDR_W(FR_AW), .NSUM(2)) cs (
    .clk(clk), .rst(rst),
    .start_valid(rk_go), .start_ready(rk_ready),
    .start_addr(rk_start), .start_len(rk_len),
    .start_lo({pi_suf_start, 14'd0}), .start_hi({14'h3fff, pi_pre_end}),
    .ram_re(ak_re), .ram_raddr(ak_raddr), .ram_rdata(ak_rdata),
    .sum_valid(cs_valid), .sum({sum_suf, sum_pre})
);

// ---- building the header block ----
reg  [13:0]  new_end = 0;         // end of the IP packet, compressed
wire [1279:0] hb;               // (hbyte: a register a byte)
reg  [7:0]   hb_len = 0;
// the lengths of the new frame, a clock after new_end (P_CS_END) and one
// more for plen6: ready by P_SHIM1 (P_BUILD2 reads them)
reg  [15:0]  ip_total = 0, seg_len = 0, plen6 = 0;
// new_end without the body: p_ip_end + 16 - d_rlen, ready long before
reg  [13:0]  end_nb1 = 0, end_nb = 0;
// bounds in the header, from the parse: the addresses of the
// pseudo-header, the end of the IPv4 header, the shim's end, the L4
// header's end in the new frame
reg  [7:0]   addr_lo = 0, addr_hi = 0, ip4_hi = 0, shim_end = 0, l4_hdr_end = 0;

always @(posedge clk) begin
    ip_total <= {2'd0, new_end} - {8'd0, p_l3_off};
    seg_len <= {2'd0, new_end} - {8'd0, p_l4_off};
    plen6 <= ip_total - 16'd40;
    end_nb1 <= p_ip_end - d_rlen[13:0];
    end_nb <= end_nb1 + 14'd16;
    addr_lo <= p_ip_ver == 4'd4 ? p_l3_off + 8'd12 : p_l3_off + 8'd8;
    addr_hi <= p_ip_ver == 4'd4 ? p_l3_off + 8'd20 : p_l3_off + 8'd40;
    ip4_hi <= p_l3_off + p_ip_hlen;
    shim_end <= p_l4_off + 8'd16;
    l4_hdr_end <= shim_end + p_l4_len;
end

// PO's sums are chains that end in a valid, which the state waiting for
// the result waits for, not a count of clocks: the pseudo-header
// addresses' sum, from the clock after P_PARSE (hreg and the bounds are
// final: pp_go), into shim_const (P_SUMS waits: sc_ok); the shim's
// checksum, from P_SUMS on (P_SHIM1 waits: shim_fold_v); the patched IPv4
// header's checksum, from the clock after P_BUILD2 loads hb (P_IP4 waits:
// ip4_v). A frame's chains start at least 3 clocks after the last
// frame's (P_PARSE, P_DONE, P_IDLE come between), so what its flags see is
// its own.
reg  pp_go = 1'b0;
always @(posedge clk) begin
    pp_go <= p_state == P_PARSE;
    if (rst)
        pp_go <= 1'b0;
end
wire [22:0] addr_sum;
wire        addr_sum_v;
nic_hsum hs_addr (
    .clk(clk), .rst(rst), .hdr(hreg), .lo(addr_lo), .hi(addr_hi), .in_valid(pp_go),
    .sum(addr_sum), .sum_valid(addr_sum_v)
);

// P_SUMS: the sums of the body, the prefix and the suffix folded; P_CS_END
// waits for the three folds: the body's from its sum's valid on (a level:
// body_valid stays up until the next frame's start), PI's from the clock
// after P_COMP took them (px_go; their end: pf_join)
wire [15:0] f_body, f_suf, f_pre;
wire        f_body_v, f_pre_v;
reg         px_go = 1'b0;
nic_fold fold_body (.clk(clk), .rst(rst), .acc(body_sum), .in_valid(body_valid),
                    .folded(f_body), .out_valid(f_body_v));
nic_fold fold_pre (.clk(clk), .rst(rst), .acc(x_pre), .in_valid(px_go),
                   .folded(f_pre), .out_valid(f_pre_v));
/* verilator lint_off PINCONNECTEMPTY */
// (its valid is fold_pre's: the same clocks)
nic_fold fold_suf (.clk(clk), .rst(rst), .acc(x_suf), .in_valid(px_go),
                   .folded(f_suf), .out_valid());
/* verilator lint_on PINCONNECTEMPTY */
wire        p_cs_go = p_state == P_COMP && body_done && pi_idx != p_fidx;
wire        pf_pre;             // PI's folds' end
wire        pf_all = f_body_v && pf_pre;
nic_join #(.N(1)) pf_join (
    .clk(clk), .rst(rst), .clear(p_cs_go), .valid(f_pre_v), .all(pf_pre)
);
always @(posedge clk) begin
    px_go <= p_cs_go;
    if (rst)
        px_go <= 1'b0;
end

reg  [15:0] f_pre_r = 0, body_sw = 0, suf_sw = 0;

// the shim with its checksum field 0, as 8 big-endian words
wire [15:0] sh_w0 = 16'h4910;
wire [15:0] sh_w1 = {p_proto, p_l4_len};
wire [15:0] sh_w4 = {d_mode, d_k};
wire [15:0] sh_w5 = {d_rlen[7:0], d_rlen[15:8]};
wire [15:0] sh_w6 = {body_len[7:0], 2'd0, body_len[13:8]};
// the terms known from the frame's record on: the shim's words (every
// clock: the record is there from P_PARSE), then with the addresses' sum
// (shim_const, sc_ok); from P_SUMS on (sh1: the folded sums are in), two
// partial sums, their sum (sh2; in shim_acc: sh3) and its fold
// (fold_shim), which P_SHIM1 takes
reg  [31:0] shim_k = 0, shim_const = 0, shim_p1 = 0, shim_p2 = 0;
reg         sc_ok = 1'b0;       // shim_const holds the frame's
reg         sh1 = 1'b0, sh2 = 1'b0, sh3 = 1'b0;
reg  [31:0] shim_acc = 0;
always @(posedge clk) begin
    shim_k <= 32'd253 + {16'd0, sh_w0} + {16'd0, sh_w1} + {16'd0, d_off} +
              {16'd0, sh_w4} + {16'd0, sh_w5};
    if (addr_sum_v) begin
        shim_const <= {9'd0, addr_sum} + shim_k;
        sc_ok <= 1'b1;
    end
    if (pp_go)
        sc_ok <= 1'b0;
    sh1 <= p_state == P_SUMS;
    sh2 <= sh1;
    sh3 <= sh2;
    if (sh1) begin
        shim_p1 <= shim_const + {16'd0, seg_len} + {16'd0, sh_w6};
        shim_p2 <= {16'd0, f_pre_r} + {16'd0, body_sw} + {16'd0, suf_sw};
    end
    if (sh2)
        shim_acc <= shim_p1 + shim_p2;
    if (rst) begin
        sc_ok <= 1'b0;
        sh1 <= 1'b0;
        sh2 <= 1'b0;
        sh3 <= 1'b0;
    end
end
wire [15:0] shim_fold;
wire        shim_fold_v;
nic_fold fold_shim (.clk(clk), .rst(rst), .acc(shim_acc), .in_valid(sh3),
                    .folded(shim_fold), .out_valid(shim_fold_v));
reg  [15:0] shim_c = 0;

// the header block, byte by byte: the frame's bytes up to l4_off (the IP
// header patched: IPv4 total length, protocol 253, checksum 0 for now;
// IPv6 payload length, next header 253), the 16-byte shim, then the
// original L4 header, which is the frame's bytes 16 places back
wire [127:0] shim_bytes = {16'd0, 2'd0, body_len[13:8], body_len[7:0],
                           d_rlen[15:8], d_rlen[7:0], d_k, d_mode,
                           shim_c[7:0], shim_c[15:8], d_off[7:0], d_off[15:8],
                           p_l4_len, p_proto, 8'h10, 8'h49};
wire [15:0] ip4_c;             // (nic_ip4_csum ip4, below)

// P_BUILD2 loads the header block when the frame goes compressed; P_IP4
// writes the IPv4 checksum into it once it is in (ip4_v)
wire hb_build = p_state == P_BUILD2 && !(body_err || body_over || new_end >= d_len);
wire ip4_v;
wire hb_csum = p_state == P_IP4 && ip4_v;
reg  hb_built = 1'b0;           // hb holds the block (the checksum's input)
always @(posedge clk) begin
    hb_built <= hb_build;
    if (rst)
        hb_built <= 1'b0;
end

// the shim rotated up by l4_off's low 4 bits (byte i to (i + l4_off) mod
// 16): byte j of the block, inside the shim, is the shim's byte
// j - l4_off, which is shim_rot's byte j mod 16 (one 16-byte rotation
// instead of a 16-way choice at each of the 160 bytes)
function [127:0] rot16;
    input [127:0] x;
    input [3:0]   s;
    integer b;
    reg [127:0] r;
    begin
        r = x;
        for (b = 3; b >= 0; b = b - 1)
            if (s[b])
                r = (r << (8 << b)) | (r >> (128 - (8 << b)));
        rot16 = r;
    end
endfunction
wire [127:0] shim_rot = rot16(shim_bytes, p_l4_off[3:0]);

// byte jj of the new block: hreg's byte (IP header patched) below l4_off,
// the shim's byte (shb, from shim_rot) below shim_end, then the L4
// header's byte l4b below l4_hdr_end
function [7:0] hb_byte;
    input [7:0]   jj;
    input [7:0]   l4_off;
    input [7:0]   sh_end;
    input [7:0]   l4h_end;
    input [7:0]   ipb;
    input [7:0]   shb;
    input [7:0]   l4b;
    begin
        if (jj < l4_off)
            hb_byte = ipb;
        else if (jj < sh_end)
            hb_byte = shb;
        else if (jj < l4h_end)
            hb_byte = l4b;
        else
            hb_byte = 8'd0;
    end
endfunction

genvar j;
generate
    for (j = 0; j < 160; j = j + 1) begin : hbyte
        wire [7:0] jj = j;
        reg  [7:0] b = 0;
        always @(posedge clk) begin
            if (hb_build)
                b <= hb_byte(jj, p_l4_off, shim_end, l4_hdr_end,
                             ip_patch_byte(hreg[8*j +: 8], jj - p_l3_off, p_ip_ver,
                                           ip_total, plen6, 8'd253),
                             shim_rot[8*(j % 16) +: 8],
                             j >= 16 ? hreg[8*(j >= 16 ? j-16 : 0) +: 8] : 8'd0);
            if (hb_csum)
                b <= ip4_csum_byte(jj, b, p_l3_off, ip4_c);
        end
        assign hb[8*j +: 8] = b;
    end
endgenerate

// P_IP4: the patched IPv4 header's checksum, written into it
nic_ip4_csum ip4 (.clk(clk), .rst(rst), .hdr(hb), .lo(p_l3_off), .hi(ip4_hi),
                  .in_valid(hb_built), .csum(ip4_c), .csum_valid(ip4_v));

reg [13:0] sent_len = 0;

// ---- P's records, a slot each, for S ----
// the assembler's inputs: the header block's length (0: the frame as it
// was), the pieces (payload before the range, body, payload after it, in
// this frame's slot of the frame RAM and the body RAM); then the status's
// and the counters' fields
// and where the frame and the body end in their rings, for S to free
localparam PR_W = 8 + 16 + 16 + 15 + 16 + 16 + 16 + 1 + 8 + 14 + 14 + 14 + 16 + 1 + TAG_W +
                  FR_AW + 1 + BR_AW + 1;
reg  [1279:0]   pr_hb [0:NR-1];
reg  [PR_W-1:0] pr_info [0:NR-1];
// (a clock after P took the frame: there in P_DONE)
reg  [15:0]     p_seg0 = 0, p_seg2 = 0;
always @(posedge clk) begin
    p_seg0 <= p_fbyte + {2'd0, pay_off};
    p_seg2 <= p_fbyte + {2'd0, re_};
end
wire [PR_W-1:0] p_info = {raw ? 8'd0 : hb_len,
                          raw ? p_fbyte : p_seg0,
                          raw ? {2'd0, d_len} : d_off,
                          {p_bbase, {BS{1'b0}}},
                          raw ? 16'd0 : {2'd0, body_len},
                          p_seg2,
                          raw ? 16'd0 : {2'd0, p_ip_end - re_},
                          d_err, outcome, sent_len, d_len, body_len, d_rlen,
                          d_comp, d_tag, p_fend, p_bend};

// ---- PI's state machine ----
wire [SLOT_W-1:0] pit_slot = pit_idx[SLOT_W-1:0];
wire [13:0] unused_pi_a;
wire [13:0] fi_len;
wire        fi_comp, fi_err;
wire [7:0]  fi_k, fi_mode;
wire [15:0] fi_off, fi_rlen;
wire [TAG_W-1:0] fi_tag;
wire [7:0]  fi_l3_off, fi_ip_hlen, fi_proto, fi_l4_off, fi_l4_len;
wire [3:0]  fi_ip_ver;
wire [13:0] fi_ip_end, fi_pay_off, fi_rs, fi_re, fi_pre_end, fi_suf_start;
wire [7:0]  fi_decide;
wire [FR_AW-1:0] fi_fbase;
wire [FR_AW:0]   fi_fend;
assign {fi_len, fi_comp, fi_k, fi_mode, fi_off, fi_rlen, fi_tag, fi_err,
        fi_l3_off, fi_ip_ver, fi_ip_hlen, fi_ip_end, fi_proto, fi_l4_off,
        fi_l4_len, fi_pay_off, fi_rs, fi_re, fi_pre_end, fi_suf_start, fi_decide,
        fi_fbase, fi_fend} = fr_info[pit_slot];
wire unused_fi = ^{fi_comp, fi_off, fi_tag, fi_l3_off, fi_ip_ver, fi_ip_hlen,
                   fi_proto, fi_l4_len, fi_pay_off, fi_re, fi_fend, fi_len,
                   fi_k[7:5], fi_mode[7:2]};

always @(posedge clk) begin
    case (pi_state)
    PI_IDLE: begin
        if (pit_idx != f_idx) begin
            pi_slot <= pit_slot;
            pi_err <= fi_err;
            pi_k <= fi_k[4:0];
            pi_mode <= fi_mode[1:0];
            pi_rlen <= fi_rlen;
            pi_l4_off <= fi_l4_off;
            pi_ip_end <= fi_ip_end;
            pi_rs <= fi_rs;
            pi_pre_end <= fi_pre_end;
            pi_suf_start <= fi_suf_start;
            pi_decide <= fi_decide;
            pi_fbase <= fi_fbase;
            pit_idx <= pit_idx + 16'd1;
            pi_state <= PI_DECIDE;
        end
    end
    PI_DECIDE: begin
        if (pi_err || pi_decide != R_COMPRESSED) begin
            // nothing to compress; the body ring's end so far
            ps_bend[pi_slot] <= br_ptr;
            pis_idx <= pis_idx + 16'd1;
            pi_idx <= pi_idx + 16'd1;
            pi_state <= PI_IDLE;
        end else begin
            rc_start <= pi_fbyte + {2'd0, pi_rs};
            rc_len <= pi_rlen;
            rk_start <= pi_fbyte + {8'd0, pi_l4_off};
            rk_len <= pi_ip_end - {6'd0, pi_l4_off};
            pi_in_done <= 1'b0;
            pi_state <= PI_GO;
        end
    end
    PI_GO: begin
        // the readers take their ranges; the body's words are reserved
        if (rc_go) begin
            ps_bbase[pi_slot] <= br_ptr;
            ps_bres[pi_slot] <= b_need;
            ps_bend[pi_slot] <= br_ptr + b_need;
            br_ptr <= br_ptr + b_need;
            pis_idx <= pis_idx + 16'd1;
            pi_state <= PI_RUN;
        end
    end
    PI_RUN: begin
        // the range into the compressor, the pass's words into the sums;
        // both done: the sums kept
        if (rc_tvalid && c_s_tready && rc_tlast)
            pi_in_done <= 1'b1;
        if (cs_valid && (pi_in_done || rc_ready)) begin
            ps_pre[pi_slot] <= sum_pre;
            ps_suf[pi_slot] <= sum_suf;
            pi_idx <= pi_idx + 16'd1;
            pi_state <= PI_IDLE;
        end
    end
    default: pi_state <= PI_IDLE;
    endcase

    if (rst) begin
        pi_state <= PI_IDLE;
        pit_idx <= 0;
        pis_idx <= 0;
        pi_idx <= 0;
        br_ptr <= 0;
    end
end

// ---- PO's state machine ----
always @(posedge clk) begin
    b_we <= 1'b0;
    sp_acc <= 1'b0;
    if (sp_acc)
        body_len <= body_len + {{(13 - BS){1'b0}}, sp_n_r};

    case (p_state)
    P_IDLE: begin
        if (p_take) begin
            {d_len, d_comp, d_k, d_mode, d_off, d_rlen, d_tag, d_err,
             p_l3_off, p_ip_ver, p_ip_hlen, p_ip_end, p_proto, p_l4_off,
             p_l4_len, pay_off, unused_rs, re_, unused_pre_end, unused_suf_start,
             decide, p_fbase, p_fend} <=
                fr_info[p_idx[SLOT_W-1:0]];
            hreg <= fr_hreg[p_idx[SLOT_W-1:0]];
            p_slot <= p_idx[SLOT_W-1:0];
            p_fidx <= p_idx;
            p_idx <= p_idx + 16'd1;
            p_state <= P_PARSE;
        end
    end
    P_PARSE: begin
        // (PI started the frame a clock before PO took it at least: the
        // body's place is there; the body's sum restarts)
        outcome <= d_err ? 8'd0 : decide;
        p_bbase <= ps_bbase[p_slot][BR_AW-1:0];
        p_bend <= ps_bend[p_slot];
        b_wptr <= ps_bbase[p_slot];
        b_left <= ps_bres[p_slot];
        body_over <= 1'b0;
        body_len <= 0;
        body_done <= 1'b0;
        body_err <= 1'b0;
        sp_full <= 1'b0;
        c_got_last <= 1'b0;
        if (d_err || decide != R_COMPRESSED) begin
            raw <= 1'b1;
            sent_len <= d_len;
            p_state <= P_DONE;
        end else begin
            raw <= 1'b0;
            p_state <= P_COMP;
            p_comp <= 1'b1;
        end
    end
    P_COMP: begin
        // compressor -> splitter -> body RAM, one word a clock (p_cs_go:
        // the body is in and PI is done with the frame)
        if (c_tvalid && c_tready) begin
            sp_data <= c_tdata;
            sp_keep <= c_tkeep;
            sp_full <= 1'b1;
            sp_half <= 1'b0;
            sp_last <= c_tlast;
            if (c_tlast)
                c_got_last <= 1'b1;
            // the engine flagged the chunk, or did not echo its k and mode
            body_err <= c_tlast && (c_tuser[7] ||
                                    c_tuser[6:0] != {d_mode[1:0], d_k[4:0]});
        end
        if (sp_full) begin
            // (a body past its reservation would overwrite one S still
            // sends: not written, and the frame goes as it was)
            b_we <= b_left != 0;
            if (b_left == 0)
                body_over <= 1'b1;
            b_left <= b_left - {{BR_AW{1'b0}}, b_left != 0};
            b_waddr <= b_wptr[BR_AW-1:0];
            b_wdata <= sp_word;
            b_wptr <= b_wptr + {{BR_AW{1'b0}}, b_left != 0};
            // counted a clock later (sp_acc), one adder per clock
            sp_n_r <= ones_k(sp_wkeep);
            sp_acc <= 1'b1;
            if (!sp_half && sp_keep[2*BB-1:BB] != 0) begin
                sp_half <= 1'b1;
            end else begin
                sp_full <= 1'b0;
                if (sp_last)
                    body_done <= 1'b1;
            end
        end
        // the body is in, and PI is done with the frame: its sums
        if (p_cs_go) begin
            x_pre <= ps_pre[p_slot];
            x_suf <= ps_suf[p_slot];
            p_state <= P_CS_END;
            p_comp <= 1'b0;
        end
    end
    P_CS_END: begin
        // the body's sum and PI's sums folded (pf_all); the new IP end
        // (body_len is final: counted a clock after the last word)
        if (pf_all) begin
            new_end <= end_nb + body_len;
            p_state <= P_SUMS;
        end
    end
    P_SUMS: begin
        // (with the addresses' sum in shim_const: sc_ok)
        if (sc_ok) begin
            f_pre_r <= f_pre;
            body_sw <= d_off[0] ? {f_body[7:0], f_body[15:8]} : f_body;
            // the suffix moves by body_len - range length: odd if their
            // parities differ
            suf_sw <= body_len[0] ^ d_rlen[0] ? {f_suf[7:0], f_suf[15:8]} : f_suf;
            p_state <= P_SHIM1;
        end
    end
    P_SHIM1: begin
        // the shim's checksum, once its fold is in
        if (shim_fold_v) begin
            shim_c <= ~shim_fold;
            p_state <= P_BUILD2;
        end
    end
    P_BUILD2: begin
        if (body_err || body_over || new_end >= d_len) begin
            // not smaller (or the engine refused): send it as it was
            outcome <= body_err || body_over ? R_BAD_PARAMS : R_NO_GAIN;
            raw <= 1'b1;
            sent_len <= d_len;
            p_state <= P_DONE;
        end else begin
            // (hb loads: hb_build)
            hb_len <= l4_hdr_end;
            sent_len <= new_end;
            p_state <= p_ip_ver == 4'd4 ? P_IP4 : P_DONE;
        end
    end
    P_IP4: begin
        // the IPv4 header checksum over the patched header, once it is in
        // (into hb: hb_csum)
        if (ip4_v)
            p_state <= P_DONE;
    end
    P_DONE: begin
        // the frame's record for S: the assembler's header block and
        // pieces, what the status and the counters need
        pr_hb[p_slot] <= hb;
        pr_info[p_slot] <= p_info;
        pd_idx <= pd_idx + 16'd1;
        p_state <= P_IDLE;
    end
    default: begin
        p_state <= P_IDLE;
        p_comp <= 1'b0;
    end
    endcase

    if (rst) begin
        p_state <= P_IDLE;
        p_comp <= 1'b0;
        p_idx <= 0;
        pd_idx <= 0;
        b_we <= 1'b0;
    end
end

// ===========================================================================
// S: send, then the status
// ===========================================================================

localparam [1:0] S_IDLE = 2'd0, S_SENDING = 2'd1, S_HOLD = 2'd2;

reg  [1:0] s_state = S_IDLE;
// the frame S sends, for its status
reg [7:0]  s_outcome = 0;
reg [13:0] s_sent = 0, s_len = 0, s_body = 0;
reg [15:0] s_rlen = 0;
reg        s_comp = 1'b0;
reg [TAG_W-1:0] s_tag = 0;
reg [FR_AW:0] s_fend = 0;       // the frame's and the body's ends in their rings
reg [BR_AW:0] s_bend = 0;

// the next frame's record
wire [SLOT_W-1:0] s_slot = s_idx[SLOT_W-1:0];
wire [7:0]  r_hb_len;
wire [15:0] r_seg0_start, r_seg0_len, r_seg1_len, r_seg2_start, r_seg2_len;
wire [14:0] r_seg1_start;
wire [FR_AW:0] r_fend;
wire [BR_AW:0] r_bend;
wire        r_err;
wire [7:0]  r_outcome;
wire [13:0] r_sent, r_len, r_body;
wire [15:0] r_rlen;
wire        r_comp;
wire [TAG_W-1:0] r_tag;
assign {r_hb_len, r_seg0_start, r_seg0_len, r_seg1_start, r_seg1_len, r_seg2_start,
        r_seg2_len, r_err, r_outcome, r_sent, r_len, r_body, r_rlen, r_comp, r_tag,
        r_fend, r_bend} =
    pr_info[s_slot];

// S takes the next record. A descriptor in error has its status at once
// (m_stat_* from the record); a frame goes to the assembler, and its
// status follows the frame's last beat (from S's registers, held in
// S_HOLD while the port is not ready). S starts a frame only while the
// port is ready (nic_tx: its status queue has room), so a status seldom
// waits. The frame's record and ring words are freed as its status is
// taken (s_fire).
wire        as_busy;
wire        as_done;
wire        s_head = s_state == S_IDLE && pd_idx != s_idx && !as_busy;
wire        s_err = s_head && r_err;
wire        as_go = s_head && !r_err && m_stat_ready;
assign m_stat_valid = s_err || (s_state == S_SENDING && as_done) || s_state == S_HOLD;
assign s_fire = m_stat_valid && m_stat_ready;
// (the fields but the tag and err from S's registers, cleared as each
// status is taken: 0 in an error's status, and a frame's counters come
// from registers, not through the record's read)
assign m_stat_tag = s_err ? r_tag : s_tag;
assign m_stat_err = s_err;
assign {m_stat_outcome, m_stat_sent, m_stat_len, m_stat_body, m_stat_rlen, m_stat_comp} =
    {s_outcome, s_sent, s_len, s_body, s_rlen, s_comp};
wire [7:0]  unused_r_outcome = r_outcome;
wire [13:0] unused_r_lens = r_sent ^ r_len ^ r_body;
wire [16:0] unused_r_rc = {r_rlen, r_comp};

// the assembler's use of readers S and B
wire         as_rda_valid, as_rdb_valid;
wire [FR_AW+BS-1:0] as_rda_addr;
wire [BR_AW+BS-1:0] as_rdb_addr;
wire [15:0]  as_rda_len, as_rdb_len;
wire [RDC_W-1:0] as_rda_cnt, as_rdb_cnt;
wire         as_rda_tready, as_rdb_tready;
wire         ra_ready, rb_ready;
wire [DATA_W-1:0] ra_tdata, rb_tdata;
wire         ra_tvalid, ra_tlast, rb_tvalid, rb_tlast;
wire [BS:0]  ra_tlen, rb_tlen;

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(FR_AW), .PRECOUNT(1)) rd_s (
    .clk(clk), .rst(rst),
    .start_valid(as_rda_valid), .start_ready(ra_ready),
    .start_addr(as_rda_addr), .start_len(as_rda_len), .start_cnt(as_rda_cnt),
    .ram_re(as_re), .ram_raddr(as_raddr), .ram_rdata(as_rdata),
    .m_axis_tdata(ra_tdata),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tkeep(),   // (the assembler counts bytes by tlen)
    /* verilator lint_on PINCONNECTEMPTY */
    .m_axis_tvalid(ra_tvalid), .m_axis_tready(as_rda_tready),
    .m_axis_tlast(ra_tlast), .m_axis_tlen(ra_tlen)
);

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(BR_AW), .PRECOUNT(1)) rd_b (
    .clk(clk), .rst(rst),
    .start_valid(as_rdb_valid), .start_ready(rb_ready),
    .start_addr(as_rdb_addr), .start_len(as_rdb_len), .start_cnt(as_rdb_cnt),
    .ram_re(b_re), .ram_raddr(b_raddr), .ram_rdata(b_rdata),
    .m_axis_tdata(rb_tdata),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tkeep(),
    /* verilator lint_on PINCONNECTEMPTY */
    .m_axis_tvalid(rb_tvalid), .m_axis_tready(as_rdb_tready),
    .m_axis_tlast(rb_tlast), .m_axis_tlen(rb_tlen)
);

// the pieces, in this frame's slot of the frame RAM (A) and body RAM (B)
nic_assembler #(.DATA_W(DATA_W), .A_AW(FR_AW + BS), .B_AW(BR_AW + BS)) asm_tx (
    .clk(clk), .rst(rst),
    .go(as_go),
    /* verilator lint_off PINCONNECTEMPTY */
    .go_ready(),        // (S starts a frame once the last one is done)
    /* verilator lint_on PINCONNECTEMPTY */
    .busy(as_busy), .done(as_done),
    .hb(pr_hb[s_slot]), .hb_len(r_hb_len),
    .seg_b(3'b010),
    .seg0_start(r_seg0_start), .seg0_len(r_seg0_len),
    .seg1_start({1'b0, r_seg1_start}), .seg1_len(r_seg1_len),
    .seg2_start(r_seg2_start), .seg2_len(r_seg2_len),
    .rda_start_valid(as_rda_valid), .rda_start_ready(ra_ready),
    .rda_start_addr(as_rda_addr), .rda_start_len(as_rda_len), .rda_start_cnt(as_rda_cnt),
    .rda_tdata(ra_tdata), .rda_tvalid(ra_tvalid),
    .rda_tready(as_rda_tready), .rda_tlast(ra_tlast), .rda_tlen(ra_tlen),
    .rdb_start_valid(as_rdb_valid), .rdb_start_ready(rb_ready),
    .rdb_start_addr(as_rdb_addr), .rdb_start_len(as_rdb_len), .rdb_start_cnt(as_rdb_cnt),
    .rdb_tdata(rb_tdata), .rdb_tvalid(rb_tvalid),
    .rdb_tready(as_rdb_tready), .rdb_tlast(rb_tlast), .rdb_tlen(rb_tlen),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast)
);

always @(posedge clk) begin
    if (s_fire)
        {s_outcome, s_sent, s_len, s_body, s_rlen, s_comp} <= 0;
    case (s_state)
    S_IDLE: begin
        if (as_go) begin
            s_outcome <= r_outcome;
            s_sent <= r_sent;
            s_len <= r_len;
            s_body <= r_body;
            s_rlen <= r_rlen;
            s_comp <= r_comp;
            s_tag <= r_tag;
            s_fend <= r_fend;
            s_bend <= r_bend;
            s_state <= S_SENDING;
        end
    end
    S_SENDING: begin
        if (as_done)
            s_state <= m_stat_ready ? S_IDLE : S_HOLD;
    end
    S_HOLD: begin
        if (m_stat_ready)
            s_state <= S_IDLE;
    end
    default: s_state <= S_IDLE;
    endcase
    if (s_fire) begin
        s_idx <= s_idx + 16'd1;
        fr_free <= s_err ? r_fend : s_fend;
        bf_ptr <= s_err ? r_bend : s_bend;
    end

    if (rst) begin
        {s_outcome, s_sent, s_len, s_body, s_rlen, s_comp} <= 0;
        s_state <= S_IDLE;
        s_idx <= 0;
        fr_free <= 0;
        bf_ptr <= 0;
    end
end

// nothing in flight
assign idle = tf_state == TF_IDLE && !hq_full && q_state == Q_IDLE &&
              f_idx == s_idx && p_state == P_IDLE && s_state == S_IDLE && !as_busy;

endmodule

`resetall
