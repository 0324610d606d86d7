// SPDX-License-Identifier: MIT
/*
 * tb_tag_offsets: inc_tag_offsets (prefix sums of a group's payload sizes)
 * for all 65536 tag words, against docs/codec.md section 4 as gen_vectors
 * computes it (sizes 0, 1, 2, 4 bytes for tags 0..3).
 *
 * usage: vvp tb_tag_offsets.vvp +vectors=PATH/offsets.hex
 *
 * Vector file: the first line is the number of vectors (hex, 10000); then
 * one vector per line, four hex fields separated by spaces:
 *
 *   TTTT SSSSSSSS OOOOOOOOOOOOOOOO TT
 *   tag word
 *        sizes: value i's payload bytes in hex digit i (digit 0 rightmost)
 *                 offsets: value i's byte offset in byte i (byte 0 rightmost)
 *                                  total payload bytes of the group
 *
 * Output: TAP. A missing, empty or short vector file is a failure, and so is
 * one that does not hold every tag word exactly once.
 */

`timescale 1ns / 1ps
`default_nettype none

module tb_tag_offsets;

reg  [15:0] tw = 0;
wire [23:0] sizes;
wire [47:0] offsets;
// the group's payload length: the last offset plus the last size (the
// module has no output for it; inc_group_pack adds them the same way)
wire [5:0]  total = offsets[47:42] + {3'd0, sizes[23:21]};

inc_tag_offsets dut (
    .tw(tw),
    .sizes(sizes),
    .offsets(offsets)
);

localparam SHOW = 8;            // mismatches printed as diagnostics

reg [8*4096:1] path;
integer        fd, r, tn, n, nhdr, perr, done, i, dup, cov;
integer        bad_sz, bad_off, bad_tot;
reg [31:0]     hdr, f_sizes;
reg [15:0]     f_tw;
reg [63:0]     f_offs;
reg [7:0]      f_total;
reg [65535:0]  seen;
reg            m_sz, m_off;

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
        tap(0); $display("offsets vectors: no +vectors=PATH given");
        $display("1..%0d", tn);
        $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
        tap(0); $display("offsets vectors: cannot open %0s", path);
        $display("1..%0d", tn);
        $finish;
    end
    r = $fscanf(fd, "%h\n", hdr);
    if (r != 1) begin
        tap(0); $display("offsets vectors: %0s is empty or has no count line", path);
        $display("1..%0d", tn);
        $fclose(fd);
        $finish;
    end
    nhdr = hdr;

    n = 0; perr = 0; done = 0; dup = 0;
    bad_sz = 0; bad_off = 0; bad_tot = 0;
    seen = 0;
    while (!done) begin
        r = $fscanf(fd, "%h %h %h %h\n", f_tw, f_sizes, f_offs, f_total);
        if (r == 4) begin
            tw = f_tw;
            #1;
            n = n + 1;
            if (seen[f_tw])
                dup = dup + 1;
            seen[f_tw] = 1'b1;
            m_sz = 1'b0;
            m_off = 1'b0;
            for (i = 0; i < 8; i = i + 1) begin
                if ({1'b0, sizes[3*i +: 3]} !== f_sizes[4*i +: 4])
                    m_sz = 1'b1;
                if ({2'b0, offsets[6*i +: 6]} !== f_offs[8*i +: 8])
                    m_off = 1'b1;
            end
            if (m_sz) begin
                bad_sz = bad_sz + 1;
                if (bad_sz <= SHOW)
                    $display("# tw %h: sizes (3 bits each, value 7 first) %o, expected digits %h",
                             f_tw, sizes, f_sizes);
            end
            if (m_off) begin
                bad_off = bad_off + 1;
                if (bad_off <= SHOW)
                    $display("# tw %h: offsets %0d %0d %0d %0d %0d %0d %0d %0d (value 7 first), expected bytes %h",
                             f_tw, offsets[47:42], offsets[41:36], offsets[35:30],
                             offsets[29:24], offsets[23:18], offsets[17:12],
                             offsets[11:6], offsets[5:0], f_offs);
            end
            if ({2'b0, total} !== f_total) begin
                bad_tot = bad_tot + 1;
                if (bad_tot <= SHOW)
                    $display("# tw %h: total %0d, expected %0d", f_tw, total, f_total);
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
        cov = cov + seen[i];

    tap(n == nhdr && n > 0 && perr == 0);
    $display("offsets vectors: %0d read from %0s (count line: %0d, %0d unparsable)",
             n, path, nhdr, perr);
    tap(cov == 65536 && dup == 0);
    $display("offsets vectors hold every tag word once (%0d distinct, %0d repeated)",
             cov, dup);
    tap(n > 0 && bad_sz == 0);
    $display("%0d tag words: sizes match (%0d mismatches)", n, bad_sz);
    tap(n > 0 && bad_off == 0);
    $display("%0d tag words: offsets match (%0d mismatches)", n, bad_off);
    tap(n > 0 && bad_tot == 0);
    $display("%0d tag words: last offset + last size = total (%0d mismatches)", n, bad_tot);
    $display("1..%0d", tn);
    $finish;
end

endmodule

`default_nettype wire
