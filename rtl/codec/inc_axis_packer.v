// SPDX-License-Identifier: MIT
/*
 * inc_axis_packer: joins variable-length byte items into an AXI4-Stream.
 *
 * Each item is 0..IN_BYTES bytes (low-aligned in s_item_data; bytes past
 * s_item_len are ignored); the items of one packet follow each other with
 * no gaps, and the item with s_item_last ends the packet. Output beats are OUT_BYTES wide, tkeep contiguous from
 * byte 0, full on every beat but the last of a packet. A packet of zero
 * bytes is one beat with tkeep = 0 and tlast = 1.
 *
 * An input register holds each item, its bytes past the length cleared and
 * its keep mask made, a clock before it is joined (so the caller's logic
 * and the byte placement are in different clocks). The item there is
 * joined while the 4-beat output FIFO has room for two beats: an item adds
 * at most one full beat, plus the final short beat of its packet, so the
 * packer takes an item every clock and the output runs at one beat per
 * clock whenever m_axis_tready is high.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_axis_packer #
(
    // Largest item, bytes; at most OUT_BYTES
    parameter IN_BYTES = 52,
    // Output beat width, bytes
    parameter OUT_BYTES = 64,
    // Width of the per-packet user field (taken from each item)
    parameter USER_W = 8,
    // Width of s_item_len; 2^LEN_W > OUT_BYTES + IN_BYTES
    parameter LEN_W = 8
)
(
    input  wire                    clk,
    input  wire                    rst,

    input  wire [IN_BYTES*8-1:0]   s_item_data,
    input  wire [LEN_W-1:0]        s_item_len,
    input  wire                    s_item_last,
    input  wire [USER_W-1:0]       s_item_user,
    input  wire                    s_item_valid,
    output wire                    s_item_ready,

    output wire [OUT_BYTES*8-1:0]  m_axis_tdata,
    output wire [OUT_BYTES-1:0]    m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,
    output wire [USER_W-1:0]       m_axis_tuser
);

localparam TOT_BYTES = OUT_BYTES + IN_BYTES;
localparam CNT_W = LEN_W;

// bytes carried over, always fewer than OUT_BYTES, and their keep mask
reg [OUT_BYTES*8-1:0] acc = 0;
reg [CNT_W-1:0]       acc_len = 0;
wire [OUT_BYTES-1:0]  acc_keep = ~({OUT_BYTES{1'b1}} << acc_len);

// output FIFO, 4 beats; the data in two banks of two entries, the even
// entries and the odd, so that the two beats a clock may write (lo at
// f_wp, hi at f_wp + 1) go to different banks: one write port a bank
// (LUT RAM), no write multiplexer in front of every entry
(* ram_style = "logic" *)
reg [OUT_BYTES*8-1:0] f_even [0:1];
(* ram_style = "logic" *)
reg [OUT_BYTES*8-1:0] f_odd [0:1];
reg [OUT_BYTES-1:0]   f_keep [0:3];
reg                   f_last [0:3];
reg [USER_W-1:0]      f_user [0:3];
reg [1:0]             f_wp = 0, f_rp = 0;
reg [2:0]             f_cnt = 0;

// ---- the input register ----
reg [IN_BYTES*8-1:0] i_data = 0;  // bytes past i_len cleared
reg [IN_BYTES-1:0]   i_keep = 0;  // a mask of i_len bytes
reg [LEN_W-1:0]      i_len = 0;
reg                  i_last = 1'b0;
reg [USER_W-1:0]     i_user = 0;
reg                  i_valid = 1'b0;

wire room = f_cnt <= 3'd2;
wire take = i_valid && room;      // the registered item joined
wire pop = m_axis_tvalid && m_axis_tready;

assign s_item_ready = !i_valid || room;

always @(posedge clk) begin
    if (s_item_ready) begin
        i_valid <= s_item_valid;
        // (the item's fields matter only while i_valid: held otherwise)
        if (s_item_valid) begin
            i_data <= s_item_data & ~({IN_BYTES*8{1'b1}} << {s_item_len, 3'd0});
            i_keep <= ~({IN_BYTES{1'b1}} << s_item_len);
            i_len <= s_item_len;
            i_last <= s_item_last;
            i_user <= s_item_user;
        end
    end
    if (rst)
        i_valid <= 1'b0;
end

assign m_axis_tvalid = f_cnt != 3'd0;
assign m_axis_tdata = f_rp[0] ? f_odd[f_rp[1]] : f_even[f_rp[1]];
assign m_axis_tkeep = f_keep[f_rp];
assign m_axis_tlast = f_last[f_rp];
assign m_axis_tuser = f_user[f_rp];

// the item placed after the carried bytes: shifted up by acc_len bytes in
// stages, the fine first, so that each stage is only as wide as the item
// has grown by then (acc_len < OUT_BYTES: its top bit and above are 0)
localparam SH_W = $clog2(OUT_BYTES);
function [TOT_BYTES*8-1:0] place;
    input [IN_BYTES*8-1:0] x;
    input [SH_W-1:0]       s;
    integer b;
    reg [TOT_BYTES*8-1:0] r;
    begin
        r = {{OUT_BYTES*8{1'b0}}, x};
        for (b = 0; b < SH_W; b = b + 1)
            if (s[b])
                r = r << (8 << b);
        place = r;
    end
endfunction
function [TOT_BYTES-1:0] place_keep;
    input [IN_BYTES-1:0] x;
    input [SH_W-1:0]     s;
    integer b;
    reg [TOT_BYTES-1:0] r;
    begin
        r = {{OUT_BYTES{1'b0}}, x};
        for (b = 0; b < SH_W; b = b + 1)
            if (s[b])
                r = r << (1 << b);
        place_keep = r;
    end
endfunction
// the carried bytes followed by the item
wire [TOT_BYTES*8-1:0] comb = {{IN_BYTES*8{1'b0}}, acc} | place(i_data, acc_len[SH_W-1:0]);
// their keep masks, joined the same way (no comparison of a byte count)
wire [TOT_BYTES-1:0] comb_keep = {{IN_BYTES{1'b0}}, acc_keep} | place_keep(i_keep, acc_len[SH_W-1:0]);
wire [CNT_W-1:0] tot = acc_len + i_len;
wire [CNT_W-1:0] over = tot - OUT_BYTES[CNT_W-1:0];
wire full = tot >= OUT_BYTES[CNT_W-1:0];
// a packet's last item that spills into a second beat
wire spill = i_last && tot > OUT_BYTES[CNT_W-1:0];

wire [OUT_BYTES*8-1:0] lo = comb[OUT_BYTES*8-1:0];
wire [OUT_BYTES*8-1:0] hi = {{(OUT_BYTES-IN_BYTES)*8{1'b0}}, comb[TOT_BYTES*8-1:OUT_BYTES*8]};
wire [OUT_BYTES-1:0]   lo_keep = comb_keep[OUT_BYTES-1:0];
wire [OUT_BYTES-1:0]   hi_keep = {{(OUT_BYTES-IN_BYTES){1'b0}}, comb_keep[TOT_BYTES-1:OUT_BYTES]};

// beats written this clock: lo (if full or last), then hi (if it spills;
// w1 implies w0)
wire       w0 = take && (full || i_last);
wire       w1 = take && spill;
wire [1:0] nw = {1'b0, w0} + {1'b0, w1};
wire [1:0] f_wp1 = f_wp + 2'd1;

// lo to the bank of f_wp, hi to the other
always @(posedge clk) begin
    if (f_wp[0] ? w1 : w0)
        f_even[f_wp[0] ? f_wp1[1] : f_wp[1]] <= f_wp[0] ? hi : lo;
    if (f_wp[0] ? w0 : w1)
        f_odd[f_wp[0] ? f_wp[1] : f_wp1[1]] <= f_wp[0] ? lo : hi;
end

always @(posedge clk) begin
    if (w0) begin
        f_keep[f_wp] <= lo_keep;
        f_last[f_wp] <= i_last && !spill;
        f_user[f_wp] <= i_user;
    end
    if (w1) begin
        f_keep[f_wp1] <= hi_keep;
        f_last[f_wp1] <= 1'b1;
        f_user[f_wp1] <= i_user;
    end
    if (take) begin
        if (i_last) begin
            acc <= 0;
            acc_len <= 0;
        end else if (full) begin
            acc <= hi;
            acc_len <= over;
        end else begin
            acc <= lo;
            acc_len <= tot;
        end
    end
    f_wp <= f_wp + nw;
    f_rp <= f_rp + {1'b0, pop};
    f_cnt <= f_cnt + {1'b0, nw} - {2'b0, pop};

    if (rst) begin
        acc <= 0;
        acc_len <= 0;
        f_wp <= 0;
        f_rp <= 0;
        f_cnt <= 0;
    end
end

endmodule

`resetall
