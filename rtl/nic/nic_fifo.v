// SPDX-License-Identifier: MIT
/*
 * nic_fifo: an AXI4-Stream FIFO (tdata, tkeep, tlast), cut-through: a beat
 * may leave two clocks after it came in. It lets a producer run ahead of a
 * consumer that stops between packets (the receive engine's assembler
 * starts the next frame while the DMA writes the last one's descriptor).
 *
 * Storage: 2^ADDR_W beats in a nic_ram (registered read: block or
 * distributed RAM). The read side keeps at most one RAM read in flight and
 * two beats in an output buffer, so it sustains one beat per clock; the
 * outputs come from registers. s_axis_tready depends only on registers.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_fifo #
(
    // tdata width, bits (a multiple of 8)
    parameter DATA_W = 256,
    // tkeep width
    parameter KEEP_W = DATA_W / 8,
    // log2 of the beats stored
    parameter ADDR_W = 4
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire [DATA_W-1:0] s_axis_tdata,
    input  wire [KEEP_W-1:0] s_axis_tkeep,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,
    input  wire              s_axis_tlast,

    output wire [DATA_W-1:0] m_axis_tdata,
    output wire [KEEP_W-1:0] m_axis_tkeep,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,
    output wire              m_axis_tlast,

    // nothing stored, nothing on the way out
    output wire              empty
);

localparam W = DATA_W + KEEP_W + 1;
localparam [ADDR_W:0] DEPTH = 1 << ADDR_W;

reg  [ADDR_W:0]   wp = 0;           // beats written
reg  [ADDR_W:0]   rp = 0;           // beats read out of the RAM
reg               inflight = 1'b0;  // a read was issued last clock
reg  [1:0]        ocnt = 0;         // beats in the output buffer
reg  [W-1:0]      ob0 = 0, ob1 = 0; // {last, keep, data}; ob0 is the head
reg               full = 1'b0;      // (wp - rp == DEPTH, a clock late: safe)

wire [W-1:0] rdata;
wire in_fire = s_axis_tvalid && s_axis_tready;
wire pop = m_axis_tvalid && m_axis_tready;
// room for what is in flight, minus what leaves now, plus one more
wire room = {1'b0, ocnt} + {2'd0, inflight} - {2'd0, pop} <= 3'd1;
wire issue = wp != rp && room;

// (full is conservative: it counts a beat written this clock, and frees a
// place a clock after it was read)
assign s_axis_tready = !full;

nic_ram #(.WIDTH(W), .ADDR_W(ADDR_W)) ram (
    .clk(clk),
    .we(in_fire), .waddr(wp[ADDR_W-1:0]),
    .wdata({s_axis_tlast, s_axis_tkeep, s_axis_tdata}),
    .re(issue), .raddr(rp[ADDR_W-1:0]), .rdata(rdata)
);

always @(posedge clk) begin
    if (in_fire)
        wp <= wp + 1'b1;
    if (issue)
        rp <= rp + 1'b1;
    // a place stays taken until its read: wp - rp after this clock, with a
    // beat to spare for the one that may be written meanwhile
    full <= (wp + {{ADDR_W{1'b0}}, in_fire}) - (rp + {{ADDR_W{1'b0}}, issue}) >=
            DEPTH - 1'b1;
    inflight <= issue;
    // the output buffer: pop from the head, push what arrives
    case ({inflight, pop})
    2'b10: begin
        if (ocnt == 0)
            ob0 <= rdata;
        else
            ob1 <= rdata;
        ocnt <= ocnt + 1'b1;
    end
    2'b01: begin
        ob0 <= ob1;
        ocnt <= ocnt - 1'b1;
    end
    2'b11: begin
        if (ocnt == 1) begin
            ob0 <= rdata;
        end else begin
            ob0 <= ob1;
            ob1 <= rdata;
        end
    end
    default: ;
    endcase
    if (rst) begin
        wp <= 0;
        rp <= 0;
        full <= 1'b0;
        inflight <= 1'b0;
        ocnt <= 0;
    end
end

assign m_axis_tvalid = ocnt != 0;
assign m_axis_tdata = ob0[DATA_W-1:0];
assign m_axis_tkeep = ob0[DATA_W +: KEEP_W];
assign m_axis_tlast = ob0[W-1];
assign empty = wp == rp && !inflight && ocnt == 0;

endmodule

`resetall
