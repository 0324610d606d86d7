// SPDX-License-Identifier: MIT
/*
 * Chunks: what one packet payload carries. Argument checks, the chunk
 * header, the short tail, and the call into the selected implementation.
 */
#include "codec_internal.h"

const char *inc_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case INC_OK:
		return "success";
	case INC_EINVAL:
		return "invalid argument";
	case INC_ENOSPC:
		return "output buffer too small";
	case INC_ETRUNC:
		return "input is truncated";
	case INC_ECORRUPT:
		return "input is corrupt";
	case INC_ECHECKSUM:
		return "checksum mismatch";
	case INC_EMAGIC:
		return "not an inccodec file";
	case INC_EUNSUPP:
		return "unsupported format version, mode or error bound";
	default:
		return "unknown error";
	}
}

size_t inc_chunk_bound(size_t raw_len, enum inc_mode mode)
{
	size_t n = raw_len / 4;
	size_t groups = (n + INC_GROUP_VALUES - 1) / INC_GROUP_VALUES;
	size_t b = 2 * groups + 4 * n + (raw_len & 3);

	switch (mode) {
	case INC_MODE_STORED:
		return raw_len;
	case INC_MODE_PAPER:
		return b;
	case INC_MODE_SPARSE:
		return b + (groups + INC_SEGMENT_GROUPS - 1) / INC_SEGMENT_GROUPS;
	case INC_MODE_WIDTH:
		return inc_width_bound(n) + (raw_len & 3);
	}
	return 0;
}

static int mode_ok(enum inc_mode mode)
{
	return mode == INC_MODE_STORED || mode == INC_MODE_PAPER ||
	       mode == INC_MODE_SPARSE || mode == INC_MODE_WIDTH;
}

static int k_ok(unsigned int k)
{
	return k >= INC_K_MIN && k <= INC_K_MAX;
}

int inc_quantize(const float *src, float *dst, size_t n, unsigned int k)
{
	if ((!src || !dst) && n)
		return -INC_EINVAL;
	if (!k_ok(k))
		return -INC_EINVAL;
	if (n)
		inc_impl_current()->quantize((const uint8_t *)src, n, k,
					     (uint8_t *)dst);
	return 0;
}

int inc_chunk_encode(const void *raw, size_t raw_len, unsigned int k,
		     enum inc_mode mode, void *dst, size_t dst_cap,
		     size_t *body_len)
{
	uint8_t tmp[INC_CHUNK_BOUND_MAX + INC_ENC_SLACK];
	const uint8_t *in = raw;
	uint8_t *out = dst;
	size_t n = raw_len / 4, tail = raw_len & 3, bound, len;

	if ((!raw && raw_len) || !dst || !body_len ||
	    raw_len > INC_CHUNK_MAX_BYTES || !k_ok(k) || !mode_ok(mode))
		return -INC_EINVAL;
	if (mode == INC_MODE_STORED) {
		if (dst_cap < raw_len)
			return -INC_ENOSPC;
		if (raw_len)
			memcpy(dst, raw, raw_len);
		*body_len = raw_len;
		return 0;
	}
	bound = inc_chunk_bound(raw_len, mode);
	if (dst_cap < bound + INC_ENC_SLACK)
		out = tmp;
	if (mode == INC_MODE_WIDTH)
		len = inc_impl_current()->width_encode(in, n, k, out);
	else
		len = inc_impl_current()->encode(in, n, k,
						 mode == INC_MODE_SPARSE, out);
	if (len + tail > dst_cap)
		return -INC_ENOSPC;
	if (out != dst)
		memcpy(dst, out, len);
	if (tail)
		memcpy((uint8_t *)dst + len, in + 4 * n, tail);
	*body_len = len + tail;
	return 0;
}

static int decode(const struct inc_impl *im, const uint8_t *body,
		  size_t body_len, size_t raw_len, unsigned int k,
		  enum inc_mode mode, uint8_t *dst, struct inc_hist *hist)
{
	size_t n = raw_len / 4, tail = raw_len & 3, used;
	int err;

	if (mode == INC_MODE_STORED) {
		if (body_len != raw_len)
			return -INC_ECORRUPT;
		if (raw_len)
			memcpy(dst, body, raw_len);
		if (hist)
			hist->stored += n;
		return 0;
	}
	if (body_len < tail)
		return -INC_ECORRUPT;
	if (mode == INC_MODE_WIDTH)
		err = im->width_decode(body, body_len - tail, n, k, dst, &used,
				       hist);
	else
		err = im->decode(body, body_len - tail, n, k,
				 mode == INC_MODE_SPARSE, dst, &used, hist);
	if (err)
		return err;
	if (used != body_len - tail)
		return -INC_ECORRUPT;	/* bytes the groups do not account for */
	if (tail)
		memcpy(dst + 4 * n, body + used, tail);
	return 0;
}

int inc_chunk_decode(const void *body, size_t body_len, size_t raw_len,
		     unsigned int k, enum inc_mode mode, void *dst,
		     size_t dst_cap)
{
	if ((!body && body_len) || (!dst && raw_len) ||
	    raw_len > INC_CHUNK_MAX_BYTES || !k_ok(k) || !mode_ok(mode))
		return -INC_EINVAL;
	if (dst_cap < raw_len)
		return -INC_ENOSPC;
	return decode(inc_impl_current(), body, body_len, raw_len, k, mode,
		      dst, NULL);
}

int inc_chunk_hist(const void *body, size_t body_len, size_t raw_len,
		   unsigned int k, enum inc_mode mode, struct inc_hist *h)
{
	uint8_t tmp[INC_CHUNK_MAX_BYTES];

	if ((!body && body_len) || !h || raw_len > INC_CHUNK_MAX_BYTES ||
	    !k_ok(k) || !mode_ok(mode))
		return -INC_EINVAL;
	return decode(&inc_scalar_impl, body, body_len, raw_len, k, mode, tmp,
		      h);
}

void inc_chunk_hdr_pack(const struct inc_chunk_hdr *h, uint8_t out[8])
{
	out[0] = h->mode;
	out[1] = h->k;
	inc_put16(out + 2, h->raw_len);
	inc_put16(out + 4, h->body_len);
	inc_put16(out + 6, 0);
}

int inc_chunk_hdr_parse(const uint8_t in[8], struct inc_chunk_hdr *h)
{
	h->mode = in[0];
	h->k = in[1];
	h->raw_len = inc_get16(in + 2);
	h->body_len = inc_get16(in + 4);
	if (!mode_ok((enum inc_mode)h->mode) || !k_ok(h->k))
		return -INC_EUNSUPP;
	if (inc_get16(in + 6) || h->raw_len > INC_CHUNK_MAX_BYTES ||
	    h->body_len > inc_chunk_bound(h->raw_len, (enum inc_mode)h->mode))
		return -INC_ECORRUPT;
	if (h->mode == INC_MODE_STORED && h->body_len != h->raw_len)
		return -INC_ECORRUPT;
	return 0;
}
