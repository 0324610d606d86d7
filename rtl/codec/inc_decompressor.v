// SPDX-License-Identifier: MIT
/*
 * inc_decompressor: the INCEPTIONN gradient decompression engine.
 *
 * Takes one chunk body (docs/codec.md, sections 4-6) per AXI4-Stream packet
 * and emits the chunk's raw bytes, bit-exact with inc_chunk_decode() of the
 * C library (userspace/codec, the golden model), or flags the chunk.
 *
 * s_axis (body): 2 * 4 * LANES bytes per beat, tkeep contiguous from byte 0
 *   (any beat may be short); a body of 0 bytes is one beat with tkeep = 0.
 *   tuser on a chunk's first beat: [4:0] k (1..24), [6:5] mode (1 paper,
 *   2 sparse), [20:7] raw_len (bytes, 0..9000).
 * m_axis (raw): LANES 32-bit values per beat, tkeep contiguous, full but on
 *   the last beat; raw_len bytes in ceil(raw_len / (4 * LANES)) beats (one
 *   beat with tkeep = 0 for raw_len = 0). tuser[0], on the tlast beat: the
 *   chunk is malformed; that beat then has tkeep = 0, so a malformed chunk
 *   never yields more than raw_len bytes (its other beats are not
 *   meaningful), and a chunk with bad parameters is that one beat alone.
 *   The next chunk is decoded normally.
 * status_valid pulses once per chunk, with status_error, for counters.
 *
 * Malformed means (the C decoder's INC_ECORRUPT/INC_EINVAL cases): mode or
 * k out of range, raw_len over 9000, a sparse mask bit past the last group,
 * a present sparse group with tag word 0, a tag on a padding slot of the
 * short last group, a body shorter than its tags need, or longer.
 *
 * Line rate: with m_axis_tready held high and the body's beats available,
 * one raw beat leaves every clock, whatever the data, mode or chunk
 * boundaries. Logic depth: at most 8 LUT6 levels between registers
 * (docs/rtl.md, "Logic depth").
 *
 * Structure (docs/rtl.md, "The decompressor"). The serial part of decoding
 * is finding the segments: a segment's start is the previous segment's
 * start plus its length, and its length is in its header. It is done once
 * per segment (8 groups: 8 raw beats at 8 lanes, 4 at 16), not per beat:
 *   - writer: the body's beats are packed, whatever their tkeep, into a
 *     byte-addressed ring buffer (BUF_ROWS rows of one input beat, a bank
 *     of LUT RAM per byte of a row: a beat rotated to its offset writes
 *     each bank once, at its row or the next), and a chunk queue entry
 *     records where each body starts and its parameters;
 *   - header chaser: from a segment's start it reads the header, sums the
 *     present groups' payload sizes and adds: the next segment's start, a
 *     loop of 4 clocks (read; tag word sizes; two half sums; add), issuing
 *     a new chunk's first segment the clock after the last one's. It reads
 *     ahead of the writer at its own risk: an iteration whose header bytes
 *     were not yet written is dropped and replayed. A side pipeline turns
 *     each segment's header into a descriptor (tag word and payload offset
 *     of each group, the bytes it needs, format errors);
 *   - extractor: per raw beat, reads the beat's groups' payloads (and the
 *     tail bytes on the last beat) at the descriptor's offsets, unpacks and
 *     dequantizes them (inc_group_unpack; inc_dequant_abs and
 *     inc_dequant_norm, a register between) into an output FIFO.
 *     A segment's first beat waits until the writer holds all its bytes; a
 *     chunk's last beat waits for the body's end and carries the verdict:
 *     the format errors, and the body's length against the length its
 *     headers and raw_len call for (a truncated body reads past its end:
 *     whatever it finds there, the lengths disagree).
 * Bytes of a body past the length its headers call for are dropped (the
 * chunk is flagged), so an over-long body cannot fill the buffer.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_decompressor #
(
    // 32-bit lanes per raw beat: 8 (256-bit) or 16 (512-bit)
    parameter LANES = 8,
    // Rows of the body buffer, one input beat (8 * LANES bytes) each, a
    // power of two; at least 16 for line rate (the chaser reads about two
    // segments ahead of the extractor, and the writer one beat ahead)
    parameter BUF_ROWS = 16
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

    output reg                   status_valid = 1'b0,
    output reg                   status_error = 1'b0
);

localparam W = LANES * 4;              // raw bytes per beat
localparam WB = $clog2(W);
localparam C = 2 * W;                  // body bytes per input beat
localparam LC = $clog2(C);
localparam GPB = LANES / 8;            // groups per raw beat
localparam BUF = BUF_ROWS * C;         // buffer bytes
localparam AW = $clog2(BUF);           // byte address in the buffer
localparam PW = AW + 1;                // pointers: one more bit, for signs
localparam RW = $clog2(BUF_ROWS);
localparam HB = 17;                    // header bytes read: mask + 8 words
localparam XB = W + 3;                 // bytes a raw beat reads: payloads, tail
localparam MAX_CHUNK = 9000;
localparam CQ_W = 4;                   // chunk queue: 16 chunks in flight
localparam CQ_N = 1 << CQ_W;
localparam DQ_W = 4;                   // descriptor FIFO: 16 segments
localparam DQ_N = 1 << DQ_W;
localparam OQ_W = 4;                   // output FIFO: 16 raw beats
localparam OQ_N = 1 << OQ_W;
// the writer takes a beat while the buffer has room for three more (the
// one in I0, the one tready lets in now, the one after: tready is a
// register)
localparam integer USED_MAX_I = BUF - 3 * C;
localparam integer CQ_MAX_I = CQ_N - 3;
localparam [PW-1:0] USED_MAX = USED_MAX_I[PW-1:0];
localparam [CQ_W:0] CQ_MAX = CQ_MAX_I[CQ_W:0];

// ---- helpers ---------------------------------------------------------------------

function [3:0] popcount8;
    input [7:0] x;
    integer i;
    begin
        popcount8 = 0;
        for (i = 0; i < 8; i = i + 1)
            popcount8 = popcount8 + {3'd0, x[i]};
    end
endfunction

// payload bytes of a group (docs/codec.md, section 4)
function [5:0] tw_bytes;
    input [15:0] tw;
    integer i;
    begin
        tw_bytes = 0;
        for (i = 0; i < 8; i = i + 1)
            tw_bytes = tw_bytes + (tw[2*i +: 2] == 2'd3 ? 6'd4 : {4'd0, tw[2*i +: 2]});
    end
endfunction

// below, rot_up, rot_up1: the ring's placement (the width decompressor's
// too)
localparam RF_C = C;
localparam RF_LC = LC;
`include "inc_ring_fns.vh"

// the bytes of {hi, lo} from byte s (0..C-1) on: a shifter's stages, the
// coarse first, so that the later ones are only as wide as what the caller
// keeps of the result (a byte offset into a wide vector, x[8*s +: n], is
// a shifter whose fine stages come first, each over the whole vector)
function [XB*8-1:0] win_down;
    input [C*8-1:0] hi;
    input [C*8-1:0] lo;
    input [LC-1:0]  s;
    integer b;
    reg [2*C*8-1:0] r;
    begin
        r = {hi, lo};
        for (b = LC - 1; b >= 0; b = b - 1)
            if (s[b])
                r = r >> (8 << b);
        win_down = r[XB*8-1:0];
    end
endfunction

// the first HB of them (a segment's header), the same stages
function [HB*8-1:0] win_hdr;
    input [C*8-1:0] hi;
    input [C*8-1:0] lo;
    input [LC-1:0]  s;
    integer b;
    reg [2*C*8-1:0] r;
    begin
        r = {hi, lo};
        for (b = LC - 1; b >= 0; b = b - 1)
            if (s[b])
                r = r >> (8 << b);
        win_hdr = r[HB*8-1:0];
    end
endfunction

// bytes in a tkeep that is contiguous from byte 0 (a one-hot decode of its
// end, not an adder): keep_count
localparam KC_C = C;
localparam KC_LC = LC;
`include "inc_keep_fns.vh"

// ---- I0: the input beat ----------------------------------------------------------

reg             in_ok = 1'b0;          // room for a beat (registered)
reg             in_pkt = 1'b0;         // inside a body
reg             i0_valid = 1'b0;
reg  [C*8-1:0]  i0_data = 0;
reg  [LC:0]     i0_nb = 0;             // bytes in the beat
reg  [C-1:0]    i0_keep = 0;           // ... as a mask of i0_nb bytes
reg             i0_first = 1'b0;       // a body's first beat
reg             i0_last = 1'b0;
reg  [20:0]     i0_user = 0;

// a beat the writer will drop needs no room: the rest of a body past the
// bytes its headers call for (w_disc, below)
wire in_drop;
assign s_axis_tready = in_ok || in_drop;
wire in_take = s_axis_tvalid && s_axis_tready;

always @(posedge clk) begin
    i0_valid <= in_take;
    if (in_take) begin
        i0_data <= s_axis_tdata;
        i0_nb <= keep_count(s_axis_tkeep);
        i0_keep <= ~({C{1'b1}} << keep_count(s_axis_tkeep));
        i0_first <= !in_pkt;
        i0_last <= s_axis_tlast;
        i0_user <= s_axis_tuser;
        in_pkt <= !s_axis_tlast;
    end
    if (rst) begin
        i0_valid <= 1'b0;
        in_pkt <= 1'b0;
    end
end

// ---- chunk queue ------------------------------------------------------------------
// An entry per chunk, from its body's first beat until its last raw beat is
// read. Written by the writer (start, parameters, body length), the chaser's
// side pipeline (the body length the headers call for), read by all.

reg  [PW-1:0]   cq_start [0:CQ_N-1];   // buffer address of the body
reg  [13:0]     cq_raw_len [0:CQ_N-1];
reg  [4:0]      cq_k [0:CQ_N-1];
reg             cq_sparse [0:CQ_N-1];
reg             cq_bad [0:CQ_N-1];     // parameters out of range
reg  [14:0]     cq_blen [0:CQ_N-1];    // body bytes; bit 14: 16384 or more
reg             cq_e_known [0:CQ_N-1];
reg  [13:0]     cq_e [0:CQ_N-1];       // body bytes the headers call for

reg  [CQ_W:0]   cq_wp = 0;             // next entry the writer fills
reg  [CQ_W:0]   cq_rp = 0;             // oldest entry (the extractor's)

// ---- I1: the writer ---------------------------------------------------------------

// the body buffer, a byte ring: C banks of a byte (below, after the readers'
// rows are declared), bank j holding byte j of every row
reg  [PW-1:0]   wr_ptr = 0;            // next byte written
reg  [PW-1:0]   rel_ptr = 0;           // oldest byte still needed
reg  [CQ_W-1:0] w_seq = 0;             // the writer's current chunk
reg             w_ended = 1'b1;        // ... its body has ended
reg  [14:0]     w_blen = 0;            // ... its body bytes so far
reg             w_disc = 1'b0;         // ... the rest of its body is dropped

wire            w_en = i0_valid && (i0_first || !w_disc);
// the next beat continues the writer's chunk, which is dropping its rest
assign in_drop = w_disc && in_pkt && !(i0_valid && i0_first);
wire [LC-1:0]   w_off = wr_ptr[LC-1:0];
wire [RW-1:0]   w_row = wr_ptr[AW-1:LC];
wire [RW-1:0]   w_row1 = w_row + 1'b1;
// the count saturates by a sticky bit 14 (16384 bytes or more: every
// reader only compares it with 14-bit lengths, so the low bits then do not
// matter), chosen by the register, not by the add's carry out
wire [14:0]     w_blen_sum = {1'b0, w_blen[13:0]} + {{(14-LC){1'b0}}, i0_nb};
wire [14:0]     w_blen_next = i0_first ? {{(14-LC){1'b0}}, i0_nb} :
                              w_blen[14] ? w_blen : w_blen_sum;

wire [13:0]     u_raw_len = i0_user[20:7];
wire [1:0]      u_mode = i0_user[6:5];
wire [4:0]      u_k = i0_user[4:0];

// the beat's bytes land in two rows: rotated up by the offset, byte j of
// the beat goes to bank (j + off) mod C, at the beat's row, or at the next
// for the banks below the offset (where the rotation wrapped). Each bank is
// written at most once a beat: LUT RAM, one write port a bank.
wire [C*8-1:0]  w_data = rot_up(i0_data, w_off);
wire [C-1:0]    w_we = rot_up1(i0_keep, w_off) & {C{w_en}};
wire [C-1:0]    w_lo = below({1'b0, w_off});

always @(posedge clk) begin
    if (w_en)
        wr_ptr <= wr_ptr + {{(PW-LC-1){1'b0}}, i0_nb};
    if (i0_valid) begin
        w_blen <= w_blen_next;
        if (i0_last) begin
            cq_blen[i0_first ? cq_wp[CQ_W-1:0] : w_seq] <= w_blen_next;
            w_ended <= 1'b1;
        end
        if (i0_first) begin
            cq_start[cq_wp[CQ_W-1:0]] <= wr_ptr;
            cq_raw_len[cq_wp[CQ_W-1:0]] <= u_raw_len;
            cq_k[cq_wp[CQ_W-1:0]] <= u_k;
            cq_sparse[cq_wp[CQ_W-1:0]] <= u_mode == 2'd2;
            cq_bad[cq_wp[CQ_W-1:0]] <= !(u_mode == 2'd1 || u_mode == 2'd2) ||
                                        u_k < 5'd1 || u_k > 5'd24 ||
                                        u_raw_len > MAX_CHUNK;
            cq_e_known[cq_wp[CQ_W-1:0]] <= 1'b0;
            w_seq <= cq_wp[CQ_W-1:0];
            w_ended <= i0_last;
            cq_wp <= cq_wp + 1'b1;
        end
    end
    // drop the rest of a body once it has all the bytes its headers call
    // for (a clock late: one more beat may be stored)
    w_disc <= !(i0_valid && i0_first) && cq_e_known[w_seq] &&
              w_blen >= {1'b0, cq_e[w_seq]};
    in_ok <= wr_ptr - rel_ptr <= USED_MAX && cq_wp - cq_rp <= CQ_MAX;
    if (rst) begin
        wr_ptr <= 0;
        cq_wp <= 0;
        w_seq <= 0;
        w_ended <= 1'b1;
        w_disc <= 1'b0;
        in_ok <= 1'b0;
    end
end

// a chunk's body has ended (the writer has seen its tlast)
function ended;
    input [CQ_W-1:0] seq;
    begin
        ended = seq != w_seq || w_ended;
    end
endfunction

// bytes below address a are in the buffer (a is at most BUF ahead)
function written;
    input [PW-1:0] a;
    reg [PW-1:0] d;
    begin
        d = wr_ptr - a;
        written = !d[PW-1];
    end
endfunction

// ---- header chaser: the loop ------------------------------------------------------

// issue state: the next segment to read
reg  [CQ_W:0]   ch_ptr = 0;            // its chunk
reg             is_have = 1'b0;        // the registers below hold it
reg             is_wait = 1'b0;        // its start is being computed
reg             is_first = 1'b0;       // segment 0
reg  [PW-1:0]   is_abs = 0;            // its start
reg  [8:0]      is_left = 0;           // groups from it to the chunk's end
reg             is_sparse = 1'b0;
reg             is_bad = 1'b0;
reg  [13:0]     is_raw_len = 0;
reg  [4:0]      is_k = 0;

reg  [DQ_W:0]   d_res = 0;             // descriptor slots promised

// R: the header bytes
reg             r_valid = 1'b0;
reg             r_avail = 1'b0;        // they had been written
reg  [HB*8-1:0] r_hdr = 0;
reg  [CQ_W:0]   r_ptr = 0;
reg             r_first = 1'b0;
reg  [PW-1:0]   r_abs = 0;
reg  [8:0]      r_left = 0;
reg  [3:0]      r_sg = 0;              // groups in the segment
reg             r_last = 1'b0;         // the chunk's last segment
reg             r_sparse = 1'b0;
reg             r_bad = 1'b0;
reg  [13:0]     r_raw_len = 0;
reg  [4:0]      r_k = 0;

wire            abort = r_valid && !r_avail;
wire            iss = is_have && !is_wait && !abort && d_res != DQ_N;
wire            is_last = is_left <= 9'd8;

wire [RW-1:0]   h_row = is_abs[AW-1:LC];
wire [RW-1:0]   h_row1 = h_row + 1'b1;
wire [C*8-1:0]  h_r0, h_r1;             // the rows (the banks, below)
wire [HB*8-1:0] h_rd = win_hdr(h_r1, h_r0, is_abs[LC-1:0]);
wire            h_avail = is_bad || is_left == 0 || ended(ch_ptr[CQ_W-1:0]) ||
                          written(is_abs + HB[PW-1:0]);

// the next chunk, from the queue
wire [CQ_W:0]   nx_ptr = iss ? ch_ptr + 1'b1 : ch_ptr;
wire [CQ_W-1:0] nx_i = nx_ptr[CQ_W-1:0];
wire [13:0]     nx_raw_len = cq_raw_len[nx_i];
wire [11:0]     nx_n = nx_raw_len[13:2];

// H: the half sums; A: the next start
reg             h_valid = 1'b0;
reg             h_last = 1'b0;
reg  [PW-1:0]   h_abs = 0;
reg  [7:0]      h_sa = 0;              // header bytes and groups 0-3
reg  [7:0]      h_sb = 0;              // groups 4-7

always @(posedge clk) begin
    r_valid <= iss;
    if (iss) begin
        r_hdr <= h_rd;
        r_avail <= h_avail;
        r_ptr <= ch_ptr;
        r_first <= is_first;
        r_abs <= is_abs;
        r_left <= is_left;
        r_sg <= is_last ? is_left[3:0] : 4'd8;
        r_last <= is_last;
        r_sparse <= is_sparse;
        r_bad <= is_bad;
        r_raw_len <= is_raw_len;
        r_k <= is_k;
    end

    if (abort) begin
        // replay from the segment whose header was not there yet
        ch_ptr <= r_ptr;
        is_have <= 1'b1;
        is_wait <= 1'b0;
        is_first <= r_first;
        is_abs <= r_abs;
        is_left <= r_left;
        is_sparse <= r_sparse;
        is_bad <= r_bad;
        is_raw_len <= r_raw_len;
        is_k <= r_k;
    end else if (iss && !is_last) begin
        is_wait <= 1'b1;
        is_first <= 1'b0;
        is_left <= is_left - 9'd8;
    end else if ((iss || !is_have) && nx_ptr != cq_wp) begin
        // the next chunk (the clock after its last segment, or when the
        // writer starts it)
        ch_ptr <= nx_ptr;
        is_have <= 1'b1;
        is_first <= 1'b1;
        is_abs <= cq_start[nx_i];
        // a chunk with bad parameters: one descriptor, no header read
        is_left <= cq_bad[nx_i] ? 9'd0 : nx_n[11:3] + {8'd0, nx_n[2:0] != 3'd0};
        is_sparse <= cq_sparse[nx_i];
        is_bad <= cq_bad[nx_i];
        is_raw_len <= nx_raw_len;
        is_k <= cq_k[nx_i];
    end else if (iss) begin
        ch_ptr <= nx_ptr;
        is_have <= 1'b0;
    end
    if (h_valid && !h_last) begin
        is_abs <= h_abs + {{(PW-8){1'b0}}, h_sa} + {{(PW-8){1'b0}}, h_sb};
        is_wait <= 1'b0;
    end

    if (rst) begin
        r_valid <= 1'b0;
        ch_ptr <= 0;
        is_have <= 1'b0;
        is_wait <= 1'b0;
    end
end

// G: the size of each present group's payload, in the order of the tag
// words (the loop needs only their sum)
wire [7:0]      g_mask = r_hdr[7:0];
wire [3:0]      g_np = r_sg == 0 ? 4'd0 : r_sparse ? popcount8(g_mask) : r_sg;   // tag words
wire [4:0]      g_hdr_len = r_sg == 0 ? 5'd0 : {g_np, 1'b0} + {4'd0, r_sparse};
wire [HB*8-1:0] g_tags = r_sparse ? r_hdr >> 8 : r_hdr;     // tag words
reg  [47:0]     g_gs;
integer gj;
always @* begin
    for (gj = 0; gj < 8; gj = gj + 1)
        g_gs[6*gj +: 6] = gj < g_np ? tw_bytes(g_tags[16*gj +: 16]) : 6'd0;
end

reg             gg_valid = 1'b0;
reg             gg_last = 1'b0;
reg  [PW-1:0]   gg_abs = 0;
reg  [4:0]      gg_hdr_len = 0;
reg  [47:0]     gg_gs = 0;

always @(posedge clk) begin
    gg_valid <= r_valid && r_avail;
    gg_last <= r_last;
    gg_abs <= r_abs;
    gg_hdr_len <= g_hdr_len;
    gg_gs <= g_gs;

    h_valid <= gg_valid;
    h_last <= gg_last;
    h_abs <= gg_abs;
    h_sa <= {3'd0, gg_hdr_len} + {2'd0, gg_gs[5:0]} + {2'd0, gg_gs[11:6]} +
            {2'd0, gg_gs[17:12]} + {2'd0, gg_gs[23:18]};
    h_sb <= {2'd0, gg_gs[29:24]} + {2'd0, gg_gs[35:30]} +
            {2'd0, gg_gs[41:36]} + {2'd0, gg_gs[47:42]};
    if (rst) begin
        gg_valid <= 1'b0;
        h_valid <= 1'b0;
    end
end

// ---- header chaser: the descriptors -----------------------------------------------
// S1-S6 turn each header read (that was not dropped) into a segment
// descriptor: the tag word and payload offset of each group by index, the
// payload's address, the bytes it needs, its format errors.

// S1: the tag word of each group
wire [7:0]      s_all = 8'hff >> (4'd8 - r_sg);
wire [7:0]      s_present = r_sg == 0 ? 8'd0 : r_sparse ? g_mask : s_all;
reg  [127:0]    s_tw;
integer sj;
always @* begin
    for (sj = 0; sj < 8; sj = sj + 1)
        s_tw[16*sj +: 16] = s_present[sj] ?
            g_tags[{popcount8(s_present & ~(8'hff << sj)), 4'd0} +: 16] : 16'd0;
end

reg             s1_valid = 1'b0;
reg  [127:0]    s1_tw = 0;
reg  [7:0]      s1_present = 0;
reg             s1_bad_mask = 1'b0;
reg  [4:0]      s1_hdr_len = 0;
reg  [CQ_W-1:0] s1_seq = 0;
reg             s1_first = 1'b0, s1_last = 1'b0, s1_sparse = 1'b0, s1_bad = 1'b0;
reg  [PW-1:0]   s1_abs = 0;
reg  [3:0]      s1_sg = 0;
reg  [13:0]     s1_raw_len = 0;
reg  [4:0]      s1_k = 0;

always @(posedge clk) begin
    s1_valid <= r_valid && r_avail;
    s1_tw <= s_tw;
    s1_present <= s_present;
    s1_bad_mask <= r_sparse && r_sg != 0 && (g_mask & ~s_all) != 8'd0;
    s1_hdr_len <= g_hdr_len;
    s1_seq <= r_ptr[CQ_W-1:0];
    s1_first <= r_first;
    s1_last <= r_last;
    s1_sparse <= r_sparse;
    s1_bad <= r_bad;
    s1_abs <= r_abs;
    s1_sg <= r_sg;
    s1_raw_len <= r_raw_len;
    s1_k <= r_k;
    if (rst)
        s1_valid <= 1'b0;
end

// S2: sizes, errors, the payload's address
wire [2:0]      s1_nm8 = s1_raw_len[4:2];  // values in a short last group
wire [15:0]     s1_last_tw = s1_tw[{s1_sg[2:0] - 3'd1, 4'd0} +: 16];
reg  [47:0]     s1_size;
reg             s1_zero;
integer zj;
always @* begin
    s1_zero = 1'b0;
    for (zj = 0; zj < 8; zj = zj + 1) begin
        s1_size[6*zj +: 6] = tw_bytes(s1_tw[16*zj +: 16]);
        if (s1_present[zj] && s1_tw[16*zj +: 16] == 16'd0)
            s1_zero = 1'b1;
    end
end

reg             s2_valid = 1'b0;
reg  [127:0]    s2_tw = 0;
reg  [47:0]     s2_size = 0;
reg             s2_fmt = 1'b0;
reg  [4:0]      s2_hdr_len = 0;
reg  [PW-1:0]   s2_pay_abs = 0;
reg  [CQ_W-1:0] s2_seq = 0;
reg             s2_first = 1'b0, s2_last = 1'b0, s2_bad = 1'b0;
reg  [3:0]      s2_sg = 0;
reg  [13:0]     s2_raw_len = 0;
reg  [4:0]      s2_k = 0;

always @(posedge clk) begin
    s2_valid <= s1_valid;
    s2_tw <= s1_tw;
    s2_size <= s1_size;
    s2_fmt <= s1_bad_mask || (s1_sparse && s1_zero) ||
              (s1_last && s1_sg != 0 && s1_nm8 != 3'd0 &&
               (s1_last_tw >> {s1_nm8, 1'b0}) != 16'd0);
    s2_hdr_len <= s1_hdr_len;
    s2_pay_abs <= s1_abs + {{(PW-5){1'b0}}, s1_hdr_len};
    s2_seq <= s1_seq;
    s2_first <= s1_first;
    s2_last <= s1_last;
    s2_bad <= s1_bad;
    s2_sg <= s1_sg;
    s2_raw_len <= s1_raw_len;
    s2_k <= s1_k;
    if (rst)
        s2_valid <= 1'b0;
end

// S3: pair sums; S4: the offsets (off[j]: group j's payload, off[8]: the end)
reg             s3_valid = 1'b0;
reg  [127:0]    s3_tw = 0;
reg  [27:0]     s3_q = 0;              // 4 x 7 bits: groups 2i + 2i+1
reg  [23:0]     s3_e = 0;              // 4 x 6 bits: groups 2i
reg             s3_fmt = 1'b0;
reg  [4:0]      s3_hdr_len = 0;
reg  [PW-1:0]   s3_pay_abs = 0;
reg  [CQ_W-1:0] s3_seq = 0;
reg             s3_first = 1'b0, s3_last = 1'b0, s3_bad = 1'b0;
reg  [3:0]      s3_sg = 0;
reg  [13:0]     s3_raw_len = 0;
reg  [4:0]      s3_k = 0;

reg             s4_valid = 1'b0;
reg  [127:0]    s4_tw = 0;
reg  [71:0]     s4_off = 0;            // 8 x 9 bits: off[1..8]
reg             s4_fmt = 1'b0;
reg  [4:0]      s4_hdr_len = 0;
reg  [PW-1:0]   s4_pay_abs = 0;
reg  [CQ_W-1:0] s4_seq = 0;
reg             s4_first = 1'b0, s4_last = 1'b0, s4_bad = 1'b0;
reg  [3:0]      s4_sg = 0;
reg  [13:0]     s4_raw_len = 0;
reg  [4:0]      s4_k = 0;

wire [8:0] q0 = {2'd0, s3_q[6:0]}, q1 = {2'd0, s3_q[13:7]},
           q2 = {2'd0, s3_q[20:14]}, q3 = {2'd0, s3_q[27:21]};
wire [8:0] e0 = {3'd0, s3_e[5:0]}, e1 = {3'd0, s3_e[11:6]},
           e2 = {3'd0, s3_e[17:12]}, e3 = {3'd0, s3_e[23:18]};

integer pj;
always @(posedge clk) begin
    s3_valid <= s2_valid;
    s3_tw <= s2_tw;
    for (pj = 0; pj < 4; pj = pj + 1) begin
        s3_q[7*pj +: 7] <= {1'b0, s2_size[12*pj +: 6]} + {1'b0, s2_size[12*pj+6 +: 6]};
        s3_e[6*pj +: 6] <= s2_size[12*pj +: 6];
    end
    s3_fmt <= s2_fmt;
    s3_hdr_len <= s2_hdr_len;
    s3_pay_abs <= s2_pay_abs;
    s3_seq <= s2_seq;
    s3_first <= s2_first;
    s3_last <= s2_last;
    s3_bad <= s2_bad;
    s3_sg <= s2_sg;
    s3_raw_len <= s2_raw_len;
    s3_k <= s2_k;

    s4_valid <= s3_valid;
    s4_tw <= s3_tw;
    s4_off <= {q0 + q1 + q2 + q3, q0 + q1 + q2 + e3, q0 + q1 + q2,
               q0 + q1 + e2, q0 + q1, q0 + e1, q0, e0};
    s4_fmt <= s3_fmt;
    s4_hdr_len <= s3_hdr_len;
    s4_pay_abs <= s3_pay_abs;
    s4_seq <= s3_seq;
    s4_first <= s3_first;
    s4_last <= s3_last;
    s4_bad <= s3_bad;
    s4_sg <= s3_sg;
    s4_raw_len <= s3_raw_len;
    s4_k <= s3_k;
    if (rst) begin
        s3_valid <= 1'b0;
        s4_valid <= 1'b0;
    end
end

// S5: the segment's length, the bytes it needs, its raw beats
wire [8:0]      s4_end = s4_off[71:63];
wire [1:0]      s4_tail = s4_raw_len[1:0];
wire [3:0]      s4_gbeats = GPB == 1 ? s4_sg : {1'b0, s4_sg[3:1]} + {3'd0, s4_sg[0]};
// a last segment whose groups fill their beats puts its tail in one more
wire            s4_extra = s4_last && s4_sg != 0 && s4_tail != 2'd0 &&
                           s4_raw_len[WB-1:2] == 0;

reg             s5_valid = 1'b0;
reg  [127:0]    s5_tw = 0;
reg  [71:0]     s5_off = 0;
reg             s5_fmt = 1'b0;
reg  [4:0]      s5_hdr_len = 0;
reg  [9:0]      s5_len_t = 0;          // segment bytes (+ tail, if last)
reg  [PW-1:0]   s5_pay_abs = 0;
reg  [PW-1:0]   s5_need = 0;           // bytes below it are the segment's
reg  [3:0]      s5_beats = 0;
reg  [CQ_W-1:0] s5_seq = 0;
reg             s5_first = 1'b0, s5_last = 1'b0, s5_bad = 1'b0;
reg  [13:0]     s5_raw_len = 0;
reg  [4:0]      s5_k = 0;

always @(posedge clk) begin
    s5_valid <= s4_valid;
    s5_tw <= s4_tw;
    s5_off <= s4_off;
    s5_fmt <= s4_fmt;
    s5_hdr_len <= s4_hdr_len;
    s5_len_t <= {5'd0, s4_hdr_len} + {1'b0, s4_end} +
                {8'd0, s4_last ? s4_tail : 2'd0};
    s5_pay_abs <= s4_pay_abs;
    s5_need <= s4_pay_abs + {{(PW-9){1'b0}}, s4_end} +
               {{(PW-2){1'b0}}, s4_last ? s4_tail : 2'd0};
    s5_beats <= s4_sg == 0 ? 4'd1 : s4_gbeats + {3'd0, s4_extra};
    s5_seq <= s4_seq;
    s5_first <= s4_first;
    s5_last <= s4_last;
    s5_bad <= s4_bad;
    s5_raw_len <= s4_raw_len;
    s5_k <= s4_k;
    if (rst)
        s5_valid <= 1'b0;
end

// S6: offsets within the body (rel_acc: the segment's start), the
// descriptor, and the body length the chunk calls for
reg  [13:0]     rel_acc = 0;
wire [13:0]     s5_rel = s5_first ? 14'd0 : rel_acc;
wire [13:0]     s5_e = s5_rel + {4'd0, s5_len_t};

localparam DW = 128 + 72 + 2 * PW + 14 + 14 + 4 + CQ_W + 3 + 14 + 5;
reg  [DW-1:0]   dq [0:DQ_N-1];
reg  [DQ_W:0]   dq_wp = 0, dq_rp = 0;

always @(posedge clk) begin
    if (s5_valid) begin
        rel_acc <= s5_e;
        dq[dq_wp[DQ_W-1:0]] <= {s5_tw, s5_off, s5_pay_abs, s5_need,
                                 s5_rel + {9'd0, s5_hdr_len},
                                 s5_bad ? 14'd0 : s5_e, s5_beats, s5_seq,
                                 s5_last, s5_bad, s5_fmt,
                                 s5_raw_len, s5_k};
        dq_wp <= dq_wp + 1'b1;
        if (s5_last) begin
            cq_e_known[s5_seq] <= 1'b1;
            cq_e[s5_seq] <= s5_bad ? 14'd0 : s5_e;
        end
    end
    if (rst)
        dq_wp <= 0;
end

// ---- extractor --------------------------------------------------------------------

// hd: the descriptor being extracted
reg             hd_valid = 1'b0;
reg  [127:0]    hd_tw = 0;
reg  [71:0]     hd_off = 0;
reg  [PW-1:0]   hd_pay_abs = 0;
reg  [PW-1:0]   hd_need = 0;
reg  [13:0]     hd_pay_rel = 0;
reg  [13:0]     hd_e = 0;
reg  [3:0]      hd_beats = 0;
reg  [CQ_W-1:0] hd_seq = 0;
reg             hd_last = 1'b0, hd_bad = 1'b0, hd_fmt = 1'b0;
reg  [13:0]     hd_raw_len = 0;
reg  [4:0]      hd_k = 0;
reg  [3:0]      ea_eb = 0;             // its next raw beat

// gate: a raw beat waiting for its bytes, its verdict, output room
reg             gt_valid = 1'b0;
reg  [AW-1:0]   gt_abs = 0;            // its groups' payload
reg  [GPB*16-1:0] gt_tw = 0;
reg  [WB:0]     gt_tail_off = 0;       // its tail, after the payloads
reg  [1:0]      gt_tail_n = 0;
reg  [WB:0]     gt_bytes = 0;          // raw bytes in the beat
reg             gt_last = 1'b0;        // the chunk's last beat
reg             gt_chk = 1'b0;         // the segment's first: check bytes
reg             gt_av = 1'b0;          // its bytes are there
reg             gt_end = 1'b0;         // its chunk's body has ended
reg             gt_rel_ok = 1'b0;      // its segment's start can be released
reg  [PW-1:0]   gt_need = 0;
reg  [PW-1:0]   gt_pay_abs = 0;
reg  [13:0]     gt_pay_rel = 0;
reg  [13:0]     gt_e = 0;
reg  [CQ_W-1:0] gt_seq = 0;
reg             gt_seg_first = 1'b0, gt_bad = 1'b0, gt_fmt = 1'b0;
reg             gt_acc = 1'b0;         // format errors of the chunk so far
reg  [4:0]      gt_k = 0;

reg  [OQ_W:0]   o_res = 0;             // output FIFO entries promised

wire            gate_go = gt_valid && (!gt_chk || gt_av || gt_end) && (!gt_last || gt_end) &&
                          o_res != OQ_N;
wire            ea_adv = hd_valid && (!gt_valid || gate_go);
wire            hd_done = ea_adv && ea_eb == hd_beats - 4'd1;
wire            hd_load = (!hd_valid || hd_done) && dq_rp != dq_wp;
wire            dq_pop = hd_load;

// the beat's fields
wire [3:0]      ea_g0 = GPB == 1 ? ea_eb : {ea_eb[2:0], 1'b0};
wire [80:0]     ea_offs = {hd_off, 9'd0};           // off[0..8]
wire [8:0]      ea_off = ea_offs[9*ea_g0 +: 9];
wire [159:0]    ea_tws = {32'd0, hd_tw};
wire            ea_last = hd_last && ea_eb == hd_beats - 4'd1;
wire [WB-1:0]   ea_rl_mod = hd_raw_len[WB-1:0];
wire [WB:0]     ea_bytes = !ea_last ? W[WB:0] :
                           hd_raw_len == 0 ? {(WB+1){1'b0}} :
                           ea_rl_mod == 0 ? W[WB:0] : {1'b0, ea_rl_mod};
wire [WB:0]     ea_tail_off = hd_off[63 +: WB+1] - ea_off[WB:0];
wire [AW-1:0]   ea_abs = hd_pay_abs[AW-1:0] + {{(AW-9){1'b0}}, ea_off};
wire [14:0]     gt_blen = cq_blen[gt_seq];

always @(posedge clk) begin
    if (hd_load) begin
        {hd_tw, hd_off, hd_pay_abs, hd_need, hd_pay_rel, hd_e,
         hd_beats, hd_seq, hd_last, hd_bad, hd_fmt, hd_raw_len,
         hd_k} <= dq[dq_rp[DQ_W-1:0]];
        dq_rp <= dq_rp + 1'b1;
    end
    if (hd_load)
        hd_valid <= 1'b1;
    else if (hd_done)
        hd_valid <= 1'b0;
    if (ea_adv)
        ea_eb <= hd_done ? 4'd0 : ea_eb + 4'd1;

    d_res <= d_res + {{DQ_W{1'b0}}, iss} - {{DQ_W{1'b0}}, abort} -
             {{DQ_W{1'b0}}, dq_pop};

    if (ea_adv) begin
        gt_valid <= 1'b1;
        gt_abs <= ea_abs;
        gt_tw <= ea_tws[16*ea_g0 +: GPB*16];
        gt_tail_off <= ea_tail_off;
        gt_tail_n <= ea_last ? hd_raw_len[1:0] : 2'd0;
        gt_bytes <= ea_bytes;
        gt_last <= ea_last;
        gt_chk <= ea_eb == 0 && !hd_bad;
        gt_need <= hd_need;
        gt_pay_abs <= hd_pay_abs;
        gt_pay_rel <= hd_pay_rel;
        gt_e <= hd_e;
        gt_seq <= hd_seq;
        gt_seg_first <= ea_eb == 0;
        gt_bad <= hd_bad;
        gt_fmt <= hd_fmt;
        gt_k <= hd_k;
    end else if (gate_go) begin
        gt_valid <= 1'b0;
    end
    // (each for both next entries, picked by ea_adv last: ea_adv, from
    // the gate, is not in front of the subtractions and compares)
    gt_av <= ea_adv ? written(hd_need) : written(gt_need);
    gt_end <= ea_adv ? ended(hd_seq) : ended(gt_seq);
    if (gate_go)
        gt_acc <= gt_last ? 1'b0 : gt_acc | gt_fmt;

    if (rst) begin
        hd_valid <= 1'b0;
        dq_rp <= 0;
        ea_eb <= 0;
        d_res <= 0;
        gt_valid <= 1'b0;
        gt_acc <= 1'b0;
    end
end

// ---- extractor: read, align, unpack, dequantize --------------------------------------

// P1: the bytes
wire [RW-1:0]   x_row = gt_abs[AW-1:LC];
wire [RW-1:0]   x_row1 = x_row + 1'b1;
wire [C*8-1:0]  x_r0, x_r1;             // the rows (the banks, below)
wire [XB*8-1:0] x_rd = win_down(x_r1, x_r0, gt_abs[LC-1:0]);

// ---- the ring: C banks of a byte -----------------------------------------------------
//
// Bank j holds byte j of every row. The writer (I1) writes a beat's bytes
// at its row, or the next below its offset; the chaser reads the rows of a
// segment's header (its row and the next), the extractor those of a raw
// beat's payloads. Reads are asynchronous (LUT RAM), in the reader's clock,
// as the flip-flop rows they replace were.

genvar gb;
generate
    for (gb = 0; gb < C; gb = gb + 1) begin : bank
        reg  [7:0] mem [0:BUF_ROWS-1];
        always @(posedge clk)
            if (w_we[gb])
                mem[w_lo[gb] ? w_row1 : w_row] <= w_data[8*gb +: 8];
        assign h_r0[8*gb +: 8] = mem[h_row];
        assign h_r1[8*gb +: 8] = mem[h_row1];
        assign x_r0[8*gb +: 8] = mem[x_row];
        assign x_r1[8*gb +: 8] = mem[x_row1];
    end
endgenerate

reg             p1_valid = 1'b0;
reg  [XB*8-1:0] p1_win = 0;
reg  [GPB*16-1:0] p1_tw = 0;
reg  [WB:0]     p1_tail_off = 0;
reg  [1:0]      p1_tail_n = 0;
reg  [WB:0]     p1_bytes = 0;
reg             p1_last = 1'b0, p1_err = 1'b0;
reg             p1_rel = 1'b0;         // release the segment's start
reg  [PW-1:0]   p1_pay_abs = 0;
reg  [4:0]      p1_k = 0;

always @(posedge clk) begin
    p1_valid <= gate_go;
    p1_win <= x_rd;
    p1_tw <= gt_tw;
    p1_tail_off <= gt_tail_off;
    p1_tail_n <= gt_tail_n;
    p1_bytes <= gt_bytes;
    p1_last <= gt_last;
    // the verdict: parameters, format, and the body's length
    p1_err <= gt_last && (gt_bad || gt_acc || gt_fmt ||
                          gt_blen != {1'b0, gt_e});
    p1_rel <= gt_seg_first && gt_rel_ok && !gt_bad;
    p1_pay_abs <= gt_pay_abs;
    p1_k <= gt_k;
    if (rst)
        p1_valid <= 1'b0;
end

// the segment's start may be released unless the body ended before it (a
// truncated body: the addresses past its end are not the body's). A body of
// 16384 bytes or more (bit 14) ends past every 14-bit offset; a body still
// coming has no length yet (its entry may hold an older chunk's)
function rel_ok;
    input [CQ_W-1:0] seq;
    input [13:0]     pay_rel;
    begin
        rel_ok = !(ended(seq) && !cq_blen[seq][14] && pay_rel > cq_blen[seq][13:0]);
    end
endfunction
always @(posedge clk)
    gt_rel_ok <= ea_adv ? rel_ok(hd_seq, hd_pay_rel) : rel_ok(gt_seq, gt_pay_rel);

// release what the extractor has read, and the queue entry of a chunk it
// has finished
wire [CQ_W:0]   rp_next = cq_rp + 1'b1;
always @(posedge clk) begin
    if (p1_valid && p1_last) begin
        rel_ptr <= rp_next != cq_wp ? cq_start[rp_next[CQ_W-1:0]] : wr_ptr;
        cq_rp <= rp_next;
    end else if (p1_valid && p1_rel) begin
        rel_ptr <= p1_pay_abs;
    end
    if (rst) begin
        rel_ptr <= 0;
        cq_rp <= 0;
    end
end

// P2: each group's payload and the tail
wire [23:0]     p1_tail_bytes = p1_win[{p1_tail_off, 3'd0} +: 24] &
                                ~(24'hffffff << {p1_tail_n, 3'd0});

reg             p2_valid = 1'b0;
reg  [GPB*256-1:0] p2_pay = 0;
reg  [GPB*16-1:0] p2_tw = 0;
reg  [23:0]     p2_tail = 0;
reg  [WB:0]     p2_bytes = 0;
reg             p2_last = 1'b0, p2_err = 1'b0;
reg  [4:0]      p2_k = 0;

// (each stage from here takes its data with the stage before's valid and
// holds it otherwise: what it holds while not valid is never read)
always @(posedge clk) begin
    p2_valid <= p1_valid;
    if (p1_valid) begin
        p2_pay[255:0] <= p1_win[255:0];
        p2_tw <= p1_tw;
        p2_tail <= p1_tail_bytes;
        p2_bytes <= p1_bytes;
        p2_last <= p1_last;
        p2_err <= p1_err;
        p2_k <= p1_k;
    end
    if (rst)
        p2_valid <= 1'b0;
end

// the second group's payload follows the first's (16 lanes)
generate
    if (GPB == 2) begin : pay1
        always @(posedge clk)
            if (p1_valid)
                p2_pay[511:256] <= p1_win[{1'b0, tw_bytes(p1_tw[15:0]), 3'd0} +: 256];
    end
endgenerate

// P3: unpacked; P3A: sign and magnitude (inc_dequant_abs); P4: dequantized
// (inc_dequant_norm); P5: into the output FIFO
reg             p3_valid = 1'b0, pa_valid = 1'b0, p4_valid = 1'b0;
reg  [LANES*32-1:0] p3_words = 0, pa_words = 0, p4_lanes = 0;
reg  [LANES*2-1:0] pa_kinds = 0;
reg  [GPB*16-1:0] p3_tw = 0;
reg  [23:0]     p3_tail = 0, pa_tail = 0, p4_tail = 0;
reg  [WB:0]     p3_bytes = 0, pa_bytes = 0, p4_bytes = 0;
reg             p3_last = 1'b0, p3_err = 1'b0, pa_last = 1'b0, pa_err = 1'b0;
reg             p4_last = 1'b0, p4_err = 1'b0;
reg  [4:0]      p3_k = 0, pa_k = 0;

// the stages' logic: inc_group_unpack, inc_dequant_abs and
// inc_dequant_norm as functions (inc_group_fns.vh), in the clocked block
`include "inc_group_fns.vh"

integer ug, ul;
always @(posedge clk) begin
    p3_valid <= p2_valid;
    if (p2_valid) begin
        for (ug = 0; ug < GPB; ug = ug + 1)
            p3_words[256*ug +: 256] <= group_unpack(p2_tw[16*ug +: 16], p2_pay[256*ug +: 256]);
        p3_tw <= p2_tw;
        p3_tail <= p2_tail;
        p3_bytes <= p2_bytes;
        p3_last <= p2_last;
        p3_err <= p2_err;
        p3_k <= p2_k;
    end

    pa_valid <= p3_valid;
    if (p3_valid) begin
        for (ul = 0; ul < LANES; ul = ul + 1)
            {pa_kinds[2*ul +: 2], pa_words[32*ul +: 32]} <=
                dequant_abs(p3_tw[2*ul +: 2], p3_words[32*ul +: 32]);
        pa_tail <= p3_tail;
        pa_bytes <= p3_bytes;
        pa_last <= p3_last;
        pa_err <= p3_err;
        pa_k <= p3_k;
    end

    p4_valid <= pa_valid;
    if (pa_valid) begin
        for (ul = 0; ul < LANES; ul = ul + 1)
            p4_lanes[32*ul +: 32] <= dequant_norm(pa_kinds[2*ul +: 2], pa_words[32*ul +: 32], pa_k);
        p4_tail <= pa_tail;
        p4_bytes <= pa_bytes;
        p4_last <= pa_last;
        p4_err <= pa_err;
    end
    if (rst) begin
        p3_valid <= 1'b0;
        pa_valid <= 1'b0;
        p4_valid <= 1'b0;
    end
end

// values in the beat; the tail bytes follow the last (there is none when
// the beat is full)
// the beat's bytes (a function: evaluated where the FIFO takes the beat)
function [LANES*32-1:0] beat_data;
    input [LANES*32-1:0] ln;
    input [23:0]         tail;
    input [WB:0]         nb;     // bytes; nb[WB]: W, a full beat
    integer v;
    begin
        for (v = 0; v < LANES; v = v + 1)
            beat_data[32*v +: 32] = nb[WB] || v[WB-3:0] < nb[WB-1:2] ?
                                    ln[32*v +: 32] : 32'd0;
        beat_data = beat_data | ({{(LANES*32-24){1'b0}}, tail} << {nb[WB-1:2], 5'd0});
    end
endfunction

reg  [LANES*32-1:0] f_data [0:OQ_N-1];
reg  [W-1:0]    f_keep [0:OQ_N-1];
reg             f_last [0:OQ_N-1];
reg             f_err [0:OQ_N-1];
reg  [OQ_W-1:0] f_wp = 0, f_rp = 0;
reg  [OQ_W:0]   f_cnt = 0;

wire pop = m_axis_tvalid && m_axis_tready;

assign m_axis_tvalid = f_cnt != 0;
assign m_axis_tdata = f_data[f_rp];
assign m_axis_tkeep = f_keep[f_rp];
assign m_axis_tlast = f_last[f_rp];
assign m_axis_tuser = f_err[f_rp];

always @(posedge clk) begin
    if (p4_valid) begin
        f_data[f_wp] <= p4_err ? {LANES*32{1'b0}} : beat_data(p4_lanes, p4_tail, p4_bytes);
        f_keep[f_wp] <= p4_err ? {W{1'b0}} : ~({W{1'b1}} << p4_bytes);
        f_last[f_wp] <= p4_last;
        f_err[f_wp] <= p4_err;
        f_wp <= f_wp + 1'b1;
    end
    if (pop)
        f_rp <= f_rp + 1'b1;
    f_cnt <= f_cnt + {{OQ_W{1'b0}}, p4_valid} - {{OQ_W{1'b0}}, pop};
    o_res <= o_res + {{OQ_W{1'b0}}, gate_go} - {{OQ_W{1'b0}}, pop};
    status_valid <= p4_valid && p4_last;
    status_error <= p4_valid && p4_last && p4_err;
    if (rst) begin
        f_wp <= 0;
        f_rp <= 0;
        f_cnt <= 0;
        o_res <= 0;
        status_valid <= 1'b0;
        status_error <= 1'b0;
    end
end

endmodule

`resetall
