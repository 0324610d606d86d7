// SPDX-License-Identifier: MIT
/*
 * inc_group_unpack: the inverse of inc_group_pack. From a tag word and the
 * group's payload bytes (low-aligned; bytes past the group's length are
 * ignored), gives each value's payload bytes, low-aligned and zero above,
 * ready for inc_dequant. Purely combinational: group_unpack() of
 * inc_group_fns.vh with ports.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module inc_group_unpack
(
    input  wire [15:0]  tw,      // tag word
    input  wire [255:0] payload, // the group's payload bytes, low-aligned
    output wire [255:0] words    // 8 x 32 bits: value i's payload bytes
);

`include "inc_group_fns.vh"

assign words = group_unpack(tw, payload);

endmodule

`resetall
