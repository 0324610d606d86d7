// SPDX-License-Identifier: MIT
/*
 * inc_tag_offsets: the prefix sum of a group's payload sizes.
 *
 * For a tag word (8 tags of 2 bits, value i in bits 2i+1:2i), the size of
 * each value's payload (0, 1, 2, 4 bytes for tags 0..3) and the byte offset
 * of each payload within the group's payload (the sum of the sizes before
 * it; docs/codec.md, section 4). The group's payload length is the last
 * offset plus the last size. Purely combinational: tag_offsets() of
 * inc_group_fns.vh with ports.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_tag_offsets
(
    input  wire [15:0] tw,      // tag word
    output wire [23:0] sizes,   // 8 x 3 bits: payload bytes of value i
    output wire [47:0] offsets  // 8 x 6 bits: byte offset of value i
);

`include "inc_group_fns.vh"

assign {offsets, sizes} = tag_offsets(tw);

endmodule

`resetall
