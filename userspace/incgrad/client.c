// SPDX-License-Identifier: MIT
/*
 * incgrad client: handshake, then per message an exact header (mark off)
 * and the payload (mark on): over TCP both on the connection, over UDP an
 * unmarked header datagram then a marked payload datagram; then the end
 * record, and the server's verdict comes back on the TCP connection
 * (PROTOCOL.md).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "drops.h"
#include "inc_mark_socket.h"
#include "inccodec.h"
#include "incgrad.h"
#include "net.h"
#include "proto.h"
#include "report.h"
#include "util.h"
#include "verify.h"

/* the hello's mode byte is the socket option's mode */
_Static_assert(IG_MODE_PAPER == INC_GRAD_MODE_PAPER, "paper mode");
_Static_assert(IG_MODE_SPARSE == INC_GRAD_MODE_SPARSE, "sparse mode");
_Static_assert(IG_MODE_WIDTH == INC_GRAD_MODE_WIDTH, "width mode");

struct client {
	const struct ig_client_opts *o;
	uint8_t *file;		/* the original */
	uint8_t *payload;	/* what is written: file, or emulated codec */
	size_t len;
	uint32_t crc;
	uint32_t *msg_crc;	/* per message of a round, of the original */
	uint32_t msg;
	uint64_t per_round, total;
	int cfd, dfd;		/* control (TCP) and data (same, or UDP) */
	int marked;		/* setsockopt toggles per message */
	const char *mark_state;
	uint32_t session;
	char peer[96];
	const char *family;
	uint64_t bytes_written, payload_written, dropped, dgrams;
	uint64_t dgram_bytes;	/* UDP: what pacing counts */
	double t0, t1;
	int drops_ok;		/* UDP: host_drops counted from drops0 */
	uint64_t drops0, drops;
	int neigh_ok;		/* UDP: failed resolutions from neigh0 */
	uint64_t neigh0, neigh;
	struct ig_result res;
	int have_res;
	char err[256];
};

static void fail(struct client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct client *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	fprintf(stderr, "incgrad: client: %s\n", c->err);
}

static int send_all(struct client *c, int fd, const void *b, size_t n,
		    const char *what)
{
	if (ig_write_full(fd, b, n)) {
		fail(c, "sending %s: %s", what, strerror(errno));
		return -1;
	}
	c->bytes_written += n;
	return 0;
}

/* Message bytes per datagram for an MTU: less IP, UDP and the tag. */
static uint32_t udp_msg_for_mtu(int mtu, int v6)
{
	int room = mtu - (v6 ? 40 : 20) - 8 - IG_UDP_TAG_LEN;

	return room >= 4 ? (uint32_t)room & ~3u : 4;
}

static int pick_msg(struct client *c)
{
	const struct ig_client_opts *o = c->o;
	uint32_t max = o->udp ? IG_UDP_MAX_MSG : IG_TCP_MAX_MSG;

	if (o->msg) {
		if (o->msg % 4 || o->msg > max) {
			fail(c, "--msg %u: must be a multiple of 4, at most %u "
			     "for %s", o->msg, max, o->udp ? "UDP" : "TCP");
			return -1;
		}
		c->msg = o->msg;
	} else if (!o->udp) {
		c->msg = 128 * 1024;
	} else {
		int mtu = o->mtu ? o->mtu : 1500, v6 = !strcmp(c->family, "ipv6");

		if (o->mtu < 0) {
			socklen_t sl = sizeof(mtu);
			struct sockaddr_storage ss;
			socklen_t al = sizeof(ss);
			int r;

			getsockname(c->dfd, (struct sockaddr *)&ss, &al);
			if (ss.ss_family == AF_INET6)
				r = getsockopt(c->dfd, IPPROTO_IPV6, IPV6_MTU,
					       &mtu, &sl);
			else
				r = getsockopt(c->dfd, IPPROTO_IP, IP_MTU, &mtu,
					       &sl);
			if (r) {
				fail(c, "--mtu auto: %s", strerror(errno));
				return -1;
			}
		}
		c->msg = udp_msg_for_mtu(mtu, v6);
		if (c->msg > IG_UDP_MAX_MSG)
			c->msg = IG_UDP_MAX_MSG;
	}
	c->per_round = ig_msgs_per_round(c->len, c->msg);
	c->total = c->per_round * c->o->repeat;
	if (c->total > UINT32_MAX) {
		fail(c, "%llu messages: more than 2^32-1 (use a larger --msg "
		     "or fewer --repeat)", (unsigned long long)c->total);
		return -1;
	}
	return 0;
}

static int set_mark(struct client *c)
{
	const struct ig_client_opts *o = c->o;
	int r;

	switch (o->mark) {
	case IG_MARK_NEVER:
		c->mark_state = "off";
		return 0;
	case IG_MARK_EMULATE:
		c->mark_state = "emulated";
		return 0;
	default:
		break;
	}
	r = inc_mark_socket(c->dfd, 1, o->k, o->mode);
	if (r == -ENOPROTOOPT) {
		if (o->mark == IG_MARK_REQUIRE) {
			c->mark_state = "unavailable";
			fail(c, "--mark: the kernel has no gradient socket "
			     "option (setsockopt INC_SO_GRADIENT: %s); is the "
			     "inceptionn module loaded?", strerror(-r));
			return -1;
		}
		fprintf(stderr, "incgrad: client: warning: gradient marking "
			"unavailable (setsockopt INC_SO_GRADIENT: %s; is the "
			"inceptionn module loaded?): sending unmarked, the "
			"server expects bit-exact data\n", strerror(-r));
		c->mark_state = "unavailable";
		return 0;
	}
	if (r) {
		fail(c, "setsockopt INC_SO_GRADIENT (k %u, %s): %s", o->k,
		     ig_mode_str(o->mode), strerror(-r));
		return -1;
	}
	c->mark_state = "on";
	/* on only around each payload: off for headers and the handshake */
	c->marked = 1;
	r = inc_mark_socket(c->dfd, 0, o->k, o->mode);
	if (r) {
		fail(c, "setsockopt INC_SO_GRADIENT off: %s", strerror(-r));
		return -1;
	}
	return 0;
}

static int handshake(struct client *c)
{
	const struct ig_client_opts *o = c->o;
	struct ig_hello h = {
		.version = IG_VERSION,
		.file_len = c->len,
		.messages = c->total,
		.msg_bytes = c->msg,
		.repeat = o->repeat,
		.file_crc = c->crc,
		.k = (uint8_t)o->k,
		.mode = (uint8_t)o->mode,
	};
	uint8_t b[IG_HELLO_LEN], rb[IG_REPLY_LEN];
	struct ig_reply rep;
	int r;

	if (!strcmp(c->mark_state, "on") || !strcmp(c->mark_state, "emulated"))
		h.flags |= IG_F_MARKED;
	if (!strcmp(c->mark_state, "emulated"))
		h.flags |= IG_F_EMULATED;
	if (o->udp)
		h.flags |= IG_F_UDP;
	ig_hello_pack(&h, b);
	if (send_all(c, c->cfd, b, sizeof(b), "handshake"))
		return -1;
	r = ig_read_full(c->cfd, rb, sizeof(rb), o->timeout_ms);
	if (r) {
		fail(c, "waiting for the server's reply: %s", ig_io_str(r));
		return -1;
	}
	r = ig_reply_parse(rb, &rep);
	if (r) {
		fail(c, "server's reply is corrupt: %s", ig_perr(r));
		return -1;
	}
	if (rep.status != IG_ST_OK) {
		fail(c, "server refused the transfer: %s",
		     ig_status_str(rep.status));
		return -1;
	}
	if (rep.version != IG_VERSION) {
		fail(c, "server speaks protocol version %u, not %u",
		     rep.version, IG_VERSION);
		return -1;
	}
	c->session = rep.session;
	return 0;
}

static void msg_geom(const struct client *c, uint64_t seq, uint32_t *round,
		     uint64_t *index, uint64_t *off, uint32_t *len)
{
	*round = (uint32_t)(seq / c->per_round);
	*index = seq % c->per_round;
	*off = *index * c->msg;
	*len = (uint32_t)(c->len - *off < c->msg ? c->len - *off : c->msg);
}

static int mark_toggle(struct client *c, int on)
{
	int r, tries = 0;

	/* UDP: the kernel may wait for (or refuse while) a datagram is still
	 * in flight under the old setting (docs/socket-option.md): retry */
	while ((r = inc_mark_socket(c->dfd, on, c->o->k, c->o->mode)) &&
	       (r == -EINTR || r == -EAGAIN) && ++tries < 2000)
		ig_sleep_until(ig_now() + 1e-3);

	if (r)
		fail(c, "setsockopt INC_SO_GRADIENT %s: %s", on ? "on" : "off",
		     strerror(-r));
	return r;
}

/* --test-stop N: after N messages, quit as if the client died. */
static int test_stop(struct client *c, uint64_t seq)
{
	if (!c->o->test_stop || seq != c->o->test_stop - 1)
		return 0;
	fail(c, "stopped after %llu of %llu messages on purpose (--test-stop)",
	     (unsigned long long)seq, (unsigned long long)c->total);
	return -1;
}

static int send_tcp(struct client *c)
{
	uint64_t seq;

	for (seq = 0; seq < c->total; seq++) {
		struct ig_msg m;
		uint8_t hb[IG_FRAME_LEN];
		uint64_t index, off;
		uint32_t round, len;

		msg_geom(c, seq, &round, &index, &off, &len);
		m.seq = (uint32_t)seq;
		m.round = round;
		m.len = len;
		m.offset = off;
		m.data_crc = c->msg_crc[index];
		ig_msg_pack(&m, hb);
		/* the header with the mark off, the floats with it on */
		if (send_all(c, c->dfd, hb, sizeof(hb), "message header"))
			return -1;
		if (test_stop(c, seq)) {
			/* a short message: half its payload, then close */
			ig_write_full(c->dfd, c->payload + off, len / 8 * 4);
			return -1;
		}
		if (c->marked && mark_toggle(c, 1))
			return -1;
		if (send_all(c, c->dfd, c->payload + off, len, "payload"))
			return -1;
		c->payload_written += len;
		if (c->marked && mark_toggle(c, 0))
			return -1;
	}
	return 0;
}

/*
 * Send one datagram, the n bytes at b after the tag bytes t (tl of them);
 * pacing (--rate) counts every datagram byte.
 */
static int udp_send(struct client *c, const void *t, size_t tl,
		    const uint8_t *b, size_t n, int payload)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)t, .iov_len = tl },
		{ .iov_base = (void *)b, .iov_len = n },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };

	c->dgrams++;
	if (c->o->test_drop && c->dgrams % c->o->test_drop == 0) {
		c->dropped++;	/* test aid: "lost" on purpose */
		return 0;
	}
	for (;;) {
		ssize_t r = sendmsg(c->dfd, &mh, 0);

		if (r == (ssize_t)(tl + n))
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == ENOBUFS || errno == EAGAIN)) {
			ig_sleep_until(ig_now() + 50e-6);
			continue;
		}
		if (r < 0 && errno == ECONNREFUSED)
			fail(c, "sending datagram: %s (the server's UDP port is "
			     "closed)", strerror(errno));
		else
			fail(c, "sending datagram: %s",
			     r < 0 ? strerror(errno) : "short send");
		return -1;
	}
	c->bytes_written += tl + n;
	c->dgram_bytes += tl + n;
	if (payload)
		c->payload_written += n;
	if (c->o->rate) {
		double due = c->t0 + (double)c->dgram_bytes * 8 /
				     (double)c->o->rate;

		if (due - ig_now() > 200e-6)
			ig_sleep_until(due);
	}
	return 0;
}

/*
 * One message: the header datagram unmarked, the payload datagram (the tag,
 * then the bytes) marked. --test-mispair N: of every Nth message, the
 * payload datagram and the next message's header are withheld, so that a
 * payload follows a header that is not its own.
 */
static int udp_msg(struct client *c, uint64_t seq)
{
	struct ig_udp_hdr h;
	uint8_t hb[IG_UDP_HDR_LEN], tag[IG_UDP_TAG_LEN];
	uint64_t index, off;
	uint32_t round, len;
	uint32_t mis = c->o->test_mispair;

	msg_geom(c, seq, &round, &index, &off, &len);
	h.session = c->session;
	h.seq = (uint32_t)seq;
	h.round = round;
	h.index = (uint32_t)index;
	h.len = len;
	h.data_crc = c->msg_crc[index];
	ig_udp_hdr_pack(&h, hb);
	if (mis && seq && (seq - 1) % mis == 0)
		c->dropped++;	/* the header after a withheld payload */
	else if (udp_send(c, NULL, 0, hb, sizeof(hb), 0))
		return -1;
	ig_udp_tag_pack(seq, tag);
	if (mis && seq % mis == 0) {
		c->dropped++;
		return 0;
	}
	if (c->marked && mark_toggle(c, 1))
		return -1;
	if (udp_send(c, tag, sizeof(tag), c->payload + off, len, 1))
		return -1;
	if (c->marked && mark_toggle(c, 0))
		return -1;
	return 0;
}

static int send_udp(struct client *c)
{
	uint64_t i;

	/* --test-late: the last message is sent by finish(), after the end */
	for (i = 0; i < c->total - !!c->o->test_late_ms; i++) {
		uint64_t seq = i;

		/* --test-swap: messages 1 0 3 2 ... (each still header first) */
		if (c->o->test_swap && (i ^ 1) < c->total)
			seq = i ^ 1;
		if (test_stop(c, i) || udp_msg(c, seq))
			return -1;
	}
	return 0;
}

static int finish(struct client *c)
{
	struct ig_end e = {
		.messages = (uint32_t)c->total,
		.rounds = c->o->repeat,
		.payload_bytes = (uint64_t)c->len * c->o->repeat,
	};
	uint8_t b[IG_FRAME_LEN], rb[IG_RESULT_LEN];
	int r;

	ig_end_pack(&e, b);
	if (ig_write_full(c->cfd, b, sizeof(b))) {
		fail(c, "sending end record: %s", strerror(errno));
		return -1;
	}
	c->bytes_written += sizeof(b);
	if (c->o->test_late_ms && c->total) {
		struct pollfd p = { .fd = c->cfd, .events = POLLIN };

		ig_sleep_until(ig_now() + c->o->test_late_ms / 1000.0);
		/* not after the result: the server has given up and gone */
		if (poll(&p, 1, 0) == 0 && udp_msg(c, c->total - 1))
			return -1;
	}
	r = ig_read_full(c->cfd, rb, sizeof(rb), c->o->timeout_ms);
	if (r) {
		fail(c, "waiting for the server's result: %s", ig_io_str(r));
		return -1;
	}
	r = ig_result_parse(rb, &c->res);
	if (r) {
		fail(c, "server's result is corrupt: %s", ig_perr(r));
		return -1;
	}
	c->have_res = 1;
	return 0;
}

static const char *verdict_str(unsigned int v)
{
	return v == IG_PASS ? "pass" : v == IG_FAIL ? "fail" : "error";
}

static void report(const struct client *c, const char *result)
{
	const struct ig_client_opts *o = c->o;
	double secs = c->t1 > c->t0 ? c->t1 - c->t0 : 0;
	const struct ig_result *r = &c->res;
	double rx_s = (double)r->rx_nsec * 1e-9;

	if (o->json) {
		struct ig_json j;

		ig_json_begin(&j);
		ig_json_str(&j, "role", "client");
		ig_json_str(&j, "result", result);
		ig_json_str(&j, "reason", c->err[0] ? c->err :
			    c->have_res && r->reason ?
			    ig_reason_str(r->reason) : NULL);
		ig_json_str(&j, "server", c->peer[0] ? c->peer : o->host);
		ig_json_u64(&j, "port", o->port);
		ig_json_str(&j, "proto", o->udp ? "udp" : "tcp");
		ig_json_str(&j, "family", c->family);
		ig_json_str(&j, "file", o->file);
		ig_json_u64(&j, "file_bytes", c->len);
		ig_json_hex32(&j, "file_crc", c->crc);
		ig_json_str(&j, "mark", c->mark_state);
		ig_json_bool(&j, "marked", c->mark_state &&
			     (!strcmp(c->mark_state, "on") ||
			      !strcmp(c->mark_state, "emulated")));
		ig_json_u64(&j, "k", o->k);
		ig_json_str(&j, "mode", ig_mode_str(o->mode));
		ig_json_u64(&j, "msg_bytes", c->msg);
		ig_json_u64(&j, "repeat", o->repeat);
		ig_json_u64(&j, "messages", c->total);
		ig_json_u64(&j, "datagrams", c->dgrams);
		ig_json_u64(&j, "dropped_on_purpose", c->dropped);
		if (c->drops_ok)
			ig_json_u64(&j, "host_tx_drops", c->drops);
		else
			ig_json_str(&j, "host_tx_drops", NULL);
		if (c->neigh_ok)
			ig_json_u64(&j, "host_neigh_failed", c->neigh);
		else
			ig_json_str(&j, "host_neigh_failed", NULL);
		ig_json_u64(&j, "payload_bytes", c->payload_written);
		ig_json_u64(&j, "bytes_written", c->bytes_written);
		ig_json_dbl(&j, "seconds", secs);
		ig_json_dbl(&j, "throughput_mbps", ig_mbps(c->payload_written,
							   secs));
		ig_json_str(&j, "server_result", c->have_res ?
			    verdict_str(r->verdict) : NULL);
		if (c->have_res) {
			ig_json_bool(&j, "server_verified",
				     !!(r->flags & IG_RF_VERIFIED));
			ig_json_bool(&j, "server_crc_match",
				     !!(r->flags & IG_RF_CRC_OK));
			ig_json_bool(&j, "server_within_bound",
				     r->flags & IG_RF_VERIFIED ?
				     !!(r->flags & IG_RF_WITHIN_BOUND) : -1);
			ig_json_u64(&j, "server_payload_bytes",
				    r->payload_bytes);
			ig_json_u64(&j, "server_messages", r->messages);
			ig_json_u64(&j, "server_lost", r->lost);
			if (r->flags & IG_RF_DROPS)
				ig_json_u64(&j, "server_host_drops",
					    r->host_drops);
			else
				ig_json_str(&j, "server_host_drops", NULL);
			if (r->flags & IG_RF_IP_ERRORS)
				ig_json_u64(&j, "server_ip_errors",
					    r->ip_errors);
			else
				ig_json_str(&j, "server_ip_errors", NULL);
			ig_json_u64(&j, "server_not_exact", r->not_exact);
			ig_json_dbl(&j, "server_max_abs_err", r->max_abs_err);
			ig_json_dbl(&j, "server_seconds", rx_s);
			ig_json_dbl(&j, "server_throughput_mbps",
				    ig_mbps(r->payload_bytes, rx_s));
		} else {
			static const char *const none[] = {
				"server_verified", "server_crc_match",
				"server_within_bound", "server_payload_bytes",
				"server_messages", "server_lost",
				"server_host_drops", "server_ip_errors",
				"server_not_exact", "server_max_abs_err",
				"server_seconds", "server_throughput_mbps",
			};
			size_t i;

			for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
				ig_json_str(&j, none[i], NULL);
		}
		ig_json_print(&j, stdout);
		return;
	}
	printf("incgrad client -> %s (%s, %s)\n", c->peer[0] ? c->peer :
	       o->host, o->udp ? "udp" : "tcp", c->family ? c->family : "?");
	ig_row(stdout, "result", "%s%s%s", result, c->err[0] ? ": " : "",
	       c->err);
	ig_row(stdout, "file", "%s", o->file);
	ig_row(stdout, "file bytes", "%zu (%zu floats, crc32c 0x%08x)", c->len,
	       c->len / 4, c->crc);
	if (c->mark_state && !strcmp(c->mark_state, "on"))
		ig_row(stdout, "mark", "on, k %u (bound %g), %s", o->k,
		       ldexp(1, -(int)o->k), ig_mode_str(o->mode));
	else if (c->mark_state && !strcmp(c->mark_state, "emulated"))
		ig_row(stdout, "mark", "emulated in software, k %u (bound %g), "
		       "%s", o->k, ldexp(1, -(int)o->k), ig_mode_str(o->mode));
	else
		ig_row(stdout, "mark", "%s", !c->mark_state ? "?" :
		       !strcmp(c->mark_state, "off") ? "off (--no-mark)" :
		       "unavailable in this kernel: sent unmarked");
	ig_row(stdout, "messages", "%llu of up to %u bytes, %u round%s%s",
	       (unsigned long long)c->total, c->msg, o->repeat,
	       o->repeat == 1 ? "" : "s", c->dropped ? " (some dropped on "
	       "purpose by --test-drop)" : "");
	ig_row(stdout, "bytes written", "%llu (payload %llu)",
	       (unsigned long long)c->bytes_written,
	       (unsigned long long)c->payload_written);
	ig_row(stdout, "time", "%.6f s", secs);
	ig_row(stdout, "throughput", "%.1f Mbit/s of payload",
	       ig_mbps(c->payload_written, secs));
	if (!c->have_res)
		return;
	ig_row(stdout, "server result", "%s%s%s", verdict_str(r->verdict),
	       r->reason ? ": " : "", r->reason ? ig_reason_str(r->reason) : "");
	ig_row(stdout, "server received", "%llu payload bytes in %llu "
	       "messages, %llu lost, %.6f s, %.1f Mbit/s",
	       (unsigned long long)r->payload_bytes,
	       (unsigned long long)r->messages, (unsigned long long)r->lost,
	       rx_s, ig_mbps(r->payload_bytes, rx_s));
	if (r->lost && (r->flags & IG_RF_DROPS || c->drops_ok))
		ig_row(stdout, "drops counted", "%s%llu on the server's host, "
		       "%s%llu sent here (NIC, socket, queue and neighbour "
		       "counters), %llu failed address resolutions here",
		       r->flags & IG_RF_DROPS ? "" : "? ",
		       (unsigned long long)r->host_drops,
		       c->drops_ok ? "" : "? ", (unsigned long long)c->drops,
		       (unsigned long long)c->neigh);
	if (r->flags & IG_RF_IP_ERRORS && r->ip_errors)
		ig_row(stdout, "server IP errors", "%llu packets refused by "
		       "the server's IP layer (bad or truncated headers, "
		       "wrong addresses)", (unsigned long long)r->ip_errors);
	if (r->flags & IG_RF_VERIFIED)
		ig_row(stdout, "server check", "against the original: %llu "
		       "values not bit-exact, max error %g, bound %s",
		       (unsigned long long)r->not_exact, r->max_abs_err,
		       r->flags & IG_RF_WITHIN_BOUND ? "held" : "MISSED");
	else
		ig_row(stdout, "server check", "crc32c %s, %llu messages not "
		       "bit-exact (no original at the server)",
		       r->flags & IG_RF_CRC_OK ? "equal" : "differs",
		       (unsigned long long)r->not_exact);
}

int ig_client(const struct ig_client_opts *o)
{
	struct client c = { .o = o, .cfd = -1, .dfd = -1 };
	struct sockaddr_storage peer;
	socklen_t pl = sizeof(peer);
	uint64_t i;
	int rc = IG_EXIT_ERROR;

	if (ig_load_floats("client", o->file, &c.file, &c.len))
		return IG_EXIT_ERROR;
	c.payload = c.file;
	c.crc = inc_crc32c(0, c.file, c.len);
	c.cfd = ig_tcp_connect(o->host, o->port, o->family, o->timeout_ms);
	if (c.cfd < 0) {
		/* ig_tcp_connect said why */
		snprintf(c.err, sizeof(c.err), "cannot connect to %s port %u",
			 o->host, o->port);
		goto report;
	}
	if (getpeername(c.cfd, (struct sockaddr *)&peer, &pl)) {
		fail(&c, "getpeername: %s", strerror(errno));
		goto report;
	}
	ig_addr_str((struct sockaddr *)&peer, 1, c.peer, sizeof(c.peer));
	c.family = ig_family_str((struct sockaddr *)&peer);
	c.dfd = o->udp ? ig_udp_connect((struct sockaddr *)&peer, pl) : c.cfd;
	if (c.dfd < 0) {
		snprintf(c.err, sizeof(c.err), "cannot open the UDP socket");
		goto report;
	}
	if (pick_msg(&c) || set_mark(&c))
		goto report;
	if (o->mark == IG_MARK_EMULATE || o->test_corrupt) {
		c.payload = malloc(c.len);
		if (!c.payload) {
			fail(&c, "out of memory");
			goto report;
		}
		memcpy(c.payload, c.file, c.len);
		if (o->mark == IG_MARK_EMULATE)
			ig_codec_apply(c.payload, c.len, o->k);
		/* test aid: the top exponent bit of the first value of
		 * every Nth message of a round: far outside any bound */
		for (i = o->test_corrupt - 1; o->test_corrupt &&
		     i < c.per_round; i += o->test_corrupt)
			c.payload[i * c.msg + 3] ^= 0x40;
	}
	c.msg_crc = malloc(c.per_round * sizeof(*c.msg_crc));
	if (!c.msg_crc) {
		fail(&c, "out of memory");
		goto report;
	}
	for (i = 0; i < c.per_round; i++) {
		uint64_t off = i * c.msg;
		size_t n = c.len - off < c.msg ? c.len - off : c.msg;

		c.msg_crc[i] = inc_crc32c(0, c.file + off, n);
	}
	if (handshake(&c))
		goto report;
	c.drops_ok = o->udp && !ig_host_drops(0, &c.drops0);
	c.neigh_ok = o->udp && !ig_neigh_failed(&c.neigh0);
	c.t0 = ig_now();
	if (o->udp ? send_udp(&c) : send_tcp(&c))
		goto report;
	c.t1 = ig_now();
	if (finish(&c))
		goto report;
	if (c.drops_ok && !ig_host_drops(0, &c.drops))
		c.drops = c.drops >= c.drops0 ? c.drops - c.drops0 : 0;
	else
		c.drops_ok = 0;
	if (c.neigh_ok && !ig_neigh_failed(&c.neigh))
		c.neigh = c.neigh >= c.neigh0 ? c.neigh - c.neigh0 : 0;
	else
		c.neigh_ok = 0;
	rc = c.res.verdict == IG_PASS ? IG_EXIT_OK :
	     c.res.verdict == IG_FAIL ? IG_EXIT_FAIL : IG_EXIT_ERROR;
report:
	if (!c.t1)
		c.t1 = c.t0;
	report(&c, c.err[0] ? "error" : c.have_res ?
	       verdict_str(c.res.verdict) : "error");
	if (c.dfd >= 0 && c.dfd != c.cfd)
		close(c.dfd);
	if (c.cfd >= 0)
		close(c.cfd);
	if (c.payload != c.file)
		free(c.payload);
	free(c.file);
	free(c.msg_crc);
	return rc;
}
