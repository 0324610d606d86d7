// SPDX-License-Identifier: MIT
/*
 * incgrad server: one session at a time. Every handshake, header and end
 * record must be exact; a bad one ends the session with a clear error and
 * the server goes on with the next (unless --once). Payloads are
 * reassembled per round, each complete round's CRC-32C is compared with
 * the handshake's, and with --verify every value is checked against the
 * original (verify.c).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "drops.h"
#include "inccodec.h"
#include "incgrad.h"
#include "net.h"
#include "proto.h"
#include "report.h"
#include "util.h"
#include "verify.h"

#define UDP_MAX_MESSAGES	(1ull << 30)	/* bitmap of 128 MiB */

struct orig {
	uint8_t *buf;
	size_t len;
	uint32_t crc;
};

struct sess {
	const struct ig_server_opts *o;
	const struct orig *orig;	/* NULL without --verify */
	int cfd, ufd;
	char peer[96];
	const char *family;
	int have_hello;
	struct ig_hello h;
	uint32_t session;
	uint64_t per_round, total;
	uint8_t *img;		/* the round being reassembled */
	uint8_t *have;		/* its messages, one bit each */
	uint64_t round_got;
	uint32_t cur_round;
	int round_open;
	uint8_t *seen;		/* UDP: every message, one bit each */
	enum { PEND_NONE, PEND_MSG, PEND_FOREIGN } pending;
	struct ig_udp_hdr ph;	/* UDP: the header awaiting its payload */
	uint64_t next_seq;	/* TCP */
	uint64_t max_seq;
	int any_seq;
	uint64_t msgs_rx, payload_rx, bytes_rx, dups, reordered, bad_dgrams,
		 foreign, msgs_not_exact;
	uint64_t rounds_ok, rounds_bad, rounds_incomplete;
	struct ig_vstats vs;
	double t_start, t_last;
	int drops_ok;		/* UDP: host drops counted from drops0 */
	uint64_t drops0, drops;
	int iperr_ok;		/* UDP: IP input errors counted from iperr0 */
	uint64_t iperr0, iperr;
	uint64_t late;		/* UDP: messages read after the wait ended */
	int verdict, reason;
	char err[256];
};

static void sess_error(struct sess *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sess_error(struct sess *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->verdict = IG_ERROR;
	s->reason = IG_R_PROTOCOL;
	fprintf(stderr, "incgrad: server: %s: %s\n", s->peer, s->err);
}

static int bit_get(const uint8_t *b, uint64_t i)
{
	return b[i / 8] >> (i % 8) & 1;
}

static void bit_set(uint8_t *b, uint64_t i)
{
	b[i / 8] |= (uint8_t)(1u << (i % 8));
}

static void geom(const struct sess *s, uint64_t seq, uint32_t *round,
		 uint64_t *index, uint64_t *off, uint32_t *len)
{
	uint64_t msg = s->h.msg_bytes;

	*round = (uint32_t)(seq / s->per_round);
	*index = seq % s->per_round;
	*off = *index * msg;
	*len = (uint32_t)(s->h.file_len - *off < msg ? s->h.file_len - *off :
			  msg);
}

/* ---- handshake ------------------------------------------------------------ */

static int reply(struct sess *s, unsigned int status)
{
	struct ig_reply r = {
		.version = IG_VERSION, .status = (uint16_t)status,
		.session = s->session,
	};
	uint8_t b[IG_REPLY_LEN];

	ig_reply_pack(&r, b);
	return ig_write_full(s->cfd, b, sizeof(b));
}

static int refuse(struct sess *s, unsigned int status, const char *detail)
{
	reply(s, status);	/* best effort: the client learns why */
	sess_error(s, "refused: %s%s%s", ig_status_str(status),
		   detail ? ": " : "", detail ? detail : "");
	return -1;
}

static int hello(struct sess *s)
{
	const struct ig_server_opts *o = s->o;
	struct ig_hello *h = &s->h;
	uint8_t b[IG_HELLO_LEN];
	uint32_t max_msg;
	char d[160];
	int r = ig_read_full(s->cfd, b, sizeof(b), o->timeout_ms);

	if (r) {
		sess_error(s, "handshake: %s", r == IG_IO_SHORT ?
			   "short handshake (connection closed part-way)" :
			   ig_io_str(r));
		return -1;
	}
	s->bytes_rx += sizeof(b);
	r = ig_hello_parse(b, h);
	if (r) {
		snprintf(d, sizeof(d), "%s (first bytes %02x %02x %02x %02x)",
			 ig_perr(r), b[0], b[1], b[2], b[3]);
		return refuse(s, IG_ST_CORRUPT, d);
	}
	if (h->version != IG_VERSION) {
		snprintf(d, sizeof(d), "version %u, this server speaks %u",
			 h->version, IG_VERSION);
		return refuse(s, IG_ST_VERSION, d);
	}
	max_msg = h->flags & IG_F_UDP ? IG_UDP_MAX_MSG : IG_TCP_MAX_MSG;
	d[0] = 0;
	if (h->flags & ~IG_F_KNOWN)
		snprintf(d, sizeof(d), "unknown flags 0x%x", h->flags);
	else if (h->k < INC_K_MIN || h->k > INC_K_MAX)
		snprintf(d, sizeof(d), "k %u not in %d..%d", h->k, INC_K_MIN,
			 INC_K_MAX);
	else if (h->mode != IG_MODE_PAPER && h->mode != IG_MODE_SPARSE &&
		 h->mode != IG_MODE_WIDTH)
		snprintf(d, sizeof(d), "mode %u", h->mode);
	else if (!h->file_len || h->file_len % 4)
		snprintf(d, sizeof(d), "file length %llu is not a positive "
			 "multiple of 4", (unsigned long long)h->file_len);
	else if (!h->msg_bytes || h->msg_bytes % 4 || h->msg_bytes > max_msg)
		snprintf(d, sizeof(d), "message size %u", h->msg_bytes);
	else if (!h->repeat)
		snprintf(d, sizeof(d), "repeat 0");
	if (d[0])
		return refuse(s, IG_ST_PARAMS, d);
	s->per_round = ig_msgs_per_round(h->file_len, h->msg_bytes);
	if (s->per_round * h->repeat > UINT32_MAX ||
	    h->messages != s->per_round * h->repeat) {
		snprintf(d, sizeof(d), "%llu messages announced, %llu x %u "
			 "expected", (unsigned long long)h->messages,
			 (unsigned long long)s->per_round, h->repeat);
		return refuse(s, IG_ST_PARAMS, d);
	}
	s->total = h->messages;
	if (h->flags & IG_F_UDP && s->ufd < 0)
		return refuse(s, IG_ST_NO_UDP, NULL);
	if (h->flags & IG_F_UDP && s->total > UDP_MAX_MESSAGES) {
		snprintf(d, sizeof(d), "%llu datagrams, at most %llu",
			 (unsigned long long)s->total, UDP_MAX_MESSAGES);
		return refuse(s, IG_ST_PARAMS, d);
	}
	if (h->file_len > o->max_bytes) {
		snprintf(d, sizeof(d), "%llu bytes > %llu",
			 (unsigned long long)h->file_len,
			 (unsigned long long)o->max_bytes);
		return refuse(s, IG_ST_TOO_BIG, d);
	}
	if (s->orig && s->orig->len != h->file_len) {
		snprintf(d, sizeof(d), "client sends %llu bytes, %s has %zu",
			 (unsigned long long)h->file_len, o->verify,
			 s->orig->len);
		return refuse(s, IG_ST_VERIFY_LEN, d);
	}
	s->img = malloc(h->file_len);
	s->have = calloc((s->per_round + 7) / 8, 1);
	if (h->flags & IG_F_UDP)
		s->seen = calloc((s->total + 7) / 8, 1);
	if (!s->img || !s->have || (h->flags & IG_F_UDP && !s->seen))
		return refuse(s, IG_ST_NOMEM, NULL);
	s->have_hello = 1;
	if (reply(s, IG_ST_OK)) {
		sess_error(s, "sending the reply: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- reassembly ----------------------------------------------------------- */

static void round_close(struct sess *s)
{
	if (s->round_open && s->round_got < s->per_round)
		s->rounds_incomplete++;
	s->round_open = 0;
}

/* Make round the one being reassembled, if it is newer. */
static void round_enter(struct sess *s, uint32_t round)
{
	if (s->round_open && round <= s->cur_round)
		return;
	round_close(s);
	s->cur_round = round;
	s->round_open = 1;
	s->round_got = 0;
	memset(s->have, 0, (s->per_round + 7) / 8);
}

/* A message whose header was exact: check and place its payload. */
static void accept_msg(struct sess *s, uint32_t round, uint64_t index,
		       const uint8_t *p, uint32_t len, uint32_t data_crc)
{
	uint64_t off = index * s->h.msg_bytes;

	if (inc_crc32c(0, p, len) != data_crc)
		s->msgs_not_exact++;
	if (s->orig)
		ig_verify(&s->vs, s->orig->buf + off, p, len, s->h.k);
	s->msgs_rx++;
	s->payload_rx += len;
	s->t_last = ig_now();
	if (!s->round_open || round != s->cur_round || bit_get(s->have, index))
		return;	/* late, from a round already closed */
	if (p != s->img + off)
		memcpy(s->img + off, p, len);
	bit_set(s->have, index);
	if (++s->round_got == s->per_round) {
		if (inc_crc32c(0, s->img, s->h.file_len) == s->h.file_crc)
			s->rounds_ok++;
		else
			s->rounds_bad++;
	}
}

static int check_end(struct sess *s, const struct ig_end *e)
{
	if (e->messages != s->total || e->rounds != s->h.repeat ||
	    e->payload_bytes != s->h.file_len * s->h.repeat) {
		sess_error(s, "end record says %u messages, %u rounds, %llu "
			   "bytes; the handshake announced %llu, %u, %llu",
			   e->messages, e->rounds,
			   (unsigned long long)e->payload_bytes,
			   (unsigned long long)s->total, s->h.repeat,
			   (unsigned long long)(s->h.file_len * s->h.repeat));
		return -1;
	}
	return 0;
}

/* ---- TCP ------------------------------------------------------------------ */

static int tcp_loop(struct sess *s)
{
	for (;;) {
		uint8_t fb[IG_FRAME_LEN];
		struct ig_msg m;
		struct ig_end e;
		uint64_t index, off;
		uint32_t round, len;
		long kind;
		int r = ig_read_full(s->cfd, fb, sizeof(fb), s->o->timeout_ms);

		if (r) {
			sess_error(s, "reading the header after message %llu "
				   "of %llu: %s", (unsigned long long)s->next_seq,
				   (unsigned long long)s->total, ig_io_str(r));
			return -1;
		}
		s->bytes_rx += sizeof(fb);
		kind = ig_frame_parse(fb, &m, &e);
		if (kind < 0) {
			sess_error(s, "corrupt message header after message "
				   "%llu: %s (first bytes %02x %02x %02x %02x)",
				   (unsigned long long)s->next_seq,
				   ig_perr((int)kind), fb[0], fb[1], fb[2],
				   fb[3]);
			return -1;
		}
		if (kind == IG_MAGIC_END) {
			if (s->next_seq != s->total) {
				sess_error(s, "end record after %llu of %llu "
					   "messages",
					   (unsigned long long)s->next_seq,
					   (unsigned long long)s->total);
				return -1;
			}
			return check_end(s, &e);
		}
		if (s->next_seq >= s->total) {
			sess_error(s, "message %u beyond the %llu announced",
				   m.seq, (unsigned long long)s->total);
			return -1;
		}
		geom(s, s->next_seq, &round, &index, &off, &len);
		if (m.seq != s->next_seq || m.round != round ||
		    m.offset != off || m.len != len) {
			sess_error(s, "message header out of sequence: seq %u "
				   "round %u offset %llu length %u, expected "
				   "seq %llu round %u offset %llu length %u",
				   m.seq, m.round,
				   (unsigned long long)m.offset, m.len,
				   (unsigned long long)s->next_seq, round,
				   (unsigned long long)off, len);
			return -1;
		}
		round_enter(s, round);
		r = ig_read_full(s->cfd, s->img + off, len, s->o->timeout_ms);
		if (r) {
			sess_error(s, "reading the payload of message %u: %s",
				   m.seq, r == IG_IO_EOF ?
				   ig_io_str(IG_IO_SHORT) : ig_io_str(r));
			return -1;
		}
		s->bytes_rx += len;
		accept_msg(s, round, index, s->img + off, len, m.data_crc);
		s->next_seq++;
	}
}

/* ---- UDP ------------------------------------------------------------------ */

/*
 * A UDP datagram: a header datagram (exact: IG_UDP_HDR_LEN bytes, magic
 * and CRC-32C) announces the payload datagram that must come right after
 * it, tagged with its seq (a NaN the codec keeps exact). A header whose
 * payload does not follow leaves its message lost; a payload without its
 * header, or after another message's header (the two datagrams between
 * lost), cannot be placed and is counted bad.
 */
static void datagram(struct sess *s, const uint8_t *b, size_t n)
{
	struct ig_udp_hdr h;
	uint64_t index, off;
	uint32_t round, len;
	int pend = s->pending;

	s->bytes_rx += n;
	s->pending = PEND_NONE;
	if (n == IG_UDP_HDR_LEN && !ig_udp_hdr_parse(b, &h)) {
		if (h.session != s->session) {
			s->foreign++;	/* another (earlier) session's */
			s->pending = PEND_FOREIGN;
			return;
		}
		if (h.seq >= s->total) {
			s->bad_dgrams++;
			return;
		}
		geom(s, h.seq, &round, &index, &off, &len);
		if (h.round != round || h.index != index || h.len != len) {
			s->bad_dgrams++;
			return;
		}
		s->ph = h;
		s->pending = PEND_MSG;
		return;
	}
	if (pend == PEND_FOREIGN) {
		s->foreign++;
		return;
	}
	if (pend != PEND_MSG || n != IG_UDP_TAG_LEN + s->ph.len ||
	    !ig_udp_tag_is(b, s->ph.seq)) {
		/* no header, not its length, or another message's tag */
		s->bad_dgrams++;
		return;
	}
	b += IG_UDP_TAG_LEN;
	h = s->ph;
	if (bit_get(s->seen, h.seq)) {
		s->dups++;
		return;
	}
	bit_set(s->seen, h.seq);
	if (s->any_seq && h.seq < s->max_seq)
		s->reordered++;
	if (!s->any_seq || h.seq > s->max_seq)
		s->max_seq = h.seq;
	s->any_seq = 1;
	round_enter(s, h.round);
	accept_msg(s, h.round, h.index, b, h.len, h.data_crc);
}

/* Read up to max datagrams that are waiting; how many were read. */
static unsigned int udp_drain(struct sess *s, uint8_t *buf, size_t cap,
			      unsigned int max)
{
	unsigned int i;

	for (i = 0; i < max; i++) {
		ssize_t n = recv(s->ufd, buf, cap, MSG_DONTWAIT | MSG_TRUNC);

		if (n < 0)
			break;
		/* MSG_TRUNC: n is the real length */
		datagram(s, buf, (size_t)n > cap ? 0 : (size_t)n);
	}
	return i;
}

static int udp_loop(struct sess *s, uint8_t *buf, size_t cap)
{
	const struct ig_server_opts *o = s->o;
	double last = ig_now();
	int end_seen = 0;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = s->cfd, .events = POLLIN },
			{ .fd = s->ufd, .events = POLLIN },
		};
		double left;
		int pr;

		if (end_seen && s->msgs_rx == s->total)
			return 0;
		left = last + (end_seen ? o->udp_wait_ms : o->timeout_ms) /
			      1000.0 - ig_now();
		if (left <= 0) {
			if (end_seen)
				return 0;	/* the rest is lost */
			sess_error(s, "timed out: nothing for %d ms (%llu of "
				   "%llu datagrams, no end record)",
				   o->timeout_ms,
				   (unsigned long long)s->msgs_rx,
				   (unsigned long long)s->total);
			return -1;
		}
		pr = poll(p, 2, (int)ceil(left * 1000));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0) {
			sess_error(s, "poll: %s", strerror(errno));
			return -1;
		}
		if (p[1].revents & POLLIN) {
			udp_drain(s, buf, cap, 512);
			last = ig_now();
		}
		if (p[0].revents) {
			uint8_t fb[IG_FRAME_LEN];
			struct ig_msg m;
			struct ig_end e;
			long kind;
			int r;

			if (end_seen) {
				sess_error(s, "client closed the connection "
					   "before the result");
				return -1;
			}
			r = ig_read_full(s->cfd, fb, sizeof(fb), o->timeout_ms);
			if (r) {
				sess_error(s, "control connection, waiting for "
					   "the end record: %s", ig_io_str(r));
				return -1;
			}
			s->bytes_rx += sizeof(fb);
			kind = ig_frame_parse(fb, &m, &e);
			if (kind != IG_MAGIC_END) {
				sess_error(s, "control connection: expected the "
					   "end record, got %s", kind < 0 ?
					   ig_perr((int)kind) : "a message header");
				return -1;
			}
			if (check_end(s, &e))
				return -1;
			end_seen = 1;
			last = ig_now();
		}
	}
}

/* ---- verdict and report ----------------------------------------------------- */

static void judge(struct sess *s)
{
	const struct ig_hello *h = &s->h;
	uint64_t lost = s->total - s->msgs_rx;
	int marked = h->flags & IG_F_MARKED;

	s->verdict = IG_FAIL;
	if (s->orig && s->orig->crc != h->file_crc)
		s->reason = IG_R_ORIG_DIFFERS;
	else if (lost && !s->o->allow_loss)
		s->reason = IG_R_LOST;
	else if (!marked && (s->rounds_bad || s->msgs_not_exact))
		s->reason = IG_R_CRC;
	else if (!marked && s->orig && s->vs.not_exact)
		s->reason = IG_R_NOT_EXACT;
	else if (marked && s->orig && !ig_within_bound(&s->vs))
		s->reason = IG_R_BOUND;
	else
		s->verdict = IG_PASS;
	if (s->verdict == IG_FAIL) {
		if (s->reason == IG_R_LOST)
			snprintf(s->err, sizeof(s->err), "%llu of %llu "
				 "datagrams lost", (unsigned long long)lost,
				 (unsigned long long)s->total);
		else if (s->reason == IG_R_BOUND)
			snprintf(s->err, sizeof(s->err), "%llu values over "
				 "the bound 2^-%u, %llu non-finite values "
				 "changed", (unsigned long long)s->vs.over_bound,
				 h->k, (unsigned long long)s->vs.nonfinite_bad);
		else if (s->reason == IG_R_NOT_EXACT)
			snprintf(s->err, sizeof(s->err), "%llu values of an "
				 "unmarked transfer differ from the original",
				 (unsigned long long)s->vs.not_exact);
		else
			snprintf(s->err, sizeof(s->err), "%s",
				 ig_reason_str((unsigned int)s->reason));
		fprintf(stderr, "incgrad: server: %s: verification failed: "
			"%s\n", s->peer, s->err);
	}
}

static void send_result(struct sess *s)
{
	struct ig_result r = {
		.verdict = (uint16_t)s->verdict,
		.reason = (uint16_t)s->reason,
		.payload_bytes = s->payload_rx,
		.messages = s->msgs_rx,
		.lost = s->total - s->msgs_rx,
		.not_exact = s->orig ? s->vs.not_exact : s->msgs_not_exact,
		.max_abs_err = s->vs.max_abs_err,
		.rx_nsec = (uint64_t)((s->t_last - s->t_start) * 1e9),
		.host_drops = s->drops > UINT32_MAX ? UINT32_MAX :
			      (uint32_t)s->drops,
		.ip_errors = s->iperr > UINT32_MAX ? UINT32_MAX :
			     (uint32_t)s->iperr,
	};
	uint8_t b[IG_RESULT_LEN];

	if (s->orig)
		r.flags |= IG_RF_VERIFIED;
	if (s->rounds_ok == s->h.repeat)
		r.flags |= IG_RF_CRC_OK;
	if (s->orig && ig_within_bound(&s->vs))
		r.flags |= IG_RF_WITHIN_BOUND;
	if (s->drops_ok)
		r.flags |= IG_RF_DROPS;
	if (s->iperr_ok)
		r.flags |= IG_RF_IP_ERRORS;
	ig_result_pack(&r, b);
	if (ig_write_full(s->cfd, b, sizeof(b)))
		fprintf(stderr, "incgrad: server: %s: sending the result: %s\n",
			s->peer, strerror(errno));
}

/*
 * UDP, after the wait: how many packets this host dropped while the
 * session ran. When datagrams were lost, wait up to 1.5 s for the counters
 * to catch up (a driver may read its NIC's drop counters once a second, as
 * inceptionn's does), so that loss a counter explains is seen as
 * explained; then read the datagrams that arrived meanwhile (late: a host
 * too busy to run this process in time, not loss) and count the packets
 * the IP layer refused.
 */
static void udp_finish(struct sess *s, uint8_t *buf, size_t cap)
{
	double until = ig_now() + 1.5;
	uint64_t now, got;

	while (s->drops_ok && s->msgs_rx < s->total) {
		if (ig_host_drops(1, &now)) {
			s->drops_ok = 0;
			break;
		}
		s->drops = now >= s->drops0 ? now - s->drops0 : 0;
		if (s->drops >= s->total - s->msgs_rx || ig_now() >= until)
			break;
		ig_sleep_until(ig_now() + 0.1);
	}
	if (s->msgs_rx < s->total) {
		got = s->msgs_rx;
		while (udp_drain(s, buf, cap, 512) == 512)
			;
		s->late = s->msgs_rx - got;
	}
	if (s->iperr_ok && !ig_ip_in_errors(&now))
		s->iperr = now >= s->iperr0 ? now - s->iperr0 : 0;
	else
		s->iperr_ok = 0;
}

static const char *verdict_str(int v)
{
	return v == IG_PASS ? "pass" : v == IG_FAIL ? "fail" : "error";
}

static void report(const struct sess *s)
{
	const struct ig_server_opts *o = s->o;
	const struct ig_hello *h = &s->h;
	int hh = s->have_hello, marked = hh && h->flags & IG_F_MARKED;
	uint64_t lost = hh ? s->total - s->msgs_rx : 0;
	double secs = s->t_last > s->t_start ? s->t_last - s->t_start : 0;
	const char *proto = hh && h->flags & IG_F_UDP ? "udp" : "tcp";

	if (o->json) {
		struct ig_json j;

		ig_json_begin(&j);
		ig_json_str(&j, "role", "server");
		ig_json_str(&j, "result", verdict_str(s->verdict));
		ig_json_str(&j, "reason", s->err[0] ? s->err : NULL);
		ig_json_str(&j, "peer", s->peer);
		ig_json_str(&j, "proto", proto);
		ig_json_str(&j, "family", s->family);
		ig_json_u64(&j, "session", s->session);
		ig_json_bool(&j, "marked", marked);
		ig_json_bool(&j, "emulated", hh && h->flags & IG_F_EMULATED);
		if (hh) {
			ig_json_u64(&j, "k", h->k);
			ig_json_str(&j, "mode", ig_mode_str(h->mode));
			ig_json_dbl(&j, "bound", ldexp(1, -(int)h->k));
			ig_json_u64(&j, "file_bytes", h->file_len);
			ig_json_hex32(&j, "file_crc", h->file_crc);
			ig_json_u64(&j, "msg_bytes", h->msg_bytes);
			ig_json_u64(&j, "repeat", h->repeat);
		} else {	/* no valid handshake */
			static const char *const none[] = {
				"k", "mode", "bound", "file_bytes", "file_crc",
				"msg_bytes", "repeat",
			};
			size_t i;

			for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
				ig_json_str(&j, none[i], NULL);
		}
		ig_json_u64(&j, "messages_expected", s->total);
		ig_json_u64(&j, "messages_received", s->msgs_rx);
		ig_json_u64(&j, "messages_lost", lost);
		ig_json_u64(&j, "duplicates", s->dups);
		ig_json_u64(&j, "reordered", s->reordered);
		if (s->drops_ok)
			ig_json_u64(&j, "host_rx_drops", s->drops);
		else
			ig_json_str(&j, "host_rx_drops", NULL);
		if (s->iperr_ok)
			ig_json_u64(&j, "host_ip_errors", s->iperr);
		else
			ig_json_str(&j, "host_ip_errors", NULL);
		ig_json_u64(&j, "messages_late", s->late);
		ig_json_u64(&j, "datagrams_bad", s->bad_dgrams);
		ig_json_u64(&j, "datagrams_foreign", s->foreign);
		ig_json_u64(&j, "payload_bytes", s->payload_rx);
		ig_json_u64(&j, "bytes_received", s->bytes_rx);
		ig_json_dbl(&j, "seconds", secs);
		ig_json_dbl(&j, "throughput_mbps", ig_mbps(s->payload_rx, secs));
		ig_json_u64(&j, "rounds_crc_ok", s->rounds_ok);
		ig_json_u64(&j, "rounds_crc_bad", s->rounds_bad);
		ig_json_u64(&j, "rounds_incomplete", s->rounds_incomplete);
		ig_json_bool(&j, "crc_match", hh && s->rounds_ok == h->repeat);
		ig_json_u64(&j, "messages_not_exact", s->msgs_not_exact);
		ig_json_bool(&j, "verified", !!s->orig);
		ig_json_str(&j, "verify_file", o->verify);
		ig_json_u64(&j, "values_compared", s->vs.values);
		ig_json_u64(&j, "values_not_exact", s->vs.not_exact);
		ig_json_u64(&j, "values_over_bound", s->vs.over_bound);
		ig_json_u64(&j, "nonfinite_bad", s->vs.nonfinite_bad);
		ig_json_dbl(&j, "max_abs_err", s->vs.max_abs_err);
		ig_json_bool(&j, "within_bound", s->orig ?
			     ig_within_bound(&s->vs) : -1);
		ig_json_print(&j, stdout);
		return;
	}
	printf("incgrad server <- %s (%s, %s), session 0x%08x\n", s->peer,
	       proto, s->family, s->session);
	ig_row(stdout, "result", "%s%s%s", verdict_str(s->verdict),
	       s->err[0] ? ": " : "", s->err);
	if (!hh) {
		fflush(stdout);
		return;
	}
	if (marked)
		ig_row(stdout, "transfer", "marked%s, k %u (bound %g), %s",
		       h->flags & IG_F_EMULATED ? " (codec emulated by the "
		       "client)" : "", h->k, ldexp(1, -(int)h->k),
		       ig_mode_str(h->mode));
	else
		ig_row(stdout, "transfer", "unmarked: must be bit-exact");
	ig_row(stdout, "file", "%llu bytes, crc32c 0x%08x, %llu messages of "
	       "up to %u bytes x %u round%s", (unsigned long long)h->file_len,
	       h->file_crc, (unsigned long long)s->per_round, h->msg_bytes,
	       h->repeat, h->repeat == 1 ? "" : "s");
	ig_row(stdout, "received", "%llu payload bytes in %llu of %llu "
	       "messages (%llu lost, %llu duplicates, %llu reordered)",
	       (unsigned long long)s->payload_rx,
	       (unsigned long long)s->msgs_rx, (unsigned long long)s->total,
	       (unsigned long long)lost, (unsigned long long)s->dups,
	       (unsigned long long)s->reordered);
	if (lost && s->drops_ok)
		ig_row(stdout, "host drops", "%llu packets dropped on this "
		       "host meanwhile (NIC, socket buffer)",
		       (unsigned long long)s->drops);
	if (s->late)
		ig_row(stdout, "late", "%llu messages read after the wait "
		       "(--udp-wait) ended", (unsigned long long)s->late);
	if (s->iperr_ok && s->iperr)
		ig_row(stdout, "IP errors", "%llu packets refused by this "
		       "host's IP layer meanwhile", (unsigned long long)s->iperr);
	if (s->bad_dgrams || s->foreign)
		ig_row(stdout, "ignored", "%llu corrupt and %llu foreign "
		       "datagrams", (unsigned long long)s->bad_dgrams,
		       (unsigned long long)s->foreign);
	ig_row(stdout, "time", "%.6f s, %.1f Mbit/s", secs,
	       ig_mbps(s->payload_rx, secs));
	ig_row(stdout, "crc32c", "%llu of %u rounds equal (%llu differ, %llu "
	       "incomplete), %llu messages not bit-exact",
	       (unsigned long long)s->rounds_ok, h->repeat,
	       (unsigned long long)s->rounds_bad,
	       (unsigned long long)s->rounds_incomplete,
	       (unsigned long long)s->msgs_not_exact);
	if (s->orig)
		ig_row(stdout, "verified", "against %s: %llu values, %llu not "
		       "bit-exact, %llu over 2^-%u, %llu non-finite changed, "
		       "max error %g", o->verify,
		       (unsigned long long)s->vs.values,
		       (unsigned long long)s->vs.not_exact,
		       (unsigned long long)s->vs.over_bound, h->k,
		       (unsigned long long)s->vs.nonfinite_bad,
		       s->vs.max_abs_err);
	else
		ig_row(stdout, "verified", "no (--verify FILE compares values "
		       "with the original)");
	fflush(stdout);
}

/* ---- sessions ------------------------------------------------------------- */

static uint32_t new_session(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
		v = (uint32_t)getpid() ^ (uint32_t)(ig_now() * 1e6);
	return v;
}

static int session(const struct ig_server_opts *o, const struct orig *orig,
		   int cfd, int ufd, const struct sockaddr *peer,
		   uint8_t *dbuf, size_t dcap)
{
	struct sess s = {
		.o = o, .orig = orig, .cfd = cfd, .ufd = ufd,
		.session = new_session(), .verdict = IG_PASS,
	};
	int rc;

	ig_addr_str(peer, 1, s.peer, sizeof(s.peer));
	s.family = ig_family_str(peer);
	if (!hello(&s)) {
		s.t_start = s.t_last = ig_now();
		s.drops_ok = s.h.flags & IG_F_UDP &&
			     !ig_host_drops(1, &s.drops0);
		s.iperr_ok = s.h.flags & IG_F_UDP &&
			     !ig_ip_in_errors(&s.iperr0);
		if (!(s.h.flags & IG_F_UDP ? udp_loop(&s, dbuf, dcap) :
		      tcp_loop(&s))) {
			if (s.h.flags & IG_F_UDP)
				udp_finish(&s, dbuf, dcap);
			round_close(&s);
			judge(&s);
			send_result(&s);
			if (o->save && s.round_got == s.per_round)
				ig_save(o->save, s.img, s.h.file_len);
			else if (o->save)
				fprintf(stderr, "incgrad: server: --save: last "
					"round incomplete, not written\n");
		} else {
			struct ig_result r = { .verdict = IG_ERROR,
					       .reason = IG_R_PROTOCOL };
			uint8_t b[IG_RESULT_LEN];

			/* tell a client that still listens, best effort */
			ig_result_pack(&r, b);
			ig_write_full(cfd, b, sizeof(b));
		}
	}
	report(&s);
	rc = s.verdict == IG_PASS ? IG_EXIT_OK : s.verdict == IG_FAIL ?
	     IG_EXIT_FAIL : IG_EXIT_ERROR;
	free(s.img);
	free(s.have);
	free(s.seen);
	return rc;
}

int ig_server(const struct ig_server_opts *o)
{
	struct orig orig = { 0 };
	unsigned int port = o->port;
	int tfd, ufd = -1, rc = IG_EXIT_OK;
	size_t dcap = 65536;
	uint8_t *dbuf = malloc(dcap);
	char a[96];

	if (!dbuf)
		return IG_EXIT_ERROR;
	if (o->verify) {
		if (ig_load_floats("server: --verify", o->verify, &orig.buf,
				   &orig.len)) {
			free(dbuf);
			return IG_EXIT_ERROR;
		}
		orig.crc = inc_crc32c(0, orig.buf, orig.len);
	}
	if (ig_listen(o->bind, o->family, &port, o->udp, &tfd, &ufd)) {
		free(orig.buf);
		free(dbuf);
		return IG_EXIT_ERROR;
	}
	if (ufd >= 0) {
		int sz = 16 << 20;

		/* room for bursts; FORCE needs CAP_NET_ADMIN, else capped */
		if (setsockopt(ufd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
			setsockopt(ufd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	}
	{
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);

		getsockname(tfd, (struct sockaddr *)&ss, &sl);
		ig_addr_str((struct sockaddr *)&ss, 1, a, sizeof(a));
	}
	fprintf(stderr, "incgrad: server listening on %s (tcp%s)%s%s\n", a,
		ufd >= 0 ? " and udp" : "", o->verify ? ", verifying against " :
		"", o->verify ? o->verify : "");
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = tfd, .events = POLLIN },
			{ .fd = ufd, .events = POLLIN },
		};
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		int cfd;

		if (poll(p, ufd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "incgrad: server: poll: %s\n",
				strerror(errno));
			rc = IG_EXIT_ERROR;
			break;
		}
		if (ufd >= 0 && p[1].revents & POLLIN)	/* stale datagrams */
			while (recv(ufd, dbuf, dcap, MSG_DONTWAIT) >= 0)
				;
		if (!(p[0].revents & POLLIN))
			continue;
		cfd = accept(tfd, (struct sockaddr *)&peer, &pl);
		if (cfd < 0) {
			if (errno != EINTR && errno != ECONNABORTED)
				fprintf(stderr, "incgrad: server: accept: %s\n",
					strerror(errno));
			continue;
		}
		rc = session(o, o->verify ? &orig : NULL, cfd, ufd,
			     (struct sockaddr *)&peer, dbuf, dcap);
		close(cfd);
		if (o->once)
			break;
	}
	close(tfd);
	if (ufd >= 0)
		close(ufd);
	free(orig.buf);
	free(dbuf);
	return rc;
}
