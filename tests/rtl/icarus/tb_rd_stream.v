// SPDX-License-Identifier: MIT
/*
 * tb_rd_stream: nic_rd_stream (a byte range of a nic_ram as a realigned
 * beat stream) at 32- and 64-byte beats, with QUEUE 0 and 1 (the counts
 * its own, and given in start_cnt: PRECOUNT 1), against the
 * RAM's bytes: random ranges (empty, inside a word, across words, wrapping
 * at the RAM's end, up to 1000 bytes) at random byte addresses, started at
 * random clocks or as soon as start_ready allows, under random tready.
 * Every beat: its bytes, tkeep (full but on the last beat), tlen, tlast.
 * With QUEUE = 1 and no back-pressure, a range follows one of four beats or
 * more within one idle clock (none, unless the read port needs a clock for
 * a word more than the beats: an unaligned range); with QUEUE = 0 a range
 * starts only after the last one has left (up to five idle clocks).
 *
 * usage: vvp tb_rd_stream.vvp [+ranges=N] [+seed=S]
 *
 * Output: TAP, one point per check.
 */

`timescale 1ns / 1ps
`default_nettype none

// One reader on one RAM, with its driver and its checker; run pulses start
// a test of n ranges (eager: start and tready always high).
module tb_rd_stream_h #
(
    parameter DATA_W = 256,
    parameter QUEUE = 0,
    // 1: the range's counts are given (start_cnt, nic_rd_count's), as the
    // NIC's queued readers have them
    parameter PRECOUNT = 0
)
(
    input  wire        clk,
    input  wire        run,
    input  wire        eager,
    input  wire [31:0] n,
    input  wire [31:0] seed_in,
    output reg         done = 1'b0,
    output reg  [31:0] errors = 0,
    output reg  [31:0] beats = 0,
    // clocks without a beat between the end of a range of 4 beats or more
    // and the next range's first beat (eager runs)
    output reg  [31:0] gaps = 0,
    output reg  [31:0] trans = 0,       // (those ranges)
    output reg  [31:0] max_gap = 0,
    // clocks where a start was taken while the last range's beats were
    // still going out
    output reg  [31:0] overlaps = 0
);

localparam BB = DATA_W / 8;
localparam BS = $clog2(BB);
localparam ADDR_W = 5;                  // 32 words
localparam RAM_BYTES = BB << ADDR_W;

function [7:0] pat;                     // the RAM's byte at address a
    input [31:0] a;
    pat = a[7:0] ^ {a[10:8], 5'd0} ^ 8'h5a ^ (a[7:0] >> 3);
endfunction

reg               rst = 1'b1;
reg               we = 1'b0;
reg  [ADDR_W-1:0] waddr = 0;
reg  [DATA_W-1:0] wdata = 0;
wire              re;
wire [ADDR_W-1:0] raddr;
wire [DATA_W-1:0] rdata;

nic_ram #(.WIDTH(DATA_W), .ADDR_W(ADDR_W)) ram (
    .clk(clk), .we(we), .waddr(waddr), .wdata(wdata),
    .re(re), .raddr(raddr), .rdata(rdata)
);

reg               s_valid = 1'b0;
wire              s_ready;
reg  [ADDR_W+BS-1:0] s_addr = 0;
reg  [15:0]       s_len = 0;
wire [DATA_W-1:0] t_data;
wire [BB-1:0]     t_keep;
wire              t_valid, t_last;
reg               t_ready = 1'b0;
wire [BS:0]       t_len;

wire [26+BS-1:0]   s_cnt;

nic_rd_count #(.BB(BB)) count (.s(s_addr[BS-1:0]), .len(s_len), .cnt(s_cnt));

nic_rd_stream #(.DATA_W(DATA_W), .ADDR_W(ADDR_W), .QUEUE(QUEUE), .PRECOUNT(PRECOUNT)) dut (
    .clk(clk), .rst(rst),
    .start_valid(s_valid), .start_ready(s_ready),
    .start_addr(s_addr), .start_len(s_len),
    .start_cnt(PRECOUNT != 0 ? s_cnt : {(26 + BS){1'b0}}),
    .ram_re(re), .ram_raddr(raddr), .ram_rdata(rdata),
    .m_axis_tdata(t_data), .m_axis_tkeep(t_keep), .m_axis_tvalid(t_valid),
    .m_axis_tready(t_ready), .m_axis_tlast(t_last), .m_axis_tlen(t_len)
);

// the ranges started and not yet checked to their end
reg  [31:0] q_addr [0:15];
reg  [15:0] q_len [0:15];
reg  [3:0]  q_wp = 0, q_rp = 0;
reg  [4:0]  q_cnt = 0;
reg  [15:0] pos = 0;                    // bytes of the head range seen
integer     seed, started, ended, i, gap_run, prev_beats, cur_beats;
reg         in_range;
reg  [BS:0] want_len;
reg         ok, took;

`include "tb_tick.vh"

// a random range for the next start
task next_range;
    integer kind;
    begin
        kind = $unsigned($random(seed)) % 8;
        s_addr = $unsigned($random(seed)) % RAM_BYTES;
        case (kind)
        0: s_len = 0;
        1: s_len = 1 + $unsigned($random(seed)) % BB;
        2: s_len = BB - (s_addr % BB);                  // to the word's end
        3: s_len = BB * (1 + $unsigned($random(seed)) % 6);
        4: s_len = 1 + $unsigned($random(seed)) % 1000;
        default: s_len = 1 + $unsigned($random(seed)) % (5 * BB);
        endcase
    end
endtask

always begin
    wait (run);
    seed = seed_in;
    errors = 0;
    beats = 0;
    gaps = 0;
    trans = 0;
    max_gap = 0;
    overlaps = 0;
    done = 1'b0;
    // the RAM's bytes, then out of reset
    rst = 1'b1;
    for (i = 0; i < (1 << ADDR_W); i = i + 1) begin
        waddr = i;
        for (started = 0; started < BB; started = started + 1)
            wdata[8 * started +: 8] = pat(i * BB + started);
        we = 1'b1;
        tick;
    end
    we = 1'b0;
    tick;
    rst = 1'b0;
    q_wp = 0;
    q_rp = 0;
    q_cnt = 0;
    pos = 0;
    started = 0;
    ended = 0;
    gap_run = 0;
    prev_beats = 0;
    cur_beats = 0;
    in_range = 1'b0;
    next_range;
    while (ended < n) begin
        // this clock's inputs
        s_valid = started < n && q_cnt < 15 && (eager || $unsigned($random(seed)) % 3 != 0);
        t_ready = eager || $unsigned($random(seed)) % 4 != 0;
        #0;
        // what happens at the edge, seen before it
        if (t_valid && t_ready) begin
            if (q_cnt == 0) begin
                errors = errors + 1;
                $display("# %0d/%0d: a beat with no range started", DATA_W, QUEUE);
            end else begin
                want_len = q_len[q_rp] - pos > BB ? BB : q_len[q_rp] - pos;
                ok = t_len == want_len &&
                     t_keep == ~({BB{1'b1}} << want_len) &&
                     t_last == (pos + want_len >= q_len[q_rp]);
                for (i = 0; i < BB; i = i + 1)
                    if (i < want_len &&
                        t_data[8 * i +: 8] !== pat((q_addr[q_rp] + pos + i) % RAM_BYTES)) begin
                        if (ok && errors < 5)
                            $display("# byte %0d: %h, want %h", i, t_data[8 * i +: 8],
                                     pat((q_addr[q_rp] + pos + i) % RAM_BYTES));
                        ok = 1'b0;
                    end
                if (!ok) begin
                    errors = errors + 1;
                    if (errors < 5)
                        $display("# %0d/%0d: range %0d (%0d bytes at %0d), beat at byte %0d: tlen %0d keep %h last %0d",
                                 DATA_W, QUEUE, ended, q_len[q_rp], q_addr[q_rp], pos,
                                 t_len, t_keep, t_last);
                end
                beats = beats + 1;
                cur_beats = cur_beats + 1;
                // a gap counts only after a range of 4 beats or more
                if (eager && !in_range && prev_beats >= 4) begin
                    gaps = gaps + gap_run;
                    trans = trans + 1;
                    if (gap_run > max_gap)
                        max_gap = gap_run;
                end
                in_range = 1'b1;
                gap_run = 0;
                pos = pos + want_len;
                if (t_last) begin
                    q_rp = q_rp + 1;
                    q_cnt = q_cnt - 1;
                    ended = ended + 1;
                    pos = 0;
                    in_range = 1'b0;
                    prev_beats = cur_beats;
                    cur_beats = 0;
                end
            end
        end else if (!in_range && ended != 0) begin
            gap_run = gap_run + 1;
        end
        if (s_valid && s_ready) begin
            if (q_cnt != 0 && QUEUE == 0) begin
                errors = errors + 1;
                if (errors < 5)
                    $display("# %0d/%0d: a start taken while range %0d is not done",
                             DATA_W, QUEUE, ended);
            end
            if (q_cnt != 0)
                overlaps = overlaps + 1;
            q_addr[q_wp] = s_addr;
            q_len[q_wp] = s_len;
            q_wp = q_wp + 1;
            q_cnt = q_cnt + 1;
            started = started + 1;
        end
        took = s_valid && s_ready;
        tick;
        if (took)
            next_range;
        if (started > ended + 14 || gap_run > 100) begin
            errors = errors + 1;
            $display("# %0d/%0d: stuck (%0d started, %0d ended)", DATA_W, QUEUE, started, ended);
            ended = n;
        end
    end
    s_valid = 1'b0;
    t_ready = 1'b0;
    done = 1'b1;
    wait (!run);
    done = 1'b0;
end

endmodule

module tb_rd_stream;

reg clk = 1'b0;
always #2 clk = ~clk;

reg  [3:0]  run = 0;
reg         eager = 1'b0;
integer     seed, nr, k;
reg [8*100:1] cfg;
reg [8*200:1] what;
wire [3:0]  done;
wire [31:0] errors [0:3];
wire [31:0] beats [0:3];
wire [31:0] gaps [0:3];
wire [31:0] overlaps [0:3];
wire [31:0] trans [0:3];
wire [31:0] max_gap [0:3];

tb_rd_stream_h #(.DATA_W(256), .QUEUE(0)) h0 (
    .clk(clk), .run(run[0]), .eager(eager), .n(nr), .seed_in(seed), .done(done[0]),
    .errors(errors[0]), .beats(beats[0]), .gaps(gaps[0]), .trans(trans[0]), .max_gap(max_gap[0]), .overlaps(overlaps[0]));
tb_rd_stream_h #(.DATA_W(512), .QUEUE(0)) h1 (
    .clk(clk), .run(run[1]), .eager(eager), .n(nr), .seed_in(seed), .done(done[1]),
    .errors(errors[1]), .beats(beats[1]), .gaps(gaps[1]), .trans(trans[1]), .max_gap(max_gap[1]), .overlaps(overlaps[1]));
tb_rd_stream_h #(.DATA_W(256), .QUEUE(1), .PRECOUNT(1)) h2 (
    .clk(clk), .run(run[2]), .eager(eager), .n(nr), .seed_in(seed), .done(done[2]),
    .errors(errors[2]), .beats(beats[2]), .gaps(gaps[2]), .trans(trans[2]), .max_gap(max_gap[2]), .overlaps(overlaps[2]));
tb_rd_stream_h #(.DATA_W(512), .QUEUE(1), .PRECOUNT(1)) h3 (
    .clk(clk), .run(run[3]), .eager(eager), .n(nr), .seed_in(seed), .done(done[3]),
    .errors(errors[3]), .beats(beats[3]), .gaps(gaps[3]), .trans(trans[3]), .max_gap(max_gap[3]), .overlaps(overlaps[3]));

`include "tb_tap.vh"

initial begin
    if (!$value$plusargs("seed=%d", seed))
        seed = 1;
    if (!$value$plusargs("ranges=%d", nr))
        nr = 2000;
    for (k = 0; k < 8; k = k + 1) begin
        eager = k >= 4;
        run[k % 4] = 1'b1;
        wait (done[k % 4]);
        $display("# %0d bytes a beat, QUEUE %0d, %0s: %0d ranges, %0d beats, %0d starts while a range was going out, %0d idle clocks after the %0d ranges of 4+ beats (at most %0d after one)",
                 (k % 2) ? 64 : 32, (k % 4) / 2, eager ? "no back-pressure" : "random starts and tready",
                 nr, beats[k % 4], overlaps[k % 4], gaps[k % 4], trans[k % 4], max_gap[k % 4]);
        $sformat(cfg, "%0d-byte beats, QUEUE %0d, %0s", (k % 2) ? 64 : 32, (k % 4) / 2,
                 eager ? "no back-pressure" : "random starts and tready");
        $sformat(what, "%0s: every beat's bytes, tkeep, tlen and tlast as the RAM and the ranges say",
                 cfg);
        point(errors[k % 4] == 0, what);
        if (k % 4 >= 2) begin
            $sformat(what, "%0s: ranges are started while the last one still goes out", cfg);
            point(overlaps[k % 4] > nr / 4, what);
        end
        if (k >= 6) begin
            $sformat(what, "%0s: a range follows one of 4 beats or more within one idle clock",
                     cfg);
            point(max_gap[k % 4] <= 1 && trans[k % 4] > nr / 5, what);
        end
        run[k % 4] = 1'b0;
        #10;
    end
    $display("1..%0d", npoints);
    $finish;
end

endmodule
