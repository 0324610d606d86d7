// SPDX-License-Identifier: MIT
/*
 * The wire-format reference (userspace/wire) on frames of every kind built
 * independently (tests/lib/frames.c): what it sends, what a receiver
 * restores, what it passes and what it drops (docs/wire-format.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "incwire.h"
#include "testlib.h"

#define MAXF	INCW_MAX_FRAME

static void gradients(struct rng *r, uint8_t *p, size_t len, unsigned int k)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		float f = (float)(rng_gauss(r) * ldexp(1.0, -(int)k) *
				  (rng_below(r, 8) ? 0.3 : 40));

		memcpy(p + i, &f, 4);
	}
	for (; i < len; i++)
		p[i] = (uint8_t)rng_next(r);
}

struct stats {
	size_t n, result[INCW_TX_N], bad_tx, bad_rx, bad_csum, bad_restore;
	size_t saved;
	size_t width, width_base_drop;	/* width-compressed; dropped without the mode */
};

static void one(struct rng *r, struct stats *st)
{
	static uint8_t pay[MAXF], f[MAXF], tx[MAXF], rx[MAXF];
	struct fspec s;
	struct incw_tx_req q;
	size_t hdr, max_pay, pay_len, len, tx_len, rx_len, off;
	int res, want, rres;

	memset(&s, 0, sizeof(s));
	s.vlans = (int)rng_below(r, 3);
	s.ipv = rng_below(r, 12) ? (rng_below(r, 2) ? 4 : 6) : 0;
	s.proto = rng_below(r, 10) ? (rng_below(r, 2) ? 6 : 17) : 1;
	s.tcp_opts = 4 * (int)rng_below(r, 11);
	s.ip4_opts = rng_below(r, 4) ? 0 : 4 * (int)rng_below(r, 11);
	s.fragment = s.ipv == 4 && rng_below(r, 15) == 0;
	s.udp_nocsum = rng_below(r, 5) == 0;
	s.trailer = rng_below(r, 6) == 0 ? rng_below(r, 20) : 0;
	hdr = frame_payload_off(&s);
	max_pay = MAXF - hdr - s.trailer;
	pay_len = rng_below(r, 3) == 0 ? rng_below(r, 200) :
		  rng_below(r, (uint32_t)(max_pay > 9000 ? 9000 : max_pay) + 1);
	q.compress = rng_below(r, 10) != 0;
	q.k = rng_below(r, 20) ? 1 + rng_below(r, 24) : rng_below(r, 40);
	q.mode = rng_below(r, 20) ? (enum inc_mode)(1 + rng_below(r, 3)) :
				    (enum inc_mode)rng_below(r, 6);
	/* a NIC with width mode (FEATURES bit 12), or one without */
	q.modes = rng_below(r, 3) ? INCW_MODES_ALL : INCW_MODES_BASE;
	q.off = pay_len ? rng_below(r, (uint32_t)pay_len / 4 + 1) : 0;
	q.len = (unsigned int)(pay_len - q.off) - (rng_below(r, 3) ? 0 :
		rng_below(r, (uint32_t)(pay_len - q.off) + 1));
	if (rng_below(r, 25) == 0)
		q.len += 1 + rng_below(r, 9);	/* past the payload */
	gradients(r, pay, pay_len, q.k >= 1 && q.k <= 24 ? q.k : 10);
	len = frame_build(&s, pay, pay_len, f);
	st->n++;
	if (!frame_csums_ok(f, len)) {
		st->bad_csum++;
		return;
	}

	/* what the spec says should happen, decided from the spec alone */
	if (!q.compress)
		want = INCW_TX_NOT_ASKED;
	else if (!s.ipv)
		want = INCW_TX_NOT_IP;
	else if (s.proto != 6 && s.proto != 17)
		want = INCW_TX_NOT_L4;
	else if (s.fragment)
		want = INCW_TX_FRAGMENT;
	else if (q.k < 1 || q.k > 24 || (q.mode != 1 && q.mode != 2 &&
					 (q.mode != 3 || q.modes != INCW_MODES_ALL)))
		want = INCW_TX_BAD_PARAMS;
	else if (!q.len || q.off + q.len > pay_len)
		want = INCW_TX_BAD_RANGE;
	else
		want = -1;	/* compressed, or no gain */

	res = incw_tx(f, len, &q, tx, &tx_len);
	st->result[res]++;
	if (want >= 0 ? res != want :
	    res != INCW_TX_COMPRESSED && res != INCW_TX_NO_GAIN) {
		if (st->bad_tx++ < 5)
			t_diag("tx: ipv %d proto %d frag %d k %u mode %d range %u+%u of %zu: %s, expected %s",
			       s.ipv, s.proto, s.fragment, q.k, q.mode, q.off,
			       q.len, pay_len, incw_tx_result_name(res),
			       want >= 0 ? incw_tx_result_name(want) : "compressed/no gain");
		return;
	}
	if (res != INCW_TX_COMPRESSED) {
		/* the frame leaves as it is, and arrives as it is */
		rres = incw_rx(tx, tx_len, q.modes, rx, &rx_len);
		if (tx_len != len || memcmp(tx, f, len) || rres != INCW_RX_PASS ||
		    rx_len != len || memcmp(rx, f, len))
			st->bad_rx++;
		return;
	}
	/* compressed: smaller, protocol 253, checksums right on the wire */
	{
		size_t l3 = 14 + 4 * (size_t)s.vlans;
		unsigned int proto = s.ipv == 4 ? tx[l3 + 9] : tx[l3 + 6];

		if (tx_len >= len || proto != INCW_PROTO || !frame_csums_ok(tx, tx_len) ||
		    tx[hdr - (s.proto == 6 ? 20 + (size_t)s.tcp_opts : 8)] != INCW_MAGIC) {
			st->bad_tx++;
			return;
		}
		st->saved += len - tx_len;
	}
	/* (a NIC without the mode drops it as malformed) */
	if (q.mode == INC_MODE_WIDTH) {
		st->width++;
		if (incw_rx(tx, tx_len, INCW_MODES_BASE, rx, &rx_len) == INCW_RX_DROP_HEADER)
			st->width_base_drop++;
	}
	rres = incw_rx(tx, tx_len, q.modes, rx, &rx_len);
	off = hdr + q.off;
	if (rres != INCW_RX_RESTORED || rx_len != len - s.trailer ||
	    !frame_csums_ok(rx, rx_len) ||
	    /* everything but the range and the L4 checksum is exact */
	    memcmp(rx, f, hdr - (s.proto == 6 ? 4 + (size_t)s.tcp_opts : 2)) ||
	    memcmp(rx + off + q.len, f + off + q.len, len - s.trailer - off - q.len) ||
	    memcmp(rx + hdr, f + hdr, q.off) ||
	    t_check_bound(f + off, rx + off, q.len, q.k, NULL)) {
		if (st->bad_restore++ < 5)
			t_diag("rx: ipv %d proto %d vlans %d k %u range %u+%u: %s, %zu bytes (want %zu)",
			       s.ipv, s.proto, s.vlans, q.k, q.off, q.len,
			       incw_rx_result_name(rres), rx_len, len - s.trailer);
	}
	/* the bytes of the TCP header after its checksum field */
	if (s.proto == 6 && memcmp(rx + hdr - 2 - (size_t)s.tcp_opts,
				   f + hdr - 2 - (size_t)s.tcp_opts,
				   2 + (size_t)s.tcp_opts))
		st->bad_restore++;
}

/* Single-bit flips of compressed frames from the IP header on: a receiver
 * never restores them (it drops them, or passes them as not ours). */
static void flips(struct rng *r)
{
	static uint8_t pay[2000], f[MAXF], tx[MAXF], rx[MAXF];
	size_t restored = 0, dropped = 0, passed = 0, tried = 0, it;

	for (it = 0; it < 60; it++) {
		struct fspec s = { (int)rng_below(r, 3), rng_below(r, 2) ? 4 : 6,
				   rng_below(r, 2) ? 6 : 17, 12, 0, 0, 0, 0 };
		struct incw_tx_req q = { 1, 10, INC_MODE_SPARSE, 4, 1024, INCW_MODES_ALL };
		size_t len, tx_len, rx_len, l3 = 14 + 4 * (size_t)s.vlans, bit;

		gradients(r, pay, 1100, 10);
		len = frame_build(&s, pay, 1100, f);
		if (incw_tx(f, len, &q, tx, &tx_len) != INCW_TX_COMPRESSED)
			continue;
		for (bit = 8 * l3; bit < 8 * tx_len; bit++) {
			int rres;
			size_t ipv6_unprotected = s.ipv == 6 &&
				(bit / 8 - l3 < 4 || bit / 8 - l3 == 7);

			if (ipv6_unprotected)
				continue;	/* traffic class, flow label, hop limit */
			tx[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			rres = incw_rx(tx, tx_len, INCW_MODES_ALL, rx, &rx_len);
			tx[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			tried++;
			if (rres == INCW_RX_RESTORED)
				restored++;
			else if (rres == INCW_RX_PASS)
				passed++;
			else
				dropped++;
		}
	}
	t_ok(tried > 100000 && restored == 0,
	     "single-bit flips from the IP header on (%zu): none restored, %zu dropped, %zu passed as not encapsulated (IP version or protocol changed)",
	     tried, dropped, passed);
}

int main(void)
{
	struct rng r = { 2024 };
	struct stats st;
	size_t i;

	memset(&st, 0, sizeof(st));
	for (i = 0; i < 20000; i++)
		one(&r, &st);
	t_ok(!st.bad_csum, "%zu built frames carry right checksums", st.n);
	for (i = 0; i < INCW_TX_N; i++)
		t_diag("tx %-12s %zu", incw_tx_result_name((int)i), st.result[i]);
	t_ok(st.result[INCW_TX_COMPRESSED] > 5000 && st.result[INCW_TX_NO_GAIN] > 0 &&
	     st.result[INCW_TX_FRAGMENT] > 0 && st.result[INCW_TX_BAD_RANGE] > 0 &&
	     st.result[INCW_TX_NOT_IP] > 0 && st.result[INCW_TX_NOT_L4] > 0 &&
	     st.result[INCW_TX_BAD_PARAMS] > 0 && st.result[INCW_TX_NOT_ASKED] > 0,
	     "every transmit outcome is exercised (%zu compressed, %zu bytes saved)",
	     st.result[INCW_TX_COMPRESSED], st.saved);
	t_ok(!st.bad_tx, "transmit: each frame compressed exactly when the spec says, smaller, protocol 253, checksums right (%zu wrong)",
	     st.bad_tx);
	t_ok(!st.bad_rx, "frames not compressed leave and arrive bit-exact (%zu wrong)",
	     st.bad_rx);
	t_ok(!st.bad_restore, "compressed frames are restored: headers and unmarked bytes exact, range within 2^-k, checksums right (%zu wrong)",
	     st.bad_restore);
	t_ok(st.width > 1000 && st.width_base_drop == st.width,
	     "width mode: %zu frames compressed by a NIC with the mode, restored above; a NIC without it drops every one as malformed (%zu)",
	     st.width, st.width_base_drop);
	flips(&r);
	return t_done();
}
