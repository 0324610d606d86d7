// SPDX-License-Identifier: MIT
/*
 * inc_keep_fns.vh: the byte count of a tkeep that is contiguous from byte
 * 0, as a function, included inside a module that defines KC_C (bytes
 * a beat, at most 128) and KC_LC ($clog2(KC_C)):
 *
 *   keep_count(keep)    the bytes kept, 0..KC_C ([KC_LC:0])
 *
 * The count is the OR, over every byte j where the kept bytes end (byte j
 * kept, byte j + 1 not, or j the last), of j + 1: for a contiguous keep
 * that is one term, the count; for any other keep the OR of its runs'
 * ends, as the engines always computed it. Bit b of the count is thus an
 * OR of the ends at the bytes whose j + 1 has bit b set: a constant mask
 * (KC_M) and an OR reduction, a LUT tree per bit in hardware and
 * a few word operations in a simulator.
 */

// bit j set when j + 1 has bit b set
function [KC_C-1:0] kc_mask;
    input integer b;
    integer j;
    begin
        for (j = 0; j < KC_C; j = j + 1)
            kc_mask[j] = (((j + 1) >> b) & 1) == 1;
    end
endfunction

// the masks of bits 0..7, KC_C bits each
localparam [8*KC_C-1:0] KC_M = {kc_mask(7), kc_mask(6), kc_mask(5), kc_mask(4),
                                kc_mask(3), kc_mask(2), kc_mask(1), kc_mask(0)};

function [KC_LC:0] keep_count;
    input [KC_C-1:0] keep;
    reg   [KC_C-1:0] ends;  // byte j kept, byte j + 1 not (or none)
    integer b;
    begin
        ends = keep & ~({1'b0, keep[KC_C-1:1]});
        for (b = 0; b <= KC_LC; b = b + 1)
            keep_count[b] = |(ends & KC_M[KC_C*b +: KC_C]);
    end
endfunction
