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
 *   beat: [4:0] k (1..24), [6:5] mode (1 paper, 2 sparse), [7] reserved, 0.
 * m_axis (body): 2 * 4 * LANES bytes per beat, tkeep contiguous, full but on
 *   the last beat; a body of 0 bytes is one beat with tkeep = 0. tuser:
 *   [6:0] the chunk's k and mode, [7] error, valid on the tlast beat: mode
 *   or k out of range, tuser[7] set, a short beat before the last, or a
 *   chunk over 9000 bytes. The body of such a chunk is still produced (as paper mode when
 *   the mode was wrong) and must be dropped.
 *
 * Line rate: with m_axis_tready held high, s_axis_tready stays high: one
 * raw beat per clock for any data, either mode, back-to-back chunks. The
 * compressed side is twice as wide because a segment of incompressible
 * values codes to 17/16 of its size (docs/codec.md, section 9).
 *
 * Pipeline: S1 registers the beat; S2 holds the LANES quantized lanes
 * (inc_quant); the groups are then packed (inc_group_pack) into a ring of
 * beats. The emitter waits until a segment (8 groups) is complete in the
 * ring, then sends one ring entry per clock: the segment's header (mask and
 * tag words) with its first entry, then payloads, and the tail bytes with
 * the chunk's last entry, as items to inc_axis_packer.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_compressor #
(
    // 32-bit lanes per raw beat: 8 (256-bit) or 16 (512-bit)
    parameter LANES = 8
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
localparam GPB = LANES / 8;            // groups per beat
localparam SEG_ROWS = 8 / GPB;         // beats per segment
localparam HDR = 17;                   // largest segment header, bytes
localparam ITEM = HDR + 32 * GPB + 3;  // largest emitter item, bytes
localparam ITEM_LEN_W = 8;             // bits of an item length
localparam NB_W = $clog2(W + 1);       // bits of a byte count in a beat
localparam RING = 16;                  // ring entries (beats)
localparam MAX_CHUNK = 9000;           // bytes

// ---- input: S1 ---------------------------------------------------------

reg              in_first = 1'b1;  // next beat starts a chunk
reg  [6:0]       in_user = 0;      // k and mode of the current chunk
reg  [13:0]      in_bytes = 0;     // bytes of the chunk so far (saturating)
reg              in_err = 1'b0;    // sticky error of the current chunk
reg  [2:0]       in_gi = 0;        // index in its segment of the next group

function [NB_W-1:0] count_keep;
    input [W-1:0] keep;
    integer i;
    begin
        count_keep = 0;
        for (i = 0; i < W; i = i + 1)
            count_keep = count_keep + {{(NB_W-1){1'b0}}, keep[i]};
    end
endfunction

wire [6:0]      b_user = in_first ? s_axis_tuser[6:0] : in_user;
wire [NB_W-1:0] b_nb = count_keep(s_axis_tkeep);
wire [NB_W-3:0] b_vals = b_nb[NB_W-1:2];           // whole values in beat
wire [1:0]      b_groups = b_vals == 0 ? 2'd0 :
                           (GPB == 2 && b_vals > 8) ? 2'd2 : 2'd1;
wire [14:0]     b_bytes = {1'b0, in_bytes} + {{(15-NB_W){1'b0}}, b_nb};
wire            b_mode_ok = b_user[6:5] == 2'd1 || b_user[6:5] == 2'd2;
wire            b_k_ok = b_user[4:0] >= 5'd1 && b_user[4:0] <= 5'd24;
wire            b_err = in_err || !b_mode_ok || !b_k_ok ||
                        (in_first && s_axis_tuser[7]) ||
                        (!s_axis_tlast && b_nb != W[NB_W-1:0]) ||
                        b_bytes > MAX_CHUNK;
// the 1..3 bytes after the last whole value, for the last beat
wire [W*8+23:0] b_data_ext = {24'd0, s_axis_tdata};
wire [23:0]     b_tail = b_data_ext[{b_vals, 5'd0} +: 24];

// ring occupancy reserved by the beats in S1 and S2
reg              s1_valid = 1'b0, s2_valid = 1'b0;
reg  [4:0]       ring_cnt = 0;
wire [4:0]       reserved = ring_cnt + {4'd0, s1_valid} + {4'd0, s2_valid};

assign s_axis_tready = reserved < RING;

wire in_take = s_axis_tvalid && s_axis_tready;

reg  [LANES*32-1:0] s1_data = 0;
reg  [NB_W-3:0]     s1_vals = 0;
reg  [1:0]          s1_groups = 0;
reg  [1:0]          s1_tail_len = 0;
reg  [23:0]         s1_tail = 0;
reg                 s1_last = 1'b0;
reg  [6:0]          s1_user = 0;
reg                 s1_err = 1'b0;
reg  [2:0]          s1_gi = 0;

always @(posedge clk) begin
    s1_valid <= in_take;
    if (in_take) begin
        s1_data <= s_axis_tdata;
        s1_vals <= b_vals;
        s1_groups <= b_groups;
        s1_tail_len <= s_axis_tlast ? b_nb[1:0] : 2'd0;
        s1_tail <= b_tail;
        s1_last <= s_axis_tlast;
        s1_user <= b_user;
        s1_err <= b_err;
        s1_gi <= in_gi;

        in_first <= s_axis_tlast;
        in_user <= b_user;
        in_bytes <= s_axis_tlast ? 14'd0 :
                    (b_bytes > 15'd16383 ? 14'd16383 : b_bytes[13:0]);
        in_err <= s_axis_tlast ? 1'b0 : b_err;
        in_gi <= s_axis_tlast ? 3'd0 : in_gi + {1'b0, b_groups};
    end
    if (rst) begin
        s1_valid <= 1'b0;
        in_first <= 1'b1;
        in_bytes <= 0;
        in_err <= 1'b0;
        in_gi <= 0;
    end
end

// ---- quantize: S2 --------------------------------------------------------

wire [LANES*2-1:0]  q_tags;
wire [LANES*32-1:0] q_words;

// a wrong k still codes deterministically (with k = 1); the chunk is flagged
wire [4:0] s1_k = (s1_user[4:0] >= 5'd1 && s1_user[4:0] <= 5'd24) ?
                  s1_user[4:0] : 5'd1;

genvar l;
generate
    for (l = 0; l < LANES; l = l + 1) begin : lane
        wire [1:0] tag;
        inc_quant quant (
            .value(s1_data[32*l +: 32]),
            .k(s1_k),
            .tag(tag),
            .word(q_words[32*l +: 32])
        );
        // lanes past the chunk's last value are padding: ZERO
        assign q_tags[2*l +: 2] = l < s1_vals ? tag : 2'd0;
    end
endgenerate

reg  [LANES*2-1:0]  s2_tags = 0;
reg  [LANES*32-1:0] s2_words = 0;
reg  [1:0]          s2_groups = 0;
reg  [1:0]          s2_tail_len = 0;
reg  [23:0]         s2_tail = 0;
reg                 s2_last = 1'b0;
reg  [6:0]          s2_user = 0;
reg                 s2_err = 1'b0;
reg  [2:0]          s2_gi = 0;

always @(posedge clk) begin
    s2_valid <= s1_valid;
    if (s1_valid) begin
        s2_tags <= q_tags;
        s2_words <= q_words;
        s2_groups <= s1_groups;
        s2_tail_len <= s1_tail_len;
        s2_tail <= s1_tail;
        s2_last <= s1_last;
        s2_user <= s1_user;
        s2_err <= s1_err;
        s2_gi <= s1_gi;
    end
    if (rst)
        s2_valid <= 1'b0;
end

// ---- pack into the ring ----------------------------------------------------

wire [GPB*16-1:0]  p_tw;
wire [GPB*256-1:0] p_pay;
wire [GPB*6-1:0]   p_size;

genvar g;
generate
    for (g = 0; g < GPB; g = g + 1) begin : grp
        inc_group_pack pack (
            .tags(s2_tags[16*g +: 16]),
            .words(s2_words[256*g +: 256]),
            .tw(p_tw[16*g +: 16]),
            .payload(p_pay[256*g +: 256]),
            .size(p_size[6*g +: 6])
        );
    end
endgenerate

// one entry per beat that has values, and one for a last beat without any
wire ring_wr = s2_valid && (s2_groups != 2'd0 || s2_last);

// entry fields; payloads in their own array (a RAM: one write, one read)
reg [1:0]          r_groups [0:RING-1];  // 0: the chunk's end only
reg [GPB*16-1:0]   r_tw [0:RING-1];
reg [GPB*6-1:0]    r_size [0:RING-1];
reg                r_seg_first [0:RING-1];
reg                r_seg_last [0:RING-1];
reg                r_end [0:RING-1];     // the chunk's last entry
reg [1:0]          r_tail_len [0:RING-1];
reg [23:0]         r_tail [0:RING-1];
reg [6:0]          r_user [0:RING-1];
reg                r_err [0:RING-1];
reg [GPB*256-1:0]  r_pay [0:RING-1];

reg [3:0] wp = 0, rp = 0;

always @(posedge clk) begin
    if (ring_wr) begin
        r_groups[wp] <= s2_groups;
        r_tw[wp] <= p_tw;
        r_size[wp] <= p_size;
        r_seg_first[wp] <= s2_gi == 3'd0;
        r_seg_last[wp] <= s2_last ||
                          ({1'b0, s2_gi} + {2'b0, s2_groups}) == 4'd8;
        r_end[wp] <= s2_last;
        r_tail_len[wp] <= s2_tail_len;
        r_tail[wp] <= s2_tail;
        r_user[wp] <= s2_user;
        r_err[wp] <= s2_err;
        r_pay[wp] <= p_pay;
        wp <= wp + 4'd1;
    end
    if (rst)
        wp <= 0;
end

// ---- emitter ------------------------------------------------------------------

wire [4:0] ring_fill = ring_cnt;
wire       item_ready;

// A segment starting at rp closes at entry j when that entry ends it, or
// when the entry after it is a chunk's end without values (the chunk's
// last beat held only tail bytes).
reg        seg_ready;
reg [3:0]  seg_rows;      // entries in the segment, 1..SEG_ROWS
reg [3:0]  j;
always @* begin
    seg_ready = 1'b0;
    seg_rows = 4'd0;
    for (j = 0; j < SEG_ROWS[3:0]; j = j + 4'd1) begin
        if (!seg_ready && ring_fill > {1'b0, j} &&
            (r_seg_last[rp + j] ||
             (ring_fill > {1'b0, j} + 5'd1 && r_groups[rp + j + 4'd1] == 2'd0))) begin
            seg_ready = 1'b1;
            seg_rows = j + 4'd1;
        end
    end
end

// the segment's tag words, in group order, and which groups exist
reg [127:0] seg_tw;
reg [7:0]   seg_has;
integer     jj, gg;
always @* begin
    seg_tw = 0;
    seg_has = 0;
    for (jj = 0; jj < SEG_ROWS; jj = jj + 1) begin
        for (gg = 0; gg < GPB; gg = gg + 1) begin
            if (jj < {28'd0, seg_rows} && gg < r_groups[rp + jj[3:0]]) begin
                seg_tw[16*(jj*GPB + gg) +: 16] = r_tw[rp + jj[3:0]][16*gg +: 16];
                seg_has[jj*GPB + gg] = 1'b1;
            end
        end
    end
end

// the header: [mask] then the present groups' tag words
wire        sparse = r_user[rp][6:5] == 2'd2;
reg [135:0] hdr;
reg [4:0]   hdr_len;
reg [7:0]   mask;
reg [3:0]   npres;
integer     h;
always @* begin
    mask = 0;
    for (h = 0; h < 8; h = h + 1)
        mask[h] = seg_has[h] && (!sparse || seg_tw[16*h +: 16] != 16'd0);
    hdr = 0;
    npres = 0;
    if (sparse)
        hdr[7:0] = mask;
    for (h = 0; h < 8; h = h + 1) begin
        if (mask[h]) begin
            hdr[{npres, 4'd0} + (sparse ? 8'd8 : 8'd0) +: 16] = seg_tw[16*h +: 16];
            npres = npres + 4'd1;
        end
    end
    hdr_len = {npres, 1'b0} + (sparse ? 5'd1 : 5'd0);
end

// the item for the entry at rp
wire                   e_first = r_seg_first[rp] && r_groups[rp] != 2'd0;
wire                   e_go = ring_fill != 0 && (!e_first || seg_ready);
reg  [ITEM*8-1:0]      item;
reg  [ITEM_LEN_W-1:0]  item_len;
integer                ig;
always @* begin
    item = 0;
    item_len = 0;
    if (e_first) begin
        item[HDR*8-1:0] = hdr;
        item_len = {3'd0, hdr_len};
    end
    for (ig = 0; ig < GPB; ig = ig + 1) begin
        if (ig < r_groups[rp]) begin
            item = item | ({{(ITEM-32)*8{1'b0}}, r_pay[rp][256*ig +: 256]} << {item_len, 3'd0});
            item_len = item_len + {2'd0, r_size[rp][6*ig +: 6]};
        end
    end
    if (r_end[rp]) begin
        item = item | ({{(ITEM-3)*8{1'b0}}, r_tail[rp]} << {item_len, 3'd0});
        item_len = item_len + {6'd0, r_tail_len[rp]};
    end
end

wire item_valid = e_go;
wire item_take = item_valid && item_ready;

always @(posedge clk) begin
    if (item_take)
        rp <= rp + 4'd1;
    ring_cnt <= ring_cnt + {4'd0, ring_wr} - {4'd0, item_take};
    if (rst) begin
        rp <= 0;
        ring_cnt <= 0;
    end
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
    .s_item_data(item),
    .s_item_len(item_len),
    .s_item_last(r_end[rp]),
    .s_item_user({r_end[rp] && r_err[rp], r_user[rp]}),
    .s_item_valid(item_valid),
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
