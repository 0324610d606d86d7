// SPDX-License-Identifier: MIT
#include <math.h>
#include <string.h>

#include "inccodec.h"
#include "verify.h"

int ig_within(float a, float b, unsigned int k, double *diff)
{
	/*
	 * a and b are exact in double; s = a - b may round, t is its exact
	 * rounding error (TwoSum), so a - b = s + t exactly. eb is a power
	 * of two, hence a double: |s| < eb or |s| > eb decides; on |s| == eb
	 * the sign of t does.
	 */
	double x = a, y = -(double)b;
	double s = x + y, bb = s - x, t = (x - (s - bb)) + (y - bb);
	double eb = ldexp(1.0, -(int)k);

	*diff = fabs(s);
	if (fabs(s) != eb)
		return fabs(s) < eb;
	return s > 0 ? t <= 0 : t >= 0;
}

void ig_verify(struct ig_vstats *s, const uint8_t *orig, const uint8_t *got,
	       size_t len, unsigned int k)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t ua, ub;
		float a, b;
		double d;

		memcpy(&ua, orig + i, 4);
		memcpy(&ub, got + i, 4);
		s->values++;
		if (ua == ub)
			continue;
		s->not_exact++;
		memcpy(&a, &ua, 4);
		memcpy(&b, &ub, 4);
		if (!isfinite(a) || !isfinite(b)) {
			s->nonfinite_bad++;
			continue;
		}
		if (!ig_within(a, b, k, &d))
			s->over_bound++;
		if (d > s->max_abs_err)
			s->max_abs_err = d;
	}
}

void ig_codec_apply(uint8_t *buf, size_t len, unsigned int k)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t bits;
		int32_t q;
		enum inc_class c;

		memcpy(&bits, buf + i, 4);
		c = inc_classify(bits, k, &q);
		bits = inc_dequantize(c, q, bits, k);
		memcpy(buf + i, &bits, 4);
	}
}
