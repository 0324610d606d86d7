// SPDX-License-Identifier: MIT
/*
 * inc_ring_fns.vh: the byte ring's placement functions of the
 * decompressors (a ring of LUT RAM banks, a bank per byte of a row),
 * included inside a module that defines RF_C (bytes a row, a power of two
 * up to 128) and RF_LC ($clog2(RF_C)):
 *
 *   below(n)        bit i set for i < n (n 0..RF_C): the banks below an
 *                   offset, which take the next row
 *   rot_up(x, s)    the RF_C bytes of x rotated up by s: byte j to
 *                   (j + s) mod RF_C (a beat placed at its offset)
 *   rot_up1(x, s)   the same for RF_C bits (the beat's keep mask)
 *
 * The rotations are a shifter's stages, the coarse first; below is a
 * thermometer decode, bit i a comparison of n with the constant i,
 * written as a shift of ones (a few word operations to a simulator).
 */

function [RF_C-1:0] below;
    input [RF_LC:0] n;
    begin
        below = ~({RF_C{1'b1}} << n);
    end
endfunction

function [RF_C*8-1:0] rot_up;
    input [RF_C*8-1:0] x;
    input [RF_LC-1:0]  s;
    integer b;
    reg [RF_C*8-1:0] r;
    begin
        r = x;
        for (b = RF_LC - 1; b >= 0; b = b - 1)
            if (s[b])
                r = (r << (8 << b)) | (r >> (RF_C*8 - (8 << b)));
        rot_up = r;
    end
endfunction

function [RF_C-1:0] rot_up1;
    input [RF_C-1:0]  x;
    input [RF_LC-1:0] s;
    integer b;
    reg [RF_C-1:0] r;
    begin
        r = x;
        for (b = RF_LC - 1; b >= 0; b = b - 1)
            if (s[b])
                r = (r << (1 << b)) | (r >> (RF_C - (1 << b)));
        rot_up1 = r;
    end
endfunction
