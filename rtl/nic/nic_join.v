// SPDX-License-Identifier: MIT
/*
 * nic_join: waits for several chains at once. A state that starts N
 * chains (a header sum, a fold, ...) and must go on only when each has
 * ended clears the join as it starts them, and goes on when all is high:
 * each chain's valid seen since the clear, or high now. A valid may be a
 * pulse or a level; one in the clock of a clear belongs to the round
 * before and is forgotten. rst clears too.
 *
 * all is combinational from the valids (an AND of N ORs, one LUT level for
 * N up to 3, two beyond): a state acts in the clock its last chain ends,
 * as if it waited for that chain alone.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_join #
(
    // chains joined
    parameter N = 2
)
(
    input  wire         clk,
    input  wire         rst,

    input  wire         clear,
    input  wire [N-1:0] valid,
    output wire         all
);

reg [N-1:0] seen = {N{1'b0}};

assign all = &(seen | valid);

always @(posedge clk) begin
    seen <= seen | valid;
    if (clear || rst)
        seen <= {N{1'b0}};
end

endmodule

`resetall
