// SPDX-License-Identifier: MIT
/*
 * inc_width_fns.vh: functions of width mode's engines (docs/codec.md,
 * section 12), included inside inc_width_group and inc_width_decompressor:
 * bit counts (balanced trees), each lane's rank among a mask's lanes, the
 * bit count of a magnitude, and the rule that picks the dense form.
 */

// bits set in x: a balanced tree of 4-bit counts
function [4:0] pc16;
    input [15:0] x;
    reg [2:0] a, b, c, d;
    begin
        a = {2'd0, x[0]} + {2'd0, x[1]} + {2'd0, x[2]} + {2'd0, x[3]};
        b = {2'd0, x[4]} + {2'd0, x[5]} + {2'd0, x[6]} + {2'd0, x[7]};
        c = {2'd0, x[8]} + {2'd0, x[9]} + {2'd0, x[10]} + {2'd0, x[11]};
        d = {2'd0, x[12]} + {2'd0, x[13]} + {2'd0, x[14]} + {2'd0, x[15]};
        pc16 = ({2'd0, a} + {2'd0, b}) + ({2'd0, c} + {2'd0, d});
    end
endfunction

// bits set in x, at most 15
function [3:0] pc15;
    input [14:0] x;
    reg [2:0] a, b, c, d;
    begin
        a = {2'd0, x[0]} + {2'd0, x[1]} + {2'd0, x[2]} + {2'd0, x[3]};
        b = {2'd0, x[4]} + {2'd0, x[5]} + {2'd0, x[6]} + {2'd0, x[7]};
        c = {2'd0, x[8]} + {2'd0, x[9]} + {2'd0, x[10]} + {2'd0, x[11]};
        d = {2'd0, x[12]} + {2'd0, x[13]} + {2'd0, x[14]};
        pc15 = ({1'd0, a} + {1'd0, b}) + ({1'd0, c} + {1'd0, d});
    end
endfunction

// rank of each lane: bits of x below it, 4 bits a lane (lane 15's bit
// has nothing above it)
function [63:0] ranks;
    input [14:0] x;
    integer i;
    begin
        ranks = 0;
        for (i = 1; i < 16; i = i + 1)
            ranks[4*i +: 4] = pc15(x & ((15'd1 << i) - 15'd1));
    end
endfunction

// bits of x: 0 for 0
function [3:0] bitlen15;
    input [14:0] x;
    integer b;
    begin
        bitlen15 = 0;
        for (b = 0; b < 15; b = b + 1)
            if (x[b])
                bitlen15 = b[3:0] + 4'd1;
    end
endfunction

// the dense form has fewer bits (docs/codec.md: nnr (1 + w) < 16 +
// nz (1 + w), that is zeros * (1 + w) < 16): zeros <= 15 / (1 + w)
function dense_of;
    input [4:0] zeros;
    input [3:0] w;
    reg [4:0] th;
    begin
        case (w)
            4'd0:    th = 5'd15;
            4'd1:    th = 5'd7;
            4'd2:    th = 5'd5;
            4'd3:    th = 5'd3;
            4'd4:    th = 5'd3;
            4'd5:    th = 5'd2;
            4'd6:    th = 5'd2;
            4'd15:   th = 5'd0;
            default: th = 5'd1;     // 1 + w = 8..15
        endcase
        dense_of = zeros <= th;
    end
endfunction
