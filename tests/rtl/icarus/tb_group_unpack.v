// SPDX-License-Identifier: MIT
/*
 * tb_group_unpack: inc_group_unpack (one group's payload back to 8 lanes)
 * on pack.hex used in reverse; also inc_group_unpack feeding 8 inc_dequant
 * lanes, as the decompressor connects them, against inc_chunk_decode().
 *
 * usage: vvp tb_group_unpack.vvp +vectors=PATH/pack.hex
 *
 * Vector file: pack.hex, the format is in tb_group_pack.v:
 *
 *   KK VALUES TAGS WORDS TW PAYLOAD SS DECODED
 *
 * Inputs here: TW and PAYLOAD (and KK for inc_dequant). Expected: value i's
 * word is WORDS lane i masked to its payload bytes (Q8 the low byte, Q16 the
 * low 16 bits, RAW all 32, ZERO nothing), and the decoded floats are
 * DECODED. Each group is applied twice: with the payload zero above its
 * size, as in the file, and with random bytes there (a decoder's payload
 * window holds the next group's bytes; the module must ignore them).
 *
 * Output: TAP. A missing, empty or short vector file is a failure.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_group_unpack;

reg  [15:0]  tw = 0;
reg  [255:0] payload = 0;       // as in the file: zero above the size
reg  [255:0] payload_g = 0;     // random bytes above the size
reg  [4:0]   k = 1;
wire [255:0] words, words_g;
wire [255:0] decoded;

inc_group_unpack dut (
    .tw(tw),
    .payload(payload),
    .words(words)
);

inc_group_unpack dut_g (
    .tw(tw),
    .payload(payload_g),
    .words(words_g)
);

genvar l;
generate
    for (l = 0; l < 8; l = l + 1) begin : lane
        inc_dequant dq (
            .tag(tw[2*l +: 2]),
            .payload(words_g[32*l +: 32]),
            .k(k),
            .value(decoded[32*l +: 32])
        );
    end
endgenerate

localparam SHOW = 5;            // mismatches printed as diagnostics

reg [8*4096:1] path;
integer        fd, r, tn, n, nhdr, perr, done, i, seed;
integer        bad_unpack, bad_garbage, bad_chain;
reg [31:0]     hdr;
reg [7:0]      f_k, f_size;
reg [255:0]    f_values, f_words, f_payload, f_decoded;
reg [15:0]     f_tags, f_tw;
reg [255:0]    exp_words, noise, above;

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
    seed = 1;
    if (!$value$plusargs("vectors=%s", path)) begin
        tap(0); $display("unpack vectors: no +vectors=PATH given");
        $display("1..%0d", tn);
        $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
        tap(0); $display("unpack vectors: cannot open %0s", path);
        $display("1..%0d", tn);
        $finish;
    end
    r = $fscanf(fd, "%h\n", hdr);
    if (r != 1) begin
        tap(0); $display("unpack vectors: %0s is empty or has no count line", path);
        $display("1..%0d", tn);
        $fclose(fd);
        $finish;
    end
    nhdr = hdr;

    n = 0; perr = 0; done = 0;
    bad_unpack = 0; bad_garbage = 0; bad_chain = 0;
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
            for (i = 0; i < 8; i = i + 1) begin
                case (f_tw[2*i +: 2])
                2'd0: exp_words[32*i +: 32] = 32'h0;
                2'd1: exp_words[32*i +: 32] = f_words[32*i +: 32] & 32'h000000ff;
                2'd2: exp_words[32*i +: 32] = f_words[32*i +: 32] & 32'h0000ffff;
                default: exp_words[32*i +: 32] = f_words[32*i +: 32];
                endcase
                noise[32*i +: 32] = $random(seed);
            end
            // the bytes at and above the size
            above = {256{1'b1}} << {f_size, 3'd0};
            if (f_size >= 32)
                above = 0;
            tw = f_tw;
            payload = f_payload;
            payload_g = f_payload | (noise & above);
            k = f_k[4:0];
            #1;
            n = n + 1;
            if (words !== exp_words) begin
                bad_unpack = bad_unpack + 1;
                if (bad_unpack <= SHOW) begin
                    $display("# group %0d: tw %h payload %h", n, f_tw, f_payload);
                    $display("#   got      %h", words);
                    $display("#   expected %h", exp_words);
                end
            end
            if (words_g !== exp_words) begin
                bad_garbage = bad_garbage + 1;
                if (bad_garbage <= SHOW) begin
                    $display("# group %0d: tw %h size %0d payload %h", n, f_tw, f_size, payload_g);
                    $display("#   got      %h", words_g);
                    $display("#   expected %h", exp_words);
                end
            end
            if (decoded !== f_decoded) begin
                bad_chain = bad_chain + 1;
                if (bad_chain <= SHOW) begin
                    $display("# group %0d: k %0d tw %h payload %h", n, f_k, f_tw, payload_g);
                    $display("#   got      %h", decoded);
                    $display("#   expected %h", f_decoded);
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

    tap(n == nhdr && n > 0 && perr == 0);
    $display("unpack vectors: %0d groups read from %0s (count line: %0d, %0d bad lines)",
             n, path, nhdr, perr);
    tap(n > 0 && bad_unpack == 0);
    $display("%0d groups: inc_group_unpack gives each value's payload bytes (%0d mismatches)",
             n, bad_unpack);
    tap(n > 0 && bad_garbage == 0);
    $display("%0d groups: inc_group_unpack ignores random bytes past the group's payload (%0d mismatches)",
             n, bad_garbage);
    tap(n > 0 && bad_chain == 0);
    $display("%0d groups: inc_group_unpack -> 8 x inc_dequant match inc_chunk_decode (%0d mismatches)",
             n, bad_chain);
    $display("1..%0d", tn);
    $finish;
end

endmodule

`default_nettype wire
