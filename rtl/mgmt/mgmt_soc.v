// SPDX-License-Identifier: MIT
/*
 * mgmt_soc: the NIC's management subsystem: the RV32IM core (mgmt_cpu),
 * its instruction and data memories (mgmt_ram, block RAM), the machine
 * timer (mgmt_timer), a test register block ("tohost") and a register bus
 * out (m_reg_*) for the NIC's registers and the host mailbox. A loader
 * port (s_load_*) writes the memories while the core is held (cpu_halt):
 * the way firmware gets in.
 *
 * Memory map (the core's addresses; docs/firmware.md "Memory map"):
 *
 *   0x0000_0000  IMEM, 4 << IMEM_AW bytes (16 KiB): instructions; also read
 *                and written by the data port (constants, .rodata); aliases
 *                up to 0x0fff_ffff
 *   0x1000_0000  DMEM, 4 << DMEM_AW bytes (16 KiB): data, stack; aliases up
 *                to 0x1fff_ffff
 *   0x2000_0000  timer: +0 mtime lo, +4 mtime hi, +8 mtimecmp lo, +c hi
 *   0x3000_0000  test: +0 tohost (a write pulses tohost_valid; 1: pass,
 *                (N << 1) | 1: test N failed), +4 test_irq (bit 0 drives
 *                the external interrupt, ORed with irq_external)
 *   0x4000_0000  register bus (m_reg_*): bits 23:0 of the address passed
 *                on (aliases every 16 MiB up to 0x4fff_ffff)
 *   other        access fault (mcause 1, 5 or 7); an instruction fetch
 *                outside IMEM: instruction access fault
 *
 * IMEM, DMEM, timer and test registers answer the clock after a request;
 * the register bus answers when it does (valid/ready request, valid
 * response, as the core's data port: mgmt_cpu's header).
 *
 * Loader: while cpu_halt is high the core is in reset and every s_load
 * beat (always ready then) writes one word at s_load_addr (a core address
 * in IMEM or DMEM; others are dropped). With cpu_halt low s_load_ready is
 * low.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mgmt_soc #
(
    // log2 of IMEM's words (12: 16 KiB)
    parameter IMEM_AW = 12,
    // log2 of DMEM's words (12: 16 KiB)
    parameter DMEM_AW = 12,
    // $readmemh files the memories hold at configuration ("": zeros)
    parameter IMEM_INIT = "",
    parameter DMEM_INIT = "",
    // clocks per mtime tick
    parameter TIMER_PRESCALE = 1,
    // mgmt_cpu's deliberate fault for negative tests (0: none)
    parameter MUTANT = 0
)
(
    input  wire        clk,
    input  wire        rst,

    // 1: the core held in reset, the loader port open
    input  wire        cpu_halt,

    // loader: word writes into IMEM/DMEM while halted
    input  wire        s_load_valid,
    output wire        s_load_ready,
    input  wire [31:0] s_load_addr,
    input  wire [31:0] s_load_data,

    // register bus out (NIC registers, mailbox)
    output wire        m_reg_req_valid,
    input  wire        m_reg_req_ready,
    output wire [23:0] m_reg_req_addr,
    output wire        m_reg_req_we,
    output wire [3:0]  m_reg_req_wstrb,
    output wire [31:0] m_reg_req_wdata,
    input  wire        m_reg_rsp_valid,
    input  wire [31:0] m_reg_rsp_rdata,
    input  wire        m_reg_rsp_err,

    // external interrupt (mip.MEIP)
    input  wire        irq_external,

    // the test register: the last value written, a pulse on each write
    output reg  [31:0] tohost = 32'd0,
    output reg         tohost_valid = 1'b0,

    // the core waits in WFI
    output wire        cpu_sleeping,
    // the core is asleep: in WFI for the last two clocks with its interrupt
    // inputs unchanged for three. An enabled interrupt would have woken it
    // (mip follows the inputs a clock later), so until an interrupt input
    // changes, only the timer (mtime, its prescaler) and the core's mcycle
    // change: a simulator may skip those clocks, advancing them
    // (docs/sim.md "A sleeping core")
    output wire        cpu_asleep
);

localparam [3:0] R_IMEM = 4'h0, R_DMEM = 4'h1, R_TIMER = 4'h2, R_TEST = 4'h3, R_REG = 4'h4;

wire cpu_rst = rst | cpu_halt;

// ---- the core ----
wire        ib_req_valid;
wire [31:0] ib_req_addr;
reg         ib_rsp_valid = 1'b0;
reg         ib_rsp_err = 1'b0;
wire [31:0] ib_rsp_rdata;

wire        db_req_valid;
wire        db_req_ready;
wire [31:0] db_req_addr;
wire        db_req_we;
wire [3:0]  db_req_wstrb;
wire [31:0] db_req_wdata;
wire        db_rsp_valid;
wire [31:0] db_rsp_rdata;
wire        db_rsp_err;

wire        timer_irq;
reg         test_irq = 1'b0;
wire        cpu_retire;

mgmt_cpu #(
    .MUTANT(MUTANT)
) u_cpu (
    .clk(clk),
    .rst(cpu_rst),
    .m_ibus_req_valid(ib_req_valid),
    .m_ibus_req_ready(1'b1),
    .m_ibus_req_addr(ib_req_addr),
    .m_ibus_rsp_valid(ib_rsp_valid),
    .m_ibus_rsp_rdata(ib_rsp_rdata),
    .m_ibus_rsp_err(ib_rsp_err),
    .m_dbus_req_valid(db_req_valid),
    .m_dbus_req_ready(db_req_ready),
    .m_dbus_req_addr(db_req_addr),
    .m_dbus_req_we(db_req_we),
    .m_dbus_req_wstrb(db_req_wstrb),
    .m_dbus_req_wdata(db_req_wdata),
    .m_dbus_rsp_valid(db_rsp_valid),
    .m_dbus_rsp_rdata(db_rsp_rdata),
    .m_dbus_rsp_err(db_rsp_err),
    .irq_timer(timer_irq),
    .irq_external(irq_external | test_irq),
    .retire(cpu_retire),
    .sleeping(cpu_sleeping)
);

// ---- instruction side: IMEM port A ----
wire ib_imem = ib_req_addr[31:28] == R_IMEM;

always @(posedge clk) begin
    ib_rsp_valid <= ib_req_valid && !cpu_rst;
    ib_rsp_err <= !ib_imem;
    if (cpu_rst)
        ib_rsp_valid <= 1'b0;
end

// ---- data side: decode, one request outstanding ----
wire [3:0] d_region = db_req_addr[31:28];
assign db_req_ready = d_region == R_REG ? m_reg_req_ready : 1'b1;
wire d_take = db_req_valid && db_req_ready;
wire d_local = d_take && d_region != R_REG;

reg        d_rv = 1'b0;         // a local answer this clock
reg  [3:0] d_src = 4'd0;        // its region

assign m_reg_req_valid = db_req_valid && d_region == R_REG;
assign m_reg_req_addr = db_req_addr[23:0];
assign m_reg_req_we = db_req_we;
assign m_reg_req_wstrb = db_req_wstrb;
assign m_reg_req_wdata = db_req_wdata;

// loader
assign s_load_ready = cpu_halt;
wire ld_w = cpu_halt && s_load_valid;
wire ld_imem = ld_w && s_load_addr[31:28] == R_IMEM;
wire ld_dmem = ld_w && s_load_addr[31:28] == R_DMEM;

// IMEM port B and DMEM: the core's data port, or the loader while halted
wire [3:0] d_wstrb = db_req_we ? db_req_wstrb : 4'b0000;
wire        im_b_en = ld_imem || (d_take && d_region == R_IMEM);
wire [3:0]  im_b_we = ld_imem ? 4'b1111 : d_wstrb;
wire [IMEM_AW-1:0] im_b_addr = ld_w ? s_load_addr[IMEM_AW+1:2] : db_req_addr[IMEM_AW+1:2];
wire [31:0] im_b_wdata = ld_w ? s_load_data : db_req_wdata;
wire [31:0] im_b_rdata;

wire        dm_en = ld_dmem || (d_take && d_region == R_DMEM);
wire [3:0]  dm_we = ld_dmem ? 4'b1111 : d_wstrb;
wire [DMEM_AW-1:0] dm_addr = ld_w ? s_load_addr[DMEM_AW+1:2] : db_req_addr[DMEM_AW+1:2];
wire [31:0] dm_wdata = ld_w ? s_load_data : db_req_wdata;
wire [31:0] dm_rdata;
wire [31:0] dm_a_rdata;         // (port A unused)

mgmt_ram #(
    .ADDR_W(IMEM_AW),
    .INIT_FILE(IMEM_INIT)
) u_imem (
    .clk(clk),
    .a_en(ib_req_valid),
    .a_addr(ib_req_addr[IMEM_AW+1:2]),
    .a_rdata(ib_rsp_rdata),
    .b_en(im_b_en),
    .b_we(im_b_we),
    .b_addr(im_b_addr),
    .b_wdata(im_b_wdata),
    .b_rdata(im_b_rdata)
);

mgmt_ram #(
    .ADDR_W(DMEM_AW),
    .INIT_FILE(DMEM_INIT)
) u_dmem (
    .clk(clk),
    .a_en(1'b0),
    .a_addr({DMEM_AW{1'b0}}),
    .a_rdata(dm_a_rdata),
    .b_en(dm_en),
    .b_we(dm_we),
    .b_addr(dm_addr),
    .b_wdata(dm_wdata),
    .b_rdata(dm_rdata)
);

// timer
wire [31:0] tm_rdata;

mgmt_timer #(
    .PRESCALE(TIMER_PRESCALE)
) u_timer (
    .clk(clk),
    .rst(rst),
    .en(d_take && d_region == R_TIMER),
    .we(db_req_we),
    .wstrb(db_req_wstrb),
    .addr(db_req_addr[3:2]),
    .wdata(db_req_wdata),
    .rdata(tm_rdata),
    .irq(timer_irq)
);

// asleep: WFI held with the interrupt inputs unchanged (cpu_asleep)
wire [1:0] irq_in = {irq_external | test_irq, timer_irq};
reg  [1:0] irq_in_q = 2'b00, irq_in_qq = 2'b00;
reg        wfi_q = 1'b0;

always @(posedge clk) begin
    irq_in_q <= irq_in;
    irq_in_qq <= irq_in_q;
    wfi_q <= cpu_sleeping;
    if (rst) begin
        irq_in_q <= 2'b00;
        irq_in_qq <= 2'b00;
        wfi_q <= 1'b0;
    end
end

assign cpu_asleep = cpu_sleeping && wfi_q && irq_in == irq_in_q && irq_in_q == irq_in_qq;

// test registers
reg [31:0] test_rdata = 32'd0;
wire test_acc = d_take && d_region == R_TEST;

always @(posedge clk) begin
    tohost_valid <= 1'b0;
    if (test_acc) begin
        test_rdata <= db_req_addr[2] ? {31'd0, test_irq} : tohost;
        if (db_req_we && !db_req_addr[2]) begin
            tohost <= db_req_wdata;
            tohost_valid <= 1'b1;
        end
        if (db_req_we && db_req_addr[2] && db_req_wstrb[0])
            test_irq <= db_req_wdata[0];
    end
    d_rv <= d_local;
    if (d_take)
        d_src <= d_region;
    if (rst) begin
        tohost <= 32'd0;
        tohost_valid <= 1'b0;
        test_irq <= 1'b0;
        d_rv <= 1'b0;
    end
    if (cpu_rst)
        d_rv <= 1'b0;
end

// the answer: a local one, or the register bus's
reg [31:0] d_local_rdata;
always @* begin
    case (d_src)
    R_IMEM: d_local_rdata = im_b_rdata;
    R_DMEM: d_local_rdata = dm_rdata;
    R_TIMER: d_local_rdata = tm_rdata;
    R_TEST: d_local_rdata = test_rdata;
    default: d_local_rdata = 32'd0;
    endcase
end
wire d_src_bad = d_src != R_IMEM && d_src != R_DMEM && d_src != R_TIMER && d_src != R_TEST;
assign db_rsp_valid = d_rv || m_reg_rsp_valid;
assign db_rsp_rdata = d_rv ? d_local_rdata : m_reg_rsp_rdata;
assign db_rsp_err = d_rv ? d_src_bad : m_reg_rsp_err;

// (the core's retire pulse: for a trace port later)
wire unused_soc = ^{cpu_retire, ib_req_addr, db_req_addr, s_load_addr, dm_a_rdata};

endmodule

`resetall
