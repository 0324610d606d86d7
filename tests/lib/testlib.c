// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static int n_tests, n_failed;

void t_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	n_tests++;
	if (!cond)
		n_failed++;
	printf("%sok %d - ", cond ? "" : "not ", n_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void t_skip(const char *fmt, ...)
{
	va_list ap;

	n_tests++;
	printf("ok %d # SKIP ", n_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void t_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int t_failures(void)
{
	return n_failed;
}

int t_done(void)
{
	printf("1..%d\n", n_tests);
	return n_failed ? 1 : 0;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

double rng_gauss(struct rng *r)
{
	double u = rng_unit(r) + 0x1p-60, v = rng_unit(r);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

const char *t_gradient_dir(void)
{
	const char *d = getenv("INC_GRADIENTS");

	return d && *d ? d : "../shared/gradients";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t t_gradient_files(char ***paths)
{
	const char *dir = t_gradient_dir();
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	char **v = NULL;

	*paths = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 5 || strcmp(de->d_name + l - 4, ".f32"))
			continue;
		v = realloc(v, (n + 1) * sizeof(*v));
		v[n] = malloc(strlen(dir) + l + 2);
		sprintf(v[n], "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_str);
	*paths = v;
	return n;
}

uint8_t *t_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long sz;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(sz ? (size_t)sz : 1);
	if (fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = (size_t)sz;
	return buf;
}

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/*
 * docs/codec.md: t = |v| * 2^(k-1), q = floor(t + 1/2) with the sign of v.
 * In double, |v| * 2^(k-1) is exact, and so is t + 1/2 whenever it matters
 * (a float has 24 significant bits, a double 53).
 */
int ref_class(float v, unsigned int k, long *q)
{
	double t, r;

	*q = 0;
	if (!isfinite(v))
		return 3;
	t = fabs((double)v) * (double)(1u << (k - 1));	/* k <= 24: exact */
	r = floor(t + 0.5);
	if (r > 32767)
		return 3;
	*q = signbit(v) ? -(long)r : (long)r;
	if (r == 0)
		return 0;
	return r <= 127 ? 1 : 2;
}

uint32_t ref_decoded(uint32_t b, unsigned int k)
{
	long q;
	int c = ref_class(u2f(b), k, &q);

	if (c == 3)
		return b;
	if (c == 0)
		return 0;
	return f2u((float)((double)q / (double)(1u << (k - 1))));
}

static void put_le(uint8_t **p, uint32_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		*(*p)++ = (uint8_t)(v >> (8 * i));
}

void ref_classify(const uint8_t *raw, size_t n, unsigned int k,
		  uint8_t *cls, int32_t *q)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t b = (uint32_t)raw[4 * i] | (uint32_t)raw[4 * i + 1] << 8 |
			     (uint32_t)raw[4 * i + 2] << 16 |
			     (uint32_t)raw[4 * i + 3] << 24;
		long lq;

		cls[i] = (uint8_t)ref_class(u2f(b), k, &lq);
		q[i] = cls[i] == 3 ? (int32_t)b : (int32_t)lq;
	}
}

size_t ref_encode_classified(const uint8_t *raw, size_t raw_len,
			     const uint8_t *cls, const int32_t *q, int mode,
			     uint8_t *out)
{
	static const int bytes[4] = { 0, 1, 2, 4 };
	size_t n = raw_len / 4, ngroups = (n + 7) / 8, s, g, i, len = 0;

	/* segments of 8 groups: [mask] [tag words] [payloads] */
	for (s = 0; s < ngroups; s += 8) {
		size_t sg = ngroups - s < 8 ? ngroups - s : 8;
		uint8_t payload[8][32], *p;
		size_t plen[8];
		unsigned int tw[8], mask = 0;

		for (g = 0; g < sg; g++) {
			size_t first = 8 * (s + g);
			size_t vals = n - first < 8 ? n - first : 8;

			tw[g] = 0;
			p = payload[g];
			for (i = 0; i < vals; i++) {
				tw[g] |= (unsigned int)cls[first + i] << (2 * i);
				put_le(&p, (uint32_t)q[first + i],
				       bytes[cls[first + i]]);
			}
			plen[g] = (size_t)(p - payload[g]);
			/* paper: every group; sparse: groups not all ZERO */
			if (mode == 1 || tw[g])
				mask |= 1u << g;
		}
		if (mode == 2)
			out[len++] = (uint8_t)mask;
		for (g = 0; g < sg; g++) {
			if (mask >> g & 1) {
				out[len++] = (uint8_t)tw[g];
				out[len++] = (uint8_t)(tw[g] >> 8);
			}
		}
		for (g = 0; g < sg; g++) {
			if (mask >> g & 1) {
				memcpy(out + len, payload[g], plen[g]);
				len += plen[g];
			}
		}
	}
	memcpy(out + len, raw + 4 * n, raw_len & 3);
	return len + (raw_len & 3);
}

/*
 * Width mode (docs/codec.md section 12), from the text: the group's fields
 * as a list of bits (one byte each), then packed LSB first and padded.
 */
static void bits_add(uint8_t *bits, size_t *nb, uint32_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		bits[(*nb)++] = (uint8_t)(v >> i & 1);
}

static size_t ref_width_group(const uint8_t *cls, const int32_t *q,
			      size_t vals, uint8_t *out)
{
	uint8_t bits[512];
	size_t nb = 0, len, i;
	unsigned int w = 0, nz = 0, nnr = 0, coded = 0, rawm = 0, dense;
	long maxmag = 0;

	for (i = 0; i < vals; i++) {
		long m = labs((long)q[i]);

		if (cls[i] == 3) {
			rawm |= 1u << i;
			continue;
		}
		nnr++;
		if (cls[i] != 0) {
			coded |= 1u << i;
			nz++;
			if (m > maxmag)
				maxmag = m;
		}
	}
	while (maxmag >> w)
		w++;
	dense = nnr * (1 + w) < 16 + nz * (1 + w);
	bits_add(bits, &nb, w, 4);
	bits_add(bits, &nb, dense, 1);
	bits_add(bits, &nb, rawm != 0, 1);
	if (!dense)
		bits_add(bits, &nb, coded, 16);
	if (rawm)
		bits_add(bits, &nb, rawm, 16);
	for (i = 0; i < vals; i++) {
		if (cls[i] == 3 || (!dense && cls[i] == 0))
			continue;
		bits_add(bits, &nb, q[i] < 0, 1);
		bits_add(bits, &nb, (uint32_t)labs((long)q[i]), w);
	}
	len = (nb + 7) / 8;
	memset(out, 0, len);
	for (i = 0; i < nb; i++)
		out[i / 8] = (uint8_t)(out[i / 8] | bits[i] << (i % 8));
	for (i = 0; i < vals; i++)
		if (cls[i] == 3) {
			uint8_t *p = out + len;

			put_le(&p, (uint32_t)q[i], 4);
			len += 4;
		}
	return len;
}

size_t ref_encode_width(const uint8_t *raw, size_t raw_len,
			const uint8_t *cls, const int32_t *q, uint8_t *out)
{
	size_t n = raw_len / 4, ngroups = (n + 15) / 16, s, g, i, len = 0;

	/* segments of 8 groups of 16: [mask] [present groups] */
	for (s = 0; s < ngroups; s += 8) {
		size_t sg = ngroups - s < 8 ? ngroups - s : 8, at = len++;
		unsigned int mask = 0;

		for (g = 0; g < sg; g++) {
			size_t first = 16 * (s + g);
			size_t vals = n - first < 16 ? n - first : 16;
			int any = 0;

			for (i = 0; i < vals; i++)
				any |= cls[first + i] != 0;
			if (!any)
				continue;
			mask |= 1u << g;
			len += ref_width_group(cls + first, q + first, vals,
					       out + len);
		}
		out[at] = (uint8_t)mask;
	}
	memcpy(out + len, raw + 4 * n, raw_len & 3);
	return len + (raw_len & 3);
}

size_t ref_encode_body(const uint8_t *raw, size_t raw_len, unsigned int k,
		       int mode, uint8_t *out)
{
	uint8_t cls[2304];
	int32_t q[2304];

	ref_classify(raw, raw_len / 4, k, cls, q);
	if (mode == 3)
		return ref_encode_width(raw, raw_len, cls, q, out);
	return ref_encode_classified(raw, raw_len, cls, q, mode, out);
}

size_t t_check_bound(const uint8_t *orig, const uint8_t *dec, size_t len,
		     unsigned int k, double *maxerr)
{
	double eb = ldexp(1.0, -(int)k), m = 0;
	size_t i, bad = 0;

	for (i = 0; i + 4 <= len; i += 4) {
		float a, b;

		memcpy(&a, orig + i, 4);
		memcpy(&b, dec + i, 4);
		if (!isfinite(a)) {
			bad += memcmp(orig + i, dec + i, 4) != 0;
		} else {
			double e = fabs((double)a - (double)b);

			if (!(e <= eb))
				bad++;
			if (e > m)
				m = e;
		}
	}
	bad += memcmp(orig + i, dec + i, len - i) != 0;
	if (maxerr)
		*maxerr = m;
	return bad;
}
