// SPDX-License-Identifier: MIT
/*
 * gen-selftest: the firmware's boot self-test vectors, made by the C golden
 * model (userspace/codec) at build time and written as a C table
 * (struct st_vector, firmware/src/fw.h).
 *
 *   gen-selftest OUT.c
 *
 * Per mode (paper, sparse, width) and direction (compress, decompress), two
 * vectors of 32 float32 values each from a fixed pseudo-random sequence:
 * vector 0 gradient-like values at k = 10 (zeros, small and large
 * magnitudes, both signs), vector 1 the corner classes at k = 4 (RAW
 * values: huge, infinities, NaN, denormals; -0.0; values at the class
 * edges). A compress vector's expected output is inc_chunk_encode's body;
 * a decompress vector's input is that body and its expected output
 * inc_chunk_decode's raw bytes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inccodec.h"

#define NVAL 32
#define NVEC 2

static uint32_t rng = 0x1c0ffee5u;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void fill(float *v, int which, unsigned int k)
{
	float step = ldexpf(1.0f, -(int)k);

	for (int i = 0; i < NVAL; i++) {
		uint32_t r = next();
		float x;

		if (which == 0) {
			switch (r % 5) {
			case 0: x = 0.0f; break;
			case 1: x = (float)((int32_t)(r >> 8) % 100) * step * 0.9f; break;
			case 2: x = (float)((int32_t)(r >> 8) % 30000) * step * 1.1f; break;
			case 3: x = -(float)(r >> 12) * step; break;
			default: x = ldexpf((float)(r >> 9), -30); break;
			}
		} else {
			static const uint32_t corner[] = {
				0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
				0x00000001u, 0x80000000u, 0x3f800000u, 0xc7000000u,
			};
			uint32_t bits;

			if (i < 8) {
				bits = corner[i];
				memcpy(&x, &bits, 4);
			} else {
				int q = (int)(r % 70000) - 35000;

				x = (float)q * step + ((r >> 20) & 1 ? step * 0.49f : 0.0f);
			}
		}
		v[i] = x;
	}
}

static void put_bytes(FILE *f, const char *name, const uint8_t *b, size_t n)
{
	fprintf(f, "static const uint8_t %s[%zu] = {", name, n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s0x%02x,", i % 12 ? " " : "\n\t", b[i]);
	fprintf(f, "\n};\n");
}

int main(int argc, char **argv)
{
	static const int modes[3] = { INC_MODE_PAPER, INC_MODE_SPARSE, INC_MODE_WIDTH };
	static const unsigned int ks[NVEC] = { 10, 4 };
	char entries[6 * NVEC][256];
	int ne = 0;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-selftest OUT.c\n");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "// SPDX-License-Identifier: MIT\n"
		"/* Made by firmware/tools/gen-selftest.c from the C golden model: do not edit. */\n"
		"#include \"fw.h\"\n\n");
	for (int m = 0; m < 3; m++) {
		for (int v = 0; v < NVEC; v++) {
			float raw[NVAL];
			uint8_t body[1024], back[NVAL * 4];
			size_t blen = 0;
			char name[64];
			int rc;

			fill(raw, v, ks[v]);
			rc = inc_chunk_encode(raw, sizeof(raw), ks[v], modes[m], body,
					      sizeof(body), &blen);
			if (rc == 0)
				rc = inc_chunk_decode(body, blen, sizeof(raw), ks[v], modes[m],
						      back, sizeof(back));
			if (rc != 0) {
				fprintf(stderr, "gen-selftest: mode %d vector %d: %s\n",
					modes[m], v, inc_strerror(rc));
				fclose(f);
				remove(argv[1]);
				return 1;
			}
			snprintf(name, sizeof(name), "m%d_v%d_raw", modes[m], v);
			put_bytes(f, name, (const uint8_t *)raw, sizeof(raw));
			snprintf(name, sizeof(name), "m%d_v%d_body", modes[m], v);
			put_bytes(f, name, body, blen);
			snprintf(name, sizeof(name), "m%d_v%d_back", modes[m], v);
			put_bytes(f, name, back, sizeof(back));
			snprintf(entries[ne++], sizeof(entries[0]),
				 "\t{ %d, %d, %d, %u, %zu, %zu, m%d_v%d_raw, m%d_v%d_body },",
				 2 * m, v, modes[m], ks[v], sizeof(raw), blen,
				 modes[m], v, modes[m], v);
			snprintf(entries[ne++], sizeof(entries[0]),
				 "\t{ %d, %d, %d, %u, %zu, %zu, m%d_v%d_body, m%d_v%d_back },",
				 2 * m + 1, v, modes[m], ks[v], blen, sizeof(back),
				 modes[m], v, modes[m], v);
		}
	}
	fprintf(f, "\nconst struct st_vector fw_st_vectors[] = {\n");
	for (int i = 0; i < ne; i++)
		fprintf(f, "%s\n", entries[i]);
	fprintf(f, "};\nconst unsigned int fw_st_nvectors = %d;\n", ne);
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
