// SPDX-License-Identifier: MIT
/*
 * The compress and decompress commands, shared by inccodec (the C library)
 * and inc-rtl-codec (the RTL engines' models): same options, same files,
 * same errors.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolutil.h"

void cli_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s compress -k K [--mode paper|sparse|width] [--chunk BYTES] IN OUT\n"
		"       %s decompress IN OUT\n"
		"IN and OUT may be - for stdin and stdout. K is 1..24: values come\n"
		"back within 2^-K. Mode sparse (default) elides all-zero groups;\n"
		"width codes each group of 16 values in the bits of its largest.\n",
		prog, prog);
}

static int parse_uint(const char *s, unsigned int lo, unsigned int hi,
		      unsigned int *v)
{
	char *end;
	unsigned long x = strtoul(s, &end, 10);

	if (!*s || *end || x < lo || x > hi)
		return -1;
	*v = (unsigned int)x;
	return 0;
}

int cli_compress(const char *prog, const struct inc_chunk_coder *coder,
		 int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct inc_params p = { .k = 0, .mode = INC_MODE_SPARSE };
	uint8_t *in, *out = NULL;
	size_t len, cap, olen;
	int o, err, rc = 1;

	while ((o = getopt_long(argc, argv, "k:m:c:h", opts, NULL)) != -1) {
		switch (o) {
		case 'k':
			if (parse_uint(optarg, INC_K_MIN, INC_K_MAX, &p.k)) {
				fprintf(stderr, "%s: -k must be an integer %d..%d, not '%s'\n",
					prog, INC_K_MIN, INC_K_MAX, optarg);
				return 2;
			}
			break;
		case 'm':
			if (!strcmp(optarg, "paper")) {
				p.mode = INC_MODE_PAPER;
			} else if (!strcmp(optarg, "sparse")) {
				p.mode = INC_MODE_SPARSE;
			} else if (!strcmp(optarg, "width")) {
				p.mode = INC_MODE_WIDTH;
			} else {
				fprintf(stderr, "%s: --mode must be paper, sparse or width, not '%s'\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'c':
			if (parse_uint(optarg, 4, INC_CHUNK_MAX_BYTES,
				       &p.chunk_bytes) || p.chunk_bytes % 4) {
				fprintf(stderr, "%s: --chunk must be a multiple of 4 in 4..%u, not '%s'\n",
					prog, INC_CHUNK_MAX_BYTES, optarg);
				return 2;
			}
			break;
		case 'h':
			cli_usage(stdout, prog);
			return 0;
		default:
			cli_usage(stderr, prog);
			return 2;
		}
	}
	if (!p.k || argc - optind != 2) {
		fprintf(stderr, "%s: compress needs -k K, IN and OUT\n", prog);
		cli_usage(stderr, prog);
		return 2;
	}
	in = tu_read(prog, argv[optind], &len);
	if (!in)
		return 1;
	cap = inc_compress_bound(len, p.chunk_bytes);
	out = malloc(cap ? cap : 1);
	if (!out) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	err = inc_compress_with(coder, in, len, &p, out, cap, &olen);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind],
			inc_strerror(err));
		goto out;
	}
	rc = tu_write(prog, argv[optind + 1], out, olen) ? 1 : 0;
out:
	free(in);
	free(out);
	return rc;
}

int cli_decompress(const char *prog, const struct inc_chunk_coder *coder,
		   int argc, char **argv)
{
	struct inc_file_info fi;
	uint8_t *in, *out = NULL;
	size_t len, olen;
	int err, rc = 1;

	if (argc - optind != 2) {
		fprintf(stderr, "%s: decompress needs IN and OUT\n", prog);
		cli_usage(stderr, prog);
		return 2;
	}
	in = tu_read(prog, argv[optind], &len);
	if (!in)
		return 1;
	err = inc_file_info(in, len, &fi);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind],
			inc_strerror(err));
		goto out;
	}
	out = malloc(fi.raw_bytes ? (size_t)fi.raw_bytes : 1);
	if (!out) {
		fprintf(stderr, "%s: %s: cannot allocate %llu bytes\n", prog,
			argv[optind], (unsigned long long)fi.raw_bytes);
		goto out;
	}
	err = inc_decompress_with(coder, in, len, out, (size_t)fi.raw_bytes,
				  &olen);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind],
			inc_strerror(err));
		goto out;
	}
	rc = tu_write(prog, argv[optind + 1], out, olen) ? 1 : 0;
out:
	free(in);
	free(out);
	return rc;
}

