// SPDX-License-Identifier: MIT
/*
 * inccodec-demo: the codec on real gradients, one table. For each file:
 * the error bound, the compression ratio, the largest error measured
 * against the original, and single-core speed each way (GB/s of float
 * input). Exits 1 if any value misses the bound.
 *
 * usage: inccodec-demo [-k K] [--mode paper|sparse|width] DIR_OR_FILE...
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inccodec.h"
#include "toolutil.h"

static const char *prog = "inccodec-demo";
static size_t bad_inputs;	/* arguments that named nothing readable */

struct row {
	size_t raw, comp;
	double ctime, dtime;
	struct tu_err e;
};

/* Best time of a few runs of at least 0.05 s in all. */
static double best_time(int (*fn)(void *), void *arg)
{
	double best = 1e9, start = tu_now(), t0, t;
	int i;

	for (i = 0; i < 3 || tu_now() - start < 0.05; i++) {
		t0 = tu_now();
		if (fn(arg))
			return -1;
		t = tu_now() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

struct job {
	const uint8_t *raw;
	size_t raw_len;
	struct inc_params p;
	uint8_t *comp;
	size_t comp_cap, comp_len;
	uint8_t *dec;
};

static int do_compress(void *arg)
{
	struct job *j = arg;

	return inc_compress(j->raw, j->raw_len, &j->p, j->comp, j->comp_cap,
			    &j->comp_len);
}

static int do_decompress(void *arg)
{
	struct job *j = arg;
	size_t n;

	return inc_decompress(j->comp, j->comp_len, j->dec, j->raw_len, &n);
}

static int run(const char *path, const struct inc_params *p, struct row *r)
{
	struct job j = { .p = *p };
	uint8_t *raw = tu_read(prog, path, &j.raw_len);
	int err = 1;

	if (!raw)
		return -1;
	j.raw = raw;
	j.comp_cap = inc_compress_bound(j.raw_len, 0);
	j.comp = malloc(j.comp_cap);
	j.dec = malloc(j.raw_len + 1);
	if (j.comp && j.dec) {
		r->ctime = best_time(do_compress, &j);
		r->dtime = best_time(do_decompress, &j);
		err = r->ctime < 0 || r->dtime < 0;
	}
	if (err) {
		fprintf(stderr, "%s: %s: codec failed\n", prog, path);
	} else {
		r->raw = j.raw_len;
		r->comp = j.comp_len;
		tu_measure(raw, j.dec, j.raw_len, p->k, &r->e);
	}
	free(raw);
	free(j.comp);
	free(j.dec);
	return err ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Expand directories into their *.f32 files, sorted. */
static size_t collect(char **args, int n, char ***out)
{
	char **v = NULL;
	size_t cnt = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct stat st;
		struct dirent *de;
		DIR *d;
		size_t first = cnt;

		if (stat(args[i], &st)) {
			fprintf(stderr, "%s: %s: %s\n", prog, args[i],
				strerror(errno));
			bad_inputs++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			v = realloc(v, (cnt + 1) * sizeof(*v));
			v[cnt++] = strdup(args[i]);
			continue;
		}
		d = opendir(args[i]);
		while (d && (de = readdir(d))) {
			size_t l = strlen(de->d_name);

			if (l < 5 || strcmp(de->d_name + l - 4, ".f32"))
				continue;
			v = realloc(v, (cnt + 1) * sizeof(*v));
			v[cnt] = malloc(strlen(args[i]) + l + 2);
			sprintf(v[cnt++], "%s/%s", args[i], de->d_name);
		}
		if (d)
			closedir(d);
		if (cnt == first) {
			fprintf(stderr, "%s: %s: no .f32 files\n", prog, args[i]);
			bad_inputs++;
		}
		qsort(v + first, cnt - first, sizeof(*v), cmp_str);
	}
	*out = v;
	return cnt;
}

static void print_row(const char *name, const struct inc_params *p,
		      const struct row *r)
{
	printf("%-22s %5u %11.3g %10zu %9zu %8.2fx %11.3g %-4s %7.2f %7.2f\n",
	       name, p->k, ldexp(1.0, -(int)p->k), r->raw, r->comp,
	       (double)r->raw / (double)r->comp, r->e.max_abs,
	       tu_held(&r->e) ? "yes" : "NO", r->raw / r->ctime * 1e-9,
	       r->raw / r->dtime * 1e-9);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct inc_params p = { .k = 10, .mode = INC_MODE_SPARSE };
	struct row tot = { 0 };
	char **files;
	size_t n, i, failed = 0;
	int o;

	while ((o = getopt_long(argc, argv, "k:m:", opts, NULL)) != -1) {
		if (o == 'k') {
			char *end;

			p.k = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || p.k < INC_K_MIN || p.k > INC_K_MAX) {
				fprintf(stderr, "%s: K must be %d..%d, not '%s'\n",
					prog, INC_K_MIN, INC_K_MAX, optarg);
				return 2;
			}
		} else if (o == 'm' && !strcmp(optarg, "paper")) {
			p.mode = INC_MODE_PAPER;
		} else if (o == 'm' && !strcmp(optarg, "sparse")) {
			p.mode = INC_MODE_SPARSE;
		} else if (o == 'm' && !strcmp(optarg, "width")) {
			p.mode = INC_MODE_WIDTH;
		} else if (o == 'm') {
			fprintf(stderr, "%s: mode must be paper, sparse or width, not '%s'\n",
				prog, optarg);
			return 2;
		} else {
			fprintf(stderr, "usage: %s [-k K] [--mode paper|sparse|width] DIR_OR_FILE...\n",
				prog);
			return 2;
		}
	}
	n = collect(argv + optind, argc - optind, &files);
	if (!n) {
		fprintf(stderr, "%s: no input files (give a directory of .f32 files or files)\n",
			prog);
		return 1;
	}
	printf("inceptionn gradient codec: mode %s, k %u, implementation %s, one core\n\n",
	       p.mode == INC_MODE_PAPER ? "paper" :
	       p.mode == INC_MODE_WIDTH ? "width" : "sparse", p.k,
	       inc_impl_name());
	printf("%-22s %5s %11s %10s %9s %9s %11s %-4s %7s %7s\n", "file", "k",
	       "bound", "bytes", "on wire", "ratio", "max error", "held",
	       "comp", "decomp");
	printf("%-22s %5s %11s %10s %9s %9s %11s %-4s %7s %7s\n", "", "", "",
	       "", "", "", "", "", "GB/s", "GB/s");
	for (i = 0; i < n; i++) {
		const char *base = strrchr(files[i], '/');
		struct row r;

		if (run(files[i], &p, &r)) {
			failed++;
			continue;
		}
		print_row(base ? base + 1 : files[i], &p, &r);
		tot.raw += r.raw;
		tot.comp += r.comp;
		tot.ctime += r.ctime;
		tot.dtime += r.dtime;
		if (r.e.max_abs > tot.e.max_abs)
			tot.e.max_abs = r.e.max_abs;
		tot.e.over_bound += r.e.over_bound;
		tot.e.nonfinite_bad += r.e.nonfinite_bad;
		tot.e.tail_bad += r.e.tail_bad;
		failed += !tu_held(&r.e);
	}
	if (tot.raw) {
		printf("\n");
		print_row("all", &p, &tot);
	}
	failed += bad_inputs;
	printf("\n%s\n", failed ? "FAILED: a file could not be processed or missed the bound" :
	       "every value of every file came back within the bound");
	return failed ? 1 : 0;
}
