// SPDX-License-Identifier: MIT
/*
 * inccodec: compress, decompress and inspect gradient files with the
 * INCEPTIONN codec (docs/codec.md).
 *
 * Exit status: 0 success, 1 error (I/O, corrupt input), 2 usage,
 * 3 `stat --orig` found the error bound not held.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inccodec.h"
#include "toolutil.h"

static const char *prog = "inccodec";

static void usage(FILE *f)
{
	cli_usage(f, prog);
	fprintf(f, "       %s stat [--orig FILE] IN\n", prog);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "orig", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *orig_path = NULL, *path;
	struct inc_file_info fi;
	struct inc_hist h;
	uint8_t *in, *orig = NULL, *dec = NULL;
	size_t len, olen = 0, dlen;
	int o, err, rc = 0;

	while ((o = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (o != 'o') {
			usage(stderr);
			return 2;
		}
		orig_path = optarg;
	}
	if (argc - optind != 1) {
		fprintf(stderr, "%s: stat needs one IN\n", prog);
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	memset(&h, 0, sizeof(h));
	in = tu_read(prog, path, &len);
	if (!in)
		return 1;
	err = inc_file_info(in, len, &fi);
	if (!err)
		err = inc_file_hist(in, len, &h);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, inc_strerror(err));
		rc = 1;
		goto out;
	}
	printf("file          %s\n", path);
	printf("format        version %u, mode %s, k %u (error bound 2^-%u = %.9g)\n",
	       fi.version, fi.mode == INC_MODE_PAPER ? "paper" :
	       fi.mode == INC_MODE_WIDTH ? "width" : "sparse", fi.k,
	       fi.k, ldexp(1.0, -(int)fi.k));
	printf("values        %llu (+%u trailing bytes), %llu bytes\n",
	       (unsigned long long)fi.values, fi.tail,
	       (unsigned long long)fi.raw_bytes);
	printf("compressed    %zu bytes, ratio %.2fx\n", len,
	       len ? (double)fi.raw_bytes / (double)len : 0);
	printf("chunks        %llu of %u bytes\n", (unsigned long long)fi.chunks,
	       fi.chunk_bytes);
	printf("classes       zero %llu (%.2f%%), q8 %llu (%.2f%%), q16 %llu (%.2f%%), raw %llu (%.2f%%)\n",
	       (unsigned long long)h.cls[0], pct(h.cls[0], fi.values),
	       (unsigned long long)h.cls[1], pct(h.cls[1], fi.values),
	       (unsigned long long)h.cls[2], pct(h.cls[2], fi.values),
	       (unsigned long long)h.cls[3], pct(h.cls[3], fi.values));
	printf("stored        %llu values in chunks sent as is (%.2f%%)\n",
	       (unsigned long long)h.stored, pct(h.stored, fi.values));
	if (fi.mode == INC_MODE_SPARSE || fi.mode == INC_MODE_WIDTH)
		printf("zero groups   %llu of %llu groups elided (%.2f%%)\n",
		       (unsigned long long)h.zero_groups,
		       (unsigned long long)h.groups,
		       pct(h.zero_groups, h.groups));
	if (orig_path) {
		struct tu_err e;

		orig = tu_read(prog, orig_path, &olen);
		if (!orig) {
			rc = 1;
			goto out;
		}
		if (olen != fi.raw_bytes) {
			fprintf(stderr, "%s: %s has %zu bytes, %s decodes to %llu\n",
				prog, orig_path, olen, path,
				(unsigned long long)fi.raw_bytes);
			rc = 3;
			goto out;
		}
		dec = malloc(olen ? olen : 1);
		err = dec ? inc_decompress(in, len, dec, olen, &dlen) :
			    -INC_ENOSPC;
		if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, path,
				inc_strerror(err));
			rc = 1;
			goto out;
		}
		tu_measure(orig, dec, olen, fi.k, &e);
		printf("max error     %.9g over %llu finite values (bound %.9g: %s)\n",
		       e.max_abs, (unsigned long long)e.finite,
		       ldexp(1.0, -(int)fi.k), tu_held(&e) ? "held" : "NOT HELD");
		if (!tu_held(&e)) {
			printf("violations    %llu over the bound, %llu Inf/NaN changed, %llu tail bytes changed\n",
			       (unsigned long long)e.over_bound,
			       (unsigned long long)e.nonfinite_bad,
			       (unsigned long long)e.tail_bad);
			rc = 3;
		}
	}
out:
	free(in);
	free(orig);
	free(dec);
	return rc;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("inccodec (file format %d, codec implementation %s)\n",
		       INC_FILE_VERSION, inc_impl_name());
		return 0;
	}
	/* subcommand options start after the subcommand */
	argv++;
	argc--;
	if (!strcmp(cmd, "compress"))
		return cli_compress(prog, &inc_library_coder, argc, argv);
	if (!strcmp(cmd, "decompress"))
		return cli_decompress(prog, &inc_library_coder, argc, argv);
	if (!strcmp(cmd, "stat"))
		return cmd_stat(argc, argv);
	if (*cmd)
		fprintf(stderr, "%s: unknown command '%s'\n", prog, cmd);
	usage(stderr);
	return 2;
}
