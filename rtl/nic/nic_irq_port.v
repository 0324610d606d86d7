// SPDX-License-Identifier: MIT
/*
 * nic_irq_port: the NIC's interrupt port (m_irq_*: a message stream to the
 * PCIe bridge's MSI-X logic, one beat a message, the vector as data) and
 * the moderation behind it: a nic_irq per vector (0 TX, 1 RX, 2 the
 * management block's mailbox completions and events, docs/regmap.md
 * 0x0400 and 0x0500), and the choice between them. Vector 2 has no
 * coalescing register: its message goes at once.
 *
 * Stream rules: a message offered stays offered, with its vector, until
 * the bridge takes it (the choice is locked while it waits), even if its
 * vector's request goes (the driver disabled it meanwhile: the message was
 * due when offered). When several vectors request and none is offered, TX's
 * goes first, then RX's, then the management vector's (a request ends with
 * its message: its count restarts and the CSR block clears its enable bit
 * on fired).
 * fired is the vector taken this clock, one-hot: the CSR block sets its
 * IRQ_STATUS bit and clears its enable bit, and its nic_irq restarts.
 *
 * Proved for all depths by rtl/formal/fv_nic_irq_port.v (stream rules, one
 * fired bit a message and only for the vector sent, no message for a
 * vector without an event since its last one).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_irq_port #
(
    // clocks per microsecond (the moderation timers)
    parameter CLK_MHZ = 250
)
(
    input  wire        clk,
    input  wire        rst,

    // per vector (bit 0 TX, bit 1 RX, bit 2 management): a completion or
    // event; IRQ_ENABLE's bit; IRQ_COAL_TX/RX (frames in 15:0, microseconds
    // in 31:16)
    input  wire [2:0]  event_in,
    input  wire [2:0]  enable,
    input  wire [31:0] coal_tx,
    input  wire [31:0] coal_rx,

    output wire [1:0]  m_irq_vector,
    output wire        m_irq_valid,
    input  wire        m_irq_ready,

    output wire [2:0]  fired,       // the vector whose message was taken
    output wire [2:0]  req,         // the vectors due a message
    output wire [2:0]  busy         // per nic_irq: a clock that stops loses something
);

reg        lock = 1'b0;             // a message offered and not yet taken
reg  [1:0] vec = 0;                 // its vector
wire [1:0] pick = lock ? vec : (req[0] ? 2'd0 : (req[1] ? 2'd1 : 2'd2));
wire       fire = m_irq_valid && m_irq_ready;

assign m_irq_valid = lock || req != 3'b000;
assign m_irq_vector = pick;
assign fired = fire ? (pick == 2'd0 ? 3'b001 : (pick == 2'd1 ? 3'b010 : 3'b100)) : 3'b000;

always @(posedge clk) begin
    if (m_irq_valid && !m_irq_ready) begin
        lock <= 1'b1;
        vec <= pick;
    end
    if (fire)
        lock <= 1'b0;
    if (rst)
        lock <= 1'b0;
end

nic_irq #(.CLK_MHZ(CLK_MHZ)) irq_tx (
    .clk(clk), .rst(rst), .event_in(event_in[0]), .enable(enable[0]),
    .coal_frames(coal_tx[15:0]), .coal_usecs(coal_tx[31:16]),
    .req(req[0]), .ack(fired[0]), .busy(busy[0])
);

nic_irq #(.CLK_MHZ(CLK_MHZ)) irq_rx (
    .clk(clk), .rst(rst), .event_in(event_in[1]), .enable(enable[1]),
    .coal_frames(coal_rx[15:0]), .coal_usecs(coal_rx[31:16]),
    .req(req[1]), .ack(fired[1]), .busy(busy[1])
);

// the management vector: no coalescing (0 frames, 0 microseconds: at once)
nic_irq #(.CLK_MHZ(CLK_MHZ)) irq_mgmt (
    .clk(clk), .rst(rst), .event_in(event_in[2]), .enable(enable[2]),
    .coal_frames(16'd0), .coal_usecs(16'd0),
    .req(req[2]), .ack(fired[2]), .busy(busy[2])
);

endmodule

`resetall
