/* SPDX-License-Identifier: MIT */
/*
 * The chunk loops, shared by every implementation. An implementation file
 * defines two static inline functions and then includes this file:
 *
 *   unsigned int group_encode(const uint8_t *in, const struct kq *kq,
 *                             uint8_t *dst, unsigned int *size);
 *	Encode the 8 values at in (32 bytes); store the tag word and the
 *	payloads at dst (it may store up to INC_GROUP_MAX_BYTES there), set
 *	*size to the group's encoded length and return the tag word.
 *
 *   void group_decode(unsigned int tw, const uint8_t *payload,
 *                     const struct kq *kq, uint8_t *out);
 *	Decode the 8 values of tag word tw whose payloads start at payload
 *	(32 bytes readable there, whatever the group's size) into out
 *	(32 bytes).
 *
 * This file owns the layout around the groups: segments and their masks in
 * sparse mode, the short last group, and every check a decoder makes.
 */
#ifndef INC_LOOPS_IMPL
#error "define INC_LOOPS_IMPL before including codec_loops.h"
#endif

static size_t INC_LOOPS_IMPL(encode)(const uint8_t *raw, size_t n,
				     unsigned int k, int sparse, uint8_t *dst)
{
	struct kq kq;
	size_t ngroups = (n + INC_GROUP_VALUES - 1) / INC_GROUP_VALUES;
	size_t g = 0;
	uint8_t *p = dst;
	uint8_t pad[4 * INC_GROUP_VALUES];

	kq_init(&kq, k);
	while (g < ngroups) {
		size_t sg = sparse ? INC_MIN(INC_SEGMENT_GROUPS, ngroups - g)
				   : ngroups - g;
		uint8_t *maskp = p;
		unsigned int mask = 0, i;

		p += sparse;
		for (i = 0; i < sg; i++, g++) {
			const uint8_t *in = raw + 4 * INC_GROUP_VALUES * g;
			size_t vals = INC_MIN(INC_GROUP_VALUES,
					      n - INC_GROUP_VALUES * g);
			unsigned int size, tw;

			if (vals < INC_GROUP_VALUES) {
				/* +0.0 pads the short group: tag 0, no bytes */
				memset(pad, 0, sizeof(pad));
				memcpy(pad, in, 4 * vals);
				in = pad;
			}
			tw = group_encode(in, &kq, p, &size);
			if (sparse && !tw)
				continue;
			mask |= 1u << i;
			p += size;
		}
		if (sparse)
			*maskp = (uint8_t)mask;
	}
	return (size_t)(p - dst);
}

static void hist_group(struct inc_hist *h, unsigned int tw, size_t vals)
{
	size_t i;

	for (i = 0; i < vals; i++)
		h->cls[(tw >> (2 * i)) & 3]++;
	h->groups++;
}

static int INC_LOOPS_IMPL(decode)(const uint8_t *body, size_t body_len,
				  size_t n, unsigned int k, int sparse,
				  uint8_t *dst, size_t *used,
				  struct inc_hist *hist)
{
	struct kq kq;
	size_t ngroups = (n + INC_GROUP_VALUES - 1) / INC_GROUP_VALUES;
	size_t g = 0;
	const uint8_t *p = body, *end = body + body_len;
	uint8_t pad[INC_GROUP_MAX_BYTES];
	uint8_t tmp[4 * INC_GROUP_VALUES];

	kq_init(&kq, k);
	while (g < ngroups) {
		size_t sg = sparse ? INC_MIN(INC_SEGMENT_GROUPS, ngroups - g)
				   : ngroups - g;
		unsigned int mask = ~0u;
		size_t i;

		if (sparse) {
			if (p == end)
				return -INC_ECORRUPT;
			mask = *p++;
			if (mask >> sg)	/* bits past the last group */
				return -INC_ECORRUPT;
		}
		for (i = 0; i < sg; i++, g++) {
			uint8_t *out = dst + 4 * INC_GROUP_VALUES * g;
			size_t vals = INC_MIN(INC_GROUP_VALUES,
					      n - INC_GROUP_VALUES * g);
			size_t size;
			unsigned int tw;

			if (!(mask >> i & 1)) {
				memset(out, 0, 4 * vals);
				if (hist) {
					hist_group(hist, 0, vals);
					hist->zero_groups++;
				}
				continue;
			}
			if (end - p < 2)
				return -INC_ECORRUPT;
			tw = inc_get16(p);
			if (sparse && !tw)	/* a present group is never all zero */
				return -INC_ECORRUPT;
			if (vals < INC_GROUP_VALUES && tw >> (2 * vals))
				return -INC_ECORRUPT;	/* tag on padding */
			size = 2 + inc_tagbyte_bytes[tw & 0xff] +
			       inc_tagbyte_bytes[tw >> 8];
			if (size > (size_t)(end - p))
				return -INC_ECORRUPT;
			if (hist)
				hist_group(hist, tw, vals);
			if (vals == INC_GROUP_VALUES &&
			    end - p >= INC_GROUP_MAX_BYTES) {
				group_decode(tw, p + 2, &kq, out);
			} else {
				/* near the end: decode from a padded copy */
				memset(pad, 0, sizeof(pad));
				memcpy(pad, p, size);
				group_decode(tw, pad + 2, &kq, tmp);
				memcpy(out, tmp, 4 * vals);
			}
			p += size;
		}
	}
	*used = (size_t)(p - body);
	return 0;
}

const struct inc_impl INC_LOOPS_IMPL(impl) = {
	.name = INC_LOOPS_NAME,
	.usable = INC_LOOPS_IMPL(usable),
	.encode = INC_LOOPS_IMPL(encode),
	.decode = INC_LOOPS_IMPL(decode),
};
