// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "engine_stream.h"

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int chance(uint64_t *s, double p)
{
	return p > 0 && (double)(next(s) >> 11) * 0x1p-53 < p;
}

/* bytes in a contiguous keep mask; -1 if it has holes */
static int keep_bytes(const uint8_t *keep, int width)
{
	int i, n = 0, hole = 0;

	for (i = 0; i < width; i++) {
		if (keep[i / 8] >> (i % 8) & 1) {
			if (hole)
				return -1;
			n++;
		} else {
			hole = 1;
		}
	}
	return n;
}

static void append(struct es_result *r, const uint8_t *data, int n)
{
	r->data = realloc(r->data, r->len + (size_t)n + 1);
	memcpy(r->data + r->len, data, (size_t)n);
	r->len += (size_t)n;
}

int es_run(struct vl_engine *e, const struct es_packet *in, size_t n,
	   struct es_result *out, const struct es_config *cfg,
	   struct es_stats *st)
{
	int ib = vl_engine_in_bytes(e), ob = vl_engine_out_bytes(e);
	uint64_t seed = cfg->seed, quiet = 0;
	size_t pi = 0, po = 0, ri = 0;
	int hold = 0, hold_bytes = 0;
	struct vl_io io;

	memset(st, 0, sizeof(*st));
	memset(&io, 0, sizeof(io));
	memset(out, 0, n * sizeof(*out));
	while (pi < n || ri < n) {
		int in_fire, out_fire;

		if (!hold && pi < n && !chance(&seed, cfg->in_idle)) {
			size_t left = in[pi].len - po;
			int i;

			hold_bytes = left < (size_t)ib ? (int)left : ib;
			memset(io.s_data, 0, sizeof(io.s_data));
			memcpy(io.s_data, in[pi].data + po, (size_t)hold_bytes);
			memset(io.s_keep, 0, sizeof(io.s_keep));
			for (i = 0; i < hold_bytes; i++)
				io.s_keep[i / 8] |= (uint8_t)(1u << (i % 8));
			io.s_last = po + (size_t)hold_bytes == in[pi].len;
			if (io.s_last && in[pi].hole > 0 && in[pi].hole <= hold_bytes) {
				i = in[pi].hole - 1;
				io.s_keep[i / 8] &= (uint8_t)~(1u << (i % 8));
			}
			io.s_user = in[pi].user;
			hold = 1;
		}
		io.s_valid = hold;
		io.m_ready = !chance(&seed, cfg->out_stall);
		vl_engine_eval(e, &io);

		in_fire = hold && io.s_ready;
		out_fire = io.m_valid && io.m_ready;
		if (hold && !io.s_ready)
			st->in_blocked++;
		if (out_fire) {
			int nb = keep_bytes(io.m_keep, ob);

			if (ri >= n)
				return -1;	/* a packet nobody sent */
			if (nb < 0 || (!io.m_last && nb != ob)) {
				st->bad_keep++;
				nb = nb < 0 ? 0 : nb;
			}
			append(&out[ri], io.m_data, nb);
			if (!st->out_beats)
				st->first_out = st->cycles;
			st->last_out = st->cycles;
			st->out_beats++;
			if (io.m_last)
				out[ri++].user = io.m_user;
		}
		if (in_fire) {
			if (!st->in_beats)
				st->first_in = st->cycles;
			po += (size_t)hold_bytes;
			hold = 0;
			st->in_beats++;
			if (io.s_last) {
				pi++;
				po = 0;
			}
		}
		if (io.status_valid) {
			st->status_chunks++;
			st->status_errors += io.status_error != 0;
		}
		vl_engine_tick(e);
		st->cycles++;
		quiet = in_fire || out_fire ? 0 : quiet + 1;
		if (quiet > cfg->hang_cycles) {
			/* where it stopped, for the test's log */
			printf("# es_run: no beat in or out for %llu cycles: input packet %zu at byte %zu, output packet %zu\n",
			       (unsigned long long)cfg->hang_cycles, pi, po, ri);
			return -1;
		}
	}
	/* let the last status pulse out */
	vl_engine_eval(e, &io);
	if (io.status_valid) {
		st->status_chunks++;
		st->status_errors += io.status_error != 0;
	}
	st->out_gaps = st->last_out - st->first_out + 1 - st->out_beats;
	return 0;
}

void es_free(struct es_result *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(out[i].data);
}
