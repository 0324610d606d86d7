// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int ig_load_floats(const char *what, const char *path, uint8_t **buf,
		   size_t *len)
{
	struct stat st;
	uint8_t *b = NULL;
	size_t n = 0, cap;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		goto sys;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto sys;
	}
	/* one byte more than the size, so that a single read sees the end */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 20;
	b = malloc(cap);
	if (!b)
		goto sys;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint8_t *nb = realloc(b, cap *= 2);

			if (!nb)
				goto sys;
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto sys;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n == 0) {
		fprintf(stderr, "incgrad: %s: %s: empty file\n", what, path);
		free(b);
		return -1;
	}
	if (n % 4) {
		fprintf(stderr,
			"incgrad: %s: %s: length %zu is not a multiple of 4 "
			"(not a float32 file)\n", what, path, n);
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
sys:
	fprintf(stderr, "incgrad: %s: %s: %s\n", what, path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(b);
	return -1;
}

int ig_save(const char *path, const void *buf, size_t len)
{
	size_t pl = strlen(path) + 16;
	char *tmp = malloc(pl);
	const uint8_t *p = buf;
	int fd;

	if (!tmp)
		return -1;
	snprintf(tmp, pl, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto err;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto err_fd;
		p += w;
		len -= (size_t)w;
	}
	if (fchmod(fd, 0644) || close(fd)) {
		fd = -1;
		goto err_unlink;
	}
	if (rename(tmp, path))
		goto err_unlink;
	free(tmp);
	return 0;
err_fd:
	close(fd);
err_unlink:
	unlink(tmp);
err:
	fprintf(stderr, "incgrad: --save: %s: %s\n", path, strerror(errno));
	free(tmp);
	return -1;
}

double ig_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ig_sleep_until(double t)
{
	double d = t - ig_now();
	struct timespec ts;

	if (d <= 0)
		return;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int ig_parse_num(const char *s, int si, uint64_t lo, uint64_t hi,
		 uint64_t *v)
{
	uint64_t m = 1, base = si ? 1000 : 1024;
	unsigned long long x;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		m = base;
		end++;
		break;
	case 'm': case 'M':
		m = base * base;
		end++;
		break;
	case 'g': case 'G':
		m = base * base * base;
		end++;
		break;
	}
	if (*end || (x && m > UINT64_MAX / x))
		return -1;
	x *= m;
	if (x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}
