/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gradient marking, the arithmetic: which bytes of a frame's L4 payload the
 * NIC may compress. No kernel dependency, so that the userspace unit test
 * (tests/driver/unit/test_mark_range.c) compiles the very same code: include
 * <linux/types.h> first in the kernel, or define bool, u8, u16, u32, u64, s32
 * and s64 in userspace.
 *
 * A TCP socket's bytes are numbered by their position in the connection's
 * byte stream (64 bits, so it never wraps): the position of snd_una is
 * tp->bytes_acked, which the stack advances by exactly as much as snd_una.
 * A run is a stretch of positions [start, end) written with the mark on;
 * its bytes are float32 values counted from start.
 */
#ifndef INC_MARK_RANGE_H
#define INC_MARK_RANGE_H

/* end of a run that is still open (the mark is on) */
#define INC_MARK_OPEN		(~(u64)0)

/*
 * Frames more than this far from snd_una (in either direction) are not
 * marked: a sequence number is mapped to a position only within it.
 */
#define INC_MARK_SEQ_WINDOW	0x40000000u	/* 2^30 */

struct inc_mark_run {
	u64 start;	/* position of the first byte written with the mark on */
	u64 end;	/* position after the last one, or INC_MARK_OPEN */
	u8 k;
	u8 mode;
};

struct inc_mark_pick {
	u32 off;	/* offset in the frame's payload, bytes */
	u32 len;	/* a multiple of 4 */
	u8 k;
	u8 mode;
};

/*
 * The stream position of TCP sequence number @seq, given snd_una (@una) and
 * its position @una_pos. False when @seq is too far from @una to tell, or
 * would lie before the start of the stream.
 */
static inline bool inc_mark_seq_pos(u64 una_pos, u32 una, u32 seq, u64 *pos)
{
	s32 d = (s32)(seq - una);

	if (d >= (s32)INC_MARK_SEQ_WINDOW || d <= -(s32)INC_MARK_SEQ_WINDOW)
		return false;
	if (d < 0 && (u64)-(s64)d > una_pos)
		return false;
	*pos = una_pos + (u64)(s64)d;
	return true;
}

/*
 * The range of a frame whose payload holds the stream positions
 * [@pos, @pos + @len), given the socket's runs (@nr of them, sorted, not
 * overlapping): the longest run of whole float32 values (on their run's
 * 4-byte grid) that lies inside both the payload and one run, if it is at
 * least @min_len bytes long; the first such when several are as long.
 * Bytes outside every run, and floats cut by the payload's or the run's
 * ends, are never part of it.
 */
static inline bool inc_mark_pick(const struct inc_mark_run *run, unsigned int nr,
				 u64 pos, u32 len, u32 min_len,
				 struct inc_mark_pick *out)
{
	u64 best = 0;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct inc_mark_run *r = &run[i];
		u64 lo = pos > r->start ? pos : r->start;
		u64 hi = pos + len < r->end ? pos + len : r->end;

		if (hi <= lo)
			continue;
		/* whole floats: from lo up, and from hi down, to the grid */
		lo += (r->start - lo) & 3;
		hi -= (hi - r->start) & 3;
		if (hi <= lo || hi - lo < min_len || hi - lo <= best)
			continue;
		best = hi - lo;
		out->off = (u32)(lo - pos);
		out->len = (u32)best;
		out->k = r->k;
		out->mode = r->mode;
	}
	return best != 0;
}

/* A UDP datagram's range: its whole payload from byte 0, whole floats. */
static inline bool inc_mark_pick_dgram(u32 len, u32 min_len,
				       struct inc_mark_pick *out)
{
	u32 n = len & ~3u;

	if (!n || n < min_len)
		return false;
	out->off = 0;
	out->len = n;
	return true;
}

#endif /* INC_MARK_RANGE_H */
