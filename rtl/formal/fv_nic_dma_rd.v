// SPDX-License-Identifier: MIT
/*
 * fv_nic_dma_rd: formal harness of the NIC's DMA read port, nic_dma_rd
 * (rtl/scripts/formal.sh nic_dma_rd - DEPTH [prove]): inc_nic's
 * m_dma_rd_req_* request channel and the s_dma_rd_* answers, shared by
 * its TX and RX engines. Address and length are narrowed, and the owners
 * FIFO is 4 entries (ID_W = 2): the port only routes them.
 *
 * Assumptions: rst high in the first cycle (fv_env; free afterwards); the
 * engines reset with the port (nothing asked in the cycle after a reset);
 * each engine keeps a request it offered until its ready, with address
 * and length stable, unless its queue is being flushed and the lock does
 * not hold its request (as fv_nic_dma_arb); the bridge's answers follow
 * the stream rules (axis_props, ASSUME = 1: valid held, last stable until
 * ready) and come only for reads taken and not yet answered; the engines'
 * readies and m_req_ready free.
 *
 * Assertions, against a model of its own (the owners of the reads taken,
 * in order, and how many have been answered to their last beat):
 *   - m_req follows the stream rules (axis_props, ASSUME = 0), and so
 *     does each engine's answer stream (valid as the port gives it, last
 *     the bridge's): held, last stable, until the engine's ready
 *   - a_route: an answer beat is offered to the engine of the oldest read
 *     not yet answered, and to it alone; the bridge's ready is that
 *     engine's ready (while a read is outstanding)
 *   - a_full: no request offered while 4 reads are outstanding
 *   - a_empty: empty exactly when none is
 *
 * FV_BREAK_VALID: TX's answer valid as the checker sees it drops after a
 * stall, so chk_tx must fail. FV_COVER: c_reach asserts no trace has a
 * stalled TX answer beat and two answers to TX; the check must then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past, $stable)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_dma_rd #
(
    parameter ADDR_W = 2,
    parameter LEN_W = 1,
    parameter ID_W = 2
)
(
    input  wire              clk,
    input  wire              rst,

    input  wire [1:0]        flushing,
    input  wire              tx_req_valid,
    input  wire [ADDR_W-1:0] tx_req_addr,
    input  wire [LEN_W-1:0]  tx_req_len,
    input  wire              rx_req_valid,
    input  wire [ADDR_W-1:0] rx_req_addr,
    input  wire [LEN_W-1:0]  rx_req_len,
    input  wire              m_req_ready,
    input  wire              rd_valid,
    input  wire              rd_last,
    input  wire              tx_ready,
    input  wire              rx_ready
);

localparam N = 1 << ID_W;

wire              tx_req_ready, rx_req_ready, rd_ready, tx_valid, rx_valid;
wire              m_req_valid;
wire [ADDR_W-1:0] m_req_addr;
wire [LEN_W-1:0]  m_req_len;
wire              fire, pick, resp_owner, resp_done, empty;
wire [1:0]        asking, locked;

nic_dma_rd #(.ADDR_W(ADDR_W), .LEN_W(LEN_W), .ID_W(ID_W)) dut (
    .clk(clk), .rst(rst),
    .flushing(flushing),
    .s_tx_req_valid(tx_req_valid), .s_tx_req_ready(tx_req_ready),
    .s_tx_req_addr(tx_req_addr), .s_tx_req_len(tx_req_len),
    .s_rx_req_valid(rx_req_valid), .s_rx_req_ready(rx_req_ready),
    .s_rx_req_addr(rx_req_addr), .s_rx_req_len(rx_req_len),
    .m_req_valid(m_req_valid), .m_req_ready(m_req_ready),
    .m_req_addr(m_req_addr), .m_req_len(m_req_len),
    .s_rd_valid(rd_valid), .s_rd_ready(rd_ready), .s_rd_last(rd_last),
    .tx_rd_valid(tx_valid), .tx_rd_ready(tx_ready),
    .rx_rd_valid(rx_valid), .rx_rd_ready(rx_ready),
    .fire(fire), .pick(pick), .resp_owner(resp_owner), .resp_done(resp_done),
    .asking(asking), .locked(locked), .empty(empty)
);

wire tx_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk), .rst(rst),
    .m_tvalid(tx_valid), .m_tready(tx_ready),
    .m_valid_chk(tx_valid_chk), .past_valid(f_past_valid), .cov_stall(cov_stall)
);

// the streams: the bridge's answers (assumed), the engines' answers and
// the request channel (checked)
wire [7:0] u_beats [0:3];
wire [7:0] u_starts [0:3];
wire [7:0] u_ends [0:3];
wire [3:0] u_in, u_xfer;
axis_props #(.DATA_W(1), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0), .CNT_W(8)) chk_rd (
    .clk(clk), .rst(rst), .tdata(1'b0), .tkeep(1'b1), .tvalid(rd_valid),
    .tready(rd_ready), .tlast(rd_last), .tuser(1'b0),
    .beats(u_beats[0]), .starts(u_starts[0]), .ends(u_ends[0]), .in_packet(u_in[0]), .xfer(u_xfer[0])
);
axis_props #(.DATA_W(1), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0), .CNT_W(8)) chk_tx (
    .clk(clk), .rst(rst), .tdata(1'b0), .tkeep(1'b1), .tvalid(tx_valid_chk),
    .tready(tx_ready), .tlast(rd_last), .tuser(1'b0),
    .beats(u_beats[1]), .starts(u_starts[1]), .ends(u_ends[1]), .in_packet(u_in[1]), .xfer(u_xfer[1])
);
axis_props #(.DATA_W(1), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0), .CNT_W(8)) chk_rx (
    .clk(clk), .rst(rst), .tdata(1'b0), .tkeep(1'b1), .tvalid(rx_valid),
    .tready(rx_ready), .tlast(rd_last), .tuser(1'b0),
    .beats(u_beats[2]), .starts(u_starts[2]), .ends(u_ends[2]), .in_packet(u_in[2]), .xfer(u_xfer[2])
);
axis_props #(.DATA_W(ADDR_W + LEN_W), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0), .CNT_W(8)) chk_req (
    .clk(clk), .rst(rst), .tdata({m_req_addr, m_req_len}), .tkeep(1'b1), .tvalid(m_req_valid),
    .tready(m_req_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(u_beats[3]), .starts(u_starts[3]), .ends(u_ends[3]), .in_packet(u_in[3]), .xfer(u_xfer[3])
);

// the model: the owners of the reads taken (1: RX), in order; how many
// have been answered to their last beat
reg  [N-1:0]  own = 0;
reg  [ID_W:0] t = 0, a = 0;
wire [ID_W:0] outstanding = t - a;
wire          a_own = own[a[ID_W-1:0]];
wire          m_req_fire = m_req_valid && m_req_ready && !rst;
wire          ans_end = rd_valid && rd_ready && rd_last && !rst;
always @(posedge clk) begin
    if (m_req_fire) begin
        own[t[ID_W-1:0]] <= rx_req_ready;
        t <= t + 1'b1;
    end
    if (ans_end)
        a <= a + 1'b1;
    if (rst) begin
        t <= 0;
        a <= 0;
    end
end

// the engines' request channels: reset, held, stable (fv_dma_req)
fv_dma_req #(.N(2), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) reqs (
    .clk(clk), .rst(rst), .f_past_valid(f_past_valid),
    .valid({rx_req_valid, tx_req_valid}), .ready({rx_req_ready, tx_req_ready}),
    .addr({rx_req_addr, tx_req_addr}), .len({rx_req_len, tx_req_len}),
    .excused(flushing & ~locked)
);

`ifdef FORMAL

always @(*) begin
    if (f_past_valid && !rst) begin
        // answers only for reads taken
        if (rd_valid)
            m_answer: assume(outstanding != 0);
    end
end

always @(*) begin
    if (f_past_valid && !rst) begin
        if (m_req_fire)
            a_fire: assert(tx_req_ready != rx_req_ready);
        // (with no read outstanding no answer comes: the ready is free)
        a_route: assert(tx_valid == (rd_valid && !a_own) && rx_valid == (rd_valid && a_own) &&
                        (outstanding == 0 || rd_ready == (a_own ? rx_ready : tx_ready)));
        if (outstanding == N)
            a_full: assert(!m_req_valid);
        a_empty: assert(empty == (outstanding == 0));
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && u_ends[1] >= 2));
`endif

`endif

endmodule

`resetall
