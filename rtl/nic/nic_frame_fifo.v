// SPDX-License-Identifier: MIT
/*
 * nic_frame_fifo: a store-and-forward frame FIFO in front of the MAC. A
 * frame leaves only once all of it is stored, and then one beat per clock
 * while the MAC is ready: m_axis_tvalid never drops inside a frame, which
 * real MACs (AMD's 10/25G and 100G among them) treat as an underrun and
 * send as an errored frame. Upstream, the TX engine may pause inside a
 * frame as it likes.
 *
 * Storage: 2^ADDR_W beats in block RAM (registered read), and the beat
 * counts of up to 2^FRAMES_W complete frames in registers. The read side
 * keeps at most one RAM read in flight and two beats in an output buffer,
 * so it sustains one beat per clock. A frame longer than the RAM cannot be
 * stored whole: the NIC never sends one (MAX_FRAME), and ADDR_W must hold
 * the largest frame.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_frame_fifo #
(
    // tdata width, bits (a multiple of 8)
    parameter DATA_W = 256,
    // tkeep width
    parameter KEEP_W = DATA_W / 8,
    // log2 of the beats stored (512 x 32 bytes: one 9018-byte frame and
    // most of the next)
    parameter ADDR_W = 9,
    // log2 of the complete frames waiting
    parameter FRAMES_W = 4
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,
    // the frame being written goes (its beats so far, and this clock's):
    // its source was reset inside it (a TX queue flush)
    input  wire              s_drop,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,

    // nothing stored, nothing on the way out
    output wire              empty
);

localparam W = DATA_W + KEEP_W;
localparam DEPTH = 1 << ADDR_W;
localparam FDEPTH = 1 << FRAMES_W;

// ---- write side ------------------------------------------------------------
reg  [ADDR_W:0]   wp = 0;           // beats written
reg  [ADDR_W:0]   rp = 0;           // beats read out of the RAM
reg  [ADDR_W:0]   flen = 0;         // beats of the frame being written
reg  [ADDR_W:0]   lens [0:FDEPTH-1];
reg  [FRAMES_W:0] lw = 0, lr = 0;   // frame counts: written, started

wire ram_full = (wp - rp) == DEPTH[ADDR_W:0];
wire lens_full = (lw - lr) == FDEPTH[FRAMES_W:0];
assign s_axis_tready = !ram_full && !lens_full;
wire in_fire = s_axis_tvalid && s_axis_tready;

always @(posedge clk) begin
    if (s_drop) begin
        wp <= wp - flen;
        flen <= 0;
    end else if (in_fire) begin
        wp <= wp + 1'b1;
        if (s_axis_tlast) begin
            lens[lw[FRAMES_W-1:0]] <= flen + 1'b1;
            lw <= lw + 1'b1;
            flen <= 0;
        end else begin
            flen <= flen + 1'b1;
        end
    end
    if (rst) begin
        wp <= 0;
        flen <= 0;
        lw <= 0;
    end
end

// ---- read side ---------------------------------------------------------------
reg  [ADDR_W:0]   left = 0;         // beats of the current frame still to read
reg               inflight = 1'b0;  // a read was issued last clock
reg               inflight_last = 1'b0;
reg  [1:0]        ocnt = 0;         // beats in the output buffer
reg  [W:0]        ob0 = 0, ob1 = 0; // {last, keep, data}; ob0 is the head

wire [W-1:0] rdata;
wire pop = m_axis_tvalid && m_axis_tready;
wire start = left == 0 && lw != lr;
wire want = left != 0 || start;
// room for what is in flight, minus what leaves now, plus one more
wire room = {1'b0, ocnt} + {2'd0, inflight} - {2'd0, pop} <= 3'd1;
wire issue = want && room;
wire [ADDR_W:0] left_now = start ? lens[lr[FRAMES_W-1:0]] : left;

nic_ram #(.WIDTH(W), .ADDR_W(ADDR_W)) ram (
    .clk(clk),
    .we(in_fire), .waddr(wp[ADDR_W-1:0]), .wdata({s_axis_tkeep, s_axis_tdata}),
    .re(issue), .raddr(rp[ADDR_W-1:0]), .rdata(rdata)
);

wire [W:0] arriving = {inflight_last, rdata};

always @(posedge clk) begin
    if (issue) begin
        rp <= rp + 1'b1;
        left <= left_now - 1'b1;
        if (start)
            lr <= lr + 1'b1;
    end
    inflight <= issue;
    inflight_last <= issue && left_now == 1;
    // the output buffer: pop from the head, push what arrives
    case ({inflight, pop})
    2'b10: begin
        if (ocnt == 0)
            ob0 <= arriving;
        else
            ob1 <= arriving;
        ocnt <= ocnt + 1'b1;
    end
    2'b01: begin
        ob0 <= ob1;
        ocnt <= ocnt - 1'b1;
    end
    2'b11: begin
        if (ocnt == 1) begin
            ob0 <= arriving;
        end else begin
            ob0 <= ob1;
            ob1 <= arriving;
        end
    end
    default: ;
    endcase
    if (rst) begin
        rp <= 0;
        left <= 0;
        lr <= 0;
        inflight <= 1'b0;
        inflight_last <= 1'b0;
        ocnt <= 0;
    end
end

assign m_axis_tvalid = ocnt != 0;
assign m_axis_tdata = ob0[DATA_W-1:0];
assign m_axis_tkeep = ob0[W-1:DATA_W];
assign m_axis_tlast = ob0[W];
assign empty = wp == rp && !inflight && ocnt == 0 && flen == 0;

endmodule

`resetall
