// SPDX-License-Identifier: MIT
/*
 * The real gradients in ../shared/gradients (INC_GRADIENTS overrides):
 * every file, several k, both modes, through the file API of every
 * implementation. Files must be byte-identical across implementations,
 * decode within the bound, and compress as far as real gradients allow
 * (the floors below sit about 5% under the least ratio measured on these
 * files, and catch a codec that silently stops compressing).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccodec.h"
#include "testlib.h"

struct kcase {
	unsigned int k;
	double floor_paper, floor_sparse;	/* least ratio on any file */
};

static const struct kcase kcases[] = {
	{ 6, 12.0, 30.0 },	/* measured minimum: 12.60, 31.98 */
	{ 8, 7.5, 9.8 },	/* 7.90, 10.33 */
	{ 10, 5.6, 6.4 },	/* 5.90, 6.76 */
	{ 12, 4.8, 5.2 },	/* 5.12, 5.51 */
	{ 16, 3.4, 3.6 },	/* 3.56, 3.77 */
	{ 20, 2.6, 2.7 },	/* 2.79, 2.87 */
};

static void one(const char *path, const uint8_t *raw, size_t len,
		const struct kcase *kc, int mode)
{
	const char *const *impls = inc_impl_list();
	struct inc_params p = { .k = kc->k, .mode = mode };
	size_t cap = inc_compress_bound(len, 0), flen = 0, f0len = 0, dlen, i;
	uint8_t *f = malloc(cap), *f0 = malloc(cap), *dec = malloc(len + 1);
	int same = 1, ok = 1;
	double maxerr = 0, ratio;
	size_t bad = 0;

	for (i = 0; impls[i]; i++) {
		inc_impl_select(impls[i]);
		if (inc_compress(raw, len, &p, f, cap, &flen)) {
			ok = 0;
			break;
		}
		if (!i) {
			memcpy(f0, f, flen);
			f0len = flen;
		} else {
			same &= flen == f0len && !memcmp(f, f0, flen);
		}
		if (inc_decompress(f, flen, dec, len, &dlen) || dlen != len) {
			ok = 0;
			break;
		}
		bad += t_check_bound(raw, dec, len, kc->k, &maxerr);
	}
	ratio = (double)len / (double)f0len;
	t_ok(ok && same && !bad && maxerr <= ldexp(1.0, -(int)kc->k) &&
	     ratio >= (mode == INC_MODE_PAPER ? kc->floor_paper : kc->floor_sparse),
	     "%s k=%u %s: ratio %.2f, max error %.3g (bound %.3g), identical across implementations %s, violations %zu",
	     strrchr(path, '/') ? strrchr(path, '/') + 1 : path, kc->k,
	     mode == INC_MODE_PAPER ? "paper" : "sparse", ratio, maxerr,
	     ldexp(1.0, -(int)kc->k), same ? "yes" : "NO", bad);
	free(f);
	free(f0);
	free(dec);
}

int main(void)
{
	char **paths;
	size_t n = t_gradient_files(&paths), i, j;

	if (!n) {
		t_skip("no gradient files in %s", t_gradient_dir());
		return t_done();
	}
	for (i = 0; i < n; i++) {
		size_t len;
		uint8_t *raw = t_read_file(paths[i], &len);

		if (!raw) {
			t_ok(0, "read %s", paths[i]);
			continue;
		}
		for (j = 0; j < sizeof(kcases) / sizeof(kcases[0]); j++) {
			one(paths[i], raw, len, &kcases[j], INC_MODE_PAPER);
			one(paths[i], raw, len, &kcases[j], INC_MODE_SPARSE);
		}
		free(raw);
		free(paths[i]);
	}
	free(paths);
	return t_done();
}
