// SPDX-License-Identifier: MIT
/*
 * inc_compressor: the INCEPTIONN gradient compression engine.
 *
 * Takes one chunk (docs/codec.md, section 6) per AXI4-Stream packet of raw
 * bytes and emits the chunk's body, bit-exact with inc_chunk_encode() of the
 * C library (userspace/codec, the golden model).
 *
 * s_axis (raw): LANES 32-bit values per beat, value i in tdata[32i+31:32i].
 *   tkeep is contiguous from byte 0 and full on every beat but the last; a
 *   chunk of 0 bytes is one beat with tkeep = 0. tuser on a chunk's first
 *   beat: [4:0] k (1..24), [6:5] mode (1 paper, 2 sparse, 3 width: with
 *   LANES = 16 only, a beat is then one group), [7] reserved, 0.
 * m_axis (body): 2 * 4 * LANES bytes per beat, tkeep contiguous, full but on
 *   the last beat; a body of 0 bytes is one beat with tkeep = 0. tuser:
 *   [6:0] the chunk's k and mode, [7] error, valid on the tlast beat: mode
 *   or k out of range, tuser[7] set, a short beat before the last, a tkeep
 *   that is not contiguous, or a chunk over 9000 bytes. The body of such a
 *   chunk is still produced (as paper mode when the mode was wrong) and
 *   must be dropped.
 *
 * Line rate: with m_axis_tready held high, s_axis_tready stays high: one
 * raw beat per clock for any data, any mode, back-to-back chunks. The
 * compressed side is twice as wide because a segment of incompressible
 * values codes to 17/16 of its size (docs/codec.md, section 9; width mode:
 * 65/64 and a byte a segment).
 *
 * Pipeline (docs/rtl.md, "Logic depth": at most 8 LUT6 levels a stage):
 *   S0  the input beat, registered as it is
 *   S1  byte count, whole values, groups, the chunk's checks, 142 - k for
 *       the quantizer
 *   S2  inc_quant_shift per lane, the tail bytes, the group's place in
 *       its segment
 *   S3  inc_quant_round per lane
 *   S4  inc_tag_offsets per group: its payload sizes and byte offsets
 *   S5  inc_group_pack per group, written into a ring of entries (one per
 *       beat); the segment's tag words gathered as its entries are written.
 *       With LANES = 16 two registers come first (S5, S6: the ring is
 *       written from S6), while inc_width_group takes a width-mode beat's
 *       group from S3 to S6 (its bit string and RAW values, which go into
 *       the entry instead; its tag word is then 1 for a present group)
 *   H1..H3  a closed segment's header (sparse mask, present tag words
 *       packed; width mode: the mask alone): into a header FIFO
 *   E1  the entry at the ring's head read, with its segment's header when it
 *       starts one (it waits until the header is there)
 *   E2  the item's byte offsets      E3  the item placed
 *   then inc_axis_packer joins items into beats.
 * s_axis_tready is a register: a credit counter (ring entries plus beats in
 * S0..S5) keeps the ring from overflowing, with its credits back a clock
 * after the entry leaves.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_compressor #
(
    // 32-bit lanes per raw beat: 8 (256-bit) or 16 (512-bit)
    parameter LANES = 8,
    // width mode built (1, at 16 lanes only): 0 leaves inc_width_group
    // out, and a mode-3 beat codes as paper mode, as at 8 lanes
    parameter WIDTH = 1
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


localparam W = LANES * 4;              // raw bytes per beat
localparam GPB = LANES / 8;            // groups per beat (paper, sparse)
localparam HDR = 17;                   // largest segment header, bytes
localparam WIDTH_OK = LANES == 16 && WIDTH != 0;  // width mode: a group of 16 a beat
localparam WB = WIDTH_OK ? 296 : 8;    // a width group's bit string, bits
// largest emitter item, bytes: a header, the groups' payloads, the tail
// (width: the mask byte, the bit string, 16 RAW values, the tail)
localparam ITEM_S = HDR + 32 * GPB + 3;
localparam ITEM_W = 1 + WB / 8 + 64 + 3;
localparam ITEM = WIDTH_OK && ITEM_W > ITEM_S ? ITEM_W : ITEM_S;
localparam ITEM_LEN_W = 8;             // bits of an item length
localparam NB_W = $clog2(W + 1);       // bits of a byte count in a beat
localparam RING = 32;                  // ring entries (beats)
localparam RP_W = 5;                   // bits of a ring index
localparam MAX_CHUNK = 9000;           // bytes
localparam MAX_BEATS = MAX_CHUNK / W;  // full beats that fit a chunk
localparam REM = MAX_CHUNK - MAX_BEATS * W; // bytes the next beat may add
localparam BEAT_W = 9;                 // bits of the beat count (> MAX_BEATS)
localparam [BEAT_W-1:0] LAST_FULL = MAX_BEATS[BEAT_W-1:0] - 1'b1; // one short of it

// ---- input: S0 -------------------------------------------------------------

// free ring entries not reserved by beats in S0..S5
reg  [RP_W:0]     credits = RING;
reg               in_ready = 1'b1;
reg               ret_e = 1'b0;        // an entry left the ring last clock
reg               ret_s = 1'b0;        // a beat left S5 without an entry

assign s_axis_tready = in_ready;

wire in_take = s_axis_tvalid && in_ready;
wire [RP_W:0] credits_next = credits - {{RP_W{1'b0}}, in_take} +
                             {{RP_W{1'b0}}, ret_e} + {{RP_W{1'b0}}, ret_s};

reg               s0_valid = 1'b0;
reg [LANES*32-1:0] s0_data = 0;
reg [W-1:0]       s0_keep = 0;
reg               s0_last = 1'b0;
reg [7:0]         s0_user = 0;

always @(posedge clk) begin
    credits <= credits_next;
    in_ready <= credits_next != 0;
    s0_valid <= in_take;
    if (in_take) begin
        s0_data <= s_axis_tdata;
        s0_keep <= s_axis_tkeep;
        s0_last <= s_axis_tlast;
        s0_user <= s_axis_tuser;
    end
    if (rst) begin
        credits <= RING;
        in_ready <= 1'b1;
        s0_valid <= 1'b0;
    end
end

// ---- beat checks: S1 -------------------------------------------------------

reg              in_first = 1'b1;  // next beat starts a chunk
reg  [6:0]       in_user = 0;      // k and mode of the current chunk
reg              in_err = 1'b0;    // sticky error of the current chunk
reg  [BEAT_W-1:0] in_beats = 0;    // beats of the chunk so far (saturating)
reg              beats_eq = MAX_BEATS == 0; // in_beats == MAX_BEATS
reg              beats_gt = 1'b0;  // in_beats > MAX_BEATS

// bytes in the beat, read from a contiguous tkeep as the place of its
// first clear bit (shallower than a count of ones; a tkeep with a hole
// flags the chunk, and this is then at most W)
localparam KC_C = W;
localparam KC_LC = NB_W - 1;
`include "inc_keep_fns.vh"
function [NB_W-1:0] keep_bytes;
    input [W-1:0] keep;
    begin
        keep_bytes = keep[W-1] ? W[NB_W-1:0] : keep_count(keep);
    end
endfunction

wire [6:0]      b_user = in_first ? s0_user[6:0] : in_user;
wire [NB_W-1:0] b_nb = keep_bytes(s0_keep);
wire            b_hole = |(~s0_keep[W-2:0] & s0_keep[W-1:1]);
wire [NB_W-3:0] b_vals = b_nb[NB_W-1:2];           // whole values in beat
// a wrong mode codes as paper mode: width only where it is built
wire            b_width = WIDTH_OK && b_user[6:5] == 2'd3;
wire [1:0]      b_groups = b_vals == 0 ? 2'd0 :
                           (GPB == 2 && b_vals > 8 && !b_width) ? 2'd2 : 2'd1;
wire            b_mode_ok = b_user[6:5] == 2'd1 || b_user[6:5] == 2'd2 ||
                            b_width;
wire            b_k_ok = b_user[4:0] >= 5'd1 && b_user[4:0] <= 5'd24;
// with every earlier beat full, the chunk passes 9000 bytes here when
// MAX_BEATS full beats came before and this one adds more than REM; an
// earlier short beat has set in_err already
wire            b_over = beats_gt || (beats_eq && b_nb > REM[NB_W-1:0]);
wire            b_err = in_err || !b_mode_ok || !b_k_ok ||
                        (in_first && s0_user[7]) || b_hole ||
                        (!s0_last && b_nb != W[NB_W-1:0]) || b_over;
// a wrong k still codes deterministically (with k = 1); the chunk is flagged
wire [7:0]      b_kc = 8'd142 - {3'd0, b_k_ok ? b_user[4:0] : 5'd1};

reg                 s1_valid = 1'b0;
reg  [LANES*32-1:0] s1_data = 0;
reg  [NB_W-3:0]     s1_vals = 0;
reg  [1:0]          s1_groups = 0;
reg  [1:0]          s1_tail_len = 0;
reg                 s1_last = 1'b0;
reg  [6:0]          s1_user = 0;
reg                 s1_err = 1'b0;
reg  [7:0]          s1_kc = 0;

always @(posedge clk) begin
    s1_valid <= s0_valid;
    if (s0_valid) begin
        s1_data <= s0_data;
        s1_vals <= b_vals;
        s1_groups <= b_groups;
        s1_tail_len <= s0_last ? b_nb[1:0] : 2'd0;
        s1_last <= s0_last;
        s1_user <= b_user;
        s1_err <= b_err;
        s1_kc <= b_kc;

        in_first <= s0_last;
        in_user <= b_user;
        in_err <= s0_last ? 1'b0 : b_err;
        if (s0_last) begin
            in_beats <= 0;
            beats_eq <= MAX_BEATS == 0;
            beats_gt <= 1'b0;
        end else begin
            if (!beats_gt)
                in_beats <= in_beats + 1'b1;
            beats_eq <= in_beats == LAST_FULL;
            beats_gt <= beats_gt || beats_eq;
        end
    end
    if (rst) begin
        s1_valid <= 1'b0;
        in_first <= 1'b1;
        in_err <= 1'b0;
        in_beats <= 0;
        beats_eq <= MAX_BEATS == 0;
        beats_gt <= 1'b0;
    end
end

// ---- quantize: S2 (shift), S3 (round) ---------------------------------------

reg                 s2_valid = 1'b0;
reg  [LANES*32-1:0] s2_data = 0;
reg  [LANES*16-1:0] s2_y = 0;
reg  [LANES-1:0]    s2_raw_exp = 0, s2_zero = 0;
reg  [LANES-1:0]    s2_on = 0;     // lanes holding one of the chunk's values
reg  [1:0]          s2_groups = 0;
reg  [1:0]          s2_tail_len = 0;
reg  [23:0]         s2_tail = 0;
reg                 s2_last = 1'b0;
reg  [6:0]          s2_user = 0;
reg                 s2_err = 1'b0;
reg  [2:0]          s2_gi = 0;
reg  [2:0]          in_gi = 0;     // index in its segment of the next group

// the quantizer's halves (inc_quant_shift, inc_quant_round) as functions,
// evaluated in the stages' clocked blocks under their valid
`include "inc_quant_fns.vh"

// S3's lane: {neg, tag, word, mag}; a lane past the chunk's last value is
// padding (ZERO); width mode's sign: a Q8 or Q16 value below 0
function [49:0] s3_lane;
    input [31:0] v;
    input [15:0] y;
    input        raw_exp, zero, on;
    reg   [48:0] q;
    begin
        q = quant_round(v, y, raw_exp, zero);
        s3_lane = {v[31] && (q[48:47] == 2'd1 || q[48:47] == 2'd2),
                   on ? q[48:47] : 2'd0, q[46:0]};
    end
endfunction
// the 1..3 bytes after the last whole value, for the last beat
wire [W*8+23:0] s1_data_ext = {24'd0, s1_data};
wire [23:0]     s1_tail = s1_data_ext[{s1_vals, 5'd0} +: 24];

reg [LANES-1:0] s1_on;
integer ol;
always @* begin
    for (ol = 0; ol < LANES; ol = ol + 1)
        s1_on[ol] = ol < s1_vals;
end

integer ql;
always @(posedge clk) begin
    s2_valid <= s1_valid;
    if (s1_valid) begin
        s2_data <= s1_data;
        for (ql = 0; ql < LANES; ql = ql + 1)
            {s2_y[16*ql +: 16], s2_raw_exp[ql], s2_zero[ql]} <=
                quant_shift(s1_data[32*ql +: 32], s1_kc);
        s2_on <= s1_on;
        s2_groups <= s1_groups;
        s2_tail_len <= s1_tail_len;
        s2_tail <= s1_tail;
        s2_last <= s1_last;
        s2_user <= s1_user;
        s2_err <= s1_err;
        s2_gi <= in_gi;
        in_gi <= s1_last ? 3'd0 : in_gi + {1'b0, s1_groups};
    end
    if (rst) begin
        s2_valid <= 1'b0;
        in_gi <= 0;
    end
end

reg                 s3_valid = 1'b0;
reg  [LANES*2-1:0]  s3_tags = 0;
reg  [LANES*32-1:0] s3_words = 0;
reg  [LANES*15-1:0] s3_mags = 0;
reg  [LANES-1:0]    s3_negs = 0;
reg  [LANES-1:0]    s3_on = 0;
reg  [1:0]          s3_groups = 0;
reg  [1:0]          s3_tail_len = 0;
reg  [23:0]         s3_tail = 0;
reg                 s3_last = 1'b0;
reg  [6:0]          s3_user = 0;
reg                 s3_err = 1'b0;
reg  [2:0]          s3_gi = 0;

always @(posedge clk) begin
    s3_valid <= s2_valid;
    if (s2_valid) begin
        for (ql = 0; ql < LANES; ql = ql + 1)
            {s3_negs[ql], s3_tags[2*ql +: 2], s3_words[32*ql +: 32], s3_mags[15*ql +: 15]} <=
                s3_lane(s2_data[32*ql +: 32], s2_y[16*ql +: 16], s2_raw_exp[ql],
                        s2_zero[ql], s2_on[ql]);
        s3_on <= s2_on;
        s3_groups <= s2_groups;
        s3_tail_len <= s2_tail_len;
        s3_tail <= s2_tail;
        s3_last <= s2_last;
        s3_user <= s2_user;
        s3_err <= s2_err;
        s3_gi <= s2_gi;
    end
    if (rst)
        s3_valid <= 1'b0;
end

// ---- payload sizes and offsets: S4 --------------------------------------------

// (inc_tag_offsets as a function, inc_group_fns.vh)
`include "inc_group_fns.vh"

genvar g;

reg                 s4_valid = 1'b0;
reg  [LANES*2-1:0]  s4_tags = 0;
reg  [GPB*24-1:0]   s4_sizes = 0;
reg  [GPB*48-1:0]   s4_offs = 0;
reg  [LANES*32-1:0] s4_words = 0;
reg  [1:0]          s4_groups = 0;
reg  [1:0]          s4_tail_len = 0;
reg  [23:0]         s4_tail = 0;
reg                 s4_last = 1'b0;
reg  [6:0]          s4_user = 0;
reg                 s4_err = 1'b0;
reg  [2:0]          s4_gi = 0;

always @(posedge clk) begin
    s4_valid <= s3_valid;
    if (s3_valid) begin
        s4_tags <= s3_tags;
        for (ql = 0; ql < GPB; ql = ql + 1)
            {s4_offs[48*ql +: 48], s4_sizes[24*ql +: 24]} <= tag_offsets(s3_tags[16*ql +: 16]);
        s4_words <= s3_words;
        s4_groups <= s3_groups;
        s4_tail_len <= s3_tail_len;
        s4_tail <= s3_tail;
        s4_last <= s3_last;
        s4_user <= s3_user;
        s4_err <= s3_err;
        s4_gi <= s3_gi;
    end
    if (rst)
        s4_valid <= 1'b0;
end

// ---- pack: S5, S6 --------------------------------------------------------------

// the pack (inc_group_pack as a function, group_pack): into S5's
// registers with width mode, straight from S4 without it

// what the ring write takes: with width mode (16 lanes) from S6, after two
// registers (S5, S6) that keep the payloads in step with inc_width_group's
// three clocks; without it straight from S4 and the pack
wire                rw_valid;
wire [LANES*2-1:0]  rw_tags;
wire [GPB*256-1:0]  rw_pay;
wire [GPB*6-1:0]    rw_size;
wire [1:0]          rw_groups;
wire [1:0]          rw_tail_len;
wire [23:0]         rw_tail;
wire                rw_last;
wire [6:0]          rw_user;
wire                rw_err;
wire [2:0]          rw_gi;

generate
    if (WIDTH_OK) begin : s56
        reg                 s5_valid = 1'b0, s6_valid = 1'b0;
        reg  [LANES*2-1:0]  s5_tags = 0, s6_tags = 0;
        reg  [GPB*256-1:0]  s5_pay = 0, s6_pay = 0;
        reg  [GPB*6-1:0]    s5_size = 0, s6_size = 0;
        reg  [1:0]          s5_groups = 0, s6_groups = 0;
        reg  [1:0]          s5_tail_len = 0, s6_tail_len = 0;
        reg  [23:0]         s5_tail = 0, s6_tail = 0;
        reg                 s5_last = 1'b0, s6_last = 1'b0;
        reg  [6:0]          s5_user = 0, s6_user = 0;
        reg                 s5_err = 1'b0, s6_err = 1'b0;
        reg  [2:0]          s5_gi = 0, s6_gi = 0;
        integer             sg;

        always @(posedge clk) begin
            s5_valid <= s4_valid;
            // a width-mode beat's sizes and payloads are inc_width_group's
            // (the ring takes w_size, w_raw): no pack for it
            if (s4_valid && s4_user[6:5] != 2'd3)
                for (sg = 0; sg < GPB; sg = sg + 1)
                    {s5_size[6*sg +: 6], s5_pay[256*sg +: 256]} <=
                        group_pack(s4_sizes[24*sg +: 24], s4_offs[48*sg +: 48],
                                   s4_words[256*sg +: 256]);
            if (s4_valid) begin
                s5_tags <= s4_tags;
                s5_groups <= s4_groups;
                s5_tail_len <= s4_tail_len;
                s5_tail <= s4_tail;
                s5_last <= s4_last;
                s5_user <= s4_user;
                s5_err <= s4_err;
                s5_gi <= s4_gi;
            end
            s6_valid <= s5_valid;
            if (s5_valid) begin
                s6_tags <= s5_tags;
                s6_pay <= s5_pay;
                s6_size <= s5_size;
                s6_groups <= s5_groups;
                s6_tail_len <= s5_tail_len;
                s6_tail <= s5_tail;
                s6_last <= s5_last;
                s6_user <= s5_user;
                s6_err <= s5_err;
                s6_gi <= s5_gi;
            end
            if (rst) begin
                s5_valid <= 1'b0;
                s6_valid <= 1'b0;
            end
        end

        assign rw_valid = s6_valid;
        assign rw_tags = s6_tags;
        assign rw_pay = s6_pay;
        assign rw_size = s6_size;
        assign rw_groups = s6_groups;
        assign rw_tail_len = s6_tail_len;
        assign rw_tail = s6_tail;
        assign rw_last = s6_last;
        assign rw_user = s6_user;
        assign rw_err = s6_err;
        assign rw_gi = s6_gi;
    end else begin : s4_direct
        for (g = 0; g < GPB; g = g + 1) begin : grp
            assign {rw_size[6*g +: 6], rw_pay[256*g +: 256]} =
                group_pack(s4_sizes[24*g +: 24], s4_offs[48*g +: 48],
                           s4_words[256*g +: 256]);
        end
        assign rw_valid = s4_valid;
        assign rw_tags = s4_tags;
        assign rw_groups = s4_groups;
        assign rw_tail_len = s4_tail_len;
        assign rw_tail = s4_tail;
        assign rw_last = s4_last;
        assign rw_user = s4_user;
        assign rw_err = s4_err;
        assign rw_gi = s4_gi;
    end
endgenerate

// width mode: the beat's group, from S3 to S6 (inc_width_group's three
// clocks); its outputs belong to the beat in S6
wire [WB-1:0]       w_bits;
wire [5:0]          w_bits_len;
wire [GPB*256-1:0]  w_raw;
wire [4:0]          w_raw_cnt;
wire                w_present;
wire [GPB*6-1:0]    w_size;          // as r_size holds it

generate
    if (WIDTH_OK) begin : wgrp
        inc_width_group wg (
            .clk(clk),
            .en(s3_valid && s3_user[6:5] == 2'd3),
            .on(s3_on),
            .tags(s3_tags),
            .mags(s3_mags),
            .negs(s3_negs),
            .words(s3_words),
            .bits(w_bits),
            .bits_len(w_bits_len),
            .raw(w_raw),
            .raw_cnt(w_raw_cnt),
            .present(w_present)
        );
        assign w_size = {1'b0, w_raw_cnt, w_bits_len};
    end else begin : no_wgrp
        assign w_size = 0;
        assign w_bits = 0;
        assign w_bits_len = 0;
        assign w_raw = 0;
        assign w_raw_cnt = 0;
        assign w_present = 1'b0;
        // LANES = 8: no width mode; these feed nothing
        wire unused_w = &{1'b0, s3_mags, s3_negs, s3_on, w_bits_len, w_raw_cnt};
    end
endgenerate

wire rw_width = WIDTH_OK && rw_user[6:5] == 2'd3;

// ---- into the ring: S6 ---------------------------------------------------------

// one entry per beat that has values, and one for a last beat without any
wire ring_wr = rw_valid && (rw_groups != 2'd0 || rw_last);

// entry fields; payloads in their own array (a RAM: one write, one read).
// Width mode: r_size [5:0] the bit string's bytes, [11:6] the RAW values;
// r_pay the RAW values; r_wbits the bit string
reg [1:0]          r_groups [0:RING-1];  // 0: the chunk's end only
reg [GPB*6-1:0]    r_size [0:RING-1];
reg                r_need_hdr [0:RING-1]; // first entry of a segment
reg                r_end [0:RING-1];     // the chunk's last entry
reg [1:0]          r_tail_len [0:RING-1];
reg [23:0]         r_tail [0:RING-1];
reg [6:0]          r_user [0:RING-1];
reg                r_err [0:RING-1];
reg [GPB*256-1:0]  r_pay [0:RING-1];
reg [WB-1:0]       r_wbits [0:RING-1];

// one more bit than an index: equal pointers mean empty
reg [RP_W:0] wp = 0, rp = 0;

wire [GPB*6-1:0] ring_size = rw_width ? w_size : rw_size;

always @(posedge clk) begin
    if (ring_wr) begin
        r_groups[wp[RP_W-1:0]] <= rw_groups;
        r_size[wp[RP_W-1:0]] <= ring_size;
        r_need_hdr[wp[RP_W-1:0]] <= rw_gi == 3'd0 && rw_groups != 2'd0;
        r_end[wp[RP_W-1:0]] <= rw_last;
        r_tail_len[wp[RP_W-1:0]] <= rw_tail_len;
        r_tail[wp[RP_W-1:0]] <= rw_tail;
        r_user[wp[RP_W-1:0]] <= rw_user;
        r_err[wp[RP_W-1:0]] <= rw_err;
        r_pay[wp[RP_W-1:0]] <= rw_width ? w_raw : rw_pay;
        r_wbits[wp[RP_W-1:0]] <= w_bits;
        wp <= wp + 1'b1;
    end
    ret_s <= rw_valid && !ring_wr;
    if (rst) begin
        wp <= 0;
        ret_s <= 1'b0;
    end
end

// the segment's tag words and present groups, gathered as entries come; a
// segment closes with the entry that fills its 8th group or ends the chunk.
// Width mode: a group's "tag word" is 1 when it is present
wire [LANES*2-1:0] rw_tw = rw_width ? {{(LANES*2-1){1'b0}}, w_present} :
                                      rw_tags;
reg  [127:0] seg_tw = 0;
reg  [7:0]   seg_has = 0;
reg  [127:0] cur_tw;
reg  [7:0]   cur_has;
integer      cg, cs;
always @* begin
    cur_tw = seg_tw;
    cur_has = seg_has;
    for (cs = 0; cs < 8; cs = cs + 1)
        for (cg = 0; cg < GPB; cg = cg + 1)
            if (cg < rw_groups && cs[2:0] == rw_gi + cg[2:0]) begin
                cur_tw[16*cs +: 16] = rw_tw[16*cg +: 16];
                cur_has[cs] = 1'b1;
            end
end

wire seg_end = rw_last || ({1'b0, rw_gi} + {2'b0, rw_groups}) == 4'd8;

reg          h1_valid = 1'b0;
reg  [127:0] h1_tw = 0;
reg  [7:0]   h1_has = 0;
reg          h1_sparse = 1'b0;   // a mask of present groups: sparse, width
reg          h1_width = 1'b0;

always @(posedge clk) begin
    h1_valid <= ring_wr && seg_end && cur_has != 8'd0;
    h1_tw <= cur_tw;
    h1_has <= cur_has;
    h1_sparse <= rw_user[6:5] == 2'd2 || rw_width;
    h1_width <= rw_width;
    if (ring_wr) begin
        seg_tw <= seg_end ? 128'd0 : cur_tw;
        seg_has <= seg_end ? 8'd0 : cur_has;
    end
    if (rst) begin
        h1_valid <= 1'b0;
        seg_tw <= 0;
        seg_has <= 0;
    end
end

// ---- segment header: H2 (mask, places), H3 (packed, into the FIFO) ---------------

// sparse mode leaves out the groups whose tag word is 0 and adds the mask
reg [7:0]  h_mask;
reg [23:0] h_pos;                // 8 x 3 bits: a present word's place
reg [3:0]  h_npres;
integer    hm;
always @* begin
    h_npres = 0;
    h_pos = 0;
    for (hm = 0; hm < 8; hm = hm + 1) begin
        h_mask[hm] = h1_has[hm] && (!h1_sparse || h1_tw[16*hm +: 16] != 16'd0);
        h_pos[3*hm +: 3] = h_npres[2:0];
        h_npres = h_npres + {3'd0, h_mask[hm]};
    end
end

reg          h2_valid = 1'b0;
reg  [127:0] h2_tw = 0;
reg  [7:0]   h2_mask = 0;
reg  [23:0]  h2_pos = 0;
reg  [3:0]   h2_npres = 0;
reg          h2_sparse = 1'b0;
reg          h2_width = 1'b0;

always @(posedge clk) begin
    h2_valid <= h1_valid;
    h2_tw <= h1_tw;
    h2_mask <= h_mask;
    h2_pos <= h_pos;
    h2_npres <= h_npres;
    h2_sparse <= h1_sparse;
    h2_width <= h1_width;
    if (rst)
        h2_valid <= 1'b0;
end

reg [127:0] h_words;
reg [135:0] h_hdr;
integer     hp, hw;
always @* begin
    h_words = 0;
    for (hp = 0; hp < 8; hp = hp + 1)
        for (hw = 0; hw < 8; hw = hw + 1)
            if (h2_mask[hw] && h2_pos[3*hw +: 3] == hp[2:0])
                h_words[16*hp +: 16] = h_words[16*hp +: 16] | h2_tw[16*hw +: 16];
    // width mode: the mask alone (its groups carry their own headers)
    h_hdr = h2_width ? {128'd0, h2_mask} :
            h2_sparse ? {h_words, h2_mask} : {8'd0, h_words};
end

// header FIFO: one entry per segment in the ring at most
reg [HDR*8-1:0] hf_hdr [0:RING-1];
reg [4:0]       hf_len [0:RING-1];
reg [RP_W:0]    hf_wp = 0, hf_rp = 0;

always @(posedge clk) begin
    if (h2_valid) begin
        hf_hdr[hf_wp[RP_W-1:0]] <= h_hdr;
        hf_len[hf_wp[RP_W-1:0]] <= h2_width ? 5'd1 :
                                   {h2_npres, 1'b0} + {4'd0, h2_sparse};
        hf_wp <= hf_wp + 1'b1;
    end
    if (rst)
        hf_wp <= 0;
end

// ---- emitter: E1 (fetch), E2 (offsets), E3 (item) ------------------------------------

wire [RP_W-1:0] ri = rp[RP_W-1:0];
wire            e_need_hdr = r_need_hdr[ri];
wire            e_avail = wp != rp && (!e_need_hdr || hf_wp != hf_rp);

reg                 e1_valid = 1'b0;
reg                 e1_hdr_on = 1'b0;
reg  [HDR*8-1:0]    e1_hdr = 0;
reg  [4:0]          e1_hdr_len = 0;
reg  [1:0]          e1_groups = 0;
reg  [GPB*6-1:0]    e1_size = 0;
reg                 e1_end = 1'b0;
reg  [1:0]          e1_tail_len = 0;
reg  [23:0]         e1_tail = 0;
reg  [7:0]          e1_user = 0;
reg  [GPB*256-1:0]  e1_pay = 0;
reg  [WB-1:0]       e1_wbits = 0;

reg                 e2_valid = 1'b0;
reg  [HDR*8-1:0]    e2_hdr = 0;
reg  [GPB*256-1:0]  e2_pay = 0;
reg  [23:0]         e2_tail = 0;
reg  [GPB*7-1:0]    e2_off = 0;      // byte offset of each group's payload
reg  [WB-1:0]       e2_wbits = 0;    // width mode: the bit string,
reg                 e2_woff = 1'b0;  // at byte 0 or 1 (after the mask)
reg  [6:0]          e2_off_tail = 0;
reg  [ITEM_LEN_W-1:0] e2_len = 0;
reg                 e2_end = 1'b0;
reg  [7:0]          e2_user = 0;

reg                 e3_valid = 1'b0;
reg  [ITEM*8-1:0]   e3_item = 0;
reg  [ITEM_LEN_W-1:0] e3_len = 0;
reg                 e3_end = 1'b0;
reg  [7:0]          e3_user = 0;

wire item_ready;
wire e3_ready = !e3_valid || item_ready;
wire e2_ready = !e2_valid || e3_ready;
wire e1_ready = !e1_valid || e2_ready;
wire e_take = e_avail && e1_ready;

always @(posedge clk) begin
    ret_e <= e_take;
    if (e1_ready)
        e1_valid <= e_take;
    if (e_take) begin
        rp <= rp + 1'b1;
        if (e_need_hdr)
            hf_rp <= hf_rp + 1'b1;
        e1_hdr_on <= e_need_hdr;
        e1_hdr <= hf_hdr[hf_rp[RP_W-1:0]];
        e1_hdr_len <= hf_len[hf_rp[RP_W-1:0]];
        e1_groups <= r_groups[ri];
        e1_size <= r_size[ri];
        e1_end <= r_end[ri];
        e1_tail_len <= r_tail_len[ri];
        e1_tail <= r_tail[ri];
        e1_user <= {r_end[ri] && r_err[ri], r_user[ri]};
        e1_pay <= r_pay[ri];
        e1_wbits <= r_wbits[ri];
    end
    if (rst) begin
        ret_e <= 1'b0;
        e1_valid <= 1'b0;
        rp <= 0;
        hf_rp <= 0;
    end
end

// E2: where each part of the item goes. Width mode: the bit string after
// the mask byte, the RAW values (e1_pay, 32 bytes a half) after it
wire                e1_width = WIDTH_OK && e1_user[6:5] == 2'd3;
wire [5:0]          e1_wlen;         // width: the bit string's bytes
wire [4:0]          e1_wraw;         // width: RAW values
generate
    if (WIDTH_OK) begin : e1w
        assign e1_wlen = e1_size[5:0];
        assign e1_wraw = e1_size[10:6];
    end else begin : e1_no_w
        assign e1_wlen = 0;
        assign e1_wraw = 0;
    end
endgenerate
reg [GPB*7-1:0]     o_off;
reg [GPB*256-1:0]   o_pay;
reg [6:0]           o_at;
integer             og;
always @* begin
    o_at = e1_hdr_on ? {2'd0, e1_hdr_len} : 7'd0;
    o_off = 0;
    o_pay = 0;
    if (e1_width) begin
        o_at = o_at + {1'b0, e1_wlen};
        o_pay = e1_pay;
        for (og = 0; og < GPB; og = og + 1)
            o_off[7*og +: 7] = o_at + og[6:0] * 7'd32;
        o_at = o_at + {e1_wraw, 2'd0};
    end else begin
        for (og = 0; og < GPB; og = og + 1) begin
            o_off[7*og +: 7] = o_at;
            if (og < e1_groups) begin
                o_pay[256*og +: 256] = e1_pay[256*og +: 256];
                o_at = o_at + {1'b0, e1_size[6*og +: 6]};
            end
        end
    end
end

always @(posedge clk) begin
    if (e2_ready) begin
        e2_valid <= e1_valid;
        if (e1_valid) begin
            e2_hdr <= e1_hdr_on ? e1_hdr : {HDR*8{1'b0}};
            e2_pay <= o_pay;
            e2_tail <= e1_tail;
            e2_off <= o_off;
            e2_wbits <= e1_width ? e1_wbits : {WB{1'b0}};
            e2_woff <= e1_hdr_on;
            e2_off_tail <= o_at;
            e2_len <= {1'b0, o_at} + {6'd0, e1_end ? e1_tail_len : 2'd0};
            e2_end <= e1_end;
            e2_user <= e1_user;
        end
    end
    if (rst)
        e2_valid <= 1'b0;
end

// E3: the item's bytes in place
reg [ITEM*8-1:0] p_item;
integer          pg;
always @* begin
    p_item = {{(ITEM-HDR)*8{1'b0}}, e2_hdr} |
             ({{(ITEM*8-WB){1'b0}}, e2_wbits} << {e2_woff, 3'd0});
    for (pg = 0; pg < GPB; pg = pg + 1)
        p_item = p_item | ({{(ITEM-32)*8{1'b0}}, e2_pay[256*pg +: 256]} <<
                           {e2_off[7*pg +: 7], 3'd0});
    p_item = p_item | ({{(ITEM-3)*8{1'b0}}, e2_tail} << {e2_off_tail, 3'd0});
end

always @(posedge clk) begin
    if (e3_ready) begin
        e3_valid <= e2_valid;
        if (e2_valid) begin
            e3_item <= p_item;
            e3_len <= e2_len;
            e3_end <= e2_end;
            e3_user <= e2_user;
        end
    end
    if (rst)
        e3_valid <= 1'b0;
end

// ---- output ---------------------------------------------------------------------

inc_axis_packer #(
    .IN_BYTES(ITEM),
    .OUT_BYTES(2 * W),
    .USER_W(8),
    .LEN_W(ITEM_LEN_W)
) packer (
    .clk(clk),
    .rst(rst),
    .s_item_data(e3_item),
    .s_item_len(e3_len),
    .s_item_last(e3_end),
    .s_item_user(e3_user),
    .s_item_valid(e3_valid),
    .s_item_ready(item_ready),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser)
);

endmodule

`resetall
