// SPDX-License-Identifier: MIT
/*
 * nic_tx: the transmit engine. For each descriptor of the TX ring
 * (docs/regmap.md) it fetches the frame into a RAM, decides by the rules of
 * docs/wire-format.md whether to send it compressed, and sends either the
 * frame as it was or the encapsulated frame, bit-exact with incw_tx() of
 * userspace/wire. Then it writes the descriptor's status and advances CONS.
 *
 * One frame at a time: fetch, compress (the range through inc_compressor
 * into a body RAM), checksum pass, header rewrite, send, status.
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

module nic_tx
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
    input  wire [255:0]  rd_data,
    input  wire [31:0]   rd_keep,
    input  wire          rd_last,
    input  wire          rd_valid,
    output wire          rd_ready,

    output wire          wr_req_valid,
    input  wire          wr_req_ready,
    output wire [63:0]   wr_req_addr,
    output wire [15:0]   wr_req_len,
    output wire [255:0]  wr_data,
    output wire [31:0]   wr_keep,
    output wire          wr_last,
    output wire          wr_valid,
    input  wire          wr_ready,
    input  wire          wr_done,

    output wire [255:0]  m_axis_tdata,
    output wire [31:0]   m_axis_tkeep,
    output wire          m_axis_tvalid,
    input  wire          m_axis_tready,
    output wire          m_axis_tlast,

    output reg           event_done = 1'b0, // a descriptor completed
    output wire          idle,
    // statistics increments (docs/regmap.md, counters 0..7)
    output reg  [127:0]  stat_inc = 0
);

`include "nic_beat_fns.vh"

// transmit outcomes (incw_tx_result)
localparam [7:0] R_COMPRESSED = 8'd0, R_NOT_ASKED = 8'd1, R_NOT_IP = 8'd2,
                 R_FRAGMENT = 8'd3, R_NOT_L4 = 8'd4, R_BAD_RANGE = 8'd5,
                 R_BAD_PARAMS = 8'd6, R_NO_GAIN = 8'd7;

localparam [4:0] T_IDLE = 5'd0, T_DREQ = 5'd1, T_DWAIT = 5'd2,
                 T_FREQ = 5'd3, T_FETCH = 5'd4, T_PARSE = 5'd5,
                 T_COMP_GO = 5'd6, T_COMP = 5'd7, T_CSUM_GO = 5'd8,
                 T_CSUM = 5'd9, T_BUILD1 = 5'd10, T_BUILD2 = 5'd11,
                 T_BUILD3 = 5'd12, T_SEND = 5'd13, T_SENDING = 5'd14,
                 T_SREQ = 5'd15, T_SDATA = 5'd16, T_SWAIT = 5'd17,
                 T_PWAIT = 5'd18, T_CS_END = 5'd19,
                 T_SUMS = 5'd22, T_SHIM1 = 5'd23, T_SHIM2 = 5'd24,
                 T_IP4 = 5'd25, T_SLOT = 5'd26;

reg [4:0] state = T_IDLE;
reg [2:0] wait_n = 0;   // clocks in T_CS_END, T_SHIM1 and T_IP4
// nothing to do: no descriptor waiting, nothing in flight
assign idle = state == T_IDLE && !as_busy && !(tx_en && txq_prod != txq_cons);

// ---- the descriptor ----
reg [63:0] d_addr = 0;
reg [13:0] d_len = 0;
reg        d_comp = 1'b0;
reg [7:0]  d_k = 0, d_mode = 0;
reg [15:0] d_off = 0, d_rlen = 0;
reg [63:0] d_slot = 0;          // the descriptor's host address
reg        d_err = 1'b0;

wire [11:0] ring_mask = ~(12'hfff << txq_size);
// the descriptor's address, BASE's bits below the descriptor size ignored
// (docs/regmap.md), added in two clocks: the low 32 bits and their carry in
// T_IDLE, the high ones in T_SLOT
wire [32:0] slot_lo_c = {1'b0, txq_base[31:5], 5'd0} +
                        {16'd0, txq_cons[11:0] & ring_mask, 5'd0};
reg  [32:0] slot_lo = 0;
wire        unused_base = ^txq_base[4:0];   // below the descriptor size

// ---- frame RAM (A), body RAM (B) ----
reg          a_we = 1'b0;
reg  [8:0]   a_waddr = 0;
reg  [255:0] a_wdata = 0;
wire         a_re;
wire [8:0]   a_raddr;
wire [255:0] a_rdata;

nic_ram #(.WIDTH(256), .ADDR_W(9)) ram_a (
    .clk(clk), .we(a_we), .waddr(a_waddr), .wdata(a_wdata),
    .re(a_re), .raddr(a_raddr), .rdata(a_rdata)
);

reg          b_we = 1'b0;
reg  [8:0]   b_waddr = 0;
reg  [255:0] b_wdata = 0;
wire         b_re;
wire [8:0]   b_raddr;
wire [255:0] b_rdata;

nic_ram #(.WIDTH(256), .ADDR_W(9)) ram_b (
    .clk(clk), .we(b_we), .waddr(b_waddr), .wdata(b_wdata),
    .re(b_re), .raddr(b_raddr), .rdata(b_rdata)
);

// ---- header register and parse ----
reg  [1279:0] hreg = 0;
reg  [3:0]    fetch_word = 0;
reg  [8:0]    a_wptr = 0;

// The header's fields and what follows from them pass six registers (P1
// to P6), each a few LUT levels deep (docs/rtl.md, "Logic depth"), every
// clock; hdr_age counts the clocks since hreg last changed, so T_PARSE
// acts once P6 holds this frame's outcome. For a frame longer than its 160
// header bytes that is already true when the fetch ends.
wire [7:0]   pc_l4_len;
wire         pc_l4_ok;

// P1: the IP parse
wire [1:0]   p_result;
wire [7:0]   p_l3_off, p_ip_hlen, p_proto, p_l4_off;
wire [3:0]   p_ip_ver;
wire [13:0]  p_ip_end;
wire         p_fragment;

nic_hdr_parse_reg parse (
    .clk(clk), .en(1'b1),
    .hdr(hreg), .len(d_len),
    .result(p_result), .l3_off(p_l3_off),
    .ip_ver(p_ip_ver), .ip_hlen(p_ip_hlen), .ip_end(p_ip_end),
    .proto(p_proto), .fragment(p_fragment), .l4_off(p_l4_off)
);

reg  [7:0]   p_l4_len = 0;
reg          p_l4_ok = 1'b0;

// P2: the L4 header at the parsed offset
nic_l4_parse parse4 (
    .hdr(hreg), .l4_off(p_l4_off), .ip_end(p_ip_end), .proto(p_proto),
    .ok(pc_l4_ok), .l4_len(pc_l4_len)
);

// P3: where the payload starts; P4: its length, the range's start; P5:
// the range's end, the payload left after the offset (one adder each)
reg  [13:0] pay_off = 0, p_pay_len = 0;
reg  [13:0] rs = 0;                                // range start in the frame
reg  [13:0] re_ = 0;                               // range end
reg  [13:0] pay_rem = 0;                           // payload after d_off
reg         off_ok = 1'b0;                         // d_off inside the payload

reg [7:0] outcome = 0;

wire params_ok = d_k >= 8'd1 && d_k <= 8'd24 && (d_mode == 8'd1 || d_mode == 8'd2);
wire range_ok = d_rlen != 0 && d_off[15:14] == 0 && off_ok &&
                d_rlen <= {2'd0, pay_rem} && d_rlen <= 16'd9000;
// P6: the outcome, registered (T_PARSE acts on it)
reg  [7:0] decide = 0;
wire [7:0] decide_c = !d_comp ? R_NOT_ASKED :
                    p_result != 2'd0 ? R_NOT_IP :
                    !p_l4_ok ? R_NOT_L4 :
                    p_fragment ? R_FRAGMENT :
                    !params_ok ? R_BAD_PARAMS :
                    !range_ok ? R_BAD_RANGE : R_COMPRESSED;

// hreg is written: cleared with a descriptor, filled by the fetch
wire hreg_wr = rd_valid && (state == T_DWAIT ||
                            (state == T_FETCH && fetch_word < 4'd5));
reg  [2:0] hdr_age = 0;
always @(posedge clk) begin
    p_l4_ok <= pc_l4_ok;
    p_l4_len <= pc_l4_len;

    pay_off <= {6'd0, p_l4_off} + {6'd0, p_l4_len};
    p_pay_len <= p_ip_end - pay_off;
    rs <= pay_off + d_off[13:0];
    re_ <= rs + d_rlen[13:0];
    pay_rem <= p_pay_len - d_off[13:0];
    off_ok <= d_off[13:0] <= p_pay_len;

    decide <= decide_c;

    if (hdr_age != 3'd6)
        hdr_age <= hdr_age + 3'd1;
    if (hreg_wr)
        hdr_age <= 0;
end

// ---- reader A (frame RAM): compressor feed, checksum pass, send ----
reg          ra_go = 1'b0;
reg  [13:0]  ra_start = 0;
reg  [15:0]  ra_len = 0;
wire         ra_ready;
wire [255:0] ra_tdata;
wire [31:0]  ra_tkeep;
wire         ra_tvalid, ra_tlast;
wire [5:0]   ra_tlen;
wire         ra_tready;

// the assembler's use of reader A and B
wire         as_rda_valid, as_rdb_valid;
wire [13:0]  as_rda_addr, as_rdb_addr;
wire [15:0]  as_rda_len, as_rdb_len;
wire         as_rda_tready, as_rdb_tready;
wire         sending = state == T_SEND || state == T_SENDING;

nic_rd_stream #(.ADDR_W(9)) rd_a (
    .clk(clk), .rst(rst),
    .start_valid(sending ? as_rda_valid : ra_go),
    .start_ready(ra_ready),
    .start_addr(sending ? as_rda_addr : ra_start),
    .start_len(sending ? as_rda_len : ra_len),
    .ram_re(a_re), .ram_raddr(a_raddr), .ram_rdata(a_rdata),
    .m_axis_tdata(ra_tdata), .m_axis_tkeep(ra_tkeep),
    .m_axis_tvalid(ra_tvalid),
    .m_axis_tready(sending ? as_rda_tready :
                   (state == T_COMP ? c_s_tready : ra_tready)),
    .m_axis_tlast(ra_tlast), .m_axis_tlen(ra_tlen)
);

wire         rb_ready;
wire [255:0] rb_tdata;
wire         rb_tvalid, rb_tlast;
wire [5:0]   rb_tlen;

nic_rd_stream #(.ADDR_W(9)) rd_b (
    .clk(clk), .rst(rst),
    .start_valid(as_rdb_valid), .start_ready(rb_ready),
    .start_addr(as_rdb_addr), .start_len(as_rdb_len),
    .ram_re(b_re), .ram_raddr(b_raddr), .ram_rdata(b_rdata),
    .m_axis_tdata(rb_tdata),
    /* verilator lint_off PINCONNECTEMPTY */
    .m_axis_tkeep(),   // (the assembler counts bytes by tlen)
    /* verilator lint_on PINCONNECTEMPTY */
    .m_axis_tvalid(rb_tvalid), .m_axis_tready(as_rdb_tready),
    .m_axis_tlast(rb_tlast), .m_axis_tlen(rb_tlen)
);

// ---- the compressor ----
wire         c_s_tready;
wire [511:0] c_tdata;
wire [63:0]  c_tkeep;
wire         c_tvalid, c_tlast;
wire [7:0]   c_tuser;
wire         c_tready;

inc_compressor #(.LANES(8)) comp (
    .clk(clk), .rst(rst),
    .s_axis_tdata(ra_tdata), .s_axis_tkeep(ra_tkeep),
    .s_axis_tvalid(state == T_COMP && ra_tvalid), .s_axis_tready(c_s_tready),
    .s_axis_tlast(ra_tlast), .s_axis_tuser({1'b0, d_mode[1:0], d_k[4:0]}),
    .m_axis_tdata(c_tdata), .m_axis_tkeep(c_tkeep), .m_axis_tvalid(c_tvalid),
    .m_axis_tready(c_tready), .m_axis_tlast(c_tlast), .m_axis_tuser(c_tuser)
);

// the checksum pass takes every beat
assign ra_tready = state == T_CSUM;

// the body: 64-byte beats split into two 32-byte RAM words
reg  [511:0] sp_data = 0;
reg  [63:0]  sp_keep = 0;
reg          sp_full = 1'b0, sp_half = 1'b0, sp_last = 1'b0;
reg  [13:0]  body_len = 0;
wire [31:0]  body_sum;
reg          body_done = 1'b0;
reg          body_err = 1'b0;

reg  [8:0]   b_wptr = 0;
assign c_tready = state == T_COMP && !sp_full;

wire [255:0] sp_word = sp_half ? sp_data[511:256] : sp_data[255:0];
wire [31:0]  sp_wkeep = sp_half ? sp_keep[63:32] : sp_keep[31:0];
reg  [5:0]   sp_n_r = 0;
reg          sp_acc = 1'b0;

// the body's sum, over the words as they are written (T_PARSE starts it)
nic_csum_acc sum_body (
    .clk(clk), .start(state == T_PARSE), .lo(14'd0), .hi(14'h3fff),
    .beat(state == T_COMP && sp_full), .data(sp_word), .keep(sp_wkeep),
    .sum(body_sum)
);

// ---- checksum pass over [l4_off, ip_end) ----
// the sums of the L4 header and the payload before the range, and of the
// payload after it (stream offsets: the pass starts at l4_off), pipelined
// (nic_csum_acc: there 3 clocks after the last beat, and folded 2 later:
// T_CS_END waits three)
reg  [13:0] pre_end = 0, suf_start = 0;
wire [31:0] sum_pre, sum_suf;
wire        cs_start = state == T_COMP && body_done;
wire        cs_beat = state == T_CSUM && ra_tvalid;

always @(posedge clk) begin
    pre_end <= {6'd0, p_l4_len} + d_off[13:0];
    suf_start <= pre_end + d_rlen[13:0];
end

nic_csum_acc sum_pre_b (
    .clk(clk), .start(cs_start), .lo(14'd0), .hi(pre_end),
    .beat(cs_beat), .data(ra_tdata), .keep(ra_tkeep), .sum(sum_pre)
);
nic_csum_acc sum_suf_b (
    .clk(clk), .start(cs_start), .lo(suf_start), .hi(14'h3fff),
    .beat(cs_beat), .data(ra_tdata), .keep(ra_tkeep), .sum(sum_suf)
);

// ---- building the header block ----
reg  [13:0]  new_end = 0;         // end of the IP packet, compressed
reg  [1279:0] hb = 0;
reg  [7:0]   hb_len = 0;
// the lengths of the new frame, a clock after new_end (T_BUILD1) and one
// more for plen6: ready in T_SHIM1 and T_SHIM2
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

// the pseudo-header addresses' sum (nic_hsum: 3 clocks after the header
// and the bounds settle; used in T_SHIM1, long after)
wire [22:0] addr_sum;
nic_hsum hs_addr (
    .clk(clk), .hdr(hreg), .lo(addr_lo), .hi(addr_hi), .sum(addr_sum)
);

// T_SUMS: the sums of the body, the prefix and the suffix folded
wire [15:0] f_body, f_suf, f_pre;
nic_fold fold_body (.clk(clk), .acc(body_sum), .folded(f_body));
nic_fold fold_suf (.clk(clk), .acc(sum_suf), .folded(f_suf));
nic_fold fold_pre (.clk(clk), .acc(sum_pre), .folded(f_pre));

reg  [15:0] f_pre_r = 0, body_sw = 0, suf_sw = 0;

// the shim with its checksum field 0, as 8 big-endian words
wire [15:0] sh_w0 = 16'h4910;
wire [15:0] sh_w1 = {p_proto, p_l4_len};
wire [15:0] sh_w4 = {d_mode, d_k};
wire [15:0] sh_w5 = {d_rlen[7:0], d_rlen[15:8]};
wire [15:0] sh_w6 = {body_len[7:0], 2'd0, body_len[13:8]};
// the terms known from the parse on, summed every clock, and the rest in
// two partial sums, every clock too; T_SHIM1 (4 clocks): the partial sums
// settle (1), added (1) and folded (nic_fold: 2); T_SHIM2: taken
reg  [31:0] shim_const = 0, shim_p1 = 0, shim_p2 = 0;
always @(posedge clk) begin
    shim_const <= {9'd0, addr_sum} + 32'd253 + {16'd0, sh_w0} + {16'd0, sh_w1} +
                  {16'd0, d_off} + {16'd0, sh_w4} + {16'd0, sh_w5};
    shim_p1 <= shim_const + {16'd0, seg_len} + {16'd0, sh_w6};
    shim_p2 <= {16'd0, f_pre_r} + {16'd0, body_sw} + {16'd0, suf_sw};
end
wire [31:0] shim_acc_c = shim_p1 + shim_p2;
reg  [31:0] shim_acc = 0;
wire [15:0] shim_fold;
nic_fold fold_shim (.clk(clk), .acc(shim_acc), .folded(shim_fold));
reg  [15:0] shim_c = 0;

// the header block, byte by byte: the frame's bytes up to l4_off (the IP
// header patched: IPv4 total length, protocol 253, checksum 0 for now;
// IPv6 payload length, next header 253), the 16-byte shim, then the
// original L4 header, which is the frame's bytes 16 places back
wire [127:0] shim_bytes = {16'd0, 2'd0, body_len[13:8], body_len[7:0],
                           d_rlen[15:8], d_rlen[7:0], d_k, d_mode,
                           shim_c[7:0], shim_c[15:8], d_off[7:0], d_off[15:8],
                           p_l4_len, p_proto, 8'h10, 8'h49};
wire [1279:0] hb_next;

genvar j;
generate
    for (j = 0; j < 160; j = j + 1) begin : hbyte
        wire [7:0] jj = j;
        wire [7:0] rel = jj - p_l3_off;          // offset in the IP header
        wire [3:0] sh_i = jj[3:0] - p_l4_off[3:0]; // offset in the shim
        reg  [7:0] v;
        always @* begin
            if (jj < p_l4_off) begin
                v = hreg[8*j +: 8];
                if (p_ip_ver == 4'd4) begin
                    case (rel)
                    8'd2: v = ip_total[15:8];
                    8'd3: v = ip_total[7:0];
                    8'd9: v = 8'd253;
                    8'd10, 8'd11: v = 8'd0;
                    default: ;
                    endcase
                end else begin
                    case (rel)
                    8'd4: v = plen6[15:8];
                    8'd5: v = plen6[7:0];
                    8'd6: v = 8'd253;
                    default: ;
                    endcase
                end
            end else if (jj < shim_end) begin
                v = shim_bytes[{sh_i, 3'd0} +: 8];
            end else if (jj < l4_hdr_end) begin
                v = j >= 16 ? hreg[8*(j-16) +: 8] : 8'd0;
            end else begin
                v = 8'd0;
            end
        end
        assign hb_next[8*j +: 8] = v;
    end
endgenerate

// T_IP4 (5 clocks): the patched IPv4 header's sum and its fold, then
// (T_BUILD3) written into it
wire [22:0] ip4_sum;
nic_hsum hs_ip4 (.clk(clk), .hdr(hb), .lo(p_l3_off), .hi(ip4_hi), .sum(ip4_sum));
wire [15:0] ip4_fold;
nic_fold fold_ip4 (.clk(clk), .acc({9'd0, ip4_sum}), .folded(ip4_fold));
wire [15:0] ip4_c = ~ip4_fold;

// ---- the assembler ----
reg          as_go = 1'b0;
reg          raw = 1'b0;
wire         as_done;
wire         as_busy;
wire [255:0] o_tdata;
wire [31:0]  o_tkeep;
wire         o_tvalid, o_tlast;

nic_assembler #(.A_AW(14), .B_AW(14)) asm_tx (
    .clk(clk), .rst(rst),
    .go(as_go), .busy(as_busy), .done(as_done),
    .hb(hb), .hb_len(raw ? 8'd0 : hb_len),
    .seg_b(3'b010),
    .seg0_start(raw ? 16'd0 : {2'd0, pay_off}),
    .seg0_len(raw ? {2'd0, d_len} : d_off),
    .seg1_start(16'd0),
    .seg1_len(raw ? 16'd0 : {2'd0, body_len}),
    .seg2_start({2'd0, re_}),
    .seg2_len(raw ? 16'd0 : {2'd0, p_ip_end - re_}),
    .rda_start_valid(as_rda_valid), .rda_start_ready(ra_ready),
    .rda_start_addr(as_rda_addr), .rda_start_len(as_rda_len),
    .rda_tdata(ra_tdata), .rda_tvalid(ra_tvalid),
    .rda_tready(as_rda_tready), .rda_tlast(ra_tlast), .rda_tlen(ra_tlen),
    .rdb_start_valid(as_rdb_valid), .rdb_start_ready(rb_ready),
    .rdb_start_addr(as_rdb_addr), .rdb_start_len(as_rdb_len),
    .rdb_tdata(rb_tdata), .rdb_tvalid(rb_tvalid),
    .rdb_tready(as_rdb_tready), .rdb_tlast(rb_tlast), .rdb_tlen(rb_tlen),
    .m_axis_tdata(o_tdata), .m_axis_tkeep(o_tkeep), .m_axis_tvalid(o_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(o_tlast)
);

assign m_axis_tdata = o_tdata;
assign m_axis_tkeep = o_tkeep;
assign m_axis_tvalid = o_tvalid;
assign m_axis_tlast = o_tlast;

reg [13:0] sent_len = 0;

// ---- DMA ----
assign rd_req_valid = state == T_DREQ || state == T_FREQ;
assign rd_req_addr = state == T_DREQ ? d_slot : d_addr;
assign rd_req_len = state == T_DREQ ? 16'd32 : {2'd0, d_len};
assign rd_ready = state == T_DWAIT || state == T_FETCH;

assign wr_req_valid = state == T_SREQ;
assign wr_req_addr = {d_slot[63:5], 5'd24};      // the status word
assign wr_req_len = 16'd4;
wire [31:0] status = {1'b1, outcome == R_COMPRESSED && !d_err, d_err, 5'd0,
                      outcome, d_err ? 16'd0 : {2'd0, sent_len}};
assign wr_data = {224'd0, status};
assign wr_keep = 32'h0000000f;
assign wr_last = 1'b1;
assign wr_valid = state == T_SDATA;

// ---- the state machine ----
integer hw;
always @(posedge clk) begin
    a_we <= 1'b0;
    b_we <= 1'b0;
    ra_go <= 1'b0;
    as_go <= 1'b0;
    event_done <= 1'b0;
    stat_inc <= 0;
    sp_acc <= 1'b0;
    if (sp_acc)
        body_len <= body_len + {8'd0, sp_n_r};

    case (state)
    T_IDLE: begin
        if (tx_en && txq_prod != txq_cons) begin
            slot_lo <= slot_lo_c;
            state <= T_SLOT;
        end
    end
    T_SLOT: begin
        d_slot <= {txq_base[63:32] + {31'd0, slot_lo[32]}, slot_lo[31:0]};
        state <= T_DREQ;
    end
    T_DREQ: begin
        if (rd_req_ready)
            state <= T_DWAIT;
    end
    T_DWAIT: begin
        if (rd_valid) begin
            d_addr <= rd_data[63:0];
            d_len <= rd_data[77:64];
            d_comp <= rd_data[80];
            d_k <= rd_data[103:96];
            d_mode <= rd_data[111:104];
            d_off <= rd_data[127:112];
            d_rlen <= rd_data[143:128];
            d_err <= rd_data[79:78] != 2'd0 || rd_data[77:64] < 14'd14 ||
                     rd_data[77:64] > max_frame;
            outcome <= 0;
            hreg <= 0;
            fetch_word <= 0;
            a_wptr <= 0;
            if (rd_data[79:78] != 2'd0 || rd_data[77:64] < 14'd14 ||
                rd_data[77:64] > max_frame) begin
                stat_inc[127:112] <= 16'd1;                // tx_desc_errors
                state <= T_SREQ;
            end else begin
                state <= T_FREQ;
            end
        end
    end
    T_FREQ: begin
        if (rd_req_ready)
            state <= T_FETCH;
    end
    T_FETCH: begin
        if (rd_valid) begin
            a_we <= 1'b1;
            a_waddr <= a_wptr;
            a_wdata <= rd_data;
            a_wptr <= a_wptr + 9'd1;
            if (fetch_word < 4'd5) begin
                // a decoded write, not an indexed part-select (a
                // 1280-bit shifter by yosys)
                for (hw = 0; hw < 5; hw = hw + 1)
                    if (fetch_word[2:0] == hw[2:0])
                        hreg[256*hw +: 256] <= masked(rd_data, rd_keep);
                fetch_word <= fetch_word + 4'd1;
            end
            if (rd_last)
                state <= T_PWAIT;
        end
    end
    T_PWAIT: begin
        if (hdr_age == 3'd6)
            state <= T_PARSE;
    end
    T_PARSE: begin
        outcome <= decide;
        if (decide != R_COMPRESSED) begin
            raw <= 1'b1;
            sent_len <= d_len;
            state <= T_SEND;
        end else begin
            raw <= 1'b0;
            ra_go <= 1'b1;
            ra_start <= rs;
            ra_len <= d_rlen;
            body_len <= 0;
            body_done <= 1'b0;
            body_err <= 1'b0;
            sp_full <= 1'b0;
            b_wptr <= 0;
            state <= T_COMP_GO;
        end
    end
    T_COMP_GO: begin
        // reader A takes ra_go now
        state <= T_COMP;
    end
    T_COMP: begin
        // compressor -> splitter -> body RAM, one 32-byte word a clock
        if (c_tvalid && c_tready) begin
            sp_data <= c_tdata;
            sp_keep <= c_tkeep;
            sp_full <= 1'b1;
            sp_half <= 1'b0;
            sp_last <= c_tlast;
            // the engine flagged the chunk, or did not echo its k and mode
            body_err <= c_tlast && (c_tuser[7] ||
                                    c_tuser[6:0] != {d_mode[1:0], d_k[4:0]});
        end
        if (sp_full) begin
            b_we <= 1'b1;
            b_waddr <= b_wptr;
            b_wdata <= sp_word;
            b_wptr <= b_wptr + 9'd1;
            // counted a clock later (sp_acc), one adder per clock
            sp_n_r <= ones32(sp_wkeep);
            sp_acc <= 1'b1;
            if (!sp_half && sp_keep[63:32] != 0) begin
                sp_half <= 1'b1;
            end else begin
                sp_full <= 1'b0;
                if (sp_last)
                    body_done <= 1'b1;
            end
        end
        if (body_done) begin
            ra_go <= 1'b1;
            ra_start <= {6'd0, p_l4_off};
            ra_len <= {2'd0, p_ip_end - {6'd0, p_l4_off}};
            state <= T_CSUM_GO;
        end
    end
    T_CSUM_GO: begin
        state <= T_CSUM;
    end
    T_CSUM: begin
        // every beat is summed (cs_beat); the sums are there 3 clocks
        // after the last, folded 2 later: T_CS_END (3), T_BUILD1, T_SUMS
        wait_n <= 0;
        if (ra_tvalid && ra_tlast)
            state <= T_CS_END;
    end
    T_CS_END: begin
        wait_n <= wait_n + 3'd1;
        if (wait_n == 3'd2)
            state <= T_BUILD1;
    end
    T_BUILD1: begin
        new_end <= end_nb + body_len;
        state <= T_SUMS;
    end
    T_SUMS: begin
        f_pre_r <= f_pre;
        body_sw <= d_off[0] ? {f_body[7:0], f_body[15:8]} : f_body;
        // the suffix moves by body_len - range length: odd if their
        // parities differ
        suf_sw <= body_len[0] ^ d_rlen[0] ? {f_suf[7:0], f_suf[15:8]} : f_suf;
        wait_n <= 0;
        state <= T_SHIM1;
    end
    T_SHIM1: begin
        // (its terms hold: the partial sums settle a clock in, their sum
        // the next, folded 2 clocks later)
        shim_acc <= shim_acc_c;
        wait_n <= wait_n + 3'd1;
        if (wait_n == 3'd3)
            state <= T_SHIM2;
    end
    T_SHIM2: begin
        shim_c <= ~shim_fold;
        state <= T_BUILD2;
    end
    T_BUILD2: begin
        if (body_err || new_end >= d_len) begin
            // not smaller (or the engine refused): send it as it was
            outcome <= body_err ? R_BAD_PARAMS : R_NO_GAIN;
            raw <= 1'b1;
            sent_len <= d_len;
            state <= T_SEND;
        end else begin
            hb <= hb_next;
            hb_len <= l4_hdr_end;
            sent_len <= new_end;
            wait_n <= 0;
            state <= p_ip_ver == 4'd4 ? T_IP4 : T_SEND;
        end
    end
    T_IP4: begin
        // nic_hsum's sum of hb is there 3 clocks after hb changed, its
        // fold 2 clocks later
        wait_n <= wait_n + 3'd1;
        if (wait_n == 3'd4)
            state <= T_BUILD3;
    end
    T_BUILD3: begin
        // the IPv4 header checksum over the patched header
        // (the IP header starts at byte 14, 18 or 22)
        case (p_l3_off)
        8'd14: hb[8*24 +: 16] <= {ip4_c[7:0], ip4_c[15:8]};
        8'd18: hb[8*28 +: 16] <= {ip4_c[7:0], ip4_c[15:8]};
        default: hb[8*32 +: 16] <= {ip4_c[7:0], ip4_c[15:8]};
        endcase
        state <= T_SEND;
    end
    T_SEND: begin
        as_go <= 1'b1;
        state <= T_SENDING;
    end
    T_SENDING: begin
        if (as_done) begin
            state <= T_SREQ;
            stat_inc[15:0] <= 16'd1;                       // tx_frames
            stat_inc[31:16] <= {2'd0, sent_len};           // tx_bytes
            if (outcome == R_COMPRESSED) begin
                stat_inc[47:32] <= 16'd1;                  // tx_comp_frames
                stat_inc[63:48] <= d_rlen;                 // tx_comp_in_bytes
                stat_inc[79:64] <= {2'd0, body_len};       // tx_comp_out_bytes
                stat_inc[95:80] <= {2'd0, d_len - sent_len};  // tx_bytes_saved
            end else if (d_comp) begin
                stat_inc[111:96] <= 16'd1;                 // tx_comp_skipped
            end
        end
    end
    T_SREQ: begin
        if (wr_req_ready)
            state <= T_SDATA;
    end
    T_SDATA: begin
        if (wr_ready)
            state <= T_SWAIT;
    end
    T_SWAIT: begin
        if (wr_done) begin
            txq_cons <= txq_cons + 16'd1;
            event_done <= 1'b1;
            state <= T_IDLE;
        end
    end
    default: state <= T_IDLE;
    endcase

    if (rst) begin
        state <= T_IDLE;
        txq_cons <= 0;
        a_we <= 1'b0;
        b_we <= 1'b0;
    end
end

endmodule

`resetall
