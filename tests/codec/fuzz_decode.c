// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the decoders (clang -fsanitize=fuzzer,address,undefined).
 *
 * Each input is used three ways:
 *  (a) as a file: inc_file_info, then inc_decompress with every
 *      implementation (output capped at OUT_CAP; a larger raw_bytes must
 *      give ENOSPC). All must agree on the code and the bytes, must not
 *      write past raw_bytes, and inc_file_hist must give the same code
 *      (and count every value once). A file that decodes is compressed
 *      again with its own k, mode and chunk size and decoded once more:
 *      the result must hold the error bound against the first output.
 *  (b) as a chunk: bytes 0..3 choose mode (b0 % 4), k (1 + b1 % 24) and
 *      raw_len (u16 from b2,b3, % 9001); the rest is the body.
 *      inc_chunk_decode with every implementation must agree on the code
 *      and bytes and stay within raw_len; inc_chunk_hist must give the
 *      same code; a body that decodes is encoded again by every
 *      implementation (identical bytes, within the bound) and decoded.
 *  (c) inc_file_hist must not crash (done in (a)).
 *
 * Any disagreement calls __builtin_trap(). Buffers are static.
 *
 * A custom mutator recomputes the header and chunk CRCs of most mutated
 * files (3 in 4), so that mutations reach the checks behind the CRCs; the
 * rest keep their stale CRCs and exercise the CRC checks.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "inccodec.h"

#define OUT_CAP		(4u << 20)
/* inc_compress_bound(OUT_CAP, 4): 32 + raw + 12 * raw / 4 */
#define RE_CAP		(32u + 4u * OUT_CAP + 64u)
#define GUARD		64
#define MAX_IMPLS	8

static uint8_t out[2][OUT_CAP + GUARD];
static uint8_t refile[RE_CAP];
static uint8_t cout[MAX_IMPLS][INC_CHUNK_MAX_BYTES + GUARD];
static uint8_t cbody[MAX_IMPLS][INC_CHUNK_MAX_BYTES + 1024];

#define CHECK(cond)						\
	do {							\
		if (!(cond))					\
			__builtin_trap();			\
	} while (0)

static void poison(uint8_t *p, size_t n, uint8_t v)
{
	memset(p, v, n);
}

static int poisoned(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/*
 * Every finite value of dec within 2^-k of orig, non-finite values and
 * the tail bytes bit-exact (docs/codec.md, the error bound).
 */
static int within_bound(const uint8_t *orig, const uint8_t *dec, size_t len,
			unsigned int k)
{
	double eb = ldexp(1.0, -(int)k);
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		float a, b;

		memcpy(&a, orig + i, 4);
		memcpy(&b, dec + i, 4);
		if (!isfinite(a)) {
			if (memcmp(orig + i, dec + i, 4))
				return 0;
		} else if (!(fabs((double)a - (double)b) <= eb)) {
			return 0;
		}
	}
	return !memcmp(orig + i, dec + i, len - i);
}

static uint64_t hist_values(const struct inc_hist *h)
{
	return h->cls[0] + h->cls[1] + h->cls[2] + h->cls[3] + h->stored;
}

/* (a) and (c): the input as a file. */
static void fuzz_file(const uint8_t *data, size_t size,
		      const char *const *impls)
{
	struct inc_file_info fi;
	struct inc_hist h;
	size_t cap = OUT_CAP, dlen0 = 0, i;
	int irc, rc0 = 0, hrc;

	irc = inc_file_info(data, size, &fi);
	if (!irc && fi.raw_bytes < cap)
		cap = (size_t)fi.raw_bytes;
	for (i = 0; impls[i]; i++) {
		uint8_t *o = out[i ? 1 : 0];
		size_t dlen = 0;
		int rc;

		inc_impl_select(impls[i]);
		/* different patterns: bytes left unwritten show up */
		poison(o, cap + GUARD, (uint8_t)(0x5a + i));
		rc = inc_decompress(data, size, o, cap, &dlen);
		CHECK(poisoned(o + cap, GUARD, (uint8_t)(0x5a + i)));
		if (irc)
			CHECK(rc == irc);	/* header errors come first */
		else if (fi.raw_bytes > OUT_CAP)
			CHECK(rc == -INC_ENOSPC);
		else
			CHECK(rc != -INC_ENOSPC);	/* cap == raw_bytes */
		CHECK(rc <= 0 && rc >= -INC_EUNSUPP && rc != -INC_EINVAL);
		if (!rc)
			CHECK(dlen == fi.raw_bytes);
		if (!i) {
			rc0 = rc;
			dlen0 = dlen;
		} else {
			CHECK(rc == rc0);
			if (!rc)
				CHECK(!memcmp(out[0], out[1], dlen0));
		}
	}
	inc_impl_select("auto");

	/* (c) the histogram walk: same checks, same verdict */
	memset(&h, 0, sizeof(h));
	hrc = inc_file_hist(data, size, &h);
	if (rc0 != -INC_ENOSPC)
		CHECK(hrc == rc0);
	if (!hrc) {
		CHECK(!irc);
		CHECK(hist_values(&h) == fi.values);
	}

	/* a file that decodes: compress its output again, decode, compare */
	if (!rc0) {
		struct inc_params p = { fi.k, fi.mode, fi.chunk_bytes };
		size_t bound = inc_compress_bound(dlen0, fi.chunk_bytes);
		size_t flen = 0, dlen2 = 0;

		CHECK(bound && bound <= RE_CAP);
		CHECK(!inc_compress(out[0], dlen0, &p, refile, bound, &flen));
		CHECK(flen <= bound);
		poison(out[1], dlen0 + GUARD, 0xc3);
		CHECK(!inc_decompress(refile, flen, out[1], dlen0, &dlen2));
		CHECK(dlen2 == dlen0);
		CHECK(poisoned(out[1] + dlen0, GUARD, 0xc3));
		CHECK(within_bound(out[0], out[1], dlen0, fi.k));
	}
}

/* (b) the input as one chunk's parameters and body. */
static void fuzz_chunk(const uint8_t *data, size_t size,
		       const char *const *impls)
{
	enum inc_mode mode;
	unsigned int k;
	size_t raw_len, body_len, i, blen0 = 0;
	const uint8_t *body;
	struct inc_hist h;
	int rc0 = 0, hrc;

	if (size < 4)
		return;
	mode = (enum inc_mode)(data[0] % 4);
	k = 1 + data[1] % 24;
	raw_len = (size_t)(data[2] | data[3] << 8) % (INC_CHUNK_MAX_BYTES + 1);
	body = data + 4;
	body_len = size - 4;

	for (i = 0; impls[i] && i < MAX_IMPLS; i++) {
		int rc;

		inc_impl_select(impls[i]);
		poison(cout[i], raw_len + GUARD, (uint8_t)(0x33 + i));
		rc = inc_chunk_decode(body, body_len, raw_len, k, mode,
				      cout[i], raw_len);
		CHECK(poisoned(cout[i] + raw_len, GUARD, (uint8_t)(0x33 + i)));
		CHECK(rc == 0 || rc == -INC_ECORRUPT);
		if (!i)
			rc0 = rc;
		CHECK(rc == rc0);
		if (i && !rc)
			CHECK(!memcmp(cout[0], cout[i], raw_len));
	}
	if (mode == INC_MODE_STORED)
		CHECK(!rc0 == (body_len == raw_len));

	memset(&h, 0, sizeof(h));
	hrc = inc_chunk_hist(body, body_len, raw_len, k, mode, &h);
	CHECK(hrc == rc0);
	if (!hrc)
		CHECK(hist_values(&h) == raw_len / 4);

	if (rc0 || mode == INC_MODE_STORED)
		goto out;
	/* encode the decoded chunk again: every impl the same bytes */
	for (i = 0; impls[i] && i < MAX_IMPLS; i++) {
		size_t blen = 0;

		inc_impl_select(impls[i]);
		CHECK(!inc_chunk_encode(cout[0], raw_len, k, mode, cbody[i],
					sizeof(cbody[i]), &blen));
		CHECK(blen <= inc_chunk_bound(raw_len, mode));
		if (!i)
			blen0 = blen;
		else
			CHECK(blen == blen0 && !memcmp(cbody[0], cbody[i], blen));
	}
	poison(cout[1], raw_len + GUARD, 0x77);
	CHECK(!inc_chunk_decode(cbody[0], blen0, raw_len, k, mode, cout[1],
				raw_len));
	CHECK(poisoned(cout[1] + raw_len, GUARD, 0x77));
	CHECK(within_bound(cout[0], cout[1], raw_len, k));
out:
	inc_impl_select("auto");
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Recompute the header CRC and the CRC of every record that fits. */
static void reseal(uint8_t *f, size_t len)
{
	size_t off = INC_FILE_HDR_BYTES;

	put32(f + 28, inc_crc32c(0, f, 28));
	while (len - off >= INC_CHUNK_HDR_BYTES) {
		size_t bl = (size_t)f[off + 4] | (size_t)f[off + 5] << 8;

		if (len - off - INC_CHUNK_HDR_BYTES < bl + INC_FILE_CRC_BYTES)
			break;
		put32(f + off + INC_CHUNK_HDR_BYTES + bl,
		      inc_crc32c(0, f + off, INC_CHUNK_HDR_BYTES + bl));
		off += INC_CHUNK_HDR_BYTES + bl + INC_FILE_CRC_BYTES;
	}
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	size = LLVMFuzzerMutate(data, size, max_size);
	if (seed % 4 && size >= INC_FILE_HDR_BYTES &&
	    get32(data) == INC_FILE_MAGIC)
		reseal(data, size);
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const *impls = inc_impl_list();

	fuzz_file(data, size, impls);
	fuzz_chunk(data, size, impls);
	return 0;
}
