// SPDX-License-Identifier: MIT
/*
 * nic_csa_fns.vh: Wallace trees of 3:2 compressors (carry-save adders) as
 * functions, for the checksum sums (nic_hsum, nic_csum_acc). Include it
 * inside a module.
 *
 * A tree reduces N operands of 32 bits to M whose sum is the sum of the N
 * modulo 2^32. No carry propagates: each layer is one LUT level (a bit of
 * a compressor's sum and carry is a function of three inputs). A layer
 * takes c operands to 2 floor(c/3) + c mod 3: compressor i takes operands
 * 3i, 3i+1 and 3i+2 to operands 2i (the sum) and 2i+1 (the carries, a
 * place up); the c mod 3 left over pass to the end, in order.
 *
 * Functions, not a module of wires, so that a caller evaluates a tree in
 * the clocked block that registers its result, under that block's enable:
 * a simulator (Verilator) then spends nothing on a tree whose stage is
 * idle, where a combinational module is evaluated at every clock
 * (docs/sim.md, "Clocks per second of the model"). The logic is the same.
 *
 * Operands are 32 bits wide, word-aligned in the packed vectors (the
 * simulator's cheapest layout); a caller that needs fewer bits takes the
 * low ones of the result, and synthesis trims the rest (a carry only moves
 * up).
 *
 * Operand i of a vector is in bits 32i+31:32i.
 */

// one compressor: {carries << 1, sum} of the three words of abc
function [63:0] csa_fa;
    input [95:0] abc;
    reg   [31:0] a, b, c;
    begin
        a = abc[31:0];
        b = abc[63:32];
        c = abc[95:64];
        csa_fa = {((a & b) | (a & c) | (b & c)) << 1, a ^ b ^ c};
    end
endfunction

// 80 -> 54 -> 36 -> 24 -> 16 -> 11 -> 8 (nic_hsum: a header's 80 words)
function [8*32-1:0] csa_80_8;
    input [80*32-1:0] x0;
    reg   [54*32-1:0] x1;
    reg   [36*32-1:0] x2;
    reg   [24*32-1:0] x3;
    reg   [16*32-1:0] x4;
    reg   [11*32-1:0] x5;
    integer i;
    begin
        for (i = 0; i < 26; i = i + 1)
            x1[64*i +: 64] = csa_fa(x0[96*i +: 96]);
        x1[52*32 +: 64] = x0[78*32 +: 64];
        for (i = 0; i < 18; i = i + 1)
            x2[64*i +: 64] = csa_fa(x1[96*i +: 96]);
        for (i = 0; i < 12; i = i + 1)
            x3[64*i +: 64] = csa_fa(x2[96*i +: 96]);
        for (i = 0; i < 8; i = i + 1)
            x4[64*i +: 64] = csa_fa(x3[96*i +: 96]);
        for (i = 0; i < 5; i = i + 1)
            x5[64*i +: 64] = csa_fa(x4[96*i +: 96]);
        x5[10*32 +: 32] = x4[15*32 +: 32];
        for (i = 0; i < 3; i = i + 1)
            csa_80_8[64*i +: 64] = csa_fa(x5[96*i +: 96]);
        csa_80_8[6*32 +: 64] = x5[9*32 +: 64];
    end
endfunction

// 8 -> 6 -> 4 -> 3 -> 2 (nic_hsum's second stage)
function [2*32-1:0] csa_8_2;
    input [8*32-1:0] x0;
    reg   [6*32-1:0] x1;
    reg   [4*32-1:0] x2;
    reg   [3*32-1:0] x3;
    begin
        x1[0 +: 128] = {csa_fa(x0[96 +: 96]), csa_fa(x0[0 +: 96])};
        x1[128 +: 64] = x0[192 +: 64];
        x2 = {csa_fa(x1[96 +: 96]), csa_fa(x1[0 +: 96])};
        x3 = {x2[96 +: 32], csa_fa(x2[0 +: 96])};
        csa_8_2 = csa_fa(x3);
    end
endfunction

// 32 -> 22 -> 15 -> 10 -> 7 -> 5 -> 4 (nic_csum_acc: a 64-byte beat)
function [4*32-1:0] csa_32_4;
    input [32*32-1:0] x0;
    reg   [22*32-1:0] x1;
    reg   [15*32-1:0] x2;
    reg   [10*32-1:0] x3;
    reg   [7*32-1:0]  x4;
    reg   [5*32-1:0]  x5;
    integer i;
    begin
        for (i = 0; i < 10; i = i + 1)
            x1[64*i +: 64] = csa_fa(x0[96*i +: 96]);
        x1[20*32 +: 64] = x0[30*32 +: 64];
        for (i = 0; i < 7; i = i + 1)
            x2[64*i +: 64] = csa_fa(x1[96*i +: 96]);
        x2[14*32 +: 32] = x1[21*32 +: 32];
        for (i = 0; i < 5; i = i + 1)
            x3[64*i +: 64] = csa_fa(x2[96*i +: 96]);
        for (i = 0; i < 3; i = i + 1)
            x4[64*i +: 64] = csa_fa(x3[96*i +: 96]);
        x4[6*32 +: 32] = x3[9*32 +: 32];
        for (i = 0; i < 2; i = i + 1)
            x5[64*i +: 64] = csa_fa(x4[96*i +: 96]);
        x5[4*32 +: 32] = x4[6*32 +: 32];
        csa_32_4 = {x5[3*32 +: 64], csa_fa(x5[0 +: 96])};
    end
endfunction

// 16 -> 11 -> 8 -> 6 -> 4 (nic_csum_acc: a 32-byte beat)
function [4*32-1:0] csa_16_4;
    input [16*32-1:0] x0;
    reg   [11*32-1:0] x1;
    reg   [8*32-1:0]  x2;
    reg   [6*32-1:0]  x3;
    integer i;
    begin
        for (i = 0; i < 5; i = i + 1)
            x1[64*i +: 64] = csa_fa(x0[96*i +: 96]);
        x1[10*32 +: 32] = x0[15*32 +: 32];
        for (i = 0; i < 3; i = i + 1)
            x2[64*i +: 64] = csa_fa(x1[96*i +: 96]);
        x2[6*32 +: 64] = x1[9*32 +: 64];
        x3[0 +: 128] = {csa_fa(x2[96 +: 96]), csa_fa(x2[0 +: 96])};
        x3[128 +: 64] = x2[192 +: 64];
        csa_16_4 = {csa_fa(x3[96 +: 96]), csa_fa(x3[0 +: 96])};
    end
endfunction

// 6 -> 4 -> 3 -> 2 (nic_csum_acc: four vectors and the accumulator)
function [2*32-1:0] csa_6_2;
    input [6*32-1:0] x0;
    reg   [4*32-1:0] x1;
    reg   [3*32-1:0] x2;
    begin
        x1 = {csa_fa(x0[96 +: 96]), csa_fa(x0[0 +: 96])};
        x2 = {x1[96 +: 32], csa_fa(x1[0 +: 96])};
        csa_6_2 = csa_fa(x2);
    end
endfunction
