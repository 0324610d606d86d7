// SPDX-License-Identifier: MIT
/*
 * mgmt_timer: the machine timer of the management core, mtime and
 * mtimecmp (RISC-V privileged spec, section "Machine Timer Registers") as
 * memory-mapped 32-bit registers:
 *
 *   +0x0  mtime[31:0]      +0x4  mtime[63:32]
 *   +0x8  mtimecmp[31:0]   +0xc  mtimecmp[63:32]
 *
 * mtime counts up by one every PRESCALE clocks and is writable; mtimecmp
 * is all ones after reset (no interrupt). irq (mip.MTIP) is high while
 * mtime >= mtimecmp, two clocks after the comparison's inputs (the
 * 64-bit compare is split into two 32-bit ones and registered).
 *
 * Bus: a strobe (en) with write enable, byte enables and a word address;
 * every access completes in its clock, read data the next clock.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mgmt_timer #
(
    // clocks per mtime tick (1: mtime counts clocks)
    parameter PRESCALE = 1
)
(
    input  wire        clk,
    input  wire        rst,

    input  wire        en,
    input  wire        we,
    input  wire [3:0]  wstrb,
    input  wire [1:0]  addr,       // word: 0 mtime lo, 1 hi, 2 mtimecmp lo, 3 hi
    input  wire [31:0] wdata,
    output reg  [31:0] rdata = 32'd0,

    output reg         irq = 1'b0
);

localparam PS_W = PRESCALE > 1 ? $clog2(PRESCALE) : 1;

reg [63:0]     mtime = 64'd0;
reg [63:0]     mtimecmp = {64{1'b1}};
reg [PS_W-1:0] ps = {PS_W{1'b0}};
reg            c_hi_gt = 1'b0, c_hi_eq = 1'b0, c_lo_ge = 1'b0;

wire tick = PRESCALE <= 1 || ps == PRESCALE - 1;

// a 32-bit register with the written bytes replaced
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

always @(posedge clk) begin
    ps <= tick ? {PS_W{1'b0}} : ps + 1'b1;
    if (tick)
        mtime <= mtime + 64'd1;
    // mtime >= mtimecmp in two clocks: the halves compared, then joined
    c_hi_gt <= mtime[63:32] > mtimecmp[63:32];
    c_hi_eq <= mtime[63:32] == mtimecmp[63:32];
    c_lo_ge <= mtime[31:0] >= mtimecmp[31:0];
    irq <= c_hi_gt | (c_hi_eq & c_lo_ge);

    if (en) begin
        case (addr)
        2'd0: rdata <= mtime[31:0];
        2'd1: rdata <= mtime[63:32];
        2'd2: rdata <= mtimecmp[31:0];
        default: rdata <= mtimecmp[63:32];
        endcase
        if (we) begin
            case (addr)
            2'd0: mtime[31:0] <= merge(mtime[31:0], wdata, wstrb);
            2'd1: mtime[63:32] <= merge(mtime[63:32], wdata, wstrb);
            2'd2: mtimecmp[31:0] <= merge(mtimecmp[31:0], wdata, wstrb);
            default: mtimecmp[63:32] <= merge(mtimecmp[63:32], wdata, wstrb);
            endcase
        end
    end

    if (rst) begin
        mtime <= 64'd0;
        mtimecmp <= {64{1'b1}};
        ps <= {PS_W{1'b0}};
        irq <= 1'b0;
        c_hi_gt <= 1'b0;
        c_hi_eq <= 1'b0;
        c_lo_ge <= 1'b0;
    end
end

endmodule

`resetall
