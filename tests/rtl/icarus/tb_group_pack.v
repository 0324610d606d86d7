// SPDX-License-Identifier: MIT
/*
 * tb_group_pack: inc_tag_offsets into inc_group_pack (packs one group of 8
 * values) against the C library, on vectors from gen_vectors; also 8
 * inc_quant lanes feeding them, from the float values, as the compressor
 * connects them (there with a register between the offsets and the pack).
 *
 * usage: vvp tb_group_pack.vvp +vectors=PATH/pack.hex
 *
 * Vector file: the first line is the number of vectors (hex); then one
 * group per line, eight hex fields separated by spaces:
 *
 *   KK VALUES TAGS WORDS TW PAYLOAD SS DECODED
 *
 *   KK       k (2 digits)
 *   VALUES   the 8 float32 values, 64 digits, value i in bits [32i+31:32i]
 *            (value 0 is the rightmost 8 digits)
 *   TAGS     inc_group_pack input: the 8 tags from inc_classify, tag i in bits
 *            [2i+1:2i] (4 digits)
 *   WORDS    inc_group_pack input: the 8 words inc_quant gives (q in two's
 *            complement, raw bits, or 0), 64 digits, like VALUES
 *   TW       expected tag word (4 digits)
 *   PAYLOAD  expected payload, 64 digits: byte j of the group's payload in
 *            bits [8j+7:8j] (byte 0 is the rightmost 2 digits), zero above
 *            the size; gen_vectors checks that the tag word then these
 *            bytes are exactly the body inc_chunk_encode() gives for the
 *            8 values as a paper-mode chunk
 *   SS       expected payload size, bytes (2 digits)
 *   DECODED  the 8 floats inc_chunk_decode() gives back, like VALUES (used
 *            by tb_group_unpack)
 *
 * gen_vectors writes one group for every tag word, the worked example of
 * docs/codec.md, whole groups of each class, and random groups.
 *
 * Output: TAP. A missing, empty or short vector file is a failure.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_group_pack;

// inc_group_pack on the file's tags and words
reg  [15:0]  tags = 0;
reg  [255:0] words = 0;
wire [15:0]  tw = tags;         // the tag word is the tags as they are
wire [23:0]  sizes;
wire [47:0]  offsets;
wire [255:0] payload;
wire [5:0]   size;

inc_tag_offsets offs (
    .tw(tags),
    .sizes(sizes),
    .offsets(offsets)
);

inc_group_pack dut (
    .sizes(sizes),
    .offsets(offsets),
    .words(words),
    .payload(payload),
    .size(size)
);

// 8 inc_quant lanes on the file's values, into a second inc_group_pack
reg  [255:0] values = 0;
reg  [4:0]   k = 1;
wire [15:0]  q_tags;
wire [255:0] q_words;
wire [15:0]  c_tw = q_tags;
wire [23:0]  c_sizes;
wire [47:0]  c_offsets;
wire [255:0] c_payload;
wire [5:0]   c_size;

genvar l;
generate
    for (l = 0; l < 8; l = l + 1) begin : lane
        inc_quant quant (
            .value(values[32*l +: 32]),
            .k(k),
            .tag(q_tags[2*l +: 2]),
            .word(q_words[32*l +: 32])
        );
    end
endgenerate

inc_tag_offsets c_offs (
    .tw(q_tags),
    .sizes(c_sizes),
    .offsets(c_offsets)
);

inc_group_pack chain (
    .sizes(c_sizes),
    .offsets(c_offsets),
    .words(q_words),
    .payload(c_payload),
    .size(c_size)
);

localparam SHOW = 5;            // mismatches printed as diagnostics

reg [8*4096:1] path;
integer        fd, r, tn, n, nhdr, perr, done, i, cov;
integer        bad_pack, bad_quant, bad_chain;
reg [31:0]     hdr;
reg [7:0]      f_k, f_size;
reg [255:0]    f_values, f_words, f_payload, f_decoded;
reg [15:0]     f_tags, f_tw;
reg [65535:0]  tw_seen;
reg [32:0]     size_seen;

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
        tap(0); $display("pack vectors: no +vectors=PATH given");
        $display("1..%0d", tn);
        $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
        tap(0); $display("pack vectors: cannot open %0s", path);
        $display("1..%0d", tn);
        $finish;
    end
    r = $fscanf(fd, "%h\n", hdr);
    if (r != 1) begin
        tap(0); $display("pack vectors: %0s is empty or has no count line", path);
        $display("1..%0d", tn);
        $fclose(fd);
        $finish;
    end
    nhdr = hdr;

    n = 0; perr = 0; done = 0;
    bad_pack = 0; bad_quant = 0; bad_chain = 0;
    tw_seen = 0; size_seen = 0;
    while (!done) begin
        r = $fscanf(fd, "%h %h %h %h %h %h %h %h\n", f_k, f_values, f_tags,
                    f_words, f_tw, f_payload, f_size, f_decoded);
        if (r == 8) begin
            if (f_k < 1 || f_k > 24 || f_size > 32) begin
                perr = perr + 1;
                if (perr <= SHOW)
                    $display("# vector %0d: k %0d or size %0d out of range",
                             n + 1, f_k, f_size);
            end
            tags = f_tags;
            words = f_words;
            values = f_values;
            k = f_k[4:0];
            #1;
            n = n + 1;
            tw_seen[f_tw] = 1'b1;
            if (f_size <= 32)
                size_seen[f_size[5:0]] = 1'b1;
            if (tw !== f_tw || payload !== f_payload || {2'b0, size} !== f_size) begin
                bad_pack = bad_pack + 1;
                if (bad_pack <= SHOW) begin
                    $display("# group %0d: tags %h words %h", n, f_tags, f_words);
                    $display("#   got      tw %h size %0d payload %h", tw, size, payload);
                    $display("#   expected tw %h size %0d payload %h", f_tw, f_size, f_payload);
                end
            end
            if (q_tags !== f_tags || q_words !== f_words) begin
                bad_quant = bad_quant + 1;
                if (bad_quant <= SHOW) begin
                    $display("# group %0d: k %0d values %h", n, f_k, f_values);
                    $display("#   inc_quant: tags %h words %h", q_tags, q_words);
                    $display("#   expected:  tags %h words %h", f_tags, f_words);
                end
            end
            if (c_tw !== f_tw || c_payload !== f_payload || {2'b0, c_size} !== f_size) begin
                bad_chain = bad_chain + 1;
                if (bad_chain <= SHOW) begin
                    $display("# group %0d: k %0d values %h", n, f_k, f_values);
                    $display("#   got      tw %h size %0d payload %h", c_tw, c_size, c_payload);
                    $display("#   expected tw %h size %0d payload %h", f_tw, f_size, f_payload);
                end
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

    cov = 0;
    for (i = 0; i < 65536; i = i + 1)
        cov = cov + tw_seen[i];

    tap(n == nhdr && n > 0 && perr == 0);
    $display("pack vectors: %0d groups read from %0s (count line: %0d, %0d bad lines)",
             n, path, nhdr, perr);
    tap(cov == 65536);
    $display("pack vectors hold every tag word (%0d of 65536), sizes seen %b", cov, size_seen);
    tap(n > 0 && bad_pack == 0);
    $display("%0d groups: inc_group_pack gives the tag word, payload (zero padded) and size of inc_chunk_encode (%0d mismatches)",
             n, bad_pack);
    tap(n > 0 && bad_quant == 0);
    $display("%0d groups: 8 inc_quant lanes give the tags and words of inc_classify (%0d mismatches)",
             n, bad_quant);
    tap(n > 0 && bad_chain == 0);
    $display("%0d groups: values -> 8 x inc_quant -> inc_group_pack match inc_chunk_encode (%0d mismatches)",
             n, bad_chain);
    $display("1..%0d", tn);
    $finish;
end

endmodule

`default_nettype wire
