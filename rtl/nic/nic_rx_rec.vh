// SPDX-License-Identifier: MIT
/*
 * nic_rx_rec.vh: the record nic_rx_hdr (stage H) hands nic_rx's stage X,
 * one source for both: the outcomes and the record's width, and where
 * the chunk's mode lies in it. Include it inside a module that has
 * RING_AW. The fields, high to low (nic_rx_hdr's m_info): kind (2),
 * fr_start (RING_AW), fr_len (14), l3_off, l4_off (8 each), ip_ver (4),
 * sh_proto, sh_l4len (8 each), sh_off, sh_csum (16 each), ch_mode (2),
 * ch_k (5), ch_raw, ch_body, in_csum (16 each), body_at, body_end (15
 * each), tail (16), new_end (14), addr_sum (23), ip4_hi (8), seg_in (16),
 * hp_end, suf_start (14 each), ip_total, plen6, seg_out (16 each).
 */
localparam [1:0] K_PLAIN = 2'd0, K_DROP = 2'd1, K_RESTORE = 2'd2;
localparam HR_W = 2 + RING_AW + 14 + 8 + 8 + 4 + 8 + 8 + 16 + 16 + 2 + 5 + 16 + 16 +
                  16 + 15 + 15 + 16 + 14 + 23 + 8 + 16 + 14 + 14 + 48;
// (where the chunk's mode is in it: the fields after it, ch_k .. seg_out;
// nic_rx_hdr does not read it)
/* verilator lint_off UNUSEDPARAM */
localparam HR_MODE = 5 + 16 + 16 + 16 + 15 + 15 + 16 + 14 + 23 + 8 + 16 + 14 + 14 + 48;
/* verilator lint_on UNUSEDPARAM */
