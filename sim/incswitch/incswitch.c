// SPDX-License-Identifier: MIT
/*
 * incswitch: a learning Ethernet switch for simulated links. It listens on
 * one UNIX stream socket; every connection is a port carrying frames as
 * QEMU's -netdev stream and incsim's link do (a 4-byte big-endian length,
 * then the frame), so incsim NICs and QEMU virtio-net NICs can all be
 * plugged in. Frames go to the port their destination MAC was last seen on,
 * else (broadcast, multicast, unknown) to every other port. A port whose
 * peer does not keep up has its frames dropped beyond --queue bytes, as a
 * switch with finite buffers does, and counted. A malformed length closes
 * that port only. SIGINT/SIGTERM: print the counters and exit 0.
 * --loss N drops every Nth unicast frame it forwards (deterministic), as a
 * lossy network would: tests use it to make TCP retransmit.
 *
 * usage: incswitch --listen PATH [--ports N] [--queue BYTES] [--loss N]
 *                  [--name NAME]
 * exit status: 0 stopped by a signal, 1 fatal error, 2 bad options.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SW_MAX_PORTS	32
#define SW_MAX_FRAME	65535
#define SW_MIN_FRAME	14		/* an Ethernet header */
#define SW_FDB_SIZE	256
#define SW_RX_CHUNK	65536

struct sw_port {
	int fd;				/* -1: free */
	unsigned int id;		/* 1, 2, ... in order of connection */
	uint8_t *in;			/* bytes of a frame not yet complete */
	size_t in_len;
	uint8_t *out;			/* framed bytes waiting to go out */
	size_t out_head, out_len;
	uint64_t rx_frames, tx_frames, drops_full;
};

struct sw_fdb {
	uint8_t mac[6];
	int port;			/* index in ports[], -1: free */
};

static struct {
	const char *name;
	size_t queue;
	unsigned int max_ports;
	struct sw_port port[SW_MAX_PORTS];
	struct sw_fdb fdb[SW_FDB_SIZE];
	unsigned int next_id;
	unsigned long loss;		/* drop every loss-th unicast frame; 0 never */
	uint64_t unicast, flooded, malformed, lost;
} sw;

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", sw.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: incswitch --listen PATH [--ports N] [--queue BYTES] [--loss N]\n"
		"                 [--name NAME]\n"
		"  --listen PATH   UNIX socket the links connect to (created; must not exist)\n"
		"  --ports N       most ports at a time (default 16, at most %d)\n"
		"  --queue BYTES   per-port output buffer before frames are dropped\n"
		"                  (default 4194304)\n"
		"  --loss N        drop every Nth unicast frame forwarded (default 0: none)\n",
		SW_MAX_PORTS);
}

static void fdb_forget(int port)
{
	for (int i = 0; i < SW_FDB_SIZE; i++)
		if (sw.fdb[i].port == port)
			sw.fdb[i].port = -1;
}

static unsigned int fdb_hash(const uint8_t *mac)
{
	unsigned int h = 0;

	for (int i = 0; i < 6; i++)
		h = h * 31 + mac[i];
	return h % SW_FDB_SIZE;
}

/* The port a unicast MAC was last seen on, or -1. */
static int fdb_lookup(const uint8_t *mac)
{
	const struct sw_fdb *e = &sw.fdb[fdb_hash(mac)];

	return e->port >= 0 && !memcmp(e->mac, mac, 6) ? e->port : -1;
}

static void fdb_learn(const uint8_t *mac, int port)
{
	struct sw_fdb *e = &sw.fdb[fdb_hash(mac)];

	if (mac[0] & 1)
		return;		/* a group address is never a source */
	memcpy(e->mac, mac, 6);	/* a collision replaces: it floods then */
	e->port = port;
}

static void port_close(int i, const char *why)
{
	struct sw_port *p = &sw.port[i];

	msg("port %u: %s (rx %llu, tx %llu, dropped %llu frames)", p->id, why,
	    (unsigned long long)p->rx_frames, (unsigned long long)p->tx_frames,
	    (unsigned long long)p->drops_full);
	close(p->fd);
	free(p->in);
	free(p->out);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	fdb_forget(i);
}

/* Queue one frame on port i, framed; drop it when the queue is full. */
static void port_send(int i, const uint8_t *f, size_t len)
{
	struct sw_port *p = &sw.port[i];
	uint8_t *o;

	if (p->out_len + 4 + len > sw.queue) {
		p->drops_full++;
		return;
	}
	if (p->out_head) {	/* keep the queue at the start of the buffer */
		memmove(p->out, p->out + p->out_head, p->out_len);
		p->out_head = 0;
	}
	o = p->out + p->out_len;
	o[0] = 0;
	o[1] = (uint8_t)(len >> 16);
	o[2] = (uint8_t)(len >> 8);
	o[3] = (uint8_t)len;
	memcpy(o + 4, f, len);
	p->out_len += 4 + len;
	p->tx_frames++;
}

static void forward(int from, const uint8_t *f, size_t len)
{
	int to = (f[0] & 1) ? -1 : fdb_lookup(f);

	sw.port[from].rx_frames++;
	fdb_learn(f + 6, from);
	if (to == from)
		return;		/* its destination is behind the port it came in */
	if (to >= 0) {
		if (sw.loss && ++sw.unicast % sw.loss == 0) {
			sw.lost++;
			return;
		}
		port_send(to, f, len);
		return;
	}
	sw.flooded++;
	for (unsigned int i = 0; i < sw.max_ports; i++)
		if (i != (unsigned int)from && sw.port[i].fd >= 0)
			port_send((int)i, f, len);
}

/* Read what port i has; 0, or -1 when it must be closed (why set). */
static int port_read(int i, const char **why)
{
	struct sw_port *p = &sw.port[i];
	size_t off = 0;
	ssize_t n;

	n = read(p->fd, p->in + p->in_len, 4 + SW_MAX_FRAME + SW_RX_CHUNK - p->in_len);
	if (n == 0) {
		*why = "peer gone";
		return -1;
	}
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		*why = strerror(errno);
		return -1;
	}
	p->in_len += (size_t)n;
	while (p->in_len - off >= 4) {
		const uint8_t *h = p->in + off;
		uint32_t len = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
			       (uint32_t)h[2] << 8 | h[3];

		if (len < SW_MIN_FRAME || len > SW_MAX_FRAME) {
			sw.malformed++;
			*why = "malformed frame length: port closed";
			return -1;
		}
		if (p->in_len - off < 4 + len)
			break;
		forward(i, h + 4, len);
		off += 4 + len;
	}
	memmove(p->in, p->in + off, p->in_len - off);
	p->in_len -= off;
	return 0;
}

static int port_write(int i, const char **why)
{
	struct sw_port *p = &sw.port[i];
	ssize_t n = send(p->fd, p->out + p->out_head, p->out_len, MSG_NOSIGNAL);

	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		*why = strerror(errno);
		return -1;
	}
	p->out_head += (size_t)n;
	p->out_len -= (size_t)n;
	if (!p->out_len)
		p->out_head = 0;
	return 0;
}

static void port_accept(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	struct sw_port *p = NULL;
	unsigned int i;

	if (fd < 0)
		return;
	for (i = 0; i < sw.max_ports; i++)
		if (sw.port[i].fd < 0) {
			p = &sw.port[i];
			break;
		}
	if (!p) {
		msg("connection refused: all %u ports in use", sw.max_ports);
		close(fd);
		return;
	}
	p->in = malloc(4 + SW_MAX_FRAME + SW_RX_CHUNK);
	p->out = malloc(sw.queue);
	if (!p->in || !p->out) {
		msg("out of memory: connection refused");
		free(p->in);
		free(p->out);
		p->in = p->out = NULL;
		close(fd);
		return;
	}
	p->fd = fd;
	p->id = ++sw.next_id;
	msg("port %u: connected", p->id);
}

static int parse_u(const char *s, unsigned long min, unsigned long max,
		   unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || end == s || *end || *v < min || *v > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, 0, 'l' },
		{ "ports", required_argument, 0, 'p' },
		{ "queue", required_argument, 0, 'q' },
		{ "name", required_argument, 0, 'n' },
		{ "loss", required_argument, 0, 'L' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct pollfd pfd[SW_MAX_PORTS + 1];
	const char *path = NULL;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct sigaction act = { .sa_handler = on_signal };
	unsigned long v;
	int c, lfd;

	sw.name = "incswitch";
	sw.queue = 4u << 20;
	sw.max_ports = 16;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			path = optarg;
			break;
		case 'p':
			if (parse_u(optarg, 2, SW_MAX_PORTS, &v)) {
				fprintf(stderr, "incswitch: --ports: 2 to %d\n", SW_MAX_PORTS);
				return 2;
			}
			sw.max_ports = (unsigned int)v;
			break;
		case 'q':
			if (parse_u(optarg, 4 + SW_MAX_FRAME, 1ul << 30, &v)) {
				fprintf(stderr, "incswitch: --queue: %d to %lu bytes\n",
					4 + SW_MAX_FRAME, 1ul << 30);
				return 2;
			}
			sw.queue = v;
			break;
		case 'n':
			sw.name = optarg;
			break;
		case 'L':
			if (parse_u(optarg, 0, 1000000, &v)) {
				fprintf(stderr, "incswitch: --loss: 0 (none) or 2 to 1000000\n");
				return 2;
			}
			if (v == 1) {
				fprintf(stderr, "incswitch: --loss 1 would drop every frame\n");
				return 2;
			}
			sw.loss = v;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (!path || optind != argc) {
		usage();
		return 2;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "incswitch: %s: path too long\n", path);
		return 2;
	}
	strcpy(sa.sun_path, path);
	for (unsigned int i = 0; i < SW_MAX_PORTS; i++)
		sw.port[i].fd = -1;
	for (unsigned int i = 0; i < SW_FDB_SIZE; i++)
		sw.fdb[i].port = -1;

	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 16)) {
		fprintf(stderr, "incswitch: %s: %s\n", path, strerror(errno));
		return 1;
	}
	sigaction(SIGINT, &act, NULL);
	sigaction(SIGTERM, &act, NULL);
	signal(SIGPIPE, SIG_IGN);
	msg("listening on %s (%u ports, %zu bytes of queue each, loss 1/%lu)", path,
	    sw.max_ports, sw.queue, sw.loss);

	while (!stop) {
		int idx[SW_MAX_PORTS], n = 1;

		pfd[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (unsigned int i = 0; i < sw.max_ports; i++) {
			if (sw.port[i].fd < 0)
				continue;
			pfd[n] = (struct pollfd){ .fd = sw.port[i].fd,
				.events = POLLIN | (sw.port[i].out_len ? POLLOUT : 0) };
			idx[n - 1] = (int)i;
			n++;
		}
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "incswitch: poll: %s\n", strerror(errno));
			break;
		}
		for (int j = 1; j < n; j++) {
			int i = idx[j - 1];
			const char *why = NULL;

			if (sw.port[i].fd < 0)
				continue;
			if ((pfd[j].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    port_read(i, &why))
				port_close(i, why);
		}
		/* write every port with a queue: forwarding may have added some */
		for (unsigned int i = 0; i < sw.max_ports; i++) {
			const char *why = NULL;

			if (sw.port[i].fd >= 0 && sw.port[i].out_len &&
			    port_write((int)i, &why))
				port_close((int)i, why);
		}
		if (pfd[0].revents & POLLIN)
			port_accept(lfd);
	}
	for (unsigned int i = 0; i < sw.max_ports; i++)
		if (sw.port[i].fd >= 0)
			port_close((int)i, "stopped");
	msg("stopped: %llu frames flooded, %llu malformed, %llu dropped by --loss",
	    (unsigned long long)sw.flooded, (unsigned long long)sw.malformed,
	    (unsigned long long)sw.lost);
	close(lfd);
	unlink(path);
	return 0;
}
