// SPDX-License-Identifier: MIT
/*
 * fv_nic_csr: formal harness of the NIC's AXI4-Lite register port
 * (nic_csr, which inc_nic's s_axil_* ports reach directly;
 * rtl/scripts/formal.sh nic_csr - DEPTH).
 *
 * Every input is free except: rst is high in the first cycle (fv_env), and
 * the master side of the port follows the AXI4-Lite rules (axil_props:
 * AW, W, AR valid held until ready with their payload stable, low after
 * reset). Any address, data, strobes; bready and rready free; the
 * statistics increments, queue consumer indices, link and interrupt inputs
 * free in every cycle; the management core's register bus (c_req_*) and
 * the management block's read data free too (any request in any cycle,
 * held or not).
 *
 * Assertions:
 *   - the slave side's rules (axil_props): B and R valid low after reset,
 *     held until ready, bresp / rdata / rresp stable while waiting; no
 *     response before its request
 *   - at most one write and one read outstanding, and each answered the
 *     clock after it was taken (regmap.md: "a read answers the clock after
 *     its address")
 *   - every response OKAY
 *   - data: the ID block reads MAGIC and VERSION; SCRATCH reads what the
 *     last write to it left (byte strobes merged), the value at the clock
 *     the read address was taken (the core cannot write it)
 *   - the core's port: a response exactly the clock after each request
 *     taken, none otherwise; a request taken in a clock where the host's
 *     port takes nothing; a request waiting is taken within two clocks
 *   - the management block gets at most one write a clock
 *
 * FV_BREAK_VALID: rvalid as the checker sees it drops after a stall, so the
 * check must fail. FV_COVER: c_reach asserts no trace has a stalled read
 * response after a SCRATCH write and read; the check must then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_csr #
(
    // Width of the transfer counters, bits
    parameter CNT_W = 8
)
(
    input  wire         clk,
    input  wire         rst,

    input  wire [15:0]  s_axil_awaddr,
    input  wire         s_axil_awvalid,
    output wire         s_axil_awready,
    input  wire [31:0]  s_axil_wdata,
    input  wire [3:0]   s_axil_wstrb,
    input  wire         s_axil_wvalid,
    output wire         s_axil_wready,
    output wire [1:0]   s_axil_bresp,
    output wire         s_axil_bvalid,
    input  wire         s_axil_bready,
    input  wire [15:0]  s_axil_araddr,
    input  wire         s_axil_arvalid,
    output wire         s_axil_arready,
    output wire [31:0]  s_axil_rdata,
    output wire [1:0]   s_axil_rresp,
    output wire         s_axil_rvalid,
    input  wire         s_axil_rready,

    input  wire [15:0]  txq_cons,
    input  wire [15:0]  rxq_cons,
    input  wire         link_up,
    input  wire [31:0]  link_speed,
    input  wire         tx_idle,
    input  wire         rx_idle,
    input  wire [287:0] stat_inc,

    input  wire         c_req_valid,
    input  wire [23:0]  c_req_addr,
    input  wire         c_req_we,
    input  wire [3:0]   c_req_wstrb,
    input  wire [31:0]  c_req_wdata,
    input  wire [2:0]   irq_fired,
    input  wire         mgmt_event,
    input  wire [31:0]  mg_r_data,
    input  wire [31:0]  tp_r_data
);

localparam [31:0] MAGIC = 32'h31434e49;
localparam [31:0] VERSION = 32'h00010100;

// the outputs to the datapath are not checked here
wire        tx_en, rx_en, loopback;
wire [13:0] max_frame;
wire [63:0] txq_base, rxq_base;
wire [3:0]  txq_size, rxq_size;
wire [15:0] txq_prod, rxq_prod;
wire [2:0]  irq_enable;
wire        c_req_ready, c_rsp_valid, c_rsp_err;
wire [31:0] c_rsp_rdata;
wire        mg_w_en, mg_w_core;
wire [10:0] mg_w_addr, mg_r_addr;
wire [31:0] mg_w_data;
wire [3:0]  mg_w_strb;
wire        tp_w_en;
wire [15:0] tp_w_addr, tp_r_addr;
wire [31:0] tp_w_data;
wire [31:0] coal_tx, coal_rx;

nic_csr #(
    .VERSION(VERSION),
    .N_STATS(18)
) dut (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready), .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .tx_en(tx_en), .rx_en(rx_en), .loopback(loopback), .max_frame(max_frame),
    .txq_base(txq_base), .txq_size(txq_size), .txq_prod(txq_prod),
    .txq_cons(txq_cons),
    .rxq_base(rxq_base), .rxq_size(rxq_size), .rxq_prod(rxq_prod),
    .rxq_cons(rxq_cons),
    .irq_enable(irq_enable), .coal_tx(coal_tx), .coal_rx(coal_rx),
    .irq_fired(irq_fired),
    .link_up(link_up), .link_speed(link_speed), .tx_idle(tx_idle),
    .rx_idle(rx_idle),
    .stat_inc(stat_inc),
    .mgmt_event(mgmt_event),
    .c_req_valid(c_req_valid), .c_req_ready(c_req_ready), .c_req_addr(c_req_addr),
    .c_req_we(c_req_we), .c_req_wstrb(c_req_wstrb), .c_req_wdata(c_req_wdata),
    .c_rsp_valid(c_rsp_valid), .c_rsp_rdata(c_rsp_rdata), .c_rsp_err(c_rsp_err),
    .mg_w_en(mg_w_en), .mg_w_core(mg_w_core), .mg_w_addr(mg_w_addr),
    .mg_w_data(mg_w_data), .mg_w_strb(mg_w_strb),
    .mg_r_addr(mg_r_addr), .mg_r_data(mg_r_data),
    .tp_w_en(tp_w_en), .tp_w_addr(tp_w_addr), .tp_w_data(tp_w_data),
    .tp_r_addr(tp_r_addr), .tp_r_data(tp_r_data)
);

// the core's side: a request taken, one that waited
wire c_take = c_req_valid && c_req_ready;
reg  c_taken = 1'b0, c_waited = 1'b0, c_waited2 = 1'b0;
always @(posedge clk) begin
    c_taken <= c_take && !rst;
    c_waited <= c_req_valid && !c_req_ready && !rst;
    c_waited2 <= c_waited && c_req_valid && !c_req_ready && !rst;
end

// first cycle, reset, rvalid as the checker sees it (FV_BREAK_VALID: a
// broken one), a stalled read response seen (FV_COVER)
wire r_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk),
    .rst(rst),
    .m_tvalid(s_axil_rvalid),
    .m_tready(s_axil_rready),
    .m_valid_chk(r_valid_chk),
    .past_valid(f_past_valid),
    .cov_stall(cov_stall)
);

wire [CNT_W-1:0] aw_cnt, w_cnt, b_cnt, ar_cnt, r_cnt;
wire             aw_xfer, w_xfer, b_xfer, ar_xfer, r_xfer;

axil_props #(
    .ADDR_W(16),
    .DATA_W(32),
    .CNT_W(CNT_W)
) chk (
    .clk(clk), .rst(rst),
    .awaddr(s_axil_awaddr), .awvalid(s_axil_awvalid), .awready(s_axil_awready),
    .wdata(s_axil_wdata), .wstrb(s_axil_wstrb), .wvalid(s_axil_wvalid),
    .wready(s_axil_wready),
    .bresp(s_axil_bresp), .bvalid(s_axil_bvalid), .bready(s_axil_bready),
    .araddr(s_axil_araddr), .arvalid(s_axil_arvalid), .arready(s_axil_arready),
    .rdata(s_axil_rdata), .rresp(s_axil_rresp), .rvalid(r_valid_chk),
    .rready(s_axil_rready),
    .aw_cnt(aw_cnt), .w_cnt(w_cnt), .b_cnt(b_cnt), .ar_cnt(ar_cnt),
    .r_cnt(r_cnt),
    .aw_xfer(aw_xfer), .w_xfer(w_xfer), .b_xfer(b_xfer), .ar_xfer(ar_xfer),
    .r_xfer(r_xfer)
);

// writes and reads taken and not answered yet (modulo 2^CNT_W)
wire [CNT_W-1:0] w_open = aw_cnt - b_cnt;
wire [CNT_W-1:0] r_open = ar_cnt - r_cnt;

// a reference SCRATCH register, and what a read taken now must return
function [31:0] merge;
    input [31:0] old;
    input [31:0] val;
    input [3:0]  strb;
    integer i;
    begin
        for (i = 0; i < 4; i = i + 1)
            merge[8*i +: 8] = strb[i] ? val[8*i +: 8] : old[8*i +: 8];
    end
endfunction

reg [31:0] ref_scratch = 0;
reg [15:0] rd_addr = 0;         // address of the read being answered
reg [31:0] rd_scratch = 0;      // SCRATCH when it was taken
reg        rd_first = 1'b0;     // the response's first cycle
reg        scratch_wr = 1'b0;   // a SCRATCH write was taken (FV_COVER)
reg        scratch_rd = 1'b0;   // and then a SCRATCH read

always @(posedge clk) begin
    rd_first <= ar_xfer;
    if (ar_xfer) begin
        rd_addr <= s_axil_araddr;
        rd_scratch <= ref_scratch;
        if (s_axil_araddr == 16'h0010 && scratch_wr)
            scratch_rd <= 1'b1;
    end
    if (aw_xfer && s_axil_awaddr == 16'h0010) begin
        ref_scratch <= merge(ref_scratch, s_axil_wdata, s_axil_wstrb);
        scratch_wr <= 1'b1;
    end
    if (rst) begin
        ref_scratch <= 0;
        rd_first <= 1'b0;
        scratch_wr <= 1'b0;
        scratch_rd <= 1'b0;
    end
end

`ifdef FORMAL

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        // nic_csr takes address and data of a write together
        a_aw_w_together: assert(aw_xfer == w_xfer);
        a_one_write: assert(w_open <= 1);
        a_one_read: assert(r_open <= 1);
        if ($past(aw_xfer))
            a_b_next: assert(s_axil_bvalid);
        if ($past(ar_xfer))
            a_r_next: assert(r_valid_chk);
        if (s_axil_bvalid)
            a_b_okay: assert(s_axil_bresp == 2'b00);
        if (r_valid_chk)
            a_r_okay: assert(s_axil_rresp == 2'b00);
        if (rd_first && rd_addr == 16'h0000)
            a_magic: assert(s_axil_rdata == MAGIC);
        if (rd_first && rd_addr == 16'h0004)
            a_version: assert(s_axil_rdata == VERSION);
        if (rd_first && rd_addr == 16'h0010)
            a_scratch: assert(s_axil_rdata == rd_scratch);
        a_c_rsp: assert(c_rsp_valid == c_taken);
        if (c_take)
            a_c_alone: assert(!aw_xfer && !ar_xfer);
        a_c_wait: assert(!c_waited2);
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && scratch_rd && r_cnt >= 2));
`endif

`endif

endmodule

`resetall
