// SPDX-License-Identifier: MIT
/*
 * nic_beat_fns.vh: functions on one 256-bit beat (32 bytes, a keep bit per
 * byte), shared by the NIC's blocks. Included inside a module body:
 *
 *   `include "nic_beat_fns.vh"
 *
 *   ones32(k)         number of set bits of a 32-bit keep mask (0..32)
 *   masked(d, k)      d with the bytes whose keep bit is clear set to 0
 *
 * Combinational; each is a few LUT levels (ones32: a 32-input popcount).
 */

function [5:0] ones32;
    input [31:0] k;
    integer i;
    begin
        ones32 = 0;
        for (i = 0; i < 32; i = i + 1)
            ones32 = ones32 + {5'd0, k[i]};
    end
endfunction

function [255:0] masked;
    input [255:0] d;
    input [31:0]  k;
    integer i;
    begin
        for (i = 0; i < 32; i = i + 1)
            masked[8*i +: 8] = k[i] ? d[8*i +: 8] : 8'd0;
    end
endfunction
