// SPDX-License-Identifier: MIT
/*
 * nic_dma_rd: the NIC's DMA read port shared by the TX and RX engines: the
 * request channel (nic_dma_arb, RX first: its descriptor reads and TX's
 * frame reads interleave), then each read's answer, in the order the
 * requests were taken (the bridge's rule), to the engine that asked.
 *
 * The owners of the requests taken (1: RX) are kept in a 16-entry FIFO;
 * the head is the owner of the answer that flows or is next, and an
 * answer's last beat pops it. No request is offered while it is full.
 *
 * The answer channel is passed to the owner: its valid (the data, keep
 * and last go to both engines, each takes them only with its valid), and
 * the port's ready is the owner's. A bridge that keeps the stream's rules
 * (valid held, data stable until ready) makes each engine's stream keep
 * them too.
 *
 * Checked formally by rtl/formal/fv_nic_dma_rd.v.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_dma_rd #
(
    // request address and length widths, bits
    parameter ADDR_W = 64,
    parameter LEN_W = 16,
    // log2 of the owners FIFO's entries (reads taken and not yet answered)
    parameter ID_W = 4
)
(
    input  wire              clk,
    input  wire              rst,

    // {RX, TX}: the queue is being flushed (nic_dma_arb)
    input  wire [1:0]        flushing,

    // the engines' requests
    input  wire              s_tx_req_valid,
    output wire              s_tx_req_ready,
    input  wire [ADDR_W-1:0] s_tx_req_addr,
    input  wire [LEN_W-1:0]  s_tx_req_len,
    input  wire              s_rx_req_valid,
    output wire              s_rx_req_ready,
    input  wire [ADDR_W-1:0] s_rx_req_addr,
    input  wire [LEN_W-1:0]  s_rx_req_len,

    // the bridge
    output wire              m_req_valid,
    input  wire              m_req_ready,
    output wire [ADDR_W-1:0] m_req_addr,
    output wire [LEN_W-1:0]  m_req_len,
    input  wire              s_rd_valid,
    output wire              s_rd_ready,
    input  wire              s_rd_last,

    // the answer's handshake, per engine (its data, keep and last are the
    // bridge's)
    output wire              tx_rd_valid,
    input  wire              tx_rd_ready,
    output wire              rx_rd_valid,
    input  wire              rx_rd_ready,

    // for the flush and the idle check: a request taken now and whose
    // (pick: 1 RX), whose answer flows or is next (resp_owner) and its
    // last beat taken now (resp_done), {RX, TX} asking and locked, and no
    // read outstanding (empty)
    output wire              fire,
    output wire              pick,
    output wire              resp_owner,
    output wire              resp_done,
    output wire [1:0]        asking,
    output wire [1:0]        locked,
    output wire              empty
);

localparam N = 1 << ID_W;

reg  [N-1:0]  ids = 0;
reg  [ID_W:0] id_wp = 0, id_rp = 0;
wire [ID_W:0] n_out = id_wp - id_rp;
wire          full = n_out[ID_W];

assign resp_owner = ids[id_rp[ID_W-1:0]];
assign empty = id_wp == id_rp;

nic_dma_arb #(.RX_FIRST(1), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) arb (
    .clk(clk), .rst(rst),
    .flushing(flushing), .hold(full),
    .s_tx_req_valid(s_tx_req_valid), .s_tx_req_ready(s_tx_req_ready),
    .s_tx_req_addr(s_tx_req_addr), .s_tx_req_len(s_tx_req_len),
    .s_rx_req_valid(s_rx_req_valid), .s_rx_req_ready(s_rx_req_ready),
    .s_rx_req_addr(s_rx_req_addr), .s_rx_req_len(s_rx_req_len),
    .m_req_valid(m_req_valid), .m_req_ready(m_req_ready),
    .m_req_addr(m_req_addr), .m_req_len(m_req_len),
    .pick(pick), .fire(fire), .asking(asking), .locked(locked)
);

assign tx_rd_valid = s_rd_valid && !resp_owner;
assign rx_rd_valid = s_rd_valid && resp_owner;
assign s_rd_ready = resp_owner ? rx_rd_ready : tx_rd_ready;
assign resp_done = s_rd_valid && s_rd_ready && s_rd_last;

always @(posedge clk) begin
    if (fire) begin
        ids[id_wp[ID_W-1:0]] <= pick;
        id_wp <= id_wp + 1'b1;
    end
    if (resp_done)
        id_rp <= id_rp + 1'b1;
    if (rst) begin
        id_wp <= 0;
        id_rp <= 0;
    end
end

endmodule

`resetall
