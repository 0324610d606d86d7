// SPDX-License-Identifier: MIT
/*
 * inc_group_unpack: the inverse of inc_group_pack. From a tag word and the
 * group's payload bytes (low-aligned; bytes past the group's length are
 * ignored), gives each value's payload bytes, low-aligned and zero above,
 * ready for inc_dequant. Purely combinational.
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

wire [23:0] sizes;
wire [47:0] offsets;

inc_tag_offsets offs (
    .tw(tw),
    .sizes(sizes),
    .offsets(offsets)
);

// room for the 4 bytes at any offset up to 32
wire [287:0] payload_ext = {32'd0, payload};

genvar i;
generate
    for (i = 0; i < 8; i = i + 1) begin : lane
        wire [2:0]   sz = sizes[3*i +: 3];
        wire [31:0]  keep = sz == 3'd4 ? 32'hffffffff :
                            sz == 3'd2 ? 32'h0000ffff :
                            sz == 3'd1 ? 32'h000000ff : 32'h0;
        assign words[32*i +: 32] =
            payload_ext[{offsets[6*i +: 6], 3'd0} +: 32] & keep;
    end
endgenerate

endmodule

`resetall
