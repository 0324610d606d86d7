// SPDX-License-Identifier: MIT
/*
 * inc_group_fns.vh: a group's payload layout and a lane's dequantizer as
 * functions (docs/codec.md, sections 4 and 5), included inside a module:
 *
 *   tag_offsets(tw)             {offsets (8 x 6 bits), sizes (8 x 3 bits)}
 *                               of a tag word's 8 payloads
 *   group_pack(sizes, offsets, words)
 *                               {size, payload}: the 8 payloads packed in
 *                               value order, low-aligned, 0 above
 *   group_unpack(tw, payload)   each value's payload bytes, low-aligned,
 *                               zero above (8 x 32 bits)
 *   dequant_abs(tag, payload)   {kind, word}: 0 zero, 1 quantized (sign at
 *                               bit 16, |q| below), 3 raw (the word)
 *   dequant_norm(kind, word, k) float32 bits of inc_dequant_abs's result
 *
 * The leaf modules (inc_tag_offsets, inc_group_pack, inc_group_unpack,
 * inc_dequant_abs, inc_dequant_norm) are these functions with ports, for
 * their test benches and for callers that keep them as blocks; the
 * engines call them in its stages' clocked blocks, under the stages' valid, so
 * that a simulator evaluates a stage only for a beat in it (docs/sim.md,
 * "Clocks per second of the model"). The logic is the same.
 */

// a group's packed payload from its 8 words with their sizes and offsets
// (tag_offsets'): {size (6 bits, 0..32), payload (256 bits)}
function [261:0] group_pack;
    input [23:0]  f_sizes;
    input [47:0]  f_offs;
    input [255:0] f_words;
    reg   [2:0]   sz;
    reg   [255:0] pay;
    integer i;
    begin
        pay = 256'd0;
        for (i = 0; i < 8; i = i + 1) begin
            sz = f_sizes[3*i +: 3];
            pay = pay | ({224'd0, f_words[32*i +: 32] &
                          (sz == 3'd4 ? 32'hffffffff : sz == 3'd2 ? 32'h0000ffff :
                           sz == 3'd1 ? 32'h000000ff : 32'h0)} << {f_offs[6*i +: 6], 3'd0});
        end
        group_pack = {f_offs[42 +: 6] + {3'd0, f_sizes[21 +: 3]}, pay};
    end
endfunction

// the prefix sum of a group's payload sizes (0, 1, 2, 4 bytes for tags
// 0..3): size i in bits 3i+2:3i, offset i in bits 24+6i+5:24+6i
function [71:0] tag_offsets;
    input [15:0] f_tw;
    reg   [5:0]  off;
    reg   [2:0]  sz;
    integer i;
    begin
        off = 6'd0;
        for (i = 0; i < 8; i = i + 1) begin
            sz = f_tw[2*i +: 2] == 2'd3 ? 3'd4 : {1'b0, f_tw[2*i +: 2]};
            tag_offsets[3*i +: 3] = sz;
            tag_offsets[24 + 6*i +: 6] = off;
            off = off + {3'd0, sz};
        end
    end
endfunction

// the inverse of the pack: value i's payload bytes from its offset, masked
// to its size (bytes past the group's length are ignored)
function [255:0] group_unpack;
    input [15:0]  f_tw;
    input [255:0] f_pay;
    reg   [71:0]  so;
    reg   [287:0] ext;
    reg   [2:0]   sz;
    integer i;
    begin
        so = tag_offsets(f_tw);
        ext = {32'd0, f_pay};
        for (i = 0; i < 8; i = i + 1) begin
            sz = so[3*i +: 3];
            group_unpack[32*i +: 32] =
                ext[{so[24 + 6*i +: 6], 3'd0} +: 32] &
                (sz == 3'd4 ? 32'hffffffff : sz == 3'd2 ? 32'h0000ffff :
                 sz == 3'd1 ? 32'h000000ff : 32'h0);
        end
    end
endfunction

// a lane's payload to sign and magnitude: {kind, word}
function [33:0] dequant_abs;
    input [1:0]  f_tag;     // 0 ZERO, 1 Q8, 2 Q16, 3 RAW
    input [31:0] f_pay;     // payload bytes, low-aligned, zero above
    reg          neg;
    reg   [15:0] q16, mag;
    reg   [1:0]  f_kind;
    begin
        neg = f_tag == 2'd1 ? f_pay[7] : f_pay[15];
        q16 = f_tag == 2'd1 ? {{8{f_pay[7]}}, f_pay[7:0]} : f_pay[15:0];
        mag = neg ? (~q16 + 16'd1) : q16;
        f_kind = f_tag == 2'd3 ? 2'd3 : (f_tag == 2'd0 || q16 == 16'd0) ? 2'd0 : 2'd1;
        dequant_abs = {f_kind, f_tag == 2'd3 ? f_pay :
                             f_kind == 2'd0 ? 32'd0 : {15'd0, neg, mag}};
    end
endfunction

// q * 2^(1-k) as float32: the sign, the leading one's position p of |q|
// giving the exponent 127 + p + 1 - k, the bits below it the significand
function [31:0] dequant_norm;
    input [1:0]  f_kind;    // dequant_abs: 0 zero, 1 quantized, 3 raw
    input [31:0] f_word;    // dequant_abs: its word
    input [4:0]  f_k;       // error bound 2^-k, 1..24
    reg   [3:0]  p;
    reg   [15:0] f_below;
    integer i;
    begin
        p = 4'd0;
        for (i = 0; i < 16; i = i + 1)
            if (f_word[i])
                p = i[3:0];
        f_below = f_word[15:0] << (5'd16 - {1'b0, p});
        dequant_norm = f_kind == 2'd3 ? f_word :
                       f_kind == 2'd1 ? {f_word[16], 8'd128 + {4'd0, p} - {3'd0, f_k}, f_below, 7'd0} :
                       32'd0;
    end
endfunction
