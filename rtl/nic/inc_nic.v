// SPDX-License-Identifier: MIT
/*
 * inc_nic: the inceptionn NIC, top level.
 *
 * A CSR slave (AXI4-Lite), a DMA master of the request/response kind a
 * PCIe DMA bridge offers, MSI-X requests, and MAC TX/RX streams, around a
 * transmit engine (nic_tx: compresses marked gradient ranges into the wire
 * format) and a receive engine (nic_rx: restores them). docs/regmap.md is
 * the register map, descriptors and port contract; docs/dataflow.md
 * follows a frame through the blocks. Nothing here is simulation-only: on
 * a board this module sits behind the PCIe bridge and the MAC.
 *
 * A management block (nic_mgmt: an RV32IM core that runs the NIC's
 * firmware, its loader, the mailbox; register block 0x0500, interrupt
 * vector 2; docs/firmware.md) reaches the registers through nic_csr beside
 * the host. Through the engine test port (nic_tport, block 0x0540, v1.5)
 * the firmware feeds known chunks through the datapath's own codec engines
 * between frames: its boot self-test.
 *
 * One queue pair; one clock.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_nic #
(
    // codec lanes, 8 or 16: the datapath, the DMA and MAC data buses are
    // 32 LANES bits (256 or 512); CONFIG[7:0] reports it
    parameter LANES = 16,
    // width mode (3) built, 1 or 0; only at 16 lanes (at 8 it is never
    // built). Without it the NIC is the 8-lane NIC's for mode 3: a TX
    // descriptor asking for it is refused, a received width-mode chunk is
    // dropped as malformed, and FEATURES bit 12 is clear. A model without
    // it is smaller and faster (docs/sim.md)
    parameter WIDTH = 1,
    // clock frequency, for interrupt coalescing timers (microseconds)
    parameter CLK_MHZ = 250,
    // clocks per tick of the management core's mtime, which the firmware
    // takes for microseconds (docs/firmware.md "Time"): the clock in MHz.
    // A simulation may set it smaller to make the firmware's milliseconds
    // shorter
    parameter MGMT_TIMER_PRESCALE = CLK_MHZ,
    // DMA in flight, sized for a host whose PCIe reads take 1 us, at 100
    // Gbit/s (docs/dataflow.md, "DMA in flight"): TX's frame reads of 512
    // bytes in flight (32: 16 KiB against the 12.5 KB the link moves in
    // 1 us) and its descriptors read ahead (16: a microsecond's frames of
    // 1514 bytes twice over); RX's descriptors read ahead of their frames
    // (32: its small reads wait behind up to 16 KiB of TX's) and its
    // frames whose writes are not yet done (16); log2 of the reads the
    // read port keeps in flight for both (64) and of the writes whose
    // done has not come (64: two a received frame, one a sent one)
    parameter TX_RD_OUT = 32,
    parameter TX_DESC_AHEAD = 16,
    parameter RX_DESC_AHEAD = 32,
    parameter RX_WR_FRAMES = 16,
    parameter DMA_RD_ID_W = 6,
    parameter DMA_WR_ID_W = 6,
    // the BUILD register
    parameter [31:0] BUILD_ID = 32'h20261129,
    // reset MAC address, byte 0 in bits 7:0 (02:00:00:00:00:01)
    parameter [47:0] MAC_ADDR = 48'h010000000002,
    // the data buses in bits and bytes, and log2 of the bytes (derived:
    // leave them)
    parameter DATA_W = 32 * LANES,
    parameter KEEP_W = DATA_W / 8,
    parameter BS = $clog2(KEEP_W)
)
(
    input  wire          clk,
    input  wire          rst,
    input  wire          link_up,
    // bus mastering enabled (the PCIe core's view of the Command
    // register's Bus Master Enable): while low the NIC starts no read of
    // an RX descriptor and delivers no received frame (it drops it, as
    // for want of a buffer)
    input  wire          dma_enable,
    // the link's speed in Mbit/s from the MAC (0: unknown), read by the
    // driver in LINK_SPEED
    input  wire [31:0]   link_speed,
    // nothing to do and nothing in flight: the clock may stop (a simulator
    // sleeps; a board may gate it) until a CSR access or a frame comes
    output wire          idle,
    // idle, except that the management core is asleep (WFI, no interrupt
    // coming) rather than halted: the clock must run for the core's timer,
    // but until the timer reaches mtimecmp or an input changes only the
    // timer (mtime, its prescaler) and the core's mcycle change; a
    // simulator skips those clocks and advances them (docs/sim.md)
    output wire          sleep,

    input  wire [15:0]   s_axil_awaddr,
    input  wire          s_axil_awvalid,
    output wire          s_axil_awready,
    input  wire [31:0]   s_axil_wdata,
    input  wire [3:0]    s_axil_wstrb,
    input  wire          s_axil_wvalid,
    output wire          s_axil_wready,
    output wire [1:0]    s_axil_bresp,
    output wire          s_axil_bvalid,
    input  wire          s_axil_bready,
    input  wire [15:0]   s_axil_araddr,
    input  wire          s_axil_arvalid,
    output wire          s_axil_arready,
    output wire [31:0]   s_axil_rdata,
    output wire [1:0]    s_axil_rresp,
    output wire          s_axil_rvalid,
    input  wire          s_axil_rready,

    output wire [63:0]   m_dma_rd_req_addr,
    output wire [15:0]   m_dma_rd_req_len,
    output wire          m_dma_rd_req_valid,
    input  wire          m_dma_rd_req_ready,
    input  wire [DATA_W-1:0] s_dma_rd_data,
    input  wire [KEEP_W-1:0] s_dma_rd_keep,
    input  wire          s_dma_rd_last,
    input  wire          s_dma_rd_valid,
    output wire          s_dma_rd_ready,

    output wire [63:0]   m_dma_wr_req_addr,
    output wire [15:0]   m_dma_wr_req_len,
    output wire          m_dma_wr_req_valid,
    input  wire          m_dma_wr_req_ready,
    output wire [DATA_W-1:0] m_dma_wr_data,
    output wire [KEEP_W-1:0] m_dma_wr_keep,
    output wire          m_dma_wr_last,
    output wire          m_dma_wr_valid,
    input  wire          m_dma_wr_ready,
    input  wire          s_dma_wr_done,

    // MSI-X: vector 0 TX, 1 RX, 2 management
    output wire [1:0]    m_irq_vector,
    output wire          m_irq_valid,
    input  wire          m_irq_ready,

    output wire [DATA_W-1:0] m_axis_tx_tdata,
    output wire [KEEP_W-1:0] m_axis_tx_tkeep,
    output wire          m_axis_tx_tvalid,
    input  wire          m_axis_tx_tready,
    output wire          m_axis_tx_tlast,

    input  wire [DATA_W-1:0] s_axis_rx_tdata,
    input  wire [KEEP_W-1:0] s_axis_rx_tkeep,
    // (no tready: a MAC cannot be held; a frame the NIC has no room for
    // is dropped whole and counted, docs/dataflow.md "Receive without
    // back-pressure")
    input  wire          s_axis_rx_tvalid,
    input  wire          s_axis_rx_tlast,
    input  wire          s_axis_rx_tuser,

    // simulation only: tie to 0 on a board. A faulty engine, for the
    // self-test's negative tests (docs/firmware.md): bit 0 flips bit 0 of
    // every beat the compressor outputs, bit 1 the same of the
    // decompressors' (paper/sparse and width), for the datapath's frames
    // and the test port alike
    input  wire [1:0]    dbg_engine_fault
);

// ---- registers ---------------------------------------------------------------

wire        tx_en, rx_en, loopback;
wire [13:0] max_frame;
wire [63:0] txq_base, rxq_base;
wire [3:0]  txq_size, rxq_size;
wire [15:0] txq_prod, rxq_prod, txq_cons, rxq_cons;
wire [2:0]  irq_enable, irq_fired;
wire        mgmt_event, mgmt_quiet, mgmt_sleep;
// the management core's register bus, and nic_mgmt's registers
wire        mc_req_valid, mc_req_ready, mc_req_we, mc_rsp_valid, mc_rsp_err;
wire [23:0] mc_req_addr;
wire [3:0]  mc_req_wstrb;
wire [31:0] mc_req_wdata, mc_rsp_rdata;
wire        mg_w_en, mg_w_core;
wire [10:0] mg_w_addr, mg_r_addr;
wire [31:0] mg_w_data, mg_r_data;
wire [3:0]  mg_w_strb;
wire [31:0] coal_tx, coal_rx;
wire        tx_idle, rx_idle;
wire [1:0]  flush_req;
reg  [1:0]  flushing = 2'b00;   // a queue's flush in progress (0 TX, 1 RX)
reg  [1:0]  flush_rst = 2'b00;  // its engine is reset now
// the counters' indices (docs/regmap.md)
`include "inc_nic_regs.vh"

// their increments: TX's counters, then RX's (from INC_ST_RX_FRAMES); RX's
// MAC drops with the frames cut at a loopback switch
localparam NTX = INC_ST_RX_FRAMES;
localparam NRX = INC_ST_N - INC_ST_RX_FRAMES;
wire [16*NTX-1:0] tx_stat;
wire [16*NRX-1:0] rx_stat;
reg  [16*INC_ST_N-1:0] stat_inc;   // (made below, with rx_cut_drop)

nic_csr #(
    .BUILD_ID(BUILD_ID),
    .MAC_ADDR(MAC_ADDR),
    .LANES(LANES),
    .WIDTH(WIDTH),
    .N_STATS(INC_ST_N)
) csr (
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
    .tx_en(tx_en), .rx_en(rx_en), .loopback(loopback),
    .max_frame(max_frame),
    .txq_base(txq_base), .txq_size(txq_size), .txq_prod(txq_prod),
    .txq_cons(txq_cons),
    .rxq_base(rxq_base), .rxq_size(rxq_size), .rxq_prod(rxq_prod),
    .rxq_cons(rxq_cons),
    .flush_req(flush_req), .flushing(flushing), .flush_done(flush_rst),
    .irq_enable(irq_enable), .coal_tx(coal_tx), .coal_rx(coal_rx),
    .irq_fired(irq_fired), .mgmt_event(mgmt_event),
    .link_up(link_up), .link_speed(link_speed), .tx_idle(tx_idle), .rx_idle(rx_idle),
    .stat_inc(stat_inc),
    .c_req_valid(mc_req_valid), .c_req_ready(mc_req_ready), .c_req_addr(mc_req_addr),
    .c_req_we(mc_req_we), .c_req_wstrb(mc_req_wstrb), .c_req_wdata(mc_req_wdata),
    .c_rsp_valid(mc_rsp_valid), .c_rsp_rdata(mc_rsp_rdata), .c_rsp_err(mc_rsp_err),
    .mg_w_en(mg_w_en), .mg_w_core(mg_w_core), .mg_w_addr(mg_w_addr),
    .mg_w_data(mg_w_data), .mg_w_strb(mg_w_strb),
    .mg_r_addr(mg_r_addr), .mg_r_data(mg_r_data),
    .tp_w_en(tp_w_en), .tp_w_addr(tp_w_addr), .tp_w_data(tp_w_data),
    .tp_r_addr(tp_r_addr), .tp_r_data(tp_r_data)
);

// ---- management: the core, its loader, the mailbox (block 0x0500) ---------

nic_mgmt #(
    .TIMER_PRESCALE(MGMT_TIMER_PRESCALE)
) mgmt (
    .clk(clk), .rst(rst),
    .w_en(mg_w_en), .w_core(mg_w_core), .w_addr(mg_w_addr), .w_data(mg_w_data),
    .w_strb(mg_w_strb),
    .r_addr(mg_r_addr), .r_data(mg_r_data),
    .m_reg_req_valid(mc_req_valid), .m_reg_req_ready(mc_req_ready),
    .m_reg_req_addr(mc_req_addr), .m_reg_req_we(mc_req_we),
    .m_reg_req_wstrb(mc_req_wstrb), .m_reg_req_wdata(mc_req_wdata),
    .m_reg_rsp_valid(mc_rsp_valid), .m_reg_rsp_rdata(mc_rsp_rdata),
    .m_reg_rsp_err(mc_rsp_err),
    .irq_event(mgmt_event), .quiet(mgmt_quiet), .sleep(mgmt_sleep)
);

// ---- the engine test port (block 0x0540, windows 0x2000/0x2800) ------------

wire        tp_w_en;
wire [15:0] tp_w_addr, tp_r_addr;
wire [31:0] tp_w_data, tp_r_data;
wire [DATA_W-1:0] tp_tdata;
wire [KEEP_W-1:0] tp_tkeep;
wire        tp_tlast, tp_busy, tp_tx_tvalid, tp_rxp_tvalid, tp_rxw_tvalid;
wire [4:0]  tp_k;
wire [1:0]  tp_mode;
wire [13:0] tp_raw_len;
wire        tp_tx_req, tp_tx_gnt, tp_tx_s_tready, tp_tx_m_tvalid, tp_tx_m_tready,
            tp_tx_m_tlast, tp_rxp_m_tready, tp_rxw_m_tready;
wire [2*DATA_W-1:0] tp_tx_m_tdata;
wire [2*KEEP_W-1:0] tp_tx_m_tkeep;
wire [7:0]  tp_tx_m_tuser;
wire        tp_rx_req, tp_rx_gnt, tp_rx_s_tready, tp_rx_m_tvalid,
            tp_rx_m_tlast, tp_rx_m_tuser;
wire [DATA_W-1:0] tp_rx_m_tdata;
wire [KEEP_W-1:0] tp_rx_m_tkeep;

nic_tport #(.LANES(LANES), .WIDTH(WIDTH)) tport (
    .clk(clk), .rst(rst),
    .w_en(tp_w_en), .w_addr(tp_w_addr), .w_data(tp_w_data),
    .r_addr(tp_r_addr), .r_data(tp_r_data),
    .f_tdata(tp_tdata), .f_tkeep(tp_tkeep), .f_tlast(tp_tlast),
    .tx_s_tvalid(tp_tx_tvalid), .rx_p_s_tvalid(tp_rxp_tvalid), .rx_w_s_tvalid(tp_rxw_tvalid),
    .f_k(tp_k), .f_mode(tp_mode), .f_raw_len(tp_raw_len),
    .tx_req(tp_tx_req), .tx_gnt(tp_tx_gnt), .tx_s_tready(tp_tx_s_tready),
    .tx_m_tdata(tp_tx_m_tdata), .tx_m_tkeep(tp_tx_m_tkeep), .tx_m_tvalid(tp_tx_m_tvalid),
    .tx_m_tready(tp_tx_m_tready), .tx_m_tlast(tp_tx_m_tlast), .tx_m_terr(tp_tx_m_tuser[7]),
    .rx_req(tp_rx_req), .rx_gnt(tp_rx_gnt), .rx_s_tready(tp_rx_s_tready),
    .rx_m_tdata(tp_rx_m_tdata), .rx_m_tkeep(tp_rx_m_tkeep), .rx_m_tvalid(tp_rx_m_tvalid),
    .rx_p_m_tready(tp_rxp_m_tready), .rx_w_m_tready(tp_rxw_m_tready),
    .rx_m_tlast(tp_rx_m_tlast), .rx_m_terr(tp_rx_m_tuser),
    .busy(tp_busy)
);
wire unused_tp = ^tp_tx_m_tuser[6:0];

// ---- DMA read: two requesters, responses in order -------------------------

wire         tx_rd_req_up, rx_rd_req_up;    // the engines' requests
wire [63:0]  tx_rd_req_addr, rx_rd_req_addr;
wire [15:0]  tx_rd_req_len, rx_rd_req_len;
wire         tx_rd_ready, rx_rd_ready;

wire         tx_rd_req_ready, rx_rd_req_ready;
wire         tx_rd_valid, rx_rd_valid;
wire         rd_pick, rd_req_fire;      // the requester at the port (1: RX); taken
wire         rd_resp_owner, rd_resp_done; // the answer's engine (1: RX); its end
wire [1:0]   rd_asking, rd_locked;      // {RX, TX}
wire         rd_empty;                  // no read outstanding

// the arbiter (RX first: its descriptor reads and TX's frame reads
// interleave), each answer to its engine in order
nic_dma_rd #(.ADDR_W(64), .LEN_W(16), .ID_W(DMA_RD_ID_W)) dma_rd (
    .clk(clk), .rst(rst),
    .flushing(flushing),
    .s_tx_req_valid(tx_rd_req_up), .s_tx_req_ready(tx_rd_req_ready),
    .s_tx_req_addr(tx_rd_req_addr), .s_tx_req_len(tx_rd_req_len),
    .s_rx_req_valid(rx_rd_req_up), .s_rx_req_ready(rx_rd_req_ready),
    .s_rx_req_addr(rx_rd_req_addr), .s_rx_req_len(rx_rd_req_len),
    .m_req_valid(m_dma_rd_req_valid), .m_req_ready(m_dma_rd_req_ready),
    .m_req_addr(m_dma_rd_req_addr), .m_req_len(m_dma_rd_req_len),
    .s_rd_valid(s_dma_rd_valid), .s_rd_ready(s_dma_rd_ready), .s_rd_last(s_dma_rd_last),
    .tx_rd_valid(tx_rd_valid), .tx_rd_ready(tx_rd_ready),
    .rx_rd_valid(rx_rd_valid), .rx_rd_ready(rx_rd_ready),
    .fire(rd_req_fire), .pick(rd_pick), .resp_owner(rd_resp_owner),
    .resp_done(rd_resp_done), .asking(rd_asking), .locked(rd_locked), .empty(rd_empty)
);

// ---- DMA write: requests, their data in the same order ---------------------

wire         tx_wr_req_up, rx_wr_req_up;
wire [63:0]  tx_wr_req_addr, rx_wr_req_addr;
wire [15:0]  tx_wr_req_len, rx_wr_req_len;
wire [DATA_W-1:0] tx_wr_data, rx_wr_data;
wire [KEEP_W-1:0] tx_wr_keep, rx_wr_keep;
wire         tx_wr_last, rx_wr_last, tx_wr_valid, rx_wr_valid;

wire         tx_wr_req_ready, rx_wr_req_ready;
wire         tx_wr_ready, rx_wr_ready, tx_wr_done, rx_wr_done;
wire         wr_pick, wr_req_fire;      // the requester at the port (1: RX); taken
wire         done_owner;                // whose write the next done ends (1: RX)
wire [1:0]   wr_asking, wr_locked;      // {RX, TX}
wire         wr_empty;                  // no write outstanding

// the arbiter (TX first when both ask: its writes are 4-byte statuses, at
// most one per frame sent, while RX's frames would otherwise keep them, and
// so TX's completions, waiting for a gap between them), each request's data
// in the order taken, each done to its engine
nic_dma_wr #(.DATA_W(DATA_W), .KEEP_W(KEEP_W), .ADDR_W(64), .LEN_W(16),
             .ID_W(DMA_WR_ID_W)) dma_wr (
    .clk(clk), .rst(rst),
    .flushing(flushing),
    .s_tx_req_valid(tx_wr_req_up), .s_tx_req_ready(tx_wr_req_ready),
    .s_tx_req_addr(tx_wr_req_addr), .s_tx_req_len(tx_wr_req_len),
    .s_rx_req_valid(rx_wr_req_up), .s_rx_req_ready(rx_wr_req_ready),
    .s_rx_req_addr(rx_wr_req_addr), .s_rx_req_len(rx_wr_req_len),
    .s_tx_wr_data(tx_wr_data), .s_tx_wr_keep(tx_wr_keep), .s_tx_wr_last(tx_wr_last),
    .s_tx_wr_valid(tx_wr_valid), .s_tx_wr_ready(tx_wr_ready),
    .s_rx_wr_data(rx_wr_data), .s_rx_wr_keep(rx_wr_keep), .s_rx_wr_last(rx_wr_last),
    .s_rx_wr_valid(rx_wr_valid), .s_rx_wr_ready(rx_wr_ready),
    .tx_done(tx_wr_done), .rx_done(rx_wr_done),
    .m_req_valid(m_dma_wr_req_valid), .m_req_ready(m_dma_wr_req_ready),
    .m_req_addr(m_dma_wr_req_addr), .m_req_len(m_dma_wr_req_len),
    .m_wr_data(m_dma_wr_data), .m_wr_keep(m_dma_wr_keep), .m_wr_last(m_dma_wr_last),
    .m_wr_valid(m_dma_wr_valid), .m_wr_ready(m_dma_wr_ready),
    .s_done(s_dma_wr_done),
    .fire(wr_req_fire), .pick(wr_pick), .done_owner(done_owner),
    .asking(wr_asking), .locked(wr_locked), .empty(wr_empty)
);

// ---- per-queue flush ------------------------------------------------------------
// QFLUSH (docs/regmap.md): the queue's engine asks for no new DMA (above);
// once the reads it has outstanding are answered and its writes done (the
// bridge is never left with an answer for a reset engine), the engine is
// reset for a clock (flush_rst: a frame it was writing into the TX FIFO
// goes, an RX frame it was taking in is dropped to its end, PROD goes to
// 0 in nic_csr), and the flush ends a clock later. The other queue runs on.
reg  [DMA_RD_ID_W:0] rd_out_tx = 0, rd_out_rx = 0;   // reads taken, not yet answered
reg  [DMA_WR_ID_W:0] wr_out_tx = 0, wr_out_rx = 0;   // writes taken, not yet done
wire [1:0] dma_quiet = {rd_out_rx == 0 && wr_out_rx == 0,
                        rd_out_tx == 0 && wr_out_tx == 0} & ~rd_locked & ~wr_locked;

always @(posedge clk) begin
    rd_out_tx <= rd_out_tx + {{DMA_RD_ID_W{1'b0}}, rd_req_fire && !rd_pick} -
                 {{DMA_RD_ID_W{1'b0}}, rd_resp_done && !rd_resp_owner};
    rd_out_rx <= rd_out_rx + {{DMA_RD_ID_W{1'b0}}, rd_req_fire && rd_pick} -
                 {{DMA_RD_ID_W{1'b0}}, rd_resp_done && rd_resp_owner};
    wr_out_tx <= wr_out_tx + {{DMA_WR_ID_W{1'b0}}, wr_req_fire && !wr_pick} -
                 {{DMA_WR_ID_W{1'b0}}, s_dma_wr_done && !done_owner};
    wr_out_rx <= wr_out_rx + {{DMA_WR_ID_W{1'b0}}, wr_req_fire && wr_pick} -
                 {{DMA_WR_ID_W{1'b0}}, s_dma_wr_done && done_owner};
    // (the request's clock is not yet counted: wait a clock after it)
    flush_rst <= flushing & dma_quiet & ~flush_rst & ~rd_asking & ~wr_asking;
    flushing <= (flushing | flush_req) & ~flush_rst;
    if (rst) begin
        rd_out_tx <= 0;
        rd_out_rx <= 0;
        wr_out_tx <= 0;
        wr_out_rx <= 0;
        flush_rst <= 2'b00;
        flushing <= 2'b00;
    end
end

// ---- engines -------------------------------------------------------------------

wire [DATA_W-1:0] tx_tdata;
wire [KEEP_W-1:0] tx_tkeep;
wire         tx_tvalid, tx_tlast, tx_tready;
wire         tx_event, rx_event;

nic_tx #(.LANES(LANES), .WIDTH(WIDTH), .RD_OUT(TX_RD_OUT), .DESC_AHEAD(TX_DESC_AHEAD)) tx (
    .clk(clk), .rst(rst || flush_rst[0]),
    .tx_en(tx_en), .txq_base(txq_base), .txq_size(txq_size),
    .txq_prod(txq_prod), .txq_cons(txq_cons), .max_frame(max_frame),
    .rd_req_valid(tx_rd_req_up), .rd_req_ready(tx_rd_req_ready),
    .rd_req_addr(tx_rd_req_addr), .rd_req_len(tx_rd_req_len),
    .rd_data(s_dma_rd_data), .rd_keep(s_dma_rd_keep), .rd_last(s_dma_rd_last),
    .rd_valid(tx_rd_valid), .rd_ready(tx_rd_ready),
    .wr_req_valid(tx_wr_req_up), .wr_req_ready(tx_wr_req_ready),
    .wr_req_addr(tx_wr_req_addr), .wr_req_len(tx_wr_req_len),
    .wr_data(tx_wr_data), .wr_keep(tx_wr_keep), .wr_last(tx_wr_last),
    .wr_valid(tx_wr_valid),
    .wr_ready(tx_wr_ready),
    .wr_done(tx_wr_done),
    .m_axis_tdata(tx_tdata), .m_axis_tkeep(tx_tkeep), .m_axis_tvalid(tx_tvalid),
    .m_axis_tready(tx_tready), .m_axis_tlast(tx_tlast),
    .event_done(tx_event), .idle(tx_idle), .stat_inc(tx_stat),
    .tp_req(tp_tx_req), .tp_gnt(tp_tx_gnt),
    .tp_tdata(tp_tdata), .tp_tkeep(tp_tkeep), .tp_tvalid(tp_tx_tvalid), .tp_tlast(tp_tlast),
    .tp_tuser({1'b0, tp_mode, tp_k}), .tp_s_tready(tp_tx_s_tready),
    .tp_m_tdata(tp_tx_m_tdata), .tp_m_tkeep(tp_tx_m_tkeep), .tp_m_tvalid(tp_tx_m_tvalid),
    .tp_m_tready(tp_tx_m_tready), .tp_m_tlast(tp_tx_m_tlast), .tp_m_tuser(tp_tx_m_tuser),
    .dbg_fault(dbg_engine_fault[0])
);

// ---- to the MAC: a frame FIFO, then loopback ------------------------------------
// Store-and-forward: a frame leaves only whole, one beat per clock, so the
// MAC's tvalid never drops inside a frame (an underrun for a real MAC).
wire [DATA_W-1:0] fq_tdata;
wire [KEEP_W-1:0] fq_tkeep;
wire         fq_tvalid, fq_tlast, fq_tready, fq_empty;

// (16 KiB: a 9018-byte frame and most of the next)
nic_frame_fifo #(.DATA_W(DATA_W), .ADDR_W(14 - BS)) tx_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(tx_tdata), .s_axis_tkeep(tx_tkeep), .s_axis_tvalid(tx_tvalid),
    .s_axis_tready(tx_tready), .s_axis_tlast(tx_tlast),
    .s_drop(flush_rst[0]),
    .m_axis_tdata(fq_tdata), .m_axis_tkeep(fq_tkeep), .m_axis_tvalid(fq_tvalid),
    .m_axis_tready(fq_tready), .m_axis_tlast(fq_tlast),
    .empty(fq_empty)
);

// Loopback (TX frames to RX instead of the MAC) changes only between
// frames: when neither the FIFO's output nor the MAC's RX stream is inside
// a frame. While looped back, MAC RX frames are dropped whole.
//
// The MAC's RX stream cannot be held (no tready) and does not stop for a
// reset of the NIC, so where its frames begin is tracked by a register that
// rst does not touch: it belongs to the MAC's side, reset with the MAC (its
// power-up value on a board). After a reset inside a frame, the rest of that
// frame is dropped (counted in rx_drop_mac), never taken for a frame of its
// own; after a reset between frames nothing is lost.
reg lb = 1'b0;                  // the loopback in effect
reg fq_in_frame = 1'b0;         // a beat of a frame left the FIFO, not its last
reg mac_rx_in_frame = 1'b0;     // the same for the MAC's RX stream (not reset)
// since rst or an RX flush, the stream into nic_rx (the MAC's, or the
// FIFO's looped back) was not between frames
reg rx_resync = 1'b0;
wire rx_src_in_frame = lb ? fq_in_frame : mac_rx_in_frame;
wire rx_cut = rx_resync && rx_src_in_frame;   // this beat is the tail of a cut frame
reg rx_cut_drop = 1'b0;         // a cut frame's tail ended: count it

// between frames on the FIFO's side: its last beat is taken now (the next
// frame's first beat shows at the next clock, to the new side), or nothing
// is offered; a beat offered and not taken stays with its destination
wire fq_boundary = (fq_tvalid && fq_tready && fq_tlast) ||
                   (!fq_tvalid && !fq_in_frame);
wire mac_boundary = !s_axis_rx_tvalid && !mac_rx_in_frame;

always @(posedge clk) begin
    if (s_axis_rx_tvalid)
        mac_rx_in_frame <= !s_axis_rx_tlast;
end

// the counters' increments (rx_cut_drop: a frame cut at a loopback switch)
always @* begin
    stat_inc = {rx_stat, tx_stat};
    stat_inc[16*INC_ST_RX_DROP_MAC +: 16] =
        rx_stat[16*(INC_ST_RX_DROP_MAC - INC_ST_RX_FRAMES) +: 16] + {15'd0, rx_cut_drop};
end

always @(posedge clk) begin
    if (fq_tvalid && fq_tready)
        fq_in_frame <= !fq_tlast;
    if (lb != loopback && fq_boundary && mac_boundary)
        lb <= loopback;
    if (!rx_src_in_frame)
        rx_resync <= 1'b0;
    if (flush_rst[1])
        rx_resync <= 1'b1;
    rx_cut_drop <= rx_cut && (lb ? fq_tvalid && fq_tready && fq_tlast :
                                   s_axis_rx_tvalid && s_axis_rx_tlast);
    if (rst) begin
        lb <= 1'b0;
        fq_in_frame <= 1'b0;
        rx_resync <= 1'b1;
        rx_cut_drop <= 1'b0;
    end
end

assign m_axis_tx_tdata = fq_tdata;
assign m_axis_tx_tkeep = fq_tkeep;
assign m_axis_tx_tvalid = fq_tvalid && !lb;
assign m_axis_tx_tlast = fq_tlast;
// Looped back, a frame leaves the FIFO only when nic_rx has room for it
// (with RX on; off, RX drops it as it drops MAC frames), so none is lost
wire rx_room;
wire lb_hold = rx_en && !fq_in_frame && !rx_room;
assign fq_tready = lb ? !lb_hold : m_axis_tx_tready;

wire [DATA_W-1:0] rx_in_data = lb ? fq_tdata : s_axis_rx_tdata;
wire [KEEP_W-1:0] rx_in_keep = lb ? fq_tkeep : s_axis_rx_tkeep;
wire         rx_in_valid = lb ? fq_tvalid && !lb_hold && !rx_cut :
                                s_axis_rx_tvalid && !rx_cut;
wire         rx_in_last = lb ? fq_tlast : s_axis_rx_tlast;
wire         rx_in_user = lb ? 1'b0 : s_axis_rx_tuser;

nic_rx #(.LANES(LANES), .WIDTH(WIDTH), .DESC_AHEAD(RX_DESC_AHEAD),
         .WR_FRAMES(RX_WR_FRAMES)) rx (
    .clk(clk), .rst(rst || flush_rst[1]),
    .rx_en(rx_en), .dma_en(dma_enable), .rxq_base(rxq_base), .rxq_size(rxq_size),
    .rxq_prod(rxq_prod), .rxq_cons(rxq_cons), .max_frame(max_frame),
    .s_axis_tdata(rx_in_data), .s_axis_tkeep(rx_in_keep),
    .s_axis_tvalid(rx_in_valid), .s_axis_tlast(rx_in_last),
    .s_axis_tuser(rx_in_user), .s_frame_room(rx_room),
    .rd_req_valid(rx_rd_req_up), .rd_req_ready(rx_rd_req_ready),
    .rd_req_addr(rx_rd_req_addr), .rd_req_len(rx_rd_req_len),
    .rd_data(s_dma_rd_data[8*INC_RXD_LEN-1:0]),   // (addr, buf_len)
    .rd_valid(rx_rd_valid), .rd_ready(rx_rd_ready),
    .wr_req_valid(rx_wr_req_up), .wr_req_ready(rx_wr_req_ready),
    .wr_req_addr(rx_wr_req_addr), .wr_req_len(rx_wr_req_len),
    .wr_data(rx_wr_data), .wr_keep(rx_wr_keep), .wr_last(rx_wr_last),
    .wr_valid(rx_wr_valid),
    .wr_ready(rx_wr_ready),
    .wr_done(rx_wr_done),
    .event_done(rx_event), .idle(rx_idle), .stat_inc(rx_stat),
    .tp_req(tp_rx_req), .tp_gnt(tp_rx_gnt),
    .tp_tdata(tp_tdata), .tp_tkeep(tp_tkeep), .tp_p_tvalid(tp_rxp_tvalid),
    .tp_w_tvalid(tp_rxw_tvalid), .tp_tlast(tp_tlast),
    .tp_tuser({tp_raw_len, tp_mode, tp_k}), .tp_s_tready(tp_rx_s_tready),
    .tp_m_tdata(tp_rx_m_tdata), .tp_m_tkeep(tp_rx_m_tkeep), .tp_m_tvalid(tp_rx_m_tvalid),
    .tp_p_m_tready(tp_rxp_m_tready), .tp_w_m_tready(tp_rxw_m_tready),
    .tp_m_tlast(tp_rx_m_tlast), .tp_m_tuser(tp_rx_m_tuser),
    .dbg_fault(dbg_engine_fault[1])
);

// ---- interrupts ---------------------------------------------------------------

wire [2:0] irq_busy;

nic_irq_port #(.CLK_MHZ(CLK_MHZ)) irq (
    .clk(clk), .rst(rst),
    .event_in({mgmt_event, rx_event, tx_event}), .enable(irq_enable),
    .coal_tx(coal_tx), .coal_rx(coal_rx),
    .m_irq_vector(m_irq_vector), .m_irq_valid(m_irq_valid), .m_irq_ready(m_irq_ready),
    .fired(irq_fired),
    /* verilator lint_off PINCONNECTEMPTY */
    .req(),
    /* verilator lint_on PINCONNECTEMPTY */
    .busy(irq_busy)
);

// the datapath idle: everything but the management core (the engine test
// port's run counts as the datapath's)
wire dp_idle = tx_idle && rx_idle && fq_empty && !fq_in_frame && lb == loopback &&
               !rx_cut_drop &&
               irq_busy == 3'b000 && !m_irq_valid && !mc_rsp_valid && !tp_busy &&
               rd_locked == 2'b00 && rd_empty && wr_locked == 2'b00 && flushing == 2'b00 &&
               wr_empty && !s_axil_bvalid && !s_axil_rvalid;

assign idle = dp_idle && mgmt_quiet;
assign sleep = dp_idle && mgmt_sleep;

endmodule

`resetall
