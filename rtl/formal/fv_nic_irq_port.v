// SPDX-License-Identifier: MIT
/*
 * fv_nic_irq_port: formal harness of the NIC's interrupt port,
 * nic_irq_port (rtl/scripts/formal.sh nic_irq_port - DEPTH [prove]): the
 * m_irq_* message stream, its three moderators (vector 2 without
 * coalescing) (nic_irq, 16-bit counters
 * and timers as in the NIC; CLK_MHZ = 2 clocks a microsecond, so the
 * timers move) and the choice between them.
 *
 * Assumptions: rst high in the first cycle (fv_env; free afterwards);
 * events, enables, the coalescing settings and the bridge's ready free
 * (any driver, any traffic).
 *
 * Assertions, against a model of its own (per vector: an event came since
 * its last message was taken):
 *   - m_irq follows the stream rules (axis_props, ASSUME = 0, the vector
 *     as tdata): valid held and the vector stable until ready
 *   - a_fired: fired is one-hot, the vector taken, in the clock it is
 *     taken, and 0 in every other
 *   - a_due: a message offered anew (not one waiting since the last clock)
 *     is for a vector that is enabled and has had an event since its last
 *     message: no spurious interrupt, none for a vector the driver masked
 *
 * FV_BREAK_VALID: valid as the checker sees it drops after a stall, so
 * chk_m must fail. FV_COVER: c_reach asserts no trace has a stalled
 * message and two messages taken; the check must then fail.
 */

// Language: Verilog 2001 (formal subset: assert, assume)

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fv_nic_irq_port
(
    input  wire        clk,
    input  wire        rst,

    input  wire [2:0]  event_in,
    input  wire [2:0]  enable,
    input  wire [31:0] coal_tx,
    input  wire [31:0] coal_rx,
    input  wire        m_irq_ready
);

wire [1:0] m_irq_vector;
wire [2:0] fired, req, busy;
wire       m_irq_valid;

nic_irq_port #(.CLK_MHZ(2)) dut (
    .clk(clk), .rst(rst),
    .event_in(event_in), .enable(enable), .coal_tx(coal_tx), .coal_rx(coal_rx),
    .m_irq_vector(m_irq_vector), .m_irq_valid(m_irq_valid), .m_irq_ready(m_irq_ready),
    .fired(fired), .req(req), .busy(busy)
);

wire m_valid_chk, f_past_valid, cov_stall;
fv_env env (
    .clk(clk), .rst(rst),
    .m_tvalid(m_irq_valid), .m_tready(m_irq_ready),
    .m_valid_chk(m_valid_chk), .past_valid(f_past_valid), .cov_stall(cov_stall)
);

wire [7:0] beats, starts, ends;
wire       in_pkt, xfer;
axis_props #(.DATA_W(2), .KEEP_W(1), .USER_W(1), .ASSUME(0), .KEEP_CHECK(0), .CNT_W(8)) chk_m (
    .clk(clk), .rst(rst), .tdata(m_irq_vector), .tkeep(1'b1), .tvalid(m_valid_chk),
    .tready(m_irq_ready), .tlast(1'b1), .tuser(1'b0),
    .beats(beats), .starts(starts), .ends(ends), .in_packet(in_pkt), .xfer(xfer)
);

// the model: per vector, an event since its last message was taken (an
// event in the clock a message is taken counts for the next one); whether
// the port offered a message in the last clock that was not taken
reg  [2:0] due = 3'b000;
reg        stalled = 1'b0;
wire       take = m_irq_valid && m_irq_ready && !rst;
wire [2:0] taken = take ? (m_irq_vector == 2'd0 ? 3'b001 :
                           (m_irq_vector == 2'd1 ? 3'b010 : 3'b100)) : 3'b000;
always @(posedge clk) begin
    due <= (due & ~taken) | event_in;
    stalled <= m_irq_valid && !m_irq_ready && !rst;
    if (rst) begin
        due <= 3'b000;
        stalled <= 1'b0;
    end
end

`ifdef FORMAL

always @(*) begin
    if (f_past_valid && !rst) begin
        a_fired: assert(fired == taken && m_irq_vector != 2'd3);
        if (m_irq_valid && !stalled)
            a_due: assert(enable[m_irq_vector] && due[m_irq_vector]);
    end
end

`ifdef FV_COVER
always @(posedge clk)
    if (f_past_valid && !rst)
        c_reach: assert(!(cov_stall && ends >= 2));
`endif

`endif

endmodule

`resetall
