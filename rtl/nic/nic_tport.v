// SPDX-License-Identifier: MIT
/*
 * nic_tport: the engine test port (register map 1.5, FEATURES bit 14,
 * block 0x0540 and the windows 0x2000/0x2800; docs/regmap.md). Through it
 * the management firmware feeds one known chunk through the datapath's
 * own codec engines (nic_tx's inc_compressor, nic_rx's inc_decompressor
 * and, at 16 lanes, inc_width_decompressor: not copies) and reads what
 * comes out: the boot self-test of docs/firmware.md.
 *
 *   offset          name       host  core  here
 *   0x540           TP_CTRL    RO    RW    [1] DECOMP, [3:2] mode, [8:4] k
 *                                          (kept); a write with bit 0
 *                                          START runs; bit 31 CANCEL
 *                                          withdraws a request the engine
 *                                          has not granted yet (START and
 *                                          CANCEL read 0)
 *   0x544           TP_LEN     RO    RW    [15:0] input bytes, [29:16]
 *                                          raw_len (the decompressor's)
 *   0x548           TP_STATUS  RO    RO    [0] BUSY, [1] DONE, [2] ERROR
 *                                          (the engine flagged the chunk),
 *                                          [3] OVERFLOW (output past
 *                                          TP_OUT: the rest dropped), [4]
 *                                          REFUSED (bad parameters, nothing
 *                                          ran), [5] CANCELLED (withdrawn,
 *                                          or the engine was reset under
 *                                          the run); [31:16] output bytes
 *   0x54c           TP_INFO    RO    RO    [15:0] TP_IN's bytes, [31:16]
 *                                          TP_OUT's (256 each)
 *   0x2000..0x20ff  TP_IN      -     WO    the input chunk, word n bytes
 *                                          4n..4n+3 little-endian
 *   0x2800..0x28ff  TP_OUT     RO    RO    the engine's output, likewise
 *
 * (256 bytes each: the self-test's vectors are 32 values, 128 raw bytes;
 * TP_OUT is 64 words of LUT RAM read asynchronously into nic_csr's
 * response register, as MBOX_RSP is, so that read path is no deeper.)
 *
 * nic_csr decodes the offsets and the core's rights; this block takes the
 * core's writes (w_*) and answers a read address combinationally (r_*), as
 * nic_mgmt does.
 *
 * A run: START raises the request of the engine's side (tx_req: the
 * compressor; rx_req: the decompressors). nic_tx / nic_rx grant it between
 * frames: no new range (body) starts while the request is up, and the
 * grant comes once the one in flight has left the engine (its last output
 * beat taken by the datapath), so no frame is cut, held inside the engine,
 * reordered or altered; the datapath's next frame waits until the run
 * ends. Granted, the port streams the input as one chunk, one beat a clock
 * (TP_IN is LUT RAM read asynchronously into the beat register), and
 * captures each output beat into a register that it writes into TP_OUT a
 * 32-bit word a clock (the engine held by tready meanwhile). After the
 * chunk's last output beat the request drops (and the grant with it, a
 * clock later): DONE. A reset of the engine's side under the run (a queue
 * flush) takes the grant away: DONE | CANCELLED.
 *
 * The handshake signals to the engines are registers, one per engine
 * (tx_s_tvalid, rx_p_s_tvalid, rx_w_s_tvalid; tx_m_tready, rx_p_m_tready,
 * rx_w_m_tready), each 0 unless the run is that engine's: nic_tx and
 * nic_rx OR them into the datapath's own (which are 0 while the port has
 * the engine), so the engines' handshake paths gain no logic level; the
 * data, keep, last and user inputs go through a 2:1 multiplexer whose
 * select is the grant register.
 *
 * Before the grant the run may wait for as long as the datapath holds its
 * engine (a frame whose body the datapath cannot take out, e.g. with its
 * MAC stopped); the firmware bounds its wait and CANCELs.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_tport #
(
    // codec lanes (8 or 16): a raw beat is 32 LANES bits, a body beat of
    // the compressor 64 LANES bits; width mode only with 16
    parameter LANES = 16,
    // width mode built (1, at 16 lanes only; inc_nic's WIDTH)
    parameter WIDTH = 1,
    // the beat in bits and bytes, and log2 of its bytes (derived: leave them)
    parameter DATA_W = 32 * LANES,
    parameter BB = DATA_W / 8,
    parameter BS = $clog2(BB)
)
(
    input  wire              clk,
    input  wire              rst,

    // the core's writes (nic_csr checked its rights): offset, a whole word
    input  wire              w_en,
    input  wire [15:0]       w_addr,
    input  wire [31:0]       w_data,
    // a read: the register at r_addr (the block's offsets; others read 0)
    input  wire [15:0]       r_addr,
    output reg  [31:0]       r_data,

    // the feed, to the engine granted (nic_tx's or nic_rx's input mux);
    // its valid, one register per engine (0 unless the run is its)
    output reg  [DATA_W-1:0] f_tdata = 0,
    output reg  [BB-1:0]     f_tkeep = 0,
    output reg               f_tlast = 1'b0,
    output reg               tx_s_tvalid = 1'b0,
    output reg               rx_p_s_tvalid = 1'b0,   // inc_decompressor
    output reg               rx_w_s_tvalid = 1'b0,   // inc_width_decompressor
    output wire [4:0]        f_k,          // tuser fields
    output wire [1:0]        f_mode,
    output wire [13:0]       f_raw_len,

    // the compressor (nic_tx)
    output reg               tx_req = 1'b0,
    input  wire              tx_gnt,
    input  wire              tx_s_tready,
    input  wire [2*DATA_W-1:0] tx_m_tdata,
    input  wire [2*BB-1:0]   tx_m_tkeep,
    input  wire              tx_m_tvalid,
    output reg               tx_m_tready = 1'b0,
    input  wire              tx_m_tlast,
    input  wire              tx_m_terr,    // tuser[7]: the chunk was flagged

    // the decompressor of f_mode (nic_rx: the width one for mode 3)
    output reg               rx_req = 1'b0,
    input  wire              rx_gnt,
    input  wire              rx_s_tready,
    input  wire [DATA_W-1:0] rx_m_tdata,
    input  wire [BB-1:0]     rx_m_tkeep,
    input  wire              rx_m_tvalid,
    output reg               rx_p_m_tready = 1'b0,   // (registers, as the valids)
    output reg               rx_w_m_tready = 1'b0,
    input  wire              rx_m_tlast,
    input  wire              rx_m_terr,    // tuser[0]: malformed

    // a run in progress (the NIC is not idle)
    output wire              busy
);

`include "inc_nic_regs.vh"

localparam IN_BYTES = INC_TP_IN_BYTES;
localparam OUT_BYTES = INC_TP_OUT_BYTES;
localparam IN_BEATS = IN_BYTES / BB;        // TP_IN in beats
localparam IB_AW = $clog2(IN_BEATS);
localparam WPB = BB / 4;                    // 32-bit words a raw beat
localparam WPB_W = $clog2(WPB);
localparam OUT_WORDS = OUT_BYTES / 4;
localparam OW_AW = $clog2(OUT_WORDS);
localparam OB = 2 * BB;                     // bytes of a captured beat
localparam WIDTH_OK = LANES == 16 && WIDTH != 0;

localparam [15:0] A_CTRL = INC_TP_CTRL[15:0], A_LEN = INC_TP_LEN[15:0],
                  A_STATUS = INC_TP_STATUS[15:0], A_INFO = INC_TP_INFO[15:0];
localparam [15:0] IN_LEN_MAX = IN_BYTES[15:0];
localparam [15:0] BB16 = BB[15:0];
localparam [OW_AW:0] OUT_WORDS_C = OUT_WORDS[OW_AW:0];
localparam [31:0] INFO = {OUT_BYTES[15:0], IN_BYTES[15:0]};

// ---- registers ----
reg        decomp = 1'b0;
reg        wid = 1'b0;          // mode 3: the width decompressor
reg  [1:0] mode = 2'd0;
reg  [4:0] k = 5'd0;
reg  [15:0] in_len = 16'd0;
reg  [13:0] raw_len = 14'd0;
reg        st_done = 1'b0, st_err = 1'b0, st_over = 1'b0, st_refused = 1'b0,
           st_cancel = 1'b0;
reg  [15:0] out_len = 16'd0;     // output bytes (also those dropped)

assign f_k = k;
assign f_mode = mode;
assign f_raw_len = raw_len;

// ---- the run ----
localparam [1:0] S_IDLE = 2'd0, S_WAIT = 2'd1, S_RUN = 2'd2;
reg  [1:0] state = S_IDLE;
assign busy = state != S_IDLE;

wire gnt = decomp ? rx_gnt : tx_gnt;
wire s_tready = decomp ? rx_s_tready : tx_s_tready;

// feed: the beat register, bytes left to feed, the next beat's index
reg         f_valid = 1'b0;         // (= the valid register of the run's engine)
reg  [15:0] f_left = 16'd0;
reg         f_more = 1'b0;           // a beat (maybe the one empty beat) to feed
reg  [IB_AW-1:0] f_ptr = 0;
wire        f_adv = !f_valid || s_tready;
wire        f_full = f_left >= BB16;
wire [BB-1:0] f_keep_n = f_full ? {BB{1'b1}} : ~({BB{1'b1}} << f_left[BS-1:0]);

// capture: one output beat, written out a word a clock (its keep shifted
// along: a word is written while its first byte is kept; keep is
// contiguous, and only a chunk's last beat is short)
reg  [2*DATA_W-1:0] cap_data = 0;
reg  [OB-1:0] cap_keep = 0;
reg         got_last = 1'b0;
reg  [OW_AW:0] o_wptr = 0;
reg         m_rdy = 1'b0;           // (= the ready register of the run's engine)
wire        cap_busy = cap_keep[0];
wire        m_valid = decomp ? rx_m_tvalid : tx_m_tvalid;
wire        m_last = decomp ? rx_m_tlast : tx_m_tlast;
wire        m_err = decomp ? rx_m_terr : tx_m_terr;
wire [2*DATA_W-1:0] m_data = decomp ? {{DATA_W{1'b0}}, rx_m_tdata} : tx_m_tdata;
wire [OB-1:0] m_keep = decomp ? {{BB{1'b0}}, rx_m_tkeep} : tx_m_tkeep;
wire        m_take = m_rdy && m_valid;
// the ready registers for the next clock: the capture register empty then
// and the chunk's last beat not yet taken
wire        cap_busy_n = m_take ? m_keep[0] : cap_busy && cap_keep[4];
wire        m_rdy_n = state == S_RUN && gnt && !got_last && !(m_take && m_last) &&
                      !cap_busy_n;

// TP_IN: one LUT RAM of 32-bit words per lane of a beat; TP_OUT: words
reg  [31:0] obuf [0:OUT_WORDS-1];
wire [DATA_W-1:0] ib_q;
wire        w_in = w_en && w_addr[15:8] == INC_TP_IN[15:8];
wire [IB_AW-1:0] w_beat = w_addr[BS +: IB_AW];
wire [WPB_W-1:0] w_lane = w_addr[2 +: WPB_W];

genvar gl;
generate
for (gl = 0; gl < WPB; gl = gl + 1) begin : g_in
    reg [31:0] ib [0:IN_BEATS-1];
    always @(posedge clk)
        if (w_in && w_lane == gl)
            ib[w_beat] <= w_data;
    assign ib_q[32*gl +: 32] = ib[f_ptr];
end
endgenerate

// a START's parameters, checked: a length TP_IN holds, a mode the engine
// of that direction takes (1, 2; 3 with 16 lanes), k 1..24
wire [1:0]  w_mode = w_data[INC_TP_CTRL_MODE_SHIFT +: 2];
wire [4:0]  w_k = w_data[INC_TP_CTRL_K_SHIFT +: 5];
wire        w_ok = in_len <= IN_LEN_MAX && w_mode != 2'd0 &&
                   (w_mode != 2'd3 || WIDTH_OK) && w_k != 5'd0 && w_k <= 5'd24;
wire        w_ctrl = w_en && w_addr == A_CTRL;
wire        start = w_ctrl && w_data[INC_TP_CTRL_START_BIT] && state == S_IDLE;
wire        cancel = w_ctrl && w_data[INC_TP_CTRL_CANCEL_BIT] && state == S_WAIT;

always @(posedge clk) begin
    if (w_ctrl && state == S_IDLE) begin
        decomp <= w_data[INC_TP_CTRL_DECOMP_BIT];
        mode <= w_mode;
        wid <= w_mode == 2'd3;
        k <= w_k;
    end
    if (w_en && w_addr == A_LEN && state == S_IDLE) begin
        in_len <= w_data[15:0];
        raw_len <= w_data[INC_TP_LEN_RAW_SHIFT +: 14];
    end

    case (state)
    S_IDLE: begin
        if (start) begin
            {st_done, st_err, st_over, st_refused, st_cancel} <= 5'd0;
            out_len <= 16'd0;
            o_wptr <= 0;
            got_last <= 1'b0;
            f_valid <= 1'b0;
            f_left <= in_len;
            f_more <= 1'b1;
            f_ptr <= 0;
            if (w_ok) begin
                tx_req <= !w_data[INC_TP_CTRL_DECOMP_BIT];
                rx_req <= w_data[INC_TP_CTRL_DECOMP_BIT];
                state <= S_WAIT;
            end else begin
                st_refused <= 1'b1;
                st_done <= 1'b1;
            end
        end
    end
    S_WAIT: begin
        if (cancel) begin
            tx_req <= 1'b0;
            rx_req <= 1'b0;
            st_cancel <= 1'b1;
            st_done <= 1'b1;
            state <= S_IDLE;
        end else if (gnt) begin
            state <= S_RUN;
        end
    end
    S_RUN: begin
        // the input, one beat a clock while the engine takes them
        if (f_adv) begin
            f_valid <= f_more;
            tx_s_tvalid <= f_more && !decomp;
            rx_p_s_tvalid <= f_more && decomp && !wid;
            rx_w_s_tvalid <= f_more && decomp && wid;
            if (f_more) begin
                f_tdata <= ib_q;
                f_tkeep <= f_keep_n;
                f_tlast <= !(f_left > BB16);
                f_left <= f_full ? f_left - BB16 : 16'd0;
                f_more <= f_left > BB16;
                f_ptr <= f_ptr + 1'b1;
            end
        end
        // the output beat in, then its words out
        if (m_take) begin
            cap_data <= m_data;
            cap_keep <= m_keep;
            if (m_last) begin
                got_last <= 1'b1;
                st_err <= m_err;
            end
        end
        if (cap_busy) begin
            if (o_wptr != OUT_WORDS_C)
                o_wptr <= o_wptr + 1'b1;
            else
                st_over <= 1'b1;
            out_len <= out_len + {15'd0, cap_keep[3]} + {15'd0, cap_keep[2]} +
                       {15'd0, cap_keep[1]} + {15'd0, cap_keep[0]};
            cap_data <= cap_data >> 32;
            cap_keep <= cap_keep >> 4;
        end
        if (got_last && !cap_busy) begin
            tx_req <= 1'b0;
            rx_req <= 1'b0;
            st_done <= 1'b1;
            state <= S_IDLE;
        end
        // the engine's side was reset under the run: it lost the chunk
        if (!gnt) begin
            tx_req <= 1'b0;
            rx_req <= 1'b0;
            f_valid <= 1'b0;
            {tx_s_tvalid, rx_p_s_tvalid, rx_w_s_tvalid} <= 3'b000;
            cap_keep <= 0;
            st_cancel <= 1'b1;
            st_done <= 1'b1;
            state <= S_IDLE;
        end
    end
    default: state <= S_IDLE;
    endcase

    m_rdy <= m_rdy_n;
    tx_m_tready <= m_rdy_n && !decomp;
    rx_p_m_tready <= m_rdy_n && decomp && !wid;
    rx_w_m_tready <= m_rdy_n && decomp && wid;

    if (rst) begin
        state <= S_IDLE;
        tx_req <= 1'b0;
        rx_req <= 1'b0;
        f_valid <= 1'b0;
        {tx_s_tvalid, rx_p_s_tvalid, rx_w_s_tvalid} <= 3'b000;
        {m_rdy, tx_m_tready, rx_p_m_tready, rx_w_m_tready} <= 4'b0000;
        wid <= 1'b0;
        cap_keep <= 0;
        got_last <= 1'b0;
        decomp <= 1'b0;
        mode <= 2'd0;
        k <= 5'd0;
        in_len <= 16'd0;
        raw_len <= 14'd0;
        {st_done, st_err, st_over, st_refused, st_cancel} <= 5'd0;
        out_len <= 16'd0;
    end
end

always @(posedge clk)
    if (state == S_RUN && cap_busy && o_wptr != OUT_WORDS_C)
        obuf[o_wptr[OW_AW-1:0]] <= cap_data[31:0];

// ---- reads ----
wire [31:0] ob_q = obuf[r_addr[2 +: OW_AW]];
always @* begin
    if (r_addr[15:8] == INC_TP_OUT[15:8])
        r_data = ob_q;
    else
        case (r_addr)
        A_CTRL:   r_data = {23'd0, k, mode, decomp, 1'b0};
        A_LEN:    r_data = {2'd0, raw_len, in_len};
        A_STATUS: r_data = {out_len, 10'd0, st_cancel, st_refused, st_over, st_err,
                            st_done, busy};
        A_INFO:   r_data = INFO;
        default:  r_data = 32'd0;
        endcase
end

// (the window's offsets' low bits, below a word; the data bits above)
wire unused_tport = ^{w_addr[1:0], w_data[30:9], w_data[INC_TP_LEN_RAW_SHIFT + 14 +: 2],
                      r_addr[1:0]};

endmodule

`resetall
