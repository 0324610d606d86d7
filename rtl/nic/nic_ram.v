// SPDX-License-Identifier: MIT
/*
 * nic_ram: simple dual-port RAM, one write port and one read port with a
 * registered (one clock) read, as block RAM has. Frames, chunk bodies and
 * decoded ranges live in these.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_ram #
(
    // Word width, bits
    parameter WIDTH = 256,
    // log2 of the number of words
    parameter ADDR_W = 9
)
(
    input  wire              clk,

    input  wire              we,
    input  wire [ADDR_W-1:0] waddr,
    input  wire [WIDTH-1:0]  wdata,

    input  wire              re,
    input  wire [ADDR_W-1:0] raddr,
    output reg  [WIDTH-1:0]  rdata = 0
);

reg [WIDTH-1:0] mem [0:(1 << ADDR_W)-1];

always @(posedge clk) begin
    if (we)
        mem[waddr] <= wdata;
    if (re)
        rdata <= mem[raddr];
end

endmodule

`resetall
