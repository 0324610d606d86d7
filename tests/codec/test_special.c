// SPDX-License-Identifier: MIT
/*
 * Special values and the edges of the classes, with the outcome spelled
 * out by hand from docs/codec.md rather than computed by a model:
 * Inf and NaN (any payload) bit-exact, -0 and subnormals to +0, exact ties
 * rounded away from zero, the last value of each class and the first of
 * the next, and the largest error landing exactly on the bound.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inccodec.h"
#include "testlib.h"

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float val(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Round trip one value through a chunk of each implementation. */
static int roundtrip(uint32_t in, unsigned int k, uint32_t *out)
{
	const char *const *impls = inc_impl_list();
	uint8_t raw[4 * 9], body[64], dec[4 * 9];
	size_t len, i;
	int mode, bad = 0;
	uint32_t first = 0;

	/* the value in lane 3 of a group, between zeros and a raw value */
	memset(raw, 0, sizeof(raw));
	memcpy(raw + 12, &in, 4);
	memcpy(raw + 32, &(uint32_t){ 0x7f800000 }, 4);
	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		for (mode = INC_MODE_PAPER; mode <= INC_MODE_SPARSE; mode++) {
			uint32_t got, inf;

			if (inc_chunk_encode(raw, sizeof(raw), k, mode, body,
					     sizeof(body), &len) ||
			    inc_chunk_decode(body, len, sizeof(raw), k, mode,
					     dec, sizeof(dec)))
				return -1;
			memcpy(&got, dec + 12, 4);
			memcpy(&inf, dec + 32, 4);
			if (!i && mode == INC_MODE_PAPER)
				first = got;
			bad |= got != first || inf != 0x7f800000;
		}
	}
	*out = first;
	return bad ? -1 : 0;
}

struct vcase {
	const char *what;
	float in;
	int cls;	/* expected class */
	long q;		/* expected q, for Q8/Q16 */
};

static void check(unsigned int k, const struct vcase *c)
{
	int32_t q;
	uint32_t out = 0, want;
	enum inc_class cls = inc_classify(bits(c->in), k, &q);
	double eb = ldexp(1.0, -(int)k);

	if (c->cls == INC_CLASS_ZERO)
		want = 0;
	else if (c->cls == INC_CLASS_RAW)
		want = bits(c->in);
	else
		want = bits((float)ldexp((double)c->q, 1 - (int)k));
	int rt = roundtrip(bits(c->in), k, &out);

	t_ok((int)cls == c->cls && (c->cls == INC_CLASS_RAW || q == c->q) &&
	     !rt && out == want &&
	     (!isfinite(c->in) || fabs((double)val(out) - c->in) <= eb),
	     "k=%u %s: %a -> class %d q %ld, decodes to %a (got class %d q %d, %a)",
	     k, c->what, (double)c->in, c->cls, c->q, (double)val(want), cls, q,
	     (double)val(out));
}

int main(void)
{
	static const unsigned int ks[] = { 1, 6, 10, 16, 20, 24 };
	size_t i;

	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		unsigned int k = ks[i];
		float eb = ldexpf(1.0f, -(int)k), step = 2 * eb;
		struct vcase cases[] = {
			{ "+0", 0.0f, INC_CLASS_ZERO, 0 },
			{ "-0 becomes +0", -0.0f, INC_CLASS_ZERO, 0 },
			{ "smallest subnormal", val(1), INC_CLASS_ZERO, 0 },
			{ "-largest subnormal", -val(0x007fffff), INC_CLASS_ZERO, 0 },
			{ "FLT_MIN", FLT_MIN, INC_CLASS_ZERO, 0 },
			{ "just below eb", nextafterf(eb, 0), INC_CLASS_ZERO, 0 },
			{ "eb is a tie: away from zero", eb, INC_CLASS_Q8, 1 },
			{ "-eb", -eb, INC_CLASS_Q8, -1 },
			{ "one step", step, INC_CLASS_Q8, 1 },
			{ "127 steps", 127 * step, INC_CLASS_Q8, 127 },
			{ "-127 steps", -127 * step, INC_CLASS_Q8, -127 },
			{ "just below tie 127.5", nextafterf(127.5f * step, 0),
			  INC_CLASS_Q8, 127 },
			{ "tie 127.5 -> 128: Q16", 127.5f * step, INC_CLASS_Q16, 128 },
			{ "-tie 127.5", -127.5f * step, INC_CLASS_Q16, -128 },
			{ "32767 steps", 32767 * step, INC_CLASS_Q16, 32767 },
			{ "-32767 steps", -32767 * step, INC_CLASS_Q16, -32767 },
			{ "just below tie 32767.5",
			  nextafterf(32767.5f * step, 0), INC_CLASS_Q16, 32767 },
			{ "tie 32767.5: RAW", 32767.5f * step, INC_CLASS_RAW, 0 },
			{ "-32768 steps: RAW", -32768 * step, INC_CLASS_RAW, 0 },
			{ "FLT_MAX", FLT_MAX, INC_CLASS_RAW, 0 },
			{ "-FLT_MAX", -FLT_MAX, INC_CLASS_RAW, 0 },
			{ "+Inf", INFINITY, INC_CLASS_RAW, 0 },
			{ "-Inf", -INFINITY, INC_CLASS_RAW, 0 },
			{ "quiet NaN", val(0x7fc00000), INC_CLASS_RAW, 0 },
			{ "NaN payload", val(0x7fc12345), INC_CLASS_RAW, 0 },
			{ "signalling NaN", val(0x7f800001), INC_CLASS_RAW, 0 },
			{ "-NaN payload", val(0xffbfffff), INC_CLASS_RAW, 0 },
		};
		size_t j;

		for (j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
			check(k, &cases[j]);
	}
	/* the worked example of docs/codec.md, section 4, byte for byte */
	{
		static const uint8_t want[] = {
			0x24, 0x1f, 0x01, 0x66, 0xff, 0x00, 0x00, 0xc8, 0x42,
			0x00, 0x00, 0xc0, 0x7f, 0x05,
		};
		float v[8] = { 0.0f, 0.0009765625f, -0.3f, 1e-5f, 100.0f,
			       val(0x7fc00000), 0.01f, -0.0f };
		uint8_t body[64];
		size_t len, sl;
		int same = 1;
		const char *const *impls = inc_impl_list();

		for (i = 0; impls[i]; i++) {
			inc_impl_select(impls[i]);
			same &= !inc_chunk_encode(v, sizeof(v), 10, INC_MODE_PAPER,
						  body, sizeof(body), &len) &&
				len == sizeof(want) && !memcmp(body, want, len);
			same &= !inc_chunk_encode(v, sizeof(v), 10,
						  INC_MODE_SPARSE, body,
						  sizeof(body), &sl) &&
				sl == sizeof(want) + 1 && body[0] == 1 &&
				!memcmp(body + 1, want, sizeof(want));
		}
		t_ok(same, "docs/codec.md worked example: 14 bytes 24 1f 01 66 ff ..., sparse 01 + the same");
	}
	/* the error can reach the bound exactly, and no further */
	{
		unsigned int k = 10;
		float eb = ldexpf(1.0f, -10), v = 3 * eb;	/* 1.5 steps */
		uint32_t out = 0;

		t_ok(!roundtrip(bits(v), k, &out) && val(out) == 4 * eb &&
		     fabsf(val(out) - v) == eb,
		     "k=10: 3*eb (a tie) decodes to 4*eb, error exactly eb");
	}
	return t_done();
}
