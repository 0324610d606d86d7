// SPDX-License-Identifier: MIT
/*
 * tb_ip4_csum: nic_ip4_csum (nic_hsum, then nic_fold: the checksum of the
 * 16-bit words of a 160-byte header in [lo, hi)), against a checksum taken
 * word by word here: random headers and random even bounds (empty, inside,
 * reaching the header's end), one in_valid clock each, the next started as
 * soon as the clock after, or after idle clocks in which hdr, lo and hi
 * change without in_valid (the result must not move). Checked: csum_valid
 * exactly 5 clocks after each in_valid and at no other clock, csum then
 * the reference, csum held until the next result, and a reset in the
 * middle of a run empties the pipeline (no csum_valid after it).
 *
 * usage: vvp tb_ip4_csum.vvp [+headers=N] [+seed=S]
 *
 * Output: TAP, one point per check, and a point for the whole run.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_ip4_csum;

reg           clk = 1'b0;
reg           rst = 1'b0;
reg  [1279:0] hdr = 0;
reg  [7:0]    lo = 0, hi = 0;
reg           in_valid = 1'b0;
wire [15:0]   csum;
wire          csum_valid;

nic_ip4_csum dut (
    .clk(clk), .rst(rst), .hdr(hdr), .lo(lo), .hi(hi), .in_valid(in_valid),
    .csum(csum), .csum_valid(csum_valid)
);

always #2 clk = ~clk;

localparam SHOW = 8;
localparam LAT = 5;

integer seed, headers, n, j, bad, bad_valid, bad_hold, idles, resets, cyc, pending;
reg [31:0] acc;
reg [15:0] want [0:63];          // expected results, by the cycle they are due
integer    due [0:63];
integer    wr, rd;
reg [15:0] last_csum;
reg        have_last;

`include "tb_tick.vh"
`include "tb_tap.vh"

// the checksum of hdr's words in [lo, hi), as ip4_csum_byte writes it
function [15:0] ref_csum;
    input [1279:0] h;
    input [7:0]    l, u;
    integer w;
    reg [31:0] a;
    begin
        a = 0;
        for (w = 0; w < 160; w = w + 2)
            if (w >= l && w < u)
                a = a + {16'd0, h[8*w +: 8], h[8*(w+1) +: 8]};
        a = {16'd0, a[15:0]} + {16'd0, a[31:16]};
        a = {16'd0, a[15:0]} + {16'd0, a[31:16]};
        ref_csum = ~a[15:0];
    end
endfunction

task random_inputs;
    integer k;
    begin
        for (k = 0; k < 40; k = k + 1)
            hdr[32*k +: 32] = $random(seed);
        k = $unsigned($random(seed)) % 4;
        lo = 2 * ($unsigned($random(seed)) % 81);
        hi = 2 * ($unsigned($random(seed)) % 81);
        if (k == 0) begin
            lo = 14;
            hi = 34;            // an IPv4 header after Ethernet
        end else if (k == 1) begin
            lo = 0;
            hi = 160;
        end
    end
endtask

// one clock: check what is due, then the edge
task step;
    begin
        if (csum_valid) begin
            if (rd == wr || due[rd % 64] != cyc) begin
                bad_valid = bad_valid + 1;
                if (bad_valid <= SHOW)
                    $display("# cycle %0d: csum_valid with no result due", cyc);
            end else begin
                if (csum !== want[rd % 64]) begin
                    bad = bad + 1;
                    if (bad <= SHOW)
                        $display("# cycle %0d: csum %h, expected %h", cyc, csum,
                                 want[rd % 64]);
                end
                last_csum = csum;
                have_last = 1'b1;
                rd = rd + 1;
            end
        end else begin
            if (rd != wr && due[rd % 64] <= cyc) begin
                bad_valid = bad_valid + 1;
                if (bad_valid <= SHOW)
                    $display("# cycle %0d: no csum_valid for a result due at %0d", cyc,
                             due[rd % 64]);
                rd = rd + 1;
            end
            if (have_last && csum !== last_csum) begin
                bad_hold = bad_hold + 1;
                if (bad_hold <= SHOW)
                    $display("# cycle %0d: csum moved from %h to %h without csum_valid",
                             cyc, last_csum, csum);
            end
        end
        tick;
        cyc = cyc + 1;
    end
endtask

initial begin
    if (!$value$plusargs("seed=%d", seed))
        seed = 1;
    if (!$value$plusargs("headers=%d", headers))
        headers = 400;
    bad = 0;
    bad_valid = 0;
    bad_hold = 0;
    idles = 0;
    resets = 0;
    cyc = 0;
    wr = 0;
    rd = 0;
    have_last = 1'b0;
    rst = 1'b1;
    step;
    rst = 1'b0;
    for (n = 0; n < headers; n = n + 1) begin
        random_inputs;
        in_valid = 1'b1;
        want[wr % 64] = ref_csum(hdr, lo, hi);
        due[wr % 64] = cyc + LAT;
        wr = wr + 1;
        step;
        in_valid = 1'b0;
        // idle clocks now and then, the inputs moving
        while ($unsigned($random(seed)) % 3 == 0) begin
            random_inputs;
            idles = idles + 1;
            step;
        end
        // a reset now and then: what is in flight is gone
        if ($unsigned($random(seed)) % 50 == 0) begin
            rst = 1'b1;
            step;
            rst = 1'b0;
            rd = wr;
            have_last = 1'b0;
            resets = resets + 1;
        end
    end
    for (j = 0; j < LAT + 2; j = j + 1)
        step;
    pending = wr - rd;
    point(bad == 0, "every csum equals the checksum of the header's words in [lo, hi)");
    point(bad_valid == 0 && pending == 0,
          "csum_valid comes 5 clocks after each in_valid and at no other clock, none after a reset");
    point(bad_hold == 0, "csum holds between results while the inputs move without in_valid");
    point(idles > 0 && resets > 0, "idle clocks and resets were exercised");
    $display("# %0d headers, %0d idle clocks, %0d resets, %0d mismatches", headers, idles,
             resets, bad);
    $display("1..%0d", npoints);
    $finish;
end

endmodule
