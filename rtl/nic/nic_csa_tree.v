// SPDX-License-Identifier: MIT
/*
 * nic_csa_tree: a Wallace tree of 3:2 compressors (carry-save adders) that
 * reduces N operands of W bits to at most M whose sum is the sum of the N,
 * modulo 2^W. No carry propagates: each layer is one LUT level (a bit of a
 * compressor's sum and carry is a function of three inputs), and a layer
 * takes the operands from c to 2 floor(c/3) + c mod 3. Combinational.
 *
 * Layers for N -> 2: 18 -> 6, 80 -> 10; N -> 8: 80 -> 6. Callers register
 * the output and resolve the last two operands with one adder.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_csa_tree #
(
    // operands in
    parameter N = 18,
    // bits of each operand, and of the sum (wide enough for it)
    parameter W = 32,
    // operands out: the tree stops when at most M are left (M >= 2)
    parameter M = 2
)
(
    input  wire [N*W-1:0] in,   // operand i in bits (i+1)W-1:iW
    output wire [M*W-1:0] out   // operands beyond those left are 0
);

// operands after one layer on c of them
function integer next;
    input integer c;
    begin
        next = c <= M ? c : 2 * (c / 3) + c % 3;
    end
endfunction

// operands after l layers
function integer count;
    input integer l;
    integer j;
    begin
        count = N;
        for (j = 0; j < l; j = j + 1)
            count = next(count);
    end
endfunction

// layers until at most M of n operands are left
function integer layers;
    input integer n;
    integer c;
    begin
        layers = 0;
        c = n;
        while (c > M) begin
            c = next(c);
            layers = layers + 1;
        end
    end
endfunction

localparam L = layers(N);
localparam CL = count(L);           // operands left (<= M)

// layer l takes src (the input or the layer before: C operands) to v
// (2G + R operands)
genvar l, i;
generate
    for (l = 0; l < L; l = l + 1) begin : layer
        localparam C = count(l);
        localparam G = C / 3;           // compressors in this layer
        localparam R = C % 3;           // operands that pass
        wire [C*W-1:0] src;
        wire [(2*G+R)*W-1:0] v;
        if (l == 0) begin : first
            assign src = in;
        end else begin : rest
            assign src = layer[l-1].v;
        end
        for (i = 0; i < G; i = i + 1) begin : fa
            wire [W-1:0] a = src[(3*i)*W +: W];
            wire [W-1:0] b = src[(3*i+1)*W +: W];
            wire [W-1:0] c = src[(3*i+2)*W +: W];
            // the carries, one place up (the top one falls off)
            wire [W-2:0] maj = (a[W-2:0] & b[W-2:0]) | (a[W-2:0] & c[W-2:0]) |
                               (b[W-2:0] & c[W-2:0]);
            assign v[(2*i)*W +: W] = a ^ b ^ c;
            assign v[(2*i+1)*W +: W] = {maj, 1'b0};
        end
        for (i = 0; i < R; i = i + 1) begin : pass
            assign v[(2*G+i)*W +: W] = src[(3*G+i)*W +: W];
        end
    end
    wire [CL*W-1:0] last;
    if (L == 0) begin : none
        assign last = in;
    end else begin : some
        assign last = layer[L-1].v;
    end
    if (CL < M) begin : pad
        assign out = {{(M - CL) * W{1'b0}}, last};
    end else begin : nopad
        assign out = last;
    end
endgenerate

endmodule

`resetall
