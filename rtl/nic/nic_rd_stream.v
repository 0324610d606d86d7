// SPDX-License-Identifier: MIT
/*
 * nic_rd_stream: reads a byte range out of a nic_ram and sends it as an
 * AXI4-Stream of beats as wide as the RAM's words (32 or 64 bytes), realigned so the range's first byte is
 * byte 0 of the first beat; tkeep is full but on the last beat. A range of
 * 0 bytes is one beat with tkeep = 0 and tlast.
 *
 * Addresses wrap at the RAM's size, so a frame may straddle the end of a
 * ring. Up to four words are in flight or queued; with m_axis_tready high
 * a beat leaves every clock after a three-clock start, aligned or not.
 *
 * The outputs are registered (a two-entry skid buffer: m_axis_* and
 * m_axis_tlen come from flip-flops, and so does the ready of the stage in
 * front of it), so a consumer's logic does not add to the byte rotation's.
 * m_axis_tlen is the beat's byte count (tkeep's set bits, 0..BB). A new
 * range starts (start_ready) only when the last one has left entirely; or,
 * with QUEUE = 1, as soon as the last one's words have all been read: its
 * words follow in the queue and its first beat follows the last one's last
 * beat with no gap (each range still ends with tlast).
 *
 * The range's counts (nic_rd_count: words, beats, last beat) are made from
 * start_addr and start_len as it starts; with PRECOUNT = 1 the caller
 * gives them in start_cnt instead, made a clock ahead from registers (so
 * its choice of range is not in front of the counts' adders).
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_rd_stream #
(
    // the RAM's word and the beat, bits (256 or 512)
    parameter DATA_W = 256,
    // log2 of the RAM's number of words
    parameter ADDR_W = 9,
    // 1: a range may be started while the last one's beats still go out
    // (see above); 0: only once it has left
    parameter QUEUE = 0,
    // 1: the range's counts come in start_cnt; 0: made here (start_cnt
    // unused)
    parameter PRECOUNT = 0,
    // bytes per word, their log2, and nic_rd_count's width (derived: leave
    // them)
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB),
    parameter CNT_W = 26 + BS
)
(
    input  wire                clk,
    input  wire                rst,

    // start a range: start is a byte address in the RAM
    input  wire                start_valid,
    output wire                start_ready,
    input  wire [ADDR_W+BS-1:0] start_addr,
    input  wire [15:0]         start_len,
    input  wire [CNT_W-1:0]    start_cnt,   // PRECOUNT: nic_rd_count's

    // the RAM's read port
    output wire                ram_re,
    output wire [ADDR_W-1:0]   ram_raddr,
    input  wire [DATA_W-1:0]   ram_rdata,

    output reg  [DATA_W-1:0]   m_axis_tdata = 0,
    output reg  [BB-1:0]       m_axis_tkeep = 0,
    output reg                 m_axis_tvalid = 1'b0,
    input  wire                m_axis_tready,
    output reg                 m_axis_tlast = 1'b0,
    output reg  [BS:0]         m_axis_tlen = 0
);

// the words to read (of the newest range started)
reg [ADDR_W-1:0] rd_word = 0;     // next word to read
reg [11:0]       words_left = 0;  // words still to read
// the range whose beats are being made (busy)
reg              busy = 1'b0;
reg [11:0]       beats_left = 0;  // beats still to send
reg [BS-1:0]     shift = 0;       // byte offset of the range in its word
reg [BS:0]       last_keep = 0;   // bytes in the last beat, 0..BB
reg              extra = 1'b0;    // one word more than beats (the last beat's second)
// QUEUE: the range after it, its words read or being read
reg              n_valid = 1'b0;
reg [11:0]       n_beats_left = 0;
reg [BS-1:0]     n_shift = 0;
reg [BS:0]       n_last_keep = 0;
reg              n_extra = 1'b0;

localparam [BS:0] BBN = BB[BS:0];

// words read and not yet used: a 4-entry queue, plus the one in flight
reg [DATA_W-1:0] q [0:3];
reg [1:0]   q_rp = 0, q_wp = 0;
reg [2:0]   q_cnt = 0;
reg         inflight = 1'b0;

// the output stage's second entry
reg         k_valid = 1'b0, k_last = 1'b0;
reg [DATA_W-1:0] k_data = 0;
reg [BB-1:0]     k_keep = 0;
reg [BS:0]       k_len = 0;

// (QUEUE: the clock the last word is read will do; the start's counts
// replace the decrement)
assign start_ready = QUEUE != 0 ? (words_left == 0 || (words_left == 12'd1 && ram_re)) &&
                                  !n_valid :
                     !busy && !m_axis_tvalid && !k_valid;

wire take_start = start_valid && start_ready;
// the words the range touches, the beats it takes, its last beat's bytes
// and whether that beat takes two words (nic_rd_count)
wire [CNT_W-1:0] own_cnt;
nic_rd_count #(.BB(BB)) count (
    .s(start_addr[BS-1:0]), .len(start_len), .cnt(own_cnt)
);
wire [11:0]  n_words, n_beats;
wire [BS:0]  s_last_keep;
wire         s_extra;
assign {n_words, n_beats, s_last_keep, s_extra} = PRECOUNT != 0 ? start_cnt : own_cnt;

// (the queue's four entries: a beat of an unaligned range uses two words,
// so with three it would wait a clock in three)
assign ram_re = busy && words_left != 0 && ({1'b0, q_cnt} + {3'd0, inflight}) < 4'd4;
assign ram_raddr = rd_word;

// a beat needs its word and, unless the range ends inside it, the next
wire        last_beat = beats_left == 12'd1;
wire        need_two = shift != 0 && !(last_beat && {1'b0, shift} + last_keep <= BBN);
wire        have = q_cnt >= (need_two ? 3'd2 : 3'd1) || (busy && last_beat && last_keep == 0);
// (the index in a wire of its own: a simulator may size q_rp + 1 wider
// in an index and read past the array)
wire [1:0]  q_rp1 = q_rp + 2'd1;
// the beat, before the output stage: its bytes from the word pair at the
// range's offset (a function, evaluated where a register takes the beat:
// a simulator shifts the pair only for a beat)
wire              c_valid = busy && have;
// (the pair shifted down by s bytes in stages, the coarse first, so that
// each later stage is only as wide as what is kept of it: a byte
// part-select, p[8*s +: DATA_W], is a shifter whose fine stages come
// first, each over the whole pair)
function [DATA_W-1:0] c_word;
    input [DATA_W-1:0] w0, w1;
    input [BS-1:0]     s;
    reg   [2*DATA_W-1:0] p;
    integer b;
    begin
        p = {w1, w0};
        for (b = BS - 1; b >= 0; b = b - 1)
            if (s[b])
                p = p >> (8 << b);
        c_word = p[DATA_W-1:0];
    end
endfunction
wire [BB-1:0]     c_keep = last_beat ? ~({BB{1'b1}} << last_keep) : {BB{1'b1}};
wire [BS:0]       c_len = last_beat ? last_keep : BBN;
wire         c_ready = !k_valid;
wire pop = c_valid && c_ready;

// the output stage: the beat goes out, or waits in the second entry while
// the output is stalled (then c_ready falls a clock later)
always @(posedge clk) begin
    if (!m_axis_tvalid || m_axis_tready) begin
        if (k_valid) begin
            m_axis_tdata <= k_data;
            m_axis_tkeep <= k_keep;
            m_axis_tlast <= k_last;
            m_axis_tlen <= k_len;
            m_axis_tvalid <= 1'b1;
            k_valid <= 1'b0;
        end else begin
            // (the data only with a beat: held while tvalid is low)
            if (c_valid)
                m_axis_tdata <= c_word(q[q_rp], q[q_rp1], shift);
            m_axis_tkeep <= c_keep;
            m_axis_tlast <= last_beat;
            m_axis_tlen <= c_len;
            m_axis_tvalid <= c_valid;
        end
    end else if (pop) begin
        k_data <= c_word(q[q_rp], q[q_rp1], shift);
        k_keep <= c_keep;
        k_last <= last_beat;
        k_len <= c_len;
        k_valid <= 1'b1;
    end
    if (rst) begin
        m_axis_tvalid <= 1'b0;
        k_valid <= 1'b0;
    end
end
// each beat uses one word, the last one its second too if it has one, or
// none for an empty range
wire [2:0] used = !pop ? 3'd0 :
                  !last_beat ? 3'd1 :
                  last_keep == 0 ? 3'd0 : 3'd1 + {2'd0, extra};
wire cur_end = pop && last_beat;

always @(posedge clk) begin
    inflight <= ram_re;
    if (inflight) begin
        q[q_wp] <= ram_rdata;
        q_wp <= q_wp + 2'd1;
    end
    q_cnt <= q_cnt + {2'd0, inflight} - used;
    q_rp <= q_rp + used[1:0];

    if (ram_re) begin
        rd_word <= rd_word + 1'b1;
        words_left <= words_left - 12'd1;
    end
    if (pop)
        beats_left <= beats_left - 12'd1;
    if (take_start) begin
        rd_word <= start_addr[ADDR_W+BS-1:BS];
        words_left <= n_words;
    end
    // the beats' range: the next one's after this one's last beat (or the
    // one starting now)
    if (cur_end && n_valid) begin
        beats_left <= n_beats_left;
        shift <= n_shift;
        last_keep <= n_last_keep;
        extra <= n_extra;
        n_valid <= 1'b0;
    end else if (take_start && (!busy || cur_end)) begin
        busy <= 1'b1;
        beats_left <= n_beats;
        shift <= start_addr[BS-1:0];
        last_keep <= s_last_keep;
        extra <= s_extra;
    end else if (take_start) begin
        n_valid <= 1'b1;
        n_beats_left <= n_beats;
        n_shift <= start_addr[BS-1:0];
        n_last_keep <= s_last_keep;
        n_extra <= s_extra;
    end else if (cur_end) begin
        busy <= 1'b0;
    end
    if (rst) begin
        busy <= 1'b0;
        n_valid <= 1'b0;
        words_left <= 0;
        inflight <= 1'b0;
        q_cnt <= 0;
        q_rp <= 0;
        q_wp <= 0;
    end
end

endmodule

`resetall
