// SPDX-License-Identifier: MIT
/*
 * inc_group_pack: packs the payloads of one group of 8 values.
 *
 * Takes the 8 lanes' payload words (from inc_quant) with their sizes and
 * byte offsets (from inc_tag_offsets on the group's tags; the compressor
 * registers them a stage before) and produces the group's payload bytes
 * packed in value order with no gaps, and the payload length (docs/codec.md,
 * section 4). Bytes above the length are zero. Purely combinational.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_group_pack
(
    input  wire [23:0]  sizes,   // 8 x 3 bits: payload bytes of value i
    input  wire [47:0]  offsets, // 8 x 6 bits: byte offset of value i
    input  wire [255:0] words,   // 8 x 32 bits: q or raw bits (inc_quant)
    output wire [255:0] payload, // packed payload, low-aligned
    output wire [5:0]   size     // payload bytes, 0..32
);

assign size = offsets[42 +: 6] + {3'd0, sizes[21 +: 3]};

// each value's payload bytes, moved to its offset; they do not overlap
wire [255:0] placed [0:7];

genvar i;
generate
    for (i = 0; i < 8; i = i + 1) begin : lane
        wire [2:0]  sz = sizes[3*i +: 3];
        wire [31:0] keep = sz == 3'd4 ? 32'hffffffff :
                           sz == 3'd2 ? 32'h0000ffff :
                           sz == 3'd1 ? 32'h000000ff : 32'h0;
        wire [255:0] w = {224'd0, words[32*i +: 32] & keep};
        assign placed[i] = w << {offsets[6*i +: 6], 3'd0};
    end
endgenerate

assign payload = placed[0] | placed[1] | placed[2] | placed[3] |
                 placed[4] | placed[5] | placed[6] | placed[7];

endmodule

`resetall
