// SPDX-License-Identifier: MIT
/*
 * tb_mgmt_cpu_stall: runs one program on mgmt_cpu alone, with a memory
 * system here that stalls both ports: a request is taken when a
 * pseudo-random ready allows it and answered 1 to 4 clocks later (the
 * SoC's memories always take a request and answer the next clock). The
 * map is mgmt_soc's (IMEM, DMEM, the timer, the test registers, 16
 * scratch words on the register bus, faults elsewhere). It also checks the
 * core's side of the handshakes: a request held with its fields stable
 * until taken, no request while one is outstanding.
 *
 * Plusargs and output as tb_mgmt_soc (+imem, +imem_words, +dmem,
 * +dmem_words, +timeout; one RESULT line), plus status=protocol when a
 * handshake rule was broken, and retired=N, the core's retire pulses.
 */

`timescale 1ns / 1ps
`default_nettype none

`include "tb_mgmt_args.vh"

module tb_mgmt_cpu_stall;

// mgmt_cpu's deliberate fault (0: none)
parameter MUTANT = 0;

reg clk = 1'b0;
/* verilator lint_off BLKSEQ */
always #5 clk = ~clk;
/* verilator lint_on BLKSEQ */

reg rst = 1'b1;

wire        i_valid;
wire [31:0] i_addr;
wire        d_valid;
wire [31:0] d_addr;
wire        d_we;
wire [3:0]  d_wstrb;
wire [31:0] d_wdata;
reg         i_rvalid = 1'b0, i_err = 1'b0;
reg  [31:0] i_rdata = 32'd0;
reg         d_rvalid = 1'b0, d_err = 1'b0;
reg  [31:0] d_rdata = 32'd0;
wire        timer_irq;
reg         test_irq = 1'b0;
wire        retire;
wire        sleeping;

reg  [15:0] lfsr = 16'h1d0f;
wire        i_ready = !rst && (lfsr[1] | lfsr[4]);      // 3 in 4
wire        d_ready = !rst && (lfsr[2] | lfsr[7]);

mgmt_cpu #(
    .MUTANT(MUTANT)
) dut (
    .clk(clk),
    .rst(rst),
    .m_ibus_req_valid(i_valid),
    .m_ibus_req_ready(i_ready),
    .m_ibus_req_addr(i_addr),
    .m_ibus_rsp_valid(i_rvalid),
    .m_ibus_rsp_rdata(i_rdata),
    .m_ibus_rsp_err(i_err),
    .m_dbus_req_valid(d_valid),
    .m_dbus_req_ready(d_ready),
    .m_dbus_req_addr(d_addr),
    .m_dbus_req_we(d_we),
    .m_dbus_req_wstrb(d_wstrb),
    .m_dbus_req_wdata(d_wdata),
    .m_dbus_rsp_valid(d_rvalid),
    .m_dbus_rsp_rdata(d_rdata),
    .m_dbus_rsp_err(d_err),
    .irq_timer(timer_irq),
    .irq_external(test_irq),
    .retire(retire),
    .sleeping(sleeping)
);

// the timer, at 0x2000_0000
wire        t_en = d_valid && d_ready && d_addr[31:28] == 4'h2;
wire [31:0] t_rdata;

mgmt_timer u_timer (
    .clk(clk),
    .rst(rst),
    .en(t_en),
    .we(d_we),
    .wstrb(d_wstrb),
    .addr(d_addr[3:2]),
    .wdata(d_wdata),
    .rdata(t_rdata),
    .irq(timer_irq)
);

reg [31:0] imem [0:4095];
reg [31:0] dmem [0:4095];
reg [31:0] scratch [0:15];
reg [8*512-1:0] f_imem, f_dmem;
integer n_i, n_d, timeout, j;
integer clocks = 0;
reg [63:0] retired = 64'd0;     // retire pulses seen

// outstanding requests: clocks to the answer, its data
reg  [2:0]  i_wait = 3'd0, d_wait = 3'd0;
reg         i_busy = 1'b0, d_busy = 1'b0, d_timer = 1'b0;
reg  [31:0] i_data = 32'd0, d_data = 32'd0;
reg         i_bad = 1'b0, d_bad = 1'b0;
// the handshake rules
reg         i_held = 1'b0, d_held = 1'b0;
reg  [31:0] i_addr_h = 32'd0, d_addr_h = 32'd0, d_wdata_h = 32'd0;
reg  [3:0]  d_wstrb_h = 4'd0;
reg         d_we_h = 1'b0;
reg         proto_bad = 1'b0;

initial begin
    for (j = 0; j < 4096; j = j + 1) begin
        imem[j] = 32'd0;
        dmem[j] = 32'ha5a5a5a5;     // not zero: C programs zero their .bss
    end
    for (j = 0; j < 16; j = j + 1)
        scratch[j] = 32'd0;
    `TB_MGMT_ARGS(imem, dmem)
    repeat (4) @(negedge clk);
    rst = 1'b0;
end

always @(posedge clk) begin
    lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
    i_rvalid <= 1'b0;
    d_rvalid <= 1'b0;
    if (!rst)
        clocks <= clocks + 1;

    // the rules: a request not taken stays, unchanged; none while busy
    if (i_held && !(i_valid && i_addr == i_addr_h))
        proto_bad <= 1'b1;
    if (d_held && !(d_valid && d_addr == d_addr_h && d_we == d_we_h &&
                    d_wstrb == d_wstrb_h && (!d_we || d_wdata == d_wdata_h)))
        proto_bad <= 1'b1;
    if ((i_valid && i_busy) || (d_valid && d_busy))
        proto_bad <= 1'b1;
    i_held <= i_valid && !i_ready;
    d_held <= d_valid && !d_ready;
    i_addr_h <= i_addr;
    d_addr_h <= d_addr;
    d_we_h <= d_we;
    d_wstrb_h <= d_wstrb;
    d_wdata_h <= d_wdata;

    // instruction side
    if (i_valid && i_ready && !i_busy) begin
        i_busy <= 1'b1;
        i_wait <= {1'b0, lfsr[9:8]};
        i_bad <= i_addr[31:28] != 4'h0;
        i_data <= imem[i_addr[13:2]];
    end else if (i_busy) begin
        if (i_wait == 3'd0) begin
            i_rvalid <= 1'b1;
            i_rdata <= i_data;
            i_err <= i_bad;
            i_busy <= 1'b0;
        end else begin
            i_wait <= i_wait - 3'd1;
        end
    end

    // data side
    if (d_valid && d_ready && !d_busy) begin
        d_busy <= 1'b1;
        d_wait <= {1'b0, lfsr[11:10]};
        d_bad <= 1'b0;
        d_timer <= 1'b0;
        case (d_addr[31:28])
        4'h0: begin
            d_data <= imem[d_addr[13:2]];
            for (j = 0; j < 4; j = j + 1)
                if (d_we && d_wstrb[j])
                    imem[d_addr[13:2]][8*j +: 8] <= d_wdata[8*j +: 8];
        end
        4'h1: begin
            d_data <= dmem[d_addr[13:2]];
            for (j = 0; j < 4; j = j + 1)
                if (d_we && d_wstrb[j])
                    dmem[d_addr[13:2]][8*j +: 8] <= d_wdata[8*j +: 8];
        end
        4'h2: d_timer <= 1'b1;
        4'h3: begin
            d_data <= {31'd0, test_irq};
            if (d_we && !d_addr[2]) begin
                $display("RESULT tohost=0x%08x status=%0s test=%0d cycles=%0d instret=%0d mcause=0x%08x mepc=0x%08x clocks=%0d retired=%0d",
                         d_wdata, proto_bad ? "protocol" : d_wdata == 32'd1 ? "pass" : "fail",
                         d_wdata >> 1, dut.mcycle, dut.minstret, dut.mcause,
                         {dut.mepc, 2'b00}, clocks, retired);
                $finish;
            end
            if (d_we && d_addr[2])
                test_irq <= d_wdata[0];
        end
        4'h4: begin
            d_bad <= d_addr[23:0] >= 24'h000100;
            d_data <= d_addr[23:0] < 24'h000040 ? scratch[d_addr[5:2]] : 32'd0;
            for (j = 0; j < 4; j = j + 1)
                if (d_we && d_wstrb[j] && d_addr[23:0] < 24'h000040)
                    scratch[d_addr[5:2]][8*j +: 8] <= d_wdata[8*j +: 8];
        end
        default: d_bad <= 1'b1;
        endcase
    end else if (d_busy) begin
        if (d_timer) begin
            d_data <= t_rdata;      // the timer's read, a clock after en
            d_timer <= 1'b0;
        end
        if (d_wait == 3'd0 && !d_timer) begin
            d_rvalid <= 1'b1;
            d_rdata <= d_data;
            d_err <= d_bad;
            d_busy <= 1'b0;
        end else if (d_wait != 3'd0) begin
            d_wait <= d_wait - 3'd1;
        end
    end

    if (!rst && clocks >= timeout) begin
        $display("RESULT tohost=0x0 status=timeout test=0 cycles=%0d instret=%0d mcause=0x%08x mepc=0x%08x clocks=%0d pc=0x%08x sleeping=%0d",
                 dut.mcycle, dut.minstret, dut.mcause, {dut.mepc, 2'b00}, clocks, dut.pc, sleeping);
        $finish;
    end
end

// the retire pulses, counted (RESULT's retired: minstret's count unless
// the program writes minstret)
always @(posedge clk)
    if (retire)
        retired <= retired + 64'd1;

endmodule
