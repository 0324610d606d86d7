// SPDX-License-Identifier: MIT
/*
 * tb_csum_pass: nic_csum_pass (the checksum pass of nic_tx and nic_rx: a
 * byte range of a RAM read a word a clock, three windows of it summed)
 * with 32-byte and 64-byte words (one instance of each, passes
 * alternating between them), against sums taken byte by byte here:
 * random RAM contents (words rewritten between passes), random even
 * starts anywhere in the RAM (ranges that wrap at its end), lengths of 1
 * to 3000 bytes, random windows (the whole range, from 0, to the end,
 * empty, lo >= hi, past the range's end), random idle clocks before a
 * start, and a reset in the middle of a pass now and then.
 *
 * Checked for every pass: each window's sum; sum_valid low from the clock
 * after the start until n + 6 clocks after it (n words), then high, the
 * sums holding until the next start; start_ready low while the pass runs;
 * exactly n words read, in order, from the range's first word on.
 *
 * usage: vvp tb_csum_pass.vvp [+passes=N] [+seed=S]
 *
 * Output: TAP, one point per check, and a point for the whole run.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_csum_pass;

localparam AW = 6;                  // 64 words a RAM
localparam SHOW = 8;

reg          clk = 1'b0;
reg          rst = 1'b0;
reg          wide = 1'b0;           // this pass goes to the 64-byte instance
reg          start = 1'b0;
reg  [11:0]  addr = 0;              // byte address (the 32-byte RAM uses 10:0)
reg  [13:0]  len = 0;
reg  [3*14-1:0] lo = 0, hi = 0;

reg  [511:0] mem64 [0:(1 << AW)-1];
reg  [255:0] mem32 [0:(1 << AW)-1];
reg  [511:0] rd64 = 0;
reg  [255:0] rd32 = 0;

wire         ready32, ready64, re32, re64, valid32, valid64;
wire [AW-1:0] ra32, ra64;
wire [95:0]  sum32, sum64;

nic_csum_pass #(.DATA_W(256), .ADDR_W(AW), .NSUM(3)) dut32 (
    .clk(clk), .rst(rst),
    .start_valid(start && !wide), .start_ready(ready32),
    .start_addr(addr[AW+4:0]), .start_len(len), .start_lo(lo), .start_hi(hi),
    .ram_re(re32), .ram_raddr(ra32), .ram_rdata(rd32),
    .sum_valid(valid32), .sum(sum32)
);
nic_csum_pass #(.DATA_W(512), .ADDR_W(AW), .NSUM(3)) dut64 (
    .clk(clk), .rst(rst),
    .start_valid(start && wide), .start_ready(ready64),
    .start_addr(addr[AW+5:0]), .start_len(len), .start_lo(lo), .start_hi(hi),
    .ram_re(re64), .ram_raddr(ra64), .ram_rdata(rd64),
    .sum_valid(valid64), .sum(sum64)
);

wire         ready = wide ? ready64 : ready32;
wire         re = wide ? re64 : re32;
wire [AW-1:0] ra = wide ? ra64 : ra32;
wire         valid = wide ? valid64 : valid32;
wire [95:0]  sum = wide ? sum64 : sum32;

always #2 clk = ~clk;

// the RAMs: a registered read, as nic_ram's
always @(posedge clk) begin
    if (re64)
        rd64 <= mem64[ra64];
    if (re32)
        rd32 <= mem32[ra32];
end

integer seed, passes, p, i, j, o, bb, size, nw, clocks, reads, kind;
integer bad_sum, bad_valid, bad_ready, bad_reads, bad_hold, resets, wraps;
reg [31:0]  ref [0:2];
reg [7:0]   byte_at;
reg [AW-1:0] want_ra;

`include "tb_tick.vh"
`include "tb_tap.vh"

function [7:0] ram_byte;
    input w;
    input integer a;
    begin
        if (w)
            ram_byte = mem64[(a / 64) % (1 << AW)][8 * (a % 64) +: 8];
        else
            ram_byte = mem32[(a / 32) % (1 << AW)][8 * (a % 32) +: 8];
    end
endfunction

// a window bound: random, or one of the callers' shapes
function [13:0] pick;
    input integer n;
    integer r;
    begin
        r = $unsigned($random(seed)) % 6;
        if (r == 0)
            pick = 0;
        else if (r == 1)
            pick = 14'h3fff;
        else if (r == 2)
            pick = 16;
        else
            pick = $unsigned($random(seed)) % (n + 80);
    end
endfunction

initial begin
    if (!$value$plusargs("seed=%d", seed))
        seed = 1;
    if (!$value$plusargs("passes=%d", passes))
        passes = 400;
    bad_sum = 0;
    bad_valid = 0;
    bad_ready = 0;
    bad_reads = 0;
    bad_hold = 0;
    resets = 0;
    wraps = 0;
    for (i = 0; i < (1 << AW); i = i + 1) begin
        for (j = 0; j < 16; j = j + 1)
            mem64[i][32*j +: 32] = $random(seed);
        for (j = 0; j < 8; j = j + 1)
            mem32[i][32*j +: 32] = $random(seed);
    end
    rst = 1'b1;
    tick;
    rst = 1'b0;
    tick;
    for (p = 0; p < passes; p = p + 1) begin
        wide = p % 2;
        bb = wide ? 64 : 32;
        size = bb << AW;
        // a few words rewritten
        for (i = 0; i < 4; i = i + 1) begin
            j = $unsigned($random(seed)) % (1 << AW);
            mem64[j] = {16{$random(seed)}} ^ {$random(seed), $random(seed)};
            mem32[j] = {8{$random(seed)}} ^ {$random(seed), $random(seed)};
        end
        addr = 2 * ($unsigned($random(seed)) % (size / 2));
        len = 1 + $unsigned($random(seed)) % 3000;
        if ($unsigned($random(seed)) % 8 == 0)
            len = 1 + $unsigned($random(seed)) % 80;
        kind = $unsigned($random(seed)) % 4;
        for (i = 0; i < 3; i = i + 1) begin
            lo[14*i +: 14] = pick(len);
            hi[14*i +: 14] = pick(len);
        end
        if (kind == 0) begin
            // nic_rx's: all, the header and prefix, the suffix
            lo[13:0] = 0;
            hi[13:0] = 14'h3fff;
            lo[27:14] = 16;
            hi[41:28] = 14'h3fff;
        end
        if (addr + len > size)
            wraps = wraps + 1;
        for (i = 0; i < 3; i = i + 1)
            ref[i] = 0;
        for (o = 0; o < len; o = o + 1) begin
            byte_at = ram_byte(wide, addr + o);
            for (i = 0; i < 3; i = i + 1)
                if (o >= lo[14*i +: 14] && o < hi[14*i +: 14])
                    ref[i] = ref[i] + (o % 2 == 0 ? {16'd0, byte_at, 8'd0}
                                                  : {24'd0, byte_at});
        end
        nw = (addr % bb + len + bb - 1) / bb;
        // idle clocks now and then
        while ($unsigned($random(seed)) % 3 == 0)
            tick;
        if (!ready)
            bad_ready = bad_ready + 1;
        start = 1'b1;
        tick;
        start = 1'b0;
        clocks = 1;
        reads = 0;
        want_ra = (addr / bb) % (1 << AW);
        if ($unsigned($random(seed)) % 25 == 0) begin
            // a reset in the middle of the pass: the next one is whole
            for (i = 0; i < $unsigned($random(seed)) % (nw + 6); i = i + 1)
                tick;
            rst = 1'b1;
            tick;
            rst = 1'b0;
            if (!ready || valid)
                bad_ready = bad_ready + 1;
            resets = resets + 1;
        end else begin
            while (!valid && clocks < nw + 20) begin
                if (ready)
                    bad_ready = bad_ready + 1;
                if (re) begin
                    if (ra !== want_ra && bad_reads < SHOW)
                        $display("# pass %0d: word %0d read at %0d, expected %0d", p, reads, ra, want_ra);
                    if (ra !== want_ra)
                        bad_reads = bad_reads + 1;
                    want_ra = want_ra + 1;
                    reads = reads + 1;
                end
                tick;
                clocks = clocks + 1;
            end
            if (clocks != nw + 6) begin
                bad_valid = bad_valid + 1;
                if (bad_valid <= SHOW)
                    $display("# pass %0d: sum_valid %0d clocks after the start, expected %0d (%0d words)",
                             p, clocks, nw + 6, nw);
            end
            if (reads != nw) begin
                bad_reads = bad_reads + 1;
                if (bad_reads <= SHOW)
                    $display("# pass %0d: %0d words read, expected %0d", p, reads, nw);
            end
            for (i = 0; i < 3; i = i + 1)
                if (sum[32*i +: 32] !== ref[i]) begin
                    bad_sum = bad_sum + 1;
                    if (bad_sum <= SHOW)
                        $display("# pass %0d: %0d-byte words, [%0d, +%0d), window %0d [%0d, %0d): sum %h, expected %h",
                                 p, bb, addr, len, i, lo[14*i +: 14], hi[14*i +: 14], sum[32*i +: 32], ref[i]);
                end
            // they hold until the next start
            for (i = 0; i < 3; i = i + 1)
                tick;
            if (!valid || sum !== {ref[2], ref[1], ref[0]})
                bad_hold = bad_hold + 1;
        end
    end
    point(bad_sum == 0, "every window's sum equals the byte-by-byte sum (32- and 64-byte words, ranges wrapping at the RAM's end)");
    point(bad_valid == 0, "sum_valid rises n + 6 clocks after the start of a pass of n words, not before");
    point(bad_reads == 0, "a pass reads exactly its words, in order, from the range's first");
    point(bad_ready == 0, "start_ready is low while a pass runs and high after it (and after a reset)");
    point(bad_hold == 0, "the sums and sum_valid hold until the next start");
    point(wraps > 0 && resets > 0, "ranges wrapping at the RAM's end and resets mid-pass were exercised");
    $display("# %0d passes (%0d wrapping, %0d reset mid-pass): %0d wrong sums, %0d wrong valid, %0d wrong reads",
             passes, wraps, resets, bad_sum, bad_valid, bad_reads);
    $display("1..%0d", npoints);
    $finish;
end

endmodule
