// SPDX-License-Identifier: MIT
/*
 * inc-rtl-codec: inccodec's compress and decompress, but every chunk goes
 * through the RTL engines (rtl/codec/inc_compressor.v, inc_decompressor.v;
 * width mode's chunks through inc_width_decompressor.v, 16 lanes only) in
 * their Verilator models. The files are the same format; for any input
 * the two tools must write identical bytes. This is how anyone checks the
 * RTL on their own gradients.
 *
 * usage: inc-rtl-codec [--lanes 8|16] [--stats] compress -k K [--mode M] IN OUT
 *        inc-rtl-codec [--lanes 8|16] [--stats] decompress IN OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine_stream.h"
#include "inccodec.h"

static const char *prog = "inc-rtl-codec";

struct rtl {
	struct vl_engine *comp, *decomp, *wdecomp;	/* wdecomp: 16 lanes */
	uint64_t chunks, raw_bytes, body_bytes, cycles;
};

/* One chunk through an engine, no backpressure. */
static int run_one(struct vl_engine *e, const void *data, size_t len,
		   uint32_t user, struct es_result *r, uint64_t *cycles)
{
	struct es_packet p = { data, len, user, 0 };
	struct es_config cfg = { 0, 0, 1, 100000 };
	struct es_stats st;

	if (es_run(e, &p, 1, r, &cfg, &st)) {
		fprintf(stderr, "%s: the RTL engine hung (a bug: please report)\n",
			prog);
		es_free(r, 1);
		return -1;
	}
	*cycles += st.cycles;
	return 0;
}

static int rtl_encode(void *ctx, const void *raw, size_t raw_len,
		      unsigned int k, enum inc_mode mode, void *dst,
		      size_t dst_cap, size_t *body_len)
{
	struct rtl *r = ctx;
	struct es_result res;
	int err = 0;

	if (mode == INC_MODE_WIDTH && !r->wdecomp) {
		fprintf(stderr, "%s: width mode is built in the 16-lane engines only (--lanes 16)\n",
			prog);
		return -INC_EINVAL;
	}
	if (mode != INC_MODE_PAPER && mode != INC_MODE_SPARSE &&
	    mode != INC_MODE_WIDTH)
		return -INC_EINVAL;
	if (run_one(r->comp, raw, raw_len, (uint32_t)(mode << 5 | k), &res,
		    &r->cycles))
		return -INC_EINVAL;
	if (res.user >> 7 & 1)
		err = -INC_EINVAL;	/* the engine flagged the chunk */
	else if (res.len > dst_cap)
		err = -INC_ENOSPC;
	else if (res.len)
		memcpy(dst, res.data, res.len);
	*body_len = res.len;
	r->chunks++;
	r->raw_bytes += raw_len;
	r->body_bytes += res.len;
	es_free(&res, 1);
	return err;
}

static int rtl_decode(void *ctx, const void *body, size_t body_len,
		      size_t raw_len, unsigned int k, enum inc_mode mode,
		      void *dst, size_t dst_cap)
{
	struct rtl *r = ctx;
	struct es_result res;
	int err = 0;

	if (dst_cap < raw_len)
		return -INC_ENOSPC;
	if (mode == INC_MODE_WIDTH && !r->wdecomp) {
		fprintf(stderr, "%s: width mode is built in the 16-lane engines only (--lanes 16)\n",
			prog);
		return -INC_ECORRUPT;
	}
	if (run_one(mode == INC_MODE_WIDTH ? r->wdecomp : r->decomp, body, body_len,
		    (uint32_t)(raw_len << 7 | (size_t)mode << 5 | k), &res,
		    &r->cycles))
		return -INC_ECORRUPT;
	if ((res.user & 1) || res.len != raw_len)
		err = -INC_ECORRUPT;	/* the engine flagged the chunk */
	else if (raw_len)
		memcpy(dst, res.data, raw_len);
	r->chunks++;
	r->raw_bytes += raw_len;
	r->body_bytes += body_len;
	es_free(&res, 1);
	return err;
}

int main(int argc, char **argv)
{
	struct rtl r;
	struct inc_chunk_coder coder = { rtl_encode, rtl_decode, &r };
	int lanes = 8, stats = 0, rc;
	const char *cmd;

	memset(&r, 0, sizeof(r));
	while (argc > 1 && !strncmp(argv[1], "--", 2)) {
		if (!strcmp(argv[1], "--lanes") && argc > 2) {
			lanes = atoi(argv[2]);
			if (lanes != 8 && lanes != 16) {
				fprintf(stderr, "%s: --lanes must be 8 or 16, not '%s'\n",
					prog, argv[2]);
				return 2;
			}
			argv += 2;
			argc -= 2;
		} else if (!strcmp(argv[1], "--stats")) {
			stats = 1;
			argv++;
			argc--;
		} else if (!strcmp(argv[1], "--help")) {
			printf("usage: %s [--lanes 8|16] [--stats] COMMAND ...\n", prog);
			cli_usage(stdout, prog);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[1]);
			return 2;
		}
	}
	cmd = argc > 1 ? argv[1] : "";
	r.comp = vl_engine_new(VL_COMPRESSOR, lanes);
	r.decomp = vl_engine_new(VL_DECOMPRESSOR, lanes);
	r.wdecomp = vl_engine_new(VL_WIDTH_DECOMPRESSOR, lanes);	/* NULL at 8 */
	vl_engine_reset(r.comp);
	vl_engine_reset(r.decomp);
	if (r.wdecomp)
		vl_engine_reset(r.wdecomp);
	if (!strcmp(cmd, "compress")) {
		rc = cli_compress(prog, &coder, argc - 1, argv + 1);
	} else if (!strcmp(cmd, "decompress")) {
		rc = cli_decompress(prog, &coder, argc - 1, argv + 1);
	} else {
		if (*cmd)
			fprintf(stderr, "%s: unknown command '%s'\n", prog, cmd);
		printf("usage: %s [--lanes 8|16] [--stats] COMMAND ...\n", prog);
		cli_usage(stderr, prog);
		rc = 2;
	}
	if (stats && r.chunks)
		fprintf(stderr, "%s: %d lanes, %llu chunks, %llu raw bytes, %llu body bytes, %llu clocks (%.1f raw bytes per clock, one chunk at a time)\n",
			prog, lanes, (unsigned long long)r.chunks,
			(unsigned long long)r.raw_bytes,
			(unsigned long long)r.body_bytes,
			(unsigned long long)r.cycles,
			(double)r.raw_bytes / (double)r.cycles);
	vl_engine_free(r.comp);
	vl_engine_free(r.decomp);
	if (r.wdecomp)
		vl_engine_free(r.wdecomp);
	return rc;
}
