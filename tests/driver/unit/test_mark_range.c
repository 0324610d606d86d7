// SPDX-License-Identifier: GPL-2.0
/*
 * The gradient marking arithmetic of the driver (driver/inc_mark_range.h),
 * compiled in userspace: sequence numbers to stream positions, the range of
 * a TCP frame, the range of a UDP datagram. Fixed cases, then random ones
 * against a byte-by-byte reference model. TAP output (tests/lib/testlib.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testlib.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#include "inc_mark_range.h"

#define OPEN	INC_MARK_OPEN
#define WIN	INC_MARK_SEQ_WINDOW

/* ---- seq_pos ------------------------------------------------------------ */

static void t_seq(u64 una_pos, u32 una, u32 seq, bool want_ok, u64 want,
		  const char *what)
{
	u64 pos = 0x5a5a5a5a5a5a5a5aull;
	bool ok = inc_mark_seq_pos(una_pos, una, seq, &pos);

	if (want_ok)
		t_ok(ok && pos == want, "seq_pos: %s (got %d, %llu; want %llu)",
		     what, ok, (unsigned long long)pos, (unsigned long long)want);
	else
		t_ok(!ok && pos == 0x5a5a5a5a5a5a5a5aull,
		     "seq_pos: %s refused, *pos untouched", what);
}

static void seq_cases(void)
{
	t_seq(1000, 5000, 5000, true, 1000, "seq == una");
	t_seq(1000, 5000, 5100, true, 1100, "ahead of una");
	t_seq(1000, 5000, 4900, true, 900, "behind una (retransmission)");
	t_seq(1000, 0xffffff00u, 0x10, true, 1000 + 0x110, "32-bit wrap forward");
	t_seq(1000, 0x10, 0xfffffff0u, true, 1000 - 0x20, "32-bit wrap backward");
	t_seq(1ull << 40, 0xfffffffcu, 4, true, (1ull << 40) + 8,
	      "wrap, 64-bit position above 2^32");
	t_seq(0, 77, 77 + WIN - 1, true, WIN - 1, "window: last one ahead");
	t_seq(0, 77, 77 + WIN, false, 0, "window: 2^30 ahead");
	t_seq(0, 77, 77 + 0x80000000u, false, 0, "window: 2^31 ahead");
	t_seq(1ull << 33, 77, 77 - (WIN - 1), true, (1ull << 33) - (WIN - 1),
	      "window: last one behind");
	t_seq(1ull << 33, 77, 77 - WIN, false, 0, "window: 2^30 behind");
	t_seq(10, 1000, 990, true, 0, "the stream's first byte");
	t_seq(10, 1000, 989, false, 0, "before the stream's start");
	t_seq(0, 1000, 999, false, 0, "before the start, at position 0");
}

/* ---- pick --------------------------------------------------------------- */

static struct inc_mark_run R(u64 start, u64 end, u8 k, u8 mode)
{
	struct inc_mark_run r = { .start = start, .end = end, .k = k, .mode = mode };

	return r;
}

static void t_pick(const struct inc_mark_run *run, unsigned int nr, u64 pos,
		   u32 len, u32 min_len, bool want_ok, u32 off, u32 rlen, u8 k,
		   const char *what)
{
	struct inc_mark_pick p;
	bool ok;

	memset(&p, 0xee, sizeof(p));
	ok = inc_mark_pick(run, nr, pos, len, min_len, &p);
	if (want_ok)
		t_ok(ok && p.off == off && p.len == rlen && p.k == k,
		     "pick: %s (got %d off %u len %u k %u; want off %u len %u k %u)",
		     what, ok, p.off, p.len, p.k, off, rlen, k);
	else
		t_ok(!ok, "pick: %s: nothing (got off %u len %u)", what,
		     ok ? p.off : 0, ok ? p.len : 0);
}

static void pick_cases(void)
{
	struct inc_mark_run r[4];
	const u64 B = (1ull << 40) + 12345;	/* far into the stream */

	r[0] = R(0, OPEN, 10, 2);
	t_pick(r, 1, 100, 64, 32, true, 0, 64, 10, "payload inside an open run");
	t_pick(r, 0, 100, 64, 0, false, 0, 0, 0, "no runs");
	t_pick(r, 1, 100, 0, 0, false, 0, 0, 0, "empty payload");
	r[0] = R(0, 1000, 10, 2);
	t_pick(r, 1, 100, 64, 32, true, 0, 64, 10, "payload inside a closed run");
	t_pick(r, 1, 100, 66, 0, true, 0, 64, 10, "payload cuts a float at its end");

	/* the grid is the run's: a run starting at an odd position */
	r[0] = R(1, OPEN, 7, 1);
	t_pick(r, 1, 100, 64, 0, true, 1, 60, 7, "grid from an odd run start");
	r[0] = R(3, 60, 7, 1);
	t_pick(r, 1, 0, 100, 0, true, 3, 56, 7, "run at 3 inside the payload");
	r[0] = R(B + 3, B + 60, 7, 1);
	t_pick(r, 1, B, 100, 0, true, 3, 56, 7, "the same beyond 2^40");
	r[0] = R(5, OPEN, 7, 1);
	t_pick(r, 1, 6, 40, 0, true, 3, 36, 7, "payload starting inside a float");

	/* partly overlapping */
	r[0] = R(50, 80, 9, 2);
	t_pick(r, 1, 60, 100, 0, true, 2, 16, 9, "run ends inside the payload");
	t_pick(r, 1, 60, 100, 16, true, 2, 16, 9, "min_len met exactly");
	t_pick(r, 1, 60, 100, 20, false, 0, 0, 0, "shorter than min_len");
	t_pick(r, 1, 60, 100, 32, false, 0, 0, 0, "shorter than INC_MARK_MIN_LEN");
	r[0] = R(50, 82, 9, 2);
	t_pick(r, 1, 0, 60, 0, true, 50, 8, 9, "run starts inside the payload");

	/* outside */
	r[0] = R(0, 10, 9, 2);
	t_pick(r, 1, 20, 80, 0, false, 0, 0, 0, "run before the payload");
	t_pick(r, 1, 10, 80, 0, false, 0, 0, 0, "run ends where the payload starts");
	r[0] = R(200, OPEN, 9, 2);
	t_pick(r, 1, 0, 100, 0, false, 0, 0, 0, "run after the payload");
	t_pick(r, 1, 0, 200, 0, false, 0, 0, 0, "run starts where the payload ends");
	r[0] = R(10, 13, 9, 2);
	t_pick(r, 1, 0, 100, 0, false, 0, 0, 0, "run shorter than one float");
	r[0] = R(10, 20, 9, 2);
	t_pick(r, 1, 11, 6, 0, false, 0, 0, 0, "no whole float on the grid");

	/* several runs: the longest, the first of equals */
	r[0] = R(0, 40, 1, 1);
	r[1] = R(44, 120, 2, 2);
	t_pick(r, 2, 0, 200, 0, true, 44, 76, 2, "the longer second run");
	r[1] = R(40, 80, 2, 2);
	t_pick(r, 2, 0, 200, 0, true, 0, 40, 1, "two as long: the first");
	r[1] = R(40, 81, 2, 2);
	t_pick(r, 2, 0, 200, 0, true, 0, 40, 1, "a longer run, not a longer float count");
	r[0] = R(0, 20, 1, 1);
	r[1] = R(24, OPEN, 3, 2);
	t_pick(r, 2, 10, 100, 0, true, 14, 84, 3, "closed run, then the open one");
	r[0] = R(0, 8, 1, 1);
	r[1] = R(9, 30, 2, 2);
	r[2] = R(31, 100, 3, 1);
	r[3] = R(100, OPEN, 4, 2);
	t_pick(r, 4, 0, 120, 0, true, 31, 68, 3, "four runs");
	t_pick(r, 4, 0, 120, 69, false, 0, 0, 0, "four runs, none long enough");
	t_pick(r, 4, 95, 200, 0, true, 5, 192, 4, "four runs, the open one wins");
}

static void dgram_cases(void)
{
	static const struct { u32 len, min, want; } c[] = {
		{ 0, 0, 0 }, { 3, 0, 0 }, { 4, 0, 4 }, { 7, 0, 4 }, { 31, 32, 0 },
		{ 32, 32, 32 }, { 35, 32, 32 }, { 36, 32, 36 }, { 1472, 32, 1472 },
		{ 1473, 32, 1472 }, { 65507, 32, 65504 }, { 100, 101, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct inc_mark_pick p;
		bool ok;

		memset(&p, 0xee, sizeof(p));
		ok = inc_mark_pick_dgram(c[i].len, c[i].min, &p);
		if (c[i].want)
			t_ok(ok && p.off == 0 && p.len == c[i].want &&
			     p.k == 0xee && p.mode == 0xee,
			     "pick_dgram: %u bytes, min %u: [0, %u)", c[i].len,
			     c[i].min, c[i].want);
		else
			t_ok(!ok, "pick_dgram: %u bytes, min %u: nothing", c[i].len,
			     c[i].min);
	}
}

/* ---- random cases against a reference model ----------------------------- */

/*
 * Byte by byte: a byte of the payload is usable for run r when the whole
 * float of r's grid holding it lies in the payload and in r. The answer is
 * the longest stretch of consecutive usable bytes of one run (the first
 * when several are as long), if non-empty and at least min_len.
 */
static bool ref_pick(const struct inc_mark_run *run, unsigned int nr, u64 pos,
		     u32 len, u32 min_len, struct inc_mark_pick *out)
{
	u32 best = 0, i;
	unsigned int j;

	for (j = 0; j < nr; j++) {
		const struct inc_mark_run *r = &run[j];
		u32 cur = 0, cur_off = 0;

		for (i = 0; i <= len; i++) {
			bool use = false;

			if (i < len) {
				u64 b = pos + i;

				if (b >= r->start && b < r->end) {
					u64 f = b - (b - r->start) % 4; /* its float */

					use = f >= pos && f + 4 <= pos + len &&
					      f + 4 <= r->end;
				}
			}
			if (use) {
				if (!cur)
					cur_off = i;
				cur++;
				continue;
			}
			if (cur && cur >= min_len && cur > best) {
				best = cur;
				out->off = cur_off;
				out->len = cur;
				out->k = r->k;
				out->mode = r->mode;
			}
			cur = 0;
		}
	}
	return best != 0;
}

static bool ref_seq(u64 una_pos, u32 una, u32 seq, u64 *pos)
{
	s64 d = (s32)(seq - una);

	if (d >= (s64)WIN || d <= -(s64)WIN)
		return false;
	if ((s64)una_pos + d < 0)	/* una_pos < 2^63 here */
		return false;
	*pos = una_pos + d;
	return true;
}

static void random_cases(unsigned int n)
{
	struct rng g = { 0x696e6365707469ull };
	unsigned int i, bad_pick = 0, bad_seq = 0, bad_dgram = 0, found = 0;

	for (i = 0; i < n; i++) {
		struct inc_mark_run run[6];
		struct inc_mark_pick a, b;
		unsigned int nr = rng_below(&g, 7), j;
		u64 base = rng_below(&g, 4) == 0 ? 0 :
			   rng_next(&g) >> (2 + rng_below(&g, 40));
		u64 at = base + rng_below(&g, 64);
		u32 len = rng_below(&g, 8) == 0 ? 0 : rng_below(&g, 240);
		u64 pos = base + rng_below(&g, 200);
		static const u32 mins[] = { 0, 1, 4, 8, 32, 33 };
		u32 min_len = mins[rng_below(&g, 6)];
		bool x, y;

		for (j = 0; j < nr; j++) {
			run[j].start = at + rng_below(&g, 4) * rng_below(&g, 12);
			run[j].end = run[j].start + 1 + rng_below(&g, 90);
			run[j].k = 1 + rng_below(&g, 24);
			run[j].mode = 1 + rng_below(&g, 2);
			at = run[j].end;
		}
		if (nr && rng_below(&g, 3) == 0)
			run[nr - 1].end = OPEN;
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		x = inc_mark_pick(run, nr, pos, len, min_len, &a);
		y = ref_pick(run, nr, pos, len, min_len, &b);
		found += y;
		if (x != y || (x && memcmp(&a, &b, sizeof(a)))) {
			if (bad_pick++ < 5)
				t_diag("pick case %u: nr %u pos %llu len %u min %u: "
				       "%d [%u,+%u) k%u vs reference %d [%u,+%u) k%u",
				       i, nr, (unsigned long long)pos, len, min_len,
				       x, a.off, a.len, a.k, y, b.off, b.len, b.k);
		}

		{
			u64 up = rng_below(&g, 2) ? rng_below(&g, 5000) :
				 rng_next(&g) >> (1 + rng_below(&g, 62));
			u32 una = (u32)rng_next(&g);
			u32 d = rng_below(&g, 2) ? rng_below(&g, 10000) - 5000 :
				(u32)rng_next(&g);
			u32 seq;
			u64 p1 = 0, p2 = 0;

			if (rng_below(&g, 4) == 0)	/* at the window's edges */
				d = rng_below(&g, 2) ? WIN - 2 + rng_below(&g, 4) :
						       -WIN - 2 + rng_below(&g, 4);
			seq = una + d;
			x = inc_mark_seq_pos(up, una, seq, &p1);
			y = ref_seq(up, una, seq, &p2);
			if (x != y || (x && p1 != p2)) {
				if (bad_seq++ < 5)
					t_diag("seq_pos case %u: una_pos %llu una %u seq %u: "
					       "%d %llu vs reference %d %llu", i,
					       (unsigned long long)up, una, seq, x,
					       (unsigned long long)p1, y,
					       (unsigned long long)p2);
			}
		}

		{
			u32 dl = rng_below(&g, 3000), dm = mins[rng_below(&g, 6)];
			u32 want = dl / 4 * 4;

			x = inc_mark_pick_dgram(dl, dm, &a);
			y = want && want >= dm;
			if (x != y || (x && (a.off || a.len != want)))
				bad_dgram++;
		}
	}
	t_ok(!bad_pick, "pick: %u random cases agree with the reference (%u with a range)",
	     n, found);
	t_ok(found > n / 10 && found < n - n / 10,
	     "pick: the random cases are mixed (%u of %u with a range)", found, n);
	t_ok(!bad_seq, "seq_pos: %u random cases agree with the reference", n);
	t_ok(!bad_dgram, "pick_dgram: %u random cases agree", n);
}

int main(void)
{
	seq_cases();
	pick_cases();
	dgram_cases();
	random_cases(200000);
	return t_done();
}
