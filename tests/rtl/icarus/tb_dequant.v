// SPDX-License-Identifier: MIT
/*
 * tb_dequant: inc_dequant (one lane back to float32) against
 * inc_dequantize() of the C library, on vectors from gen_vectors.
 *
 * usage: vvp tb_dequant.vvp +vectors=PATH/dequant.hex
 *
 * Vector file: the first line is the number of vectors (hex); then one
 * vector per line, four hex fields separated by spaces:
 *
 *   T PPPPPPPP KK VVVVVVVV
 *   tag (0 ZERO, 1 Q8, 2 Q16, 3 RAW)
 *     payload as stored, low-aligned and zero above: Q8 its byte, Q16 its
 *     16 bits, RAW all 32 bits, ZERO 0
 *              k  expected float32 bits (inc_dequantize)
 *
 * gen_vectors writes every Q8 payload for every k, every Q16 payload for
 * k = 1, 10, 24, and random vectors of every class; the testbench checks
 * that this coverage is there.
 *
 * Output: TAP, one check per class. A missing, empty or short vector file
 * is a failure.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_dequant;

reg  [1:0]  tag = 0;
reg  [31:0] payload = 0;
reg  [4:0]  k = 1;
wire [31:0] value;

inc_dequant dut (
    .tag(tag),
    .payload(payload),
    .k(k),
    .value(value)
);

localparam SHOW = 8;            // mismatches printed as diagnostics

reg [8*4096:1] path;
integer        fd, r, tn, n, nhdr, perr, done, c;
reg [31:0]     hdr, f_payload, f_value;
reg [7:0]      f_k;
reg [3:0]      f_tag;
integer        cls_n [0:3];
integer        cls_bad [0:3];
reg [24*256-1:0] q8_seen;       // bit (k-1)*256 + payload
reg [65535:0]  q16_seen;
integer        q8_cov, q16_cov;

task tap;
    input ok;
    begin
        tn = tn + 1;
        if (!ok)
            $write("not ");
        $write("ok %0d - ", tn);
    end
endtask

function [8*4:1] cls_name;
    input integer cl;
    begin
        case (cl)
        0: cls_name = "ZERO";
        1: cls_name = "Q8";
        2: cls_name = "Q16";
        default: cls_name = "RAW";
        endcase
    end
endfunction

initial begin
    tn = 0;
    fd = 0;
    if (!$value$plusargs("vectors=%s", path)) begin
        tap(0); $display("dequant vectors: no +vectors=PATH given");
        $display("1..%0d", tn);
        $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
        tap(0); $display("dequant vectors: cannot open %0s", path);
        $display("1..%0d", tn);
        $finish;
    end
    r = $fscanf(fd, "%h\n", hdr);
    if (r != 1) begin
        tap(0); $display("dequant vectors: %0s is empty or has no count line", path);
        $display("1..%0d", tn);
        $fclose(fd);
        $finish;
    end
    nhdr = hdr;

    n = 0; perr = 0; done = 0;
    q8_seen = 0; q16_seen = 0;
    for (c = 0; c < 4; c = c + 1) begin
        cls_n[c] = 0;
        cls_bad[c] = 0;
    end
    while (!done) begin
        r = $fscanf(fd, "%h %h %h %h\n", f_tag, f_payload, f_k, f_value);
        if (r == 4) begin
            if (f_k < 1 || f_k > 24 || f_tag > 3 ||
                (f_tag == 0 && f_payload != 0) ||
                (f_tag == 1 && f_payload[31:8] != 0) ||
                (f_tag == 2 && f_payload[31:16] != 0)) begin
                perr = perr + 1;
                if (perr <= SHOW)
                    $display("# vector %0d: k, tag or payload out of range: %h %h %h",
                             n + 1, f_tag, f_payload, f_k);
            end
            tag = f_tag[1:0];
            payload = f_payload;
            k = f_k[4:0];
            #1;
            n = n + 1;
            c = f_tag[1:0];
            cls_n[c] = cls_n[c] + 1;
            if (c == 1)
                q8_seen[(f_k[4:0] - 1) * 256 + f_payload[7:0]] = 1'b1;
            if (c == 2)
                q16_seen[f_payload[15:0]] = 1'b1;
            if (value !== f_value) begin
                cls_bad[c] = cls_bad[c] + 1;
                if (cls_bad[c] <= SHOW)
                    $display("# vector %0d: tag %0d payload %h k %0d: got %h, expected %h",
                             n, f_tag, f_payload, f_k, value, f_value);
            end
        end else begin
            if (r > 0 || !$feof(fd)) begin
                perr = perr + 1;
                $display("# vector %0d: cannot parse (%0d fields)", n + 1, r);
            end
            done = 1;
        end
    end
    $fclose(fd);

    q8_cov = 0;
    for (r = 0; r < 24 * 256; r = r + 1)
        q8_cov = q8_cov + q8_seen[r];
    q16_cov = 0;
    for (r = 0; r < 65536; r = r + 1)
        q16_cov = q16_cov + q16_seen[r];

    tap(n == nhdr && n > 0 && perr == 0);
    $display("dequant vectors: %0d read from %0s (count line: %0d, %0d bad lines)",
             n, path, nhdr, perr);
    for (c = 0; c < 4; c = c + 1) begin
        tap(cls_n[c] > 0 && cls_bad[c] == 0);
        $display("%0d %0s dequant vectors match inc_dequantize (%0d mismatches)",
                 cls_n[c], cls_name(c), cls_bad[c]);
    end
    tap(q8_cov == 24 * 256 && q16_cov == 65536);
    $display("dequant vectors cover all 256 Q8 payloads for every k (%0d of 6144) and all 65536 Q16 payloads (%0d)",
             q8_cov, q16_cov);
    $display("1..%0d", tn);
    $finish;
end

endmodule

`default_nettype wire
