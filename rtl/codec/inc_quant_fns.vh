// SPDX-License-Identifier: MIT
/*
 * inc_quant_fns.vh: the quantizer of one lane (docs/codec.md, section 2)
 * as functions, included inside a module:
 *
 *   quant_shift(value, kc)            {y, raw_exp, zero}: the shift half
 *   quant_round(value, y, raw_exp, zero)
 *                                     {tag, word, mag}: the rounding half
 *
 * inc_quant_shift and inc_quant_round (their headers say what each half
 * computes) are these functions with ports; the compressor calls them in
 * its stages' clocked blocks, under the stages' valid, so that a
 * simulator evaluates a stage only for a beat in it (docs/sim.md, "Clocks
 * per second of the model"). The logic is the same.
 */

// t = kc - e = sh - 9: t < 0 RAW (raw_exp), t >= 16 zero, else
// y = m[23:8] >> t (y[15:1] = m >> sh, y[0] = m[sh-1])
function [17:0] quant_shift;
    /* verilator lint_off UNUSEDSIGNAL */
    input [31:0] f_value;   // float32 bits (the sign and m[7:0] unused)
    /* verilator lint_on UNUSEDSIGNAL */
    input [7:0]  f_kc;      // 142 - k
    reg   [8:0]  t;
    reg   [15:0] m_hi;
    begin
        t = {1'b0, f_kc} - {1'b0, f_value[30:23]};
        m_hi = {1'b1, f_value[22:8]};
        quant_shift = {m_hi >> t[3:0], t[8], !t[8] && t[7:4] != 4'd0};
    end
endfunction

// mag = x + r (0 when zero); RAW when raw_exp or mag > 32767, ZERO when
// mag = 0, Q8 for 1..127, Q16 above; word q = sign ? -mag : mag (as
// ~x + !r when negative), or the value's bits for RAW
function [48:0] quant_round;
    input [31:0] f_value;   // float32 bits (sign and the RAW word)
    input [15:0] f_y;       // quant_shift's y
    input        f_raw_exp;
    input        f_zero;
    reg   [14:0] x;
    reg          r, sign, raw, nz, q16;
    reg   [16:0] q;
    begin
        x = f_y[15:1];
        r = f_y[0];
        sign = f_value[31];
        raw = f_raw_exp || (!f_zero && x == 15'h7fff && r);
        nz = !f_zero && (x != 15'd0 || r);
        q16 = x[14:7] != 8'd0 || (x[6:0] == 7'h7f && r);
        q = ({2'b00, x} ^ {17{sign}}) + {16'd0, sign ^ r};
        quant_round = {raw ? 2'd3 : (!nz ? 2'd0 : (q16 ? 2'd2 : 2'd1)),
                       raw ? f_value : (nz ? {{15{q[16]}}, q} : 32'd0),
                       nz ? x + {14'd0, r} : 15'd0};
    end
endfunction
