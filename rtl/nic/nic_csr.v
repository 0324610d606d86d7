// SPDX-License-Identifier: MIT
/*
 * nic_csr: the NIC's registers behind an AXI4-Lite slave (BAR0): the ID
 * block, control, the two queues, interrupts, the 64-bit statistics and
 * their snapshot bank; the management block's registers (0x0500..0x07ff,
 * nic_mgmt) and the engine test port's (0x0540..0x054f and its windows
 * 0x2000..0x2fff, nic_tport, register map 1.5) decoded here and passed on. docs/regmap.md is the map; this
 * file follows it (the management block: docs/firmware.md "Host
 * interface").
 *
 * AXI4-Lite: a write is taken when address and data are both valid, a read
 * answers the clock after its address; OKAY for every address (unmapped
 * reads return 0, unmapped writes are ignored).
 *
 * The management core's register bus (c_*, mgmt_soc's m_reg_*: address
 * bits 23:0 the offset) reaches the same registers with the firmware's
 * rights: it reads the whole map (the live counters through a high-word
 * latch of its own), writes MAC_LO/MAC_HI, the 0x0500 block's core-side
 * registers (FW_*, MBOX_STATUS, EVENT, MBOX_RSP), STATS_SNAP and the test
 * port's TP_CTRL, TP_LEN and TP_IN, with whole words; any other write, a partial one, or an address with bits 23:16 set
 * is answered with an error and changes nothing. Its request is taken in a
 * clock where the host's port takes nothing; a request that waited a clock
 * holds the host's ready low for one clock and is taken then, so neither
 * side waits more than a clock for the other. Its answer comes the clock
 * after.
 *
 * STATS_SNAP (the core writes bit 0 TAKE, with bit 1 CLEAR): in that clock
 * every counter is copied into the bank (0x1800 + 8n, read directly, no
 * latch: it changes only on the next TAKE) and, with CLEAR, restarts from
 * that clock's increments: no count is lost, none is counted twice.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_csr #
(
    // VERSION register: major 1, minor 5 (1.1: LINK_SPEED; 1.2: QFLUSH;
    // 1.3: width mode, FEATURES bit 12 where LANES is 16; 1.4: the
    // management block, FEATURES bit 13; 1.5: the engine test port,
    // FEATURES bit 14), patch 0
    parameter [31:0] VERSION = 32'h00010500,
    // BUILD register
    parameter [31:0] BUILD_ID = 32'h0,
    // reset value of MAC_LO/MAC_HI, byte 0 in bits 7:0
    parameter [47:0] MAC_ADDR = 48'h010000000002,
    // largest frame the datapath can hold
    parameter MAX_FRAME_HW = 9018,
    // codec lanes of the datapath (CONFIG[7:0])
    parameter LANES = 16,
    // width mode built (inc_nic's WIDTH): FEATURES bit 12
    parameter WIDTH = 1,
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
    output reg  [13:0]           max_frame = 14'd1518,   // INC_MAX_FRAME_DEFAULT

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

    output reg  [2:0]            irq_enable = 3'b000,
    output reg  [31:0]           coal_tx = 0,
    output reg  [31:0]           coal_rx = 0,
    input  wire [2:0]            irq_fired,     // a message was sent
    input  wire                  mgmt_event,    // vector 2's event (sets IRQ_STATUS bit 2)

    input  wire                  link_up,
    input  wire [31:0]           link_speed,    // Mbit/s, 0: unknown
    input  wire                  tx_idle,
    input  wire                  rx_idle,

    input  wire [N_STATS*16-1:0] stat_inc,      // per counter, added each clock

    // the management core's register bus (mgmt_soc's m_reg_*)
    input  wire                  c_req_valid,
    output wire                  c_req_ready,
    input  wire [23:0]           c_req_addr,
    input  wire                  c_req_we,
    input  wire [3:0]            c_req_wstrb,
    input  wire [31:0]           c_req_wdata,
    output reg                   c_rsp_valid = 1'b0,
    output reg  [31:0]           c_rsp_rdata = 0,
    output reg                   c_rsp_err = 1'b0,

    // the management block's registers (nic_mgmt): a write a clock, a read
    // address and its data
    output wire                  mg_w_en,
    output wire                  mg_w_core,
    output wire [10:0]           mg_w_addr,
    output wire [31:0]           mg_w_data,
    output wire [3:0]            mg_w_strb,
    output wire [10:0]           mg_r_addr,
    input  wire [31:0]           mg_r_data,

    // the engine test port's registers (nic_tport, 0x540..0x54f and the
    // windows 0x2000..0x2fff): the core's writes (the host's are ignored),
    // a read address and its data
    output wire                  tp_w_en,
    output wire [15:0]           tp_w_addr,
    output wire [31:0]           tp_w_data,
    output wire [15:0]           tp_r_addr,
    input  wire [31:0]           tp_r_data
);

// the offsets, bits and limits of docs/regmap.md (include/hw/inc_nic_regs.h)
`include "inc_nic_regs.vh"

// what this NIC does (width mode since v1.3, with 16 lanes: the engines
// take a group of 16 values a beat; QFLUSH since v1.2, LINK_SPEED since
// v1.1)
localparam [31:0] FEAT_WIDTH = LANES == 16 && WIDTH != 0 ? INC_FEAT_MODE_WIDTH : 32'd0;
localparam [31:0] FEATURES = INC_FEAT_TX_COMP | INC_FEAT_RX_DECOMP | INC_FEAT_MODE_PAPER |
                             INC_FEAT_MODE_SPARSE | INC_FEAT_IPV6 | INC_FEAT_VLAN |
                             INC_FEAT_LOOPBACK | INC_FEAT_IRQ_COAL | INC_FEAT_JUMBO |
                             INC_FEAT_STATS64 | INC_FEAT_LINK_SPEED | INC_FEAT_QFLUSH |
                             FEAT_WIDTH | INC_FEAT_MGMT | INC_FEAT_TPORT;
localparam [31:0] A_TXQ = INC_TXQ, A_RXQ = INC_RXQ;
localparam [15:0] MAX_HW = MAX_FRAME_HW;
localparam [7:0]  LANES8 = LANES[7:0];
localparam [31:0] CONFIG = {MAX_HW, 8'd1, LANES8};

// the board's MAC address, for the driver; the NIC itself does not filter
reg [47:0] mac = MAC_ADDR;
reg [2:0]  irq_status = 3'b000;
reg [63:0] stats [0:N_STATS-1];
reg [63:0] snap [0:N_STATS-1];      // the snapshot bank (STATS_SNAP)
reg [31:0] stat_hi_latch = 0;
reg [31:0] c_hi_latch = 0;          // the core's

// ---- the core's request: taken when the host's port takes nothing, or
// after it waited a clock (then the host waits one) ----
reg  c_hold = 1'b0;                 // the core's request waited last clock
wire h_wr_want = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid;
wire h_rd_want = s_axil_arvalid && !s_axil_rvalid;

// ---- writes ----
wire wr = h_wr_want && !c_hold;
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

// the control and status words as read
reg [31:0] ctrl_word, status_word;
always @* begin
    ctrl_word = 0;
    ctrl_word[INC_CTRL_TX_EN_BIT] = tx_en;
    ctrl_word[INC_CTRL_RX_EN_BIT] = rx_en;
    ctrl_word[INC_CTRL_LOOPBACK_BIT] = loopback;
    status_word = 0;
    status_word[INC_STATUS_LINK_BIT] = link_up;
    status_word[INC_STATUS_TX_IDLE_BIT] = tx_idle;
    status_word[INC_STATUS_RX_IDLE_BIT] = rx_idle;
end

// addresses as 32 bits, the width of inc_nic_regs.vh's offsets
wire [31:0] wa = {16'd0, s_axil_awaddr};

reg [31:0] cur;     // the register at the write address, for byte strobes
always @* begin
    case (wa)
    INC_SCRATCH:             cur = scratch;
    INC_CTRL:                cur = ctrl_word;
    INC_MAC_LO:              cur = mac[31:0];
    INC_MAC_HI:              cur = {16'd0, mac[47:32]};
    INC_MAX_FRAME:           cur = {18'd0, max_frame};
    A_TXQ + INC_Q_BASE_LO:   cur = txq_base[31:0];
    A_TXQ + INC_Q_BASE_HI:   cur = txq_base[63:32];
    A_TXQ + INC_Q_SIZE:      cur = {28'd0, txq_size};
    A_TXQ + INC_Q_PROD:      cur = {16'd0, txq_prod};
    A_RXQ + INC_Q_BASE_LO:   cur = rxq_base[31:0];
    A_RXQ + INC_Q_BASE_HI:   cur = rxq_base[63:32];
    A_RXQ + INC_Q_SIZE:      cur = {28'd0, rxq_size};
    A_RXQ + INC_Q_PROD:      cur = {16'd0, rxq_prod};
    INC_IRQ_ENABLE:          cur = {29'd0, irq_enable};
    INC_IRQ_COAL_TX:         cur = coal_tx;
    INC_IRQ_COAL_RX:         cur = coal_rx;
    default:                 cur = 0;
    endcase
end
wire [31:0] wv = merge(cur, s_axil_wdata, s_axil_wstrb);
localparam [13:0] MF_MIN = INC_MIN_FRAME[13:0];
localparam [3:0]  SZ_MIN = INC_Q_LOG2_MIN[3:0], SZ_MAX = INC_Q_LOG2_MAX[3:0];
wire [13:0] mf_clamped = wv[13:0] < MF_MIN ? MF_MIN :
                         (wv[31:14] != 0 || wv[13:0] > MAX_HW[13:0] ? MAX_HW[13:0] : wv[13:0]);
wire [3:0]  sz_clamped = wv[3:0] < SZ_MIN ? SZ_MIN : (wv[3:0] > SZ_MAX ? SZ_MAX : wv[3:0]);
// (write 1 to start: the bits written 1, with byte 0's strobe)
assign flush_req = wr && wa == INC_QFLUSH && s_axil_wstrb[0] ?
                   {s_axil_wdata[INC_QFLUSH_RX_BIT], s_axil_wdata[INC_QFLUSH_TX_BIT]} : 2'b00;

// ---- reads (the address: the host's read, else the core's) ----
assign s_axil_arready = !s_axil_rvalid && !c_hold;
assign s_axil_rresp = 2'b00;
wire rd = s_axil_arvalid && s_axil_arready;

assign c_req_ready = c_hold || (!h_wr_want && !h_rd_want);
wire        c_take = c_req_valid && c_req_ready;
wire [15:0] c_a16 = c_req_addr[15:0];
wire [31:0] ca = {16'd0, c_a16};
wire        c_far = c_req_addr[23:16] != 8'd0;
wire [31:0] ra = {16'd0, h_rd_want && !c_hold ? s_axil_araddr : c_a16};

// the management block: 0x0500..0x07ff, but for the test port's
// registers 0x0540..0x054f (nic_tport, with its windows 0x2000..0x2fff)
function is_tp;
    input [15:4] a;
    is_tp = a[15:4] == 12'h054 || a[15:12] == 4'h2;
endfunction
function is_mg;
    input [15:4] a;
    is_mg = a[15:11] == 5'd0 && (a[10:8] == 3'd5 || a[10:9] == 2'b11) && a[15:4] != 12'h054;
endfunction

// the core's writes and their rights (the fw column of docs/firmware.md)
wire c_w_mg = ca == INC_FW_STATUS || ca == INC_FW_VERSION || ca == INC_FW_HEARTBEAT ||
              ca == INC_FW_SELFTEST || ca == INC_MBOX_STATUS || ca == INC_MGMT_EVENT ||
              (ca >= INC_MBOX_RSP && ca < INC_MBOX_RSP + 4 * INC_MBOX_RSP_WORDS);
wire c_w_tp = ca == INC_TP_CTRL || ca == INC_TP_LEN ||
              (ca >= INC_TP_IN && ca < INC_TP_IN + INC_TP_IN_BYTES);
wire c_w_ok = !c_far && c_req_wstrb == 4'hf &&
              (c_w_mg || c_w_tp || ca == INC_MAC_LO || ca == INC_MAC_HI ||
               ca == INC_STATS_SNAP);
wire c_wr = c_take && c_req_we && c_w_ok;
wire snap_take = c_wr && ca == INC_STATS_SNAP && c_req_wdata[INC_STATS_SNAP_TAKE_BIT];
wire snap_clear = snap_take && c_req_wdata[INC_STATS_SNAP_CLEAR_BIT];

assign mg_w_en = (wr && is_mg(wa[15:4])) || (c_wr && c_w_mg);
assign mg_w_core = !wr;
assign mg_w_addr = wr ? wa[10:0] : ca[10:0];
assign mg_w_data = wr ? s_axil_wdata : c_req_wdata;
assign mg_w_strb = wr ? s_axil_wstrb : 4'hf;
assign mg_r_addr = ra[10:0];
assign tp_w_en = c_wr && c_w_tp;
assign tp_w_addr = c_a16;
assign tp_w_data = c_req_wdata;
assign tp_r_addr = ra[15:0];

integer si;
always @(posedge clk) begin
    if (s_axil_bvalid && s_axil_bready)
        s_axil_bvalid <= 1'b0;
    c_hold <= c_req_valid && !c_req_ready;
    // the interrupt logic's updates come first; a register write wins
    irq_status <= irq_status | irq_fired | {mgmt_event, 2'b00};
    irq_enable <= irq_enable & ~irq_fired;
    if (wr) begin
        s_axil_bvalid <= 1'b1;
        case (wa)
        INC_SCRATCH:            scratch <= wv;
        INC_CTRL: begin
            tx_en <= wv[INC_CTRL_TX_EN_BIT];
            rx_en <= wv[INC_CTRL_RX_EN_BIT];
            loopback <= wv[INC_CTRL_LOOPBACK_BIT];
        end
        INC_MAC_LO:             mac[31:0] <= wv;
        INC_MAC_HI:             mac[47:32] <= wv[15:0];
        INC_MAX_FRAME:          max_frame <= mf_clamped;
        A_TXQ + INC_Q_BASE_LO:  txq_base[31:0] <= wv;
        A_TXQ + INC_Q_BASE_HI:  txq_base[63:32] <= wv;
        A_TXQ + INC_Q_SIZE:     txq_size <= sz_clamped;
        A_TXQ + INC_Q_PROD:     txq_prod <= wv[15:0];
        A_RXQ + INC_Q_BASE_LO:  rxq_base[31:0] <= wv;
        A_RXQ + INC_Q_BASE_HI:  rxq_base[63:32] <= wv;
        A_RXQ + INC_Q_SIZE:     rxq_size <= sz_clamped;
        A_RXQ + INC_Q_PROD:     rxq_prod <= wv[15:0];
        INC_IRQ_STATUS:         irq_status <= (irq_status | irq_fired | {mgmt_event, 2'b00}) &
                                              ~wv[2:0];
        INC_IRQ_ENABLE:         irq_enable <= wv[2:0];
        INC_IRQ_COAL_TX:        coal_tx <= wv;
        INC_IRQ_COAL_RX:        coal_rx <= wv;
        default: ;
        endcase
    end
    // (a flush ends with the ring empty: PROD = CONS = 0; it wins over a
    // PROD write in the same clock, which docs/regmap.md forbids anyway)
    if (flush_done[0])
        txq_prod <= 0;
    if (flush_done[1])
        rxq_prod <= 0;
    if (c_wr && ca == INC_MAC_LO)
        mac[31:0] <= c_req_wdata;
    if (c_wr && ca == INC_MAC_HI)
        mac[47:32] <= c_req_wdata[15:0];
    for (si = 0; si < N_STATS; si = si + 1) begin
        // (the clear chooses after the add, not before it: the write's
        // decode stays off the 64-bit carry chain)
        stats[si] <= snap_clear ? {48'd0, stat_inc[16*si +: 16]}
                                : stats[si] + {48'd0, stat_inc[16*si +: 16]};
        if (snap_take)
            snap[si] <= stats[si];
    end
    if (rst) begin
        s_axil_bvalid <= 1'b0;
        tx_en <= 1'b0;
        rx_en <= 1'b0;
        loopback <= 1'b0;
        mac <= MAC_ADDR;
        max_frame <= INC_MAX_FRAME_DEFAULT[13:0];
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
        c_hold <= 1'b0;
        for (si = 0; si < N_STATS; si = si + 1) begin
            stats[si] <= 0;
            snap[si] <= 0;
        end
    end
end

// ---- reads ----
wire [4:0]  stat_idx = ra[7:3];                 // (ra - INC_STATS) / 8
wire        is_stat = ra >= INC_STATS && ra < INC_STATS + 8 * N_STATS;
wire        is_snap = ra >= INC_STATS_SNAP_BANK && ra < INC_STATS_SNAP_BANK + 8 * N_STATS;
wire [63:0] stat_q = stats[stat_idx];
wire [63:0] snap_q = snap[stat_idx];

// the register at ra (a live counter's low word; its high word from a
// latch, below)
reg [31:0] rv;
always @* begin
    if (is_snap)
        rv = ra[2] ? snap_q[63:32] : snap_q[31:0];
    else if (is_stat)
        rv = stat_q[31:0];
    else if (is_tp(ra[15:4]))
        rv = tp_r_data;
    else if (is_mg(ra[15:4]))
        rv = mg_r_data;
    else
            case (ra)
            INC_MAGIC:              rv = INC_MAGIC_VALUE;
            INC_VERSION:            rv = VERSION;
            INC_FEATURES:           rv = FEATURES;
            INC_CONFIG:             rv = CONFIG;
            INC_SCRATCH:            rv = scratch;
            INC_BUILD:              rv = BUILD_ID;
            INC_CTRL:               rv = ctrl_word;
            INC_STATUS:             rv = status_word;
            INC_MAC_LO:             rv = mac[31:0];
            INC_MAC_HI:             rv = {16'd0, mac[47:32]};
            INC_MAX_FRAME:          rv = {18'd0, max_frame};
            INC_LINK_SPEED:         rv = link_speed;
            INC_QFLUSH:             rv = {30'd0, flushing};
            A_TXQ + INC_Q_BASE_LO:  rv = txq_base[31:0];
            A_TXQ + INC_Q_BASE_HI:  rv = txq_base[63:32];
            A_TXQ + INC_Q_SIZE:     rv = {28'd0, txq_size};
            A_TXQ + INC_Q_PROD:     rv = {16'd0, txq_prod};
            A_TXQ + INC_Q_CONS:     rv = {16'd0, txq_cons};
            A_RXQ + INC_Q_BASE_LO:  rv = rxq_base[31:0];
            A_RXQ + INC_Q_BASE_HI:  rv = rxq_base[63:32];
            A_RXQ + INC_Q_SIZE:     rv = {28'd0, rxq_size};
            A_RXQ + INC_Q_PROD:     rv = {16'd0, rxq_prod};
            A_RXQ + INC_Q_CONS:     rv = {16'd0, rxq_cons};
            INC_IRQ_STATUS:         rv = {29'd0, irq_status};
            INC_IRQ_ENABLE:         rv = {29'd0, irq_enable};
            INC_IRQ_COAL_TX:        rv = coal_tx;
            INC_IRQ_COAL_RX:        rv = coal_rx;
            default:                rv = 0;
            endcase
end

wire stat_hi = is_stat && ra[2];
wire c_rd = c_take && !c_req_we;

always @(posedge clk) begin
    if (s_axil_rvalid && s_axil_rready)
        s_axil_rvalid <= 1'b0;
    if (rd) begin
        s_axil_rvalid <= 1'b1;
        s_axil_rdata <= stat_hi ? stat_hi_latch : rv;
        if (is_stat && !ra[2])
            stat_hi_latch <= stat_q[63:32];
    end
    c_rsp_valid <= c_take;
    if (c_take) begin
        c_rsp_err <= c_req_we ? !c_w_ok : c_far;
        c_rsp_rdata <= 32'd0;
    end
    if (c_rd) begin
        c_rsp_rdata <= c_far ? 32'd0 : (stat_hi ? c_hi_latch : rv);
        if (is_stat && !ra[2])
            c_hi_latch <= stat_q[63:32];
    end
    if (rst) begin
        s_axil_rvalid <= 1'b0;
        stat_hi_latch <= 0;
        c_rsp_valid <= 1'b0;
        c_hi_latch <= 0;
    end
end

endmodule

`resetall
