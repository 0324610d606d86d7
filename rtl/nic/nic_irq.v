// SPDX-License-Identifier: MIT
/*
 * nic_irq: interrupt moderation for one MSI-X vector (docs/regmap.md,
 * 0x0400). Counts completion events; once the vector is enabled and either
 * coal_frames events have come or coal_usecs microseconds have passed since
 * the first of them (both 0: at once; a 0 field is not a condition), it
 * requests a message. The timer starts with the first event, so the wait
 * is exact to the clock. When the message is sent (ack) the count and the
 * timer restart, and the CSR block clears the vector's enable bit.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_irq #
(
    // clocks per microsecond
    parameter CLK_MHZ = 250
)
(
    input  wire        clk,
    input  wire        rst,

    input  wire        event_in,     // one completion
    input  wire        enable,
    input  wire [15:0] coal_frames,
    input  wire [15:0] coal_usecs,

    output wire        req,
    input  wire        ack,
    output wire        busy          // a request, an event being counted, or a timer that will make one
);

localparam PW = $clog2(CLK_MHZ + 1);

reg [15:0]   pending = 0;
reg [15:0]   timer = 0;              // microseconds since the first event
reg [PW-1:0] pre = 0;                // clocks into the current microsecond
wire         us_tick = pre == CLK_MHZ[PW-1:0] - 1'b1;

wire count_hit = coal_frames != 0 && pending >= coal_frames;
wire time_hit = coal_usecs != 0 && timer >= coal_usecs;
wire at_once = coal_frames == 0 && coal_usecs == 0;

assign req = enable && pending != 0 && (at_once || count_hit || time_hit);
// Without a timer, nothing changes until the next event or CSR write, so a
// clock that stops here loses nothing. An event coming in is not counted
// yet: the clock must run once more, or the message it makes (coalescing
// off, or the count reached) would wait for the next CSR access.
assign busy = req || event_in || (enable && pending != 0 && coal_usecs != 0);

always @(posedge clk) begin
    if (ack) begin
        pending <= {15'd0, event_in};
        timer <= 0;
        pre <= 0;
    end else begin
        if (event_in && pending != 16'hffff)
            pending <= pending + 16'd1;
        if (pending != 0) begin
            pre <= us_tick ? {PW{1'b0}} : pre + 1'b1;
            if (us_tick && timer != 16'hffff)
                timer <= timer + 16'd1;
        end else begin
            pre <= 0;
        end
    end
    if (rst) begin
        pending <= 0;
        timer <= 0;
        pre <= 0;
    end
end

endmodule

`resetall
