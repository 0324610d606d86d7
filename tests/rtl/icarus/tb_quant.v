// SPDX-License-Identifier: MIT
/*
 * tb_quant: inc_quant (one lane's tag classifier and quantizer) against
 * inc_classify() of the C library, on vectors from gen_vectors.
 *
 * usage: vvp tb_quant.vvp +vectors=PATH/quant.hex
 *
 * Vector file: the first line is the number of vectors (hex); then one
 * vector per line, four hex fields separated by spaces:
 *
 *   VVVVVVVV KK T WWWWWWWW
 *   value    k  expected tag (0 ZERO, 1 Q8, 2 Q16, 3 RAW)
 *                  expected word (q in 32-bit two's complement for Q8/Q16,
 *                  the value's bits for RAW, 0 for ZERO)
 *
 * Output: TAP. A missing, empty or short vector file is a failure.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_quant;

reg  [31:0] value = 0;
reg  [4:0]  k = 1;
wire [1:0]  tag;
wire [31:0] word;

inc_quant dut (
    .value(value),
    .k(k),
    .tag(tag),
    .word(word)
);

localparam SHOW = 8;            // mismatches printed as diagnostics

reg [8*4096:1] path;
integer        fd, r, tn, n, nhdr, bad, perr, done;
reg [31:0]     hdr, f_value, f_word;
reg [7:0]      f_k;
reg [3:0]      f_tag;
reg [24:1]     k_seen;
reg [3:0]      tag_seen;
integer        cls_n [0:3];
integer        cls_bad [0:3];

task tap;
    input ok;
    begin
        tn = tn + 1;
        if (!ok)
            $write("not ");
        $write("ok %0d - ", tn);
    end
endtask

initial begin
    tn = 0;
    fd = 0;
    if (!$value$plusargs("vectors=%s", path)) begin
        tap(0); $display("quant vectors: no +vectors=PATH given");
        $display("1..%0d", tn);
        $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
        tap(0); $display("quant vectors: cannot open %0s", path);
        $display("1..%0d", tn);
        $finish;
    end
    r = $fscanf(fd, "%h\n", hdr);
    if (r != 1) begin
        tap(0); $display("quant vectors: %0s is empty or has no count line", path);
        $display("1..%0d", tn);
        $fclose(fd);
        $finish;
    end
    nhdr = hdr;

    n = 0; bad = 0; perr = 0; done = 0;
    k_seen = 0; tag_seen = 0;
    for (r = 0; r < 4; r = r + 1) begin
        cls_n[r] = 0;
        cls_bad[r] = 0;
    end
    while (!done) begin
        r = $fscanf(fd, "%h %h %h %h\n", f_value, f_k, f_tag, f_word);
        if (r == 4) begin
            if (f_k < 1 || f_k > 24 || f_tag > 3) begin
                perr = perr + 1;
                if (perr <= SHOW)
                    $display("# vector %0d: k %0d or tag %0d out of range",
                             n + 1, f_k, f_tag);
            end
            value = f_value;
            k = f_k[4:0];
            #1;
            n = n + 1;
            k_seen[f_k[4:0]] = 1'b1;
            tag_seen[f_tag[1:0]] = 1'b1;
            cls_n[f_tag[1:0]] = cls_n[f_tag[1:0]] + 1;
            if (tag !== f_tag[1:0] || word !== f_word) begin
                bad = bad + 1;
                cls_bad[f_tag[1:0]] = cls_bad[f_tag[1:0]] + 1;
                if (bad <= SHOW)
                    $display("# vector %0d: value %h k %0d: got tag %0d word %h, expected tag %0d word %h",
                             n, f_value, f_k, tag, word, f_tag, f_word);
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

    tap(n == nhdr && n > 0 && perr == 0);
    $display("quant vectors: %0d read from %0s (count line: %0d, %0d unparsable)",
             n, path, nhdr, perr);
    tap(n > 0 && bad == 0);
    $display("%0d quant vectors match inc_classify (%0d mismatches)", n, bad);
    $display("#   by expected tag: ZERO %0d/%0d bad, Q8 %0d/%0d, Q16 %0d/%0d, RAW %0d/%0d",
             cls_bad[0], cls_n[0], cls_bad[1], cls_n[1], cls_bad[2], cls_n[2],
             cls_bad[3], cls_n[3]);
    tap(&k_seen && &tag_seen);
    $display("quant vectors cover every k 1..24 (%b) and every tag (%b)",
             k_seen, tag_seen);
    $display("1..%0d", tn);
    $finish;
end

endmodule

`default_nettype wire
