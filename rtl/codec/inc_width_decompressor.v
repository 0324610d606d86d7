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
 * ahead, for every byte of the body, as if a group started there, and the
 * loop that follows the groups is a table read and a choice:
 *   - writer (I0, I1, I2): the beat registered; its place in the ring (each
 *     chunk's body starts at a new row; a chunk queue holds each chunk's
 *     start, parameters and body length) and the beat rotated to it; the
 *     bytes written into the ring, 128 byte-wide banks of BUF_ROWS rows
 *     (LUT RAM: a beat writes each bank at most once, at its row or the
 *     next). What readers see of the writer (its pointer, its chunk, the
 *     queue's end) is a clock late, as the bytes are;
 *   - next table (N1..N4): for each row, once the row and the 5 bytes after
 *     it are written (or its chunk has ended): each byte's popcounts, then
 *     for each offset o the popcount of the 16 bits at bit 6 (a mask: the
 *     coded mask at o, the RAW mask at o + 2); the form's value count times
 *     1 + w (shifts and adds); nx[o] = o + the length of a 16-value group
 *     at o, and sn[o] = where the first group of a segment whose mask byte
 *     is at o ends (o + 1 when the mask's bit 0 is clear), both relative to
 *     the row (0..229), and the byte itself: three LUT RAM tables, one row
 *     written a clock;
 *   - chaser: the loop. Per clock it takes one group: its start p, and p' =
 *     sn[p] at a segment's first group (the mask byte read at p), else
 *     nx[p] for a present group, p for an absent one: a read of the row's
 *     table (LUT RAM) and a 128-way choice, no adder; crossing into the next
 *     row increments the row. It writes a descriptor per group (and one for
 *     tail bytes that need a beat of their own, one for a chunk without
 *     groups); past the end of an ended body it follows no more pointers;
 *   - extractor (X1..X8): per descriptor, one clock each: the descriptor
 *     registered with the banks its window wraps into; each bank read at
 *     the group's row or the next (the 128 bytes from its start, rotated);
 *     the group's 106 bytes rotated out; its header (masks, ranks, counts,
 *     checks); its lengths and fields unpacked at 1 + w bits; its RAW
 *     values and tail bytes shifted down; each lane's value chosen; the
 *     checks, RAW values re-quantized (they must class RAW) and coded values
 *     made floats (inc_dequant_norm): an output beat into the output FIFO,
 *     which has a place promised for it before its descriptor is taken. The
 *     chunk's last beat waits there for its verdict: the body's length
 *     against the length its groups call for. The head's verdict moves
 *     into output registers that drive m_axis (the data is read from the
 *     FIFO at a registered pointer until the beat leaves).
 * The last group of a chunk may be short (cnt < 16): its length is the
 * extractor's, not the table's, and nothing follows it in the chunk.
 * Bytes of a body past the length its groups call for are dropped once its
 * last beat has left.
 *
 * Written for synthesis (no multiplier, every wide choice a tree of words
 * or a shifter in log stages, tables in LUT RAM) and for the simulator
 * (the wide stages computed only on the clocks that load them).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_width_decompressor #
(
    // Rows of the body ring and of the next table, 128 bytes each, a power
    // of two, at least 16 (LUT RAM: up to 32 cost the same)
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

// bytes in a tkeep that is contiguous from byte 0 (a one-hot decode of its
// end, not an adder): keep_count
localparam KC_C = C;
localparam KC_LC = 7;                  // $clog2(C)
`include "inc_keep_fns.vh"

// below, rot_up, rot_up1: the ring's placement (inc_decompressor's too)
localparam RF_C = C;
localparam RF_LC = 7;                  // $clog2(C)
`include "inc_ring_fns.vh"

// the first XB of the 128 bytes of x rotated down by s: byte i is x's byte
// (i + s) mod 128; the coarse stages first, so the later ones are narrow
function [XB*8-1:0] rot_down;
    input [C*8-1:0] x;
    input [6:0] s;
    integer b;
    reg [C*8-1:0] r;
    begin
        r = x;
        for (b = 6; b >= 0; b = b - 1)
            if (s[b])
                r = (r >> (8 << b)) | (r << (C*8 - (8 << b)));
        rot_down = r[XB*8-1:0];
    end
endfunction

// bits set in a byte, in its low 6 bits
function [3:0] pc8;
    input [7:0] x;
    begin
        pc8 = ({1'b0, pc6(x[5:0])} + {3'd0, x[6]}) + {3'd0, x[7]};
    end
endfunction

function [2:0] pc6;
    input [5:0] x;
    begin
        pc6 = ({1'b0, {1'b0, x[0]} + {1'b0, x[1]} + {1'b0, x[2]}}) +
              ({1'b0, {1'b0, x[3]} + {1'b0, x[4]} + {1'b0, x[5]}});
    end
endfunction

// a times b, 5 bits each, at most 256 (shifts and adds: no multiplier)
function [8:0] mul5;
    input [4:0] a;
    input [4:0] b;
    begin
        mul5 = (b[0] ? {4'd0, a} : 9'd0) + (b[1] ? {3'd0, a, 1'b0} : 9'd0) +
               (b[2] ? {2'd0, a, 2'd0} : 9'd0) + (b[3] ? {1'd0, a, 3'd0} : 9'd0) +
               (b[4] ? {a, 4'd0} : 9'd0);
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
        i0_keep <= below(keep_count(s_axis_tkeep));
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

// ---- I1: the writer places the beat --------------------------------------------------

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
wire [6:0]      w_off = i0_first ? 7'd0 : wr_ptr[6:0];
wire [RW-1:0]   w_row = w_base[AW-1:7];
wire [14:0]     w_blen_sum = {1'b0, w_blen[13:0]} + {7'd0, i0_nb};
wire [14:0]     w_blen_next = i0_first ? {7'd0, i0_nb} :
                              w_blen[14] ? w_blen : w_blen_sum;
wire [13:0]     u_raw_len = i0_user[20:7];
wire [1:0]      u_mode = i0_user[6:5];
wire [4:0]      u_k = i0_user[4:0];

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

// I2's registers: the beat rotated to its place, the banks it writes, the
// banks below its offset (they take the next row)
reg             w1_en = 1'b0;
reg  [C*8-1:0]  w1_data = 0;
reg  [C-1:0]    w1_keep = 0;
reg  [C-1:0]    w1_lo = 0;
reg  [RW-1:0]   w1_row = 0, w1_row1 = 0;

always @(posedge clk) begin
    w1_en <= w_en;
    if (w_en) begin
        w1_data <= rot_up(i0_data, w_off);
        w1_keep <= rot_up1(i0_keep, w_off);
        w1_lo <= below({1'b0, w_off});
        w1_row <= w_row;
        w1_row1 <= w_row + 1'b1;
        wr_ptr <= w_base + {{(PW-8){1'b0}}, i0_nb};
    end
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
        w1_en <= 1'b0;
        wr_ptr <= 0;
        cq_wp <= 0;
        w_seq <= 0;
        w_ptr <= 0;
        w_ended <= 1'b1;
        w_disc <= 1'b0;
        in_ok <= 1'b0;
    end
end

// What the readers see of the writer: a clock late, when I2 has written
// the bytes (the pointer, its chunk and whether it has ended, its length
// so far, the queue's end)
reg  [PW-1:0]   wr_v = 0;
reg  [CQ_W-1:0] w_seq_v = 0;
reg             w_ended_v = 1'b1;
reg  [14:0]     w_blen_v = 0;
reg  [CQ_W:0]   cq_wp_v = 0;

always @(posedge clk) begin
    wr_v <= wr_ptr;
    w_seq_v <= w_seq;
    w_ended_v <= w_ended;
    w_blen_v <= w_blen;
    cq_wp_v <= cq_wp;
    if (rst) begin
        wr_v <= 0;
        w_seq_v <= 0;
        w_ended_v <= 1'b1;
        w_blen_v <= 0;
        cq_wp_v <= 0;
    end
end

// a chunk's body has ended
function ended;
    input [CQ_W-1:0] seq;
    begin
        ended = seq != w_seq_v || w_ended_v;
    end
endfunction

// bytes below address a are written (a at most a ring ahead)
function written;
    input [PW-1:0] a;
    reg [PW-1:0] d;
    begin
        d = wr_v - a;
        written = !d[PW-1];
    end
endfunction

// ---- the ring: 128 banks of a byte --------------------------------------------------
//
// Bank j holds byte j of every row. I2 writes a beat's bytes (w1_keep) at
// its row, or the next below its offset; N1 reads a row (and banks 0-4 the
// next row's first bytes); X1 reads the 128 bytes from a group's start
// (banks below its offset at the next row).

reg  [PW-8:0]   n_row = 0;             // next row to compute, with the order bit
wire [RW-1:0]   n_ri = n_row[RW-1:0];
wire [RW-1:0]   n_ri1 = n_ri + 1'b1;
wire            n_in;
reg  [C*8-1:0]  n1_bytes = 0;          // the row
reg  [5*8-1:0]  n1_next = 0;           // the next row's first 5 bytes

wire            x_take;
reg  [RW-1:0]   dh_ri = 0, dh_ri1 = 0; // the descriptor at the head: its row, the next
reg  [C-1:0]    dh_lo = 0;             // ... banks below its offset
reg  [C*8-1:0]  x1_win = 0;            // the 128 bytes from its start, rotated

genvar gb;
generate
    for (gb = 0; gb < C; gb = gb + 1) begin : bank
        reg  [7:0] mem [0:BUF_ROWS-1];
        always @(posedge clk) begin
            if (w1_en && w1_keep[gb])
                mem[w1_lo[gb] ? w1_row1 : w1_row] <= w1_data[8*gb +: 8];
            if (n_in)
                n1_bytes[8*gb +: 8] <= mem[n_ri];
            if (x_take)
                x1_win[8*gb +: 8] <= mem[dh_lo[gb] ? dh_ri1 : dh_ri];
        end
        if (gb < 5) begin : next
            always @(posedge clk)
                if (n_in)
                    n1_next[8*gb +: 8] <= mem[n_ri1];
        end
    end
endgenerate

// ---- the next table: N1 (read), N2 (popcounts), N3 (products), N4 (write) -----------

reg  [C*8-1:0]  t_nx [0:BUF_ROWS-1];   // nx of each byte of a row
reg  [C*8-1:0]  t_sn [0:BUF_ROWS-1];   // sn
reg  [C*8-1:0]  t_mb [0:BUF_ROWS-1];   // the byte (a mask byte at a segment's start)

wire [PW-1:0]   n_addr = {n_row, 7'd0};
// the writer's chunk started after the row: the row is further from the
// write pointer than the chunk's bytes so far (a body may be longer than
// the ring, so addresses alone cannot tell)
wire [PW-1:0]   n_dist = wr_v - n_addr;
wire            n_after = {{(15-PW){1'b0}}, n_dist} > w_blen_v;
wire [PW-1:0]   n_lag = rel_ptr - n_addr - 1'b1;  // released: skip it
wire            n_behind = !n_lag[PW-1];
// every byte of the row and the 5 after it that will come is there: they
// are written, or the row's chunk has ended
assign          n_in = !n_behind && written(n_addr + 1'b1) &&
                       (written(n_addr + 133) || w_ended_v || n_after);

reg             n1_valid = 1'b0;
reg  [RW-1:0]   n1_ri = 0;

always @(posedge clk) begin
    n1_valid <= n_in;
    if (n_behind)
        n_row <= rel_ptr[PW-1:7];
    else if (n_in)
        n_row <= n_row + 1'b1;
    n1_ri <= n_ri;
    if (rst) begin
        n_row <= 0;
        n1_valid <= 1'b0;
    end
end

// N2: for each offset o (0..130), the popcount of the 16 bits at bit 6 of
// byte o: bits 7:6 of byte o, byte o + 1, bits 5:0 of byte o + 2 (each
// byte's counts shared by three offsets). A group at o has its coded mask
// (mask form) or RAW mask (dense form) there, and its RAW mask (mask form)
// at o + 2.
function [131*5-1:0] n_sums;
    input [133*8-1:0] b;               // the row and the 5 bytes after it
    integer o;
    reg [1:0] x;
    reg [7:0] y;
    reg [5:0] z;
    begin
        for (o = 0; o <= C + 2; o = o + 1) begin
            x = b[8*o + 6 +: 2];
            y = b[8*(o+1) +: 8];
            z = b[8*(o+2) +: 6];
            n_sums[5*o +: 5] = ({4'd0, x[0]} + {4'd0, x[1]}) +
                               {1'b0, pc8(y)} + {2'd0, pc6(z)};
        end
    end
endfunction

reg             n2_valid = 1'b0;
reg  [RW-1:0]   n2_ri = 0;
reg  [129*8-1:0] n2_b = 0;             // bytes 0..128
reg  [131*5-1:0] n2_s = 0;             // n_sums

always @(posedge clk) begin
    n2_valid <= n1_valid;
    n2_ri <= n1_ri;
    if (n1_valid) begin
        n2_b <= {n1_next[7:0], n1_bytes};
        n2_s <= n_sums({n1_next, n1_bytes});
    end
    if (rst)
        n2_valid <= 1'b0;
end

// N3: for each offset o (0..128), a group's header there: w, D, R; its
// value fields' bits, m (1 + w) with m the coded values (mask form: the
// coded mask's count; dense: 16 less the RAW values); its RAW values; its
// header's masks (0, 1 or 2). {hc, nraw, bits}: 2 + 5 + 9 bits an offset.
function [129*16-1:0] n_prods;
    input [129*8-1:0] b;
    input [131*5-1:0] s;
    integer o;
    reg [5:0] x;
    reg [4:0] s1, s2, nraw, t, w1;
    reg [8:0] p;
    begin
        for (o = 0; o <= C; o = o + 1) begin
            x = b[8*o +: 6];
            s1 = s[5*o +: 5];
            s2 = s[5*(o+2) +: 5];
            nraw = !x[5] ? 5'd0 : x[4] ? s1 : s2;
            t = x[4] ? 5'd16 - s1 : s1;
            w1 = {1'b0, x[3:0]} + 5'd1;
            p = (x[4] && !x[5]) ? {w1, 4'd0} : mul5(t, w1);
            n_prods[16*o +: 16] = {{1'b0, !x[4]} + {1'b0, x[5]}, nraw, p};
        end
    end
endfunction

reg             n3_valid = 1'b0;
reg  [RW-1:0]   n3_ri = 0;
reg  [129*8-1:0] n3_b = 0;
reg  [129*16-1:0] n3_p = 0;

always @(posedge clk) begin
    n3_valid <= n2_valid;
    n3_ri <= n2_ri;
    if (n2_valid) begin
        n3_b <= n2_b;
        n3_p <= n_prods(n2_b, n2_s);
    end
    if (rst)
        n3_valid <= 1'b0;
end

// N4: nx[o] = o + ceil((6 + 16 hc + bits) / 8) + 4 nraw, relative to the
// row (0..229); sn[o] = nx[o + 1] when the byte's bit 0 is set (a present
// group 0 after a mask byte), else o + 1
function [7:0] nx_of;
    input [7:0]  o;
    input [15:0] p;                    // {hc, nraw, bits}
    reg [7:0] t;
    reg [2:0] unused_lo;
    begin
        {t, unused_lo} = {o, 3'd0} + 11'd13 + {5'd0, p[15:14], 4'd0} + {2'd0, p[8:0]};
        nx_of = t + {1'b0, p[13:9], 2'd0};
    end
endfunction

function [C*8-1:0] n_nx;
    input [129*16-1:0] p;
    integer o;
    begin
        for (o = 0; o < C; o = o + 1)
            n_nx[8*o +: 8] = nx_of(o[7:0], p[16*o +: 16]);
    end
endfunction

function [C*8-1:0] n_sn;
    input [129*8-1:0] b;
    input [129*16-1:0] p;
    integer o;
    begin
        for (o = 0; o < C; o = o + 1)
            n_sn[8*o +: 8] = b[8*o] ? nx_of(o[7:0] + 8'd1, p[16*(o+1) +: 16]) :
                             o[7:0] + 8'd1;
    end
endfunction

always @(posedge clk) begin
    if (n3_valid) begin
        t_nx[n3_ri] <= n_nx(n3_p);
        t_sn[n3_ri] <= n_sn(n3_b, n3_p);
        t_mb[n3_ri] <= n3_b[C*8-1:0];
    end
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
reg  [PW-8:0]   ch_row = 0;            // the row p is in
reg  [6:0]      ch_p = 0;              // where the next group (or mask) is in it
reg  [6:0]      ch_rel = 0;            // the row's place in the body
reg  [8:0]      ch_left = 0;           // descriptors left
reg  [7:0]      ch_gidx = 0;           // the next group
reg  [7:0]      ch_groups = 0;
reg  [2:0]      ch_gi = 0;             // its place in its segment
reg  [7:0]      ch_mask = 0;
reg             ch_bad = 1'b0;
reg             ch_past = 1'b0;        // past the body's end

// descriptor FIFO: {kind, present, past, mask error, last, chunk, row,
// offset, row in the body} (the start normalized: offset 0..127)
localparam DW = 2 + 1 + 1 + 1 + 1 + CQ_W + (PW-7) + 7 + 7;
reg  [DW-1:0]   dq [0:DQ_N-1];
reg  [DQ_W:0]   dq_wp = 0, dq_rp = 0;
wire [DQ_W:0]   dq_used = dq_wp - dq_rp;
wire            dq_room = !dq_used[DQ_W];

wire [CQ_W-1:0] ch_i = ch_ptr[CQ_W-1:0];
wire            ch_end = ended(ch_i);
wire [14:0]     ch_blen = cq_blen[ch_i];
wire [RW-1:0]   ch_ri = ch_row[RW-1:0];
wire [7:0]      e_nxv = t_nx[ch_ri][8*ch_p +: 8];
wire [7:0]      e_snv = t_sn[ch_ri][8*ch_p +: 8];
wire [7:0]      e_mb = t_mb[ch_ri][8*ch_p +: 8];
wire            a_ok = avail(ch_row);
wire            e_grp = !ch_bad && ch_gidx != ch_groups;
wire            e_seg0 = ch_gi == 3'd0;
wire [7:0]      e_mask = e_seg0 ? e_mb : ch_mask;
wire            e_pres = e_mask[ch_gi];
// the bytes at p are past the body's end (known once it has ended). The
// comparison is a clock late (a register below, from the position before
// the last step: p only grows, so a late answer is a smaller one), which
// keeps it out of the loop; what it misses, the chunk's length check finds
reg             past_q = 1'b0;         // at or past the end
wire            e_past = ch_past || past_q;
// a group's presence off the segment's first: a register's bit
wire            e_pres_n = ch_mask[ch_gi];
wire [7:0]      e_next = (!e_grp || e_past) ? {1'b0, ch_p} :
                         e_seg0 ? e_snv : e_pres_n ? e_nxv : {1'b0, ch_p};
wire            e_adv = e_next[7];
wire [7:0]      e_sg = ch_groups - ch_gidx;  // groups from here to the end
wire [7:0]      e_sgm = e_sg >= 8'd8 ? 8'hff : ~(8'hff << e_sg[2:0]);
wire            e_mask_err = e_grp && e_seg0 && !e_past && (e_mb & ~e_sgm) != 8'd0;
// the step reads the table at p: unless there is no group or it is past
// the end (a row past the end may never be computed)
wire            e_need_a = e_grp && !e_past;
// the step reads bytes at p: a mask byte, or a present group (what a
// descriptor past the end flags; an absent group or the tail reads none)
wire            e_reads = e_grp && (e_seg0 || e_pres);
wire            e_step = ch_have && ch_left != 0 && dq_room && (!e_need_a || a_ok);
wire [7:0]      e_start = {1'b0, ch_p} + {7'd0, e_grp && e_seg0};
wire [PW-8:0]   e_row = ch_row + {{(PW-8){1'b0}}, e_start[7]};
wire [6:0]      e_rel = ch_rel + {6'd0, e_start[7]};
wire [1:0]      e_kind = ch_bad ? K_BAD : e_grp ? K_GRP : K_TAIL;
wire            e_last = ch_left == 9'd1;

// the next chunk, from the queue (as the readers see it)
wire [CQ_W:0]   nx_ptr = ch_have ? ch_ptr + 1'b1 : ch_ptr;
wire [CQ_W-1:0] nx_i = nx_ptr[CQ_W-1:0];
wire [13:0]     nx_raw = cq_raw_len[nx_i];
wire [11:0]     nx_n = nx_raw[13:2];
wire [7:0]      nx_groups = nx_n[11:4] + {7'd0, nx_n[3:0] != 4'd0};
wire            nx_tail = nx_n[3:0] == 4'd0 && (nx_raw[1:0] != 2'd0 || nx_n == 12'd0);
wire            ch_done = !ch_have || (ch_left == 9'd0) || (e_step && e_last);

always @(posedge clk) begin
    if (e_step) begin
        dq[dq_wp[DQ_W-1:0]] <= {e_kind, e_grp && e_pres, e_past && e_reads, e_mask_err, e_last,
                                ch_i, e_row, e_start[6:0], e_rel};
        dq_wp <= dq_wp + 1'b1;
        ch_left <= ch_left - 1'b1;
        if (e_grp) begin
            ch_gidx <= ch_gidx + 1'b1;
            ch_gi <= ch_gi + 1'b1;
            ch_mask <= e_mask;
        end
        if (e_past)
            ch_past <= 1'b1;
        ch_p <= e_next[6:0];
        if (e_adv) begin
            ch_row <= ch_row + 1'b1;
            ch_rel <= ch_rel + 1'b1;
        end
    end
    past_q <= ch_end && !ch_blen[14] && {1'b0, ch_rel, ch_p} >= ch_blen;
    if (ch_done && nx_ptr != cq_wp_v) begin
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
    end else if (ch_done) begin
        ch_ptr <= nx_ptr;
        ch_have <= 1'b0;
    end
    if (rst) begin
        ch_ptr <= 0;
        ch_have <= 1'b0;
        ch_left <= 0;
        dq_wp <= 0;
    end
end

// ---- extractor ----------------------------------------------------------------------

// output FIFO places promised: beats in X1..X8 and in the FIFO (the beat
// on m_axis too: its data is read from its entry until it leaves)
reg  [OQ_W:0]   oq_res = 0;
wire            o_pop;                 // the head's verdict taken, into m_axis's registers
wire            m_pop;                 // a beat leaves m_axis: its place is free

// the head of the descriptor FIFO, registered with what X1's read needs:
// the row, the next, the banks below the offset
reg             dh_v = 1'b0;
reg  [DW-1:0]   dh = 0;
wire [DW-1:0]   dq_h = dq[dq_rp[DQ_W-1:0]];
wire            dh_load = dq_wp != dq_rp && (!dh_v || x_take);

wire [1:0]      dh_kind = dh[DW-1 -: 2];
wire            dh_past = dh[DW-4];
wire            dh_last = dh[DW-6];
wire [CQ_W-1:0] dh_seq = dh[14 + PW-7 +: CQ_W];
wire [PW-8:0]   dh_row = dh[14 +: PW-7];
wire [PW-1:0]   dh_abs = {dh_row, dh[13:7]};
wire [CQ_W-1:0] dh_next = dh_seq + 1'b1;
wire [PW-1:0]   dh_next_at = dh_next != cq_wp_v[CQ_W-1:0] ? cq_start[dh_next] :
                             {wr_v[PW-1:7], 7'd0};
// its bytes are there (or its body has ended: what is missing is missing)
assign          x_take = dh_v && oq_res != OQ_N &&
                         (dh_kind == K_BAD || dh_past || ended(dh_seq) ||
                          written(dh_abs + XB));

always @(posedge clk) begin
    if (dh_load) begin
        dh <= dq_h;
        dh_ri <= dq_h[14 +: RW];
        dh_ri1 <= dq_h[14 +: RW] + 1'b1;
        dh_lo <= below({1'b0, dq_h[13:7]});
        dq_rp <= dq_rp + 1'b1;
    end
    dh_v <= dh_load || (dh_v && !x_take);
    if (rst) begin
        dh_v <= 1'b0;
        dq_rp <= 0;
    end
end

// X1: the 128 bytes from the group's start (the banks' read, above), the
// chunk's parameters
reg             x1_valid = 1'b0;
reg  [DW-1:0]   x1_d = 0;
reg  [5:0]      x1_raw = 0;          // raw_len's low bits: the last group, tail
reg  [4:0]      x1_k = 0;

always @(posedge clk) begin
    x1_valid <= x_take;
    if (x_take) begin
        x1_d <= dh;
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
        rel_ptr <= 0;
        x_done <= 0;
    end
end

wire [1:0]      x1_kind = x1_d[DW-1 -: 2];
wire            x1_pres = x1_d[DW-3];
wire            x1_past = x1_d[DW-4];
wire            x1_merr = x1_d[DW-5];
wire            x1_last = x1_d[DW-6];
wire [CQ_W-1:0] x1_seq = x1_d[14 + PW-7 +: CQ_W];
wire [6:0]      x1_off = x1_d[13:7];
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
    x2_at <= {1'b0, x1_rel, x1_off};
    x2_cnt <= x1_kind != K_GRP ? 5'd0 :
              (x1_last && x1_n != 4'd0) ? {1'b0, x1_n} : 5'd16;
    x2_t <= x1_raw[1:0];
    x2_k <= x1_k;
    // (a stage without a group: its bytes are never used; X3 to X8 take
    // their wide inputs on valid only)
    if (x1_valid)
        x2_str <= rot_down(x1_win, x1_off);
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
    if (x2_valid)
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
wire [8:0]      x4_prod = mul5(x3_m, {1'b0, x3_w} + 5'd1);

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
    if (x3_valid)
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
    x4_bits <= 9'd6 + {3'd0, x3_hc, 4'd0} + x4_prod;
    if (rst)
        x4_valid <= 1'b0;
end

// X5: bytes of the string, the RAW values after them (and the tail bytes
// after those), the padding

// the byte of the string at i (0..63: a shifter's stages, coarse first)
function [7:0] str_byte;
    input [64*8-1:0] s;
    input [5:0] i;
    reg [64*8-1:0] r;
    integer b;
    begin
        r = s;
        for (b = 5; b >= 0; b = b - 1)
            if (i[b])
                r = r >> (8 << b);
        str_byte = r[7:0];
    end
endfunction

// the 67 bytes of the string from byte n (0..63), zeros past its end: the
// RAW values (at most 64 bytes) and 3 tail bytes after them; the coarse
// stages first, so the later ones are narrow
function [67*8-1:0] str_from;
    input [XB*8-1:0] s;
    input [5:0] n;
    reg [XB*8-1:0] r;
    integer b;
    begin
        r = s;
        for (b = 5; b >= 0; b = b - 1)
            if (n[b])
                r = r >> (8 << b);
        str_from = r[67*8-1:0];
    end
endfunction

wire [5:0]      p_b1 = x4_bits[8:3] + {5'd0, x4_bits[2:0] != 3'd0};
wire [7:0]      p_byte = str_byte(x4_str[64*8-1:0], x4_bits[8:3]);
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
reg  [3:0]      x5_w = 0;
reg             x5_d = 1'b0;
reg  [15:0]     x5_coded = 0, x5_rm = 0;
reg  [63:0]     x5_rk = 0, x5_rr = 0;
reg  [4:0]      x5_nraw = 0;
reg  [255:0]    x5_slots = 0;
reg  [67*8-1:0] x5_raw = 0;            // the RAW values, in order; the tail after them
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
    x5_w <= x4_w;
    x5_d <= x4_d;
    x5_coded <= x4_coded;
    x5_rm <= x4_rm;
    x5_rk <= x4_rk;
    x5_rr <= x4_rr;
    x5_nraw <= x4_nraw;
    if (x4_valid)
        x5_slots <= x4_slots;
    // (a group not present has no string: its tail is at its start)
    if (x4_valid)
        x5_raw <= str_from(x4_str, x4_pres ? p_b1 : 6'd0);
    x5_len <= x4_pres ? {1'b0, p_b1} + {x4_nraw, 2'd0} : 7'd0;
    if (rst)
        x5_valid <= 1'b0;
end

// X6: each lane's field or RAW value; the tail bytes. {raw (32 bits a
// lane), neg (1), mag (15)}, lane 0 first in each: a choice of 16 words by
// the lane's rank
function [767:0] l_lanes;
    input [15:0]  coded, rm;
    input [63:0]  rk, rr;
    input [255:0] slots;
    input [67*8-1:0] raw;
    integer i;
    reg [15:0] f;
    begin
        for (i = 0; i < 16; i = i + 1) begin
            f = slots[16*rk[4*i +: 4] +: 16];
            l_lanes[15*i +: 15] = coded[i] ? f[15:1] : 15'd0;
            l_lanes[240 + i] = coded[i] && f[0];
            l_lanes[256 + 32*i +: 32] = rm[i] ? raw[32*rr[4*i +: 4] +: 32] : 32'd0;
        end
    end
endfunction

// the tail bytes: after the group's RAW values (nraw of them)
function [23:0] l_tail;
    input [67*8-1:0] raw;
    input [4:0] nraw;
    reg [68*8-1:0] r;
    begin
        r = {8'd0, raw};
        l_tail = r[32*nraw +: 24];
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
    if (x5_valid) begin
        {x6_rawv, x6_neg, x6_mag} <= l_lanes(x5_coded, x5_rm, x5_rk, x5_rr, x5_slots, x5_raw);
        x6_tail <= l_tail(x5_raw, x5_nraw);
    end
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

// (the quantizer's first half: quant_shift of inc_quant_fns.vh, in X7's
// clocked block under x6_valid)
`include "inc_quant_fns.vh"
`include "inc_group_fns.vh"
integer         ql;

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
    if (x6_valid)
        x7_mag <= x6_mag;
    x7_neg <= x6_neg;
    if (x6_valid)
        x7_rawv <= x6_rawv;
    if (x6_valid)
        for (ql = 0; ql < 16; ql = ql + 1)
            {x7_y[16*ql +: 16], x7_raw_exp[ql], x7_zero[ql]} <=
                quant_shift(x6_rawv[32*ql +: 32], c_kc);
    x7_tail <= x6_tail;
    if (rst)
        x7_valid <= 1'b0;
end

// X8: the group's checks finished (w, the form, not empty); RAW values must
// class RAW; floats; the beat
// (functions, evaluated where X8 writes the output FIFO: a lane's kind
// and word for the dequantizer, the dequantized values, the RAW values
// that would not class RAW)
function [33:0] x8_lane;
    input        rm, coded, neg;
    input [14:0] mag;
    input [31:0] rawv;
    begin
        x8_lane = {rm ? 2'd3 : coded && mag != 15'd0 ? 2'd1 : 2'd0,
                   rm ? rawv : {15'd0, neg, 1'b0, mag}};
    end
endfunction

function [511:0] x8_vals;
    input [15:0]  rm, coded, neg;
    input [239:0] mag;
    input [511:0] rawv;
    input [4:0]   k;
    reg   [33:0]  kw;
    integer l;
    begin
        for (l = 0; l < 16; l = l + 1) begin
            kw = x8_lane(rm[l], coded[l], neg[l], mag[15*l +: 15], rawv[32*l +: 32]);
            x8_vals[32*l +: 32] = dequant_norm(kw[33:32], kw[31:0], k);
        end
    end
endfunction

function [15:0] x8_notraw;
    input [15:0]  rm;
    input [511:0] rawv;
    input [255:0] y;
    input [15:0]  raw_exp, zero;
    /* verilator lint_off UNUSEDSIGNAL */
    reg   [48:0]  q;    // (the tag alone)
    /* verilator lint_on UNUSEDSIGNAL */
    integer l;
    begin
        for (l = 0; l < 16; l = l + 1) begin
            q = quant_round(rawv[32*l +: 32], y[16*l +: 16], raw_exp[l], zero[l]);
            x8_notraw[l] = rm[l] && q[48:47] != 2'd3;
        end
    end
endfunction

// the beat: the group's values, then the tail on the last beat (its bytes
// in the lane after the last value); tkeep
function [511:0] b_data;
    input [511:0] val;
    input [4:0]   cnt;
    input         last;
    input [23:0]  tail;
    integer l;
    begin
        for (l = 0; l < 16; l = l + 1)
            b_data[32*l +: 32] = l < cnt ? val[32*l +: 32] :
                                 (last && l[4:0] == cnt) ? {8'd0, tail} : 32'd0;
    end
endfunction

function [63:0] b_keep;
    input [4:0] cnt;
    input       last;
    input [1:0] t;
    integer j;
    reg [6:0] nb;
    begin
        nb = {cnt, 2'd0} + (last ? {5'd0, t} : 7'd0);
        for (j = 0; j < 64; j = j + 1)
            b_keep[j] = nb > j[6:0];
    end
endfunction

reg             x_cerr = 1'b0;         // an error in the chunk's beats so far
// w the bit count of the largest |q|, the form the rule gives, not empty
wire [4:0]      c_zeros = x7_cnt - x7_nraw - x7_nzc;
wire            c_bad = x7_pres && (x7_cerr || bitlen15(x7_cor) != x7_w ||
                                    dense_of(c_zeros, x7_w) != x7_d ||
                                    (x7_nzc == 5'd0 && x7_nraw == 5'd0));
// (read only with x7_valid: evaluated only then)
reg             b_err;
always @* begin
    b_err = 1'b0;
    if (x7_valid)
        b_err = x_cerr || x7_err || c_bad ||
                x8_notraw(x7_rm, x7_rawv, x7_y, x7_raw_exp, x7_zero) != 16'd0;
end

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
        oq_data[oq_wp[OQ_W-1:0]] <= b_data(x8_vals(x7_rm, x7_coded, x7_neg, x7_mag, x7_rawv, x7_k),
                                            x7_cnt, x7_last, x7_tail);
        oq_keep[oq_wp[OQ_W-1:0]] <= b_keep(x7_cnt, x7_last, x7_t);
        oq_last[oq_wp[OQ_W-1:0]] <= x7_last;
        oq_err[oq_wp[OQ_W-1:0]] <= b_err;
        oq_bad[oq_wp[OQ_W-1:0]] <= x7_kind == K_BAD;
        oq_end[oq_wp[OQ_W-1:0]] <= x7_end;
        oq_seq[oq_wp[OQ_W-1:0]] <= x7_seq;
        oq_wp <= oq_wp + 1'b1;
    end
    oq_res <= oq_res + {{OQ_W{1'b0}}, x_take} - {{OQ_W{1'b0}}, m_pop};
    if (rst) begin
        x_cerr <= 1'b0;
        oq_wp <= 0;
        oq_res <= 0;
    end
end

// ---- output: the last beat's verdict, the output register ------------------------

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

// The head's verdict and control move into output registers when the
// beat there is gone or leaves now; the beat's data stays in the FIFO
// until it leaves (om_rp: its entry), read at a registered pointer. So
// m_axis's valid, keep, last and user come from flip-flops, and the
// consumer's logic after them starts from a register, not from the
// FIFO's read and the verdict's compares. One beat a clock; a clock more
// latency. The FIFO's places (oq_res) are freed as beats leave m_axis.
reg  [OQ_W-1:0] om_rp = 0;
reg  [63:0]     m_keep = 0;
reg             m_valid = 1'b0, m_last = 1'b0, m_err = 1'b0;
assign m_pop = m_valid && m_axis_tready;
assign o_pop = oq_wp != oq_rp && oh_ready && (!m_valid || m_axis_tready);

assign m_axis_tvalid = m_valid;
assign m_axis_tdata = oq_data[om_rp];
assign m_axis_tkeep = m_keep;
assign m_axis_tlast = m_last;
assign m_axis_tuser = m_err;

always @(posedge clk) begin
    if (o_pop) begin
        om_rp <= oh;
        m_keep <= oh_err ? 64'd0 : oq_keep[oh];
        m_last <= oh_last;
        m_err <= oh_err;
    end
    if (o_pop)
        m_valid <= 1'b1;
    else if (m_pop)
        m_valid <= 1'b0;
    status_valid <= m_pop && m_last;
    status_error <= m_pop && m_last && m_err;
    if (o_pop) begin
        oq_rp <= oq_rp + 1'b1;
        if (oh_last) begin
            cq_rp <= cq_rp + 1'b1;
        end
    end
    if (rst) begin
        m_valid <= 1'b0;
        status_valid <= 1'b0;
        status_error <= 1'b0;
        oq_rp <= 0;
        cq_rp <= 0;
    end
end

endmodule

`resetall
