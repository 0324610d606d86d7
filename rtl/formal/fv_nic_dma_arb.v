// SPDX-License-Identifier: MIT
/*
 * fv_nic_dma_arb: formal harness of the NIC's DMA request ports
 * (rtl/scripts/formal.sh nic_dma_arb - DEPTH [prove]). inc_nic's
 * m_dma_rd_req_* and m_dma_wr_req_* are the m_req ports of two
 * nic_dma_arb, one with RX_FIRST = 1 (reads) and one with RX_FIRST = 0
 * (writes); both are checked here, side by side, each with its own free
 * inputs. Address and length are narrowed (the arbiter only routes them).
 *
 * Assumptions, per arbiter: rst high in the first cycle (free afterwards);
 * no request in the clock after a reset (the engines are reset with it);
 * each requester (TX, RX) keeps a request it offered until its ready, with
 * address and length stable, unless its queue is being flushed and the
 * lock does not hold its request (the flush resets the engine then: its
 * request may go); flushing free; hold free, but rising only in the clock
 * after a request was taken (inc_nic's owners FIFO fills only then);
 * m_req_ready free.
 *
 * Assertions, per arbiter:
 *   - m_req follows the stream rules (axis_props, ASSUME = 0, {addr, len}
 *     as tdata): valid low after a reset cycle; held, with address and
 *     length stable, until ready
 *   - a_route: a request offered is the picked requester's own (its valid,
 *     address and length), and ready goes to that requester alone
 *   - a_hold: nothing offered under hold
 *   - a_flush: a queue being flushed has no request offered but one that
 *     was already waiting at the port
 *   - a_prio: both asking, no lock: the one RX_FIRST names is offered
 *   - a_locked: locked names the requester whose request waited at the
 *     port in the clock before
 *
 * FV_BREAK_VALID: the read arbiter's valid as the checker sees it drops
 * after a stall, so the check must fail. FV_COVER: c_reach asserts no
 * trace has a stalled read request and two reads taken; the check must
 * then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past, $stable)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_dma_arb #
(
    // address and length widths here (the arbiter only routes them)
    parameter ADDR_W = 3,
    parameter LEN_W = 2
)
(
    input  wire              clk,
    input  wire              rst,

    // reads (RX_FIRST = 1)
    input  wire [1:0]        r_flushing,
    input  wire              r_hold,
    input  wire              r_tx_valid,
    input  wire [ADDR_W-1:0] r_tx_addr,
    input  wire [LEN_W-1:0]  r_tx_len,
    input  wire              r_rx_valid,
    input  wire [ADDR_W-1:0] r_rx_addr,
    input  wire [LEN_W-1:0]  r_rx_len,
    input  wire              r_m_ready,

    // writes (RX_FIRST = 0)
    input  wire [1:0]        w_flushing,
    input  wire              w_hold,
    input  wire              w_tx_valid,
    input  wire [ADDR_W-1:0] w_tx_addr,
    input  wire [LEN_W-1:0]  w_tx_len,
    input  wire              w_rx_valid,
    input  wire [ADDR_W-1:0] w_rx_addr,
    input  wire [LEN_W-1:0]  w_rx_len,
    input  wire              w_m_ready
);

wire r_valid, r_fire;
wire m_valid_chk, f_past_valid, cov_stall;

fv_env env (
    .clk(clk),
    .rst(rst),
    .m_tvalid(r_valid),
    .m_tready(r_m_ready),
    .m_valid_chk(m_valid_chk),
    .past_valid(f_past_valid),
    .cov_stall(cov_stall)
);

fv_nic_dma_arb_one #(.RX_FIRST(1), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) rd (
    .clk(clk), .rst(rst), .f_past_valid(f_past_valid), .valid_chk_in(m_valid_chk),
    .use_chk(1'b1),
    .flushing(r_flushing), .hold(r_hold),
    .tx_valid(r_tx_valid), .tx_addr(r_tx_addr), .tx_len(r_tx_len),
    .rx_valid(r_rx_valid), .rx_addr(r_rx_addr), .rx_len(r_rx_len),
    .m_ready(r_m_ready), .m_valid(r_valid), .fire(r_fire)
);

wire w_valid, w_fire;
fv_nic_dma_arb_one #(.RX_FIRST(0), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) wr (
    .clk(clk), .rst(rst), .f_past_valid(f_past_valid), .valid_chk_in(1'b0),
    .use_chk(1'b0),
    .flushing(w_flushing), .hold(w_hold),
    .tx_valid(w_tx_valid), .tx_addr(w_tx_addr), .tx_len(w_tx_len),
    .rx_valid(w_rx_valid), .rx_addr(w_rx_addr), .rx_len(w_rx_len),
    .m_ready(w_m_ready), .m_valid(w_valid), .fire(w_fire)
);

`ifdef FV_COVER
reg [1:0] r_taken = 0;
always @(posedge clk) begin
    if (r_fire && r_taken != 2'd3)
        r_taken <= r_taken + 1'b1;
    if (rst)
        r_taken <= 0;
end
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && r_taken >= 2));
`endif

endmodule

// one arbiter, its environment and its checks
module fv_nic_dma_arb_one #
(
    parameter RX_FIRST = 1,
    parameter ADDR_W = 3,
    parameter LEN_W = 2
)
(
    input  wire              clk,
    input  wire              rst,
    input  wire              f_past_valid,
    // use_chk: the port's checker sees valid_chk_in (fv_env's, which
    // FV_BREAK_VALID breaks) instead of the arbiter's valid
    input  wire              valid_chk_in,
    input  wire              use_chk,
    input  wire [1:0]        flushing,
    input  wire              hold,
    input  wire              tx_valid,
    input  wire [ADDR_W-1:0] tx_addr,
    input  wire [LEN_W-1:0]  tx_len,
    input  wire              rx_valid,
    input  wire [ADDR_W-1:0] rx_addr,
    input  wire [LEN_W-1:0]  rx_len,
    input  wire              m_ready,
    output wire              m_valid,
    output wire              fire
);

wire              tx_ready, rx_ready, pick;
wire [ADDR_W-1:0] m_addr;
wire [LEN_W-1:0]  m_len;
wire [1:0]        asking, locked;

nic_dma_arb #(.RX_FIRST(RX_FIRST), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) dut (
    .clk(clk), .rst(rst),
    .flushing(flushing), .hold(hold),
    .s_tx_req_valid(tx_valid), .s_tx_req_ready(tx_ready),
    .s_tx_req_addr(tx_addr), .s_tx_req_len(tx_len),
    .s_rx_req_valid(rx_valid), .s_rx_req_ready(rx_ready),
    .s_rx_req_addr(rx_addr), .s_rx_req_len(rx_len),
    .m_req_valid(m_valid), .m_req_ready(m_ready),
    .m_req_addr(m_addr), .m_req_len(m_len),
    .pick(pick), .fire(fire), .asking(asking), .locked(locked)
);

wire [7:0] beats, starts, ends;
wire       in_pkt, xfer;
axis_props #(
    .DATA_W(ADDR_W + LEN_W),
    .KEEP_W(1),
    .USER_W(1),
    .ASSUME(0),
    .KEEP_CHECK(0),
    .CNT_W(8)
) chk_m (
    .clk(clk),
    .rst(rst),
    .tdata({m_addr, m_len}),
    .tkeep(1'b1),
    .tvalid(use_chk ? valid_chk_in : m_valid),
    .tready(m_ready),
    .tlast(1'b1),
    .tuser(1'b0),
    .beats(beats),
    .starts(starts),
    .ends(ends),
    .in_packet(in_pkt),
    .xfer(xfer)
);

// the requesters' channels: reset, held, stable (fv_dma_req); a request
// may go when its queue is flushing and it is not the lock's
fv_dma_req #(.N(2), .ADDR_W(ADDR_W), .LEN_W(LEN_W)) reqs (
    .clk(clk), .rst(rst), .f_past_valid(f_past_valid),
    .valid({rx_valid, tx_valid}), .ready({rx_ready, tx_ready}),
    .addr({rx_addr, tx_addr}), .len({rx_len, tx_len}),
    .excused(flushing & ~locked)
);

// the last clock: the port's request waited; a fire
reg m_stalled = 1'b0, m_pick = 1'b0;
reg fired = 1'b0, hold_q = 1'b0;
always @(posedge clk) begin
    m_stalled <= m_valid && !m_ready && !rst;
    m_pick <= pick;
    fired <= fire && !rst;
    hold_q <= hold;
end

`ifdef FORMAL

always @(*) begin
    // inc_nic's owners FIFO fills only as a request is taken
    if (f_past_valid && !rst && hold && !hold_q)
        m_hold_rise: assume(fired);
end

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        if (m_valid) begin
            a_route: assert(pick ? (rx_valid && m_addr == rx_addr && m_len == rx_len) :
                                   (tx_valid && m_addr == tx_addr && m_len == tx_len));
            a_hold: assert(!hold);
            if (flushing[pick])
                a_flush: assert(m_stalled && m_pick == pick);
        end
        a_ready: assert(tx_ready == (fire && !pick) && rx_ready == (fire && pick));
        if (!m_stalled && asking == 2'b11 && !hold)
            a_prio: assert(m_valid && pick == (RX_FIRST != 0));
        a_locked: assert(locked == (m_stalled ? (m_pick ? 2'b10 : 2'b01) : 2'b00));
    end
end

`endif

endmodule

`resetall
