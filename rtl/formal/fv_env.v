// SPDX-License-Identifier: MIT
/*
 * fv_env: what every formal harness of rtl/formal/ sets up around its
 * design (rtl/scripts/formal.sh, docs/rtl.md "Formal checks"):
 *
 *   - past_valid: low in the first cycle only, for $past and the first-cycle
 *     assumption: rst is high in the first cycle (assumed here)
 *   - m_valid_chk: the output tvalid the checker sees; with FV_BREAK_VALID
 *     defined it drops in the cycle after a stall, as a broken design would,
 *     and the harness's check must then fail (formal.sh selftest)
 *   - cov_stall: an output beat has been stalled since the last reset, for
 *     the harness's FV_COVER reachability check
 */

// Language: Verilog 2001 (formal subset: assume)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_env
(
    input  wire clk,
    input  wire rst,

    input  wire m_tvalid,     // the design's output stream handshake
    input  wire m_tready,

    output wire m_valid_chk,
    output reg  past_valid = 1'b0,
    output reg  cov_stall = 1'b0
);

`ifdef FV_BREAK_VALID
reg brk_stalled = 1'b0;
always @(posedge clk)
    brk_stalled <= m_tvalid && !m_tready && !rst;
assign m_valid_chk = m_tvalid && !brk_stalled;
`else
assign m_valid_chk = m_tvalid;
`endif

always @(posedge clk) begin
    past_valid <= 1'b1;
    if (m_tvalid && !m_tready && !rst)
        cov_stall <= 1'b1;
    if (rst)
        cov_stall <= 1'b0;
end

`ifdef FORMAL
// reset in the first cycle
always @(*)
    if (!past_valid)
        m_reset_first: assume(rst);
`endif

endmodule

`resetall
