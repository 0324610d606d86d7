// SPDX-License-Identifier: MIT
/*
 * nic_mgmt: the NIC side of the management block (register map 1.4, block
 * 0x0500; docs/firmware.md "Host interface" is the contract): the
 * management core (mgmt_soc: RV32IM, IMEM and DMEM), its loader, the
 * firmware's status registers, the mailbox and the event register.
 *
 * nic_csr decodes both masters, the host (AXI4-Lite, BAR0) and the core
 * (mgmt_soc's register bus, which leaves this block on m_reg_* and comes
 * back into nic_csr), checks the core's rights, and hands this block one
 * write a clock (w_*: who wrote, the offset, data, byte strobes) and a read
 * address (r_addr) whose data it takes combinationally (r_data) into its
 * response registers. STATS_SNAP (0x52c) and the snapshot bank (0x1800)
 * are in nic_csr, beside the counters.
 *
 *   offset       name            host     core  here
 *   0x500        MGMT_CTRL       RW       RO    bit 0 HALT (1 after reset):
 *                                               mgmt_soc's cpu_halt. Writing
 *                                               1 clears FW_STATUS,
 *                                               FW_VERSION, MBOX_STATUS.BUSY
 *                                               and the doorbell's interrupt
 *   0x504        MGMT_LOAD_ADDR  RW       -     the loader's next address
 *   0x508        MGMT_LOAD_DATA  WO       -     one word to mgmt_soc's s_load
 *                                               port at MGMT_LOAD_ADDR (while
 *                                               HALT; strobes ignored: a
 *                                               word), then MGMT_LOAD_ADDR + 4
 *   0x510        FW_STATUS       RO       RW    cleared by HALT
 *   0x514        FW_VERSION      RO       RW    cleared by HALT
 *   0x518        FW_HEARTBEAT    RO       RW
 *   0x51c        FW_SELFTEST     RO       RW
 *   0x520        MBOX_DOORBELL   WO       -     bit 0: BUSY and the core's
 *                                               external interrupt (MEIP)
 *   0x524        MBOX_STATUS     RO       W     host reads bit 0 BUSY; the
 *                                               core writes bit 0 ACK (drops
 *                                               MEIP), bit 1 DONE (BUSY
 *                                               clears, irq_event)
 *   0x528        EVENT           RO, W1C  W1S   bits 2:0; a bit the core sets
 *                                               gives irq_event
 *   0x600..0x63c MBOX_CMD[16]    RW       RO
 *   0x700..0x7fc MBOX_RSP[64]    RO       RW
 *
 * A register written by one side that the other side may not write is
 * never written by it: nic_csr answers the core's forbidden writes with an
 * error and ignores the host's. The host's byte strobes merge into
 * MGMT_LOAD_ADDR and MBOX_CMD; the one-bit controls (HALT, DOORBELL,
 * EVENT's W1C) act on byte 0's strobe. The core writes whole words (nic_csr
 * refuses others). irq_event is a pulse for interrupt vector 2 (nic_csr
 * sets IRQ_STATUS bit 2, nic_irq_port sends the message when enabled).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_mgmt #
(
    // log2 of the core's IMEM words (12: 16 KiB, the image's limit)
    parameter IMEM_AW = 12,
    // log2 of the core's DMEM words (12: 16 KiB)
    parameter DMEM_AW = 12,
    // clocks per mtime tick: the core clock in MHz, so that mtime counts
    // microseconds as the firmware assumes (docs/firmware.md "Time")
    parameter TIMER_PRESCALE = 250
)
(
    input  wire        clk,
    input  wire        rst,

    // one register write a clock, decoded by nic_csr: w_core 1 the core's
    // (rights checked), 0 the host's; w_addr the offset (0x500..0x7fc)
    input  wire        w_en,
    input  wire        w_core,
    input  wire [10:0] w_addr,
    input  wire [31:0] w_data,
    input  wire [3:0]  w_strb,

    // a read: the register at r_addr (0x500..0x7fc; other offsets read 0)
    input  wire [10:0] r_addr,
    output reg  [31:0] r_data,

    // the core's register bus (to nic_csr)
    output wire        m_reg_req_valid,
    input  wire        m_reg_req_ready,
    output wire [23:0] m_reg_req_addr,
    output wire        m_reg_req_we,
    output wire [3:0]  m_reg_req_wstrb,
    output wire [31:0] m_reg_req_wdata,
    input  wire        m_reg_rsp_valid,
    input  wire [31:0] m_reg_rsp_rdata,
    input  wire        m_reg_rsp_err,

    // a mailbox completion or an event set by the firmware (vector 2)
    output reg         irq_event = 1'b0,
    // the core is halted and the loader has nothing in flight
    output wire        quiet,
    // quiet, or the core asleep in WFI (mgmt_soc's cpu_asleep): nothing
    // here changes but the core's timer and cycle counter until an
    // interrupt input of the core does (docs/sim.md "A sleeping core")
    output wire        sleep
);

`include "inc_nic_regs.vh"

// the register offsets in w_addr/r_addr's width
localparam [10:0] A_CTRL = INC_MGMT_CTRL[10:0], A_LOAD_ADDR = INC_MGMT_LOAD_ADDR[10:0],
                  A_LOAD_DATA = INC_MGMT_LOAD_DATA[10:0], A_STATUS = INC_FW_STATUS[10:0],
                  A_VERSION = INC_FW_VERSION[10:0], A_HEARTBEAT = INC_FW_HEARTBEAT[10:0],
                  A_SELFTEST = INC_FW_SELFTEST[10:0], A_DOORBELL = INC_MBOX_DOORBELL[10:0],
                  A_MSTATUS = INC_MBOX_STATUS[10:0], A_EVENT = INC_MGMT_EVENT[10:0];

reg         halt = 1'b1;
reg  [31:0] load_addr = 32'd0;
reg         ld_valid = 1'b0;
reg  [31:0] ld_addr = 32'd0, ld_data = 32'd0;
reg  [31:0] fw_status = 32'd0, fw_version = 32'd0, fw_heartbeat = 32'd0, fw_selftest = 32'd0;
reg         mbox_busy = 1'b0, meip = 1'b0;
reg  [2:0]  event_r = 3'd0;
reg  [31:0] mbox_cmd [0:INC_MBOX_CMD_WORDS-1];
reg  [31:0] mbox_rsp [0:INC_MBOX_RSP_WORDS-1];

integer i;
initial begin
    for (i = 0; i < INC_MBOX_CMD_WORDS; i = i + 1)
        mbox_cmd[i] = 32'd0;
    for (i = 0; i < INC_MBOX_RSP_WORDS; i = i + 1)
        mbox_rsp[i] = 32'd0;
end

function [31:0] merge;
    input [31:0] old;
    input [31:0] val;
    input [3:0]  strb;
    integer b;
    begin
        for (b = 0; b < 4; b = b + 1)
            merge[8*b +: 8] = strb[b] ? val[8*b +: 8] : old[8*b +: 8];
    end
endfunction

// the two arrays' windows
wire w_cmd = w_addr[10:6] == 5'b11000;          // 0x600..0x63f
wire w_rsp = w_addr[10:8] == 3'b111;            // 0x700..0x7ff
wire h_w = w_en && !w_core;
wire c_w = w_en && w_core;

// ---- writes ----
always @(posedge clk) begin
    ld_valid <= 1'b0;
    irq_event <= 1'b0;
    if (h_w) begin
        case (w_addr)
        A_CTRL: if (w_strb[0]) begin
            halt <= w_data[INC_MGMT_CTRL_HALT_BIT];
            if (w_data[INC_MGMT_CTRL_HALT_BIT]) begin
                fw_status <= 32'd0;
                fw_version <= 32'd0;
                mbox_busy <= 1'b0;
                meip <= 1'b0;
            end
        end
        A_LOAD_ADDR: load_addr <= merge(load_addr, w_data, w_strb);
        A_LOAD_DATA: if (halt) begin
            ld_valid <= 1'b1;
            ld_addr <= load_addr;
            ld_data <= w_data;
            load_addr <= load_addr + 32'd4;
        end
        A_DOORBELL: if (w_strb[0] && w_data[0]) begin
            mbox_busy <= 1'b1;
            meip <= 1'b1;
        end
        A_EVENT: if (w_strb[0])
            event_r <= event_r & ~w_data[2:0];
        default: ;
        endcase
    end
    if (c_w) begin
        case (w_addr)
        A_STATUS:    fw_status <= w_data;
        A_VERSION:   fw_version <= w_data;
        A_HEARTBEAT: fw_heartbeat <= w_data;
        A_SELFTEST:  fw_selftest <= w_data;
        A_MSTATUS: begin
            if (w_data[INC_MBOX_STATUS_ACK_BIT])
                meip <= 1'b0;
            if (w_data[INC_MBOX_STATUS_DONE_BIT]) begin
                mbox_busy <= 1'b0;
                irq_event <= 1'b1;
            end
        end
        A_EVENT: begin
            event_r <= event_r | w_data[2:0];
            if (w_data[2:0] != 3'd0)
                irq_event <= 1'b1;
        end
        default: ;
        endcase
    end
    if (rst) begin
        halt <= 1'b1;
        load_addr <= 32'd0;
        ld_valid <= 1'b0;
        fw_status <= 32'd0;
        fw_version <= 32'd0;
        fw_heartbeat <= 32'd0;
        fw_selftest <= 32'd0;
        mbox_busy <= 1'b0;
        meip <= 1'b0;
        event_r <= 3'd0;
        irq_event <= 1'b0;
    end
end

// the arrays (LUT RAM: one write port, one asynchronous read)
always @(posedge clk) begin
    if (h_w && w_cmd)
        mbox_cmd[w_addr[5:2]] <= merge(mbox_cmd[w_addr[5:2]], w_data, w_strb);
    if (c_w && w_rsp)
        mbox_rsp[w_addr[7:2]] <= w_data;
end

// ---- reads ----
wire [31:0] cmd_q = mbox_cmd[r_addr[5:2]];
wire [31:0] rsp_q = mbox_rsp[r_addr[7:2]];

always @* begin
    if (r_addr[10:8] == 3'b111)
        r_data = rsp_q;
    else if (r_addr[10:6] == 5'b11000)
        r_data = cmd_q;
    else
        case (r_addr)
        A_CTRL:      r_data = {31'd0, halt};
        A_LOAD_ADDR: r_data = load_addr;
        A_STATUS:    r_data = fw_status;
        A_VERSION:   r_data = fw_version;
        A_HEARTBEAT: r_data = fw_heartbeat;
        A_SELFTEST:  r_data = fw_selftest;
        A_MSTATUS:   r_data = {31'd0, mbox_busy};
        A_EVENT:     r_data = {29'd0, event_r};
        default:     r_data = 32'd0;
        endcase
end

// ---- the core ----
wire [31:0] tohost;
wire        tohost_valid, sleeping, asleep;

mgmt_soc #(
    .IMEM_AW(IMEM_AW),
    .DMEM_AW(DMEM_AW),
    .TIMER_PRESCALE(TIMER_PRESCALE)
) soc (
    .clk(clk),
    .rst(rst),
    .cpu_halt(halt),
    .s_load_valid(ld_valid),
    /* verilator lint_off PINCONNECTEMPTY */
    .s_load_ready(),
    /* verilator lint_on PINCONNECTEMPTY */
    .s_load_addr(ld_addr),
    .s_load_data(ld_data),
    .m_reg_req_valid(m_reg_req_valid),
    .m_reg_req_ready(m_reg_req_ready),
    .m_reg_req_addr(m_reg_req_addr),
    .m_reg_req_we(m_reg_req_we),
    .m_reg_req_wstrb(m_reg_req_wstrb),
    .m_reg_req_wdata(m_reg_req_wdata),
    .m_reg_rsp_valid(m_reg_rsp_valid),
    .m_reg_rsp_rdata(m_reg_rsp_rdata),
    .m_reg_rsp_err(m_reg_rsp_err),
    .irq_external(meip),
    .tohost(tohost),
    .tohost_valid(tohost_valid),
    .cpu_sleeping(sleeping),
    .cpu_asleep(asleep)
);

assign quiet = halt && !ld_valid;
assign sleep = quiet || (asleep && !halt && !ld_valid);

// (the test register and the sleep flag are for the core's own tests)
wire unused_mgmt = ^{tohost, tohost_valid, sleeping};

endmodule

`resetall
