// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "toolutil.h"
#include "util.h"

int ig_load_floats(const char *what, const char *path, uint8_t **buf,
		   size_t *len)
{
	char prog[96];
	uint8_t *b;
	size_t n;

	snprintf(prog, sizeof(prog), "incgrad: %s", what);
	b = tu_read(prog, path, &n);	/* prints "prog: path: reason" */
	if (!b)
		return -1;
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
