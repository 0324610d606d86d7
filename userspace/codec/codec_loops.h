/* SPDX-License-Identifier: MIT */
/*
 * The chunk loops, shared by every implementation. An implementation file
 * defines these static inline functions and then includes this file:
 *
 *   unsigned int group_encode(const uint8_t *in, const struct kq *kq,
 *                             uint8_t *pay, unsigned int *size);
 *	Classify the 8 values at in (32 bytes), store their payloads packed
 *	at pay (it may store up to 32 bytes there, whatever the size), set
 *	*size to the payload bytes and return the tag word.
 *
 *   uint32_t group_encode2(const uint8_t *a, const uint8_t *b,
 *                          const struct kq *kq, uint8_t *pay,
 *                          unsigned int *size);
 *	The same for two groups at once (a and b need not be adjacent):
 *	payloads of a then b packed at pay (up to 64 bytes stored); returns
 *	a's tag word | b's << 16.
 *
 *   unsigned int segment_present(const uint8_t *in, const struct kq *kq);
 *	For the 8 groups at in (256 bytes): bit j set when group j has a
 *	value that is not ZERO.
 *
 *   unsigned int segment_offsets(const uint8_t *tags, unsigned int cnt,
 *                                uint16_t *off);
 *	For the cnt (0..8) tag words at tags (16 bytes readable there):
 *	off[i] = payload bytes of tag words 0..i-1, for i = 0..cnt (off has
 *	room for 9); returns non-zero if any of the cnt tag words is 0.
 *
 *   void group_decode(unsigned int tw, const uint8_t *pay,
 *                     const struct kq *kq, uint8_t *out);
 *	Decode the 8 values of tag word tw whose payloads start at pay (32
 *	bytes readable there, whatever the group's size) into out (32 bytes).
 *
 *   void group_decode2(uint32_t tw2, const uint8_t *pay, const struct kq *kq,
 *                      uint8_t *oa, uint8_t *ob);
 *	The same for two groups whose payloads follow each other at pay (64
 *	bytes readable there): tag words tw2 & 0xffff and tw2 >> 16.
 *
 * and INC_LOOPS_WIDTH(x), the width-mode functions (encode, decode) the
 * implementation's struct inc_impl points to.
 *
 * This file owns the layout around the groups (docs/codec.md, sections 4-6):
 * segments of 8 groups, each [mask] [tag words] [payloads]; the short last
 * segment and group; and every check a decoder makes.
 */
#ifndef INC_LOOPS_IMPL
#error "define INC_LOOPS_IMPL before including codec_loops.h"
#endif

#define SEG_VALUES	(INC_SEGMENT_GROUPS * INC_GROUP_VALUES)
#define GROUP_BYTES	(4 * INC_GROUP_VALUES)

static size_t INC_LOOPS_IMPL(encode)(const uint8_t *raw, size_t n,
				     unsigned int k, int sparse, uint8_t *dst)
{
	struct kq kq;
	size_t v0;
	uint8_t *p = dst;
	uint8_t pad[4 * SEG_VALUES];

	kq_init(&kq, k);
	for (v0 = 0; v0 < n; v0 += SEG_VALUES) {
		const uint8_t *in = raw + 4 * v0;
		size_t vals = INC_MIN(SEG_VALUES, n - v0);
		unsigned int sg = (unsigned int)(vals + INC_GROUP_VALUES - 1) /
				  INC_GROUP_VALUES;
		unsigned int present, j;
		uint8_t *tags, *pay;

		if (vals < SEG_VALUES) {
			/* +0.0 pads the short segment: ZERO, absent in sparse */
			memset(pad, 0, sizeof(pad));
			memcpy(pad, in, 4 * vals);
			in = pad;
		}
		if (sparse) {
			present = segment_present(in, &kq);
			*p++ = (uint8_t)present;
		} else {
			present = (1u << sg) - 1;
		}
		tags = p;
		pay = p + 2 * __builtin_popcount(present);
		/* the present groups, two at a time */
		while (present) {
			unsigned int size, a = (unsigned int)__builtin_ctz(present);
			uint32_t tw;

			present &= present - 1;
			if (!present) {
				tw = group_encode(in + GROUP_BYTES * a, &kq, pay,
						  &size);
				inc_put16(tags, (uint16_t)tw);
				pay += size;
				break;
			}
			j = (unsigned int)__builtin_ctz(present);
			present &= present - 1;
			tw = group_encode2(in + GROUP_BYTES * a,
					   in + GROUP_BYTES * j, &kq, pay, &size);
			inc_put32(tags, tw);
			tags += 4;
			pay += size;
		}
		p = pay;
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

/*
 * Payload bytes of a segment of 8 present groups, summed straight from its
 * tag words with two 64-bit loads: the next segment's position then waits
 * on nothing slower, which keeps the loop's critical path short.
 */
static inline unsigned int segment_total8(const uint8_t *tags)
{
	const uint64_t lo = 0x5555555555555555ull, hi = lo << 1;
	uint64_t a, b;

	memcpy(&a, tags, 8);
	memcpy(&b, tags + 8, 8);
	return (unsigned int)(__builtin_popcountll(a & lo) +
			      2 * __builtin_popcountll(a & hi) +
			      __builtin_popcountll(a & a >> 1 & lo) +
			      __builtin_popcountll(b & lo) +
			      2 * __builtin_popcountll(b & hi) +
			      __builtin_popcountll(b & b >> 1 & lo));
}

/* Largest segment: mask, 8 tag words, 8 full payloads. */
#define SEG_MAX_BYTES	(1 + 2 * INC_SEGMENT_GROUPS + 8 * GROUP_BYTES)
/* Bytes a fast segment decode may read past the end of the segment. */
#define OVERREAD	64

static inline __attribute__((always_inline)) int
decode_body(const uint8_t *body, size_t body_len, size_t n, unsigned int k,
	    int sparse, uint8_t *dst, size_t *used, struct inc_hist *hist)
{
	struct kq kq;
	size_t v0, done = 0;	/* body bytes consumed before the tail copy */
	int in_tail = 0;
	const uint8_t *p = body, *end = body + body_len;
	uint8_t pad[GROUP_BYTES + 32], tmp[GROUP_BYTES];
	/* the last bytes of the body, with room to read past them */
	uint8_t tail[SEG_MAX_BYTES + 2 * OVERREAD];

	kq_init(&kq, k);
	for (v0 = 0; v0 < n; v0 += SEG_VALUES) {
		size_t vals = INC_MIN(SEG_VALUES, n - v0);
		unsigned int sg = (unsigned int)(vals + INC_GROUP_VALUES - 1) /
				  INC_GROUP_VALUES;
		unsigned int present = (1u << sg) - 1, cnt, i, j;
		/* values in the last group of this segment */
		unsigned int last = (unsigned int)(vals - INC_GROUP_VALUES * (sg - 1));
		uint16_t off[INC_SEGMENT_GROUPS + 1];
		const uint8_t *pay;
		uint8_t *out = dst + 4 * v0;

		if (!in_tail && (size_t)(end - p) < SEG_MAX_BYTES + OVERREAD) {
			/*
			 * From here on, decode from a zero-padded copy, so
			 * that every segment may be read OVERREAD bytes past
			 * its end, as the ones before were.
			 */
			done = (size_t)(p - body);
			memcpy(tail, p, (size_t)(end - p));
			memset(tail + (end - p), 0, sizeof(tail) - (size_t)(end - p));
			end = tail + (end - p);
			p = tail;
			in_tail = 1;
		}
		if (sparse) {
			if (p == end)
				return -INC_ECORRUPT;
			present = *p++;
			if (present >> sg)	/* bits past the last group */
				return -INC_ECORRUPT;
		}
		cnt = (unsigned int)__builtin_popcount(present);
		if ((size_t)(end - p) < 2 * cnt)
			return -INC_ECORRUPT;
		pay = p + 2 * cnt;
		/* each present group's payload offset: a prefix sum */
		if (segment_offsets(p, cnt, off) && sparse)
			return -INC_ECORRUPT;	/* present groups are never all ZERO */
		if (last < INC_GROUP_VALUES && present >> (sg - 1) &&
		    inc_get16(p + 2 * (cnt - 1)) >> (2 * last))
			return -INC_ECORRUPT;	/* a tag on padding */
		if ((size_t)(end - pay) < off[cnt])
			return -INC_ECORRUPT;
		if (!hist && present == 0xff && vals == SEG_VALUES) {
			/* all 8 groups present and full (every paper segment
			 * but a short last one), readable OVERREAD bytes past */
			for (i = 0; i < INC_SEGMENT_GROUPS; i += 2)
				group_decode2(inc_get32(p + 2 * i), pay + off[i],
					      &kq, out + GROUP_BYTES * i,
					      out + GROUP_BYTES * (i + 1));
			p = pay + segment_total8(p);
			continue;
		}
		if (!hist && vals == SEG_VALUES) {
			/* 8 full groups, readable OVERREAD bytes past the end */
			unsigned int absent = ~present & 0xff;

			while (absent) {
				j = (unsigned int)__builtin_ctz(absent);
				absent &= absent - 1;
				memset(out + GROUP_BYTES * j, 0, GROUP_BYTES);
			}
			for (i = 0; i + 1 < cnt; i += 2) {
				unsigned int a = (unsigned int)__builtin_ctz(present);

				present &= present - 1;
				j = (unsigned int)__builtin_ctz(present);
				present &= present - 1;
				group_decode2(inc_get32(p + 2 * i), pay + off[i],
					      &kq, out + GROUP_BYTES * a,
					      out + GROUP_BYTES * j);
			}
			if (i < cnt)
				group_decode(inc_get16(p + 2 * i), pay + off[i], &kq,
					     out + GROUP_BYTES *
					     __builtin_ctz(present));
			p = pay + off[cnt];
			continue;
		}
		for (i = 0, j = 0; j < sg; j++) {
			unsigned int gv = j == sg - 1 ? last : INC_GROUP_VALUES;
			uint8_t *o = out + GROUP_BYTES * j;
			unsigned int tw = inc_get16(p + 2 * i);

			if (!(present >> j & 1)) {
				memset(o, 0, 4 * gv);
				if (hist) {
					hist_group(hist, 0, gv);
					hist->zero_groups++;
				}
				continue;
			}
			if (hist)
				hist_group(hist, tw, gv);
			if (gv == INC_GROUP_VALUES) {
				group_decode(tw, pay + off[i], &kq, o);
			} else {
				/* the short last group: decode a padded copy */
				memset(pad, 0, sizeof(pad));
				memcpy(pad, pay + off[i], off[i + 1] - off[i]);
				group_decode(tw, pad, &kq, tmp);
				memcpy(o, tmp, 4 * gv);
			}
			i++;
		}
		p = pay + off[cnt];
	}
	*used = in_tail ? done + (size_t)(p - tail) : (size_t)(p - body);
	return 0;
}

static int INC_LOOPS_IMPL(decode)(const uint8_t *body, size_t body_len,
				  size_t n, unsigned int k, int sparse,
				  uint8_t *dst, size_t *used,
				  struct inc_hist *hist)
{
	/* one copy without statistics for speed, one with */
	if (hist)
		return decode_body(body, body_len, n, k, sparse, dst, used,
				   hist);
	return decode_body(body, body_len, n, k, sparse, dst, used, NULL);
}

const struct inc_impl INC_LOOPS_IMPL(impl) = {
	.name = INC_LOOPS_NAME,
	.usable = INC_LOOPS_IMPL(usable),
	.encode = INC_LOOPS_IMPL(encode),
	.decode = INC_LOOPS_IMPL(decode),
	.quantize = INC_LOOPS_IMPL(quantize),
	.width_encode = INC_LOOPS_WIDTH(encode),
	.width_decode = INC_LOOPS_WIDTH(decode),
};

#undef SEG_VALUES
#undef GROUP_BYTES
#undef SEG_MAX_BYTES
#undef OVERREAD
