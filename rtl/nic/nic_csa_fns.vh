// SPDX-License-Identifier: MIT
/*
 * nic_csa_fns.vh: carry-save trees of 6:3 counters as functions, for the
 * checksum sums (nic_hsum, nic_csum_acc). Include it inside a module.
 *
 * A tree reduces N operands of 32 bits to M whose sum is the sum of the N
 * modulo 2^32. No carry propagates. The counter is the LUT6's natural
 * compressor: at each bit place it counts six input bits into three
 * output bits of weights 1, 2 and 4, each output bit a function of the
 * same six inputs (one LUT6, one LUT level), so a layer of counters takes
 * c operands to about c/2 at one LUT per bit it removes. A 3:2 compressor
 * (a full adder: two LUTs, sum and carry, since yosys does not pair them
 * in one LUT6_2) removes one bit for two LUTs: the Wallace trees of 3:2
 * compressors these replace mapped to 2,367 LUTs in nic_hsum and 1,328 in
 * nic_csum_acc (512-bit beats); the counter trees to 2,059 and 999 (yosys
 * 0.70, synth_xilinx, docs/rtl.md "Resources").
 *
 * A layer: counter i takes operands 6i .. 6i+5 to operands 3i (the ones),
 * 3i+1 (the twos, a place up) and 3i+2 (the fours, two places up); of the
 * c mod 6 left over, four or five go through one more counter (its unused
 * inputs 0, trimmed by synthesis), three through a full adder, and one or
 * two pass to the end, in order.
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

// one full adder: {carries << 1, sum} of the three words of abc
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

// one 6:3 counter: {fours << 2, twos << 1, ones} of the six words of x
// (two full adders' sums give the ones; their carries and the carry of
// those two sums give the twos and fours: the same functions of the six
// inputs, in word-wide operations a simulator evaluates quickly)
function [95:0] csa_c6;
    input [191:0] x;
    reg   [63:0] p, q;
    reg   [31:0] h;
    begin
        p = csa_fa(x[0 +: 96]);
        q = csa_fa(x[96 +: 96]);
        h = (p[31:0] & q[31:0]) << 1;
        csa_c6 = {csa_fa({p[63:32], q[63:32], h}), p[31:0] ^ q[31:0]};
    end
endfunction

// 80 -> 41 -> 21 -> 11 -> 6 (nic_hsum: a header's 80 words)
function [6*32-1:0] csa_80_6;
    input [80*32-1:0] x0;
    reg   [41*32-1:0] x1;
    reg   [21*32-1:0] x2;
    reg   [11*32-1:0] x3;
    integer i;
    begin
        for (i = 0; i < 13; i = i + 1)
            x1[96*i +: 96] = csa_c6(x0[192*i +: 192]);
        x1[39*32 +: 64] = x0[78*32 +: 64];
        for (i = 0; i < 6; i = i + 1)
            x2[96*i +: 96] = csa_c6(x1[192*i +: 192]);
        x2[18*32 +: 96] = csa_c6({32'd0, x1[36*32 +: 160]});
        for (i = 0; i < 3; i = i + 1)
            x3[96*i +: 96] = csa_c6(x2[192*i +: 192]);
        x3[9*32 +: 64] = csa_fa(x2[18*32 +: 96]);
        csa_80_6 = {csa_c6({32'd0, x3[6*32 +: 160]}), csa_c6(x3[0 +: 192])};
    end
endfunction

// 6 -> 3 -> 2 (nic_hsum's third stage; nic_csum_acc's: four vectors and
// the accumulator)
function [2*32-1:0] csa_6_2;
    input [6*32-1:0] x0;
    begin
        csa_6_2 = csa_fa(csa_c6(x0));
    end
endfunction

// 32 -> 17 -> 9 -> 5 -> 4 (nic_csum_acc: a 64-byte beat)
function [4*32-1:0] csa_32_4;
    input [32*32-1:0] x0;
    reg   [17*32-1:0] x1;
    reg   [9*32-1:0]  x2;
    reg   [5*32-1:0]  x3;
    integer i;
    begin
        for (i = 0; i < 5; i = i + 1)
            x1[96*i +: 96] = csa_c6(x0[192*i +: 192]);
        x1[15*32 +: 64] = x0[30*32 +: 64];
        x2 = {csa_c6({32'd0, x1[12*32 +: 160]}), csa_c6(x1[6*32 +: 192]),
              csa_c6(x1[0 +: 192])};
        x3 = {csa_fa(x2[6*32 +: 96]), csa_c6(x2[0 +: 192])};
        csa_32_4 = {x3[3*32 +: 64], csa_fa(x3[0 +: 96])};
    end
endfunction

// 16 -> 9 -> 5 -> 4 (nic_csum_acc: a 32-byte beat)
function [4*32-1:0] csa_16_4;
    input [16*32-1:0] x0;
    reg   [9*32-1:0]  x1;
    reg   [5*32-1:0]  x2;
    begin
        x1 = {csa_c6({64'd0, x0[12*32 +: 128]}), csa_c6(x0[6*32 +: 192]),
              csa_c6(x0[0 +: 192])};
        x2 = {csa_fa(x1[6*32 +: 96]), csa_c6(x1[0 +: 192])};
        csa_16_4 = {x2[3*32 +: 64], csa_fa(x2[0 +: 96])};
    end
endfunction
