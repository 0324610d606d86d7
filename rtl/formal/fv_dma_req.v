// SPDX-License-Identifier: MIT
/*
 * fv_dma_req: what the formal harnesses of inc_nic's DMA ports
 * (fv_nic_dma_arb, fv_nic_dma_rd, fv_nic_dma_wr) assume of the engines'
 * request channels (valid, ready, address, length; N of them, packed with
 * channel 0 in the low bits), in one place, for each channel:
 *
 *   - reset: no request in the cycle after a cycle with rst high (the
 *     engines are reset with the port)
 *   - held: a request offered and not taken stays offered the next cycle,
 *     unless the engine is excused that cycle (FLUSH: its queue is flushing
 *     and its request is not the one the port has locked; a flush resets
 *     the engine, and a request it withdraws is one never taken)
 *   - stable: a request that stays keeps its address and length
 *
 * The ready is never constrained. The harness checks the port's side
 * itself (who gets the ready, what it sends on).
 */

// Language: Verilog 2001 (formal subset: assume, $stable)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_dma_req #
(
    // Number of request channels
    parameter N = 2,
    // Width of a request's address, bits
    parameter ADDR_W = 64,
    // Width of a request's length, bits
    parameter LEN_W = 16
)
(
    input  wire                clk,
    input  wire                rst,
    // low in the first cycle only (fv_env's past_valid)
    input  wire                f_past_valid,

    input  wire [N-1:0]        valid,
    input  wire [N-1:0]        ready,
    input  wire [N*ADDR_W-1:0] addr,
    input  wire [N*LEN_W-1:0]  len,
    // the engine may withdraw its request this cycle (a flush resets it)
    input  wire [N-1:0]        excused
);

// the last cycle: rst was high; each channel's request waited
reg         rst_q = 1'b0;
reg [N-1:0] stalled = 0;
always @(posedge clk) begin
    rst_q <= rst;
    stalled <= rst ? {N{1'b0}} : valid & ~ready;
end

`ifdef FORMAL

genvar i;
generate
for (i = 0; i < N; i = i + 1) begin : ch

    always @(*) begin
        if (f_past_valid && rst_q)
            assume(!valid[i]);        // reset
        if (f_past_valid && !rst && stalled[i] && !excused[i])
            assume(valid[i]);         // held
    end

    always @(posedge clk)
        if (f_past_valid && !rst && stalled[i] && valid[i])
            assume($stable(addr[i*ADDR_W +: ADDR_W]) && $stable(len[i*LEN_W +: LEN_W]));

end
endgenerate

`endif

endmodule

`resetall
