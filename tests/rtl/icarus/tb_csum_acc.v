// SPDX-License-Identifier: MIT
/*
 * tb_csum_acc: nic_csum_acc (the NIC's pipelined checksum sum over a window
 * of a beat stream), 32-byte and 64-byte beats (one instance of each,
 * streams alternating between them), against a sum taken byte by byte
 * here: random streams of 1 to 300 beats with random data, random keep
 * masks (full, a prefix on the last beat, or any bits), random windows
 * [lo, hi) (empty, inside, reaching past the end, lo >= hi), idle clocks
 * between beats, and a new stream started as soon as the spec allows (the
 * clock after a beat).
 *
 * usage: vvp tb_csum_acc.vvp [+streams=N] [+seed=S]
 *
 * Output: TAP, one point per check, and a point for the whole run.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_csum_acc;

reg          clk = 1'b0;
reg          start = 1'b0, beat = 1'b0, last = 1'b0;
reg          wide = 1'b0;           // this stream's beats are 64 bytes
reg  [13:0]  lo = 0, hi = 0;
reg  [511:0] data = 0;
reg  [63:0]  keep = 0;
wire [31:0]  sum32, sum64;
wire [31:0]  sum = wide ? sum64 : sum32;
wire         valid32, valid64;
wire         valid = wide ? valid64 : valid32;

nic_csum_acc #(.DATA_W(256)) dut32 (
    .clk(clk), .start(start && !wide), .lo(lo), .hi(hi),
    .beat(beat && !wide), .last(last), .data(data[255:0]), .keep(keep[31:0]),
    .sum(sum32), .sum_valid(valid32)
);
nic_csum_acc #(.DATA_W(512)) dut64 (
    .clk(clk), .start(start && wide), .lo(lo), .hi(hi),
    .beat(beat && wide), .last(last), .data(data), .keep(keep),
    .sum(sum64), .sum_valid(valid64)
);

always #2 clk = ~clk;

localparam SHOW = 8;

integer seed, streams, s, nbeats, b, j, off, bad, bad_valid, gaps, kind, bb;
reg [31:0] ref;

`include "tb_tick.vh"
`include "tb_tap.vh"

initial begin
    if (!$value$plusargs("seed=%d", seed))
        seed = 1;
    if (!$value$plusargs("streams=%d", streams))
        streams = 150;
    bad = 0;
    bad_valid = 0;
    gaps = 0;
    tick;
    for (s = 0; s < streams; s = s + 1) begin
        wide = s % 2;
        bb = wide ? 64 : 32;
        nbeats = 1 + ($unsigned($random(seed)) % (wide ? 150 : 300));
        kind = $unsigned($random(seed)) % 8;
        lo = $unsigned($random(seed)) % (bb * nbeats + 40);
        hi = $unsigned($random(seed)) % (bb * nbeats + 40);
        if (kind == 0)
            lo = 0;
        if (kind == 1)
            hi = 14'h3fff;
        if (kind == 2) begin
            lo = 0;
            hi = 14'h3fff;
        end
        start = 1'b1;
        beat = 1'b0;
        tick;
        start = 1'b0;
        ref = 0;
        for (b = 0; b < nbeats; b = b + 1) begin
            // idle clocks now and then
            while ($unsigned($random(seed)) % 4 == 0) begin
                beat = 1'b0;
                last = 1'b0;
                data = {16{$random(seed)}};
                gaps = gaps + 1;
                tick;
            end
            for (j = 0; j < 16; j = j + 1)
                data[32*j +: 32] = $random(seed);
            if (kind == 3)
                keep = {$random(seed), $random(seed)};
            else if (b == nbeats - 1)
                keep = ~({64{1'b1}} << ($unsigned($random(seed)) % (bb + 1)));
            else
                keep = {64{1'b1}};
            if (!wide)
                keep[63:32] = 0;
            for (j = 0; j < bb; j = j + 1) begin
                off = bb * b + j;
                if (keep[j] && off >= lo && off < hi)
                    ref = ref + (j % 2 == 0 ? {16'd0, data[8*j +: 8], 8'd0}
                                            : {24'd0, data[8*j +: 8]});
            end
            beat = 1'b1;
            last = b == nbeats - 1;
            tick;
            // sum_valid low from the start to 4 clocks after the last beat
            if (valid)
                bad_valid = bad_valid + 1;
        end
        beat = 1'b0;
        last = 1'b0;
        data = 0;
        tick;
        tick;
        if (valid)
            bad_valid = bad_valid + 1;
        tick;
        // four clocks after the last beat
        if (!valid)
            bad_valid = bad_valid + 1;
        if (sum !== ref) begin
            bad = bad + 1;
            if (bad <= SHOW)
                $display("# stream %0d: %0d beats of %0d bytes, window [%0d, %0d), kind %0d: sum %h, expected %h",
                         s, nbeats, bb, lo, hi, kind, sum, ref);
        end
        // the sum stays until the next start
        tick;
        if (!valid)
            bad_valid = bad_valid + 1;
        if (sum !== ref && bad == 0) begin
            bad = bad + 1;
            $display("# stream %0d: the sum changed after the stream: %h", s, sum);
        end
    end
    point(bad == 0, "every stream's windowed sum, 4 clocks after its last beat, equals the byte-by-byte sum (32- and 64-byte beats)");
    point(bad_valid == 0, "sum_valid is low from a start until 4 clocks after the last beat, then high until the next start");
    point(gaps > 0, "idle clocks between beats were exercised");
    $display("# %0d streams, %0d mismatches, %0d idle clocks", streams, bad, gaps);
    $display("1..%0d", npoints);
    $finish;
end

endmodule
