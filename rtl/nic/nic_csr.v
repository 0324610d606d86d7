// SPDX-License-Identifier: MIT
/*
 * nic_csr: the NIC's registers behind an AXI4-Lite slave (BAR0): the ID
 * block, control, the two queues, interrupts and the 64-bit statistics.
 * docs/regmap.md is the map; this file follows it.
 *
 * AXI4-Lite: a write is taken when address and data are both valid, a read
 * answers the clock after its address; OKAY for every address (unmapped
 * reads return 0, unmapped writes are ignored).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_csr #
(
    // VERSION register: major 1, minor 2 (1.1: LINK_SPEED; 1.2: QFLUSH),
    // patch 0
    parameter [31:0] VERSION = 32'h00010200,
    // BUILD register
    parameter [31:0] BUILD_ID = 32'h0,
    // reset value of MAC_LO/MAC_HI, byte 0 in bits 7:0
    parameter [47:0] MAC_ADDR = 48'h010000000002,
    // largest frame the datapath can hold
    parameter MAX_FRAME_HW = 9018,
    // codec lanes of the datapath (CONFIG[7:0])
    parameter LANES = 16,
    // number of statistics counters
    parameter N_STATS = 18
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [15:0]           s_axil_awaddr,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output reg                   s_axil_bvalid = 1'b0,
    input  wire                  s_axil_bready,
    input  wire [15:0]           s_axil_araddr,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output reg  [31:0]           s_axil_rdata = 0,
    output wire [1:0]            s_axil_rresp,
    output reg                   s_axil_rvalid = 1'b0,
    input  wire                  s_axil_rready,

    output reg                   tx_en = 1'b0,
    output reg                   rx_en = 1'b0,
    output reg                   loopback = 1'b0,
    output reg  [13:0]           max_frame = 14'd1518,

    output reg  [63:0]           txq_base = 0,
    output reg  [3:0]            txq_size = 4'd4,
    output reg  [15:0]           txq_prod = 0,
    input  wire [15:0]           txq_cons,
    output reg  [63:0]           rxq_base = 0,
    output reg  [3:0]            rxq_size = 4'd4,
    output reg  [15:0]           rxq_prod = 0,
    input  wire [15:0]           rxq_cons,

    // QFLUSH: a 1 written to a queue's bit (0 TX, 1 RX) asks for its flush
    // (a pulse); flushing: in progress, read back; flush_done: the queue's
    // engine is reset now, its PROD goes to 0
    output wire [1:0]            flush_req,
    input  wire [1:0]            flushing,
    input  wire [1:0]            flush_done,

    output reg  [1:0]            irq_enable = 2'b00,
    output reg  [31:0]           coal_tx = 0,
    output reg  [31:0]           coal_rx = 0,
    input  wire [1:0]            irq_fired,     // a message was sent

    input  wire                  link_up,
    input  wire [31:0]           link_speed,    // Mbit/s, 0: unknown
    input  wire                  tx_idle,
    input  wire                  rx_idle,

    input  wire [N_STATS*16-1:0] stat_inc       // per counter, added each clock
);

localparam [31:0] MAGIC = 32'h31434e49;    // "INC1"
localparam [31:0] FEATURES = 32'h00000fff;   // (bit 11: QFLUSH, v1.2)
localparam [15:0] MAX_HW = MAX_FRAME_HW;
localparam [7:0]  LANES8 = LANES[7:0];
localparam [31:0] CONFIG = {MAX_HW, 8'd1, LANES8};

// the board's MAC address, for the driver; the NIC itself does not filter
reg [47:0] mac = MAC_ADDR;
reg [1:0]  irq_status = 2'b00;
reg [63:0] stats [0:N_STATS-1];
reg [31:0] stat_hi_latch = 0;

// ---- writes ----
wire wr = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
assign s_axil_awready = wr;
assign s_axil_wready = wr;
assign s_axil_bresp = 2'b00;

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

reg [31:0] scratch = 0;

reg [31:0] cur;     // the register at the write address, for byte strobes
always @* begin
    case (s_axil_awaddr)
    16'h0010: cur = scratch;
    16'h0100: cur = {29'd0, loopback, rx_en, tx_en};
    16'h0108: cur = mac[31:0];
    16'h010c: cur = {16'd0, mac[47:32]};
    16'h0110: cur = {18'd0, max_frame};
    16'h0200: cur = txq_base[31:0];
    16'h0204: cur = txq_base[63:32];
    16'h0208: cur = {28'd0, txq_size};
    16'h020c: cur = {16'd0, txq_prod};
    16'h0300: cur = rxq_base[31:0];
    16'h0304: cur = rxq_base[63:32];
    16'h0308: cur = {28'd0, rxq_size};
    16'h030c: cur = {16'd0, rxq_prod};
    16'h0404: cur = {30'd0, irq_enable};
    16'h0408: cur = coal_tx;
    16'h040c: cur = coal_rx;
    default:  cur = 0;
    endcase
end
wire [31:0] wv = merge(cur, s_axil_wdata, s_axil_wstrb);
wire [13:0] mf_clamped = wv[13:0] < 14'd60 ? 14'd60 :
                         (wv[31:14] != 0 || wv[13:0] > MAX_HW[13:0] ? MAX_HW[13:0] : wv[13:0]);
wire [3:0]  sz_clamped = wv[3:0] < 4'd4 ? 4'd4 : (wv[3:0] > 4'd12 ? 4'd12 : wv[3:0]);
// (write 1 to start: the bits written 1, with byte 0's strobe)
assign flush_req = wr && s_axil_awaddr == 16'h0118 && s_axil_wstrb[0] ? s_axil_wdata[1:0] : 2'b00;

integer si;
always @(posedge clk) begin
    if (s_axil_bvalid && s_axil_bready)
        s_axil_bvalid <= 1'b0;
    // the interrupt logic's updates come first; a register write wins
    irq_status <= irq_status | irq_fired;
    irq_enable <= irq_enable & ~irq_fired;
    if (wr) begin
        s_axil_bvalid <= 1'b1;
        case (s_axil_awaddr)
        16'h0010: scratch <= wv;
        16'h0100: {loopback, rx_en, tx_en} <= wv[2:0];
        16'h0108: mac[31:0] <= wv;
        16'h010c: mac[47:32] <= wv[15:0];
        16'h0110: max_frame <= mf_clamped;
        16'h0200: txq_base[31:0] <= wv;
        16'h0204: txq_base[63:32] <= wv;
        16'h0208: txq_size <= sz_clamped;
        16'h020c: txq_prod <= wv[15:0];
        16'h0300: rxq_base[31:0] <= wv;
        16'h0304: rxq_base[63:32] <= wv;
        16'h0308: rxq_size <= sz_clamped;
        16'h030c: rxq_prod <= wv[15:0];
        16'h0400: irq_status <= (irq_status | irq_fired) & ~wv[1:0];
        16'h0404: irq_enable <= wv[1:0];
        16'h0408: coal_tx <= wv;
        16'h040c: coal_rx <= wv;
        default: ;
        endcase
    end
    // (a flush ends with the ring empty: PROD = CONS = 0; it wins over a
    // PROD write in the same clock, which docs/regmap.md forbids anyway)
    if (flush_done[0])
        txq_prod <= 0;
    if (flush_done[1])
        rxq_prod <= 0;
    for (si = 0; si < N_STATS; si = si + 1)
        stats[si] <= stats[si] + {48'd0, stat_inc[16*si +: 16]};
    if (rst) begin
        s_axil_bvalid <= 1'b0;
        tx_en <= 1'b0;
        rx_en <= 1'b0;
        loopback <= 1'b0;
        mac <= MAC_ADDR;
        max_frame <= 14'd1518;
        txq_base <= 0;
        txq_size <= 4'd4;
        txq_prod <= 0;
        rxq_base <= 0;
        rxq_size <= 4'd4;
        rxq_prod <= 0;
        irq_status <= 0;
        irq_enable <= 0;
        coal_tx <= 0;
        coal_rx <= 0;
        scratch <= 0;
        for (si = 0; si < N_STATS; si = si + 1)
            stats[si] <= 0;
    end
end

// ---- reads ----
assign s_axil_arready = !s_axil_rvalid;
assign s_axil_rresp = 2'b00;
wire rd = s_axil_arvalid && s_axil_arready;
wire [15:0] ra = s_axil_araddr;
wire [4:0]  stat_idx = ra[7:3];                 // (ra - 0x1000) / 8
wire        is_stat = ra >= 16'h1000 && ra < 16'h1000 + 8 * N_STATS;

always @(posedge clk) begin
    if (s_axil_rvalid && s_axil_rready)
        s_axil_rvalid <= 1'b0;
    if (rd) begin
        s_axil_rvalid <= 1'b1;
        if (is_stat) begin
            if (!ra[2]) begin
                s_axil_rdata <= stats[stat_idx][31:0];
                stat_hi_latch <= stats[stat_idx][63:32];
            end else begin
                s_axil_rdata <= stat_hi_latch;
            end
        end else begin
            case (ra)
            16'h0000: s_axil_rdata <= MAGIC;
            16'h0004: s_axil_rdata <= VERSION;
            16'h0008: s_axil_rdata <= FEATURES;
            16'h000c: s_axil_rdata <= CONFIG;
            16'h0010: s_axil_rdata <= scratch;
            16'h0014: s_axil_rdata <= BUILD_ID;
            16'h0100: s_axil_rdata <= {29'd0, loopback, rx_en, tx_en};
            16'h0104: s_axil_rdata <= {29'd0, rx_idle, tx_idle, link_up};
            16'h0108: s_axil_rdata <= mac[31:0];
            16'h010c: s_axil_rdata <= {16'd0, mac[47:32]};
            16'h0110: s_axil_rdata <= {18'd0, max_frame};
            16'h0114: s_axil_rdata <= link_speed;
            16'h0118: s_axil_rdata <= {30'd0, flushing};
            16'h0200: s_axil_rdata <= txq_base[31:0];
            16'h0204: s_axil_rdata <= txq_base[63:32];
            16'h0208: s_axil_rdata <= {28'd0, txq_size};
            16'h020c: s_axil_rdata <= {16'd0, txq_prod};
            16'h0210: s_axil_rdata <= {16'd0, txq_cons};
            16'h0300: s_axil_rdata <= rxq_base[31:0];
            16'h0304: s_axil_rdata <= rxq_base[63:32];
            16'h0308: s_axil_rdata <= {28'd0, rxq_size};
            16'h030c: s_axil_rdata <= {16'd0, rxq_prod};
            16'h0310: s_axil_rdata <= {16'd0, rxq_cons};
            16'h0400: s_axil_rdata <= {30'd0, irq_status};
            16'h0404: s_axil_rdata <= {30'd0, irq_enable};
            16'h0408: s_axil_rdata <= coal_tx;
            16'h040c: s_axil_rdata <= coal_rx;
            default:  s_axil_rdata <= 0;
            endcase
        end
    end
    if (rst) begin
        s_axil_rvalid <= 1'b0;
        stat_hi_latch <= 0;
    end
end

endmodule

`resetall
