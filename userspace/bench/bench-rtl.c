// SPDX-License-Identifier: MIT
/*
 * bench-rtl: the RTL codec engines in their Verilator models, measured in
 * clocks. For each engine and lane count:
 *   - latency: clocks from a chunk's first input beat to its first output
 *     beat, and to its last, for one chunk alone;
 *   - clocks per chunk against chunk size, chunks back to back;
 *   - sustained raw bytes per clock on the real gradients, back to back;
 *   - simulation speed: simulated clocks per second of wall time.
 *
 * usage: bench-rtl [DIR_OR_FILE]   (default ../shared/gradients)
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_stream.h"
#include "inccodec.h"
#include "toolutil.h"

struct chunks {
	uint8_t **raw, **body;
	size_t *len, *body_len;
	size_t n;
};

static void add(struct chunks *c, const uint8_t *raw, size_t len, unsigned int k,
		int mode)
{
	size_t cap = inc_chunk_bound(len, mode) + 64;

	c->raw = realloc(c->raw, (c->n + 1) * sizeof(*c->raw));
	c->body = realloc(c->body, (c->n + 1) * sizeof(*c->body));
	c->len = realloc(c->len, (c->n + 1) * sizeof(*c->len));
	c->body_len = realloc(c->body_len, (c->n + 1) * sizeof(*c->body_len));
	c->raw[c->n] = malloc(len + 1);
	memcpy(c->raw[c->n], raw, len);
	c->len[c->n] = len;
	c->body[c->n] = malloc(cap);
	inc_chunk_encode(raw, len, k, mode, c->body[c->n], cap, &c->body_len[c->n]);
	c->n++;
}

static void drop(struct chunks *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->raw[i]);
		free(c->body[i]);
	}
	free(c->raw);
	free(c->body);
	free(c->len);
	free(c->body_len);
	memset(c, 0, sizeof(*c));
}

/* Run the chunks through the engine back to back, no backpressure. */
static int run(int lanes, enum vl_kind kind, const struct chunks *c,
	       unsigned int k, int mode, struct es_stats *st, double *secs)
{
	/* width mode has its own decompressor */
	struct vl_engine *e = vl_engine_new(kind == VL_DECOMPRESSOR && mode == 3 ?
					    VL_WIDTH_DECOMPRESSOR : kind, lanes);
	struct es_packet *in = calloc(c->n, sizeof(*in));
	struct es_result *out = calloc(c->n, sizeof(*out));
	struct es_config cfg = { 0, 0, 1, 100000 };
	size_t i;
	double t0;
	int rc;

	for (i = 0; i < c->n; i++) {
		if (kind == VL_COMPRESSOR) {
			in[i].data = c->raw[i];
			in[i].len = c->len[i];
			in[i].user = (uint32_t)(mode << 5 | (int)k);
		} else {
			in[i].data = c->body[i];
			in[i].len = c->body_len[i];
			in[i].user = (uint32_t)(c->len[i] << 7 | (size_t)mode << 5 | k);
		}
	}
	vl_engine_reset(e);
	t0 = tu_now();
	rc = es_run(e, in, c->n, out, &cfg, st);
	*secs = tu_now() - t0;
	es_free(out, c->n);
	free(in);
	free(out);
	vl_engine_free(e);
	return rc;
}

static void fill_gauss(uint8_t *buf, size_t len, uint64_t *s, double scale)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		double u1, u2, g;
		float f;

		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		u1 = ((double)(*s >> 11) + 1) * 0x1p-53;
		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		u2 = (double)(*s >> 11) * 0x1p-53;
		g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		f = (float)(g * scale);
		memcpy(buf + i, &f, 4);
	}
}

static const char *mode_name(int mode)
{
	return mode == 1 ? "paper" : mode == 2 ? "sparse" : "width";
}

/* width mode is built at 16 lanes: the compressor, inc_width_decompressor
 * (docs/rtl.md) */
static int built(int lanes, int kind, int mode)
{
	(void)kind;
	return mode != 3 || lanes == 16;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 32, 256, 1024, 2048, 4096, 8192, 9000 };
	static const int lanes_list[] = { 8, 16 };
	const char *dir = argc > 1 ? argv[1] : "../shared/gradients";
	uint8_t *buf = malloc(INC_CHUNK_MAX_BYTES);
	uint64_t seed = 1;
	size_t si, li;

	inc_impl_select("scalar");
	printf("command: bench-rtl %s\n", argc > 1 ? argv[1] : "");
	printf("Verilator models of rtl/codec; one clock = one simulated cycle\n\n");

	printf("## Latency, one chunk alone (clocks)\n\n");
	printf("| engine | lanes | chunk | mode | first in -> first out | first in -> last out |\n");
	printf("|--------|------:|------:|------|------:|------:|\n");
	for (li = 0; li < 2; li++) {
		static const size_t lat_sizes[] = { 32, 8192 };
		size_t ls;

		for (ls = 0; ls < 2; ls++) {
			int mode;

			for (mode = 1; mode <= 3; mode++) {
				struct chunks c = { 0 };
				struct es_stats st;
				double secs;
				int kind;

				fill_gauss(buf, lat_sizes[ls], &seed, 0.003);
				add(&c, buf, lat_sizes[ls], 10, mode);
				for (kind = 0; kind < 2; kind++) {
					if (!built(lanes_list[li], kind, mode))
						continue;
					run(lanes_list[li], (enum vl_kind)kind, &c, 10, mode,
					    &st, &secs);
					printf("| %s | %d | %zu | %s | %llu | %llu |\n",
					       kind ? "decompressor" : "compressor",
					       lanes_list[li], lat_sizes[ls],
					       mode_name(mode),
					       (unsigned long long)(st.first_out - st.first_in),
					       (unsigned long long)(st.last_out - st.first_in));
				}
				drop(&c);
			}
		}
	}

	printf("\n## Clocks per chunk, 200 chunks back to back (gaussian values, k = 10)\n\n");
	printf("| lanes | chunk bytes | raw beats | compressor sparse | compressor paper | decompressor sparse | decompressor paper | compressor width | decompressor width |\n");
	printf("|------:|------:|------:|------:|------:|------:|------:|------:|------:|\n");
	for (li = 0; li < 2; li++) {
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			double per[4], perw[2] = { 0, 0 };
			int mode, kind, i;

			for (mode = 1; mode <= 3; mode++) {
				struct chunks c = { 0 };

				for (i = 0; i < 200; i++) {
					fill_gauss(buf, sizes[si], &seed, 0.003);
					add(&c, buf, sizes[si], 10, mode);
				}
				for (kind = 0; kind < 2; kind++) {
					struct es_stats st;
					double secs, v;

					if (!built(lanes_list[li], kind, mode))
						continue;
					run(lanes_list[li], (enum vl_kind)kind, &c, 10,
					    mode, &st, &secs);
					v = (double)(kind ? st.last_out - st.first_out + 1 :
						     st.cycles) / 200.0;
					if (mode == 3)
						perw[kind] = v;
					else
						per[kind * 2 + (mode == 1)] = v;
				}
				drop(&c);
			}
			printf("| %d | %zu | %zu | %.2f | %.2f | %.2f | %.2f | ",
			       lanes_list[li], sizes[si],
			       (sizes[si] + 4 * lanes_list[li] - 1) / (4 * (size_t)lanes_list[li]),
			       per[0], per[1], per[2], per[3]);
			if (built(lanes_list[li], VL_COMPRESSOR, 3))
				printf("%.2f | %.2f |\n", perw[0], perw[1]);
			else
				printf("- | - |\n");
		}
	}

	printf("\n## Sustained throughput and simulation speed, real gradients (8 KiB chunks, k = 10)\n\n");
	printf("| engine | lanes | mode | chunks | raw bytes | clocks | raw bytes / clock | Gbit/s at 250 MHz | sim clocks / s |\n");
	printf("|--------|------:|------|------:|------:|------:|------:|------:|------:|\n");
	{
		struct chunks g[4] = { { 0 } };
		DIR *d = opendir(dir);
		struct dirent *de;
		int mode;

		while (d && (de = readdir(d))) {
			char path[4096];
			size_t len, off;
			uint8_t *f;

			if (!strstr(de->d_name, ".f32"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			f = tu_read("bench-rtl", path, &len);
			for (off = 0; f && off < len; off += 8192) {
				add(&g[1], f + off, len - off < 8192 ? len - off : 8192, 10, 1);
				add(&g[2], f + off, len - off < 8192 ? len - off : 8192, 10, 2);
				add(&g[3], f + off, len - off < 8192 ? len - off : 8192, 10, 3);
			}
			free(f);
		}
		if (d)
			closedir(d);
		for (li = 0; li < 2 && g[1].n; li++) {
			for (mode = 3; mode >= 1; mode--) {
				int kind;

				for (kind = 0; kind < 2; kind++) {
					struct es_stats st;
					double secs;
					size_t i, raw = 0;
					uint64_t clocks;

					if (!built(lanes_list[li], kind, mode))
						continue;
					for (i = 0; i < g[mode].n; i++)
						raw += g[mode].len[i];
					if (run(lanes_list[li], (enum vl_kind)kind, &g[mode],
						10, mode, &st, &secs))
						printf("engine hung\n");
					clocks = kind ? st.last_out - st.first_out + 1 : st.cycles;
					printf("| %s | %d | %s | %zu | %zu | %llu | %.1f | %.1f | %.2fM |\n",
					       kind ? "decompressor" : "compressor",
					       lanes_list[li], mode_name(mode),
					       g[mode].n, raw, (unsigned long long)clocks,
					       (double)raw / (double)clocks,
					       (double)raw / (double)clocks * 8 * 0.25,
					       (double)st.cycles / secs * 1e-6);
				}
			}
		}
		drop(&g[1]);
		drop(&g[2]);
		drop(&g[3]);
	}
	free(buf);
	return 0;
}
