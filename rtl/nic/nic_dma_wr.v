// SPDX-License-Identifier: MIT
/*
 * nic_dma_wr: the NIC's DMA write port shared by the TX and RX engines:
 * the request channel (nic_dma_arb, TX first), then each request's data in
 * the order the requests were taken, and each write's done back to the
 * engine that asked for it.
 *
 * The owners of the requests taken (1: RX) are kept in a 16-entry FIFO:
 * d_ptr names the one whose data flows or is next, id_rp the next done's.
 * A request is taken while earlier requests' data still flows (the bridge
 * takes requests ahead of their data, docs/regmap.md), so an engine's next
 * request (RX's descriptor write behind its frame, TX's status) costs no
 * clock of the data bus. No request is offered while the FIFO is full.
 *
 * The data channel is the owner's stream, passed through: m_wr_valid only
 * for a request taken, and the engine's ready only while it is the owner.
 * An engine that keeps its stream's rules (valid held, data stable until
 * ready) makes m_wr keep them too; its packet's tlast ends the request.
 *
 * Checked formally by rtl/formal/fv_nic_dma_wr.v.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_dma_wr #
(
    // data bus width, bits, and its byte enables
    parameter DATA_W = 512,
    parameter KEEP_W = DATA_W / 8,
    // request address and length widths, bits
    parameter ADDR_W = 64,
    parameter LEN_W = 16,
    // log2 of the owners FIFO's entries (requests taken and not yet done)
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

    // the engines' data
    input  wire [DATA_W-1:0] s_tx_wr_data,
    input  wire [KEEP_W-1:0] s_tx_wr_keep,
    input  wire              s_tx_wr_last,
    input  wire              s_tx_wr_valid,
    output wire              s_tx_wr_ready,
    input  wire [DATA_W-1:0] s_rx_wr_data,
    input  wire [KEEP_W-1:0] s_rx_wr_keep,
    input  wire              s_rx_wr_last,
    input  wire              s_rx_wr_valid,
    output wire              s_rx_wr_ready,

    // the dones, to the engine whose write it was
    output wire              tx_done,
    output wire              rx_done,

    // the bridge
    output wire              m_req_valid,
    input  wire              m_req_ready,
    output wire [ADDR_W-1:0] m_req_addr,
    output wire [LEN_W-1:0]  m_req_len,
    output wire [DATA_W-1:0] m_wr_data,
    output wire [KEEP_W-1:0] m_wr_keep,
    output wire              m_wr_last,
    output wire              m_wr_valid,
    input  wire              m_wr_ready,
    input  wire              s_done,

    // for the flush and the idle check: a request taken now and whose
    // (pick: 1 RX), whose the next done is (done_owner), {RX, TX} asking
    // and locked (nic_dma_arb), and no request outstanding (empty)
    output wire              fire,
    output wire              pick,
    output wire              done_owner,
    output wire [1:0]        asking,
    output wire [1:0]        locked,
    output wire              empty
);

localparam N = 1 << ID_W;

reg  [N-1:0]  ids = 0;
reg  [ID_W:0] id_wp = 0, d_ptr = 0, id_rp = 0;
wire [ID_W:0] n_out = id_wp - id_rp;
wire          full = n_out[ID_W];
wire          d_have = d_ptr != id_wp;
wire          d_owner = ids[d_ptr[ID_W-1:0]];

assign done_owner = ids[id_rp[ID_W-1:0]];
assign empty = id_wp == id_rp;

nic_dma_arb #(.RX_FIRST(0), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) arb (
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

assign m_wr_data = d_owner ? s_rx_wr_data : s_tx_wr_data;
assign m_wr_keep = d_owner ? s_rx_wr_keep : s_tx_wr_keep;
assign m_wr_last = d_owner ? s_rx_wr_last : s_tx_wr_last;
assign m_wr_valid = d_have && (d_owner ? s_rx_wr_valid : s_tx_wr_valid);
assign s_tx_wr_ready = d_have && !d_owner && m_wr_ready;
assign s_rx_wr_ready = d_have && d_owner && m_wr_ready;
assign tx_done = s_done && !done_owner;
assign rx_done = s_done && done_owner;

wire data_end = m_wr_valid && m_wr_ready && m_wr_last;

always @(posedge clk) begin
    if (fire) begin
        ids[id_wp[ID_W-1:0]] <= pick;
        id_wp <= id_wp + 1'b1;
    end
    if (data_end)
        d_ptr <= d_ptr + 1'b1;
    if (s_done)
        id_rp <= id_rp + 1'b1;
    if (rst) begin
        id_wp <= 0;
        d_ptr <= 0;
        id_rp <= 0;
    end
end

endmodule

`resetall
