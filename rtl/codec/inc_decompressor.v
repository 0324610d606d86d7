// SPDX-License-Identifier: MIT
/*
 * inc_decompressor: the INCEPTIONN gradient decompression engine.
 *
 * Takes one chunk body (docs/codec.md, sections 4-6) per AXI4-Stream packet
 * and emits the chunk's raw bytes, bit-exact with inc_chunk_decode() of the
 * C library (userspace/codec, the golden model), or flags the chunk.
 *
 * s_axis (body): 2 * 4 * LANES bytes per beat, tkeep contiguous from byte 0
 *   (any beat may be short); a body of 0 bytes is one beat with tkeep = 0.
 *   tuser on a chunk's first beat: [4:0] k (1..24), [6:5] mode (1 paper,
 *   2 sparse), [20:7] raw_len (bytes, 0..9000).
 * m_axis (raw): LANES 32-bit values per beat, tkeep contiguous, full but on
 *   the last beat; raw_len bytes in ceil(raw_len / (4 * LANES)) beats (one
 *   beat with tkeep = 0 for raw_len = 0). tuser[0], on the tlast beat: the
 *   chunk is malformed. A malformed chunk's output stops early: its tlast
 *   beat carries tkeep = 0 and tuser[0] = 1, so it never has more than
 *   raw_len bytes, and the rest of its body is dropped. The next chunk is
 *   decoded normally.
 * status_valid pulses once per chunk, with status_error, for counters.
 *
 * Malformed means (the C decoder's INC_ECORRUPT/INC_EINVAL cases): mode or
 * k out of range, raw_len over 9000, a sparse mask bit past the last group,
 * a present sparse group with tag word 0, a tag on a padding slot of the
 * short last group, a body shorter than its tags need, or longer.
 *
 * Line rate: with m_axis_tready held high and the body's beats available,
 * one raw beat leaves every clock, whatever the data, mode or chunk
 * boundaries.
 *
 * Structure: a byte window holds the next bytes of the body. Each clock the
 * parser takes one output beat's worth of groups from it: the segment's
 * header (mask and tag words) when the beat starts a segment, the groups'
 * payloads, and the tail bytes on the last beat; positions come from
 * prefix sums of the tag sizes. A pipeline register then unpacks and
 * dequantizes the lanes (inc_group_unpack, inc_dequant) into a 4-beat
 * output FIFO.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_decompressor #
(
    // 32-bit lanes per raw beat: 8 (256-bit) or 16 (512-bit)
    parameter LANES = 8
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [LANES*64-1:0]   s_axis_tdata,
    input  wire [LANES*8-1:0]    s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [20:0]           s_axis_tuser,

    output wire [LANES*32-1:0]   m_axis_tdata,
    output wire [LANES*4-1:0]    m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [0:0]            m_axis_tuser,

    output reg                   status_valid = 1'b0,
    output reg                   status_error = 1'b0
);

localparam W = LANES * 4;              // raw bytes per beat
localparam C = 2 * W;                  // body bytes per input beat
localparam GPB = LANES / 8;            // groups per beat
localparam NEED = 17 + 32 * GPB + 3;   // most bytes one step takes
localparam WIN = C + NEED;             // window bytes
localparam OCC_W = $clog2(WIN + 1);
localparam FILL = WIN - C;             // most bytes before taking a beat
localparam [15:0] FILL_MAX = FILL[15:0];
localparam NB_W = $clog2(C + 1);
localparam MAX_CHUNK = 9000;

// ---- chunk state ---------------------------------------------------------------

localparam [1:0] ST_IDLE = 2'd0,       // no chunk: the next beat starts one
                 ST_RUN = 2'd1,        // producing the chunk's beats
                 ST_DRAIN = 2'd2;      // dropping the rest of a bad body

reg  [1:0]  state = ST_IDLE;
reg  [13:0] c_raw_len = 0;
reg  [1:0]  c_mode = 0;
reg  [4:0]  c_k = 0;
reg         c_bad = 1'b0;              // parameters out of range
reg  [9:0]  b = 0;                     // output beat index
reg  [127:0] seg_tw = 0;               // tag words of the current segment

wire [11:0] c_n = c_raw_len[13:2];     // values
wire [1:0]  c_tail = c_raw_len[1:0];
wire [8:0]  c_groups = c_n[11:3] + {8'd0, c_n[2:0] != 3'd0};
// beats: at least one
wire [13:0] c_beats_m1 = c_raw_len == 0 ? 14'd0 : (c_raw_len - 14'd1) / W[13:0];
wire        c_sparse = c_mode == 2'd2;

// ---- the byte window ------------------------------------------------------------

reg  [WIN*8-1:0]  win = 0;             // zero past occ
reg  [OCC_W-1:0]  occ = 0;
reg               has_end = 1'b0;      // the chunk's last beat is in win

function [NB_W-1:0] count_keep;
    input [C-1:0] keep;
    integer i;
    begin
        count_keep = 0;
        for (i = 0; i < C; i = i + 1)
            count_keep = count_keep + {{(NB_W-1){1'b0}}, keep[i]};
    end
endfunction

wire [NB_W-1:0] in_nb = count_keep(s_axis_tkeep);
reg  [C*8-1:0]  in_data;               // tdata masked by tkeep
integer ki;
always @* begin
    for (ki = 0; ki < C; ki = ki + 1)
        in_data[8*ki +: 8] = s_axis_tkeep[ki] ? s_axis_tdata[8*ki +: 8] : 8'd0;
end

// ---- one step: the groups and tail of output beat b ------------------------------

// values, groups in this beat
wire [12:0] v_rem = {1'b0, c_n} - {b, 3'd0} * GPB[12:0];   // values from beat b on
wire [4:0]  vals = v_rem[12] ? 5'd0 : (v_rem >= LANES[12:0] ? LANES[4:0] : v_rem[4:0]);
wire [1:0]  groups = vals == 0 ? 2'd0 : (GPB == 2 && vals > 8) ? 2'd2 : 2'd1;
wire [9:0]  g0 = b * GPB[9:0];         // first group of the beat
wire [2:0]  pos = g0[2:0];             // its index in the segment
wire        seg_start = pos == 3'd0 && groups != 2'd0;
wire [8:0]  seg_left = c_groups - g0[8:0];
wire [3:0]  sg = seg_left >= 9'd8 ? 4'd8 : seg_left[3:0];
wire        last_beat = {4'd0, b} == c_beats_m1;

// header, parsed from the window when the beat starts a segment
wire [7:0]  all_present = 8'hff >> (4'd8 - sg);
wire [7:0]  hdr_mask = win[7:0];
wire        bad_mask = c_sparse && (hdr_mask & ~all_present) != 8'd0;
wire [7:0]  present = c_sparse ? hdr_mask : all_present;

function [3:0] popcount8;
    input [7:0] x;
    integer i;
    begin
        popcount8 = 0;
        for (i = 0; i < 8; i = i + 1)
            popcount8 = popcount8 + {3'd0, x[i]};
    end
endfunction

wire [4:0]  hdr_len = {popcount8(present), 1'b0} + {4'd0, c_sparse};
wire [135:0] hdr_bytes = win[135:0];  // a header is at most 17 bytes
reg  [127:0] hdr_tw;       // tag word of each group of the segment
reg         hdr_zero;      // a present group's tag word is 0
integer     hj;
always @* begin
    hdr_tw = 0;
    hdr_zero = 1'b0;
    for (hj = 0; hj < 8; hj = hj + 1) begin
        if (present[hj]) begin
            hdr_tw[16*hj +: 16] =
                hdr_bytes[{popcount8(present & ~(8'hff << hj)), 4'd0} +
                          (c_sparse ? 8'd8 : 8'd0) +: 16];
            if (hdr_tw[16*hj +: 16] == 16'd0)
                hdr_zero = 1'b1;
        end
    end
end
wire [127:0] cur_seg_tw = seg_start ? hdr_tw : seg_tw;

// tag words of this beat's groups (absent or missing groups: 0)
function [5:0] tw_bytes;
    input [15:0] tw;
    integer i;
    begin
        tw_bytes = 0;
        for (i = 0; i < 8; i = i + 1)
            tw_bytes = tw_bytes + (tw[2*i +: 2] == 2'd3 ? 6'd4 : {4'd0, tw[2*i +: 2]});
    end
endfunction

reg [GPB*16-1:0] step_tw;
reg [GPB*8-1:0]  step_off;   // payload offset of each group in the window
reg [7:0]        tail_off;
reg              pad_err;    // tags on padding slots of the last group
integer          sgi;
always @* begin
    tail_off = seg_start ? {3'd0, hdr_len} : 8'd0;
    pad_err = 1'b0;
    step_tw = 0;
    step_off = 0;
    for (sgi = 0; sgi < GPB; sgi = sgi + 1) begin
        if (sgi < groups) begin
            step_tw[16*sgi +: 16] = cur_seg_tw[{pos + sgi[2:0], 4'd0} +: 16];
            step_off[8*sgi +: 8] = tail_off;
            tail_off = tail_off + {2'd0, tw_bytes(step_tw[16*sgi +: 16])};
            // the chunk's last group, if short
            if (g0 + sgi[9:0] == {1'b0, c_groups} - 10'd1 && c_n[2:0] != 3'd0 &&
                (step_tw[16*sgi +: 16] >> {c_n[2:0], 1'b0}) != 16'd0)
                pad_err = 1'b1;
        end
    end
end

wire [7:0]      cn = tail_off + (last_beat ? {6'd0, c_tail} : 8'd0);
wire            enough = {{(16-OCC_W){1'b0}}, occ} >= {8'd0, cn};
// format errors, judged only on bytes that are in the window (or when no
// more are coming)
wire            fmt_err = (seg_start && (bad_mask || (c_sparse && hdr_zero))) ||
                          pad_err;
// truncated: the body ended before the bytes this beat needs
wire            short = !enough && has_end;
// longer: bytes left over after the last beat's
wire            extra = last_beat && enough &&
                        {{(16-OCC_W){1'b0}}, occ} > {8'd0, cn};

// output credit: FIFO entries not yet promised
reg  [2:0]      f_cnt = 0;
reg             p_valid = 1'b0;
wire            credit = {1'b0, f_cnt} + {3'd0, p_valid} < 4'd4;

wire            step_err = c_bad || ((enough || has_end) && fmt_err) ||
                           short || extra;
// a good last beat waits for the body's end (a trailing empty beat)
wire            step_go = state == ST_RUN && credit &&
                          (step_err || (enough && (!last_beat || has_end)));
wire            chunk_done = step_go && (last_beat || step_err);

// ---- window update and input ----------------------------------------------------

wire [OCC_W-1:0] consumed = step_go && !step_err ? cn[OCC_W-1:0] : {OCC_W{1'b0}};
wire [OCC_W-1:0] occ_after = occ - consumed;
wire [WIN*8-1:0] win_after = win >> {consumed, 3'd0};

// the chunk ends now; the next beat may start the next one
wire restart = state == ST_IDLE || (chunk_done && has_end);
// bytes of the current chunk still to come into the window
// (room for a whole beat, so that tready does not depend on tkeep)
wire fill_ok = state == ST_RUN && !has_end && !chunk_done &&
               {{(16-OCC_W){1'b0}}, occ_after} <= FILL_MAX;
wire drain_ok = state == ST_DRAIN || (chunk_done && !has_end);

assign s_axis_tready = restart || fill_ok || drain_ok;
wire in_take = s_axis_tvalid && s_axis_tready;

wire [13:0] u_raw_len = s_axis_tuser[20:7];
wire [1:0]  u_mode = s_axis_tuser[6:5];
wire [4:0]  u_k = s_axis_tuser[4:0];

always @(posedge clk) begin
    status_valid <= chunk_done;
    status_error <= chunk_done && step_err;

    if (step_go && !step_err) begin
        b <= b + 10'd1;
        if (seg_start)
            seg_tw <= hdr_tw;
    end

    if (restart) begin
        win <= 0;
        occ <= 0;
        has_end <= 1'b0;
        state <= ST_IDLE;
        if (in_take) begin
            win <= {{(WIN-C)*8{1'b0}}, in_data};
            occ <= {{(OCC_W-NB_W){1'b0}}, in_nb};
            has_end <= s_axis_tlast;
            state <= ST_RUN;
            c_raw_len <= u_raw_len;
            c_mode <= u_mode;
            c_k <= u_k;
            c_bad <= !(u_mode == 2'd1 || u_mode == 2'd2) ||
                     u_k < 5'd1 || u_k > 5'd24 || u_raw_len > MAX_CHUNK;
            b <= 0;
        end
    end else if (drain_ok) begin
        win <= 0;
        occ <= 0;
        state <= in_take && s_axis_tlast ? ST_IDLE : ST_DRAIN;
    end else begin
        win <= fill_ok && in_take ?
               (win_after | ({{(WIN-C)*8{1'b0}}, in_data} << {occ_after, 3'd0})) :
               win_after;
        occ <= occ_after + (fill_ok && in_take ? {{(OCC_W-NB_W){1'b0}}, in_nb} : {OCC_W{1'b0}});
        if (fill_ok && in_take)
            has_end <= s_axis_tlast;
    end

    if (rst) begin
        state <= ST_IDLE;
        win <= 0;
        occ <= 0;
        has_end <= 1'b0;
        status_valid <= 1'b0;
        status_error <= 1'b0;
    end
end

// ---- pipeline register: the step's groups and tail -------------------------------

reg  [GPB*16-1:0]  p_tw = 0;
reg  [GPB*256-1:0] p_pay = 0;
reg  [4:0]         p_vals = 0;
reg  [23:0]        p_tail = 0;
reg  [6:0]         p_keep = 0;    // bytes in the beat
reg                p_last = 1'b0;
reg                p_err = 1'b0;
reg  [4:0]         p_k = 0;

wire [WIN*8+255:0] win_ext = {256'd0, win};
// bytes in the last beat: raw_len - b * W, at most W, so mod 128 will do
wire [6:0]         b_bytes7 = GPB == 1 ? {b[1:0], 5'd0} : {b[0], 6'd0};
wire [6:0]         beat_bytes = c_raw_len[6:0] - b_bytes7;

integer pg;
always @(posedge clk) begin
    p_valid <= step_go;
    if (step_go) begin
        p_tw <= step_tw;
        for (pg = 0; pg < GPB; pg = pg + 1)
            p_pay[256*pg +: 256] <= win_ext[{step_off[8*pg +: 8], 3'd0} +: 256];
        // the tail bytes, on the last beat only
        p_tail <= win_ext[{tail_off, 3'd0} +: 24] &
                  (last_beat ? ~(24'hffffff << {c_tail, 3'd0}) : 24'd0);
        p_vals <= vals;
        p_keep <= step_err ? 7'd0 :
                  (last_beat ? beat_bytes : W[6:0]);
        p_last <= last_beat || step_err;
        p_err <= step_err;
        p_k <= c_k;
    end
    if (rst)
        p_valid <= 1'b0;
end

// ---- unpack and dequantize into the output FIFO ----------------------------------

wire [LANES*32-1:0] lanes;

genvar g, l;
generate
    for (g = 0; g < GPB; g = g + 1) begin : grp
        wire [255:0] words;
        inc_group_unpack unpack (
            .tw(p_tw[16*g +: 16]),
            .payload(p_pay[256*g +: 256]),
            .words(words)
        );
        for (l = 0; l < 8; l = l + 1) begin : lane
            wire [31:0] v;
            inc_dequant dq (
                .tag(p_tw[16*g + 2*l +: 2]),
                .payload(words[32*l +: 32]),
                .k(p_k),
                .value(v)
            );
            assign lanes[32*(8*g + l) +: 32] = p_vals > (8*g + l) ? v : 32'd0;
        end
    end
endgenerate

// the tail bytes follow the last value (there is none when the beat is full)
wire [LANES*32-1:0]  beat_data = lanes |
                                 ({{(LANES*32-24){1'b0}}, p_tail} << {p_vals, 5'd0});
wire [W-1:0]         beat_keep = ~({W{1'b1}} << p_keep);

reg [LANES*32-1:0] f_data [0:3];
reg [W-1:0]        f_keep [0:3];
reg                f_last [0:3];
reg                f_err [0:3];
reg [1:0]          f_wp = 0, f_rp = 0;

wire pop = m_axis_tvalid && m_axis_tready;

assign m_axis_tvalid = f_cnt != 3'd0;
assign m_axis_tdata = f_data[f_rp];
assign m_axis_tkeep = f_keep[f_rp];
assign m_axis_tlast = f_last[f_rp];
assign m_axis_tuser = f_err[f_rp];

always @(posedge clk) begin
    if (p_valid) begin
        f_data[f_wp] <= p_err ? {LANES*32{1'b0}} : beat_data;
        f_keep[f_wp] <= beat_keep;
        f_last[f_wp] <= p_last;
        f_err[f_wp] <= p_err;
        f_wp <= f_wp + 2'd1;
    end
    if (pop)
        f_rp <= f_rp + 2'd1;
    f_cnt <= f_cnt + {2'd0, p_valid} - {2'd0, pop};
    if (rst) begin
        f_wp <= 0;
        f_rp <= 0;
        f_cnt <= 0;
    end
end

endmodule

`resetall
