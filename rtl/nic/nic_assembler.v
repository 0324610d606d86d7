// SPDX-License-Identifier: MIT
/*
 * nic_assembler: builds an outgoing frame as one AXI4-Stream packet from a
 * header block (up to 160 bytes held in a register) followed by up to three
 * byte ranges of two RAMs, each read through a nic_rd_stream the caller
 * owns (A and B). Empty pieces are skipped. inc_axis_packer joins the
 * pieces at any byte offset into full beats (its input register
 * puts the choice of piece and the byte placement in different clocks).
 *
 * While a piece goes out, the reader of the next one is started if it is
 * the other reader (the header and a piece of A, then one of B, say), so
 * its first beat is there when the piece before it ends.
 *
 * Start with go (when go_ready); done pulses when the frame's last beat has
 * left. The next frame may start as soon as this one's last piece is in the
 * packer (go_ready), before its last beats have left: frames follow each
 * other in the output as they were started, and done pulses once for each,
 * in order. busy: a frame is being read or has beats yet to leave.
 *
 * With QUEUE = 1 (both readers are nic_rd_stream with QUEUE = 1: a reader
 * takes a range while its last one still goes out) the next frame is taken
 * while this one is under way (go_ready again at once: its header and
 * pieces wait in registers), the reader of its first piece is started
 * while this frame's last piece goes out, and its header follows this
 * frame's last piece in the packer with no clock between them; inside a
 * frame, the next piece's reader is started early even when it is the
 * same reader.
 *
 * Each reader is given its range's counts with the range (rd*_start_cnt,
 * nic_rd_count's, for nic_rd_stream PRECOUNT = 1), made a clock after the
 * frame's pieces are loaded from the registers they are loaded into: a
 * reader is not started in the clock right after a frame is loaded (the
 * next frame's, taken ahead, a clock after it is taken).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_assembler #
(
    // beat width, bits (256 or 512): the readers' and the output's
    parameter DATA_W = 256,
    // address bits (bytes) of the RAM behind reader A, and behind B
    parameter A_AW = 14,
    parameter B_AW = 14,
    // 1: the readers queue a range (nic_rd_stream QUEUE = 1), and frames
    // are taken one ahead (see above); 0: one frame's pieces at a time
    parameter QUEUE = 0,
    // bytes per beat, and their log2, and the segments' start addresses'
    // width (derived: leave them)
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB),
    parameter SA_W = A_AW > B_AW ? A_AW : B_AW,
    parameter CNT_W = 26 + BS
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire              go,
    output wire              go_ready,
    output wire              busy,
    output wire              done,
    input  wire [1279:0]     hb,         // header block
    input  wire [7:0]        hb_len,
    // three segments: source (0 = A, 1 = B), start byte, length
    input  wire [2:0]        seg_b,
    input  wire [SA_W-1:0]   seg0_start,
    input  wire [15:0]       seg0_len,
    input  wire [SA_W-1:0]   seg1_start,
    input  wire [15:0]       seg1_len,
    input  wire [SA_W-1:0]   seg2_start,
    input  wire [15:0]       seg2_len,

    output wire              rda_start_valid,
    input  wire              rda_start_ready,
    output wire [A_AW-1:0]   rda_start_addr,
    output wire [15:0]       rda_start_len,
    output wire [CNT_W-1:0]  rda_start_cnt,  // nic_rd_count's of the range
    input  wire [DATA_W-1:0] rda_tdata,
    input  wire              rda_tvalid,
    output wire              rda_tready,
    input  wire              rda_tlast,
    input  wire [BS:0]       rda_tlen,   // the beat's byte count

    output wire              rdb_start_valid,
    input  wire              rdb_start_ready,
    output wire [B_AW-1:0]   rdb_start_addr,
    output wire [15:0]       rdb_start_len,
    output wire [CNT_W-1:0]  rdb_start_cnt,  // nic_rd_count's of the range
    input  wire [DATA_W-1:0] rdb_tdata,
    input  wire              rdb_tvalid,
    output wire              rdb_tready,
    input  wire              rdb_tlast,
    input  wire [BS:0]       rdb_tlen,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [BB-1:0]     m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast
);

localparam [2:0] S_IDLE = 3'd0, S_HDR = 3'd1, S_START = 3'd2, S_SEG = 3'd3;

reg  [2:0]    state = S_IDLE;
reg  [1279:0] r_hb = 0;
// the header in pieces of BB bytes: the piece's place (a multiple of BB),
// the bytes left from it, the piece's length and whether it is the last,
// all registers (no subtraction between them and the packer)
localparam    NP = (160 + BB - 1) / BB;  // pieces of the largest header
localparam [7:0] BB8 = BB[7:0];
reg  [2:0]    hb_piece = 0;   // the piece's place / BB
reg  [7:0]    hb_left = 0;
reg  [BS:0]   hb_item = 0;    // min(hb_left, BB)
reg           hb_final = 1'b0; // hb_left <= BB
reg  [2:0]    r_seg_b = 0;
reg  [SA_W-1:0] r_start [0:2];
reg  [15:0]   r_len [0:2];
reg  [2:0]    r_nz = 0;       // the segments that are not empty
reg  [1:0]    seg = 0;        // current segment (in S_HDR: the first one)
reg           pre = 1'b0;     // the next segment's reader was started

// is anything left after the header, after segment i?
wire any_after_hdr = r_nz != 3'b000;
wire any_after0 = r_nz[1] || r_nz[2];
wire any_after1 = r_nz[2];
wire more_after_seg = seg == 2'd0 ? any_after0 : (seg == 2'd1 ? any_after1 : 1'b0);

// frames whose last piece is in the packer and whose last beat has not left
reg  [2:0]    open = 0;       // (at most 5: a beat each in the packer)

// QUEUE: the next frame, taken while this one is under way
reg           nf_valid = 1'b0;
reg  [1279:0] nf_hb = 0;
reg  [7:0]    nf_hb_len = 0;
reg  [2:0]    nf_seg_b = 0;
reg  [SA_W-1:0] nf_start [0:2];
reg  [15:0]   nf_len [0:2];
reg           nf_pre = 1'b0;  // the reader of its first piece was started

// the pieces' reader counts (nic_rd_count), made from the registers above
// a clock after they are loaded: cnt_ok, nf_cnt_ok when they are
wire [CNT_W-1:0] c_cnt [0:2];
wire [CNT_W-1:0] c_nf_cnt [0:2];
reg  [CNT_W-1:0] r_cnt [0:2];
reg  [CNT_W-1:0] nf_cnt [0:2];
reg              cnt_ok = 1'b0, nf_cnt_ok = 1'b0;
genvar gi;
generate
    for (gi = 0; gi < 3; gi = gi + 1) begin : piece
        nic_rd_count #(.BB(BB)) cur (
            .s(r_start[gi][BS-1:0]), .len(r_len[gi]), .cnt(c_cnt[gi])
        );
        nic_rd_count #(.BB(BB)) nxt (
            .s(nf_start[gi][BS-1:0]), .len(nf_len[gi]), .cnt(c_nf_cnt[gi])
        );
        always @(posedge clk) begin
            r_cnt[gi] <= c_cnt[gi];
            nf_cnt[gi] <= c_nf_cnt[gi];
        end
    end
endgenerate

assign go_ready = state == S_IDLE || (QUEUE != 0 && !nf_valid);
assign busy = state != S_IDLE || open != 0 || nf_valid;

// ---- items into the packer ----
reg  [DATA_W-1:0] item;
reg  [BS:0]       item_len;
reg               item_last, item_valid;
wire              item_ready;

wire src_b = r_seg_b[seg];
wire [DATA_W-1:0] rd_data = src_b ? rdb_tdata : rda_tdata;
wire              rd_valid = src_b ? rdb_tvalid : rda_tvalid;
wire              rd_last = src_b ? rdb_tlast : rda_tlast;
wire [BS:0]       rd_len = src_b ? rdb_tlen : rda_tlen;

wire [NP*DATA_W-1:0] hb_ext = {{(NP * DATA_W - 1280){1'b0}}, r_hb};
// the next piece's bytes left, length and finality, from a count of bytes
function [BS:0] piece_len;
    input [7:0] left;
    piece_len = left > BB8 ? BB8[BS:0] : left[BS:0];
endfunction
wire [7:0]    hb_left_nx = hb_left - BB8;

always @* begin
    item = 0;
    item_len = 0;
    item_last = 1'b0;
    item_valid = 1'b0;
    if (state == S_HDR) begin
        item = hb_ext[hb_piece * DATA_W +: DATA_W];
        item_len = hb_item;
        item_last = hb_final && !any_after_hdr;
        item_valid = 1'b1;
    end else if (state == S_SEG) begin
        item = rd_data;
        // (the reader's count of the beat's bytes, from a register)
        item_len = rd_len;
        item_last = rd_last && !more_after_seg;
        item_valid = rd_valid;
    end
end

wire item_take = item_valid && item_ready;
assign rda_tready = state == S_SEG && !src_b && item_ready;
assign rdb_tready = state == S_SEG && src_b && item_ready;

// the next non-empty segment from s on, if any
function [2:0] next_seg;
    input [1:0] s;
    input [2:0] nz;
    begin
        if (s == 2'd0 && nz[0])
            next_seg = 3'd0;
        else if (s <= 2'd1 && nz[1])
            next_seg = 3'd1;
        else if (nz[2])
            next_seg = 3'd2;
        else
            next_seg = 3'd4;    // none
    end
endfunction

wire [2:0] nxt_after = seg == 2'd2 ? 3'd4 : next_seg(seg + 2'd1, r_nz);

// the segment a reader is started for: in S_START the current one; while
// the header or a piece of the other reader goes out, the next one
wire [2:0] p_seg = state == S_HDR ? (r_nz[seg] ? {1'b0, seg} : 3'd4) : nxt_after;
wire       p_b = r_seg_b[p_seg[1:0]];
wire       p_go = !pre && !p_seg[2] &&
                  (state == S_HDR || (state == S_SEG && (p_b != src_b || QUEUE != 0)));
// QUEUE: the next frame's first piece, while this frame's last piece goes
// out (nothing else is started then)
wire [2:0] nf_nz = {nf_len[2] != 0, nf_len[1] != 0, nf_len[0] != 0};
wire [2:0] x_seg = next_seg(2'd0, nf_nz);
wire       x_b = nf_seg_b[x_seg[1:0]];
wire       last_piece = (state == S_SEG && nxt_after[2]) ||
                        (state == S_HDR && !any_after_hdr);
wire       x_go = QUEUE != 0 && nf_valid && !nf_pre && !x_seg[2] && last_piece;
// a reader is started now (once the counts are made)
wire       t_go = state == S_START || p_go || x_go;
wire       t_ok = x_go ? nf_cnt_ok : cnt_ok;
wire [1:0] t_seg = state == S_START ? seg : p_seg[1:0];
wire       t_b = x_go ? x_b : r_seg_b[t_seg];
wire [SA_W-1:0] t_start = x_go ? nf_start[x_seg[1:0]] : r_start[t_seg];
wire [15:0] t_len = x_go ? nf_len[x_seg[1:0]] : r_len[t_seg];
wire [CNT_W-1:0] t_cnt = x_go ? nf_cnt[x_seg[1:0]] : r_cnt[t_seg];

assign rda_start_valid = t_go && t_ok && !t_b;
assign rdb_start_valid = t_go && t_ok && t_b;
assign rda_start_addr = t_start[A_AW-1:0];
assign rdb_start_addr = t_start[B_AW-1:0];
assign rda_start_len = t_len;
assign rdb_start_len = t_len;
assign rda_start_cnt = t_cnt;
assign rdb_start_cnt = t_cnt;
wire started = t_ok && (t_b ? rdb_start_ready : rda_start_ready);
// the next segment's reader is (or is now) started
wire pre_now = pre || (p_go && started);
wire nf_pre_now = nf_pre || (x_go && started);

wire out_last = m_axis_tvalid && m_axis_tready && m_axis_tlast;
assign done = out_last;
// the frame's last piece goes into the packer
wire in_last = item_take && item_last;

// a frame starts: taken now into an idle assembler, or the one waiting (or
// taken now) as the last one's last piece goes in
wire take_go = go && go_ready;
wire load = (state == S_IDLE && (take_go || nf_valid)) ||
            (in_last && (nf_valid || take_go));
wire [1279:0] l_hb = nf_valid ? nf_hb : hb;
wire [7:0]    l_hb_len = nf_valid ? nf_hb_len : hb_len;
wire [2:0]    l_seg_b = nf_valid ? nf_seg_b : seg_b;
wire [SA_W-1:0] l_start0 = nf_valid ? nf_start[0] : seg0_start;
wire [SA_W-1:0] l_start1 = nf_valid ? nf_start[1] : seg1_start;
wire [SA_W-1:0] l_start2 = nf_valid ? nf_start[2] : seg2_start;
wire [15:0]   l_len0 = nf_valid ? nf_len[0] : seg0_len;
wire [15:0]   l_len1 = nf_valid ? nf_len[1] : seg1_len;
wire [15:0]   l_len2 = nf_valid ? nf_len[2] : seg2_len;
// (its first piece's reader started already)
wire          l_pre = nf_valid && nf_pre_now;

always @(posedge clk) begin
    case (state)
    S_IDLE: begin
        // (the load below)
    end
    S_HDR: begin
        if (item_take) begin
            hb_piece <= hb_piece + 3'd1;
            hb_left <= hb_left_nx;
            hb_item <= piece_len(hb_left_nx);
            hb_final <= hb_left_nx <= BB8;
            if (hb_final) begin
                pre <= 1'b0;
                state <= !any_after_hdr ? S_IDLE : pre_now ? S_SEG : S_START;
            end else if (p_go && started) begin
                pre <= 1'b1;
            end
        end else if (p_go && started) begin
            pre <= 1'b1;
        end
    end
    S_START: begin
        // (entered from IDLE with no header and no piece: never asked)
        if (!r_nz[seg])
            state <= S_IDLE;
        else if (started)
            state <= S_SEG;
    end
    S_SEG: begin
        if (item_take && rd_last) begin
            pre <= 1'b0;
            if (nxt_after[2]) begin
                state <= S_IDLE;
            end else begin
                seg <= nxt_after[1:0];
                state <= pre_now ? S_SEG : S_START;
            end
        end else if (p_go && started) begin
            pre <= 1'b1;
        end
    end
    default: state <= S_IDLE;
    endcase
    if (load) begin
        r_hb <= l_hb;
        hb_piece <= 0;
        hb_left <= l_hb_len;
        hb_item <= piece_len(l_hb_len);
        hb_final <= l_hb_len <= BB8;
        r_seg_b <= l_seg_b;
        r_start[0] <= l_start0;
        r_start[1] <= l_start1;
        r_start[2] <= l_start2;
        r_len[0] <= l_len0;
        r_len[1] <= l_len1;
        r_len[2] <= l_len2;
        r_nz <= {l_len2 != 0, l_len1 != 0, l_len0 != 0};
        // (the first segment; with none, the header is the frame)
        seg <= l_len0 != 0 ? 2'd0 : l_len1 != 0 ? 2'd1 : 2'd2;
        // (with a header: its first piece's reader; without: the next's)
        pre <= l_hb_len != 0 && l_pre;
        state <= l_hb_len != 0 ? S_HDR : l_pre ? S_SEG : S_START;
        nf_valid <= 1'b0;
    end
    // (QUEUE = 0: never, and the next frame's registers are left out)
    if (QUEUE != 0 && take_go && !load) begin
        nf_valid <= 1'b1;
        nf_hb <= hb;
        nf_hb_len <= hb_len;
        nf_seg_b <= seg_b;
        nf_start[0] <= seg0_start;
        nf_start[1] <= seg1_start;
        nf_start[2] <= seg2_start;
        nf_len[0] <= seg0_len;
        nf_len[1] <= seg1_len;
        nf_len[2] <= seg2_len;
        nf_pre <= 1'b0;
    end else if (x_go && started) begin
        nf_pre <= 1'b1;
    end
    open <= open + {2'd0, in_last} - {2'd0, out_last};
    // (r_cnt, nf_cnt are of the pieces a clock old)
    cnt_ok <= !load;
    nf_cnt_ok <= !(QUEUE != 0 && take_go && !load);
    if (rst) begin
        state <= S_IDLE;
        open <= 0;
        nf_valid <= 1'b0;
    end
end

inc_axis_packer #(
    .IN_BYTES(BB),
    .OUT_BYTES(BB),
    .USER_W(1),
    .LEN_W(8)
) packer (
    .clk(clk),
    .rst(rst),
    .s_item_data(item),
    .s_item_len({{(7 - BS){1'b0}}, item_len}),
    .s_item_last(item_last),
    .s_item_user(1'b0),
    .s_item_valid(item_valid),
    .s_item_ready(item_ready),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tuser()
    /* verilator lint_on PINCONNECTEMPTY */
);

endmodule

`resetall
