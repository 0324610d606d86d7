// SPDX-License-Identifier: MIT
/*
 * axil_props: AXI4-Lite handshake properties of a slave port, for formal
 * checks (rtl/scripts/formal.sh). Each of the five channels is a
 * valid/ready channel with a payload, checked by its own axis_props (every
 * beat a packet of one): AW (awaddr), W (wdata, wstrb) and AR (araddr),
 * which the master drives, as assumptions; B (bresp) and R (rdata, rresp),
 * which the slave under test drives, as assertions. So: valid low after a
 * reset cycle, held until ready, the payload stable while waiting, on every
 * channel.
 *
 * Between channels (assertions): no write response before both its address
 * and its data were taken (b <= aw, b <= w), no read response before its
 * address (r <= ar). The transfer counts are outputs, for the harness's
 * own properties (ordering, latency, data). CNT_W bits, wrapping; the
 * assertions compare differences modulo 2^CNT_W, so they hold for any
 * length of trace as long as fewer than 2^(CNT_W-1) requests are open.
 */

// Language: Verilog 2001 (formal subset: assert)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module axil_props #
(
    // Width of awaddr and araddr, bits
    parameter ADDR_W = 16,
    // Width of wdata and rdata, bits
    parameter DATA_W = 32,
    // Width of the transfer counters, bits
    parameter CNT_W = 8
)
(
    input  wire                clk,
    input  wire                rst,

    input  wire [ADDR_W-1:0]   awaddr,
    input  wire                awvalid,
    input  wire                awready,
    input  wire [DATA_W-1:0]   wdata,
    input  wire [DATA_W/8-1:0] wstrb,
    input  wire                wvalid,
    input  wire                wready,
    input  wire [1:0]          bresp,
    input  wire                bvalid,
    input  wire                bready,
    input  wire [ADDR_W-1:0]   araddr,
    input  wire                arvalid,
    input  wire                arready,
    input  wire [DATA_W-1:0]   rdata,
    input  wire [1:0]          rresp,
    input  wire                rvalid,
    input  wire                rready,

    // transfers on each channel since the last reset
    output wire [CNT_W-1:0]    aw_cnt,
    output wire [CNT_W-1:0]    w_cnt,
    output wire [CNT_W-1:0]    b_cnt,
    output wire [CNT_W-1:0]    ar_cnt,
    output wire [CNT_W-1:0]    r_cnt,
    // a transfer on the channel this cycle
    output wire                aw_xfer,
    output wire                w_xfer,
    output wire                b_xfer,
    output wire                ar_xfer,
    output wire                r_xfer
);

// one checker per channel: every beat a packet (tlast = 1), no tkeep;
// the packet counts are not needed
wire [CNT_W-1:0] aw_starts, aw_ends;
wire             aw_inpkt;
axis_props #(
    .DATA_W(ADDR_W), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0),
    .CNT_W(CNT_W)
) chk_aw (
    .clk(clk), .rst(rst), .tdata(awaddr), .tkeep(1'b1), .tvalid(awvalid),
    .tready(awready), .tlast(1'b1), .tuser(1'b0), .beats(aw_cnt),
    .starts(aw_starts), .ends(aw_ends), .in_packet(aw_inpkt), .xfer(aw_xfer)
);

wire [CNT_W-1:0] w_starts, w_ends;
wire             w_inpkt;
axis_props #(
    .DATA_W(DATA_W + DATA_W / 8), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0),
    .CNT_W(CNT_W)
) chk_w (
    .clk(clk), .rst(rst), .tdata({wstrb, wdata}), .tkeep(1'b1), .tvalid(wvalid),
    .tready(wready), .tlast(1'b1), .tuser(1'b0), .beats(w_cnt),
    .starts(w_starts), .ends(w_ends), .in_packet(w_inpkt), .xfer(w_xfer)
);

wire [CNT_W-1:0] b_starts, b_ends;
wire             b_inpkt;
axis_props #(
    .DATA_W(2), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0),
    .CNT_W(CNT_W)
) chk_b (
    .clk(clk), .rst(rst), .tdata(bresp), .tkeep(1'b1), .tvalid(bvalid),
    .tready(bready), .tlast(1'b1), .tuser(1'b0), .beats(b_cnt),
    .starts(b_starts), .ends(b_ends), .in_packet(b_inpkt), .xfer(b_xfer)
);

wire [CNT_W-1:0] ar_starts, ar_ends;
wire             ar_inpkt;
axis_props #(
    .DATA_W(ADDR_W), .KEEP_W(1), .USER_W(1), .ASSUME(1), .KEEP_CHECK(0),
    .CNT_W(CNT_W)
) chk_ar (
    .clk(clk), .rst(rst), .tdata(araddr), .tkeep(1'b1), .tvalid(arvalid),
    .tready(arready), .tlast(1'b1), .tuser(1'b0), .beats(ar_cnt),
    .starts(ar_starts), .ends(ar_ends), .in_packet(ar_inpkt), .xfer(ar_xfer)
);

wire [CNT_W-1:0] r_starts, r_ends;
wire             r_inpkt;
axis_props #(
    .DATA_W(DATA_W + 2), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0),
    .CNT_W(CNT_W)
) chk_r (
    .clk(clk), .rst(rst), .tdata({rresp, rdata}), .tkeep(1'b1), .tvalid(rvalid),
    .tready(rready), .tlast(1'b1), .tuser(1'b0), .beats(r_cnt),
    .starts(r_starts), .ends(r_ends), .in_packet(r_inpkt), .xfer(r_xfer)
);

`ifdef FORMAL

reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;

// requests not yet answered, modulo 2^CNT_W: a response before its request
// makes one "negative", its top bit set (wrap-safe, so a proof for every
// depth can hold)
wire [CNT_W-1:0] aw_open = aw_cnt - b_cnt;
wire [CNT_W-1:0] w_open = w_cnt - b_cnt;
wire [CNT_W-1:0] ar_open = ar_cnt - r_cnt;

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        a_b_after_aw: assert(!aw_open[CNT_W-1]);
        a_b_after_w: assert(!w_open[CNT_W-1]);
        a_r_after_ar: assert(!ar_open[CNT_W-1]);
    end
end

`endif

endmodule

`resetall
