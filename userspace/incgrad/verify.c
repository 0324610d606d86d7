// SPDX-License-Identifier: MIT
#include <math.h>
#include <string.h>

#include "inccodec.h"
#include "toolutil.h"
#include "verify.h"

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
		if (!tu_within(a, b, k, &d))
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
