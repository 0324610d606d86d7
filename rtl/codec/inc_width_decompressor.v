// SPDX-License-Identifier: MIT
/*
 * inc_width_decompressor: width mode's decompression engine (docs/codec.md,
 * section 12), 16 lanes: one group of 16 values a clock.
 *
 * Takes one chunk body per AXI4-Stream packet and emits the chunk's raw
 * bytes, bit-exact with inc_chunk_decode() of the C library (the golden
 * model, userspace/codec/chunk_width.c), or flags the chunk when the C
 * decoder rejects it. Ports and their rules are inc_decompressor's at
 * LANES = 16 (docs/rtl.md), for mode 3 only:
 *
 * s_axis (body): 128 bytes a beat, tkeep contiguous from byte 0 (any beat
 *   may be short); a body of 0 bytes is one beat with tkeep = 0. tuser on a
 *   chunk's first beat: [4:0] k (1..24), [6:5] mode (3), [20:7] raw_len.
 * m_axis (raw): 64 bytes a beat, ceil(raw_len / 64) beats (one with tkeep =
 *   0 for raw_len = 0); tuser[0] on the tlast beat: the chunk is malformed,
 *   and that beat then has tkeep = 0. A chunk with bad parameters (mode not
 *   3, k out of range, raw_len over 9000) is that one beat alone.
 * status_valid pulses once per chunk, with status_error.
 *
 * Structure. The serial part of decoding is finding the groups: a group
 * starts where the one before it ends, and its length is in its first 5
 * bytes (w, D, R and the masks: docs/codec.md). So the length is computed
 * ahead, for every byte of the body, as if a group started there:
 *   - writer: the body's beats packed into a ring of 128-byte rows; each
 *     chunk's body starts at a new row; a chunk queue holds each chunk's
 *     start, parameters and body length;
 *   - next table (N1..N4): for each row, once the row and the 6 bytes after
 *     it are written (or its chunk has ended), for each offset o of the row
 *     nx[o] = o + the length of a 16-value group at o, and sn[o] = where
 *     the first group of a segment whose mask byte is at o ends (o + 1 when
 *     the mask's bit 0 is clear), both relative to the row (0..230);
 *   - chaser: the loop. It holds the next table and bytes of the row it is
 *     in (A) and the next two (B, C: a group is at most 70 bytes, so two
 *     row crossings can come in two clocks) and of the next chunk's first
 *     row (P, so that a chunk starts without a bubble), filled by one row
 *     read a clock whose address comes from registers only. Per clock it
 *     takes one group: its start p, and p' = sn[p] at a segment's first
 *     group (the mask byte read at p), else nx[p] for a present group, p
 *     for an absent one; crossing into the next row moves the rows up. A
 *     128-way read and a choice: no adder in the loop. It writes a
 *     descriptor per group (and one for tail bytes that need a beat of
 *     their own, one for a chunk without groups); past the end of an ended
 *     body it follows no more pointers;
 *   - extractor (X1..X7): per descriptor, one clock each: the two rows at
 *     its start; the group's 106 bytes rotated out; its header (masks,
 *     ranks, counts, checks); its lengths; its fields unpacked at 1 + w
 *     bits and its RAW values and tail bytes placed; each lane's value
 *     chosen and checked; RAW values re-quantized (they must class RAW)
 *     and coded values made floats (inc_dequant_norm): an output beat into
 *     the output FIFO, which has a place promised for it before its
 *     descriptor is taken. The chunk's last beat waits there for its
 *     verdict: the body's length against the length its groups call for.
 * The last group of a chunk may be short (cnt < 16): its length is the
 * extractor's, not the table's, and nothing follows it in the chunk.
 * Bytes of a body past the length its groups call for are dropped once its
 * last beat has left.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_width_decompressor #
(
    // Rows of the body ring, 128 bytes each, a power of two, at least 16
    parameter BUF_ROWS = 16
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [1023:0]         s_axis_tdata,
    input  wire [127:0]          s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [20:0]           s_axis_tuser,

    output wire [511:0]          m_axis_tdata,
    output wire [63:0]           m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [0:0]            m_axis_tuser,

    output reg                   status_valid = 1'b0,
    output reg                   status_error = 1'b0
);

localparam C = 128;                    // body bytes a beat, and a row
localparam RW = $clog2(BUF_ROWS);      // row index
localparam AW = RW + 7;                // byte address in the ring
localparam PW = AW + 1;                // pointers: one more bit, for order
localparam XB = 106;                   // bytes a group may need: 101 + tail
localparam MAX_CHUNK = 9000;
localparam CQ_W = 5;                   // chunk queue: 32 chunks (tiny chunks back to back: about 20 in flight)
localparam CQ_N = 1 << CQ_W;
localparam integer CQ_MAX_I = CQ_N - 3;  // room for three more chunks' first beats
localparam integer ROWS_MAX_I = BUF_ROWS - 7;  // rows in use that leave room for 3 beats (below)
localparam [CQ_W:0] CQ_MAX = CQ_MAX_I[CQ_W:0];
localparam DQ_W = 4;                   // descriptor FIFO: 16
localparam DQ_N = 1 << DQ_W;
localparam OQ_W = 4;                   // output FIFO: 16 beats
localparam OQ_N = 1 << OQ_W;

// ---- helpers ----------------------------------------------------------------------

`include "inc_width_fns.vh"

// bytes in a contiguous tkeep
function [7:0] keep_count;
    input [C-1:0] keep;
    integer i;
    reg [C:0] ext;
    begin
        keep_count = 0;
        ext = {1'b0, keep};
        for (i = 1; i <= C; i = i + 1)
            if (ext[i - 1] && !ext[i])
                keep_count = keep_count | i[7:0];
    end
endfunction

// ---- I0: the input beat -----------------------------------------------------------

reg             in_ok = 1'b0;
reg             in_pkt = 1'b0;
reg             i0_valid = 1'b0;
reg  [C*8-1:0]  i0_data = 0;
reg  [7:0]      i0_nb = 0;
reg  [C-1:0]    i0_keep = 0;
reg             i0_first = 1'b0;
reg             i0_last = 1'b0;
reg  [20:0]     i0_user = 0;

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

// ---- chunk queue --------------------------------------------------------------------

reg  [PW-1:0]   cq_start [0:CQ_N-1];   // ring address of the body (a row's)
reg  [13:0]     cq_raw_len [0:CQ_N-1];
reg  [4:0]      cq_k [0:CQ_N-1];
reg             cq_bad [0:CQ_N-1];
reg  [14:0]     cq_blen [0:CQ_N-1];    // body bytes; bit 14: 16384 or more

reg  [CQ_W:0]   cq_wp = 0;             // next entry the writer fills
reg  [CQ_W:0]   cq_rp = 0;             // oldest (the output's)

// ---- I1: the writer ---------------------------------------------------------------------

reg  [C*8-1:0]  bufm [0:BUF_ROWS-1];
reg  [PW-1:0]   wr_ptr = 0;            // next byte
reg  [PW-1:0]   rel_ptr = 0;           // oldest byte still needed
reg  [CQ_W-1:0] w_seq = 0;             // the writer's chunk
reg  [CQ_W:0]   w_ptr = 0;             // ... with the order bit
reg             w_ended = 1'b1;        // ... its body has ended
reg  [14:0]     w_blen = 0;
reg             w_disc = 1'b0;         // ... the rest of its body is dropped
reg  [CQ_W:0]   x_done = 0;            // chunks whose last descriptor is taken

// a body starts at a row
wire [PW-1:0]   w_base = (i0_first && wr_ptr[6:0] != 7'd0) ?
                         {wr_ptr[PW-1:7] + 1'b1, 7'd0} : wr_ptr;
wire            w_en = i0_valid && (i0_first || !w_disc);
assign in_drop = w_disc && in_pkt && !(i0_valid && i0_first);
wire [6:0]      w_off = w_base[6:0];
wire [RW-1:0]   w_row = w_base[AW-1:7];
wire [RW-1:0]   w_row1 = w_row + 1'b1;
wire [2*C*8-1:0] w_wide = {{C*8{1'b0}}, i0_data} << {w_off, 3'd0};
wire [2*C-1:0]  w_msk = {{C{1'b0}}, i0_keep} << w_off;
wire [14:0]     w_blen_sum = {1'b0, w_blen[13:0]} + {7'd0, i0_nb};
wire [14:0]     w_blen_next = i0_first ? {7'd0, i0_nb} :
                              w_blen[14] ? w_blen : w_blen_sum;
wire [13:0]     u_raw_len = i0_user[20:7];
wire [1:0]      u_mode = i0_user[6:5];
wire [4:0]      u_k = i0_user[4:0];

wire [2*C*8-1:0] w_bits;
genvar gb;
generate
    for (gb = 0; gb < 2 * C; gb = gb + 1) begin : byte_mask
        assign w_bits[8*gb +: 8] = {8{w_msk[gb]}};
    end
endgenerate

always @(posedge clk) begin
    if (w_en) begin
        bufm[w_row] <= (bufm[w_row] & ~w_bits[C*8-1:0]) |
                       (w_wide[C*8-1:0] & w_bits[C*8-1:0]);
        bufm[w_row1] <= (bufm[w_row1] & ~w_bits[2*C*8-1:C*8]) |
                        (w_wide[2*C*8-1:C*8] & w_bits[2*C*8-1:C*8]);
    end
end

// the extractor has taken the writer's chunk's last descriptor (x_done is
// past it): it has read all the bytes it will, the rest is dropped (its
// length still counts, for the verdict)
wire [CQ_W:0] w_out_d = x_done - w_ptr - 1'b1;
wire          w_out = !w_out_d[CQ_W];

// rows in use: the writer's, from the oldest needed; room for three more
// beats of two rows each (the one in I0, the one tready lets in, the next)
wire [PW-8:0] used = wr_ptr[PW-1:7] - rel_ptr[PW-1:7];
// (sized: a comparison with an integer would be 32 bits wide, a carry
// chain of 32 where 5 bits are compared)
localparam [PW-8:0] ROWS_MAX = ROWS_MAX_I[PW-8:0];
wire [CQ_W:0] cq_used = cq_wp - cq_rp;   // chunks in the queue

always @(posedge clk) begin
    if (w_en)
        wr_ptr <= w_base + {{(PW-8){1'b0}}, i0_nb};
    if (i0_valid) begin
        w_blen <= w_blen_next;
        if (i0_last) begin
            cq_blen[i0_first ? cq_wp[CQ_W-1:0] : w_seq] <= w_blen_next;
            w_ended <= 1'b1;
        end
        if (i0_first) begin
            cq_start[cq_wp[CQ_W-1:0]] <= w_base;
            cq_raw_len[cq_wp[CQ_W-1:0]] <= u_raw_len;
            cq_k[cq_wp[CQ_W-1:0]] <= u_k;
            cq_bad[cq_wp[CQ_W-1:0]] <= u_mode != 2'd3 || u_k < 5'd1 ||
                                        u_k > 5'd24 || u_raw_len > MAX_CHUNK;
            w_seq <= cq_wp[CQ_W-1:0];
            w_ptr <= cq_wp;
            w_ended <= i0_last;
            cq_wp <= cq_wp + 1'b1;
        end
    end
    // the writer's chunk has had its last beat out: drop the rest
    w_disc <= !(i0_valid && i0_first) && !w_ended && w_out;
    in_ok <= used <= ROWS_MAX && cq_used <= CQ_MAX;
    if (rst) begin
        wr_ptr <= 0;
        cq_wp <= 0;
        w_seq <= 0;
        w_ptr <= 0;
        w_ended <= 1'b1;
        w_disc <= 1'b0;
        in_ok <= 1'b0;
    end
end

// a chunk's body has ended
function ended;
    input [CQ_W-1:0] seq;
    begin
        ended = seq != w_seq || w_ended;
    end
endfunction

// bytes below address a are written (a at most a ring ahead)
function written;
    input [PW-1:0] a;
    reg [PW-1:0] d;
    begin
        d = wr_ptr - a;
        written = !d[PW-1];
    end
endfunction

// ---- the next table: N1 (read), N2 (fields), N3 (lengths), N4 (write) -------------

reg  [PW-8:0]   n_row = 0;             // next row to compute, with the order bit
reg  [C*16-1:0] nxm [0:BUF_ROWS-1];    // {sn, nx} of each byte of a row

wire [PW-1:0]   n_addr = {n_row, 7'd0};
// the writer's chunk started after the row: the row is further from the
// write pointer than the chunk's bytes so far (a body may be longer than
// the ring, so addresses alone cannot tell)
wire [PW-1:0]   n_dist = wr_ptr - n_addr;
wire            n_after = {{(15-PW){1'b0}}, n_dist} > w_blen;
wire [PW-1:0]   n_lag = rel_ptr - n_addr - 1'b1;  // released: skip it
wire            n_behind = !n_lag[PW-1];
// every byte of the row and the 5 after it that will come is there: they
// are written, or the row's chunk has ended
wire            n_in = !n_behind && written(n_addr + 1'b1) &&
                       (written(n_addr + 133) || w_ended || n_after);
wire [RW-1:0]   n_ri = n_row[RW-1:0];
wire [RW-1:0]   n_ri1 = n_ri + 1'b1;

reg             n1_valid = 1'b0;
reg  [RW-1:0]   n1_ri = 0;
reg  [136*8-1:0] n1_bytes = 0;         // the row and 8 bytes of the next

always @(posedge clk) begin
    n1_valid <= n_in;
    if (n_behind)
        n_row <= rel_ptr[PW-1:7];
    else if (n_in)
        n_row <= n_row + 1'b1;
    n1_ri <= n_ri;
    // (the bytes of a clock without a row are never used: N2 to N4 take
    // their inputs on valid only)
    if (n_in)
        n1_bytes <= {bufm[n_ri1][8*8-1:0], bufm[n_ri]};
    if (rst) begin
        n_row <= 0;
        n1_valid <= 1'b0;
    end
end

// N2: the fields of a 16-value group at each offset o (0..128):
// {h, w, m, nraw}, 6 + 4 + 5 + 5 bits each offset, in that order from bit 0
integer          no;
function [129*20-1:0] n_fields;
    input [136*8-1:0] b;               // the row and the bytes after it
    integer o;
    reg [37:0] x;
    reg [15:0] cm, rm;
    reg [4:0]  nraw;
    begin
        for (o = 0; o <= C; o = o + 1) begin
            x = b[8*o +: 38];
            cm = x[4] ? 16'd0 : x[21:6];
            rm = !x[5] ? 16'd0 : x[4] ? x[21:6] : x[37:22];
            nraw = pc16(rm);
            n_fields[20*o +: 20] = {nraw, x[4] ? 5'd16 - nraw : pc16(cm), x[3:0],
                                    6'd6 + (x[4] ? 6'd0 : 6'd16) + (x[5] ? 6'd16 : 6'd0)};
        end
    end
endfunction

reg             n2_valid = 1'b0;
reg  [RW-1:0]   n2_ri = 0;
reg  [128:0]    n2_mb0 = 0;            // bit 0 of each byte (a mask's group 0)
reg  [129*20-1:0] n2_f = 0;          // n_fields

always @(posedge clk) begin
    n2_valid <= n1_valid;
    n2_ri <= n1_ri;
    if (n1_valid) begin
        for (no = 0; no <= C; no = no + 1)
            n2_mb0[no] <= n1_bytes[8*no];
        n2_f <= n_fields(n1_bytes);
    end
    if (rst)
        n2_valid <= 1'b0;
end

// N3: bytes of the group: ceil((h + m (1 + w)) / 8) + 4 nraw, at most 102
function [129*7-1:0] n_lens;
    input [129*20-1:0] f;
    integer o;
    reg [8:0] t;
    begin
        for (o = 0; o <= C; o = o + 1) begin
            t = {3'd0, f[20*o +: 6]} +
                {4'd0, f[20*o + 10 +: 5]} * ({5'd0, f[20*o + 6 +: 4]} + 9'd1);
            n_lens[7*o +: 7] = {1'b0, t[8:3]} + {6'd0, t[2:0] != 3'd0} +
                               {f[20*o + 15 +: 5], 2'd0};
        end
    end
endfunction

reg             n3_valid = 1'b0;
reg  [RW-1:0]   n3_ri = 0;
reg  [128:0]    n3_mb0 = 0;
reg  [129*7-1:0] n3_len = 0;

always @(posedge clk) begin
    n3_valid <= n2_valid;
    n3_ri <= n2_ri;
    if (n2_valid) begin
        n3_mb0 <= n2_mb0;
        n3_len <= n_lens(n2_f);
    end
    if (rst)
        n3_valid <= 1'b0;
end

// N4: nx and sn, relative to the row (0..230), into the table
function [C*16-1:0] n_table;
    input [C:0] mb0;                   // (bit C: no offset of the row)
    input [129*7-1:0] len;
    integer o;
    reg [7:0] o8;
    begin
        for (o = 0; o < C; o = o + 1) begin
            o8 = o[7:0];
            n_table[16*o +: 16] = {
                mb0[o] ? o8 + 8'd1 + {1'b0, len[7*(o+1) +: 7]} : o8 + 8'd1,
                o8 + {1'b0, len[7*o +: 7]}};
        end
    end
endfunction

always @(posedge clk) begin
    if (n3_valid)
        nxm[n3_ri] <= n_table(n3_mb0, n3_len);
end

// rows of the table written: n_row, four clocks late
reg  [PW-8:0]   n_d1 = 0, n_d2 = 0, n_d3 = 0, n_done = 0;
always @(posedge clk) begin
    n_d1 <= n_row;
    n_d2 <= n_d1;
    n_d3 <= n_d2;
    n_done <= n_d3;
    if (rst) begin
        n_d1 <= 0;
        n_d2 <= 0;
        n_d3 <= 0;
        n_done <= 0;
    end
end

// row r's table is written
function avail;
    input [PW-8:0] r;
    reg [PW-8:0] d;
    begin
        d = n_done - r - 1'b1;
        avail = !d[PW-8];
    end
endfunction

// ---- chaser ------------------------------------------------------------------------

localparam K_GRP = 2'd0, K_TAIL = 2'd1, K_BAD = 2'd2;

reg  [CQ_W:0]   ch_ptr = 0;            // its chunk
reg             ch_have = 1'b0;
reg  [PW-8:0]   ch_row = 0;            // row A
reg  [6:0]      ch_p = 0;              // where the next group (or mask) is in A
reg  [6:0]      ch_rel = 0;            // A's row in the body
reg  [8:0]      ch_left = 0;           // descriptors left
reg  [7:0]      ch_gidx = 0;           // the next group
reg  [7:0]      ch_groups = 0;
reg  [2:0]      ch_gi = 0;             // its place in its segment
reg  [7:0]      ch_mask = 0;
reg             ch_bad = 1'b0;
reg             ch_past = 1'b0;        // past the body's end
// rows A (the group's), B and C (the next two: two rows can be crossed in
// two clocks), and P, the next chunk's first: table and bytes
reg             a_ok = 1'b0, b_ok = 1'b0, c_ok = 1'b0, pf_ok = 1'b0;
reg  [C*16-1:0] a_nx = 0, b_nx = 0, c_nx = 0, pf_nx = 0;
reg  [C*8-1:0]  a_d = 0, b_d = 0, c_d = 0, pf_d = 0;
reg  [CQ_W:0]   pf_for = 0;            // P's chunk
// rows from A on that may hold bytes of the chunk (a clock late)
reg             r0_in = 1'b0, r1_in = 1'b0, r2_in = 1'b0;

// descriptor FIFO
localparam DW = 2 + 1 + 1 + 1 + 1 + CQ_W + (PW-7) + 8 + 7;
reg  [DW-1:0]   dq [0:DQ_N-1];
reg  [DQ_W:0]   dq_wp = 0, dq_rp = 0;
wire [DQ_W:0]   dq_used = dq_wp - dq_rp;
wire            dq_room = !dq_used[DQ_W];

wire [CQ_W-1:0] ch_i = ch_ptr[CQ_W-1:0];
wire            ch_end = ended(ch_i);
wire [14:0]     ch_blen = cq_blen[ch_i];
wire [15:0]     e_nx = a_nx[16*ch_p +: 16];
wire [7:0]      e_mb = a_d[8*ch_p +: 8];
wire            e_grp = !ch_bad && ch_gidx != ch_groups;
wire            e_seg0 = ch_gi == 3'd0;
wire [7:0]      e_mask = e_seg0 ? e_mb : ch_mask;
wire            e_pres = e_mask[ch_gi];
// the bytes at p are past the body's end (known once it has ended). The
// comparisons are a clock late (registers below, from the position before
// the last step: p only grows, so a late answer is a smaller one), which
// keeps them out of the loop; what they miss, the chunk's length check
// finds
reg             past_q = 1'b0;         // at or past the end
reg             endb_q = 1'b0;         // the body ends before A's next row
wire            e_past = ch_past || past_q;
// a group's presence off the segment's first: a register's bit
wire            e_pres_n = ch_mask[ch_gi];
wire [7:0]      e_next = (!e_grp || e_past) ? {1'b0, ch_p} :
                         e_seg0 ? e_nx[15:8] : e_pres_n ? e_nx[7:0] : {1'b0, ch_p};
wire            e_adv = e_next[7];
// a body that ends before the next row: past it, no row to wait for
wire            e_end_b = endb_q;
wire [7:0]      e_sg = ch_groups - ch_gidx;  // groups from here to the end
wire [7:0]      e_sgm = e_sg >= 8'd8 ? 8'hff : ~(8'hff << e_sg[2:0]);
wire            e_mask_err = e_grp && e_seg0 && !e_past && (e_mb & ~e_sgm) != 8'd0;
wire            e_need_a = e_grp && !e_past;
// the step reads bytes at p: a mask byte, or a present group (what a
// descriptor past the end flags; an absent group or the tail reads none)
wire            e_reads = e_grp && (e_seg0 || e_pres);
wire            e_step = ch_have && ch_left != 0 && dq_room &&
                         (!e_need_a || a_ok) && (!e_adv || b_ok || e_end_b);
wire [7:0]      e_start = {1'b0, ch_p} + {7'd0, e_grp && e_seg0};
wire [1:0]      e_kind = ch_bad ? K_BAD : e_grp ? K_GRP : K_TAIL;
wire            e_last = ch_left == 9'd1;

// the one row read of the table and the ring a clock, from registers
// only: the first of A, B, C missing (and within the chunk), else P (the
// next chunk's first row, once this one needs no more), else the row after
// C (for C when the loop moves up a row)
wire [CQ_W:0]   pf_want_for = ch_have ? ch_ptr + 1'b1 : ch_ptr;
wire            pf_want = pf_want_for != cq_wp && !(pf_ok && pf_for == pf_want_for);
wire [2:0]      rd_sel = (ch_have && !a_ok && r0_in) ? 3'd0 :
                         (ch_have && !b_ok && r1_in) ? 3'd1 :
                         (ch_have && !c_ok && r2_in) ? 3'd2 :
                         pf_want ? 3'd3 : 3'd4;
wire [PW-8:0]   pf_row = cq_start[pf_want_for[CQ_W-1:0]][PW-1:7];
wire [PW-8:0]   rd_row = rd_sel == 3'd3 ? pf_row :
                         ch_row + {{(PW-10){1'b0}}, rd_sel[1:0] == 2'd0 && rd_sel[2] ? 3'd3 :
                                   {1'b0, rd_sel[1:0]}};
wire [C*16-1:0] rd_nx = nxm[rd_row[RW-1:0]];
wire [C*8-1:0]  rd_d = bufm[rd_row[RW-1:0]];
wire            rd_ok = avail(rd_row);

// the next chunk, from the queue
wire [CQ_W:0]   nx_ptr = ch_have ? ch_ptr + 1'b1 : ch_ptr;
wire [CQ_W-1:0] nx_i = nx_ptr[CQ_W-1:0];
wire [13:0]     nx_raw = cq_raw_len[nx_i];
wire [11:0]     nx_n = nx_raw[13:2];
wire [7:0]      nx_groups = nx_n[11:4] + {7'd0, nx_n[3:0] != 4'd0};
wire            nx_tail = nx_n[3:0] == 4'd0 && (nx_raw[1:0] != 2'd0 || nx_n == 12'd0);
wire            nx_end = ended(nx_i);
wire            nx_rows = !cq_bad[nx_i] && nx_groups != 8'd0;
wire [14:0]     nx_blen = cq_blen[nx_i];
wire            ch_done = !ch_have || (ch_left == 9'd0) || (e_step && e_last);

always @(posedge clk) begin
    if (e_step) begin
        dq[dq_wp[DQ_W-1:0]] <= {e_kind, e_grp && e_pres, e_past && e_reads, e_mask_err, e_last,
                                ch_i, ch_row, e_start, ch_rel};
        dq_wp <= dq_wp + 1'b1;
        ch_left <= ch_left - 1'b1;
        if (e_grp) begin
            ch_gidx <= ch_gidx + 1'b1;
            ch_gi <= ch_gi + 1'b1;
            ch_mask <= e_mask;
        end
        if (e_past)
            ch_past <= 1'b1;
        if (e_adv && !b_ok)
            ch_past <= 1'b1;
        ch_p <= e_next[6:0];
    end
    // rows: moved up a row (B and C come down; the read fills the first
    // missing one), or the read into the slot it is for
    if (e_step && e_adv && !b_ok) begin
        // past the end of the body: the position moves on (the chunk's
        // length is measured from it), the rows are not needed
        ch_row <= ch_row + 1'b1;
        ch_rel <= ch_rel + 1'b1;
        a_ok <= 1'b0;
        c_ok <= 1'b0;
    end else if (e_step && e_adv) begin
        ch_row <= ch_row + 1'b1;
        ch_rel <= ch_rel + 1'b1;
        a_nx <= b_nx;
        a_d <= b_d;
        b_ok <= c_ok || (rd_sel == 3'd2 && rd_ok);
        b_nx <= c_ok ? c_nx : rd_nx;
        b_d <= c_ok ? c_d : rd_d;
        c_ok <= c_ok && rd_sel == 3'd4 && rd_ok;
        c_nx <= rd_nx;
        c_d <= rd_d;
    end else begin
        if (rd_sel == 3'd0) begin
            a_ok <= rd_ok;
            a_nx <= rd_nx;
            a_d <= rd_d;
        end
        if (rd_sel == 3'd1) begin
            b_ok <= rd_ok;
            b_nx <= rd_nx;
            b_d <= rd_d;
        end
        if (rd_sel == 3'd2) begin
            c_ok <= rd_ok;
            c_nx <= rd_nx;
            c_d <= rd_d;
        end
    end
    if (rd_sel == 3'd3) begin
        pf_ok <= rd_ok;
        pf_for <= pf_want_for;
        pf_nx <= rd_nx;
        pf_d <= rd_d;
    end
    past_q <= ch_end && !ch_blen[14] && {1'b0, ch_rel, ch_p} >= ch_blen;
    endb_q <= ch_end && !ch_blen[14] && {1'b0, ch_rel + 7'd1, 7'd0} >= ch_blen;
    r0_in <= !(ch_end && !ch_blen[14] && {1'b0, ch_rel, 7'd0} >= ch_blen);
    r1_in <= !(ch_end && !ch_blen[14] && {1'b0, ch_rel + 7'd1, 7'd0} >= ch_blen);
    r2_in <= !(ch_end && !ch_blen[14] && {1'b0, ch_rel + 7'd2, 7'd0} >= ch_blen);
    if (ch_done && nx_ptr != cq_wp) begin
        ch_ptr <= nx_ptr;
        ch_have <= 1'b1;
        ch_row <= cq_start[nx_i][PW-1:7];
        ch_p <= 0;
        ch_rel <= 0;
        ch_gidx <= 0;
        ch_gi <= 0;
        ch_mask <= 0;
        ch_groups <= nx_groups;
        ch_bad <= cq_bad[nx_i];
        ch_left <= cq_bad[nx_i] ? 9'd1 : {1'b0, nx_groups} + {8'd0, nx_tail};
        ch_past <= 1'b0;
        past_q <= 1'b0;
        endb_q <= 1'b0;
        // P, if it was fetched for this chunk (or is being read now), is
        // its A
        if (pf_ok && pf_for == nx_ptr) begin
            a_ok <= 1'b1;
            a_nx <= pf_nx;
            a_d <= pf_d;
        end else begin
            a_ok <= rd_sel == 3'd3 && pf_want_for == nx_ptr && rd_ok;
            a_nx <= rd_nx;
            a_d <= rd_d;
        end
        b_ok <= 1'b0;
        c_ok <= 1'b0;
        pf_ok <= 1'b0;
        // rows it reads: none without groups; as far as its body goes
        r0_in <= nx_rows && !(nx_end && nx_blen == 15'd0);
        r1_in <= nx_rows && !(nx_end && !nx_blen[14] && nx_blen <= 15'd128);
        r2_in <= nx_rows && !(nx_end && !nx_blen[14] && nx_blen <= 15'd256);
    end else if (ch_done) begin
        ch_ptr <= nx_ptr;
        ch_have <= 1'b0;
    end
    if (rst) begin
        ch_ptr <= 0;
        ch_have <= 1'b0;
        ch_left <= 0;
        a_ok <= 1'b0;
        b_ok <= 1'b0;
        c_ok <= 1'b0;
        pf_ok <= 1'b0;
        dq_wp <= 0;
    end
end

// ---- extractor ----------------------------------------------------------------------

// output FIFO places promised: beats in X1..X8 and in the FIFO
reg  [OQ_W:0]   oq_res = 0;
wire            o_pop;

wire [DW-1:0]   dh = dq[dq_rp[DQ_W-1:0]];
wire [1:0]      dh_kind = dh[DW-1 -: 2];
wire            dh_past = dh[DW-4];
wire [CQ_W-1:0] dh_seq = dh[15 + PW-7 +: CQ_W];
wire [PW-8:0]   dh_row = dh[15 +: PW-7];
wire [7:0]      dh_start = dh[7 +: 8];
wire [PW-1:0]   dh_abs = {dh_row, 7'd0} + {{(PW-8){1'b0}}, dh_start};
wire            dh_last = dh[DW-6];
wire [CQ_W-1:0] dh_next = dh_seq + 1'b1;
wire [PW-1:0]   dh_next_at = dh_next != cq_wp[CQ_W-1:0] ? cq_start[dh_next] :
                             {wr_ptr[PW-1:7], 7'd0};
wire [RW-1:0]   dh_ri = dh_row[RW-1:0];
wire [RW-1:0]   dh_ri1 = dh_ri + 1'b1;
// its bytes are there (or its body has ended: what is missing is missing)
wire            x_take = dq_wp != dq_rp && oq_res != OQ_N &&
                         (dh_kind == K_BAD || dh_past || ended(dh_seq) ||
                          written(dh_abs + XB));

// X1: the two rows at the group's start, the chunk's parameters
reg             x1_valid = 1'b0;
reg  [DW-1:0]   x1_d = 0;
reg  [2*C*8-1:0] x1_pair = 0;
reg  [5:0]      x1_raw = 0;          // raw_len's low bits: the last group, tail
reg  [4:0]      x1_k = 0;

always @(posedge clk) begin
    x1_valid <= x_take;
    if (x_take) begin
        dq_rp <= dq_rp + 1'b1;
        x1_d <= dh;
        x1_pair <= {bufm[dh_ri1], bufm[dh_ri]};
        x1_raw <= cq_raw_len[dh_seq][5:0];
        x1_k <= cq_k[dh_seq];
        // rows below the descriptor's are done with; after a chunk's last,
        // all up to the next chunk (what lies between is the rest of a
        // body too long, which must not hold the writer up)
        rel_ptr <= dh_last ? dh_next_at : {dh_row, 7'd0};
        if (dh_last)
            x_done <= x_done + 1'b1;
    end else if (cq_used == 0) begin
        // no chunk left: what is written is the rest of a dropped body
        rel_ptr <= {wr_ptr[PW-1:7], 7'd0};
    end
    if (rst) begin
        x1_valid <= 1'b0;
        dq_rp <= 0;
        rel_ptr <= 0;
        x_done <= 0;
    end
end

wire [1:0]      x1_kind = x1_d[DW-1 -: 2];
wire            x1_pres = x1_d[DW-3];
wire            x1_past = x1_d[DW-4];
wire            x1_merr = x1_d[DW-5];
wire            x1_last = x1_d[DW-6];
wire [CQ_W-1:0] x1_seq = x1_d[15 + PW-7 +: CQ_W];
wire [7:0]      x1_start = x1_d[7 +: 8];
wire [6:0]      x1_rel = x1_d[6:0];
wire [3:0]      x1_n = x1_raw[5:2];     // values in a short last group

// X2: the group's bytes from its start
reg             x2_valid = 1'b0;
reg  [1:0]      x2_kind = 0;
reg             x2_pres = 1'b0, x2_err = 1'b0, x2_last = 1'b0;
reg  [CQ_W-1:0] x2_seq = 0;
reg  [14:0]     x2_at = 0;             // its start in the body
reg  [4:0]      x2_cnt = 0;            // values in the group (1..16)
reg  [1:0]      x2_t = 0;              // tail bytes (on the last)
reg  [4:0]      x2_k = 0;
reg  [XB*8-1:0] x2_str = 0;

always @(posedge clk) begin
    x2_valid <= x1_valid;
    x2_kind <= x1_kind;
    x2_pres <= x1_pres && !x1_past;
    x2_err <= x1_past || x1_merr || x1_kind == K_BAD;
    x2_last <= x1_last;
    x2_seq <= x1_seq;
    x2_at <= {1'b0, x1_rel, 7'd0} + {7'd0, x1_start};
    x2_cnt <= x1_kind != K_GRP ? 5'd0 :
              (x1_last && x1_n != 4'd0) ? {1'b0, x1_n} : 5'd16;
    x2_t <= x1_raw[1:0];
    x2_k <= x1_k;
    // (a stage without a group: its bytes are never used; X3 to X8 take
    // their wide inputs on valid only)
    if (x1_valid)
        x2_str <= x1_pair[{x1_start, 3'd0} +: XB*8];
    if (rst)
        x2_valid <= 1'b0;
end

// X3: the header: masks, the coded set, ranks, counts
wire [3:0]      h_w = x2_str[3:0];
wire            h_d = x2_str[4];
wire            h_r = x2_str[5];
wire [15:0]     h_f1 = x2_str[21:6];
wire [15:0]     h_f2 = x2_str[37:22];
wire [15:0]     h_vm = ~(16'hffff << x2_cnt);
wire [15:0]     h_cm = h_d ? 16'd0 : h_f1;
wire [15:0]     h_rm = !h_r ? 16'd0 : h_d ? h_f1 : h_f2;
wire [15:0]     h_coded = h_d ? h_vm & ~h_rm : h_cm;
wire            h_err = x2_pres && (((h_cm | h_rm) & ~h_vm) != 16'd0 ||
                                    (h_cm & h_rm) != 16'd0 || (h_r && h_rm == 16'd0));

reg             x3_valid = 1'b0;
reg  [1:0]      x3_kind = 0;
reg             x3_pres = 1'b0, x3_err = 1'b0, x3_last = 1'b0;
reg  [CQ_W-1:0] x3_seq = 0;
reg  [14:0]     x3_at = 0;
reg  [4:0]      x3_cnt = 0;
reg  [1:0]      x3_t = 0;
reg  [4:0]      x3_k = 0;
reg  [XB*8-1:0] x3_str = 0;
reg  [3:0]      x3_w = 0;
reg             x3_d = 1'b0;
reg  [1:0]      x3_hc = 0;             // header: 6, 22 or 38 bits
reg  [15:0]     x3_coded = 0, x3_rm = 0;
reg  [63:0]     x3_rk = 0, x3_rr = 0;
reg  [4:0]      x3_m = 0, x3_nraw = 0;

always @(posedge clk) begin
    x3_valid <= x2_valid;
    x3_kind <= x2_kind;
    x3_pres <= x2_pres;
    x3_err <= x2_err || h_err;
    x3_last <= x2_last;
    x3_seq <= x2_seq;
    x3_at <= x2_at;
    x3_cnt <= x2_cnt;
    x3_t <= x2_t;
    x3_k <= x2_k;
    x3_str <= x2_str;
    x3_w <= h_w;
    x3_d <= h_d;
    x3_hc <= {1'b0, !h_d} + {1'b0, h_r};
    x3_coded <= x2_pres ? h_coded : 16'd0;
    x3_rm <= x2_pres ? h_rm : 16'd0;
    x3_rk <= ranks(h_coded[14:0]);
    x3_rr <= ranks(h_rm[14:0]);
    x3_m <= pc16(x2_pres ? h_coded : 16'd0);
    x3_nraw <= pc16(x2_pres ? h_rm : 16'd0);
    if (rst)
        x3_valid <= 1'b0;
end

// X4: the string's bits, the fields unpacked: field j of 1 + w bits at bit
// 6 + 16 hc + j (1 + w) of the string, into slot j (16 bits, zero-extended).
// A choice among 3 x 16 fixed wirings (the header's length, then w): the
// fields of each wiring are constant part-selects.

// the 16 fields of W bits packed from bit 0 of s (W a constant at each call)
function [255:0] u_fields;
    input [255:0] s;
    input integer W;
    integer j;
    begin
        for (j = 0; j < 16; j = j + 1)
            u_fields[16*j +: 16] = s[W*j +: 16] & (16'hffff >> (16 - W));
    end
endfunction

// str: the string's bits 293:6, after w, D and R
function [255:0] u_unpack;
    input [287:0] str;
    input [3:0] w;
    input [1:0] hc;
    reg [255:0] s;
    begin
        case (hc)
            2'd0:    s = str[0 +: 256];
            2'd1:    s = str[16 +: 256];
            default: s = str[32 +: 256];
        endcase
        case (w)
            4'd0:    u_unpack = u_fields(s, 1);
            4'd1:    u_unpack = u_fields(s, 2);
            4'd2:    u_unpack = u_fields(s, 3);
            4'd3:    u_unpack = u_fields(s, 4);
            4'd4:    u_unpack = u_fields(s, 5);
            4'd5:    u_unpack = u_fields(s, 6);
            4'd6:    u_unpack = u_fields(s, 7);
            4'd7:    u_unpack = u_fields(s, 8);
            4'd8:    u_unpack = u_fields(s, 9);
            4'd9:    u_unpack = u_fields(s, 10);
            4'd10:   u_unpack = u_fields(s, 11);
            4'd11:   u_unpack = u_fields(s, 12);
            4'd12:   u_unpack = u_fields(s, 13);
            4'd13:   u_unpack = u_fields(s, 14);
            4'd14:   u_unpack = u_fields(s, 15);
            default: u_unpack = u_fields(s, 16);
        endcase
        if (hc == 2'd3)         // (a header is 6, 22 or 38 bits)
            u_unpack = 0;
    end
endfunction

reg             x4_valid = 1'b0;
reg  [1:0]      x4_kind = 0;
reg             x4_pres = 1'b0, x4_err = 1'b0, x4_last = 1'b0;
reg  [CQ_W-1:0] x4_seq = 0;
reg  [14:0]     x4_at = 0;
reg  [4:0]      x4_cnt = 0;
reg  [1:0]      x4_t = 0;
reg  [4:0]      x4_k = 0;
reg  [XB*8-1:0] x4_str = 0;
reg  [3:0]      x4_w = 0;
reg             x4_d = 1'b0;
reg  [15:0]     x4_coded = 0, x4_rm = 0;
reg  [63:0]     x4_rk = 0, x4_rr = 0;
reg  [4:0]      x4_nraw = 0;
reg  [255:0]    x4_slots = 0;
reg  [8:0]      x4_bits = 0;           // the string's length in bits

always @(posedge clk) begin
    x4_valid <= x3_valid;
    x4_kind <= x3_kind;
    x4_pres <= x3_pres;
    x4_err <= x3_err;
    x4_last <= x3_last;
    x4_seq <= x3_seq;
    x4_at <= x3_at;
    x4_cnt <= x3_cnt;
    x4_t <= x3_t;
    x4_k <= x3_k;
    x4_str <= x3_str;
    x4_w <= x3_w;
    x4_d <= x3_d;
    x4_coded <= x3_coded;
    x4_rm <= x3_rm;
    x4_rk <= x3_rk;
    x4_rr <= x3_rr;
    x4_nraw <= x3_nraw;
    // (slots a stage without a group holds are never used)
    if (x3_valid)
        x4_slots <= u_unpack(x3_str[293:6], x3_w, x3_hc);
    x4_bits <= 9'd6 + {3'd0, x3_hc, 4'd0} +
               {4'd0, x3_m} * ({5'd0, x3_w} + 9'd1);
    if (rst)
        x4_valid <= 1'b0;
end

// X5: bytes of the string, the RAW values after them, the padding
wire [5:0]      p_b1 = x4_bits[8:3] + {5'd0, x4_bits[2:0] != 3'd0};
wire [7:0]      p_byte = x4_str[{1'b0, x4_bits[8:3], 3'd0} +: 8];
wire            p_pad_err = x4_pres && x4_bits[2:0] != 3'd0 &&
                            (p_byte >> x4_bits[2:0]) != 8'd0;

reg             x5_valid = 1'b0;
reg  [1:0]      x5_kind = 0;
reg             x5_pres = 1'b0, x5_err = 1'b0, x5_last = 1'b0;
reg  [CQ_W-1:0] x5_seq = 0;
reg  [14:0]     x5_at = 0;
reg  [4:0]      x5_cnt = 0;
reg  [1:0]      x5_t = 0;
reg  [4:0]      x5_k = 0;
reg  [XB*8-1:0] x5_str = 0;
reg  [3:0]      x5_w = 0;
reg             x5_d = 1'b0;
reg  [15:0]     x5_coded = 0, x5_rm = 0;
reg  [63:0]     x5_rk = 0, x5_rr = 0;
reg  [4:0]      x5_nraw = 0;
reg  [255:0]    x5_slots = 0;
reg  [511:0]    x5_raw = 0;            // the RAW values, in order
reg  [6:0]      x5_len = 0;            // the group's bytes

always @(posedge clk) begin
    x5_valid <= x4_valid;
    x5_kind <= x4_kind;
    x5_pres <= x4_pres;
    x5_err <= x4_err || p_pad_err;
    x5_last <= x4_last;
    x5_seq <= x4_seq;
    x5_at <= x4_at;
    x5_cnt <= x4_cnt;
    x5_t <= x4_t;
    x5_k <= x4_k;
    x5_str <= x4_str;
    x5_w <= x4_w;
    x5_d <= x4_d;
    x5_coded <= x4_coded;
    x5_rm <= x4_rm;
    x5_rk <= x4_rk;
    x5_rr <= x4_rr;
    x5_nraw <= x4_nraw;
    x5_slots <= x4_slots;
    if (x4_valid)
        x5_raw <= x4_str[{1'b0, p_b1, 3'd0} +: 512];
    x5_len <= x4_pres ? {1'b0, p_b1} + {x4_nraw, 2'd0} : 7'd0;
    if (rst)
        x5_valid <= 1'b0;
end

// X6: each lane's field or RAW value; the tail bytes. {raw (32 bits a
// lane), neg (1), mag (15)}, lane 0 first in each
function [767:0] l_lanes;
    input [15:0]  coded, rm;
    input [63:0]  rk, rr;
    input [255:0] slots;
    input [511:0] raw;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1) begin
            l_lanes[15*i +: 15] = coded[i] ? slots[16*rk[4*i +: 4] + 1 +: 15] : 15'd0;
            l_lanes[240 + i] = coded[i] && slots[16*rk[4*i +: 4]];
            l_lanes[256 + 32*i +: 32] = rm[i] ? raw[32*rr[4*i +: 4] +: 32] : 32'd0;
        end
    end
endfunction

reg             x6_valid = 1'b0;
reg  [1:0]      x6_kind = 0;
reg             x6_pres = 1'b0, x6_err = 1'b0, x6_last = 1'b0;
reg  [CQ_W-1:0] x6_seq = 0;
reg  [14:0]     x6_end = 0;            // where the group (and tail) ends
reg  [4:0]      x6_cnt = 0;
reg  [1:0]      x6_t = 0;
reg  [4:0]      x6_k = 0;
reg  [3:0]      x6_w = 0;
reg             x6_d = 1'b0;
reg  [15:0]     x6_coded = 0, x6_rm = 0;
reg  [4:0]      x6_nraw = 0;
reg  [239:0]    x6_mag = 0;
reg  [15:0]     x6_neg = 0;
reg  [511:0]    x6_rawv = 0;
reg  [23:0]     x6_tail = 0;

always @(posedge clk) begin
    x6_valid <= x5_valid;
    x6_kind <= x5_kind;
    x6_pres <= x5_pres;
    x6_err <= x5_err;
    x6_last <= x5_last;
    x6_seq <= x5_seq;
    x6_end <= x5_at + {8'd0, x5_len} + (x5_last ? {13'd0, x5_t} : 15'd0);
    x6_cnt <= x5_cnt;
    x6_t <= x5_t;
    x6_k <= x5_k;
    x6_w <= x5_w;
    x6_d <= x5_d;
    x6_coded <= x5_coded;
    x6_rm <= x5_rm;
    x6_nraw <= x5_nraw;
    if (x5_valid)
        {x6_rawv, x6_neg, x6_mag} <= l_lanes(x5_coded, x5_rm, x5_rk, x5_rr, x5_slots, x5_raw);
    x6_tail <= x5_str[{x5_len, 3'd0} +: 24];
    if (rst)
        x6_valid <= 1'b0;
end

// X7: the checks, their first half (the -0 and mask-form zero checks, the
// OR of the magnitudes, the nonzero count); RAW values into the
// quantizer's first half
reg  [14:0]     c_or;
reg  [15:0]     c_nz;
reg             c_err;
integer         ci;
always @* begin
    c_or = 0;
    c_err = 1'b0;
    for (ci = 0; ci < 16; ci = ci + 1) begin
        c_nz[ci] = x6_coded[ci] && x6_mag[15*ci +: 15] != 15'd0;
        c_or = c_or | x6_mag[15*ci +: 15];
        // a -0, or a coded 0 in the mask form
        if (x6_coded[ci] && x6_mag[15*ci +: 15] == 15'd0 && (x6_neg[ci] || !x6_d))
            c_err = 1'b1;
    end
end
wire [4:0]      c_nzc = pc16(c_nz);
wire [7:0]      c_kc = 8'd142 - {3'd0, x6_k};

wire [255:0]    qs_y;
wire [15:0]     qs_raw_exp, qs_zero;
genvar          gl;
generate
    for (gl = 0; gl < 16; gl = gl + 1) begin : rq
        inc_quant_shift qshift (
            .value(x6_rawv[32*gl +: 32]),
            .kc(c_kc),
            .y(qs_y[16*gl +: 16]),
            .raw_exp(qs_raw_exp[gl]),
            .zero(qs_zero[gl])
        );
    end
endgenerate

reg             x7_valid = 1'b0;
reg  [1:0]      x7_kind = 0;
reg             x7_err = 1'b0, x7_last = 1'b0;
// the group's checks, finished in X8: the OR of the magnitudes, the
// nonzero count, the -0 and mask-form zero checks, its w, form, counts
reg             x7_pres = 1'b0, x7_cerr = 1'b0, x7_d = 1'b0;
reg  [14:0]     x7_cor = 0;
reg  [4:0]      x7_nzc = 0, x7_nraw = 0;
reg  [3:0]      x7_w = 0;
reg  [CQ_W-1:0] x7_seq = 0;
reg  [14:0]     x7_end = 0;
reg  [4:0]      x7_cnt = 0;
reg  [1:0]      x7_t = 0;
reg  [4:0]      x7_k = 0;
reg  [15:0]     x7_coded = 0, x7_rm = 0;
reg  [239:0]    x7_mag = 0;
reg  [15:0]     x7_neg = 0;
reg  [511:0]    x7_rawv = 0;
reg  [255:0]    x7_y = 0;
reg  [15:0]     x7_raw_exp = 0, x7_zero = 0;
reg  [23:0]     x7_tail = 0;

always @(posedge clk) begin
    x7_valid <= x6_valid;
    x7_kind <= x6_kind;
    x7_err <= x6_err;
    x7_pres <= x6_pres;
    x7_cerr <= c_err;
    x7_d <= x6_d;
    x7_cor <= c_or;
    x7_nzc <= c_nzc;
    x7_nraw <= x6_nraw;
    x7_w <= x6_w;
    x7_last <= x6_last;
    x7_seq <= x6_seq;
    x7_end <= x6_end;
    x7_cnt <= x6_cnt;
    x7_t <= x6_t;
    x7_k <= x6_k;
    x7_coded <= x6_coded;
    x7_rm <= x6_rm;
    x7_mag <= x6_mag;
    x7_neg <= x6_neg;
    x7_rawv <= x6_rawv;
    x7_y <= qs_y;
    x7_raw_exp <= qs_raw_exp;
    x7_zero <= qs_zero;
    x7_tail <= x6_tail;
    if (rst)
        x7_valid <= 1'b0;
end

// X8: the group's checks finished (w, the form, not empty); RAW values must
// class RAW; floats; the beat
wire [511:0]    f_val;
wire [15:0]     f_notraw;
generate
    for (gl = 0; gl < 16; gl = gl + 1) begin : fl
        wire [1:0]  tag;
        wire [1:0]  kind = x7_rm[gl] ? 2'd3 : x7_coded[gl] && x7_mag[15*gl +: 15] != 15'd0 ?
                           2'd1 : 2'd0;
        wire [31:0] word = x7_rm[gl] ? x7_rawv[32*gl +: 32] :
                           {15'd0, x7_neg[gl], 1'b0, x7_mag[15*gl +: 15]};
        inc_quant_round qround (
            .value(x7_rawv[32*gl +: 32]),
            .y(x7_y[16*gl +: 16]),
            .raw_exp(x7_raw_exp[gl]),
            .zero(x7_zero[gl]),
            .tag(tag),
            /* verilator lint_off PINCONNECTEMPTY */
            .word(),
            .mag()
            /* verilator lint_on PINCONNECTEMPTY */
        );
        assign f_notraw[gl] = x7_rm[gl] && tag != 2'd3;
        inc_dequant_norm norm (
            .kind(kind),
            .word(word),
            .k(x7_k),
            .value(f_val[32*gl +: 32])
        );
    end
endgenerate

// the beat: the group's values, then the tail on the last beat
reg [511:0] b_data;
reg [63:0]  b_keep;
reg [6:0]   b_nb;
integer     bl;
always @* begin
    b_data = 0;
    for (bl = 0; bl < 16; bl = bl + 1)
        if (bl < x7_cnt)
            b_data[32*bl +: 32] = f_val[32*bl +: 32];
    b_nb = {x7_cnt, 2'd0};
    if (x7_last) begin
        b_data = b_data | ({488'd0, x7_tail} << {b_nb, 3'd0});
        b_nb = b_nb + {5'd0, x7_t};
    end
    b_keep = ~(64'hffffffffffffffff << b_nb);
end

reg             x_cerr = 1'b0;         // an error in the chunk's beats so far
// w the bit count of the largest |q|, the form the rule gives, not empty
wire [4:0]      c_zeros = x7_cnt - x7_nraw - x7_nzc;
wire            c_bad = x7_pres && (x7_cerr || bitlen15(x7_cor) != x7_w ||
                                    dense_of(c_zeros, x7_w) != x7_d ||
                                    (x7_nzc == 5'd0 && x7_nraw == 5'd0));
wire            b_err = x_cerr || x7_err || c_bad || f_notraw != 16'd0;

// output FIFO
reg  [511:0]    oq_data [0:OQ_N-1];
reg  [63:0]     oq_keep [0:OQ_N-1];
reg             oq_last [0:OQ_N-1];
reg             oq_err [0:OQ_N-1];
reg             oq_bad [0:OQ_N-1];
reg  [14:0]     oq_end [0:OQ_N-1];
reg  [CQ_W-1:0] oq_seq [0:OQ_N-1];
reg  [OQ_W:0]   oq_wp = 0, oq_rp = 0;

always @(posedge clk) begin
    x_cerr <= x7_valid ? (x7_last ? 1'b0 : b_err) : x_cerr;
    if (x7_valid) begin
        oq_data[oq_wp[OQ_W-1:0]] <= b_data;
        oq_keep[oq_wp[OQ_W-1:0]] <= b_keep;
        oq_last[oq_wp[OQ_W-1:0]] <= x7_last;
        oq_err[oq_wp[OQ_W-1:0]] <= b_err;
        oq_bad[oq_wp[OQ_W-1:0]] <= x7_kind == K_BAD;
        oq_end[oq_wp[OQ_W-1:0]] <= x7_end;
        oq_seq[oq_wp[OQ_W-1:0]] <= x7_seq;
        oq_wp <= oq_wp + 1'b1;
    end
    oq_res <= oq_res + {{OQ_W{1'b0}}, x_take} - {{OQ_W{1'b0}}, o_pop};
    if (rst) begin
        x_cerr <= 1'b0;
        oq_wp <= 0;
        oq_res <= 0;
    end
end

// ---- output: the last beat's verdict -------------------------------------------------

wire [OQ_W-1:0] oh = oq_rp[OQ_W-1:0];
wire [CQ_W-1:0] oh_seq = oq_seq[oh];
wire            oh_last = oq_last[oh];
wire [14:0]     oh_end = oq_end[oh];
wire            oh_ended = ended(oh_seq);
// the body's length against the length its groups call for: known when
// it has ended, or when more was written than they call for
wire            oh_long = !oh_ended && w_blen > oh_end;
wire            oh_ready = !oh_last || oq_bad[oh] || oh_ended || oh_long;
wire            oh_err = oh_last && (oq_err[oh] || oq_bad[oh] || oh_long ||
                                     (oh_ended && cq_blen[oh_seq] != oh_end));

assign m_axis_tvalid = oq_wp != oq_rp && oh_ready;
assign m_axis_tdata = oq_data[oh];
assign m_axis_tkeep = oh_err ? 64'd0 : oq_keep[oh];
assign m_axis_tlast = oh_last;
assign m_axis_tuser = oh_err;
assign o_pop = m_axis_tvalid && m_axis_tready;

always @(posedge clk) begin
    status_valid <= o_pop && oh_last;
    status_error <= oh_err;
    if (o_pop) begin
        oq_rp <= oq_rp + 1'b1;
        if (oh_last) begin
            cq_rp <= cq_rp + 1'b1;
        end
    end
    if (rst) begin
        status_valid <= 1'b0;
        oq_rp <= 0;
        cq_rp <= 0;
    end
end

endmodule

`resetall
