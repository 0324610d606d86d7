// SPDX-License-Identifier: MIT
/*
 * mgmt_ram: the management core's memory, a true dual-port block RAM of
 * 32-bit words: port A reads (the instruction port), port B reads and
 * writes with byte enables (the data port and the firmware loader). Both
 * reads are registered (one clock), as block RAM has; a port B read of the
 * word it writes returns the old word. Zero at configuration, or
 * INIT_FILE's words ($readmemh) when one is given.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mgmt_ram #
(
    // log2 of the number of 32-bit words (12: 16 KiB)
    parameter ADDR_W = 12,
    // $readmemh file loaded at configuration ("": none, all zero)
    parameter INIT_FILE = ""
)
(
    input  wire              clk,

    // port A: read
    input  wire              a_en,
    input  wire [ADDR_W-1:0] a_addr,
    output reg  [31:0]       a_rdata = 32'd0,

    // port B: read and byte-enabled write
    input  wire              b_en,
    input  wire [3:0]        b_we,
    input  wire [ADDR_W-1:0] b_addr,
    input  wire [31:0]       b_wdata,
    output reg  [31:0]       b_rdata = 32'd0
);

// block RAM on the FPGA (yosys 0.23 otherwise picks LUTRAM for a 16 KiB
// memory with one port used, and fails to map it)
(* ram_style = "block" *)
reg [31:0] mem [0:(1 << ADDR_W)-1];

integer i;
initial begin
    for (i = 0; i < (1 << ADDR_W); i = i + 1)
        mem[i] = 32'd0;
    if (INIT_FILE != "")
        $readmemh(INIT_FILE, mem);
end

always @(posedge clk) begin
    if (a_en)
        a_rdata <= mem[a_addr];
end

always @(posedge clk) begin
    if (b_en) begin
        if (b_we[0])
            mem[b_addr][7:0] <= b_wdata[7:0];
        if (b_we[1])
            mem[b_addr][15:8] <= b_wdata[15:8];
        if (b_we[2])
            mem[b_addr][23:16] <= b_wdata[23:16];
        if (b_we[3])
            mem[b_addr][31:24] <= b_wdata[31:24];
        b_rdata <= mem[b_addr];
    end
end

endmodule

`resetall
