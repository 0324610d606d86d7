// SPDX-License-Identifier: MIT
/*
 * inc_group_pack: packs the payloads of one group of 8 values.
 *
 * Takes the 8 lanes' payload words (from inc_quant) with their sizes and
 * byte offsets (from inc_tag_offsets on the group's tags; the compressor
 * registers them a stage before) and produces the group's payload bytes
 * packed in value order with no gaps, and the payload length (docs/codec.md,
 * section 4). Bytes above the length are zero. Purely combinational:
 * group_pack() of inc_group_fns.vh with ports.
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

`include "inc_group_fns.vh"

assign {size, payload} = group_pack(sizes, offsets, words);

endmodule

`resetall
