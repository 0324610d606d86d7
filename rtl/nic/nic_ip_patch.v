// SPDX-License-Identifier: MIT
/*
 * nic_ip_patch: a header block with the IP header's length and protocol
 * fields rewritten, as both directions need when a frame's L4 part changes
 * size (nic_tx encapsulates: protocol 253 and the length with the shim and
 * the compressed body; nic_rx restores: the original protocol and length):
 *
 *   IPv4: total length (header bytes 2-3), protocol (9), header checksum
 *         (10-11) set to 0, to be summed and written once the rest is final
 *   IPv6: payload length (4-5), next header (6)
 *
 * Every other byte is the input's. The caller takes the bytes it needs
 * (those before the L4 header). Combinational: a byte is a choice among the
 * input byte and the new fields by its offset from l3_off.
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_ip_patch #
(
    // bytes of the header block
    parameter HB = 160
)
(
    input  wire [8*HB-1:0] hdr,       // byte i in bits 8i+7:8i
    input  wire [7:0]      l3_off,    // the IP header's first byte
    input  wire [3:0]      ip_ver,    // 4 or 6 (6: any other)
    input  wire [15:0]     ip4_total, // IPv4 total length
    input  wire [15:0]     ip6_plen,  // IPv6 payload length
    input  wire [7:0]      proto,     // IPv4 protocol, IPv6 next header
    output wire [8*HB-1:0] patched
);

genvar j;
generate
    for (j = 0; j < HB; j = j + 1) begin : pbyte
        wire [7:0] jj = j;
        wire [7:0] rel = jj - l3_off;   // offset in the IP header
        reg  [7:0] v;
        always @* begin
            v = hdr[8*j +: 8];
            if (ip_ver == 4'd4) begin
                case (rel)
                8'd2: v = ip4_total[15:8];
                8'd3: v = ip4_total[7:0];
                8'd9: v = proto;
                8'd10, 8'd11: v = 8'd0;
                default: ;
                endcase
            end else begin
                case (rel)
                8'd4: v = ip6_plen[15:8];
                8'd5: v = ip6_plen[7:0];
                8'd6: v = proto;
                default: ;
                endcase
            end
        end
        assign patched[8*j +: 8] = v;
    end
endgenerate

endmodule

`resetall
