// SPDX-License-Identifier: MIT
/*
 * fv_nic_dma_wr: formal harness of the NIC's DMA write port, nic_dma_wr
 * (rtl/scripts/formal.sh nic_dma_wr - DEPTH [prove]): inc_nic's
 * m_dma_wr_* request and data channels and s_dma_wr_done, shared by its
 * TX and RX engines. Data, address and length are narrowed, and the owners
 * FIFO is 4 entries (ID_W = 2): the port only routes them.
 *
 * Assumptions: rst high in the first cycle (fv_env; free afterwards); the
 * engines reset with the port (nothing asked or sent in the cycle after a
 * reset); each engine keeps a request it offered until its ready, with
 * address and length stable, unless its queue is being flushed and the
 * lock does not hold its request (as fv_nic_dma_arb); each engine's data
 * follows the stream rules (axis_props, ASSUME = 1: valid held, data,
 * keep and last stable until ready); m_req_ready and m_wr_ready free;
 * s_done only for a write whose data has all gone (the bridge's rule).
 *
 * Assertions, against a model of its own (the owners of the requests
 * taken, in order, and how many have had their data and their done):
 *   - m_req and m_wr follow the stream rules (axis_props, ASSUME = 0):
 *     valid low after a reset cycle, held with its fields stable until
 *     ready
 *   - a_data: m_wr is the stream of the oldest request taken whose data
 *     has not all gone (its engine's valid, data, keep, last), and idle
 *     when there is none
 *   - a_ready: an engine's data ready is m_wr_ready while it is that
 *     request's owner, low otherwise
 *   - a_done: a done goes to the engine of the oldest write not yet done,
 *     and only to it
 *   - a_full: no request offered while 4 are outstanding
 *   - a_empty: empty exactly when no write is outstanding
 *
 * FV_BREAK_VALID: m_wr's valid as the checker sees it drops after a
 * stall, so chk_m must fail. FV_COVER: c_reach asserts no trace has a
 * stalled m_wr beat and two data packets sent; the check must then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past, $stable)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_dma_wr #
(
    parameter DATA_W = 3,
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
    input  wire [DATA_W-1:0] tx_data,
    input  wire              tx_keep,
    input  wire              tx_last,
    input  wire              tx_valid,
    input  wire [DATA_W-1:0] rx_data,
    input  wire              rx_keep,
    input  wire              rx_last,
    input  wire              rx_valid,
    input  wire              m_req_ready,
    input  wire              m_wr_ready,
    input  wire              s_done
);

localparam N = 1 << ID_W;

wire              tx_req_ready, rx_req_ready, tx_ready, rx_ready, tx_done, rx_done;
wire              m_req_valid, m_wr_valid, m_wr_last, m_wr_keep;
wire [ADDR_W-1:0] m_req_addr;
wire [LEN_W-1:0]  m_req_len;
wire [DATA_W-1:0] m_wr_data;
wire              fire, pick, done_owner, empty;
wire [1:0]        asking, locked;

nic_dma_wr #(.DATA_W(DATA_W), .KEEP_W(1), .ADDR_W(ADDR_W), .LEN_W(LEN_W), .ID_W(ID_W)) dut (
    .clk(clk), .rst(rst),
    .flushing(flushing),
    .s_tx_req_valid(tx_req_valid), .s_tx_req_ready(tx_req_ready),
    .s_tx_req_addr(tx_req_addr), .s_tx_req_len(tx_req_len),
    .s_rx_req_valid(rx_req_valid), .s_rx_req_ready(rx_req_ready),
    .s_rx_req_addr(rx_req_addr), .s_rx_req_len(rx_req_len),
    .s_tx_wr_data(tx_data), .s_tx_wr_keep(tx_keep), .s_tx_wr_last(tx_last),
    .s_tx_wr_valid(tx_valid), .s_tx_wr_ready(tx_ready),
    .s_rx_wr_data(rx_data), .s_rx_wr_keep(rx_keep), .s_rx_wr_last(rx_last),
    .s_rx_wr_valid(rx_valid), .s_rx_wr_ready(rx_ready),
    .tx_done(tx_done), .rx_done(rx_done),
    .m_req_valid(m_req_valid), .m_req_ready(m_req_ready),
    .m_req_addr(m_req_addr), .m_req_len(m_req_len),
    .m_wr_data(m_wr_data), .m_wr_keep(m_wr_keep), .m_wr_last(m_wr_last),
    .m_wr_valid(m_wr_valid), .m_wr_ready(m_wr_ready),
    .s_done(s_done),
    .fire(fire), .pick(pick), .done_owner(done_owner),
    .asking(asking), .locked(locked), .empty(empty)
);

wire m_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk), .rst(rst),
    .m_tvalid(m_wr_valid), .m_tready(m_wr_ready),
    .m_valid_chk(m_valid_chk), .past_valid(f_past_valid), .cov_stall(cov_stall)
);

// the streams: the engines' data (assumed), the bridge's channels (checked)
wire [7:0] u_beats [0:3];
wire [7:0] u_starts [0:3];
wire [7:0] u_ends [0:3];
wire [3:0] u_in, u_xfer;
axis_props #(.DATA_W(DATA_W), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0), .CNT_W(8)) chk_tx (
    .clk(clk), .rst(rst), .tdata(tx_data), .tkeep(tx_keep), .tvalid(tx_valid),
    .tready(tx_ready), .tlast(tx_last), .tuser(1'b0),
    .beats(u_beats[0]), .starts(u_starts[0]), .ends(u_ends[0]), .in_packet(u_in[0]), .xfer(u_xfer[0])
);
axis_props #(.DATA_W(DATA_W), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0), .CNT_W(8)) chk_rx (
    .clk(clk), .rst(rst), .tdata(rx_data), .tkeep(rx_keep), .tvalid(rx_valid),
    .tready(rx_ready), .tlast(rx_last), .tuser(1'b0),
    .beats(u_beats[1]), .starts(u_starts[1]), .ends(u_ends[1]), .in_packet(u_in[1]), .xfer(u_xfer[1])
);
axis_props #(.DATA_W(DATA_W), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0), .CNT_W(8)) chk_m (
    .clk(clk), .rst(rst), .tdata(m_wr_data), .tkeep(m_wr_keep), .tvalid(m_valid_chk),
    .tready(m_wr_ready), .tlast(m_wr_last), .tuser(1'b0),
    .beats(u_beats[2]), .starts(u_starts[2]), .ends(u_ends[2]), .in_packet(u_in[2]), .xfer(u_xfer[2])
);
axis_props #(.DATA_W(ADDR_W + LEN_W), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0), .CNT_W(8)) chk_req (
    .clk(clk), .rst(rst), .tdata({m_req_addr, m_req_len}), .tkeep(1'b1), .tvalid(m_req_valid),
    .tready(m_req_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(u_beats[3]), .starts(u_starts[3]), .ends(u_ends[3]), .in_packet(u_in[3]), .xfer(u_xfer[3])
);

// the model: the owners of the requests taken (1: RX), in order; how many
// have had all their data (d) and their done (e)
reg  [N-1:0]  own = 0;
reg  [ID_W:0] t = 0, d = 0, e = 0;     // taken, data gone, done
wire [ID_W:0] outstanding = t - e;
wire          d_pending = d != t;
wire          d_own = own[d[ID_W-1:0]];
wire          e_own = own[e[ID_W-1:0]];
wire          m_req_fire = m_req_valid && m_req_ready && !rst;
wire          m_wr_end = m_wr_valid && m_wr_ready && m_wr_last && !rst;
always @(posedge clk) begin
    if (m_req_fire) begin
        own[t[ID_W-1:0]] <= rx_req_ready;
        t <= t + 1'b1;
    end
    if (m_wr_end)
        d <= d + 1'b1;
    if (s_done && !rst)
        e <= e + 1'b1;
    if (rst) begin
        t <= 0;
        d <= 0;
        e <= 0;
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
        // a done only for a write whose data has gone
        if (s_done)
            m_done: assume(d != e);
    end
end

always @(*) begin
    if (f_past_valid && !rst) begin
        // each request taken is one engine's: its ready, its alone
        if (m_req_fire)
            a_fire: assert(tx_req_ready != rx_req_ready);
        if (d_pending) begin
            a_data: assert(m_wr_valid == (d_own ? rx_valid : tx_valid) &&
                           (!m_wr_valid || (m_wr_data == (d_own ? rx_data : tx_data) &&
                                            m_wr_keep == (d_own ? rx_keep : tx_keep) &&
                                            m_wr_last == (d_own ? rx_last : tx_last))));
        end else begin
            a_idle: assert(!m_wr_valid);
        end
        a_ready: assert(tx_ready == (d_pending && !d_own && m_wr_ready) &&
                        rx_ready == (d_pending && d_own && m_wr_ready));
        a_done: assert(tx_done == (s_done && !e_own) && rx_done == (s_done && e_own));
        if (outstanding == N)
            a_full: assert(!m_req_valid);
        a_empty: assert(empty == (outstanding == 0));
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && u_ends[2] >= 2));
`endif

`endif

endmodule

`resetall
