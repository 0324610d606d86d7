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
 * One item is taken per clock while the 4-beat output FIFO has room for
 * two beats: an item adds at most one full beat, plus the final short beat
 * of its packet, so the packer never loses a clock on its own and the
 * output runs at one beat per clock whenever m_axis_tready is high.
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

// bytes carried over, always fewer than OUT_BYTES
reg [OUT_BYTES*8-1:0] acc = 0;
reg [CNT_W-1:0]       acc_len = 0;

// output FIFO, 4 beats
reg [OUT_BYTES*8-1:0] f_data [0:3];
reg [OUT_BYTES-1:0]   f_keep [0:3];
reg                   f_last [0:3];
reg [USER_W-1:0]      f_user [0:3];
reg [1:0]             f_wp = 0, f_rp = 0;
reg [2:0]             f_cnt = 0;

wire take = s_item_valid && s_item_ready;
wire pop = m_axis_tvalid && m_axis_tready;

assign s_item_ready = f_cnt <= 3'd2;
assign m_axis_tvalid = f_cnt != 3'd0;
assign m_axis_tdata = f_data[f_rp];
assign m_axis_tkeep = f_keep[f_rp];
assign m_axis_tlast = f_last[f_rp];
assign m_axis_tuser = f_user[f_rp];

// the item's bytes, the rest cleared
wire [IN_BYTES*8-1:0] item = s_item_data &
                             ~({IN_BYTES*8{1'b1}} << {s_item_len, 3'd0});
// the carried bytes followed by the item
wire [TOT_BYTES*8-1:0] comb = {{IN_BYTES*8{1'b0}}, acc} |
                              ({{OUT_BYTES*8{1'b0}}, item} << {acc_len, 3'd0});
wire [CNT_W-1:0] tot = acc_len + s_item_len;
wire [CNT_W-1:0] over = tot - OUT_BYTES[CNT_W-1:0];
wire full = tot >= OUT_BYTES[CNT_W-1:0];
// a packet's last item that spills into a second beat
wire spill = s_item_last && tot > OUT_BYTES[CNT_W-1:0];

wire [OUT_BYTES*8-1:0] lo = comb[OUT_BYTES*8-1:0];
wire [OUT_BYTES*8-1:0] hi = {{(OUT_BYTES-IN_BYTES)*8{1'b0}}, comb[TOT_BYTES*8-1:OUT_BYTES*8]};

function [OUT_BYTES-1:0] keep_of;
    input [CNT_W-1:0] n;
    begin
        keep_of = n >= OUT_BYTES[CNT_W-1:0] ? {OUT_BYTES{1'b1}} :
                  ~({OUT_BYTES{1'b1}} << n);
    end
endfunction

// beats written this clock: lo (if full or last), then hi (if it spills)
wire       w0 = take && (full || s_item_last);
wire       w1 = take && spill;
wire [1:0] nw = {1'b0, w0} + {1'b0, w1};

always @(posedge clk) begin
    if (w0) begin
        f_data[f_wp] <= lo;
        f_keep[f_wp] <= keep_of(tot);
        f_last[f_wp] <= s_item_last && !spill;
        f_user[f_wp] <= s_item_user;
    end
    if (w1) begin
        f_data[f_wp + 2'd1] <= hi;
        f_keep[f_wp + 2'd1] <= keep_of(over);
        f_last[f_wp + 2'd1] <= 1'b1;
        f_user[f_wp + 2'd1] <= s_item_user;
    end
    if (take) begin
        if (s_item_last) begin
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
