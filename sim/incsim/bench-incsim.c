// SPDX-License-Identifier: MIT
/*
 * bench-incsim: two incsims linked back to back, each driven through the
 * shim by this program playing QEMU and a minimal driver. NIC A sends
 * frames from its TX ring, NIC B receives them into its RX ring; every
 * frame is checked. Prints, per frame kind: frames per second through the
 * pair, simulated NIC clocks per second, and CPU; then the CPU the pair
 * uses when idle. `make bench-incsim`; figures in docs/sim.md.
 *
 * usage: bench-incsim [--seconds S] [--incsim PATH] [--gradients FILE] [--gbps G]
 *                     [--model rtl|behavioral]
 *   (--gbps: both incsims' wire rate; default incsim's own; --model: both
 *   incsims' model, docs/sim.md "Two models"; default rtl)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nic_env.h"	/* register offsets and descriptor bits */
#include "shimc.h"

#define RING_LOG2	8
#define RING_N		(1u << RING_LOG2)
#define BUF		16384u
#define TX_RING		0x100000u
#define RX_RING		0x110000u
#define TX_BUFS		0x200000u
#define RX_BUFS		0x800000u
#define RAM_SIZE	"64M"
#define MAX_FRAME	9018u

struct side {
	const char *name;
	struct shimc c;
	pid_t pid;
	char ivs[256], ram[256], log[256];
	uint16_t tx_prod, tx_clean, rx_prod, rx_clean;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* a 64-bit counter: the low word, then the high word it latched */
static uint64_t counter64(struct shimc *c, unsigned int i)
{
	uint32_t lo = shimc_read(c, INC_STATS + 8 * i);

	return (uint64_t)shimc_read(c, INC_STATS + 8 * i + 4) << 32 | lo;
}

static double cpu_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return NAN;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			 &ut, &st) != 2)
		return NAN;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "bench-incsim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static const char *gbps = "";	/* --gbps: both incsims' wire rate */
static const char *model = "rtl";	/* --model */

static void spawn(struct side *s, const char *incsim, const char *dir,
		  const char *link_opt, const char *link)
{
	struct stat st;
	double t0;
	int fd;

	snprintf(s->ivs, sizeof(s->ivs), "%s/%s.sock", dir, s->name);
	snprintf(s->ram, sizeof(s->ram), "/dev/shm/bench-incsim-%d-%s",
		 (int)getpid(), s->name);
	snprintf(s->log, sizeof(s->log), "%s/%s.log", dir, s->name);
	s->pid = fork();
	if (s->pid < 0)
		die("fork: %s", strerror(errno));
	if (s->pid == 0) {
		fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execl(incsim, incsim, "--ivshmem", s->ivs, "--ram", s->ram,
		      "--ram-size", RAM_SIZE, link_opt, link, "--name", s->name,
		      "--model", model, "--stats", *gbps ? "--gbps" : NULL, gbps,
		      (char *)NULL);
		_exit(127);
	}
	for (t0 = now(); stat(s->ivs, &st) < 0; usleep(2000))
		if (now() - t0 > 10)
			die("incsim did not start (see %s)", s->log);
}

static void nic_setup(struct side *s)
{
	struct shimc *c = &s->c;
	int q;

	for (q = 0; q < 2; q++) {
		uint32_t base = q ? INC_RXQ : INC_TXQ;
		uint32_t cons = shimc_read(c, base + INC_Q_CONS);

		shimc_write(c, base + INC_Q_BASE_LO, q ? RX_RING : TX_RING);
		shimc_write(c, base + INC_Q_BASE_HI, 0);
		shimc_write(c, base + INC_Q_SIZE, RING_LOG2);
		shimc_write(c, base + INC_Q_PROD, cons);
		if (q)
			s->rx_prod = s->rx_clean = (uint16_t)cons;
		else
			s->tx_prod = s->tx_clean = (uint16_t)cons;
	}
	memset(c->ram + TX_RING, 0, RING_N * INC_TXD_BYTES);
	memset(c->ram + RX_RING, 0, RING_N * INC_RXD_BYTES);
	shimc_write(c, INC_MAX_FRAME, MAX_FRAME);
	shimc_write(c, INC_IRQ_ENABLE, 3);
	shimc_write(c, INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
}


static void rx_fill(struct side *s)
{
	uint8_t *d;

	while ((uint16_t)(s->rx_prod - s->rx_clean) < RING_N) {
		unsigned int i = s->rx_prod % RING_N;

		d = s->c.ram + RX_RING + i * INC_RXD_BYTES;
		shimc_put64(d, RX_BUFS + (uint64_t)i * BUF);
		shimc_put16(d + 8, BUF);
		shimc_put16(d + 10, 0);
		shimc_put32(d + 12, 0);
		s->rx_prod++;
	}
	shimc_write(&s->c, INC_RXQ + INC_Q_PROD, s->rx_prod);
}

/* ---- frames ---- */

static uint16_t csum(const uint8_t *p, size_t n, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* An IPv4/UDP frame of len bytes, its payload from data. */
static size_t udp_frame(uint8_t *f, size_t len, const uint8_t *data)
{
	static const uint8_t eth[14] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1,
					 8, 0 };
	size_t ulen = len - 34;
	uint8_t *ip = f + 14, *u = f + 34;
	uint32_t ps;
	uint16_t c;

	memcpy(f, eth, 14);
	memset(ip, 0, 20);
	ip[0] = 0x45;
	ip[2] = (uint8_t)((20 + ulen) >> 8);
	ip[3] = (uint8_t)(20 + ulen);
	ip[6] = 0x40;
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, (uint8_t[]){ 10, 0, 0, 1, 10, 0, 0, 2 }, 8);
	c = csum(ip, 20, 0);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	u[0] = 0x13; u[1] = 0x88; u[2] = 0x17; u[3] = 0x70;
	u[4] = (uint8_t)(ulen >> 8);
	u[5] = (uint8_t)ulen;
	u[6] = u[7] = 0;
	memcpy(u + 8, data, ulen - 8);
	ps = (uint32_t)(10 << 8) + 1 + (10 << 8) + 2 + 17 + (uint32_t)ulen;
	c = csum(u, ulen, ps);
	u[6] = (uint8_t)((c ? c : 0xffff) >> 8);
	u[7] = (uint8_t)(c ? c : 0xffff);
	return len;
}

struct kind {
	const char *name;
	size_t len;
	int compress;
};

struct result {
	uint64_t frames, bad, lost, dropped;
	double wall, clk_a, clk_b, cpu_a, cpu_b, wire_bytes;
};

/* Send frames A -> B for `seconds`; every frame must arrive or be counted
 * by B as dropped for want of an RX buffer (its RX path overrun). */
static void run(struct side *a, struct side *b, const struct kind *k,
		const uint8_t *frame, double seconds, struct result *r)
{
	uint64_t sent = 0, got = 0, bytes0 = 0, drop0, dropped = 0;
	uint64_t ca0 = shimc_clocks(&a->c), cb0 = shimc_clocks(&b->c);
	double pa0 = cpu_of(a->pid), pb0 = cpu_of(b->pid);
	double t0 = now(), t, stop = t0 + seconds, give_up = stop + 20;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	bytes0 = counter64(&b->c, INC_ST_RX_BYTES);
	drop0 = counter64(&b->c, INC_ST_RX_DROP_NO_BUFFER);
	/* the frame sits in every TX buffer once: descriptors point at it */
	for (i = 0; i < RING_N; i++)
		memcpy(a->c.ram + TX_BUFS + i * BUF, frame, k->len);
	while ((t = now()) < give_up) {
		struct pollfd p[2] = {
			{ .fd = a->c.vec[INC_IRQ_TX], .events = POLLIN },
			{ .fd = b->c.vec[INC_IRQ_RX], .events = POLLIN },
		};
		uint64_t v;
		int kick = 0;

		if (t < stop) {
			/* no more frames in flight than B has RX buffers: B's
			 * ring never runs dry because this client refills it
			 * late (a NIC drops those frames, rx_drop_no_buffer) */
			while ((uint16_t)(a->tx_prod - a->tx_clean) < RING_N &&
			       sent - got < RING_N) {
				unsigned int s = a->tx_prod % RING_N;
				uint8_t *d = a->c.ram + TX_RING + s * INC_TXD_BYTES;

				memset(d, 0, INC_TXD_BYTES);
				shimc_put64(d, TX_BUFS + (uint64_t)s * BUF);
				shimc_put16(d + 8, (uint16_t)k->len);
				if (k->compress) {
					shimc_put16(d + 10, INC_TXD_COMPRESS);
					d[12] = 10;	/* k */
					d[13] = 2;	/* sparse */
					shimc_put16(d + 14, 0);
					shimc_put16(d + 16, (uint16_t)(k->len - 42));
				}
				a->tx_prod++;
				sent++;
				kick = 1;
			}
			if (kick)
				shimc_write(&a->c, INC_TXQ + INC_Q_PROD, a->tx_prod);
		} else {
			/* every frame arrived or was dropped where B's NIC
			 * counts it: done (others: wait until give_up) */
			dropped = counter64(&b->c, INC_ST_RX_DROP_NO_BUFFER) - drop0;
			if (got + dropped >= sent)
				break;
		}
		if (poll(p, 2, 200) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (p[0].revents && read(p[0].fd, &v, sizeof(v)) > 0) {
			for (;;) {
				uint8_t *d = a->c.ram + TX_RING +
					     (a->tx_clean % RING_N) * INC_TXD_BYTES;

				if (a->tx_clean == a->tx_prod ||
				    !(shimc_get32(d + 24) & INC_DESC_DONE))
					break;
				if (shimc_get32(d + 24) & INC_TXS_ERROR)
					r->bad++;
				a->tx_clean++;
			}
			shimc_write(&a->c, INC_IRQ_ENABLE, 3);
		}
		if (p[1].revents && read(p[1].fd, &v, sizeof(v)) > 0) {
			for (;;) {
				unsigned int s = b->rx_clean % RING_N;
				uint8_t *d = b->c.ram + RX_RING + s * INC_RXD_BYTES;
				uint32_t st = shimc_get32(d + 12);

				if (b->rx_clean == b->rx_prod || !(st & INC_DESC_DONE))
					break;
				if (shimc_get16(d + 10) != k->len ||
				    (!k->compress && memcmp(b->c.ram + RX_BUFS +
							    (uint64_t)s * BUF,
							    frame, k->len)) ||
				    (k->compress && !(st & INC_RXS_RESTORED)))
					r->bad++;
				got++;
				b->rx_clean++;
			}
			rx_fill(b);
			shimc_write(&b->c, INC_IRQ_ENABLE, 3);
		}
	}
	r->wall = now() - t0;
	r->frames = got;
	r->dropped = dropped;
	r->lost = sent - got > dropped ? sent - got - dropped : 0;
	r->clk_a = (double)(shimc_clocks(&a->c) - ca0);
	r->clk_b = (double)(shimc_clocks(&b->c) - cb0);
	r->cpu_a = cpu_of(a->pid) - pa0;
	r->cpu_b = cpu_of(b->pid) - pb0;
	r->wire_bytes = (double)(counter64(&b->c, INC_ST_RX_BYTES) - bytes0);
}

static size_t load_gradients(const char *path, uint8_t *out, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(out, 1, len, f);
		fclose(f);
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "incsim", required_argument, NULL, 'i' },
		{ "gradients", required_argument, NULL, 'g' },
		{ "gbps", required_argument, NULL, 'w' },
		{ "model", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	struct kind kinds[] = {
		{ "60 B UDP", 60, 0 },
		{ "1514 B UDP", 1514, 0 },
		{ "9014 B UDP", 9014, 0 },
		{ "1514 B gradients, compressed k=10", 1514, 1 },
		{ "9014 B gradients, compressed k=10", 9014, 1 },
	};
	struct side a = { .name = "a" }, b = { .name = "b" };
	char dir[] = "/tmp/bench-incsim-XXXXXX", link[300], err[200];
	char self[4096], incsim[4200];
	const char *grad = "../shared/gradients/cnn-step0050.f32";
	static uint8_t plain[MAX_FRAME], payload[MAX_FRAME];
	double seconds = 3, t0, ia, ib;
	unsigned int i;
	int c, failed = 0;

	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(incsim, sizeof(incsim), "%s/incsim", dirname(self));
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's': seconds = atof(optarg); break;
		case 'i': snprintf(incsim, sizeof(incsim), "%s", optarg); break;
		case 'g': grad = optarg; break;
		case 'w': gbps = optarg; break;
		case 'm': model = optarg; break;
		default:
			fprintf(stderr, "usage: bench-incsim [--seconds S] [--incsim PATH] [--gradients FILE] [--gbps G] [--model rtl|behavioral]\n");
			return 2;
		}
	}
	if (!mkdtemp(dir))
		die("mkdtemp: %s", strerror(errno));
	snprintf(link, sizeof(link), "%s/link.sock", dir);
	spawn(&a, incsim, dir, "--link-listen", link);
	spawn(&b, incsim, dir, "--link-connect", link);
	if (shimc_open(&a.c, a.ivs, a.ram, err, sizeof(err)) < 0 ||
	    shimc_open(&b.c, b.ivs, b.ram, err, sizeof(err)) < 0)
		die("%s", err);
	nic_setup(&a);
	nic_setup(&b);
	rx_fill(&b);
	for (t0 = now(); !(shimc_read(&a.c, INC_STATUS) & INC_STATUS_LINK) ||
			 !(shimc_read(&b.c, INC_STATUS) & INC_STATUS_LINK); usleep(10000))
		if (now() - t0 > 10)
			die("%s", "the link did not come up");

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 3);
	if (load_gradients(grad, payload + 8, sizeof(payload) - 8) < sizeof(payload) - 8) {
		fprintf(stderr, "bench-incsim: %s unreadable: synthetic gradients\n", grad);
		for (i = 8; i + 4 <= sizeof(payload); i += 4) {
			float g = (float)(sin(i * 0.37) * 0.01);

			memcpy(payload + i, &g, 4);
		}
	}
	printf("two incsims (--model %s) linked back to back; A's TX ring -> link -> B's RX ring, %.0f s per row, wire %s Gbit/s\n\n",
	       model, seconds, *gbps ? gbps : "incsim's default");
	printf("| frames | frames/s | Mbit/s of frames | wire bytes/frame | sim clk/s A | sim clk/s B | clk/frame A | CPU A | CPU B | dropped | bad/lost |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct result r;

		udp_frame(plain, kinds[i].len, payload);
		run(&a, &b, &kinds[i], plain, seconds, &r);
		printf("| %s | %.0f | %.1f | %.0f | %.2fM | %.2fM | %.0f | %.0f%% | %.0f%% | %" PRIu64 " | %" PRIu64 "/%" PRIu64 " |\n",
		       kinds[i].name, r.frames / r.wall,
		       r.frames * kinds[i].len * 8 / r.wall / 1e6,
		       r.frames + r.dropped ? r.wire_bytes / (double)(r.frames + r.dropped) : 0.0,
		       r.clk_a / r.wall / 1e6, r.clk_b / r.wall / 1e6,
		       r.frames ? r.clk_a / (double)r.frames : 0.0,
		       100 * r.cpu_a / r.wall, 100 * r.cpu_b / r.wall,
		       r.dropped, r.bad, r.lost);
		fflush(stdout);
		failed |= r.bad || r.lost || !r.frames;
	}
	usleep(300000);
	ia = cpu_of(a.pid);
	ib = cpu_of(b.pid);
	t0 = now();
	sleep(3);
	printf("\nidle, %.1f s: CPU A %.2f%%, CPU B %.2f%%\n", now() - t0,
	       100 * (cpu_of(a.pid) - ia) / (now() - t0),
	       100 * (cpu_of(b.pid) - ib) / (now() - t0));

	shimc_close(&a.c);	/* QEMU "goes away": both incsims exit */
	shimc_close(&b.c);
	for (i = 0; i < 2; i++) {
		struct side *s = i ? &b : &a;
		int st;

		if (waitpid(s->pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "bench-incsim: incsim %s did not exit cleanly (see %s)\n",
				s->name, s->log);
			failed = 1;
		}
		unlink(s->ram);
	}
	if (failed)
		fprintf(stderr, "bench-incsim: frames were lost or damaged; logs in %s\n", dir);
	return failed;
}
