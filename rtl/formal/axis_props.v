// SPDX-License-Identifier: MIT
/*
 * axis_props: AXI4-Stream handshake properties of one port, for formal
 * checks (yosys `read_verilog -formal`, yosys-smtbmc; rtl/scripts/formal.sh).
 *
 * Watches one stream (all of its signals are inputs here) and states its
 * rules either as assertions (ASSUME = 0: a port the design under test
 * drives, its master side) or as assumptions (ASSUME = 1: a port the
 * environment drives, the design's slave side):
 *
 *   - reset: tvalid is low in the cycle after a cycle with rst high (the
 *     source's registers are reset synchronously, as the design's are)
 *   - handshake: once tvalid is high with tready low, tvalid stays high the
 *     next cycle and tdata, tkeep, tlast and tuser do not change, unless
 *     rst is high in that next cycle
 *   - tkeep (KEEP_CHECK = 1 only): on a valid beat tkeep is contiguous from
 *     byte 0 (0, 1, 3, 7, ...), and all ones unless tlast is set
 *
 * tready is never constrained: the sink may stall at any time.
 *
 * It also counts the port's transfers since the last reset, for properties
 * between ports (the wrappers fv_inc_*.v): beats, packets started (a beat
 * with no earlier beat of its packet) and packets ended (tlast beats). A
 * handshake in a cycle with rst high is no transfer. The counters are
 * CNT_W bits and wrap; a check must stay shorter than 2^CNT_W cycles.
 */

// Language: Verilog 2001 (formal subset: assert, assume, $past, $stable)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module axis_props #
(
    // Width of tdata, bits
    parameter DATA_W = 256,
    // Width of tkeep, bits (DATA_W / 8)
    parameter KEEP_W = DATA_W / 8,
    // Width of tuser, bits
    parameter USER_W = 1,
    // 1: the rules are assumptions (an input of the design under test);
    // 0: they are assertions (an output of the design under test)
    parameter ASSUME = 0,
    // 1: also check tkeep (contiguous from byte 0, full but on tlast)
    parameter KEEP_CHECK = 0,
    // Width of the transfer counters, bits
    parameter CNT_W = 8
)
(
    input  wire                clk,
    input  wire                rst,

    input  wire [DATA_W-1:0]   tdata,
    input  wire [KEEP_W-1:0]   tkeep,
    input  wire                tvalid,
    input  wire                tready,
    input  wire                tlast,
    input  wire [USER_W-1:0]   tuser,

    // transfers since the last reset
    output reg  [CNT_W-1:0]    beats = 0,
    output reg  [CNT_W-1:0]    starts = 0,
    output reg  [CNT_W-1:0]    ends = 0,
    // a packet has started and not ended yet
    output reg                 in_packet = 1'b0,
    // a transfer this cycle (tvalid && tready && !rst)
    output wire                xfer
);

assign xfer = tvalid && tready && !rst;

always @(posedge clk) begin
    if (xfer) begin
        beats <= beats + 1'b1;
        if (!in_packet)
            starts <= starts + 1'b1;
        if (tlast)
            ends <= ends + 1'b1;
        in_packet <= !tlast;
    end
    if (rst) begin
        beats <= 0;
        starts <= 0;
        ends <= 0;
        in_packet <= 1'b0;
    end
end

`ifdef FORMAL

reg f_past_valid = 1'b0;
always @(posedge clk)
    f_past_valid <= 1'b1;

// the beat of the previous cycle waited (tvalid, no tready, no reset)
reg f_stalled = 1'b0;
always @(posedge clk)
    f_stalled <= tvalid && !tready && !rst;

wire f_keep_contig = (tkeep & (tkeep + 1'b1)) == {KEEP_W{1'b0}};
wire f_keep_full = &tkeep;

generate
if (ASSUME) begin : env
    always @(posedge clk) begin
        if (f_past_valid && $past(rst))
            m_reset_idle: assume(!tvalid);
        if (f_stalled && !rst) begin
            m_valid_held: assume(tvalid);
            m_data_stable: assume($stable(tdata) && $stable(tkeep) &&
                                  $stable(tlast) && $stable(tuser));
        end
        if (KEEP_CHECK && tvalid && !rst) begin
            m_keep_contig: assume(f_keep_contig);
            m_keep_full: assume(tlast || f_keep_full);
        end
    end
end else begin : dut
    always @(posedge clk) begin
        if (f_past_valid && $past(rst))
            a_reset_idle: assert(!tvalid);
        if (f_stalled && !rst) begin
            a_valid_held: assert(tvalid);
            a_data_stable: assert($stable(tdata));
            a_keep_stable: assert($stable(tkeep));
            a_last_stable: assert($stable(tlast));
            a_user_stable: assert($stable(tuser));
        end
        if (KEEP_CHECK && tvalid && !rst) begin
            a_keep_contig: assert(f_keep_contig);
            a_keep_full: assert(tlast || f_keep_full);
        end
    end
end
endgenerate

`endif

endmodule

`resetall
