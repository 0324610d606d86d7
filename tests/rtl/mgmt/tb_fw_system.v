// SPDX-License-Identifier: MIT
/*
 * tb_fw_system: the management firmware (build/firmware/inceptionn-fw.bin)
 * on mgmt_soc, with a model of the NIC side of the host interface (register
 * map 1.4, docs/firmware.md "Host interface"), written here from the
 * contract since the NIC's block does not exist yet:
 *
 *   0x0500 block  MGMT_CTRL (HALT drives cpu_halt; HALT clears FW_STATUS
 *                 and FW_VERSION), MGMT_LOAD_ADDR/DATA (words to the SoC's
 *                 loader port), FW_STATUS, FW_VERSION, FW_HEARTBEAT,
 *                 FW_SELFTEST, MBOX_DOORBELL (BUSY, MEIP), MBOX_STATUS (ACK
 *                 drops MEIP, DONE clears BUSY and sets IRQ_STATUS bit 2),
 *                 EVENT (fw W1S, host W1C), STATS_SNAP, MBOX_CMD, MBOX_RSP
 *   fake NIC      FEATURES (a 1.4 NIC's, 0x3fff: no engine test port,
 *                 so the firmware reports every vector set not run),
 *                 STATUS (link bit), MAC_LO/HI, LINK_SPEED, 18 64-bit
 *                 counters counting n + 1 a clock, their snapshot bank
 *
 * The core's register bus takes a request every other clock and answers
 * one to two clocks later; an access to an offset the model does not have,
 * or a write to a register the firmware may not write, answers an error.
 * The host side is a sequence of register accesses (as the driver makes
 * them) from the initial block below. Checks print
 *
 *   CHECK ok|fail DESCRIPTION
 *
 * and the run ends with "DONE"; run-fw-sim.sh numbers them as TAP.
 * Plusargs: +image=HEX (the whole .bin as little-endian words),
 * +image_words=N, +fwver=HEX, +buildid=HEX, +timeout=CLOCKS (per wait).
 */

`timescale 1ns / 1ps
`default_nettype none

// testbench arithmetic mixes integers and narrower vectors throughout
/* verilator lint_off WIDTH */
module tb_fw_system;

// mtime ticks every 4 clocks: the firmware's millisecond (1000 ticks) is
// 4000 clocks here
localparam PRESCALE = 4;
localparam MS = 1000 * PRESCALE;
localparam NCNT = 18;

reg clk = 1'b0;
/* verilator lint_off BLKSEQ */
always #5 clk = ~clk;
/* verilator lint_on BLKSEQ */

reg rst = 1'b1;
integer clocks = 0;
always @(posedge clk)
    clocks <= clocks + 1;

// ---- the SoC ----
wire        halt;
wire        load_valid;
wire [31:0] load_addr_w;
wire [31:0] load_data_w;
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
wire        meip_w;
wire [31:0] tohost;
wire        tohost_valid;
wire        sleeping, asleep;

mgmt_soc #(
    .TIMER_PRESCALE(PRESCALE)
) dut (
    .clk(clk),
    .rst(rst),
    .cpu_halt(halt),
    .s_load_valid(load_valid),
    .s_load_ready(load_ready),
    .s_load_addr(load_addr_w),
    .s_load_data(load_data_w),
    .m_reg_req_valid(reg_req_valid),
    .m_reg_req_ready(reg_req_ready),
    .m_reg_req_addr(reg_req_addr),
    .m_reg_req_we(reg_req_we),
    .m_reg_req_wstrb(reg_req_wstrb),
    .m_reg_req_wdata(reg_req_wdata),
    .m_reg_rsp_valid(reg_rsp_valid),
    .m_reg_rsp_rdata(reg_rsp_rdata),
    .m_reg_rsp_err(reg_rsp_err),
    .irq_external(meip_w),
    .tohost(tohost),
    .tohost_valid(tohost_valid),
    .cpu_sleeping(sleeping),
    .cpu_asleep(asleep)
);

// ---- the model's registers ----
reg         m_halt = 1'b1;
reg  [31:0] m_load_addr = 32'd0;
reg         m_load_valid = 1'b0;
reg  [31:0] m_load_a = 32'd0, m_load_d = 32'd0;
reg  [31:0] fw_status = 32'd0, fw_version = 32'd0, fw_heartbeat = 32'd0, fw_selftest = 32'd0;
reg         mbox_busy = 1'b0, meip = 1'b0, irq_mgmt = 1'b0;
reg  [31:0] event_r = 32'd0;
reg  [31:0] mbox_cmd [0:15];
reg  [31:0] mbox_rsp [0:63];
reg  [31:0] mac_lo = 32'h44332200, mac_hi = 32'h00006655;
reg         link = 1'b1;
reg  [31:0] link_speed = 32'd25000;
reg  [63:0] cnt [0:NCNT-1];
reg  [63:0] bank [0:NCNT-1];
integer     inc_t = 0;          // increments every counter has taken
integer     snap_t = -1;        // inc_t at the last snapshot
integer     db_clk = 0, done_clk = 0;
integer     n_done = 0, n_acks = 0, n_errs = 0;
reg         inject_err = 1'b0;  // the next core read of MBOX_CMD answers an error
integer     i;

assign halt = m_halt;
assign load_valid = m_load_valid;
assign load_addr_w = m_load_a;
assign load_data_w = m_load_d;
assign meip_w = meip;

function [63:0] cnt_init;
    input integer n;
    cnt_init = {n[31:0], 32'hffff0000};
endfunction

initial begin
    for (i = 0; i < 16; i = i + 1)
        mbox_cmd[i] = 32'd0;
    for (i = 0; i < 64; i = i + 1)
        mbox_rsp[i] = 32'd0;
    for (i = 0; i < NCNT; i = i + 1) begin
        cnt[i] = cnt_init(i);
        bank[i] = 64'd0;
    end
end

// the host's accesses: a request the always block below carries out
reg         h_valid = 1'b0, h_we = 1'b0;
reg  [15:0] h_addr = 16'd0;
reg  [31:0] h_wdata = 32'd0;
reg  [31:0] h_rdata = 32'd0;

// the core's register bus: a request taken every other clock, answered 1-2 clocks later
reg        c_busy = 1'b0, c_wait = 1'b0, c_pace = 1'b0;
reg [31:0] c_rdata = 32'd0;
reg        c_err = 1'b0;
assign reg_req_ready = !c_busy && c_pace;

wire [15:0] ca = reg_req_addr[15:0];
wire        c_take = reg_req_valid && reg_req_ready;
wire        c_hi_bits = reg_req_addr[23:16] != 8'd0;

always @(posedge clk) begin
    c_pace <= !c_pace;
    reg_rsp_valid <= 1'b0;
    m_load_valid <= 1'b0;
    inc_t <= inc_t + 1;
    for (i = 0; i < NCNT; i = i + 1)
        cnt[i] <= cnt[i] + i + 1;

    // ---- the core ----
    if (c_take) begin
        c_busy <= 1'b1;
        c_wait <= clocks[2];
        c_err <= 1'b0;
        c_rdata <= 32'd0;
        if (c_hi_bits || (reg_req_we && reg_req_wstrb != 4'hf)) begin
            c_err <= 1'b1;
        end else if (!reg_req_we) begin
            if (ca >= 16'h0600 && ca < 16'h0640) begin
                c_rdata <= mbox_cmd[ca[5:2]];
                if (inject_err) begin
                    c_err <= 1'b1;
                    inject_err <= 1'b0;
                end
            end else if (ca >= 16'h0700 && ca < 16'h0800)
                c_rdata <= mbox_rsp[ca[7:2]];
            else if (ca >= 16'h1800 && ca < 16'h1800 + 8 * NCNT)
                c_rdata <= ca[2] ? bank[(ca - 16'h1800) >> 3][63:32] : bank[(ca - 16'h1800) >> 3][31:0];
            else if (ca >= 16'h1000 && ca < 16'h1000 + 8 * NCNT)
                c_rdata <= ca[2] ? cnt[(ca - 16'h1000) >> 3][63:32] : cnt[(ca - 16'h1000) >> 3][31:0];
            else
                case (ca)
                // a 1.4 NIC's FEATURES: no engine test port (bit 14), so
                // the firmware runs no vector (the port itself is tested
                // in the NIC's system test, tests/nic)
                16'h0008: c_rdata <= 32'h00003fff;
                16'h0104: c_rdata <= {31'd0, link};
                16'h0108: c_rdata <= mac_lo;
                16'h010c: c_rdata <= mac_hi;
                16'h0114: c_rdata <= link_speed;
                16'h0500: c_rdata <= {31'd0, m_halt};
                16'h0510: c_rdata <= fw_status;
                16'h0514: c_rdata <= fw_version;
                16'h0518: c_rdata <= fw_heartbeat;
                16'h051c: c_rdata <= fw_selftest;
                16'h0528: c_rdata <= event_r;
                default: c_err <= 1'b1;
                endcase
        end else begin
            if (ca >= 16'h0700 && ca < 16'h0800)
                mbox_rsp[ca[7:2]] <= reg_req_wdata;
            else
                case (ca)
                16'h0108: mac_lo <= reg_req_wdata;
                16'h010c: mac_hi <= reg_req_wdata;
                16'h0510: fw_status <= reg_req_wdata;
                16'h0514: fw_version <= reg_req_wdata;
                16'h0518: fw_heartbeat <= reg_req_wdata;
                16'h051c: fw_selftest <= reg_req_wdata;
                16'h0524: begin
                    if (reg_req_wdata[0]) begin
                        meip <= 1'b0;
                        n_acks <= n_acks + 1;
                    end
                    if (reg_req_wdata[1]) begin
                        done_clk <= clocks;
                        mbox_busy <= 1'b0;
                        irq_mgmt <= 1'b1;
                        n_done <= n_done + 1;
                    end
                end
                16'h0528: begin
                    event_r <= event_r | reg_req_wdata;
                    if (reg_req_wdata != 32'd0)
                        irq_mgmt <= 1'b1;
                end
                16'h052c: if (reg_req_wdata[0]) begin
                    snap_t <= inc_t;
                    for (i = 0; i < NCNT; i = i + 1) begin
                        bank[i] <= cnt[i];
                        if (reg_req_wdata[1])
                            cnt[i] <= i + 1;
                    end
                end
                default: c_err <= 1'b1;
                endcase
        end
    end else if (c_busy) begin
        if (!c_wait) begin
            reg_rsp_valid <= 1'b1;
            reg_rsp_rdata <= c_rdata;
            reg_rsp_err <= c_err;
            n_errs <= n_errs + (c_err ? 1 : 0);
            c_busy <= 1'b0;
        end
        c_wait <= 1'b0;
    end

    // ---- the host ----
    if (h_valid) begin
        h_rdata <= 32'hdeadbeef;
        if (h_we) begin
            if (h_addr >= 16'h0600 && h_addr < 16'h0640)
                mbox_cmd[h_addr[5:2]] <= h_wdata;
            else
                case (h_addr)
                16'h0500: begin
                    m_halt <= h_wdata[0];
                    if (h_wdata[0]) begin
                        fw_status <= 32'd0;
                        fw_version <= 32'd0;
                    end
                end
                16'h0504: m_load_addr <= h_wdata;
                16'h0508: if (m_halt) begin
                    m_load_valid <= 1'b1;
                    m_load_a <= m_load_addr;
                    m_load_d <= h_wdata;
                    m_load_addr <= m_load_addr + 4;
                end
                16'h0520: if (h_wdata[0]) begin
                    db_clk <= clocks;
                    mbox_busy <= 1'b1;
                    meip <= 1'b1;
                end
                16'h0528: event_r <= event_r & ~h_wdata;
                default: ;
                endcase
        end else begin
            if (h_addr >= 16'h0600 && h_addr < 16'h0640)
                h_rdata <= mbox_cmd[h_addr[5:2]];
            else if (h_addr >= 16'h0700 && h_addr < 16'h0800)
                h_rdata <= mbox_rsp[h_addr[7:2]];
            else
                case (h_addr)
                16'h0108: h_rdata <= mac_lo;
                16'h010c: h_rdata <= mac_hi;
                16'h0500: h_rdata <= {31'd0, m_halt};
                16'h0504: h_rdata <= m_load_addr;
                16'h0510: h_rdata <= fw_status;
                16'h0514: h_rdata <= fw_version;
                16'h0518: h_rdata <= fw_heartbeat;
                16'h051c: h_rdata <= fw_selftest;
                16'h0524: h_rdata <= {31'd0, mbox_busy};
                16'h0528: h_rdata <= event_r;
                default: ;
                endcase
        end
    end
    if (rst) begin
        c_busy <= 1'b0;
        reg_rsp_valid <= 1'b0;
    end
end

// ---- the host's side: the driver's steps ----
integer npass = 0, nfail = 0;
task check;
    input ok;
    input [8*160-1:0] what;
    begin
        if (ok) begin
            $display("CHECK ok %0s", what);
            npass = npass + 1;
        end else begin
            $display("CHECK fail %0s", what);
            nfail = nfail + 1;
        end
    end
endtask

task hw;        // host write
    input [15:0] a;
    input [31:0] d;
    begin
        @(negedge clk);
        h_valid = 1'b1;
        h_we = 1'b1;
        h_addr = a;
        h_wdata = d;
        @(negedge clk);
        h_valid = 1'b0;
        h_we = 1'b0;
    end
endtask

reg [31:0] rd;
task hr;        // host read into rd
    input [15:0] a;
    begin
        @(negedge clk);
        h_valid = 1'b1;
        h_we = 1'b0;
        h_addr = a;
        @(negedge clk);
        h_valid = 1'b0;
        rd = h_rdata;
    end
endtask

reg [31:0] img [0:8191];
integer    t_clear, img_words, timeout, k, t0, t_ready, t_cmd, w, ok_all, hb0, hb1;
reg [31:0] fwver, buildid;
reg [8*512-1:0] f_image;
reg [31:0] r0, r1, r2, r3, r4, r5;
reg [63:0] want;
reg [8*160-1:0] msg;

// the driver's load: HALT, LOAD_ADDR, every payload word, un-HALT
task load_image;
    begin
        hw(16'h0500, 32'd1);
        hw(16'h0504, img[4]);
        for (k = 0; k < img[3] / 4; k = k + 1)
            hw(16'h0508, img[8 + k]);
        hw(16'h0500, 32'd0);
    end
endtask

// wait for FW_STATUS.READY: t_ready the clocks from un-HALT (-1: timeout)
task wait_ready;
    begin
        t0 = clocks;
        t_ready = -1;
        while (t_ready < 0 && clocks - t0 < timeout) begin
            hr(16'h0510);
            if (rd[0])
                t_ready = clocks - t0;
        end
    end
endtask

// a command: CMD words 0..2, the doorbell, wait for BUSY to clear; r0..r5
// the response's words 0..5, t_cmd the clocks from doorbell to completion
// (-1: timeout): the model's clock of the DONE write less the doorbell's
task mbox;
    input [15:0] op;
    input [15:0] seq;
    input [31:0] a1;
    input [31:0] a2;
    begin
        hw(16'h0600, {seq, op});
        hw(16'h0604, a1);
        hw(16'h0608, a2);
        hw(16'h0520, 32'd1);
        t0 = clocks;
        t_cmd = -1;
        while (t_cmd < 0 && clocks - t0 < timeout) begin
            hr(16'h0524);
            if (!rd[0])
                t_cmd = done_clk - db_clk;
        end
        hr(16'h0700); r0 = rd;
        hr(16'h0704); r1 = rd;
        hr(16'h0708); r2 = rd;
        hr(16'h070c); r3 = rd;
        hr(16'h0710); r4 = rd;
        hr(16'h0714); r5 = rd;
    end
endtask

task wait_clocks;
    input integer n;
    begin
        repeat (n) @(negedge clk);
    end
endtask

initial begin
    if (!$value$plusargs("image=%s", f_image) || !$value$plusargs("image_words=%d", img_words)) begin
        $display("CHECK fail no +image=HEX +image_words=N");
        $display("DONE");
        $finish;
    end
    if (!$value$plusargs("fwver=%h", fwver))
        fwver = 32'd0;
    if (!$value$plusargs("buildid=%h", buildid))
        buildid = 32'd0;
    if (!$value$plusargs("timeout=%d", timeout))
        timeout = 2000000;
    $readmemh(f_image, img, 0, img_words - 1);
    check(img[0] == 32'h57464e49 && img[1] == 32'd1 && img[3] == 4 * (img_words - 8) &&
          img[4] == 32'd0, "the image's header: INFW, version 1, payload words, load address 0");

    repeat (4) @(negedge clk);
    rst = 1'b0;
    hr(16'h0500);
    r0 = rd;
    hr(16'h0510);
    check(r0 == 32'd1 && rd == 32'd0, "after reset: MGMT_CTRL.HALT 1, FW_STATUS 0");

    // ---- boot ----
    t0 = clocks;
    load_image;
    $display("INFO load %0d payload words in %0d clocks", img[3] / 4, clocks - t0);
    wait_ready;
    $display("INFO boot %0d clocks from un-HALT to READY", t_ready);
    check(t_ready > 0, "READY after the load");
    hr(16'h0510);
    $sformat(msg, "FW_STATUS 0x%08x: READY, SELFTEST_DONE; SELFTEST_PASS and BOOT_ERROR clear (the self-test did not run)", rd);
    check(rd == 32'h00000003, msg);
    hr(16'h0514);
    $sformat(msg, "FW_VERSION 0x%08x is the image's (0x%08x) and fw_version.h's (0x%08x)", rd, img[2], fwver);
    check(rd == img[2] && rd == fwver, msg);
    hr(16'h051c);
    $sformat(msg, "FW_SELFTEST 0x%08x: no set run (bits 8..13 clear), none passed", rd);
    check(rd == 32'd0, msg);
    hr(16'h0528);
    check(rd == 32'd0 && n_errs == 0, "no EVENT, no register bus error during boot");

    // ---- heartbeat ----
    hr(16'h0518);
    hb0 = rd;
    wait_clocks(10 * MS);
    hr(16'h0518);
    hb1 = rd;
    $sformat(msg, "FW_HEARTBEAT +%0d in 10 ms (%0d clocks): one a millisecond (%0d, then %0d)", hb1 - hb0, 10 * MS, hb0, hb1);
    check(hb1 - hb0 >= 9 && hb1 - hb0 <= 11, msg);

    // ---- admin commands ----
    mbox(16'h0001, 16'h1234, 0, 0);
    $display("INFO GET_VERSION %0d clocks doorbell to completion", t_cmd);
    $sformat(msg, "GET_VERSION: ok, seq 0x1234 (0x%08x), version 0x%08x, build id 0x%08x (want 0x%08x), caps 0x%x",
             r0, r1, r2, buildid, r3);
    check(t_cmd > 0 && r0 == 32'h12340000 && r1 == fwver && r2 == buildid && r3 == 32'hf && irq_mgmt, msg);
    $sformat(msg, "GET_VERSION: image CRC-32 0x%08x computed in IMEM = the header's 0x%08x; %0d bytes used = the payload's %0d",
             r4, img[6], r5, img[3]);
    check(r4 == img[6] && r5 == img[3], msg);
    check(n_acks == 1 && n_done == 1 && !meip, "the doorbell acknowledged once (MEIP dropped), completed once");

    mbox(16'h0002, 16'h0002, 0, 0);
    $display("INFO GET_SELFTEST %0d clocks", t_cmd);
    $sformat(msg, "GET_SELFTEST: ok, FW_SELFTEST 0x%x, %0d run, %0d failed", r1, r2, r3);
    check(t_cmd > 0 && r0 == 32'h00020000 && r1 == 32'd0 && r2 == 32'd0 && r3 == 32'd0, msg);
    mbox(16'h0003, 16'h0003, 0, 0);
    $display("INFO RUN_SELFTEST %0d clocks", t_cmd);
    hr(16'h0510);
    $sformat(msg, "RUN_SELFTEST: ok, still nothing run (0x%x, %0d run); FW_STATUS 0x%x", r1, r2, rd);
    check(t_cmd > 0 && r0 == 32'h00030000 && r1 == 32'd0 && r2 == 32'd0 && rd == 32'h3, msg);

    mbox(16'h0004, 16'h0004, 32'h33221102, 32'h00005544);
    $display("INFO SET_MAC %0d clocks", t_cmd);
    check(t_cmd > 0 && r0 == 32'h00040000 && mac_lo == 32'h33221102 && mac_hi == 32'h00005544,
          "SET_MAC 02:11:22:33:44:55: ok, MAC_LO/MAC_HI written");
    mbox(16'h0004, 16'h0005, 32'h33221101, 32'h00005544);
    check(r0 == 32'h00050016 && mac_lo == 32'h33221102, "SET_MAC multicast: EINVAL (22), MAC unchanged");
    mbox(16'h0004, 16'h0006, 32'h0, 32'h0);
    check(r0 == 32'h00060016 && mac_lo == 32'h33221102, "SET_MAC all zero: EINVAL");
    mbox(16'h0004, 16'h0007, 32'h33221102, 32'h00015544);
    check(r0 == 32'h00070016 && mac_hi == 32'h00005544, "SET_MAC with bits above byte 5: EINVAL");

    // statistics: the bank equals every counter at one clock; the response the bank
    mbox(16'h0005, 16'h0008, 32'd0, 0);
    $display("INFO STATS_SNAPSHOT %0d clocks", t_cmd);
    ok_all = t_cmd > 0 && r0 == 32'h00080000 && r1 == NCNT && snap_t > 0;
    for (w = 0; w < NCNT; w = w + 1) begin
        want = cnt_init(w) + (w + 1) * snap_t;
        hr(16'h0708 + 8 * w);
        ok_all = ok_all && rd == want[31:0];
        hr(16'h070c + 8 * w);
        ok_all = ok_all && rd == want[63:32];
    end
    $sformat(msg, "STATS_SNAPSHOT: %0d counters, each 64-bit value that of one clock (%0d)", r1, snap_t);
    check(ok_all, msg);
    mbox(16'h0005, 16'h0009, 32'd1, 0);
    t_clear = snap_t;
    mbox(16'h0005, 16'h000a, 32'd0, 0);
    ok_all = r0 == 32'h000a0000;
    for (w = 0; w < NCNT; w = w + 1) begin
        want = (w + 1) * (snap_t - t_clear);
        hr(16'h0708 + 8 * w);
        ok_all = ok_all && rd == want[31:0];
        hr(16'h070c + 8 * w);
        ok_all = ok_all && rd == want[63:32];
    end
    check(ok_all, "STATS_SNAPSHOT with clear, then without: the counts since the clear, none lost");
    mbox(16'h0005, 16'h000b, 32'd6, 0);
    check(r0 == 32'h000b0016, "STATS_SNAPSHOT with unknown flags: EINVAL");

    mbox(16'h0006, 16'h000c, 0, 0);
    $display("INFO GET_LINK %0d clocks", t_cmd);
    check(r0 == 32'h000c0000 && r1 == 32'd1 && r2 == 32'd25000, "GET_LINK: up, 25000 Mbit/s");
    hw(16'h0528, 32'hffffffff);
    link = 1'b0;
    wait_clocks(2 * MS);
    hr(16'h0528);
    check(rd == 32'd1, "link down: EVENT bit 0 within 2 ms (the firmware watches STATUS.LINK)");
    mbox(16'h0006, 16'h000d, 0, 0);
    check(r0 == 32'h000d0000 && r1 == 32'd0, "GET_LINK: down");
    hw(16'h0528, 32'hffffffff);

    mbox(16'h0042, 16'h000e, 0, 0);
    check(r0 == 32'h000e005f, "opcode 0x0042: EOPNOTSUPP (95), sequence kept");
    mbox(16'h0000, 16'hffff, 0, 0);
    check(r0 == 32'hffff005f, "opcode 0: EOPNOTSUPP");
    check(n_errs == 0, "no register bus error so far");

    // ---- a firmware fault: the register bus answers an error to its MBOX_CMD read ----
    inject_err = 1'b1;
    mbox(16'h0001, 16'h0010, 0, 0);
    hr(16'h0510);
    r1 = rd;
    hr(16'h07f4); r2 = rd;      // MBOX_RSP 61..63: mcause, mepc, mtval
    hr(16'h07f8); r3 = rd;
    hr(16'h0528); r4 = rd;
    $sformat(msg, "fault: FW_STATUS 0x%08x (BOOT_ERROR, code 0x105: load access fault, READY clear), record mcause %0d mepc 0x%x, EVENT 0x%x",
             r1, r2, r3, r4);
    check(t_cmd < 0 && r1 == 32'h01050008 && r2 == 32'd5 && r3 < img[3] && r4 == 32'h4, msg);
    hr(16'h0518);
    hb0 = rd;
    wait_clocks(5 * MS);
    hr(16'h0518);
    hb1 = rd;
    hr(16'h0524);
    $sformat(msg, "after the fault the heartbeat stops (%0d, then %0d 5 ms later) and BUSY stays set (%0d): a driver sees it dead", hb0, hb1, rd[0]);
    check(hb1 == hb0 && rd[0] == 1'b1, msg);

    // ---- reload: the driver recovers ----
    load_image;
    wait_ready;
    $display("INFO reboot %0d clocks to READY", t_ready);
    hr(16'h0510);
    t_clear = rd;
    mbox(16'h0001, 16'h0011, 0, 0);
    $sformat(msg, "reload after the fault: READY again (FW_STATUS 0x%x), GET_VERSION answers (0x%08x, CRC 0x%08x)", t_clear, r0, r4);
    check(t_ready > 0 && t_clear == 3 && r0 == 32'h00110000 && r4 == img[6], msg);
    $display("DONE pass=%0d fail=%0d", npass, nfail);
    $finish;
end

// a global limit
initial begin
    #(64'd10 * 64'd40000000);
    $display("CHECK fail the whole run took over 40M clocks");
    $display("DONE");
    $finish;
end

wire unused = ^{tohost, tohost_valid, sleeping, asleep, load_ready};

endmodule
