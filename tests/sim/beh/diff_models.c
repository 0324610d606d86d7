// SPDX-License-Identifier: MIT
/*
 * diff-models: the RTL model and the behavioral model of the NIC, driven
 * through incsim's shim the same way, must do the same (docs/sim.md "Two
 * models"). For each model this program starts an incsim, plays QEMU and
 * a driver (sim/incsim/shimc.h) and the link's peer, and runs one
 * deterministic workload:
 *
 *  1. TX: frames of every kind (tests/lib/frames.h: VLAN tags, IPv4 and
 *     IPv6 with options, TCP and UDP, fragments, non-IP), their payloads
 *     real gradients, unmarked or marked in every mode (and bad modes, k
 *     and ranges), a few with bad lengths; every frame on the link and
 *     every descriptor status is recorded.
 *  2. RX: the frames of phase 1 fed back from the link, and damaged
 *     copies of the compressed ones (a byte changed, the tail cut), into RX
 *     buffers, a few of them too small; every delivered frame's bytes,
 *     length and status recorded.
 *  3. Loopback: marked frames looped back to RX.
 *  4. Every counter, MAGIC, VERSION, FEATURES and CONFIG.
 *
 * The two records must be equal byte for byte; the first difference is
 * reported. TAP output.
 *
 * usage: diff-models --a INCSIM[:ARG,...] --b INCSIM[:ARG,...]
 *                    [--gradients FILE] [--frames N] [--seed S] [--expect-differ]
 *   e.g. --a build/bin/incsim:--model,rtl --b build/bin/incsim:--model,behavioral
 *   --expect-differ: the test passes when the records differ (a model
 *   known to be wrong, to show that the comparison catches it)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frames.h"
#include "nic_env.h"	/* register offsets and descriptor bits */
#include "shimc.h"
#include "testlib.h"

#define RING_LOG2	8
#define RING_N		(1u << RING_LOG2)
#define BUF		16384u
#define TX_RING		0x100000u
#define RX_RING		0x110000u
#define TX_BUFS		0x200000u
#define RX_BUFS		0x800000u
#define RAM_SIZE	"64M"
#define MAX_FRAME	9018u
#define MAX_ARGS	16

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	t_ok(0, "%s", buf);
	t_done();
	exit(1);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* ---- the record: tagged items, compared byte for byte ---- */

struct rec {
	uint8_t *p;
	size_t n, cap;
	unsigned int items;
};

static void rec_put(struct rec *r, const char *tag, uint32_t idx,
		    const void *data, size_t len)
{
	size_t need = r->n + 16 + len;
	uint32_t l = (uint32_t)len;

	if (need > r->cap) {
		r->cap = need * 2;
		r->p = realloc(r->p, r->cap);
		if (!r->p)
			die("out of memory");
	}
	memset(r->p + r->n, 0, 8);
	memcpy(r->p + r->n, tag, strnlen(tag, 8));
	memcpy(r->p + r->n + 8, &idx, 4);
	memcpy(r->p + r->n + 12, &l, 4);
	memcpy(r->p + r->n + 16, data, len);
	r->n = need;
	r->items++;
}

/* ---- one model ---- */

struct side {
	const char *label;
	char *argv[MAX_ARGS + 16];
	pid_t pid;
	char dir[128], ivs[192], link[192], ram[192], log[192];
	struct shimc c;
	int lfd;			/* the link, as its peer */
	uint8_t lbuf[1 << 16];
	size_t lhave;
	uint16_t tx_prod, rx_prod, rx_clean;
	struct rec r;		/* statuses, deliveries, counters */
	struct rec lk;		/* the link's frames (their own order) */
	unsigned int link_frames;
};


static void parse_side(struct side *s, const char *label, char *spec)
{
	int n = 0;
	char *a = strchr(spec, ':');

	s->label = label;
	if (a)
		*a++ = 0;
	s->argv[n++] = spec;
	while (a && *a && n < MAX_ARGS) {
		char *e = strchr(a, ',');

		if (e)
			*e++ = 0;
		s->argv[n++] = a;
		a = e;
	}
	s->argv[n] = NULL;
}

static void spawn(struct side *s)
{
	char *args[MAX_ARGS + 16];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	double t0;
	int n = 0, i, fd;

	snprintf(s->dir, sizeof(s->dir), "/tmp/diff-models-%d-%s", (int)getpid(), s->label);
	mkdir(s->dir, 0700);
	snprintf(s->ivs, sizeof(s->ivs), "%s/ivs.sock", s->dir);
	snprintf(s->link, sizeof(s->link), "%s/link.sock", s->dir);
	snprintf(s->log, sizeof(s->log), "%s/incsim.log", s->dir);
	snprintf(s->ram, sizeof(s->ram), "/dev/shm/diff-models-%d-%s", (int)getpid(), s->label);
	args[n++] = s->argv[0];
	for (i = 1; s->argv[i]; i++)
		args[n++] = s->argv[i];
	args[n++] = "--ivshmem"; args[n++] = s->ivs;
	args[n++] = "--ram"; args[n++] = s->ram;
	args[n++] = "--ram-size"; args[n++] = RAM_SIZE;
	args[n++] = "--link-listen"; args[n++] = s->link;
	args[n++] = "--name"; args[n++] = (char *)s->label;
	args[n++] = "--stats";
	args[n] = NULL;
	s->pid = fork();
	if (s->pid < 0)
		die("fork: %s", strerror(errno));
	if (s->pid == 0) {
		fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execv(args[0], args);
		_exit(127);
	}
	for (t0 = now(); stat(s->ivs, &st) < 0 || stat(s->link, &st) < 0; usleep(5000))
		if (now() - t0 > 30)
			die("%s: incsim did not start (see %s)", s->label, s->log);
	{
		char err[256];

		if (shimc_open(&s->c, s->ivs, s->ram, err, sizeof(err)) < 0)
			die("%s: %s", s->label, err);
	}
	s->lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (strlen(s->link) >= sizeof(sa.sun_path))
		die("%s: socket path too long: %s", s->label, s->link);
	memcpy(sa.sun_path, s->link, strlen(s->link) + 1);
	if (s->lfd < 0 || connect(s->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("%s: link %s: %s", s->label, s->link, strerror(errno));
	fcntl(s->lfd, F_SETFL, O_NONBLOCK);
}

static void finish(struct side *s)
{
	int st;

	close(s->lfd);
	shimc_close(&s->c);
	kill(s->pid, SIGTERM);
	waitpid(s->pid, &st, 0);
	unlink(s->ram);
	if (!getenv("DIFF_MODELS_KEEP")) {
		unlink(s->log);
		rmdir(s->dir);
	}
}

/* Link frames that arrived, into the record. */
static void link_poll(struct side *s)
{
	ssize_t n;

	for (;;) {
		n = read(s->lfd, s->lbuf + s->lhave, sizeof(s->lbuf) - s->lhave);
		if (n <= 0)
			break;
		s->lhave += (size_t)n;
	}
	while (s->lhave >= 4) {
		size_t len = (size_t)s->lbuf[0] << 24 | (size_t)s->lbuf[1] << 16 |
			     (size_t)s->lbuf[2] << 8 | s->lbuf[3];

		if (s->lhave < 4 + len)
			break;
		rec_put(&s->lk, "link", s->link_frames++, s->lbuf + 4, len);
		memmove(s->lbuf, s->lbuf + 4 + len, s->lhave - 4 - len);
		s->lhave -= 4 + len;
	}
}

static void link_send(struct side *s, const uint8_t *f, size_t len)
{
	uint8_t h[4] = { (uint8_t)(len >> 24), (uint8_t)(len >> 16),
			 (uint8_t)(len >> 8), (uint8_t)len };
	struct pollfd p = { .fd = s->lfd, .events = POLLOUT };
	size_t off = 0;
	uint8_t buf[4 + 16384];

	memcpy(buf, h, 4);
	memcpy(buf + 4, f, len);
	while (off < len + 4) {
		ssize_t n = write(s->lfd, buf + off, len + 4 - off);

		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			die("%s: link write: %s", s->label, strerror(errno));
		link_poll(s);
		poll(&p, 1, 10);
	}
}

static uint64_t nic_counter(struct side *s, int n)
{
	uint32_t lo = shimc_read(&s->c, INC_STATS + 8 * n);

	return (uint64_t)shimc_read(&s->c, INC_STATS + 8 * n + 4) << 32 | lo;
}

static void setup(struct side *s)
{
	struct shimc *c = &s->c;
	int q;

	for (q = 0; q < 2; q++) {
		uint32_t base = q ? INC_RXQ : INC_TXQ;

		shimc_write(c, base + INC_Q_BASE_LO, q ? RX_RING : TX_RING);
		shimc_write(c, base + INC_Q_BASE_HI, 0);
		shimc_write(c, base + INC_Q_SIZE, RING_LOG2);
		shimc_write(c, base + INC_Q_PROD, 0);
	}
	memset(c->ram + TX_RING, 0, RING_N * INC_TXD_BYTES);
	memset(c->ram + RX_RING, 0, RING_N * INC_RXD_BYTES);
	s->tx_prod = s->rx_prod = s->rx_clean = 0;
	shimc_write(c, INC_MAX_FRAME, MAX_FRAME);
	shimc_write(c, INC_IRQ_ENABLE, 0);
	shimc_write(c, INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
}

/* ---- the workload ---- */

struct txf {
	uint8_t f[MAX_FRAME];
	size_t len;
	uint16_t len_field;
	int compress, k, mode, roff, rlen;
};

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static const uint8_t *grad;
static size_t grad_len;

/* Frame i of the workload (the same for every model: seeded). */
static void make_frame(struct txf *t)
{
	struct fspec s;
	size_t pay_len, off, po;
	uint8_t pay[MAX_FRAME];
	uint32_t r = rnd() % 100;

	memset(&s, 0, sizeof(s));
	s.vlans = rnd() % 8 == 0 ? (int)(rnd() % 3) : 0;
	s.ipv = r < 4 ? 0 : (rnd() % 3 == 0 ? 6 : 4);
	s.proto = rnd() % 16 == 0 ? 47 : (rnd() % 2 ? 6 : 17);
	if (s.proto == 6 && rnd() % 4 == 0)
		s.tcp_opts = 4 * (int)(rnd() % 11);
	if (s.ipv == 4 && rnd() % 10 == 0)
		s.ip4_opts = 4 * (int)(rnd() % 5);
	if (s.ipv == 4 && rnd() % 25 == 0)
		s.fragment = 1;
	if (s.ipv == 4 && s.proto == 17 && rnd() % 10 == 0)
		s.udp_nocsum = 1;
	if (rnd() % 20 == 0)
		s.trailer = rnd() % 8;
	pay_len = rnd() % 6 == 0 ? 100 + rnd() % 8700 : 16 + rnd() % 1400;
	po = frame_payload_off(&s);
	if (po + pay_len + s.trailer > MAX_FRAME)
		pay_len = MAX_FRAME - po - s.trailer;
	off = grad_len > pay_len ? (rnd() % (grad_len - pay_len)) & ~(size_t)3 : 0;
	memcpy(pay, grad + off, pay_len < grad_len ? pay_len : grad_len);
	t->len = frame_build(&s, pay, pay_len, t->f);
	t->len_field = (uint16_t)t->len;
	t->compress = rnd() % 10 < 7;
	t->k = rnd() % 4 ? 10 : (int)(rnd() % 27);
	r = rnd() % 20;
	t->mode = r < 6 ? 1 : r < 12 ? 2 : r < 19 ? 3 : (int)(rnd() % 6);
	t->roff = rnd() % 3 ? (int)(rnd() % 16) * 4 : 0;
	if ((size_t)t->roff > pay_len)
		t->roff = 0;
	t->rlen = (int)(pay_len - (size_t)t->roff);
	if (rnd() % 3 == 0)
		t->rlen = (int)((rnd() % ((unsigned int)t->rlen + 1)));
	if (rnd() % 30 == 0)
		t->rlen += 8;	/* past the payload: bad range */
	if (rnd() % 40 == 0)
		t->len_field = rnd() % 2 ? 10 : (uint16_t)(MAX_FRAME + 1);
}

static void tx_post(struct side *s, const struct txf *t)
{
	unsigned int i = s->tx_prod % RING_N;
	uint8_t *d = s->c.ram + TX_RING + i * INC_TXD_BYTES;

	memcpy(s->c.ram + TX_BUFS + (size_t)i * BUF, t->f, t->len);
	memset(d, 0, INC_TXD_BYTES);
	shimc_put64(d + INC_TXD_ADDR, TX_BUFS + (uint64_t)i * BUF);
	shimc_put16(d + INC_TXD_LEN, t->len_field);
	shimc_put16(d + INC_TXD_FLAGS, t->compress ? INC_TXD_COMPRESS : 0);
	d[INC_TXD_K] = (uint8_t)t->k;
	d[INC_TXD_MODE] = (uint8_t)t->mode;
	shimc_put16(d + INC_TXD_RANGE_OFF, (uint16_t)t->roff);
	shimc_put16(d + INC_TXD_RANGE_LEN, (uint16_t)t->rlen);
	s->tx_prod++;
}

/* Wait until CONS of the queue at base reaches want, collecting the link. */
static void wait_cons(struct side *s, uint32_t base, uint16_t want)
{
	double t0 = now();

	for (;;) {
		link_poll(s);
		if ((uint16_t)shimc_read(&s->c, base + INC_Q_CONS) == want)
			break;
		if (now() - t0 > 120)
			die("%s: queue 0x%x: CONS never reached %u (see %s)", s->label,
			    base, want, s->log);
		usleep(200);
	}
}

static void tx_phase(struct side *s, unsigned int nframes, uint64_t seed)
{
	static struct txf t;
	unsigned int i, batch;

	rng = seed;
	for (i = 0; i < nframes; i += batch) {
		unsigned int j;

		batch = nframes - i < 64 ? nframes - i : 64;
		for (j = 0; j < batch; j++) {
			make_frame(&t);
			tx_post(s, &t);
		}
		shimc_write(&s->c, INC_TXQ + INC_Q_PROD, s->tx_prod);
		wait_cons(s, INC_TXQ, s->tx_prod);
		for (j = 0; j < batch; j++) {
			unsigned int k = (uint16_t)(s->tx_prod - batch + j) % RING_N;

			rec_put(&s->r, "txstat", i + j,
				s->c.ram + TX_RING + k * INC_TXD_BYTES + INC_TXD_STATUS, 4);
		}
	}
	/* the last frames: wait until the link is quiet */
	{
		double t0 = now();
		unsigned int last = s->link_frames;

		while (now() - t0 < 0.5) {
			link_poll(s);
			if (s->link_frames != last) {
				last = s->link_frames;
				t0 = now();
			}
			usleep(2000);
		}
	}
}

static void rx_post(struct side *s, uint16_t buf_len)
{
	unsigned int i = s->rx_prod % RING_N;
	uint8_t *d = s->c.ram + RX_RING + i * INC_RXD_BYTES;

	shimc_put64(d, RX_BUFS + (uint64_t)i * BUF);
	shimc_put16(d + 8, buf_len);
	shimc_put16(d + 10, 0);
	shimc_put32(d + 12, 0);
	s->rx_prod++;
}

static void rx_reap(struct side *s)
{
	while (s->rx_clean != s->rx_prod) {
		unsigned int i = s->rx_clean % RING_N;
		uint8_t *d = s->c.ram + RX_RING + i * INC_RXD_BYTES;
		uint32_t st = shimc_get32(d + 12);
		uint8_t meta[8];

		if (!(st & INC_DESC_DONE))
			break;
		memcpy(meta, d + 8, 8);
		rec_put(&s->r, "rxdesc", s->rx_clean, meta, 8);
		rec_put(&s->r, "rxdata", s->rx_clean, s->c.ram + RX_BUFS + (size_t)i * BUF,
			shimc_get16(d + 10));
		s->rx_clean++;
	}
}

static uint64_t rx_accounted(struct side *s)
{
	return nic_counter(s, INC_ST_RX_DELIVERED) + nic_counter(s, INC_ST_RX_DROP_MALFORMED) +
	       nic_counter(s, INC_ST_RX_DROP_NO_BUFFER) + nic_counter(s, INC_ST_RX_DROP_MAC);
}

/* Feed f to the NIC from the link and wait until it is delivered or
 * dropped (one at a time: the RTL's queue never overflows). */
static void rx_one(struct side *s, const uint8_t *f, size_t len, uint64_t *fed)
{
	double t0 = now();

	link_send(s, f, len);
	++*fed;
	while (rx_accounted(s) < *fed) {
		if (now() - t0 > 60)
			die("%s: an RX frame was neither delivered nor dropped (see %s)",
			    s->label, s->log);
		usleep(100);
	}
	rx_reap(s);
}

static void rx_phase(struct side *s, const struct rec *tx, uint64_t seed)
{
	uint64_t fed = rx_accounted(s);
	size_t off = 0;
	unsigned int n = 0;

	rng = seed ^ 0x5eed;
	while (off < tx->n) {
		uint32_t len;
		const uint8_t *p = tx->p + off;

		memcpy(&len, p + 12, 4);
		if (!memcmp(p, "link", 4)) {
			uint8_t g[MAX_FRAME + 8];

			/* a buffer for it: mostly large, sometimes small */
			while ((uint16_t)(s->rx_prod - s->rx_clean) < 8)
				rx_post(s, rnd() % 16 ? BUF : (uint16_t)(64 + rnd() % 512));
			shimc_write(&s->c, INC_RXQ + INC_Q_PROD, s->rx_prod);
			rx_one(s, p + 16, len, &fed);
			/* a damaged copy of an encapsulated frame */
			if (len > 60 && n % 3 == 0) {
				memcpy(g, p + 16, len);
				g[14 + rnd() % (len - 14)] ^= (uint8_t)(1u << (rnd() % 8));
				rx_one(s, g, len, &fed);
				rx_one(s, g, 14 + rnd() % (len - 14), &fed);
			}
			n++;
		}
		off += 16 + len;
	}
}

static void lb_phase(struct side *s, uint64_t seed)
{
	static struct txf t;
	uint64_t fed = rx_accounted(s);
	unsigned int i;

	shimc_write(&s->c, INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN | INC_CTRL_LOOPBACK);
	rng = seed ^ 0x100b;
	for (i = 0; i < 40; i++) {
		make_frame(&t);
		while ((uint16_t)(s->rx_prod - s->rx_clean) < 4)
			rx_post(s, BUF);
		shimc_write(&s->c, INC_RXQ + INC_Q_PROD, s->rx_prod);
		tx_post(s, &t);
		shimc_write(&s->c, INC_TXQ + INC_Q_PROD, s->tx_prod);
		wait_cons(s, INC_TXQ, s->tx_prod);
		if (t.len_field == t.len) {
			double t0 = now();

			fed++;
			while (rx_accounted(s) < fed) {
				if (now() - t0 > 60)
					die("%s: a looped-back frame was lost", s->label);
				usleep(100);
			}
		}
		rx_reap(s);
	}
	shimc_write(&s->c, INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
}

static void run_side(struct side *s, unsigned int nframes, uint64_t seed)
{
	static const uint16_t id[] = { INC_MAGIC, INC_VERSION, INC_FEATURES, INC_CONFIG };
	size_t i;
	double t0 = now();

	spawn(s);
	setup(s);
	tx_phase(s, nframes, seed);
	/* the link's frames, fed back */
	rx_phase(s, &s->lk, seed);
	lb_phase(s, seed);
	for (i = 0; i < sizeof(id) / sizeof(id[0]); i++) {
		uint32_t v = shimc_read(&s->c, id[i]);

		rec_put(&s->r, "id", id[i], &v, 4);
	}
	for (i = 0; i < INC_ST_N; i++) {
		uint64_t v = nic_counter(s, (int)i);

		rec_put(&s->r, "counter", (uint32_t)i, &v, 8);
	}
	finish(s);
	for (i = 0; i < s->lk.n;) {	/* the link's frames last */
		uint32_t len, idx;

		memcpy(&idx, s->lk.p + i + 8, 4);
		memcpy(&len, s->lk.p + i + 12, 4);
		rec_put(&s->r, "link", idx, s->lk.p + i + 16, len);
		i += 16 + len;
	}
	t_diag("%s: %u items, %u link frames, %zu bytes recorded in %.1f s",
	       s->label, s->r.items, s->link_frames, s->r.n, now() - t0);
}

/* The first item where a and b differ: its tag and index. */
static void report_diff(const struct rec *a, const struct rec *b)
{
	size_t i = 0;

	while (i < a->n && i < b->n) {
		uint32_t la, lb, idx;

		memcpy(&la, a->p + i + 12, 4);
		memcpy(&lb, b->p + i + 12, 4);
		memcpy(&idx, a->p + i + 8, 4);
		if (la != lb || memcmp(a->p + i, b->p + i, 16 + la)) {
			size_t k = 0;

			while (k < 16 + la && k < 16 + lb && a->p[i + k] == b->p[i + k])
				k++;
			t_diag("first difference: item '%.8s' %u (length %u against %u), at byte %zu of it",
			       (const char *)a->p + i, idx, la, lb, k < 16 ? 0 : k - 16);
			return;
		}
		i += 16 + la;
	}
	t_diag("one record is a prefix of the other (%zu against %zu bytes)", a->n, b->n);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "gradients", required_argument, NULL, 'g' },
		{ "frames", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "expect-differ", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 }
	};
	static struct side a, b;
	const char *gpath = "../shared/gradients/cnn-step0050.f32";
	unsigned int nframes = 600;
	uint64_t seed = 1;
	int c, expect_differ = 0, same;
	char *sa = NULL, *sb = NULL;
	FILE *f;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'a': sa = optarg; break;
		case 'b': sb = optarg; break;
		case 'g': gpath = optarg; break;
		case 'n': nframes = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'x': expect_differ = 1; break;
		default:
			fprintf(stderr, "usage: diff-models --a INCSIM[:ARG,...] --b INCSIM[:ARG,...] [--gradients FILE] [--frames N] [--seed S] [--expect-differ]\n");
			return 2;
		}
	}
	if (!sa || !sb || !seed) {
		fprintf(stderr, "diff-models: --a and --b are required (and a seed other than 0)\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	f = fopen(gpath, "rb");
	if (!f)
		die("gradients %s: %s", gpath, strerror(errno));
	grad = malloc(1 << 20);
	grad_len = fread((void *)grad, 1, 1 << 20, f);
	fclose(f);
	if (grad_len < 65536)
		die("gradients %s: too short", gpath);
	parse_side(&a, "a", sa);
	parse_side(&b, "b", sb);
	run_side(&a, nframes, seed);
	run_side(&b, nframes, seed);
	t_ok(a.link_frames > nframes / 2, "a: %u of %u frames on the link", a.link_frames, nframes);
	same = a.r.n == b.r.n && !memcmp(a.r.p, b.r.p, a.r.n);
	if (!same)
		report_diff(&a.r, &b.r);
	if (expect_differ)
		t_ok(!same, "the records differ, as they must (%s against %s)", sa, sb);
	else
		t_ok(same, "the same record byte for byte: link frames, TX statuses, delivered frames, counters (%u items, %zu bytes)",
		    a.r.items, a.r.n);
	return t_done();
}
