// SPDX-License-Identifier: MIT
/*
 * nic_beat_fns.vh: functions on one beat (BB bytes, a keep bit per byte),
 * shared by the NIC's blocks. Included inside a module body that defines
 * BB (bytes per beat) and BS ($clog2(BB)):
 *
 *   `include "nic_beat_fns.vh"
 *
 *   ones_k(k)         number of set bits of a BB-bit keep mask (0..BB)
 *   masked(d, k)      d with the bytes whose keep bit is clear set to 0
 *
 * Combinational; each is a few LUT levels (ones_k: a BB-input popcount).
 */

function [BS:0] ones_k;
    input [BB-1:0] k;
    integer i;
    begin
        ones_k = 0;
        for (i = 0; i < BB; i = i + 1)
            ones_k = ones_k + {{BS{1'b0}}, k[i]};
    end
endfunction

function [8*BB-1:0] masked;
    input [8*BB-1:0] d;
    input [BB-1:0]   k;
    integer i;
    begin
        for (i = 0; i < BB; i = i + 1)
            masked[8*i +: 8] = k[i] ? d[8*i +: 8] : 8'd0;
    end
endfunction
