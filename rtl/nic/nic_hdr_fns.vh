// SPDX-License-Identifier: MIT
/*
 * nic_hdr_fns.vh: functions on a 160-byte header block (byte i in bits
 * 8i+7:8i), shared by nic_tx and nic_rx. Included inside a module body:
 *
 *   `include "nic_hdr_fns.vh"
 *
 *   ip4_csum_byte(j, b, l3_off, c)  byte j of a block (b its value
 *                                before) with the IPv4 header checksum c
 *                                (nic_ip4_csum's csum) in its field,
 *                                bytes l3_off + 10 and 11
 *   ip_patch_byte(b, rel, ...)   byte b of the IP header, rel bytes from
 *                                its start, with the header's length and
 *                                protocol fields rewritten
 *
 * A byte at a time: the callers build their header blocks in a clocked
 * block a byte, under the enable of the load, so that a simulator spends
 * nothing on a block between loads (docs/sim.md, "Clocks per second of
 * the model"); the logic is that of a combinational block.
 *
 * The IP header starts at byte 14, 18 or 22 (no, one or two VLAN tags:
 * nic_hdr_parse accepts no other), so the field is at one of three places;
 * an l3_off other than 14 or 18 is taken as 22.
 */

function [7:0] ip4_csum_byte;
    input [7:0]  j;
    input [7:0]  b;
    input [7:0]  l3_off;
    input [15:0] c;
    reg   [7:0]  at;
    begin
        case (l3_off)
        8'd14:   at = 8'd24;
        8'd18:   at = 8'd28;
        default: at = 8'd32;
        endcase
        ip4_csum_byte = j == at ? c[15:8] : j == at + 8'd1 ? c[7:0] : b;
    end
endfunction

// The IP header's fields that change when a frame's L4 part changes size
// (nic_tx encapsulates: protocol 253 and the length with the shim and the
// compressed body; nic_rx restores: the original protocol and length):
//
//   IPv4: total length (header bytes 2-3), protocol (9), header checksum
//         (10-11) set to 0, to be summed and written once the rest is final
//   IPv6: payload length (4-5), next header (6)
//
// Every other byte is b. rel is the byte's offset from l3_off (bytes
// before the header wrap to large values and are b).
function [7:0] ip_patch_byte;
    input [7:0]  b;
    input [7:0]  rel;
    input [3:0]  ip_ver;     // 4 or 6 (6: any other)
    input [15:0] ip4_total;  // IPv4 total length
    input [15:0] ip6_plen;   // IPv6 payload length
    input [7:0]  proto;      // IPv4 protocol, IPv6 next header
    begin
        ip_patch_byte = b;
        if (ip_ver == 4'd4) begin
            case (rel)
            8'd2: ip_patch_byte = ip4_total[15:8];
            8'd3: ip_patch_byte = ip4_total[7:0];
            8'd9: ip_patch_byte = proto;
            8'd10, 8'd11: ip_patch_byte = 8'd0;
            default: ;
            endcase
        end else begin
            case (rel)
            8'd4: ip_patch_byte = ip6_plen[15:8];
            8'd5: ip_patch_byte = ip6_plen[7:0];
            8'd6: ip_patch_byte = proto;
            default: ;
            endcase
        end
    end
endfunction
