// SPDX-License-Identifier: MIT
/*
 * nic_dma_arb: one DMA request channel (reads, or writes) shared by the TX
 * and RX engines. inc_nic has two, one per channel; the owners of the
 * requests taken (whose data or answer comes next) are kept by inc_nic.
 *
 * - Priority: with RX_FIRST the RX engine's request goes first when both
 *   ask (reads: RX descriptors and the frame's room in the ring), else
 *   TX's (writes: its 4-byte statuses, so they do not wait behind frames).
 * - A request offered on m_req and not taken keeps the choice (the lock)
 *   until it is taken: m_req_valid is never withdrawn and its address and
 *   length do not change while it waits (AXI-Stream-like rule of the
 *   bridge's request channel). The lock lets go if its owner's request
 *   goes all the same, so a requester that broke the rule could not shut
 *   the other one out.
 * - A queue being flushed (flushing) asks for nothing new: its request is
 *   masked, unless it is the one the lock holds (offered, so it stays
 *   until taken).
 * - hold (inc_nic's owners FIFO is full) keeps a new request from being
 *   offered; it must rise only in the clock after a request was taken,
 *   never under a request waiting.
 *
 * Checked formally by rtl/formal/fv_nic_dma_arb.v.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_dma_arb #
(
    // 1: RX's request first when both ask; 0: TX's first
    parameter RX_FIRST = 1,
    // request address width, bits
    parameter ADDR_W = 64,
    // request length width, bits
    parameter LEN_W = 16
)
(
    input  wire              clk,
    input  wire              rst,

    // bit 0 TX, bit 1 RX: that queue is being flushed
    input  wire [1:0]        flushing,
    // no new request may be offered (rises only after a request was taken)
    input  wire              hold,

    input  wire              s_tx_req_valid,
    output wire              s_tx_req_ready,
    input  wire [ADDR_W-1:0] s_tx_req_addr,
    input  wire [LEN_W-1:0]  s_tx_req_len,

    input  wire              s_rx_req_valid,
    output wire              s_rx_req_ready,
    input  wire [ADDR_W-1:0] s_rx_req_addr,
    input  wire [LEN_W-1:0]  s_rx_req_len,

    output wire              m_req_valid,
    input  wire              m_req_ready,
    output wire [ADDR_W-1:0] m_req_addr,
    output wire [LEN_W-1:0]  m_req_len,

    // the requester at m_req (1: RX) and a request taken this clock
    output wire              pick,
    output wire              fire,
    // {RX, TX}: that requester asks (after the flush mask)
    output wire [1:0]        asking,
    // {RX, TX}: the lock holds that requester's request
    output wire [1:0]        locked
);

reg lock = 1'b0, owner = 1'b0;          // owner 1: RX

wire tx_v = s_tx_req_valid && (!flushing[0] || (lock && !owner));
wire rx_v = s_rx_req_valid && (!flushing[1] || (lock && owner));

assign pick = lock ? owner : (RX_FIRST ? rx_v : !tx_v);
assign m_req_valid = !hold && (pick ? rx_v : tx_v);
assign m_req_addr = pick ? s_rx_req_addr : s_tx_req_addr;
assign m_req_len = pick ? s_rx_req_len : s_tx_req_len;
assign fire = m_req_valid && m_req_ready;
assign s_tx_req_ready = fire && !pick;
assign s_rx_req_ready = fire && pick;
assign asking = {rx_v, tx_v};
assign locked = {lock && owner, lock && !owner};

wire owner_v = owner ? rx_v : tx_v;

always @(posedge clk) begin
    if (lock && !owner_v)
        lock <= 1'b0;
    if (m_req_valid && !m_req_ready) begin
        lock <= 1'b1;
        owner <= pick;
    end
    if (fire)
        lock <= 1'b0;
    if (rst)
        lock <= 1'b0;
end

endmodule

`resetall
