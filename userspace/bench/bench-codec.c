// SPDX-License-Identifier: MIT
/*
 * bench-codec: single-thread throughput and ratio of the inccodec file API
 * (inc_compress / inc_decompress) on raw float32 gradients, for each k, mode
 * and SIMD implementation, next to memcpy (the memory-bandwidth limit),
 * zstd -1, lz4 and an F16C float16 conversion. GB/s counts raw float32
 * input bytes per second (1 GB = 1e9 bytes); each figure is the fastest of
 * at least 3 timed repetitions after one warm-up, which is also the run
 * whose output is verified.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <immintrin.h>
#include <limits.h>
#include <lz4.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "inccodec.h"
#include "toolutil.h"

#define DEFAULT_INPUT	"../shared/gradients"
#define MIN_REPS	3
#define MAX_KS		(INC_K_MAX - INC_K_MIN + 1)
#define MAX_IMPLS	8

static const char *prog = "bench-codec";
static double min_time = 0.3;

/* ---- small helpers --------------------------------------------------- */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "%s: out of memory (%zu bytes)\n", prog, n);
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "%s: out of memory (%zu bytes)\n", prog, n);
		exit(1);
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--quick] [--impl NAME[,NAME...]] [-k K[,K...]] "
		"[DIR_OR_FILE...]\n"
		"  Benchmark inccodec against memcpy, zstd -1, lz4 and fp16 on "
		"raw\n"
		"  little-endian float32 gradients (default input: %s;\n"
		"  a directory means all its *.f32 files in sorted order).\n"
		"  --quick        0.05 s per measurement instead of 0.3 s\n"
		"  --impl LIST    codec implementations to measure "
		"(default: all usable)\n"
		"  -k LIST        error bounds 2^-k to measure (default: "
		"10,8,6)\n",
		prog, DEFAULT_INPUT);
}

/* Print argv as a shell command line that reproduces the run. */
static void print_cmdline(int argc, char **argv)
{
	int i;

	printf("command: ");
	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (i)
			putchar(' ');
		if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "abcdefghijklmnopqrstuvwxyz0123456789"
				 "_-+=,./:@%") == strlen(s)) {
			fputs(s, stdout);
			continue;
		}
		putchar('\'');
		for (; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", stdout);
			else
				putchar(*s);
		}
		putchar('\'');
	}
	putchar('\n');
}

static void print_cpu(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *name = NULL;

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		name = colon + 1 + strspn(colon + 1, " \t");
		name[strcspn(name, "\n")] = '\0';
		break;
	}
	printf("cpu: %s (%ld logical CPUs online; single thread used)\n",
	       name ? name : "unknown", sysconf(_SC_NPROCESSORS_ONLN));
	if (f)
		fclose(f);
}

/* ---- options ---------------------------------------------------------- */

static int parse_ks(const char *arg, unsigned int *ks, unsigned int *nks)
{
	const char *p = arg;

	*nks = 0;
	for (;;) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v < INC_K_MIN || v > INC_K_MAX || *nks == MAX_KS)
			return -1;
		ks[(*nks)++] = (unsigned int)v;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

static int usable_impl(const char *name, size_t len)
{
	const char *const *l;

	for (l = inc_impl_list(); *l; l++)
		if (strlen(*l) == len && !strncmp(*l, name, len))
			return 1;
	return 0;
}

static int parse_impls(const char *arg, const char **impls,
		       unsigned int *nimpls)
{
	const char *p = arg;

	*nimpls = 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (!usable_impl(p, len) || *nimpls == MAX_IMPLS) {
			fprintf(stderr, "%s: --impl: '%.*s' is not an "
				"implementation this CPU can run\n",
				prog, (int)len, p);
			return -1;
		}
		impls[(*nimpls)++] = xstrndup(p, len);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* ---- inputs ----------------------------------------------------------- */

struct file_ent {
	char *path;
	char *model;
	size_t size;
};

struct input {
	const char *name;
	uint8_t *buf;
	size_t len;
	unsigned int nfiles;
};

static struct file_ent *files;
static size_t nfiles;

static void add_file(const char *path)
{
	const char *base = strrchr(path, '/'), *dash;
	size_t n;

	base = base ? base + 1 : path;
	dash = strchr(base, '-');
	n = dash ? (size_t)(dash - base) : strlen(base);
	if (!dash && n > 4 && !strcmp(base + n - 4, ".f32"))
		n -= 4;
	if (!n)
		n = strlen(base);
	files = xrealloc(files, (nfiles + 1) * sizeof(*files));
	files[nfiles].path = xstrndup(path, strlen(path));
	files[nfiles].model = xstrndup(base, n);
	files[nfiles].size = 0;
	nfiles++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_operand(const char *path)
{
	char **names = NULL;
	size_t n = 0, i, len;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (stat(path, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	if (!S_ISDIR(st.st_mode)) {
		add_file(path);
		return;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len <= 4 || strcmp(de->d_name + len - 4, ".f32"))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrndup(de->d_name, len);
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "%s: %s: no .f32 files\n", prog, path);
		exit(1);
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		char *full = xmalloc(strlen(path) + strlen(names[i]) + 2);

		sprintf(full, "%s%s%s", path,
			path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
		add_file(full);
		free(full);
		free(names[i]);
	}
	free(names);
}

static void append(struct input *in, const uint8_t *buf, size_t len)
{
	in->buf = xrealloc(in->buf, in->len + len);
	memcpy(in->buf + in->len, buf, len);
	in->len += len;
	in->nfiles++;
}

/*
 * Read all files; inputs[0..nmodels-1] are the models in order of first
 * appearance, inputs[nmodels] is "all".
 */
static struct input *load_inputs(size_t *ninputs)
{
	struct input *in = NULL;
	size_t n = 0, i, m;

	for (i = 0; i < nfiles; i++) {
		size_t len;
		uint8_t *buf = tu_read(prog, files[i].path, &len);

		if (!buf)
			exit(1);
		if (len % 4) {
			fprintf(stderr, "%s: %s: size %zu is not a multiple "
				"of 4 (not raw float32)\n", prog,
				files[i].path, len);
			exit(1);
		}
		files[i].size = len;
		for (m = 0; m < n; m++)
			if (!strcmp(in[m].name, files[i].model))
				break;
		if (m == n) {
			in = xrealloc(in, (n + 1) * sizeof(*in));
			memset(&in[n], 0, sizeof(*in));
			in[n++].name = files[i].model;
		}
		append(&in[m], buf, len);
		free(buf);
	}
	in = xrealloc(in, (n + 1) * sizeof(*in));
	memset(&in[n], 0, sizeof(*in));
	in[n].name = "all";
	for (m = 0; m < n; m++) {
		in[n].buf = xrealloc(in[n].buf, in[n].len + in[m].len);
		memcpy(in[n].buf + in[n].len, in[m].buf, in[m].len);
		in[n].len += in[m].len;
		in[n].nfiles += in[m].nfiles;
	}
	if (!in[n].len) {
		fprintf(stderr, "%s: the input files hold no data\n", prog);
		exit(1);
	}
	*ninputs = n + 1;
	return in;
}

/* ---- the operations being timed --------------------------------------- */

struct job {
	const uint8_t *src;
	size_t len;
	uint8_t *comp;
	size_t comp_cap, comp_len;
	uint8_t *dec;
	size_t dec_cap, dec_len;
	struct inc_params params;
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
};

typedef int (*op_fn)(struct job *j);

static int inc_c(struct job *j)
{
	int err = inc_compress(j->src, j->len, &j->params, j->comp,
			       j->comp_cap, &j->comp_len);

	if (err)
		fprintf(stderr, "%s: inc_compress: %s\n", prog,
			inc_strerror(err));
	return err;
}

static int inc_d(struct job *j)
{
	int err = inc_decompress(j->comp, j->comp_len, j->dec, j->dec_cap,
				 &j->dec_len);

	if (err)
		fprintf(stderr, "%s: inc_decompress: %s\n", prog,
			inc_strerror(err));
	return err;
}

static int memcpy_c(struct job *j)
{
	memcpy(j->comp, j->src, j->len);
	j->comp_len = j->len;
	return 0;
}

static int memcpy_d(struct job *j)
{
	memcpy(j->dec, j->comp, j->comp_len);
	j->dec_len = j->comp_len;
	return 0;
}

static int zstd_c(struct job *j)
{
	size_t r = ZSTD_compressCCtx(j->cctx, j->comp, j->comp_cap, j->src,
				     j->len, 1);

	if (ZSTD_isError(r)) {
		fprintf(stderr, "%s: ZSTD_compress: %s\n", prog,
			ZSTD_getErrorName(r));
		return -1;
	}
	j->comp_len = r;
	return 0;
}

static int zstd_d(struct job *j)
{
	size_t r = ZSTD_decompressDCtx(j->dctx, j->dec, j->dec_cap, j->comp,
				       j->comp_len);

	if (ZSTD_isError(r)) {
		fprintf(stderr, "%s: ZSTD_decompress: %s\n", prog,
			ZSTD_getErrorName(r));
		return -1;
	}
	j->dec_len = r;
	return 0;
}

/* The caller checks that len and comp_cap fit in an int. */
static int lz4_c(struct job *j)
{
	int cap = j->comp_cap > INT_MAX ? INT_MAX : (int)j->comp_cap;
	int r = LZ4_compress_default((const char *)j->src, (char *)j->comp,
				     (int)j->len, cap);

	if (r <= 0) {
		fprintf(stderr, "%s: LZ4_compress_default failed\n", prog);
		return -1;
	}
	j->comp_len = (size_t)r;
	return 0;
}

static int lz4_d(struct job *j)
{
	int r = LZ4_decompress_safe((const char *)j->comp, (char *)j->dec,
				    (int)j->comp_len, (int)j->len);

	if (r < 0) {
		fprintf(stderr, "%s: LZ4_decompress_safe failed\n", prog);
		return -1;
	}
	j->dec_len = (size_t)r;
	return 0;
}

/* float32 -> IEEE half, round to nearest even; len is a multiple of 4. */
__attribute__((target("f16c,avx2")))
static int fp16_c(struct job *j)
{
	const uint8_t *in = j->src;
	uint8_t *out = j->comp;
	size_t n = j->len / 4, i;

	for (i = 0; i + 8 <= n; i += 8) {
		__m256 v = _mm256_loadu_ps((const float *)(in + 4 * i));

		_mm_storeu_si128((__m128i *)(out + 2 * i),
				 _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
	}
	if (i < n) {
		float t[8] = { 0 };
		uint16_t h[8];

		memcpy(t, in + 4 * i, 4 * (n - i));
		_mm_storeu_si128((__m128i *)h,
				 _mm256_cvtps_ph(_mm256_loadu_ps(t),
						 _MM_FROUND_TO_NEAREST_INT));
		memcpy(out + 2 * i, h, 2 * (n - i));
	}
	j->comp_len = 2 * n;
	return 0;
}

__attribute__((target("f16c,avx2")))
static int fp16_d(struct job *j)
{
	const uint8_t *in = j->comp;
	uint8_t *out = j->dec;
	size_t n = j->comp_len / 2, i;

	for (i = 0; i + 8 <= n; i += 8) {
		__m128i h = _mm_loadu_si128((const __m128i *)(in + 2 * i));

		_mm256_storeu_ps((float *)(out + 4 * i), _mm256_cvtph_ps(h));
	}
	if (i < n) {
		uint16_t h[8] = { 0 };
		float t[8];

		memcpy(h, in + 2 * i, 2 * (n - i));
		_mm256_storeu_ps(t, _mm256_cvtph_ps(
				 _mm_loadu_si128((const __m128i *)h)));
		memcpy(out + 4 * i, t, 4 * (n - i));
	}
	j->dec_len = 4 * n;
	return 0;
}

/* One untimed round trip: warms caches and page tables, output is checked. */
static void warm_up(struct job *j, op_fn c, op_fn d, const char *what)
{
	if (c(j) || d(j)) {
		fprintf(stderr, "%s: %s failed\n", prog, what);
		exit(1);
	}
	if (j->dec_len != j->len) {
		fprintf(stderr, "%s: %s: round trip gave %zu bytes, not %zu\n",
			prog, what, j->dec_len, j->len);
		exit(1);
	}
}

/* Fastest of >= MIN_REPS runs spanning >= min_time seconds, in seconds. */
static double time_op(struct job *j, op_fn fn, const char *what)
{
	double best = INFINITY, start = tu_now(), t0, t1;
	unsigned int reps = 0;

	do {
		t0 = tu_now();
		if (fn(j)) {
			fprintf(stderr, "%s: %s failed\n", prog, what);
			exit(1);
		}
		t1 = tu_now();
		if (t1 - t0 < best)
			best = t1 - t0;
		reps++;
	} while (reps < MIN_REPS || t1 - start < min_time);
	return best;
}

/* ---- results ---------------------------------------------------------- */

struct row {
	const char *input;
	const char *method;
	unsigned int k;		/* 0: "-" */
	const char *impl;	/* NULL: "-" */
	double ratio, c_gbs, d_gbs;
	double max_err;		/* < 0: lossless */
};

static struct row *rows;
static size_t nrows;
static int input_w = 5;

static void print_head(void)
{
	printf("%-*s  %-15s  %3s  %-6s  %8s  %9s  %9s  %9s\n", input_w,
	       "input", "method", "k", "impl", "ratio", "comp GB/s",
	       "dec GB/s", "max err");
}

static void emit(const struct row *r)
{
	char kbuf[8], err[32];

	snprintf(kbuf, sizeof(kbuf), "%u", r->k);
	if (r->max_err < 0)
		snprintf(err, sizeof(err), "0");
	else
		snprintf(err, sizeof(err), "%.3g", r->max_err);
	printf("%-*s  %-15s  %3s  %-6s  %7.2fx  %9.3f  %9.3f  %9s\n",
	       input_w, r->input, r->method, r->k ? kbuf : "-",
	       r->impl ? r->impl : "-", r->ratio, r->c_gbs, r->d_gbs, err);
	fflush(stdout);
	rows = xrealloc(rows, (nrows + 1) * sizeof(*rows));
	rows[nrows++] = *r;
}

/* Warm up, verify losslessness, time and print one baseline method. */
static void bench_lossless(struct job *j, const char *input,
			   const char *method, op_fn c, op_fn d)
{
	struct row r = { .input = input, .method = method, .max_err = -1 };

	warm_up(j, c, d, method);
	if (memcmp(j->src, j->dec, j->len)) {
		fprintf(stderr, "%s: %s on %s: round trip is not lossless\n",
			prog, method, input);
		exit(1);
	}
	r.ratio = (double)j->len / (double)j->comp_len;
	r.c_gbs = j->len / time_op(j, c, method) / 1e9;
	r.d_gbs = j->len / time_op(j, d, method) / 1e9;
	emit(&r);
}

static void bench_fp16(struct job *j, const char *input)
{
	struct row r = { .input = input, .method = "fp16" };
	struct tu_err e;

	warm_up(j, fp16_c, fp16_d, "fp16");
	tu_measure(j->src, j->dec, j->len, INC_K_MAX, &e);
	r.max_err = e.max_abs;
	r.ratio = (double)j->len / (double)j->comp_len;
	r.c_gbs = j->len / time_op(j, fp16_c, "fp16") / 1e9;
	r.d_gbs = j->len / time_op(j, fp16_d, "fp16") / 1e9;
	emit(&r);
}

static unsigned int impl_mismatches;

/*
 * The codec for one (k, mode) across implementations; every round trip
 * must hold the bound, and all implementations must write the same file.
 */
static void bench_codec(struct job *j, const char *input, unsigned int k,
			enum inc_mode mode, const char **impls,
			unsigned int nimpls, uint8_t *ref)
{
	const char *method = mode == INC_MODE_SPARSE ? "inccodec sparse" :
			     mode == INC_MODE_WIDTH ? "inccodec width" :
						      "inccodec paper";
	size_t ref_len = 0;
	unsigned int i;

	j->params.k = k;
	j->params.mode = mode;
	j->params.chunk_bytes = 0;
	for (i = 0; i < nimpls; i++) {
		struct row r = { .input = input, .method = method, .k = k,
				 .impl = impls[i] };
		struct tu_err e;
		int err = inc_impl_select(impls[i]);

		if (err) {
			fprintf(stderr, "%s: inc_impl_select(%s): %s\n", prog,
				impls[i], inc_strerror(err));
			exit(1);
		}
		warm_up(j, inc_c, inc_d, method);
		tu_measure(j->src, j->dec, j->len, k, &e);
		if (!tu_held(&e)) {
			fprintf(stderr, "%s: %s, k=%u, impl %s, input %s: "
				"bound 2^-%u violated: %llu of %llu finite "
				"values over it (max error %g), %llu "
				"non-finite and %llu tail bytes not "
				"restored\n", prog, method, k, impls[i],
				input, k, (unsigned long long)e.over_bound,
				(unsigned long long)e.finite, e.max_abs,
				(unsigned long long)e.nonfinite_bad,
				(unsigned long long)e.tail_bad);
			exit(1);
		}
		if (!i) {
			memcpy(ref, j->comp, j->comp_len);
			ref_len = j->comp_len;
		} else if (j->comp_len != ref_len ||
			   memcmp(ref, j->comp, ref_len)) {
			fprintf(stderr, "%s: warning: %s, k=%u, input %s: "
				"impl %s output (%zu bytes) differs from %s "
				"(%zu bytes)\n", prog, method, k, input,
				impls[i], j->comp_len, impls[0], ref_len);
			impl_mismatches++;
		}
		r.max_err = e.max_abs;
		r.ratio = (double)j->len / (double)j->comp_len;
		r.c_gbs = j->len / time_op(j, inc_c, method) / 1e9;
		r.d_gbs = j->len / time_op(j, inc_d, method) / 1e9;
		emit(&r);
	}
}

static void summary(const unsigned int *ks, unsigned int nks)
{
	const struct row *z = NULL;
	unsigned int i;
	size_t n;

	for (n = 0; n < nrows; n++)
		if (!strcmp(rows[n].input, "all") &&
		    !strcmp(rows[n].method, "zstd -1"))
			z = &rows[n];
	if (!z)
		return;
	printf("\nsummary (input all, inccodec sparse, fastest impl per "
	       "direction, vs zstd -1):\n");
	for (i = 0; i < nks; i++) {
		const struct row *bc = NULL, *bd = NULL;

		for (n = 0; n < nrows; n++) {
			const struct row *r = &rows[n];

			if (strcmp(r->input, "all") || r->k != ks[i] ||
			    strcmp(r->method, "inccodec sparse"))
				continue;
			if (!bc || r->c_gbs > bc->c_gbs)
				bc = r;
			if (!bd || r->d_gbs > bd->d_gbs)
				bd = r;
		}
		if (!bc)
			continue;
		printf("k=%-2u compress %.3f GB/s (%s), decompress %.3f GB/s "
		       "(%s): speed x %.1f / x %.1f of zstd -1 (%.3f / %.3f "
		       "GB/s), ratio %.2fx vs %.2fx\n", ks[i], bc->c_gbs,
		       bc->impl, bd->d_gbs, bd->impl, bc->c_gbs / z->c_gbs,
		       bd->d_gbs / z->d_gbs, z->c_gbs, z->d_gbs, bc->ratio,
		       z->ratio);
	}
}

/* ---- main ------------------------------------------------------------- */

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "impl", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int ks[MAX_KS] = { 10, 8, 6 }, nks = 3, nimpls = 0, i, ki;
	const char *impls[MAX_IMPLS];
	const char *const *list;
	int have_f16c, opt, lz4_ok;
	struct input *inputs;
	size_t ninputs, n, max_len = 0, comp_cap;
	struct job j = { 0 };
	uint8_t *ref;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		prog = slash ? slash + 1 : argv[0];
	}
	while ((opt = getopt_long(argc, argv, "k:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'q':
			min_time = 0.05;
			break;
		case 'i':
			if (parse_impls(optarg, impls, &nimpls)) {
				usage(stderr);
				return 2;
			}
			break;
		case 'k':
			if (parse_ks(optarg, ks, &nks)) {
				fprintf(stderr, "%s: -k: '%s' is not a list of "
					"integers in %d..%d\n", prog, optarg,
					INC_K_MIN, INC_K_MAX);
				usage(stderr);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			/* getopt_long() has said what is wrong */
			usage(stderr);
			return 2;
		}
	}
	if (!nimpls) {
		/* inc_impl_list() is best last; measure best first */
		for (list = inc_impl_list(); list[nimpls]; nimpls++)
			;
		for (i = 0; i < nimpls && i < MAX_IMPLS; i++)
			impls[i] = list[nimpls - 1 - i];
		if (nimpls > MAX_IMPLS)
			nimpls = MAX_IMPLS;
	}
	if (optind == argc)
		add_operand(DEFAULT_INPUT);
	for (; optind < argc; optind++)
		add_operand(argv[optind]);
	inputs = load_inputs(&ninputs);
	have_f16c = __builtin_cpu_supports("f16c") &&
		    __builtin_cpu_supports("avx2");

	print_cmdline(argc, argv);
	print_cpu();
	printf("codec implementations usable:");
	for (list = inc_impl_list(); *list; list++)
		printf(" %s", *list);
	printf(" (library default %s); measured:", inc_impl_name());
	for (i = 0; i < nimpls; i++)
		printf(" %s", impls[i]);
	printf("\nlibraries: zstd %s, lz4 %s; compiler: gcc %s\n",
	       ZSTD_versionString(), LZ4_versionString(), __VERSION__);
	printf("timing: fastest of >= %d runs spanning >= %.2f s per "
	       "figure, after one verified warm-up run\n", MIN_REPS,
	       min_time);
	printf("GB/s = raw float32 bytes / s (1e9); ratio = raw / "
	       "compressed; max err = max |dec - orig| over finite values\n");
	printf("input files:\n");
	for (n = 0; n < nfiles; n++)
		printf("  %-48s %10zu bytes %9zu values\n", files[n].path,
		       files[n].size, files[n].size / 4);
	printf("inputs (concatenated):\n");
	for (n = 0; n < ninputs; n++) {
		printf("  %-10s %3u files %10zu bytes\n", inputs[n].name,
		       inputs[n].nfiles, inputs[n].len);
		if ((int)strlen(inputs[n].name) > input_w)
			input_w = (int)strlen(inputs[n].name);
		if (inputs[n].len > max_len)
			max_len = inputs[n].len;
	}
	if (!have_f16c)
		printf("fp16: skipped, this CPU lacks F16C/AVX2\n");
	lz4_ok = max_len <= LZ4_MAX_INPUT_SIZE;
	if (!lz4_ok)
		printf("lz4: skipped, input larger than LZ4_MAX_INPUT_SIZE\n");
	putchar('\n');
	fflush(stdout);

	comp_cap = inc_compress_bound(max_len, 0);
	if (ZSTD_compressBound(max_len) > comp_cap)
		comp_cap = ZSTD_compressBound(max_len);
	if (lz4_ok && (size_t)LZ4_compressBound((int)max_len) > comp_cap)
		comp_cap = (size_t)LZ4_compressBound((int)max_len);
	j.comp_cap = comp_cap;
	j.comp = xmalloc(comp_cap);
	j.dec_cap = max_len;
	j.dec = xmalloc(max_len);
	ref = xmalloc(inc_compress_bound(max_len, 0));
	j.cctx = ZSTD_createCCtx();
	j.dctx = ZSTD_createDCtx();
	if (!j.cctx || !j.dctx) {
		fprintf(stderr, "%s: cannot create zstd contexts\n", prog);
		return 1;
	}

	print_head();
	for (n = 0; n < ninputs; n++) {
		const char *name = inputs[n].name;

		if (!inputs[n].len)
			continue;
		j.src = inputs[n].buf;
		j.len = inputs[n].len;
		bench_lossless(&j, name, "memcpy", memcpy_c, memcpy_d);
		bench_lossless(&j, name, "zstd -1", zstd_c, zstd_d);
		if (lz4_ok)
			bench_lossless(&j, name, "lz4", lz4_c, lz4_d);
		if (have_f16c)
			bench_fp16(&j, name);
		for (ki = 0; ki < nks; ki++) {
			bench_codec(&j, name, ks[ki], INC_MODE_SPARSE, impls,
				    nimpls, ref);
			bench_codec(&j, name, ks[ki], INC_MODE_PAPER, impls,
				    nimpls, ref);
			bench_codec(&j, name, ks[ki], INC_MODE_WIDTH, impls,
				    nimpls, ref);
		}
	}
	summary(ks, nks);
	if (impl_mismatches)
		printf("WARNING: %u (input, k, mode, impl) runs wrote a file "
		       "different from the first impl's\n", impl_mismatches);

	ZSTD_freeCCtx(j.cctx);
	ZSTD_freeDCtx(j.dctx);
	free(ref);
	free(j.comp);
	free(j.dec);
	return 0;
}
