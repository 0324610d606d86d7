// SPDX-License-Identifier: MIT
/*
 * tb_mgmt_soc: runs one program on mgmt_soc, under Icarus (iverilog -g2005)
 * and Verilator (--binary --timing) alike. Loads the program's memory
 * images through the SoC's loader port with the core halted, releases the
 * core, and waits for a write to tohost. The register bus is answered by
 * a model here: 16 scratch words at offsets 0x00-0x3c (other offsets
 * below 0x100 read 0 and ignore writes, 0x100 and up answer an error),
 * taking requests and answering them after pseudo-random delays.
 *
 * DMEM is filled with 0xa5a5a5a5 before the image is loaded.
 *
 * Plusargs: +imem=FILE +imem_words=N +dmem=FILE +dmem_words=N (the images
 * of firmware/tests/isa/elf2hex.py), +timeout=CLOCKS (default 200000).
 * Prints one line,
 *
 *   RESULT tohost=0x... status=pass|fail|timeout test=N cycles=C instret=I
 *          mcause=0x... mepc=0x... clocks=K
 *
 * (cycles and instret: the core's mcycle and minstret at the tohost
 * write, clocks: since the core's release) and finishes.
 */

`timescale 1ns / 1ps
`default_nettype none

`include "tb_mgmt_args.vh"

module tb_mgmt_soc;

// mgmt_cpu's deliberate fault (0: none), for the harness's negative checks
parameter MUTANT = 0;

reg clk = 1'b0;
/* verilator lint_off BLKSEQ */
always #5 clk = ~clk;
/* verilator lint_on BLKSEQ */

reg         rst = 1'b1;
reg         halt = 1'b1;
reg         load_valid = 1'b0;
reg  [31:0] load_addr = 32'd0;
reg  [31:0] load_data = 32'd0;
wire        load_ready;

wire        reg_req_valid;
wire        reg_req_ready;
wire [23:0] reg_req_addr;
wire        reg_req_we;
wire [3:0]  reg_req_wstrb;
wire [31:0] reg_req_wdata;
reg         reg_rsp_valid = 1'b0;
reg  [31:0] reg_rsp_rdata = 32'd0;
reg         reg_rsp_err = 1'b0;

wire [31:0] tohost;
wire        tohost_valid;
wire        sleeping, asleep;

mgmt_soc #(
    .MUTANT(MUTANT)
) dut (
    .clk(clk),
    .rst(rst),
    .cpu_halt(halt),
    .s_load_valid(load_valid),
    .s_load_ready(load_ready),
    .s_load_addr(load_addr),
    .s_load_data(load_data),
    .m_reg_req_valid(reg_req_valid),
    .m_reg_req_ready(reg_req_ready),
    .m_reg_req_addr(reg_req_addr),
    .m_reg_req_we(reg_req_we),
    .m_reg_req_wstrb(reg_req_wstrb),
    .m_reg_req_wdata(reg_req_wdata),
    .m_reg_rsp_valid(reg_rsp_valid),
    .m_reg_rsp_rdata(reg_rsp_rdata),
    .m_reg_rsp_err(reg_rsp_err),
    .irq_external(1'b0),
    .tohost(tohost),
    .tohost_valid(tohost_valid),
    .cpu_sleeping(sleeping),
    .cpu_asleep(asleep)
);

// (the sleep flag for simulators: not checked here)
wire unused_asleep = asleep;

// ---- the register bus model ----
reg [31:0] scratch [0:15];
reg [15:0] lfsr = 16'hace1;
reg        p_busy = 1'b0;
reg [1:0]  p_wait = 2'd0;
integer    j;

initial begin
    for (j = 0; j < 16; j = j + 1)
        scratch[j] = 32'd0;
end

assign reg_req_ready = !p_busy && lfsr[0];

always @(posedge clk) begin
    lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
    reg_rsp_valid <= 1'b0;
    if (reg_req_valid && reg_req_ready) begin
        p_busy <= 1'b1;
        p_wait <= lfsr[3:2];
        reg_rsp_err <= reg_req_addr >= 24'h000100;
        reg_rsp_rdata <= reg_req_addr < 24'h000040 ? scratch[reg_req_addr[5:2]] : 32'd0;
        if (reg_req_we && reg_req_addr < 24'h000040) begin
            for (j = 0; j < 4; j = j + 1)
                if (reg_req_wstrb[j])
                    scratch[reg_req_addr[5:2]][8*j +: 8] <= reg_req_wdata[8*j +: 8];
        end
    end else if (p_busy) begin
        if (p_wait == 2'd0) begin
            reg_rsp_valid <= 1'b1;
            p_busy <= 1'b0;
        end else begin
            p_wait <= p_wait - 2'd1;
        end
    end
end

// ---- load, run, report ----
reg [31:0]   img_i [0:16383];
reg [31:0]   img_d [0:16383];
reg [8*512-1:0] f_imem, f_dmem;
integer      n_i, n_d, timeout, k;
integer      clocks = 0;
reg          running = 1'b0;

initial begin
    `TB_MGMT_ARGS(img_i, img_d)
    // stimulus on the falling edge: no race with the design's rising edge
    repeat (4) @(negedge clk);
    rst = 1'b0;
    @(negedge clk);
    // DMEM filled with a pattern first: a program must not count on zeros
    // (C programs zero their .bss)
    for (k = 0; k < 4096; k = k + 1) begin
        load_valid = 1'b1;
        load_addr = 32'h10000000 + 4 * k;
        load_data = 32'ha5a5a5a5;
        @(negedge clk);
    end
    for (k = 0; k < n_i + n_d; k = k + 1) begin
        load_valid = 1'b1;
        load_addr = k < n_i ? 4 * k : 32'h10000000 + 4 * (k - n_i);
        load_data = k < n_i ? img_i[k] : img_d[k - n_i];
        @(negedge clk);
        while (!load_ready)
            @(negedge clk);
    end
    load_valid = 1'b0;
    @(negedge clk);
    halt = 1'b0;
    running = 1'b1;
end

always @(posedge clk) begin
    if (running) begin
        clocks <= clocks + 1;
        if (tohost_valid) begin
            $display("RESULT tohost=0x%08x status=%0s test=%0d cycles=%0d instret=%0d mcause=0x%08x mepc=0x%08x clocks=%0d",
                     tohost, tohost == 32'd1 ? "pass" : "fail", tohost >> 1,
                     dut.u_cpu.mcycle, dut.u_cpu.minstret, dut.u_cpu.mcause,
                     {dut.u_cpu.mepc, 2'b00}, clocks);
            $finish;
        end
        if (clocks >= timeout) begin
            $display("RESULT tohost=0x%08x status=timeout test=0 cycles=%0d instret=%0d mcause=0x%08x mepc=0x%08x clocks=%0d pc=0x%08x sleeping=%0d",
                     tohost, dut.u_cpu.mcycle, dut.u_cpu.minstret, dut.u_cpu.mcause,
                     {dut.u_cpu.mepc, 2'b00}, clocks, dut.u_cpu.pc, sleeping);
            $finish;
        end
    end
end

endmodule
