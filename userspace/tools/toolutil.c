// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "toolutil.h"

uint8_t *tu_read(const char *prog, const char *path, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = NULL, *nb;
	struct stat st;
	ssize_t r;

	if (fd < 0)
		goto err;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		cap = (size_t)st.st_size + 1;
	if (!fstat(fd, &st) && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto err;
	}
	buf = malloc(cap);
	if (!buf)
		goto err;
	for (;;) {
		if (n == cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb)
				goto err;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto err;
		if (!r)
			break;
		n += (size_t)r;
	}
	if (fd > 0)
		close(fd);
	*len = n;
	return buf;
err:
	fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
	free(buf);
	if (fd > 0)
		close(fd);
	return NULL;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int tu_write(const char *prog, const char *path, const void *buf, size_t len)
{
	char *tmp;
	int fd;

	if (!strcmp(path, "-")) {
		if (write_all(1, buf, len)) {
			fprintf(stderr, "%s: stdout: %s\n", prog, strerror(errno));
			return -1;
		}
		return 0;
	}
	tmp = malloc(strlen(path) + 16);
	if (!tmp)
		return -1;
	sprintf(tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		free(tmp);
		return -1;
	}
	if (write_all(fd, buf, len) || fchmod(fd, 0644) || close(fd) ||
	    rename(tmp, path)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int tu_within(float a, float b, unsigned int k, double *diff)
{
	/*
	 * a and b are exact in double; s = a - b may round, t is its exact
	 * rounding error (TwoSum), so a - b = s + t exactly. eb is a power
	 * of two, hence a double: |s| < eb or |s| > eb decides; on |s| == eb
	 * the sign of t does.
	 */
	double x = a, y = -(double)b;
	double s = x + y, bb = s - x, t = (x - (s - bb)) + (y - bb);
	double eb = ldexp(1.0, -(int)k);

	*diff = fabs(s);
	if (fabs(s) != eb)
		return fabs(s) < eb;
	return s > 0 ? t <= 0 : t >= 0;
}

void tu_measure(const uint8_t *orig, const uint8_t *dec, size_t len,
		unsigned int k, struct tu_err *e)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i + 4 <= len; i += 4) {
		float a, b;
		double d;

		memcpy(&a, orig + i, 4);
		memcpy(&b, dec + i, 4);
		if (!isfinite(a)) {
			e->nonfinite_bad += memcmp(orig + i, dec + i, 4) != 0;
			continue;
		}
		e->finite++;
		if (!isfinite(b)) {
			d = fabs((double)a - (double)b);	/* Inf or NaN */
			e->over_bound++;
		} else if (!tu_within(a, b, k, &d)) {
			e->over_bound++;
		}
		if (d > e->max_abs || d != d)
			e->max_abs = d;
	}
	for (; i < len; i++)
		e->tail_bad += orig[i] != dec[i];
}

double tu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
