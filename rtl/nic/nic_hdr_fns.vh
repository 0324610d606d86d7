// SPDX-License-Identifier: MIT
/*
 * nic_hdr_fns.vh: functions on a 160-byte header block (byte i in bits
 * 8i+7:8i), shared by nic_tx and nic_rx. Included inside a module body:
 *
 *   `include "nic_hdr_fns.vh"
 *
 *   ip4_csum_put(h, l3_off, c)   h with the IPv4 header checksum c
 *                                (nic_ip4_csum's csum) in its field,
 *                                bytes l3_off + 10 and 11
 *
 * The IP header starts at byte 14, 18 or 22 (no, one or two VLAN tags:
 * nic_hdr_parse accepts no other), so the field is at one of three places;
 * an l3_off other than 14 or 18 is taken as 22.
 */

function [1279:0] ip4_csum_put;
    input [1279:0] h;
    input [7:0]    l3_off;
    input [15:0]   c;
    begin
        ip4_csum_put = h;
        case (l3_off)
        8'd14: ip4_csum_put[8*24 +: 16] = {c[7:0], c[15:8]};
        8'd18: ip4_csum_put[8*28 +: 16] = {c[7:0], c[15:8]};
        default: ip4_csum_put[8*32 +: 16] = {c[7:0], c[15:8]};
        endcase
    end
endfunction
