/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the codec tools: whole-file I/O with clear errors,
 * error measurement against an original, and a monotonic clock.
 */
#ifndef INC_TOOLUTIL_H
#define INC_TOOLUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Read a whole file ("-" is stdin) into a malloc'd buffer. On failure,
 * prints "prog: path: reason" to stderr and returns NULL. */
uint8_t *tu_read(const char *prog, const char *path, size_t *len);
/* Write a whole file ("-" is stdout); a named file is written to a
 * temporary name and renamed, so a failure leaves no partial output. */
int tu_write(const char *prog, const char *path, const void *buf, size_t len);

struct tu_err {
	double max_abs;		/* largest |decoded - original| of finite values */
	uint64_t finite;	/* finite values compared */
	uint64_t over_bound;	/* finite values with error above the bound */
	uint64_t nonfinite_bad;	/* Inf/NaN not restored bit-exact */
	uint64_t tail_bad;	/* trailing bytes that differ */
};
/* |a - b| <= 2^-k, decided exactly for finite floats a and b (a rounded
 * double subtraction can be off at the bound); *diff = |a - b| rounded. */
int tu_within(float a, float b, unsigned int k, double *diff);
/* Compare decoded with original (same length) for error bound 2^-k. */
void tu_measure(const uint8_t *orig, const uint8_t *dec, size_t len,
		unsigned int k, struct tu_err *e);
static inline int tu_held(const struct tu_err *e)
{
	return !e->over_bound && !e->nonfinite_bad && !e->tail_bad;
}

double tu_now(void);

#endif
