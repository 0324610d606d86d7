// SPDX-License-Identifier: MIT
/*
 * The file format: a 32-byte header, then one record per chunk (chunk
 * header, body, CRC-32C of both). docs/codec.md, "File format".
 */
#include "codec_internal.h"

/* Header field offsets. */
#define FH_MAGIC	0
#define FH_VERSION	4
#define FH_MODE		5
#define FH_K		6
#define FH_TAIL		7
#define FH_VALUES	8
#define FH_CHUNK	16
#define FH_RSVD0	20
#define FH_RSVD1	24
#define FH_CRC		28

static int chunk_bytes_ok(uint64_t cb)
{
	return cb >= 4 && cb <= INC_CHUNK_MAX_BYTES && !(cb & 3);
}

static uint64_t n_chunks(uint64_t raw_bytes, unsigned int cb)
{
	return raw_bytes / cb + (raw_bytes % cb != 0);	/* no overflow */
}

size_t inc_compress_bound(size_t raw_len, unsigned int chunk_bytes)
{
	if (!chunk_bytes)
		chunk_bytes = INC_FILE_CHUNK_BYTES;
	if (!chunk_bytes_ok(chunk_bytes))
		return 0;
	/* a chunk that would not shrink is stored: body <= raw */
	return INC_FILE_HDR_BYTES + raw_len +
	       n_chunks(raw_len, chunk_bytes) *
	       (INC_CHUNK_HDR_BYTES + INC_FILE_CRC_BYTES);
}

static int lib_encode(void *ctx, const void *raw, size_t raw_len,
		      unsigned int k, enum inc_mode mode, void *dst,
		      size_t dst_cap, size_t *body_len)
{
	(void)ctx;
	return inc_chunk_encode(raw, raw_len, k, mode, dst, dst_cap, body_len);
}

static int lib_decode(void *ctx, const void *body, size_t body_len,
		      size_t raw_len, unsigned int k, enum inc_mode mode,
		      void *dst, size_t dst_cap)
{
	(void)ctx;
	return inc_chunk_decode(body, body_len, raw_len, k, mode, dst, dst_cap);
}

const struct inc_chunk_coder inc_library_coder = {
	.encode = lib_encode,
	.decode = lib_decode,
};

int inc_compress(const void *src, size_t src_len, const struct inc_params *p,
		 void *dst, size_t dst_cap, size_t *dst_len)
{
	return inc_compress_with(&inc_library_coder, src, src_len, p, dst,
				 dst_cap, dst_len);
}

int inc_decompress(const void *src, size_t src_len, void *dst,
		   size_t dst_cap, size_t *dst_len)
{
	return inc_decompress_with(&inc_library_coder, src, src_len, dst,
				   dst_cap, dst_len);
}

int inc_compress_with(const struct inc_chunk_coder *coder, const void *src,
		      size_t src_len, const struct inc_params *p, void *dst,
		      size_t dst_cap, size_t *dst_len)
{
	const uint8_t *in = src;
	uint8_t *out = dst;
	unsigned int cb;
	size_t off = INC_FILE_HDR_BYTES, pos;
	int err;

	if (!coder || (!src && src_len) || !p || !dst || !dst_len ||
	    p->k < INC_K_MIN || p->k > INC_K_MAX ||
	    (p->mode != INC_MODE_PAPER && p->mode != INC_MODE_SPARSE &&
	     p->mode != INC_MODE_WIDTH))
		return -INC_EINVAL;
	cb = p->chunk_bytes ? p->chunk_bytes : INC_FILE_CHUNK_BYTES;
	if (!chunk_bytes_ok(cb))
		return -INC_EINVAL;
	if (dst_cap < INC_FILE_HDR_BYTES)
		return -INC_ENOSPC;

	inc_put32(out + FH_MAGIC, INC_FILE_MAGIC);
	out[FH_VERSION] = INC_FILE_VERSION;
	out[FH_MODE] = (uint8_t)p->mode;
	out[FH_K] = (uint8_t)p->k;
	out[FH_TAIL] = (uint8_t)(src_len & 3);
	inc_put64(out + FH_VALUES, src_len / 4);
	inc_put32(out + FH_CHUNK, cb);
	inc_put32(out + FH_RSVD0, 0);
	inc_put32(out + FH_RSVD1, 0);
	inc_put32(out + FH_CRC, inc_crc32c(0, out, FH_CRC));

	for (pos = 0; pos < src_len; pos += cb) {
		size_t raw_len = INC_MIN(cb, src_len - pos), body_len;
		struct inc_chunk_hdr h = {
			.mode = (uint8_t)p->mode, .k = (uint8_t)p->k,
			.raw_len = (uint16_t)raw_len,
		};
		uint8_t *body = out + off + INC_CHUNK_HDR_BYTES;

		if (dst_cap - off < INC_CHUNK_HDR_BYTES + INC_FILE_CRC_BYTES)
			return -INC_ENOSPC;
		err = coder->encode(coder->ctx, in + pos, raw_len, p->k,
				    p->mode, body, dst_cap - off -
				    INC_CHUNK_HDR_BYTES - INC_FILE_CRC_BYTES,
				    &body_len);
		if (err == -INC_ENOSPC || (!err && body_len >= raw_len)) {
			/* would not shrink (or does not fit): store it */
			if (dst_cap - off - INC_CHUNK_HDR_BYTES -
			    INC_FILE_CRC_BYTES < raw_len)
				return -INC_ENOSPC;
			h.mode = INC_MODE_STORED;
			memcpy(body, in + pos, raw_len);
			body_len = raw_len;
		} else if (err) {
			return err;
		}
		h.body_len = (uint16_t)body_len;
		inc_chunk_hdr_pack(&h, out + off);
		off += INC_CHUNK_HDR_BYTES + body_len;
		inc_put32(out + off, inc_crc32c(0, out + off - body_len -
						INC_CHUNK_HDR_BYTES,
						INC_CHUNK_HDR_BYTES + body_len));
		off += INC_FILE_CRC_BYTES;
	}
	*dst_len = off;
	return 0;
}

int inc_file_info(const void *src, size_t src_len, struct inc_file_info *fi)
{
	const uint8_t *in = src;
	uint8_t magic[4];
	uint64_t values;

	if ((!src && src_len) || !fi)
		return -INC_EINVAL;
	inc_put32(magic, INC_FILE_MAGIC);
	if (src_len && memcmp(in, magic, INC_MIN(src_len, 4)))
		return -INC_EMAGIC;
	if (src_len <= FH_VERSION)
		return -INC_ETRUNC;
	if (in[FH_VERSION] != INC_FILE_VERSION)
		return -INC_EUNSUPP;
	if (src_len < INC_FILE_HDR_BYTES)
		return -INC_ETRUNC;
	if (inc_get32(in + FH_CRC) != inc_crc32c(0, in, FH_CRC))
		return -INC_ECHECKSUM;
	if ((in[FH_MODE] != INC_MODE_PAPER && in[FH_MODE] != INC_MODE_SPARSE &&
	     in[FH_MODE] != INC_MODE_WIDTH) ||
	    in[FH_K] < INC_K_MIN || in[FH_K] > INC_K_MAX)
		return -INC_EUNSUPP;
	values = inc_get64(in + FH_VALUES);
	if (in[FH_TAIL] > 3 || !chunk_bytes_ok(inc_get32(in + FH_CHUNK)) ||
	    inc_get32(in + FH_RSVD0) || inc_get32(in + FH_RSVD1) ||
	    values > (UINT64_MAX - 3) / 4)
		return -INC_ECORRUPT;

	fi->version = in[FH_VERSION];
	fi->mode = (enum inc_mode)in[FH_MODE];
	fi->k = in[FH_K];
	fi->tail = in[FH_TAIL];
	fi->values = values;
	fi->chunk_bytes = inc_get32(in + FH_CHUNK);
	fi->raw_bytes = 4 * values + fi->tail;
	fi->chunks = n_chunks(fi->raw_bytes, fi->chunk_bytes);
	return 0;
}

/*
 * Check the record of chunk i at *off: length, CRC, then the header fields
 * against the file header. On success *h describes it and *off points past
 * it.
 */
static int next_chunk(const uint8_t *in, size_t len, size_t *off,
		      const struct inc_file_info *fi, uint64_t i,
		      struct inc_chunk_hdr *h)
{
	uint64_t want = INC_MIN((uint64_t)fi->chunk_bytes,
				fi->raw_bytes - i * fi->chunk_bytes);
	size_t o = *off, body_len;
	int err;

	if (len - o < INC_CHUNK_HDR_BYTES)
		return -INC_ETRUNC;
	body_len = inc_get16(in + o + 4);
	if (len - o - INC_CHUNK_HDR_BYTES < body_len + INC_FILE_CRC_BYTES)
		return -INC_ETRUNC;
	if (inc_get32(in + o + INC_CHUNK_HDR_BYTES + body_len) !=
	    inc_crc32c(0, in + o, INC_CHUNK_HDR_BYTES + body_len))
		return -INC_ECHECKSUM;
	err = inc_chunk_hdr_parse(in + o, h);
	if (err)
		return err;
	if (h->raw_len != want || h->k != fi->k ||
	    (h->mode != fi->mode && h->mode != INC_MODE_STORED))
		return -INC_ECORRUPT;
	*off = o + INC_CHUNK_HDR_BYTES + body_len + INC_FILE_CRC_BYTES;
	return 0;
}

int inc_decompress_with(const struct inc_chunk_coder *coder, const void *src,
			size_t src_len, void *dst, size_t dst_cap,
			size_t *dst_len)
{
	const uint8_t *in = src;
	uint8_t *out = dst;
	struct inc_file_info fi;
	size_t off = INC_FILE_HDR_BYTES;
	uint64_t i;
	int err;

	if (!coder || (!src && src_len) || (!dst && dst_cap) || !dst_len)
		return -INC_EINVAL;
	err = inc_file_info(src, src_len, &fi);
	if (err)
		return err;
	if (fi.raw_bytes > dst_cap)
		return -INC_ENOSPC;
	for (i = 0; i < fi.chunks; i++) {
		struct inc_chunk_hdr h;
		size_t body = off + INC_CHUNK_HDR_BYTES;

		err = next_chunk(in, src_len, &off, &fi, i, &h);
		if (err)
			return err;
		if (h.mode == INC_MODE_STORED) {
			/* next_chunk checked body_len == raw_len */
			if (h.raw_len)
				memcpy(out + i * fi.chunk_bytes, in + body, h.raw_len);
			continue;
		}
		err = coder->decode(coder->ctx, in + body, h.body_len, h.raw_len,
				    h.k, (enum inc_mode)h.mode,
				    out + i * fi.chunk_bytes, h.raw_len);
		if (err)
			return err;
	}
	if (off != src_len)
		return -INC_ECORRUPT;	/* bytes after the last chunk */
	*dst_len = (size_t)fi.raw_bytes;
	return 0;
}

int inc_file_hist(const void *src, size_t src_len, struct inc_hist *hist)
{
	const uint8_t *in = src;
	struct inc_file_info fi;
	size_t off = INC_FILE_HDR_BYTES;
	uint64_t i;
	int err;

	if (!hist)
		return -INC_EINVAL;
	err = inc_file_info(src, src_len, &fi);
	if (err)
		return err;
	for (i = 0; i < fi.chunks; i++) {
		struct inc_chunk_hdr h;
		size_t body = off + INC_CHUNK_HDR_BYTES;

		err = next_chunk(in, src_len, &off, &fi, i, &h);
		if (!err)
			err = inc_chunk_hist(in + body, h.body_len, h.raw_len,
					     h.k, (enum inc_mode)h.mode, hist);
		if (err)
			return err;
	}
	return off == src_len ? 0 : -INC_ECORRUPT;
}
