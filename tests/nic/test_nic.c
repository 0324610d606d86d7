// SPDX-License-Identifier: MIT
/*
 * System test of the NIC (rtl/nic/inc_nic.v) through its Verilator model
 * and the environment of sim/nic/nic_env.h: host memory, a DMA bridge, a
 * MAC and an MSI-X sink, all with random backpressure unless a phase says
 * otherwise.
 *
 * The expected frames come from the wire-format reference
 * (userspace/wire/incwire.h): incw_tx() is what the NIC must put on the
 * link for a TX descriptor, incw_rx() what it must deliver for a received
 * frame (or which drop). The contract is docs/regmap.md.
 *
 * Environment: NIC_SEED (default 1) changes every random choice;
 * NIC_PHASE=name runs only that phase, or the phases whose name contains
 * it when none has that name, and NIC_PHASE=a,b,c the phases so named
 * (tests/run-tests.sh rtl/lockstep); NIC_QUICK=1
 * runs fewer frames; NIC_TRACE=1 prints every DMA transfer, frame and
 * message on stderr; NIC_DUMP=dir writes the frames of failed comparisons
 * there; NIC_REPLAY=dir injects every *.bin file of dir on RX (phase
 * rx/replay); INC_GRADIENTS as for the other tests; NIC_FW the firmware
 * image for phases mgmt and mgmt/selftest (default:
 * ../firmware/inceptionn-fw.bin from the test binary's directory, which
 * make builds first).
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frames.h"
#include "fw.h"			/* the firmware's self-test vectors */
#include "inccodec.h"
#include "incwire.h"
#include "nic_env.h"
#include "testlib.h"

/* The NIC's clock for the interrupt moderation timer (inc_nic parameter
 * CLK_MHZ); the build can override it. */
#ifndef NIC_CLK_MHZ
#define NIC_CLK_MHZ	250
#endif

#define MAXF		INCW_MAX_FRAME
#define BUF_SIZE	9216
#define DIAG_MAX	5

static struct nic_env *env;
static struct nic_drv drv;
static struct rng R;
static int quick;
static const char *only;
static uint64_t seed = 1;

/* the shared gradients, all files back to back; each model's files
 * (name up to '-') together, in file-name order */
static uint8_t *grad;
static size_t grad_len;
#define NMODEL 8
static struct {
	char name[24];
	size_t off, len;
} model[NMODEL];
static size_t nmodel;

/* ---------------------------------------------------------------- */
/* small helpers                                                     */

static void env_log(void *ctx, const char *msg)
{
	(void)ctx;
	t_diag("  env: %s", msg);
}

static uint32_t rd(uint16_t a)
{
	return nic_csr_read(env, a);
}

static void wr(uint16_t a, uint32_t v)
{
	nic_csr_write(env, a, v);
}

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static void put_be16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static size_t scaled(size_t n)
{
	return quick ? (n + 3) / 4 : n;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static uint8_t *dup(const uint8_t *p, size_t n)
{
	uint8_t *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}

/* first differing byte, and a few bytes around it */
static void diff_diag(const char *what, size_t idx, const char *desc,
		      const uint8_t *want, size_t wl, const uint8_t *got,
		      size_t gl)
{
	size_t i = 0, m = wl < gl ? wl : gl, j, from;
	char a[3 * 16 + 1], b[3 * 16 + 1];

	while (i < m && want[i] == got[i])
		i++;
	t_diag("%s %zu (%s): %zu bytes, expected %zu; first difference at byte %zu",
	       what, idx, desc, gl, wl, i);
	from = i > 4 ? i - 4 : 0;
	a[0] = b[0] = 0;
	for (j = from; j < from + 16; j++) {
		if (j < wl)
			sprintf(a + 3 * (j - from), "%02x ", want[j]);
		else
			sprintf(a + 3 * (j - from), "-- ");
		if (j < gl)
			sprintf(b + 3 * (j - from), "%02x ", got[j]);
		else
			sprintf(b + 3 * (j - from), "-- ");
	}
	t_diag("    @%zu expected %s", from, a);
	t_diag("    @%zu got      %s", from, b);
}

/* NIC_DUMP=dir: frames that went wrong are written there, for
 * reproductions (NIC_REPLAY, or any other tool) */
static void dump_frame(const char *what, size_t idx, const char *kind,
		       const uint8_t *p, size_t n)
{
	const char *dir = getenv("NIC_DUMP");
	char path[512], w[64];
	size_t i;
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(w, sizeof(w), "%s", what);
	for (i = 0; w[i]; i++)
		if (w[i] == '/')
			w[i] = '-';
	snprintf(path, sizeof(path), "%s/%s-%05zu-%s.bin", dir, w, idx, kind);
	f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(p, 1, n, f);
	fclose(f);
}

/* ---------------------------------------------------------------- */
/* frames                                                            */

/* One frame of a run: sent on TX (tx items) or injected on RX (rx items),
 * with what the NIC must do with it. */
struct item {
	uint8_t *f;
	size_t len;
	char desc[128];
	/* TX */
	struct nic_tx_opts o;
	uint16_t len_field;	/* the descriptor's len (len unless bad_len) */
	int bad_len;		/* a descriptor the NIC must fail */
	int tx_res;		/* incw_tx() result */
	uint8_t *wire;		/* the frame on the wire */
	size_t wire_len;
	/* RX (of f, or of wire in loopback) */
	int tuser;
	unsigned int idle;
	int rx_res;		/* incw_rx() result, or -1: dropped (MAC) */
	uint8_t *deliv;		/* what the host must get */
	size_t deliv_len;
	int deliver;
	/* the marked range in the original frame, for the error bound */
	const uint8_t *orig;
	size_t range_at, range_len;
	unsigned int k;
};

static void item_free(struct item *it)
{
	free(it->f);
	free(it->wire);
	free(it->deliv);
	memset(it, 0, sizeof(*it));
}

static void items_free(struct item *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		item_free(&v[i]);
	free(v);
}

static const char *proto_name(int p)
{
	return p == 6 ? "TCP" : p == 17 ? "UDP" : "other";
}

static void describe(struct item *it, const struct fspec *s, const char *what)
{
	char r[64] = "";

	if (it->o.compress)
		snprintf(r, sizeof(r), " k %u mode %u range %u+%u", it->o.k,
			 it->o.mode, it->o.range_off, it->o.range_len);
	if (s && s->ipv)
		snprintf(it->desc, sizeof(it->desc),
			 "%s IPv%d/%s vlans %d ipopt %d tcpopt %d%s%s trailer %zu len %zu%s",
			 what, s->ipv, proto_name(s->proto), s->vlans, s->ip4_opts,
			 s->tcp_opts, s->fragment ? " frag" : "",
			 s->udp_nocsum ? " nocsum" : "", s->trailer, it->len, r);
	else
		snprintf(it->desc, sizeof(it->desc), "%s %s vlans %d len %zu%s",
			 what, s ? "non-IP" : "raw", s ? s->vlans : 0, it->len, r);
}

/* the chunk modes the model's NIC takes (incw_*): width with 16 lanes,
 * unless the model was built without it (inc_nic's WIDTH=0: the Makefile's
 * test_nic-nowidth, compiled with NIC_NO_WIDTH) */
static unsigned int nic_modes(void)
{
#ifdef NIC_NO_WIDTH
	return INCW_MODES_BASE;
#else
	return vl_nic_beat() == 64 ? INCW_MODES_ALL : INCW_MODES_BASE;
#endif
}

static void fill_random(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng_next(&R);
}

/* gradient-like float32 values scaled around 2^-k */
static void fill_gauss(uint8_t *p, size_t len, unsigned int k)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		float f = (float)(rng_gauss(&R) * ldexp(1.0, -(int)k) *
				  (rng_below(&R, 8) ? 0.3 : 40));

		memcpy(p + i, &f, 4);
	}
	fill_random(p + i, len - i);
}

static void fill_gradient(uint8_t *p, size_t len, unsigned int k)
{
	size_t off;

	if (!grad_len || rng_below(&R, 3) == 0 || len > grad_len) {
		fill_gauss(p, len, k);
		return;
	}
	off = 4 * (size_t)rng_below(&R, (uint32_t)((grad_len - len) / 4 + 1));
	memcpy(p, grad + off, len);
}

/* a random frame shape; ipv < 0: any */
static void rand_spec(struct fspec *s, int ipv, int proto)
{
	memset(s, 0, sizeof(*s));
	s->vlans = (int)rng_below(&R, 3);
	s->ipv = ipv >= 0 ? ipv : (rng_below(&R, 8) ? (rng_below(&R, 2) ? 4 : 6) : 0);
	s->proto = proto ? proto : (rng_below(&R, 2) ? 6 : 17);
	s->tcp_opts = rng_below(&R, 3) ? 0 : 4 * (int)rng_below(&R, 11);
	s->ip4_opts = rng_below(&R, 4) ? 0 : 4 * (int)rng_below(&R, 11);
	s->udp_nocsum = s->ipv == 4 && rng_below(&R, 6) == 0;
	s->trailer = rng_below(&R, 8) == 0 ? rng_below(&R, 24) : 0;
}

/* a payload length for a frame of shape s: small, MTU-sized or jumbo */
static size_t rand_pay_len(const struct fspec *s, size_t max_frame)
{
	size_t hdr = frame_payload_off(s) + s->trailer;
	size_t max = max_frame > hdr ? max_frame - hdr : 0;
	size_t lim;
	uint32_t c = rng_below(&R, 10);

	if (c < 3)
		lim = 256;
	else if (c < 8)
		lim = 1500;
	else
		lim = max;
	if (lim > max)
		lim = max;
	if (c == 9 && rng_below(&R, 2))
		return max;	/* the largest frame */
	return rng_below(&R, (uint32_t)lim + 1);
}

/* an unmarked frame of any kind: every shape, runts, jumbo */
static void gen_unmarked(struct item *it, size_t max_frame)
{
	struct fspec s;
	uint8_t pay[MAXF];
	uint8_t f[MAXF + 64];
	size_t pay_len;
	uint32_t c = rng_below(&R, 12);

	if (c == 0) {
		/* a runt: 14..59 bytes */
		size_t len = 14 + rng_below(&R, 46);

		memset(&s, 0, sizeof(s));
		if (len >= 42 && rng_below(&R, 2)) {
			s.ipv = 4;
			s.proto = 17;
			pay_len = len - 42;
		} else {
			s.vlans = len >= 22 ? (int)rng_below(&R, 3) : 0;
			pay_len = len - 14 - 4 * (size_t)s.vlans;
		}
	} else {
		rand_spec(&s, -1, rng_below(&R, 10) ? 0 : (rng_below(&R, 2) ? 1 : 47));
		s.fragment = s.ipv == 4 && rng_below(&R, 8) == 0;
		pay_len = rand_pay_len(&s, max_frame);
	}
	fill_random(pay, pay_len);
	memset(it, 0, sizeof(*it));
	it->len = frame_build(&s, pay, pay_len, f);
	it->f = dup(f, it->len);
	it->len_field = (uint16_t)it->len;
	describe(it, &s, "unmarked");
}

/* a marked frame that can be compressed (or turns out to have no gain) */
static void gen_marked(struct item *it, size_t max_frame)
{
	struct fspec s;
	uint8_t pay[MAXF];
	uint8_t f[MAXF + 64];
	size_t pay_len, off, len;
	unsigned int k;

	memset(it, 0, sizeof(*it));
	rand_spec(&s, rng_below(&R, 2) ? 4 : 6, 0);
	do
		pay_len = rand_pay_len(&s, max_frame);
	while (pay_len < 4);
	off = rng_below(&R, 3) ? rng_below(&R, (uint32_t)(pay_len / 8 < 64 ? pay_len / 8 : 64) + 1) : 0;
	len = pay_len - off;
	if (rng_below(&R, 4) == 0)
		len -= rng_below(&R, (uint32_t)len);	/* a shorter range */
	if (rng_below(&R, 3) && len > 4)
		len &= ~(size_t)3;
	if (len > INC_CHUNK_MAX_BYTES)
		len = INC_CHUNK_MAX_BYTES;
	k = rng_below(&R, 4) ? 6 + rng_below(&R, 11) : 1 + rng_below(&R, 24);
	fill_random(pay, off);
	fill_gradient(pay + off, len, k);
	fill_random(pay + off + len, pay_len - off - len);
	it->len = frame_build(&s, pay, pay_len, f);
	it->f = dup(f, it->len);
	it->len_field = (uint16_t)it->len;
	it->o.compress = 1;
	it->o.k = k;
	it->o.mode = 1 + rng_below(&R, nic_modes() == INCW_MODES_ALL ? 3 : 2);
	it->o.range_off = (unsigned int)off;
	it->o.range_len = (unsigned int)len;
	it->range_at = frame_payload_off(&s) + off;
	it->range_len = len;
	it->k = k;
	describe(it, &s, "marked");
}

/* marked, but not to be compressed: every reason incw_tx knows */
static void gen_ineligible(struct item *it, size_t max_frame)
{
	struct fspec s;
	uint8_t pay[MAXF];
	uint8_t f[MAXF + 64];
	size_t pay_len;
	uint32_t why = rng_below(&R, 8);
	unsigned int k = 10, mode = 2, off = 0, len;

	memset(it, 0, sizeof(*it));
	rand_spec(&s, rng_below(&R, 2) ? 4 : 6, 0);
	switch (why) {
	case 0:
		s.ipv = 4;
		s.fragment = 1;
		break;
	case 1:
		s.ipv = 0;
		break;
	case 2:
		s.proto = rng_below(&R, 2) ? 1 : 47;
		break;
	default:
		break;
	}
	pay_len = rand_pay_len(&s, max_frame);
	if (pay_len < 16)
		pay_len = 16;
	len = (unsigned int)pay_len;
	fill_gauss(pay, pay_len, k);
	switch (why) {
	case 3:		/* bad range */
		switch (rng_below(&R, 4)) {
		case 0:
			len = 0;
			break;
		case 1:
			off = (unsigned int)pay_len + rng_below(&R, 100);
			len = 4;
			break;
		case 2:
			off = rng_below(&R, (uint32_t)pay_len);
			len = (unsigned int)pay_len - off + 1 + rng_below(&R, 64);
			break;
		default:
			off = 0;
			len = 65535;
			break;
		}
		break;
	case 4:		/* bad k */
		k = rng_below(&R, 2) ? 0 : 25 + rng_below(&R, 231);
		break;
	case 5:		/* bad mode, or width mode on a NIC without it */
		mode = rng_below(&R, 2) ? 0 : 3 + rng_below(&R, 253);
		if (nic_modes() == INCW_MODES_ALL && mode == 3)
			mode = 4;
		break;
	case 6:		/* no gain: random bytes */
		fill_random(pay, pay_len);
		break;
	case 7:		/* no gain: a tiny range */
		off = rng_below(&R, (uint32_t)pay_len - 8);
		len = 1 + rng_below(&R, 8);
		fill_random(pay, pay_len);
		break;
	default:
		break;
	}
	it->len = frame_build(&s, pay, pay_len, f);
	it->f = dup(f, it->len);
	it->len_field = (uint16_t)it->len;
	it->o.compress = 1;
	it->o.k = k;
	it->o.mode = mode;
	it->o.range_off = off;
	it->o.range_len = len;
	describe(it, &s, "ineligible");
}

/* ---------------------------------------------------------------- */
/* expectations                                                      */

/* what a NIC taking the chunk modes in modes sends for it */
static void expect_tx_modes(struct item *it, uint32_t max_frame, unsigned int modes)
{
	uint8_t out[MAXF + 64];
	struct incw_tx_req q;

	free(it->wire);
	it->wire = NULL;
	it->wire_len = 0;
	if (it->len_field < 14 || it->len_field > max_frame) {
		it->bad_len = 1;
		it->tx_res = -1;
		return;
	}
	q.compress = it->o.compress;
	q.k = it->o.k;
	q.mode = (enum inc_mode)it->o.mode;
	q.off = it->o.range_off;
	q.len = it->o.range_len;
	q.modes = modes;
	it->tx_res = incw_tx(it->f, it->len, &q, out, &it->wire_len);
	it->wire = dup(out, it->wire_len);
	if (it->tx_res == INCW_TX_COMPRESSED)
		it->orig = it->f;
}

/* what the model's NIC sends for it */
static void expect_tx(struct item *it, uint32_t max_frame)
{
	expect_tx_modes(it, max_frame, nic_modes());
}

/* what the receiver does with frame f (it->f, or it->wire in loopback) */
static void expect_rx(struct item *it, const uint8_t *f, size_t len,
		      uint32_t max_frame, size_t buf_len)
{
	uint8_t out[MAXF + 64];

	free(it->deliv);
	it->deliv = NULL;
	it->deliv_len = 0;
	it->deliver = 0;
	if (it->tuser || len > max_frame) {
		it->rx_res = -1;
		return;
	}
	it->rx_res = incw_rx(f, len, nic_modes(), out, &it->deliv_len);
	if (it->rx_res == INCW_RX_PASS || it->rx_res == INCW_RX_RESTORED) {
		it->deliv = dup(out, it->deliv_len);
		it->deliver = it->deliv_len <= buf_len;
	}
}

/* rx: tx's reference wire frame arriving on the MAC, with what the
 * receiving NIC must deliver for it (the original range, for the bound) */
static void rx_from_wire(struct item *rx, const struct item *tx)
{
	rx->f = dup(tx->wire, tx->wire_len);
	rx->len = tx->wire_len;
	memcpy(rx->desc, tx->desc, sizeof(rx->desc));
	rx->orig = tx->tx_res == INCW_TX_COMPRESSED ? tx->f : NULL;
	rx->range_at = tx->range_at;
	rx->range_len = tx->range_len;
	rx->k = tx->k;
	expect_rx(rx, rx->f, rx->len, 9018, BUF_SIZE);
}

/* the chunk header of an encapsulated frame: raw_len and body_len */
static int chunk_of(const uint8_t *f, size_t len, unsigned int *raw,
		    unsigned int *body)
{
	struct incw_frame fr;
	struct inc_chunk_hdr ch;

	incw_parse(f, len, &fr);
	if (!fr.ip_version || fr.proto != INCW_PROTO)
		return -1;
	if (fr.l4_off + INCW_SHIM_BYTES > len ||
	    inc_chunk_hdr_parse(f + fr.l4_off + 8, &ch))
		return -1;
	*raw = ch.raw_len;
	*body = ch.body_len;
	return 0;
}

/* ---------------------------------------------------------------- */
/* running traffic                                                   */

struct got {
	uint8_t *data;
	size_t len;
	uint32_t status;
	unsigned int buf_len, slot;
};

struct run {
	/* in */
	struct item *tx;
	size_t ntx;
	struct item *rx;	/* injected on the MAC RX port */
	size_t nrx;
	int loopback;		/* deliveries come from tx (wire), not rx */
	unsigned int window;	/* TX frames in flight (0: the ring) */
	uint16_t rx_buf_len;
	int no_refill;		/* do not post RX buffers */
	int allow_drops;	/* stop when quiet, not when all arrived */
	int rx_burst;		/* inject every RX frame at once (else at
				 * most RX_WINDOW deliverable frames are in
				 * the NIC at a time, as a MAC whose peer
				 * paces itself) */
	/* the RX window (0: RX_WINDOW frames, RX_BYTES bytes; a host whose
	 * writes complete late keeps delivered frames unresolved longer) */
	size_t rx_window, rx_bytes;
	int irq_rearm;		/* IRQ_ENABLE = 3 after each message */
	int churn;		/* register traffic all along (churn()) */
	uint64_t timeout;
	/* out */
	uint32_t *tx_status;
	size_t tx_done;
	struct got *got;
	size_t ngot, got_cap;
	size_t want;		/* deliveries expected */
	int timed_out;
	uint64_t clocks;
	uint64_t tx_clocks;	/* until the last TX completion was reaped */
	uint64_t rx_clocks;	/* until the last expected delivery */
	uint32_t status;	/* STATUS at the end */
	size_t rx_next;		/* next RX frame to inject */
	size_t *rx_deliv;	/* index of the i-th frame to be delivered */
	size_t rx_ngot_seen;
	uint64_t rx_progress;	/* clock of the last injection or delivery */
	/* the MAC's frames (the environment's count) and the NIC's
	 * rx_frames at the start: every frame must be counted */
	uint64_t env_rx0, nic_rx0;
	/* churn: its own randomness, and what it saw */
	struct rng crng;
	uint64_t churn_writes, churn_reads;
	uint64_t stat_last[INC_ST_N];
	uint64_t stat_backwards;	/* a counter read lower than before */
	/* RUN_SELFTEST through the mailbox while the frames flow */
	unsigned int selftests;		/* commands to run, spread over the run */
	uint32_t st_want;		/* the FW_SELFTEST bits each must give */
	unsigned int st_issued, st_ok;
	int st_busy;
	uint16_t st_seq;
	uint32_t st_last[5];		/* the last response's words 0..4 */
};

/*
 * Register traffic under load, as a driver and its tools make it: the
 * coalescing settings, the interrupt enables and W1C status, the MAC
 * address, MAX_FRAME and CTRL written again with their values, and 64-bit
 * statistics read (low then high word), none of which may disturb a frame.
 * Every counter must read at least what it read before: a torn 64-bit read
 * or a lost increment shows as a counter going backwards.
 */
static void churn(struct run *r)
{
	uint32_t v = (uint32_t)rng_next(&r->crng);
	int n;

	switch (rng_below(&r->crng, 8)) {
	case 0:
		wr(INC_IRQ_COAL_TX, INC_COAL(v & 31, (v >> 8) & 63));
		break;
	case 1:
		wr(INC_IRQ_COAL_RX, INC_COAL(v & 31, (v >> 8) & 63));
		break;
	case 2:
		wr(INC_IRQ_ENABLE, v & 3);
		break;
	case 3:
		wr(INC_IRQ_STATUS, v & 3);
		break;
	case 4:
		wr(INC_MAC_LO, v);
		wr(INC_MAC_HI, v >> 16 & 0xffff);
		break;
	case 5:
		wr(INC_MAX_FRAME, 9018);
		break;
	case 6:
		wr(INC_CTRL, rd(INC_CTRL));
		r->churn_reads++;
		break;
	default:
		n = (int)rng_below(&r->crng, INC_ST_N);
		{
			uint64_t c = nic_stat(env, n);

			if (c < r->stat_last[n])
				r->stat_backwards++;
			r->stat_last[n] = c;
		}
		r->churn_reads++;
		return;
	}
	r->churn_writes++;
}

/*
 * A MAC has no flow control towards the NIC: a NIC that falls behind drops
 * frames (and counts them), which is right but makes the deliveries
 * unpredictable. So RX frames go in only while few are unresolved (not
 * delivered, and not followed by a delivered frame): at most RX_WINDOW
 * frames and RX_BYTES bytes, or when nothing moved for a while. (The NIC
 * queues 16 frames in a 32 KiB ring, each from a beat's start: 30 KiB
 * leaves room for that; a frame it delivered stays unresolved until the
 * test has reaped it, so the window holds fewer in the NIC. A smaller
 * window, 12 frames and 24 KiB, held the NIC's receive rate at 16 lanes
 * back by 1-3%.)
 */
#define RX_WINDOW	16
#define RX_BYTES	(30u << 10)
/* a run gives up when no TX completion and no RX delivery came for this
 * long */
#define STALL_CLOCKS	100000

/*
 * RUN_SELFTEST while frames flow, back to back from the first TX
 * completion on, up to r->selftests of them: the doorbell rung without
 * waiting (vector 2 stays disabled, BUSY is polled), the response checked
 * when BUSY clears.
 */
static void selftest_under_load(struct run *r)
{
	unsigned int i;

	if (!r->st_busy) {
		if (r->st_issued < r->selftests && r->tx_done >= 1) {
			r->st_seq = (uint16_t)(0x5000 + r->st_issued);
			wr(INC_MBOX_CMD, (uint32_t)r->st_seq << 16 | INC_MBOX_OP_RUN_SELFTEST);
			wr(INC_MBOX_DOORBELL, 1);
			r->st_issued++;
			r->st_busy = 1;
		}
		return;
	}
	if (rd(INC_MBOX_STATUS) & INC_MBOX_STATUS_BUSY)
		return;
	r->st_busy = 0;
	for (i = 0; i < 5; i++)
		r->st_last[i] = rd((uint16_t)(INC_MBOX_RSP + 4 * i));
	if (r->st_last[0] == (uint32_t)r->st_seq << 16 && r->st_last[1] == r->st_want &&
	    r->st_last[3] == 0)
		r->st_ok++;
	else
		t_diag("RUN_SELFTEST under load: response 0x%08x, FW_SELFTEST 0x%04x (want 0x%04x), %u run, %u failed, first 0x%04x",
		       r->st_last[0], r->st_last[1], r->st_want, r->st_last[2], r->st_last[3],
		       r->st_last[4]);
}

static int rx_may_inject(struct run *r)
{
	size_t resolved = 0, bytes = 0, i;

	if (r->ngot != r->rx_ngot_seen) {
		r->rx_ngot_seen = r->ngot;
		r->rx_progress = nic_env_clock(env);
	}
	if (nic_env_rx_pending(env) >= 2)
		return 0;
	if (r->ngot && r->ngot <= r->want)
		resolved = r->rx_deliv[r->ngot - 1] + 1;
	if (resolved > r->rx_next)
		resolved = r->rx_next;
	for (i = resolved; i < r->rx_next; i++)
		bytes += r->rx[i].len;
	if (resolved == r->rx_next)
		return 1;
	if (nic_env_clock(env) - r->rx_progress > 3000)
		return 1;
	return r->rx_next - resolved < (r->rx_window ? r->rx_window : RX_WINDOW) &&
	       bytes + r->rx[r->rx_next].len <= (r->rx_bytes ? r->rx_bytes : RX_BYTES);
}

static void run_free(struct run *r)
{
	size_t i;

	free(r->tx_status);
	free(r->rx_deliv);
	r->rx_deliv = NULL;
	for (i = 0; i < r->ngot; i++)
		free(r->got[i].data);
	free(r->got);
	r->tx_status = NULL;
	r->got = NULL;
	r->ngot = r->got_cap = 0;
}

static void reap_rx(struct run *r, int refill)
{
	struct nic_rx_done d;
	int posted = 0;

	while (nic_drv_rx_reap(&drv, &d)) {
		struct got *g;

		if (r->ngot == r->got_cap) {
			r->got_cap = r->got_cap ? 2 * r->got_cap : 64;
			r->got = realloc(r->got, r->got_cap * sizeof(*r->got));
		}
		g = &r->got[r->ngot++];
		g->len = d.len;
		g->data = dup(d.data, d.len <= BUF_SIZE ? d.len : BUF_SIZE);
		if (d.len > BUF_SIZE)
			g->len = BUF_SIZE;
		g->status = d.status;
		g->buf_len = d.buf_len;
		g->slot = d.slot;
		if (refill && nic_drv_rx_post(&drv, r->rx_buf_len) >= 0)
			posted = 1;
	}
	if (posted)
		nic_drv_rx_kick(&drv);
}

static void run_traffic(struct run *r)
{
	size_t posted = 0, i;
	uint64_t t0, drain_end = 0;
	struct nic_tx_done td;
	size_t irqs = nic_env_irq_count(env);
	unsigned int iter = 0;
	size_t seen_tx = 0, seen_rx = 0;
	uint64_t moved;

	r->env_rx0 = nic_env_counts(env)->rx_frames;
	r->nic_rx0 = nic_stat(env, INC_ST_RX_FRAMES);
	t0 = nic_env_clock(env);
	moved = t0;
	r->tx_status = calloc(r->ntx + 1, sizeof(*r->tx_status));
	r->tx_done = 0;
	r->tx_clocks = 0;
	r->rx_clocks = 0;
	r->want = 0;
	if (r->loopback) {
		for (i = 0; i < r->ntx; i++)
			r->want += r->tx[i].deliver;
	} else {
		r->rx_deliv = calloc(r->nrx + 1, sizeof(*r->rx_deliv));
		for (i = 0; i < r->nrx; i++)
			if (r->rx[i].deliver)
				r->rx_deliv[r->want++] = i;
	}
	r->rx_next = 0;
	r->rx_ngot_seen = 0;
	r->rx_progress = t0;
	if (!r->no_refill) {
		while (nic_drv_rx_space(&drv))
			nic_drv_rx_post(&drv, r->rx_buf_len);
		nic_drv_rx_kick(&drv);
	}
	for (;;) {
		int kick = 0;

		while (r->rx_next < r->nrx && (r->rx_burst || rx_may_inject(r))) {
			const struct item *it = &r->rx[r->rx_next++];

			nic_env_rx_inject(env, it->f, it->len, it->tuser, it->idle);
			r->rx_progress = nic_env_clock(env);
		}

		while (posted < r->ntx && nic_drv_tx_space(&drv)) {
			struct item *it = &r->tx[posted];
			size_t inflight = posted - (r->loopback ? r->ngot : r->tx_done);

			/* (a frame dropped when it should not be must not
			 * stop the run: after a while without progress,
			 * the next one goes anyway) */
			if (r->window && inflight >= r->window &&
			    nic_env_clock(env) - moved < 3000)
				break;
			nic_drv_tx_post_desc(&drv, it->f, it->len, it->len_field, &it->o);
			posted++;
			kick = 1;
		}
		if (kick)
			nic_drv_tx_kick(&drv);
		nic_env_step(env, 16);
		if (r->churn && iter % 2 == 0)
			churn(r);
		if (r->selftests && iter % 4 == 0)
			selftest_under_load(r);
		if (++iter % 8 == 0) {
			/* CONS never passes a descriptor whose DONE is not
			 * visible yet (nic_drv_errors.cons_ahead) */
			nic_drv_tx_cons(&drv);
			nic_drv_rx_cons(&drv);
		}
		while (nic_drv_tx_reap(&drv, &td))
			r->tx_status[r->tx_done++] = td.status;
		reap_rx(r, !r->no_refill);
		if (r->irq_rearm && nic_env_irq_count(env) != irqs) {
			irqs = nic_env_irq_count(env);
			wr(INC_IRQ_ENABLE, 3);
		}
		if (r->tx_done == r->ntx && !nic_env_rx_pending(env) &&
		    r->rx_next == r->nrx &&
		    (r->allow_drops || r->ngot >= r->want)) {
			/* then some more, to see anything extra */
			if (!drain_end)
				drain_end = nic_env_clock(env) + 3000;
			else if (nic_env_clock(env) >= drain_end)
				break;
		}
		if (r->tx_done == r->ntx && !r->tx_clocks)
			r->tx_clocks = nic_env_clock(env) - t0;
		if (r->ngot >= r->want && r->rx_next == r->nrx && !r->rx_clocks)
			r->rx_clocks = nic_env_clock(env) - t0;
		if (r->tx_done != seen_tx || r->ngot != seen_rx) {
			seen_tx = r->tx_done;
			seen_rx = r->ngot;
			moved = nic_env_clock(env);
		}
		if (nic_env_clock(env) - t0 > r->timeout ||
		    nic_env_clock(env) - moved > STALL_CLOCKS) {
			r->timed_out = 1;
			break;
		}
	}
	r->clocks = nic_env_clock(env) - t0;
	r->status = rd(INC_STATUS);
	if (r->timed_out)
		t_diag("gave up after %llu clocks (%llu without progress): %zu of %zu TX completions, %zu of %zu RX deliveries, %zu RX frames not yet injected; rx_drop_no_buffer %llu, rx_drop_malformed %llu",
		       (unsigned long long)r->clocks,
		       (unsigned long long)(nic_env_clock(env) - moved),
		       r->tx_done, r->ntx, r->ngot,
		       r->want, nic_env_rx_pending(env) + (r->nrx - r->rx_next),
		       (unsigned long long)nic_stat(env, INC_ST_RX_DROP_NO_BUFFER),
		       (unsigned long long)nic_stat(env, INC_ST_RX_DROP_MALFORMED));
}

/* ---- checks on a run ---- */

/* frames on m_axis_tx are the expected wire frames, in order */
static int check_wire(const struct run *r, const char *what)
{
	size_t i, j = 0, bad = 0, n = nic_env_tx_count(env), want = 0;
	size_t comp = 0, bigger = 0, csum = 0;

	for (i = 0; i < r->ntx; i++)
		want += !r->tx[i].bad_len;
	for (i = 0; i < r->ntx && j < n; i++) {
		const struct item *it = &r->tx[i];
		const struct nic_frame *f;

		if (it->bad_len)
			continue;
		f = nic_env_tx_frame(env, j++);
		if (f->len != it->wire_len || memcmp(f->data, it->wire, f->len)) {
			if (bad++ < DIAG_MAX)
				diff_diag("TX frame", i, it->desc, it->wire,
					  it->wire_len, f->data, f->len);
			dump_frame(what, i, "got", f->data, f->len);
			dump_frame(what, i, "want", it->wire, it->wire_len);
			dump_frame(what, i, "orig", it->f, it->len);
		}
		if (it->tx_res == INCW_TX_COMPRESSED) {
			comp++;
			bigger += f->len >= it->len;
			csum += !frame_csums_ok(f->data, f->len);
		}
	}
	t_ok(!bad && n == want,
	     "%s: the %zu frames on m_axis_tx are incw_tx()'s frames byte for byte (%zu seen, %zu differ)",
	     what, want, n, bad);
	if (comp)
		t_ok(!bigger && !csum,
		     "%s: the %zu compressed frames are smaller on the wire, IPv4 header checksums right (%zu not smaller, %zu bad)",
		     what, comp, bigger, csum);
	return !bad && n == want;
}

/* TX descriptor status words */
static int check_tx_status(const struct run *r, const char *what)
{
	size_t i, bad = 0;

	for (i = 0; i < r->ntx; i++) {
		const struct item *it = &r->tx[i];
		uint32_t st = i < r->tx_done ? r->tx_status[i] : 0, want;

		if (it->bad_len)
			want = INC_DESC_DONE | INC_TXS_ERROR;
		else
			want = INC_DESC_DONE |
			       (it->tx_res == INCW_TX_COMPRESSED ? INC_TXS_COMPRESSED : 0) |
			       (uint32_t)it->tx_res << 16 | (uint32_t)it->wire_len;
		if (it->bad_len ? (st & (INC_DESC_DONE | INC_TXS_ERROR | INC_TXS_COMPRESSED)) != want :
				  st != want) {
			if (bad++ < DIAG_MAX)
				t_diag("TX status %zu (%s): 0x%08x, expected 0x%08x (%s%s, %u bytes)",
				       i, it->desc, st, want,
				       it->bad_len ? "error" : incw_tx_result_name(it->tx_res),
				       it->bad_len ? ", outcome and bytes not checked" : "",
				       it->bad_len ? 0 : (unsigned int)it->wire_len);
		}
	}
	t_ok(!bad && r->tx_done == r->ntx,
	     "%s: %zu TX completions, status DONE/COMPRESSED/ERROR, outcome and bytes sent as incw_tx() says (%zu wrong, %zu completed)",
	     what, r->ntx, bad, r->tx_done);
	return !bad;
}

/* deliveries are the expected frames, in order, nothing else */
static int check_rx(const struct run *r, const char *what)
{
	const struct item *src = r->loopback ? r->tx : r->rx;
	size_t n = r->loopback ? r->ntx : r->nrx;
	size_t i, j = 0, bad = 0, bound = 0, csum = 0, restored = 0;

	for (i = 0; i < n && j < r->ngot; i++) {
		const struct item *it = &src[i];
		const struct got *g;
		uint32_t st_want;

		if (!it->deliver)
			continue;
		g = &r->got[j++];
		st_want = INC_DESC_DONE |
			  (it->rx_res == INCW_RX_RESTORED ? INC_RXS_RESTORED : 0);
		if (g->len != it->deliv_len || memcmp(g->data, it->deliv, g->len) ||
		    g->status != st_want) {
			dump_frame(what, i, "rx-sent", r->loopback ? it->wire : it->f,
				   r->loopback ? it->wire_len : it->len);
			dump_frame(what, i, "rx-got", g->data, g->len);
			dump_frame(what, i, "rx-want", it->deliv, it->deliv_len);
			if (bad++ < DIAG_MAX) {
				diff_diag("RX delivery", i, it->desc, it->deliv,
					  it->deliv_len, g->data, g->len);
				t_diag("    status 0x%08x, expected 0x%08x (%s)", g->status,
				       st_want, incw_rx_result_name(it->rx_res));
			}
			continue;
		}
		if (it->rx_res == INCW_RX_RESTORED && it->orig) {
			double maxerr = 0;

			restored++;
			if (t_check_bound(it->orig + it->range_at, g->data + it->range_at,
					  it->range_len, it->k, &maxerr) && bound++ < DIAG_MAX)
				t_diag("RX delivery %zu (%s): range outside 2^-%u (max error %g)",
				       i, it->desc, it->k, maxerr);
			if (!frame_csums_ok(g->data, g->len) && csum++ < DIAG_MAX)
				t_diag("RX delivery %zu (%s): checksums wrong", i, it->desc);
		}
	}
	t_ok(!bad && r->ngot == r->want,
	     "%s: the host gets incw_rx()'s %zu frames bit-exact with the right status, in order, nothing else (%zu delivered, %zu differ)",
	     what, r->want, r->ngot, bad);
	if (!r->loopback) {
		/* the MAC cannot be held: every frame it gave is taken and
		 * counted, delivered or dropped */
		uint64_t mac = nic_env_counts(env)->rx_frames - r->env_rx0;
		uint64_t nic = nic_stat(env, INC_ST_RX_FRAMES) - r->nic_rx0;

		t_ok(nic == mac,
		     "%s: the NIC counts in rx_frames every frame the MAC gave it (%llu of %llu)",
		     what, (unsigned long long)nic, (unsigned long long)mac);
	}
	if (restored)
		t_ok(!bound && !csum,
		     "%s: the %zu restored frames hold the range within 2^-k and correct checksums (%zu out of bound, %zu bad checksums)",
		     what, restored, bound, csum);
	return !bad && r->ngot == r->want;
}

/* n frames sent (tx) and n received (rx) on the MAC at once, the frames
 * on the wire, the TX statuses and the deliveries checked; r is left for
 * the caller's figures (run_free it) */
static void run_mac_paced(struct run *r, const char *name, struct item *tx,
			  struct item *rx, size_t n, uint64_t timeout, size_t rx_window,
			  size_t rx_bytes)
{
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(r, 0, sizeof(*r));
	r->rx_window = rx_window;
	r->rx_bytes = rx_bytes;
	r->tx = tx;
	r->ntx = n;
	r->rx = rx;
	r->nrx = n;
	r->rx_buf_len = BUF_SIZE;
	r->timeout = timeout;
	run_traffic(r);
	check_wire(r, name);
	check_tx_status(r, name);
	check_rx(r, name);
}

static void run_mac_checked(struct run *r, const char *name, struct item *tx,
			    struct item *rx, size_t n, uint64_t timeout)
{
	run_mac_paced(r, name, tx, rx, n, timeout, 0, 0);
}

static void check_idle(const struct run *r, const char *what)
{
	t_ok(!r->timed_out && (r->status & (INC_STATUS_TX_IDLE | INC_STATUS_RX_IDLE)) ==
			      (INC_STATUS_TX_IDLE | INC_STATUS_RX_IDLE),
	     "%s: finished in %llu clocks, STATUS says TX and RX idle (0x%x)",
	     what, (unsigned long long)r->clocks, r->status);
}

/* ---------------------------------------------------------------- */
/* phases                                                            */

static struct nic_env_cfg cfg_std;

static int only_exact;		/* NIC_PHASE names a phase exactly */

static int want_phase(const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (only && strchr(only, ',')) {
		/* a list of names */
		for (p = only; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
				return 1;
		return 0;
	}
	return !only || (only_exact ? !strcmp(name, only) : !!strstr(name, only));
}

static int phase_begin(const char *name, const struct nic_env_cfg *cfg,
		       unsigned int tx_log2, unsigned int rx_log2,
		       uint32_t max_frame)
{
	t_diag("---- %s", name);
	nic_drv_fini(&drv);
	nic_env_set_cfg(env, cfg);
	nic_env_reset(env);
	nic_env_free_all(env);
	if (nic_drv_init(&drv, env, tx_log2, rx_log2, BUF_SIZE)) {
		t_ok(0, "%s: driver set-up", name);
		return -1;
	}
	if (max_frame)
		wr(INC_MAX_FRAME, max_frame);
	return 0;
}

static void phase_end(const char *name)
{
	const struct nic_env_errors *e = nic_env_errors(env);
	const struct nic_drv_errors *d = &drv.err;
	uint64_t n = nic_env_error_total(env) + nic_drv_error_total(&drv);

	if (n)
		t_diag("dma_range %llu dma_proto %llu axis_proto %llu tx_gap %llu stability %llu irq_vector %llu csr_proto %llu csr_timeout %llu csr_resp %llu | rx_done_before_data %llu desc_clobber %llu stray_write %llu rx_overrun %llu cons_ahead %llu done_unposted %llu",
		       (unsigned long long)e->dma_range, (unsigned long long)e->dma_proto,
		       (unsigned long long)e->axis_proto, (unsigned long long)e->tx_gap,
		       (unsigned long long)e->stability,
		       (unsigned long long)e->irq_vector,
		       (unsigned long long)e->csr_proto, (unsigned long long)e->csr_timeout,
		       (unsigned long long)e->csr_resp,
		       (unsigned long long)d->rx_done_before_data,
		       (unsigned long long)d->desc_clobber, (unsigned long long)d->stray_write,
		       (unsigned long long)d->rx_overrun, (unsigned long long)d->cons_ahead,
		       (unsigned long long)d->done_unposted);
	t_ok(!n, "%s: interfaces and ordering clean: AXI handshakes, keep masks, no MAC TX underrun, DMA bounds, descriptor ownership, data before DONE (%llu problems)",
	     name, (unsigned long long)n);
}

/* ---- 1. ID block and control registers ---- */

static void phase_id(void)
{
	const char *name = "id";
	uint32_t v, pat[4] = { 0xdeadbeef, 0, 0xffffffff, 0x12345678 };
	int i, ok = 1, resp = -1;

	if (phase_begin(name, &cfg_std, 4, 4, 0))
		return;
	v = rd(INC_MAGIC);
	t_ok(v == INC_MAGIC_VALUE, "MAGIC is 0x%08x (0x%08x)", INC_MAGIC_VALUE, v);
	v = rd(INC_VERSION);
	t_ok(v >> 16 == 1 && (v >> 8 & 255) >= 5, "VERSION 1.5 or later (0x%08x: %u.%u.%u)",
	     v, v >> 16, v >> 8 & 255, v & 255);
	v = rd(INC_FEATURES);
	t_ok((v & 0xfff) == 0xfff,
	     "FEATURES has bits 0..11: compression, decompression, paper, sparse, IPv6, VLAN, loopback, moderation, jumbo, 64-bit stats, link speed, queue flush (0x%08x)",
	     v);
	t_ok(!!(v & INC_FEAT_MODE_WIDTH) == (nic_modes() == INCW_MODES_ALL) &&
	     (v & INC_FEAT_MGMT) && (v & INC_FEAT_TPORT) && v >> 15 == 0,
	     "FEATURES bit 12 (width mode) %s at %u lanes, bits 13 (management) and 14 (engine test port) set, no bit above them (0x%08x)",
	     nic_modes() == INCW_MODES_ALL ? "set" : "clear", vl_nic_beat() / 4, v);
	v = rd(INC_LINK_SPEED);
	t_ok(v == nic_env_get_cfg(env)->link_speed && v,
	     "LINK_SPEED reads the link_speed input (%u Mbit/s)", v);
	{
		struct nic_env_cfg c = *nic_env_get_cfg(env);
		uint32_t was = c.link_speed;

		c.link_speed = 25000;
		nic_env_set_cfg(env, &c);
		v = rd(INC_LINK_SPEED);
		t_ok(v == 25000, "LINK_SPEED follows the input: 25000 (%u)", v);
		c.link_speed = was;
		nic_env_set_cfg(env, &c);
	}
	v = rd(INC_CONFIG);
	t_ok((v & 255) == vl_nic_beat() / 4 && (v >> 8 & 255) == 1 && v >> 16 == 9018,
	     "CONFIG: %u lanes (the model's beat / 4), 1 queue pair, largest frame 9018 (0x%08x: %u, %u, %u)",
	     vl_nic_beat() / 4,
	     v, v & 255, v >> 8 & 255, v >> 16);
	for (i = 0; i < 4; i++) {
		wr(INC_SCRATCH, pat[i]);
		v = rd(INC_SCRATCH);
		if (v != pat[i]) {
			t_diag("SCRATCH: wrote 0x%08x, read 0x%08x", pat[i], v);
			ok = 0;
		}
	}
	t_ok(ok, "SCRATCH reads back what was written");
	t_diag("BUILD 0x%08x", rd(INC_BUILD));
	v = rd(INC_MAX_FRAME);
	wr(INC_MAX_FRAME, 9018);
	t_ok(v == 1518 && rd(INC_MAX_FRAME) == 9018,
	     "MAX_FRAME is 1518 after reset (%u) and takes 9018", v);
	wr(INC_MAC_LO, 0x44332211);
	wr(INC_MAC_HI, 0x6655);
	v = rd(INC_MAC_LO);
	t_ok(v == 0x44332211 && (rd(INC_MAC_HI) & 0xffff) == 0x6655,
	     "MAC_LO / MAC_HI read back (0x%08x)", v);
	v = rd(INC_STATUS);
	nic_env_set_link(env, 0);
	nic_env_step(env, 8);
	ok = (v & INC_STATUS_LINK) && !(rd(INC_STATUS) & INC_STATUS_LINK);
	nic_env_set_link(env, 1);
	nic_env_step(env, 8);
	ok = ok && (rd(INC_STATUS) & INC_STATUS_LINK);
	t_ok(ok, "STATUS bit 0 follows link_up");
	v = rd(INC_STATUS);
	t_ok((v & 6) == 6, "STATUS: TX and RX idle after reset (0x%x)", v);
	v = rd(INC_TXQ + INC_Q_BASE_LO);
	t_ok(v == (uint32_t)drv.tx_ring && rd(INC_RXQ + INC_Q_SIZE) == 4 &&
	     rd(INC_TXQ + INC_Q_CONS) == 0 && rd(INC_RXQ + INC_Q_PROD) == 0,
	     "queue registers read back, CONS 0 after reset");
	{
		int bad = 0;

		for (i = 0; i < INC_ST_N; i++)
			if (nic_stat(env, i)) {
				t_diag("stat %s is %llu after reset", nic_stat_name(i),
				       (unsigned long long)nic_stat(env, i));
				bad++;
			}
		t_ok(!bad, "all %d statistics counters read 0 after reset", INC_ST_N);
	}
	nic_csr_read_resp(env, 0x0ffc, &v, &resp);
	t_diag("a read of an unused address (0x0ffc): 0x%08x, rresp %d", v, resp);
	phase_end(name);
}

/* ---- enables ---- */

static int tx_done_n(struct nic_env *e, void *ctx);
static int env_quiet(struct nic_env *e, void *ctx);
static int nic_idle(struct nic_env *e, void *ctx);

static void phase_control(void)
{
	const char *name = "control";
	struct item it[4];
	struct run r;
	size_t i;
	uint64_t rd0, wr0;
	unsigned int three = 3;
	int ok;

	if (phase_begin(name, &cfg_std, 4, 4, 9018))
		return;
	memset(it, 0, sizeof(it));
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 4; i++) {
		gen_unmarked(&it[i], 1518);
		expect_tx(&it[i], 9018);
	}
	rd0 = nic_env_counts(env)->rd_reqs;
	wr0 = nic_env_counts(env)->wr_reqs;
	for (i = 0; i < 3; i++)
		nic_drv_tx_post(&drv, it[i].f, it[i].len, NULL);
	nic_drv_tx_kick(&drv);
	for (i = 0; i < 4; i++)
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	nic_env_step(env, 3000);
	ok = nic_env_counts(env)->rd_reqs == rd0 && nic_env_tx_count(env) == 0 &&
	     rd(INC_TXQ + INC_Q_CONS) == 0;
	t_ok(ok, "%s: CTRL 0: posted TX descriptors wait (no DMA read, nothing sent, CONS 0)",
	     name);
	nic_env_rx_inject(env, it[3].f, it[3].len, 0, 0);
	nic_env_run_until(env, env_quiet, NULL, 100000);
	nic_env_step(env, 2000);
	ok = nic_drv_rx_done_pending(&drv) == 0 &&
	     nic_env_counts(env)->wr_reqs == wr0 && rd(INC_RXQ + INC_Q_CONS) == 0;
	t_ok(ok, "%s: CTRL 0: a frame from the MAC is not delivered (no DMA write, CONS 0)",
	     name);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	ok = !nic_env_run_until(env, tx_done_n, &three, 100000);
	/* (DONE says the frame was read; it may still be in the NIC's FIFO) */
	nic_env_run_until(env, nic_idle, NULL, 100000);
	ok = ok && nic_env_tx_count(env) == 3;
	for (i = 0; ok && i < 3; i++) {
		const struct nic_frame *f = nic_env_tx_frame(env, i);

		ok = f->len == it[i].len && !memcmp(f->data, it[i].f, f->len);
	}
	nic_env_rx_inject(env, it[3].f, it[3].len, 0, 0);
	nic_env_run_until(env, env_quiet, NULL, 100000);
	nic_env_step(env, 2000);
	reap_rx(&r, 0);
	ok = ok && r.ngot == 1 && r.got[0].len == it[3].len &&
	     !memcmp(r.got[0].data, it[3].f, it[3].len);
	t_ok(ok, "%s: TX_EN | RX_EN: the waiting frames go out in order, a new frame is delivered (%zu sent, %zu delivered)",
	     name, nic_env_tx_count(env), r.ngot);
	wr(INC_CTRL, 0);
	run_free(&r);
	for (i = 0; i < 4; i++)
		item_free(&it[i]);
	phase_end(name);
}

/*
 * The DMA read arbiter: RX asks for a descriptor while the bridge takes no
 * request, so the arbiter locks onto RX; then RX_EN goes off. RX must keep
 * its request up until it is taken (it used to withdraw it, and the lock
 * then kept TX out for good), and TX must get the bus after it.
 */
static void phase_arbiter(void)
{
	const char *name = "dma/arbiter";
	struct nic_env_cfg c = cfg_std;
	struct item it[2];
	struct run r;
	unsigned int one = 1;
	int ok;

	c.rx_gap = 0;
	c.rx_ifg_max = 0;
	if (phase_begin(name, &c, 4, 4, 9018))
		return;
	memset(it, 0, sizeof(it));
	memset(&r, 0, sizeof(r));
	gen_unmarked(&it[0], 1518);
	gen_unmarked(&it[1], 1518);
	expect_tx(&it[1], 9018);
	nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	/* no read request is taken from now on */
	c.rd_req_stall = 1.0;
	nic_env_set_cfg(env, &c);
	nic_env_rx_inject(env, it[0].f, it[0].len, 0, 0);
	nic_env_step(env, 3000);
	ok = nic_env_io(env)->m_dma_rd_req_valid;
	t_ok(ok, "%s: RX's descriptor read waits on a stalled bridge", name);
	wr(INC_CTRL, INC_CTRL_TX_EN);		/* RX off while it waits */
	nic_env_step(env, 200);
	ok = nic_env_io(env)->m_dma_rd_req_valid;
	t_ok(ok, "%s: RX_EN off: the request stays up until taken", name);
	c.rd_req_stall = 0;
	nic_env_set_cfg(env, &c);
	nic_drv_tx_post(&drv, it[1].f, it[1].len, NULL);
	nic_drv_tx_kick(&drv);
	ok = !nic_env_run_until(env, tx_done_n, &one, 200000);
	nic_env_run_until(env, env_quiet, NULL, 100000);
	ok = ok && nic_env_tx_count(env) == 1 &&
	     nic_env_tx_frame(env, 0)->len == it[1].len &&
	     !memcmp(nic_env_tx_frame(env, 0)->data, it[1].f, it[1].len);
	t_ok(ok, "%s: then TX gets the bus: its frame goes out (%zu sent)", name,
	     nic_env_tx_count(env));
	reap_rx(&r, 0);
	ok = r.ngot == 1 && r.got[0].len == it[0].len &&
	     !memcmp(r.got[0].data, it[0].f, it[0].len);
	t_ok(ok, "%s: the RX frame whose request was up is delivered whole (%zu)", name, r.ngot);
	wr(INC_CTRL, 0);
	run_free(&r);
	item_free(&it[0]);
	item_free(&it[1]);
	phase_end(name);
}

/*
 * Loopback changes only between frames: LOOPBACK set while a frame is on
 * its way to the MAC (the MAC holding it back) leaves that frame whole on
 * the MAC and sends the next one to RX; cleared while a frame loops back,
 * the same the other way.
 */
static int mac_mid_frame(struct nic_env *e, void *ctx)
{
	(void)ctx;
	return nic_env_tx_partial(e) > 0;
}

static int nic_idle(struct nic_env *e, void *ctx)
{
	(void)ctx;
	return nic_env_idle(e);
}

static void phase_loopback_switch(void)
{
	const char *name = "loopback/switch";
	struct nic_env_cfg c = cfg_std;
	struct item it[3];
	struct run r;
	unsigned int n;
	int ok, got_it;

	c.tx_stall = 0.95;	/* the MAC takes a beat now and then */
	if (phase_begin(name, &c, 4, 4, 9018))
		return;
	memset(it, 0, sizeof(it));
	memset(&r, 0, sizeof(r));
	for (n = 0; n < 3; n++) {
		gen_unmarked(&it[n], 9018);
		while (it[n].len < 4000) {	/* long enough to be caught inside */
			item_free(&it[n]);
			gen_unmarked(&it[n], 9018);
		}
		expect_tx(&it[n], 9018);
	}
	for (n = 0; n < 4; n++)
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	nic_drv_tx_post(&drv, it[0].f, it[0].len, NULL);
	nic_drv_tx_kick(&drv);
	ok = !nic_env_run_until(env, mac_mid_frame, NULL, 200000);
	t_ok(ok, "%s: a frame is half way to the MAC (%zu bytes)", name,
	     nic_env_tx_partial(env));
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN | INC_CTRL_LOOPBACK);
	nic_drv_tx_post(&drv, it[1].f, it[1].len, NULL);
	nic_drv_tx_kick(&drv);
	n = 2;
	ok = !nic_env_run_until(env, tx_done_n, &n, 2000000);
	nic_env_run_until(env, nic_idle, NULL, 2000000);
	reap_rx(&r, 0);
	got_it = r.ngot == 1 && r.got[0].len == it[1].wire_len &&
		 !memcmp(r.got[0].data, it[1].wire, it[1].wire_len);
	ok = ok && nic_env_tx_count(env) == 1 &&
	     nic_env_tx_frame(env, 0)->len == it[0].len &&
	     !memcmp(nic_env_tx_frame(env, 0)->data, it[0].f, it[0].len);
	t_ok(ok && got_it, "%s: LOOPBACK set mid-frame: that frame reaches the MAC whole, the next loops back to RX (%zu on the MAC, %zu on RX)",
	     name, nic_env_tx_count(env), r.ngot);
	/* and back: the next frame goes out to the MAC */
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	nic_drv_tx_post(&drv, it[2].f, it[2].len, NULL);
	nic_drv_tx_kick(&drv);
	n = 3;
	ok = !nic_env_run_until(env, tx_done_n, &n, 2000000);
	nic_env_run_until(env, nic_idle, NULL, 2000000);
	ok = ok && nic_env_tx_count(env) == 2 &&
	     nic_env_tx_frame(env, 1)->len == it[2].len &&
	     !memcmp(nic_env_tx_frame(env, 1)->data, it[2].f, it[2].len);
	t_ok(ok, "%s: LOOPBACK cleared: the next frame goes to the MAC whole", name);
	wr(INC_CTRL, 0);
	run_free(&r);
	for (n = 0; n < 3; n++)
		item_free(&it[n]);
	phase_end(name);
}

/*
 * A reset of the NIC while the MAC is inside an RX frame: the MAC's stream
 * does not stop for it, so the frame's tail arrives after the reset, when
 * the driver has set the NIC up again. It must be dropped (rx_drop_mac),
 * not delivered as a frame; the next frame arrives whole. A reset between
 * frames loses nothing.
 */
static int rx_mid_frame(struct nic_env *e, void *ctx)
{
	(void)ctx;
	return nic_env_rx_partial(e) >= *(size_t *)ctx;
}

static int rx_reset_round(const char *name, int inside, struct item *a,
			  struct item *b, struct run *r)
{
	size_t at = a->len / 2;
	unsigned int n;
	int ok;

	nic_drv_fini(&drv);
	nic_env_free_all(env);
	if (nic_drv_init(&drv, env, 4, 4, BUF_SIZE))
		return 0;
	wr(INC_MAX_FRAME, 9018);
	for (n = 0; n < 4; n++)
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	wr(INC_CTRL, INC_CTRL_RX_EN);
	nic_env_rx_inject(env, a->f, a->len, 0, 0);
	if (inside) {
		ok = !nic_env_run_until(env, rx_mid_frame, &at, 200000);
		t_ok(ok, "%s: the MAC is inside a frame (%zu of %zu bytes given)",
		     name, nic_env_rx_partial(env), a->len);
	} else {
		ok = !nic_env_run_until(env, nic_idle, NULL, 2000000) &&
		     nic_env_rx_pending(env) == 0;
		reap_rx(r, 0);
		t_ok(ok && r->ngot == 1, "%s: the first frame arrived before the reset (%zu)",
		     name, r->ngot);
	}
	/* the NIC is reset and set up again while the MAC holds still */
	nic_env_set_rx_pause(env, 1);
	nic_drv_fini(&drv);
	nic_env_reset_nic(env);
	nic_env_free_all(env);
	if (nic_drv_init(&drv, env, 4, 4, BUF_SIZE))
		return 0;
	wr(INC_MAX_FRAME, 9018);
	for (n = 0; n < 4; n++)
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	wr(INC_CTRL, INC_CTRL_RX_EN);
	nic_env_rx_inject(env, b->f, b->len, 0, 0);
	nic_env_set_rx_pause(env, 0);
	ok = !nic_env_run_until(env, nic_idle, NULL, 2000000) &&
	     nic_env_rx_pending(env) == 0;
	reap_rx(r, 0);
	return ok;
}

static void phase_reset_rx(void)
{
	const char *name = "reset/rx-cut";
	struct item a, b;
	struct run r;
	uint64_t drop;
	int ok;

	if (phase_begin(name, &cfg_std, 4, 4, 9018))
		return;
	memset(&r, 0, sizeof(r));
	gen_unmarked(&a, 9018);
	while (a.len < 3000) {
		item_free(&a);
		gen_unmarked(&a, 9018);
	}
	gen_unmarked(&b, 9018);
	ok = rx_reset_round(name, 1, &a, &b, &r);
	drop = nic_stat(env, INC_ST_RX_DROP_MAC);
	t_ok(ok && r.ngot == 1 && r.got[0].len == b.len &&
	     !memcmp(r.got[0].data, b.f, b.len),
	     "%s: reset inside a frame: its tail is not delivered, the next frame is (%zu delivered, first %zu bytes, want %zu)",
	     name, r.ngot, r.ngot ? r.got[0].len : 0, b.len);
	t_ok(drop == 1, "%s: the cut frame's tail counted in rx_drop_mac (%llu)",
	     name, (unsigned long long)drop);
	t_ok(nic_stat(env, INC_ST_RX_FRAMES) == 1,
	     "%s: rx_frames counts only the whole frame (%llu)", name,
	     (unsigned long long)nic_stat(env, INC_ST_RX_FRAMES));
	run_free(&r);
	memset(&r, 0, sizeof(r));
	ok = rx_reset_round(name, 0, &a, &b, &r);
	t_ok(ok && r.ngot == 2 && r.got[1].len == b.len &&
	     !memcmp(r.got[1].data, b.f, b.len) &&
	     nic_stat(env, INC_ST_RX_DROP_MAC) == 0,
	     "%s: reset between frames: the first frame after it is delivered whole (%zu delivered, drop_mac %llu)",
	     name, r.ngot, (unsigned long long)nic_stat(env, INC_ST_RX_DROP_MAC));
	wr(INC_CTRL, 0);
	run_free(&r);
	item_free(&a);
	item_free(&b);
	phase_end(name);
}

/* ---- per-queue flush (QFLUSH) ---- */

/* Write QFLUSH's bit and read it until it clears: the clocks it took, or
 * -1 after 200000. */
static long flush_queue(uint32_t bit)
{
	uint64_t t0 = nic_env_clock(env);

	wr(INC_QFLUSH, bit);
	while (rd(INC_QFLUSH) & bit) {
		if (nic_env_clock(env) - t0 > 200000)
			return -1;
		nic_env_step(env, 16);
	}
	return (long)(nic_env_clock(env) - t0);
}

/* TX statuses reaped into r (r->tx_status, r->tx_done) */
static void reap_tx(struct run *r)
{
	struct nic_tx_done td;

	while (nic_drv_tx_reap(&drv, &td))
		r->tx_status[r->tx_done++] = td.status;
}

/* every RX slot posted with a full buffer, the doorbell rung */
static void post_all_rx(void)
{
	while (nic_drv_rx_space(&drv))
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
}

/* RX buffers, the TX frames tx[0..n) posted and the RX frames rx[0..nrx)
 * given to the MAC (gap idle clocks after each), both queues on */
static void start_both(const struct item *tx, size_t n, const struct item *rx,
		       size_t nrx, unsigned int gap)
{
	size_t i;

	post_all_rx();
	for (i = 0; i < n; i++)
		nic_drv_tx_post_desc(&drv, tx[i].f, tx[i].len, tx[i].len_field, &tx[i].o);
	for (i = 0; i < nrx; i++)
		nic_env_rx_inject(env, rx[i].f, rx[i].len, 0, gap);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	nic_drv_tx_kick(&drv);
}

/* run, reaping both queues, until *count reaches want or max clocks */
static void run_reaping(struct run *r, const size_t *count, size_t want, uint64_t max)
{
	uint64_t t;

	for (t = 0; t < max && *count < want; t += 16) {
		nic_env_step(env, 16);
		reap_tx(r);
		reap_rx(r, 0);
	}
}

/* the wire frames from first on are items it[0..n), in order: how many
 * match before the first that does not (or the end) */
static size_t wire_prefix(size_t first, const struct item *it, size_t n)
{
	size_t i;

	for (i = 0; i < n && first + i < nic_env_tx_count(env); i++) {
		const struct nic_frame *f = nic_env_tx_frame(env, first + i);

		if (f->len != it[i].wire_len || memcmp(f->data, it[i].wire, f->len))
			break;
	}
	return i;
}

/* the deliveries got[from..) are items src[] in order, some skipped: how
 * many are exact copies */
static size_t rx_subsequence(const struct run *r, size_t from, const struct item *src,
			     size_t n)
{
	size_t i = 0, j, ok = 0;

	for (j = from; j < r->ngot; j++) {
		while (i < n && (r->got[j].len != src[i].deliv_len ||
				 memcmp(r->got[j].data, src[i].deliv, src[i].deliv_len)))
			i++;
		if (i == n)
			break;
		ok++;
		i++;
	}
	return ok;
}

/*
 * TX flushed while frames are in flight (a slow DMA bridge: reads and dones
 * outstanding) and RX traffic goes on: the flush waits for the DMA, then
 * PROD = CONS = 0; the wire holds whole frames only, a prefix of those
 * posted; RX loses nothing; after the ring is set up again TX works.
 */
static void phase_flush_tx(void)
{
	const char *name = "flush/tx";
	struct nic_env_cfg c = cfg_std;
	size_t n = 40, na = 20, nrx = 30, i, wire0, pre, post;
	struct item *tx = calloc(n + na, sizeof(*tx)), *rx = calloc(nrx, sizeof(*rx));
	struct run r;
	long took;
	int ok;

	c.rd_lat_max = 200;
	c.wr_done_max = 400;
	if (phase_begin(name, &c, 6, 6, 9018))
		goto out;
	/* the MAC holds still: the frame FIFO fills, and the flush finds the
	 * engine inside a frame it was writing there (its beats must go) */
	nic_env_set_tx_hold(env, 1);
	memset(&r, 0, sizeof(r));
	r.tx_status = calloc(n + na + 1, sizeof(*r.tx_status));
	for (i = 0; i < n + na; i++) {
		/* (the first ones large: the FIFO's 16 KiB fill inside one) */
		do {
			item_free(&tx[i]);
			if (i % 2)
				gen_marked(&tx[i], 9018);
			else
				gen_unmarked(&tx[i], 9018);
			expect_tx(&tx[i], 9018);
		} while (i < n && (tx[i].bad_len || tx[i].wire_len < 2500));
	}
	for (i = 0; i < nrx; i++) {
		gen_unmarked(&rx[i], 9018);
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
		r.want += rx[i].deliver;
	}
	r.rx = rx;
	r.nrx = nrx;
	start_both(tx, n, rx, nrx, 400);
	run_reaping(&r, &r.tx_done, 2, 200000);
	nic_env_step(env, 2000);
	reap_tx(&r);
	t_ok(nic_env_tx_count(env) == 0 && r.tx_done >= 2,
	     "%s: with the MAC held, %zu frames completed into the frame FIFO, none sent yet",
	     name, r.tx_done);
	/* TX off and flushed, RX on */
	wr(INC_CTRL, INC_CTRL_RX_EN);
	took = flush_queue(INC_QFLUSH_TX);
	t_ok(took >= 0 && rd(INC_TXQ + INC_Q_CONS) == 0 && rd(INC_TXQ + INC_Q_PROD) == 0 &&
	     (rd(INC_STATUS) & INC_STATUS_TX_IDLE),
	     "%s: QFLUSH TX with %zu of %zu frames completed: done in %ld clocks, CONS = PROD = 0, TX idle",
	     name, r.tx_done, n, took);
	nic_env_set_tx_hold(env, 0);
	nic_env_step(env, 3000);
	reap_tx(&r);
	wire0 = nic_env_tx_count(env);
	pre = wire_prefix(0, tx, n);
	ok = pre == wire0 && wire0 >= r.tx_done && wire0 < n;
	for (i = 0; i < r.tx_done; i++)
		ok = ok && r.tx_status[i] == (INC_DESC_DONE |
			(tx[i].tx_res == INCW_TX_COMPRESSED ? INC_TXS_COMPRESSED : 0) |
			(uint32_t)tx[i].tx_res << 16 | (uint32_t)tx[i].wire_len);
	t_ok(ok, "%s: the wire holds whole frames, the first %zu posted, exact (%zu of them match), and the %zu completions are theirs; the rest were flushed",
	     name, wire0, pre, r.tx_done);
	/* set up again: the next frames go out */
	nic_drv_tx_reset(&drv);
	for (i = n; i < n + na; i++)
		nic_drv_tx_post_desc(&drv, tx[i].f, tx[i].len, tx[i].len_field, &tx[i].o);
	r.tx_done = 0;
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	nic_drv_tx_kick(&drv);
	run_reaping(&r, &r.tx_done, na, 4000000);
	run_reaping(&r, &r.ngot, r.want, 4000000);
	post = wire_prefix(wire0, tx + n, na);
	ok = post == na && nic_env_tx_count(env) == wire0 + na && r.tx_done == na;
	for (i = 0; ok && i < na; i++)
		ok = r.tx_status[i] == (INC_DESC_DONE |
			(tx[n + i].tx_res == INCW_TX_COMPRESSED ? INC_TXS_COMPRESSED : 0) |
			(uint32_t)tx[n + i].tx_res << 16 | (uint32_t)tx[n + i].wire_len);
	t_ok(ok, "%s: the ring set up again: the next %zu frames go out exact and complete (%zu on the wire, %zu completions)",
	     name, na, post, r.tx_done);
	check_rx(&r, name);
	wr(INC_CTRL, 0);
	phase_end(name);
	run_free(&r);
out:
	for (i = 0; i < n + na; i++)
		item_free(&tx[i]);
	for (i = 0; i < nrx; i++)
		item_free(&rx[i]);
	free(tx);
	free(rx);
}

/*
 * RX flushed while frames are being delivered and TX traffic goes on: the
 * flush ends with PROD = CONS = 0; what was delivered before is exact and
 * in order; TX loses nothing; after the ring is set up again frames are
 * delivered. Then a flush while the MAC is inside a frame: its tail is
 * dropped and counted, the next frame is delivered whole.
 */
static void phase_flush_rx(void)
{
	const char *name = "flush/rx";
	struct nic_env_cfg c = cfg_std;
	size_t n = 30, nrx = 30, na = 10, i, got0, sub;
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(nrx + na + 2, sizeof(*rx));
	struct run r;
	uint64_t drop;
	long took;
	int ok;

	c.rd_lat_max = 200;
	c.wr_done_max = 400;
	if (phase_begin(name, &c, 6, 6, 9018))
		goto out;
	memset(&r, 0, sizeof(r));
	r.tx_status = calloc(n + 1, sizeof(*r.tx_status));
	for (i = 0; i < n; i++) {
		if (i % 2)
			gen_marked(&tx[i], 9018);
		else
			gen_unmarked(&tx[i], 9018);
		expect_tx(&tx[i], 9018);
	}
	for (i = 0; i < nrx + na; i++) {
		gen_unmarked(&rx[i], 9018);
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
	r.tx = tx;
	r.ntx = n;
	start_both(tx, n, rx, nrx, 100);
	run_reaping(&r, &r.ngot, 6, 200000);
	wr(INC_CTRL, INC_CTRL_TX_EN);
	took = flush_queue(INC_QFLUSH_RX);
	t_ok(took >= 0 && rd(INC_RXQ + INC_Q_CONS) == 0 && rd(INC_RXQ + INC_Q_PROD) == 0,
	     "%s: QFLUSH RX with %zu frames delivered: done in %ld clocks, CONS = PROD = 0",
	     name, r.ngot, took);
	reap_rx(&r, 0);
	got0 = r.ngot;
	t_ok(rx_subsequence(&r, 0, rx, nrx) == got0 && got0 < nrx,
	     "%s: the %zu frames delivered before it are exact, in order; the rest of the %zu were flushed or dropped",
	     name, got0, nrx);
	/* the frames still coming find RX off; then it is set up again */
	for (i = 0; i < 400000 && nic_env_rx_pending(env); i += 16)
		nic_env_step(env, 16);
	nic_env_step(env, 2000);
	nic_drv_rx_reset(&drv);
	post_all_rx();
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	for (i = nrx; i < nrx + na; i++)
		nic_env_rx_inject(env, rx[i].f, rx[i].len, 0, 100);
	run_reaping(&r, &r.tx_done, n, 2000000);
	run_reaping(&r, &r.ngot, got0 + na, 2000000);
	sub = rx_subsequence(&r, got0, rx + nrx, na);
	t_ok(r.ngot == got0 + na && sub == na,
	     "%s: the ring set up again: the next %zu frames are delivered exact, in order (%zu of %zu)",
	     name, na, sub, r.ngot - got0);
	check_wire(&r, name);
	check_tx_status(&r, name);

	/* a flush while the MAC is inside a frame */
	gen_unmarked(&rx[nrx + na], 9018);
	while (rx[nrx + na].len < 3000) {
		item_free(&rx[nrx + na]);
		gen_unmarked(&rx[nrx + na], 9018);
	}
	gen_unmarked(&rx[nrx + na + 1], 9018);
	{
		const struct item *a = &rx[nrx + na], *b = &rx[nrx + na + 1];
		size_t at = a->len / 2;

		drop = nic_stat(env, INC_ST_RX_DROP_MAC);
		nic_env_rx_inject(env, a->f, a->len, 0, 0);
		ok = !nic_env_run_until(env, rx_mid_frame, &at, 200000);
		nic_env_set_rx_pause(env, 1);
		wr(INC_CTRL, INC_CTRL_TX_EN);
		took = flush_queue(INC_QFLUSH_RX);
		nic_drv_rx_reset(&drv);
		post_all_rx();
		wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
		nic_env_rx_inject(env, b->f, b->len, 0, 0);
		nic_env_set_rx_pause(env, 0);
		got0 = r.ngot;
		ok = ok && took >= 0 && !nic_env_run_until(env, nic_idle, NULL, 2000000) &&
		     nic_env_rx_pending(env) == 0;
		reap_rx(&r, 0);
		t_ok(ok && r.ngot == got0 + 1 && r.got[got0].len == b->len &&
		     !memcmp(r.got[got0].data, b->f, b->len) &&
		     nic_stat(env, INC_ST_RX_DROP_MAC) == drop + 1,
		     "%s: flushed inside a frame: its tail is dropped and counted in rx_drop_mac (+%llu), the next frame is delivered whole (%zu)",
		     name, (unsigned long long)(nic_stat(env, INC_ST_RX_DROP_MAC) - drop),
		     r.ngot - got0);
	}
	wr(INC_CTRL, 0);
	phase_end(name);
	run_free(&r);
out:
	for (i = 0; i < n; i++)
		item_free(&tx[i]);
	for (i = 0; i < nrx + na + 2; i++)
		item_free(&rx[i]);
	free(tx);
	free(rx);
}

/* Marked and unmarked frames out, unmarked frames in, while the registers
 * churn. */
static void phase_churn(void)
{
	const char *name = "registers/under-load";
	/* Not scaled: the churn needs the traffic to last (over 100 of each
	 * access at 8 lanes). */
	size_t n = 600, i;
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	struct run r;

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	for (i = 0; i < n; i++) {
		if (i % 2)
			gen_marked(&tx[i], 9018);
		else
			gen_unmarked(&tx[i], 9018);
		expect_tx(&tx[i], 9018);
		gen_unmarked(&rx[i], 9018);
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	r.churn = 1;
	r.crng.s = 0x5eed0c4a11ull;
	run_traffic(&r);
	check_wire(&r, name);
	check_tx_status(&r, name);
	check_rx(&r, name);
	t_ok(r.churn_writes > 100 && r.churn_reads > 100 && !r.stat_backwards,
	     "%s: %llu register writes and %llu reads during the traffic; no 64-bit counter read went backwards (%llu)",
	     name, (unsigned long long)r.churn_writes,
	     (unsigned long long)r.churn_reads,
	     (unsigned long long)r.stat_backwards);
	wr(INC_IRQ_ENABLE, 3);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(tx, n);
	items_free(rx, n);
	phase_end(name);
}

/* r set up for n frames in loopback (LOOPBACK on): a window of 3, BUF_SIZE
 * buffers */
static void loop_run(struct run *r, struct item *tx, size_t n)
{
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN | INC_CTRL_LOOPBACK);
	memset(r, 0, sizeof(*r));
	r->tx = tx;
	r->ntx = n;
	r->loopback = 1;
	r->window = 3;
	r->rx_buf_len = BUF_SIZE;
	r->timeout = 40000000;
}

/* ---- 2/3. unmarked frames ---- */

static void phase_unmarked_loopback(void)
{
	const char *name = "unmarked/loopback";
	size_t n = scaled(2000), i;
	struct item *tx = calloc(n, sizeof(*tx));
	struct run r;

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	for (i = 0; i < n; i++) {
		gen_unmarked(&tx[i], 9018);
		if (rng_below(&R, 4) == 0) {	/* asked, but compress off: pass */
			tx[i].o.k = rng_below(&R, 30);
			tx[i].o.mode = rng_below(&R, 4);
			tx[i].o.range_len = rng_below(&R, 100);
		}
		expect_tx(&tx[i], 9018);
		expect_rx(&tx[i], tx[i].wire, tx[i].wire_len, 9018, BUF_SIZE);
	}
	loop_run(&r, tx, n);
	run_traffic(&r);
	check_tx_status(&r, name);
	check_rx(&r, name);
	t_ok(nic_env_tx_count(env) == 0, "%s: nothing reaches m_axis_tx in loopback (%zu frames)",
	     name, nic_env_tx_count(env));
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(tx, n);
	phase_end(name);
}

static void phase_unmarked(void)
{
	const char *name = "unmarked/mac";
	size_t n = scaled(2000), i;
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	struct run r;

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	for (i = 0; i < n; i++) {
		gen_unmarked(&tx[i], 9018);
		expect_tx(&tx[i], 9018);
		gen_unmarked(&rx[i], 9018);
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	run_traffic(&r);
	check_wire(&r, name);
	check_tx_status(&r, name);
	check_rx(&r, name);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(tx, n);
	items_free(rx, n);
	phase_end(name);
}

/* ---- 4/5. marked frames ---- */

static void marked_run(const char *name, int loopback, size_t n, int ineligible)
{
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	size_t i, comp = 0, res[INCW_TX_N], orig = 0, wire = 0;
	/* compressed frames, their bytes and wire bytes, by chunk mode */
	size_t m_n[4] = { 0 }, m_orig[4] = { 0 }, m_wire[4] = { 0 };
	unsigned int m, modes_seen = 0;
	struct run r;

	memset(res, 0, sizeof(res));
	for (i = 0; i < n; i++) {
		if (ineligible)
			gen_ineligible(&tx[i], 9018);
		else
			gen_marked(&tx[i], 9018);
		expect_tx(&tx[i], 9018);
		res[tx[i].tx_res]++;
		if (tx[i].tx_res == INCW_TX_COMPRESSED) {
			comp++;
			orig += tx[i].len;
			wire += tx[i].wire_len;
			m = tx[i].o.mode & 3;
			m_n[m]++;
			m_orig[m] += tx[i].len;
			m_wire[m] += tx[i].wire_len;
			modes_seen |= INCW_MODE_BIT(m);
		}
		if (loopback) {
			expect_rx(&tx[i], tx[i].wire, tx[i].wire_len, 9018, BUF_SIZE);
		} else {
			/* the reference's wire frame comes back on RX */
			rx_from_wire(&rx[i], &tx[i]);
		}
	}
	for (i = 0; i < INCW_TX_N; i++)
		if (res[i])
			t_diag("%s: %zu frames %s", name, res[i], incw_tx_result_name((int)i));
	if (comp)
		t_diag("%s: compressed frames %zu -> %zu bytes on the wire (%.1f%%)", name,
		       orig, wire, 100.0 * (double)wire / (double)orig);
	for (m = INC_MODE_PAPER; m <= INC_MODE_WIDTH; m++)
		if (m_n[m])
			t_diag("%s: %s mode: %zu frames, %zu -> %zu bytes (%.1f%%)", name,
			       m == INC_MODE_PAPER ? "paper" : m == INC_MODE_SPARSE ? "sparse" : "width",
			       m_n[m], m_orig[m], m_wire[m],
			       100.0 * (double)m_wire[m] / (double)m_orig[m]);
	if (!ineligible)
		t_ok(modes_seen == nic_modes(),
		     "%s: frames compressed in every mode the NIC takes and no other (modes 0x%x, want 0x%x)",
		     name, modes_seen, nic_modes());
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN | (loopback ? INC_CTRL_LOOPBACK : 0));
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = loopback ? NULL : rx;
	r.nrx = loopback ? 0 : n;
	r.loopback = loopback;
	r.window = loopback ? 3 : 0;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	run_traffic(&r);
	if (!loopback)
		check_wire(&r, name);
	check_tx_status(&r, name);
	check_rx(&r, name);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(rx, n);
	items_free(tx, n);
}

static void phase_marked(void)
{
	const char *name = "marked/mac";

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	marked_run(name, 0, scaled(3000), 0);
	phase_end(name);
}

static void phase_marked_loopback(void)
{
	const char *name = "marked/loopback";

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	marked_run(name, 1, scaled(1000), 0);
	phase_end(name);
}

static void phase_ineligible(void)
{
	const char *name = "marked/ineligible";

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	marked_run(name, 0, scaled(1500), 1);
	phase_end(name);
}

/* ---- 6. malformed encapsulated frames ---- */

/* recompute the IPv4 header checksum of frame f (if IPv4 and parsable) */
static void fix_ip4(uint8_t *f, size_t len)
{
	size_t off = 12;
	unsigned int type = len >= 14 ? be16(f + 12) : 0, ihl;
	uint32_t sum;

	while ((type == 0x8100 || type == 0x88a8) && off + 6 <= len) {
		off += 4;
		type = be16(f + off);
	}
	off += 2;
	if (type != 0x0800 || len < off + 20)
		return;
	ihl = (f[off] & 15u) * 4;
	if (ihl < 20 || off + ihl > len)
		return;
	put_be16(f + off + 10, 0);
	sum = incw_sum(0, f + off, ihl);
	put_be16(f + off + 10, incw_fold(sum));
}

/* recompute the shim checksum of an encapsulated frame, if it parses */
static void fix_shim(uint8_t *f, size_t len)
{
	struct incw_frame fr;
	uint32_t sum;

	incw_parse(f, len, &fr);
	if (!fr.ip_version || fr.proto != INCW_PROTO || !fr.ip_end ||
	    fr.ip_end > len || fr.ip_end < fr.l4_off + INCW_SHIM_BYTES)
		return;
	put_be16(f + fr.l4_off + 6, 0);
	if (fr.ip_version == 4)
		sum = incw_sum(0, f + fr.l3_off + 12, 8);
	else
		sum = incw_sum(0, f + fr.l3_off + 8, 32);
	sum += INCW_PROTO + (fr.ip_end - fr.l4_off);
	sum = incw_sum(sum, f + fr.l4_off, fr.ip_end - fr.l4_off);
	put_be16(f + fr.l4_off + 6, incw_fold(sum));
}

/* a compressed frame, damaged in one of many ways */
static void gen_malformed(struct item *it)
{
	struct item src;
	struct incw_frame fr;
	uint8_t f[MAXF + 64];
	size_t len, shim;
	uint32_t how;
	const char *what = "";

	how = rng_below(&R, 13);
	do {
		gen_marked(&src, 1500 + (rng_below(&R, 4) ? 0 : 7000));
		if (how == 12 && !rng_below(&R, 3)) {
			/* a width frame, whether the NIC takes the mode or not */
			src.o.mode = INC_MODE_WIDTH;
			how = 13;
		}
		expect_tx_modes(&src, 9018, INCW_MODES_ALL);
		if (src.tx_res != INCW_TX_COMPRESSED)
			item_free(&src);
	} while (!src.wire);
	len = src.wire_len;
	memcpy(f, src.wire, len);
	incw_parse(f, len, &fr);
	shim = fr.l4_off;
	switch (how) {
	case 0:	/* 1..3 bit flips from the IP header on */
	case 1: {
		uint32_t nb = 1 + rng_below(&R, 3), b;

		for (b = 0; b < nb; b++) {
			size_t bit = 8 * fr.l3_off + rng_below(&R, (uint32_t)(8 * (len - fr.l3_off)));

			f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}
		what = "bit flips";
		break;
	}
	case 2:	/* truncated */
		len -= 1 + rng_below(&R, (uint32_t)(len - fr.l3_off));
		what = "truncated";
		break;
	case 3:	/* a shim byte (magic, version, proto, l4_len, range_off) */
		f[shim + rng_below(&R, 6)] ^= (uint8_t)(1 + rng_below(&R, 255));
		if (rng_below(&R, 4))
			fix_shim(f, len);
		what = "shim field";
		break;
	case 4:	/* a chunk header byte (mode, k, raw_len, body_len, reserved) */
		f[shim + 8 + rng_below(&R, 8)] ^= (uint8_t)(1 + rng_below(&R, 255));
		if (rng_below(&R, 4))
			fix_shim(f, len);
		what = "chunk header";
		break;
	case 5:	/* the shim checksum */
		put_be16(f + shim + 6, be16(f + shim + 6) ^ (1 + rng_below(&R, 65535)));
		what = "shim checksum";
		break;
	case 6:	/* the IPv4 header checksum, or the IPv6 payload length */
		if (fr.ip_version == 4)
			put_be16(f + fr.l3_off + 10, be16(f + fr.l3_off + 10) ^ (1 + rng_below(&R, 65535)));
		else
			put_be16(f + fr.l3_off + 4, be16(f + fr.l3_off + 4) + 1 + rng_below(&R, 16));
		what = "IP checksum/length";
		break;
	case 7:	/* body bytes, checksum made right: the decoder judges */
	case 8: {
		size_t body = shim + INCW_SHIM_BYTES + (size_t)f[shim + 3] + be16(f + shim + 4);
		size_t bl = f[shim + 12] | (size_t)f[shim + 13] << 8;
		uint32_t nb = 1 + rng_below(&R, 4), b;

		for (b = 0; b < nb && bl; b++)
			f[body + rng_below(&R, (uint32_t)bl)] ^= (uint8_t)(1 + rng_below(&R, 255));
		fix_shim(f, len);
		what = "body, checksum fixed";
		break;
	}
	case 9: {	/* body_len or raw_len off by a little, checksum fixed */
		size_t at = shim + 8 + (rng_below(&R, 2) ? 4 : 2);
		unsigned int v = (unsigned int)(f[at] | f[at + 1] << 8);

		v += rng_below(&R, 2) ? 1 + rng_below(&R, 8) : (unsigned int)-(int)(1 + rng_below(&R, 8));
		f[at] = (uint8_t)v;
		f[at + 1] = (uint8_t)(v >> 8);
		fix_shim(f, len);
		what = "chunk lengths, checksum fixed";
		break;
	}
	case 10: {	/* IPv4: fragment bits; IPv6: shorter payload length */
		if (fr.ip_version == 4) {
			f[fr.l3_off + 6] |= rng_below(&R, 2) ? 0x20 : 0x01;
			fix_ip4(f, len);
		} else {
			put_be16(f + fr.l3_off + 4, be16(f + fr.l3_off + 4) - 1 - rng_below(&R, 16));
		}
		fix_shim(f, len);
		what = "fragment / short IPv6 length";
		break;
	}
	case 12:	/* another mode: its decoder judges this body */
		f[shim + 8] = (uint8_t)(1 + (f[shim + 8] + rng_below(&R, 2)) % 3);
		fix_shim(f, len);
		what = "chunk mode changed, checksum fixed";
		break;
	case 13:	/* width mode as sent */
		what = "width mode";
		break;
	default:	/* padding after the packet: restored, padding gone */
		memset(f + len, 0, 30);
		len += 1 + rng_below(&R, 30);
		what = "padded";
		break;
	}
	memset(it, 0, sizeof(*it));
	it->f = dup(f, len);
	it->len = len;
	snprintf(it->desc, sizeof(it->desc), "%.60s [%s]", src.desc, what);
	item_free(&src);
}

static void phase_malformed(void)
{
	const char *name = "rx/malformed";
	size_t n = scaled(3000), i, drops = 0, kinds[INCW_RX_N];
	struct item *rx = calloc(2 * n, sizeof(*rx));
	struct run r;
	uint64_t v;

	if (phase_begin(name, &cfg_std, 4, 6, 9018))
		return;
	memset(kinds, 0, sizeof(kinds));
	for (i = 0; i < 2 * n; i++) {
		if (i % 2 == 0)
			gen_malformed(&rx[i]);
		else if (rng_below(&R, 2))
			gen_unmarked(&rx[i], 9018);
		else {
			/* a good compressed frame */
			struct item src;

			gen_marked(&src, 9018);
			expect_tx(&src, 9018);
			rx[i].f = dup(src.wire, src.wire_len);
			rx[i].len = src.wire_len;
			memcpy(rx[i].desc, src.desc, sizeof(rx[i].desc));
			item_free(&src);
		}
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
		if (i % 2 == 0)
			kinds[rx[i].rx_res]++;
		drops += rx[i].rx_res >= INCW_RX_DROP_HEADER;
	}
	for (i = 0; i < INCW_RX_N; i++)
		t_diag("%s: %zu damaged frames %s", name, kinds[i], incw_rx_result_name((int)i));
	wr(INC_CTRL, INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.rx = rx;
	r.nrx = 2 * n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	run_traffic(&r);
	check_rx(&r, name);
	v = nic_stat(env, INC_ST_RX_DROP_MALFORMED);
	t_ok(v == drops, "%s: rx_drop_malformed counts exactly the %zu frames incw_rx() drops (%llu)",
	     name, drops, (unsigned long long)v);
	v = nic_stat(env, INC_ST_RX_FRAMES);
	t_ok(v == 2 * n, "%s: rx_frames %llu, %zu sent", name, (unsigned long long)v, 2 * n);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(rx, 2 * n);
	phase_end(name);
}

/* ---- 7. MAC errors, oversize frames, bad TX lengths ---- */

static void phase_mac_errors(void)
{
	const char *name = "rx/mac-errors";
	size_t n = scaled(600), i, mac = 0, bad_tx = 0;
	struct item *rx = calloc(n, sizeof(*rx)), *tx = calloc(n, sizeof(*tx));
	struct run r;
	uint64_t v;
	const uint32_t maxf = 1518;

	if (phase_begin(name, &cfg_std, 6, 6, maxf))
		return;
	for (i = 0; i < n; i++) {
		uint32_t c = rng_below(&R, 6);

		if (c == 0 || c == 1) {
			/* longer than MAX_FRAME, or exactly it */
			struct fspec s;
			uint8_t pay[MAXF], f[MAXF + 64];
			size_t want = c == 0 ? maxf + 1 + rng_below(&R, 600) : maxf, pl;

			rand_spec(&s, 4, 17);
			s.trailer = 0;
			pl = want - frame_payload_off(&s);
			fill_random(pay, pl);
			rx[i].len = frame_build(&s, pay, pl, f);
			rx[i].f = dup(f, rx[i].len);
			describe(&rx[i], &s, c == 0 ? "oversize" : "MAX_FRAME");
		} else if (c == 2 && rng_below(&R, 2)) {
			struct item src;

			gen_marked(&src, maxf);
			expect_tx(&src, 9018);
			rx[i].f = dup(src.wire, src.wire_len);
			rx[i].len = src.wire_len;
			memcpy(rx[i].desc, src.desc, sizeof(rx[i].desc));
			item_free(&src);
		} else {
			gen_unmarked(&rx[i], maxf);
		}
		rx[i].tuser = c >= 2 && rng_below(&R, 2);
		if (rx[i].tuser)
			strncat(rx[i].desc, " [tuser]", sizeof(rx[i].desc) - strlen(rx[i].desc) - 1);
		expect_rx(&rx[i], rx[i].f, rx[i].len, maxf, BUF_SIZE);
		mac += rx[i].rx_res == -1;

		/* TX: bad lengths among good frames */
		gen_unmarked(&tx[i], maxf);
		switch (rng_below(&R, 5)) {
		case 0:
			tx[i].len_field = (uint16_t)rng_below(&R, 14);
			break;
		case 1:
			tx[i].len_field = (uint16_t)(maxf + 1 + rng_below(&R, 9000));
			break;
		case 2:
			tx[i].len_field = rng_below(&R, 2) ? 14 : (uint16_t)maxf;
			break;
		default:
			break;
		}
		if (tx[i].len_field != tx[i].len) {
			/* build a frame of exactly len_field bytes where it fits */
			uint8_t f[BUF_SIZE];
			size_t l = tx[i].len_field < BUF_SIZE ? tx[i].len_field : BUF_SIZE;

			fill_random(f, l);
			if (l >= 14)
				memcpy(f, tx[i].f, 14);
			free(tx[i].f);
			tx[i].f = dup(f, l);
			tx[i].len = l;
			snprintf(tx[i].desc, sizeof(tx[i].desc), "TX len field %u",
				 tx[i].len_field);
		}
		expect_tx(&tx[i], maxf);
		bad_tx += tx[i].bad_len;
	}
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	run_traffic(&r);
	check_rx(&r, name);
	v = nic_stat(env, INC_ST_RX_DROP_MAC);
	t_ok(v == mac, "%s: rx_drop_mac counts the %zu frames with tuser or longer than MAX_FRAME (%llu)",
	     name, mac, (unsigned long long)v);
	check_wire(&r, name);
	check_tx_status(&r, name);
	v = nic_stat(env, INC_ST_TX_DESC_ERRORS);
	t_ok(v == bad_tx, "%s: tx_desc_errors counts the %zu descriptors with a length outside 14..MAX_FRAME (%llu)",
	     name, bad_tx, (unsigned long long)v);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(rx, n);
	items_free(tx, n);
	phase_end(name);
}

/* ---- 8. no RX buffer, buffer too small ---- */

static int rx_done_n(struct nic_env *e, void *ctx)
{
	(void)e;
	return nic_drv_rx_done_pending(&drv) >= *(unsigned int *)ctx;
}

static int env_quiet(struct nic_env *e, void *ctx)
{
	(void)ctx;
	return nic_env_quiet(e);
}

static void phase_no_buffer(void)
{
	const char *name = "rx/no-buffer";
	struct item it[8];
	struct run r;
	size_t i;
	uint64_t v0, v1;
	unsigned int one = 1;
	int ok;

	if (phase_begin(name, &cfg_std, 4, 4, 9018))
		return;
	memset(&r, 0, sizeof(r));
	memset(it, 0, sizeof(it));
	wr(INC_CTRL, INC_CTRL_RX_EN);
	/* no descriptor at all: 5 frames dropped */
	for (i = 0; i < 5; i++) {
		gen_unmarked(&it[i], 1518);
		nic_env_rx_inject(env, it[i].f, it[i].len, 0, 50);
	}
	nic_env_run_until(env, env_quiet, NULL, 100000);
	nic_env_step(env, 2000);
	v0 = nic_stat(env, INC_ST_RX_DROP_NO_BUFFER);
	t_ok(v0 == 5 && nic_stat(env, INC_ST_RX_DELIVERED) == 0,
	     "%s: 5 frames without an RX descriptor are dropped and counted (rx_drop_no_buffer %llu)",
	     name, (unsigned long long)v0);

	/* a buffer of 100 bytes: a 200-byte frame is dropped without using it,
	 * an 80-byte frame after it lands in it */
	{
		struct fspec s;
		uint8_t pay[300], f[400];
		size_t l200, l80;

		memset(&s, 0, sizeof(s));
		s.ipv = 4;
		s.proto = 17;
		fill_random(pay, sizeof(pay));
		l200 = frame_build(&s, pay, 200 - 42, f);
		free(it[5].f);
		it[5].f = dup(f, l200);
		it[5].len = l200;
		l80 = frame_build(&s, pay, 80 - 42, f);
		free(it[6].f);
		it[6].f = dup(f, l80);
		it[6].len = l80;
	}
	nic_drv_rx_post(&drv, 100);
	nic_drv_rx_kick(&drv);
	nic_env_rx_inject(env, it[5].f, it[5].len, 0, 20);
	nic_env_run_until(env, env_quiet, NULL, 100000);
	nic_env_step(env, 2000);
	v1 = nic_stat(env, INC_ST_RX_DROP_NO_BUFFER);
	ok = v1 == v0 + 1 && nic_drv_rx_done_pending(&drv) == 0;
	nic_env_rx_inject(env, it[6].f, it[6].len, 0, 20);
	ok = ok && !nic_env_run_until(env, rx_done_n, &one, 100000);
	reap_rx(&r, 0);
	ok = ok && r.ngot == 1 && r.got[0].len == 80 && r.got[0].buf_len == 100 &&
	     !memcmp(r.got[0].data, it[6].f, 80);
	t_ok(ok, "%s: a 200-byte frame for a 100-byte buffer is dropped (rx_drop_no_buffer +%llu), the descriptor unused; the next 80-byte frame lands in it (buf_len kept)",
	     name, (unsigned long long)(v1 - v0));

	/* a compressed frame that is small on the wire but restores to more
	 * than the buffer */
	{
		struct item src;

		do {
			gen_marked(&src, 1518);
			expect_tx(&src, 9018);
			if (src.tx_res == INCW_TX_COMPRESSED && src.len > 400 &&
			    src.wire_len < src.len - 100)
				break;
			item_free(&src);
		} while (1);
		nic_drv_rx_post(&drv, (uint16_t)(src.wire_len + 40));
		nic_drv_rx_kick(&drv);
		nic_env_rx_inject(env, src.wire, src.wire_len, 0, 20);
		nic_env_run_until(env, env_quiet, NULL, 100000);
		nic_env_step(env, 2000);
		v0 = nic_stat(env, INC_ST_RX_DROP_NO_BUFFER);
		ok = v0 == v1 + 1 && nic_drv_rx_done_pending(&drv) == 0;
		t_ok(ok, "%s: a compressed frame of %zu bytes that restores to %zu does not fit a %zu-byte buffer: dropped (rx_drop_no_buffer +%llu)",
		     name, src.wire_len, src.len, src.wire_len + 40,
		     (unsigned long long)(v0 - v1));
		item_free(&src);
	}
	/* then buffers again: frames flow (the small buffer left over takes
	 * the 80-byte frame once more) */
	for (i = 0; i < 6; i++)
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	run_free(&r);
	nic_env_rx_inject(env, it[6].f, it[6].len, 0, 50);
	for (i = 0; i < 5; i++)
		nic_env_rx_inject(env, it[i].f, it[i].len, 0, 50);
	nic_env_run_until(env, env_quiet, NULL, 200000);
	nic_env_step(env, 2000);
	reap_rx(&r, 0);
	ok = r.ngot == 6 && r.got[0].len == it[6].len &&
	     !memcmp(r.got[0].data, it[6].f, it[6].len);
	for (i = 0; ok && i < 5; i++)
		ok = r.got[i + 1].len == it[i].len &&
		     !memcmp(r.got[i + 1].data, it[i].f, it[i].len);
	t_ok(ok, "%s: with buffers posted again the same frames are delivered (%zu of 6)",
	     name, r.ngot);

	/* bus mastering off while a frame comes: the NIC drops it without
	 * using the descriptor it read ahead; once on, the next frame gets
	 * that descriptor */
	run_free(&r);
	for (i = 0; i < 2; i++)
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	nic_env_step(env, 500);
	v0 = nic_stat(env, INC_ST_RX_DROP_NO_BUFFER);
	nic_env_set_dma_enable(env, 0);
	nic_env_rx_inject(env, it[0].f, it[0].len, 0, 20);
	nic_env_run_until(env, env_quiet, NULL, 100000);
	nic_env_step(env, 2000);
	v1 = nic_stat(env, INC_ST_RX_DROP_NO_BUFFER);
	ok = v1 == v0 + 1 && nic_drv_rx_done_pending(&drv) == 0;
	nic_env_set_dma_enable(env, 1);
	nic_env_rx_inject(env, it[1].f, it[1].len, 0, 20);
	ok = ok && !nic_env_run_until(env, rx_done_n, &one, 100000);
	nic_env_step(env, 2000);
	reap_rx(&r, 0);
	ok = ok && r.ngot == 1 && r.got[0].len == it[1].len &&
	     r.got[0].buf_len == BUF_SIZE && !memcmp(r.got[0].data, it[1].f, it[1].len);
	t_ok(ok, "%s: a frame that came with bus mastering off is dropped (rx_drop_no_buffer +%llu, the descriptor read ahead not used); the next one, with it on, is delivered into that descriptor (%zu delivered)",
	     name, (unsigned long long)(v1 - v0), r.ngot);
	wr(INC_CTRL, 0);
	run_free(&r);
	for (i = 0; i < 8; i++)
		item_free(&it[i]);
	phase_end(name);
}

/* ---- 9. heavy backpressure, full duplex, small rings ---- */

static void mixed_items(struct item *tx, struct item *rx, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t c = rng_below(&R, 4);

		if (c == 0)
			gen_unmarked(&tx[i], 9018);
		else if (c == 1)
			gen_ineligible(&tx[i], 9018);
		else
			gen_marked(&tx[i], 9018);
		expect_tx(&tx[i], 9018);
		c = rng_below(&R, 3);
		if (c == 0) {
			gen_unmarked(&rx[i], 9018);
		} else {
			struct item src;

			gen_marked(&src, 9018);
			expect_tx(&src, 9018);
			rx[i].f = dup(src.wire, src.wire_len);
			rx[i].len = src.wire_len;
			memcpy(rx[i].desc, src.desc, sizeof(rx[i].desc));
			item_free(&src);
		}
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
}

static void phase_backpressure(void)
{
	const char *name = "backpressure";
	size_t n = scaled(2000);
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	struct nic_env_cfg c = cfg_std;
	struct run r;

	c.rd_req_stall = 0.5;
	c.rd_lat_max = 80;
	c.rd_gap = 0.4;
	c.rd_max_outstanding = 2;
	c.wr_req_stall = 0.5;
	c.wr_data_stall = 0.45;
	c.wr_done_max = 60;
	c.tx_stall = 0.6;
	c.rx_gap = 0.4;
	c.rx_ifg_max = 40;
	c.irq_stall = 0.7;
	c.csr_skew_max = 5;
	c.csr_stall = 0.5;
	if (phase_begin(name, &c, 4, 4, 9018))
		return;
	mixed_items(tx, rx, n);
	/* interrupts on too, re-enabled as a driver would */
	wr(INC_IRQ_ENABLE, 3);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.irq_rearm = 1;
	r.timeout = 80000000;
	run_traffic(&r);
	check_wire(&r, name);
	check_tx_status(&r, name);
	check_rx(&r, name);
	t_diag("%s: %zu IRQ messages, %llu clocks with m_axis_tx stalled", name,
	       nic_env_irq_count(env),
	       (unsigned long long)nic_env_counts(env)->tx_stall_clocks);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(tx, n);
	items_free(rx, n);
	phase_end(name);
}

/* ---- 10. RX at line rate, unpaced: nothing lost without being counted ---- */

static void phase_rx_stress(void)
{
	const char *name = "rx/line-rate";
	size_t n = scaled(2000), i, j, bad = 0, want_drops;
	struct item *rx = calloc(n, sizeof(*rx));
	struct nic_env_cfg c = cfg_std;
	struct run r;
	uint64_t drops, deliv, frames;

	c.rx_gap = 0;
	c.rx_ifg_max = 0;
	if (phase_begin(name, &c, 6, 8, 9018))
		return;
	for (i = 0; i < n; i++) {
		if (rng_below(&R, 2))
			gen_unmarked(&rx[i], rng_below(&R, 3) ? 256 : 9018);
		else {
			struct item src;

			gen_marked(&src, 1518);
			expect_tx(&src, 9018);
			rx[i].f = dup(src.wire, src.wire_len);
			rx[i].len = src.wire_len;
			memcpy(rx[i].desc, src.desc, sizeof(rx[i].desc));
			item_free(&src);
		}
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
	wr(INC_CTRL, INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.allow_drops = 1;
	r.rx_burst = 1;
	r.timeout = 40000000;
	run_traffic(&r);
	nic_env_run_until(env, env_quiet, NULL, 200000);
	nic_env_step(env, 3000);
	reap_rx(&r, 1);
	/* every delivery is the next expected frame or a later one, in order */
	for (i = 0, j = 0; i < r.ngot; i++) {
		while (j < n && !(rx[j].deliver && r.got[i].len == rx[j].deliv_len &&
				  !memcmp(r.got[i].data, rx[j].deliv, rx[j].deliv_len)))
			j++;
		if (j == n) {
			if (bad++ < DIAG_MAX)
				t_diag("%s: delivery %zu (%zu bytes) matches no later frame",
				       name, i, r.got[i].len);
			j = 0;
			continue;
		}
		j++;
	}
	drops = nic_stat(env, INC_ST_RX_DROP_NO_BUFFER);
	deliv = nic_stat(env, INC_ST_RX_DELIVERED);
	frames = nic_stat(env, INC_ST_RX_FRAMES);
	want_drops = 0;
	for (i = 0; i < n; i++)
		want_drops += !rx[i].deliver;
	t_diag("%s: %zu frames at line rate, %zu delivered, %llu dropped for lack of room, %llu clocks",
	       name, n, r.ngot, (unsigned long long)drops, (unsigned long long)r.clocks);
	t_ok(!bad && frames == n && deliv == r.ngot &&
	     r.ngot + drops + nic_stat(env, INC_ST_RX_DROP_MALFORMED) == n,
	     "%s: every frame is delivered intact and in order or counted in rx_drop_no_buffer (rx_frames %llu, delivered %llu/%zu, %zu out of order or damaged)",
	     name, (unsigned long long)frames, (unsigned long long)deliv, r.ngot, bad);
	(void)want_drops;
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(rx, n);
	phase_end(name);
}

/* ---- link bytes: the shared gradients marked, through the NIC ---- */

/*
 * Each model's gradients (all its shared files) sent as TCP/IPv4 segments
 * of an MTU's payload (1500: 1448 bytes, 9000: 8948; 12 bytes of TCP
 * options, as Linux's timestamps), each segment marked whole at k = 10, in
 * each mode the NIC takes: the frames the NIC puts on the link are
 * incw_tx()'s, the receiving NIC restores them (every value within 2^-k),
 * and the link bytes per model and mode make the table of
 * docs/benchmarks.md. make check sends the first LINK_QUICK bytes of each
 * model; NIC_LINK_ALL=1 (make bench-link) all of them.
 */
#define LINK_QUICK	(128 * 1024)

struct link_row {
	size_t frames, app, link;	/* segments, payload bytes, link bytes */
};

/* one mode at one MTU: every model's segments in one run; rows by model */
static void link_run(unsigned int mode, unsigned int mtu, int all,
		     struct link_row *row)
{
	char name[64];
	struct fspec sp;
	size_t pay = mtu - 20 - 32, n = 0, i, m, j;
	struct item *tx, *rx;
	size_t *owner;
	struct run r;

	memset(&sp, 0, sizeof(sp));
	sp.ipv = 4;
	sp.proto = 6;
	sp.tcp_opts = 12;
	for (m = 0; m < nmodel; m++) {
		size_t len = all || model[m].len < LINK_QUICK ? model[m].len : LINK_QUICK;

		n += (len + pay - 1) / pay;
	}
	tx = calloc(n, sizeof(*tx));
	rx = calloc(n, sizeof(*rx));
	owner = calloc(n, sizeof(*owner));
	snprintf(name, sizeof(name), "link/%s/%u",
		 mode == INC_MODE_PAPER ? "paper" : mode == INC_MODE_SPARSE ? "sparse" : "width", mtu);
	if (!tx || !rx || !owner || phase_begin(name, &cfg_std, 8, 8, 9018))
		goto out;
	for (m = 0, i = 0; m < nmodel; m++) {
		size_t len = all || model[m].len < LINK_QUICK ? model[m].len : LINK_QUICK;
		uint8_t f[MAXF + 64];

		for (j = 0; j < len; j += pay, i++) {
			size_t l = len - j < pay ? len - j : pay;

			tx[i].len = frame_build(&sp, grad + model[m].off + j, l, f);
			tx[i].f = dup(f, tx[i].len);
			tx[i].len_field = (uint16_t)tx[i].len;
			tx[i].o.compress = 1;
			tx[i].o.k = 10;
			tx[i].o.mode = mode;
			tx[i].o.range_off = 0;
			tx[i].o.range_len = (unsigned int)l;
			tx[i].range_at = frame_payload_off(&sp);
			tx[i].range_len = l;
			tx[i].k = 10;
			snprintf(tx[i].desc, sizeof(tx[i].desc), "%.23s bytes %zu+%zu", model[m].name, j, l);
			expect_tx(&tx[i], 9018);
			rx_from_wire(&rx[i], &tx[i]);
			owner[i] = m;
			row[m].frames++;
			row[m].app += l;
		}
	}
	run_mac_checked(&r, name, tx, rx, n, 400000000);
	/* the link bytes: the frames the NIC sent (check_wire: incw_tx's) */
	for (i = 0; i < n && i < nic_env_tx_count(env); i++)
		row[owner[i]].link += nic_env_tx_frame(env, i)->len;
	wr(INC_CTRL, 0);
	run_free(&r);
	phase_end(name);
out:
	items_free(rx, n);
	items_free(tx, n);
	free(owner);
}

static void phase_link(void)
{
	static const unsigned int mtus[2] = { 1500, 9000 };
	struct link_row row[2][4][NMODEL + 1];
	int all = getenv("NIC_LINK_ALL") && *getenv("NIC_LINK_ALL") == '1';
	unsigned int mi, mode;
	size_t m, worse = 0;

	if (!nmodel) {
		t_skip("link bytes: no gradient files in %s", t_gradient_dir());
		return;
	}
	memset(row, 0, sizeof(row));
	for (mi = 0; mi < 2; mi++)
		for (mode = INC_MODE_PAPER; mode <= INC_MODE_WIDTH; mode++)
			if (nic_modes() & INCW_MODE_BIT(mode))
				link_run(mode, mtus[mi], all, row[mi][mode]);
	t_diag("link bytes for the shared gradients marked at k = 10, TCP/IPv4 (%s; %u lanes):",
	       all ? "every byte" : "the first 128 KiB of each model", vl_nic_beat() / 4);
	t_diag("%-8s %5s %7s %12s %12s %12s %12s %8s %8s %8s", "model", "MTU", "frames",
	       "app bytes", "paper", "sparse", "width", "paper", "sparse", "width");
	for (mi = 0; mi < 2; mi++) {
		struct link_row tot[4];

		memset(tot, 0, sizeof(tot));
		for (m = 0; m <= nmodel; m++) {
			struct link_row *p = &row[mi][INC_MODE_PAPER][m];
			struct link_row *sv = &row[mi][INC_MODE_SPARSE][m];
			struct link_row *w = &row[mi][INC_MODE_WIDTH][m];

			if (m == nmodel) {	/* all models together */
				p = &tot[INC_MODE_PAPER];
				sv = &tot[INC_MODE_SPARSE];
				w = &tot[INC_MODE_WIDTH];
			} else {
				for (mode = INC_MODE_PAPER; mode <= INC_MODE_WIDTH; mode++) {
					tot[mode].frames += row[mi][mode][m].frames;
					tot[mode].app += row[mi][mode][m].app;
					tot[mode].link += row[mi][mode][m].link;
				}
			}
			char wl[24] = "-", wr_[24] = "-";	/* (no width mode: -) */

			if (w->link) {
				snprintf(wl, sizeof(wl), "%zu", w->link);
				snprintf(wr_, sizeof(wr_), "%.2fx", (double)w->app / (double)w->link);
			}
			t_diag("%-8s %5u %7zu %12zu %12zu %12zu %12s %7.2fx %7.2fx %8s",
			       m == nmodel ? "all" : model[m].name, mtus[mi], p->frames, p->app,
			       p->link, sv->link, wl,
			       (double)p->app / (double)(p->link ? p->link : 1),
			       (double)sv->app / (double)(sv->link ? sv->link : 1), wr_);
			if (nic_modes() & INCW_MODE_BIT(INC_MODE_WIDTH))
				worse += !(w->link && w->link < sv->link);
		}
	}
	if (nic_modes() & INCW_MODE_BIT(INC_MODE_WIDTH))
		t_ok(!worse,
		     "link bytes: width mode puts fewer bytes on the link than sparse mode for every model at both MTUs (%zu not)",
		     worse);
}

/* ---- 11. no backpressure: rates ---- */

/* mixed traffic both ways under config c, checked frame by frame, and each
 * direction's bytes per clock; reseed: frames drawn from the seed alone */
/* The mixed traffic of n frames each way through the MAC, both directions
 * at once, checked; the rates (host bytes a clock of TX and RX) into
 * *tx_bpc and *rx_bpc when not NULL (0 when the phase did not run). */
static void rate_run(const char *name, const struct nic_env_cfg *c, size_t n, int reseed,
		     size_t rx_window, size_t rx_bytes, double *tx_bpc, double *rx_bpc)
{
	size_t i, bytes_tx = 0, bytes_rx = 0;
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	struct run r;

	if (tx_bpc)
		*tx_bpc = 0;
	if (rx_bpc)
		*rx_bpc = 0;
	if (phase_begin(name, c, 8, 8, 9018))
		goto out;
	/* its own frames for a seed, the same alone (NIC_PHASE) or after the
	 * other phases: the figure docs/dataflow.md quotes */
	if (reseed)
		R.s = seed * 0x9e3779b97f4a7c15ull + 0x6e6f6270ull;
	mixed_items(tx, rx, n);
	for (i = 0; i < n; i++) {
		bytes_tx += tx[i].len;
		bytes_rx += rx[i].deliv_len;
	}
	run_mac_paced(&r, name, tx, rx, n, 40000000, rx_window, rx_bytes);
	/* each direction over its own time: from the start to its last
	 * completion (TX) or delivery (RX), both running at once */
	t_diag("%s: %zu + %zu frames, %zu host bytes sent in %llu clocks and %zu delivered in %llu (%.1f and %.1f bytes/clock)",
	       name, n, n, bytes_tx, (unsigned long long)r.tx_clocks, bytes_rx,
	       (unsigned long long)r.rx_clocks,
	       (double)bytes_tx / (double)(r.tx_clocks ? r.tx_clocks : 1),
	       (double)bytes_rx / (double)(r.rx_clocks ? r.rx_clocks : 1));
	t_diag("%s: RX drops: %llu for want of a buffer, %llu malformed, %llu by the MAC",
	       name, (unsigned long long)nic_stat(env, INC_ST_RX_DROP_NO_BUFFER),
	       (unsigned long long)nic_stat(env, INC_ST_RX_DROP_MALFORMED),
	       (unsigned long long)nic_stat(env, INC_ST_RX_DROP_MAC));
	if (tx_bpc)
		*tx_bpc = (double)bytes_tx / (double)(r.tx_clocks ? r.tx_clocks : 1);
	if (rx_bpc)
		*rx_bpc = (double)bytes_rx / (double)(r.rx_clocks ? r.rx_clocks : 1);
	wr(INC_CTRL, 0);
	run_free(&r);
	phase_end(name);
out:
	items_free(tx, n);
	items_free(rx, n);
}

static void phase_nobp(void)
{
	struct nic_env_cfg c = cfg_std;

	nic_env_cfg_nobp(&c);
	rate_run("no-backpressure", &c, scaled(600), 1, 0, 0, NULL, NULL);
}

/*
 * The same traffic with a slow bridge: reads answered up to 200 clocks
 * late, writes' dones up to 400 clocks after their data. Many writes are
 * then in flight at once (the NIC writes on without waiting for dones):
 * every frame must still be right, each completion after its writes.
 */
static void phase_slow_dma(void)
{
	struct nic_env_cfg c = cfg_std;

	nic_env_cfg_nobp(&c);
	c.rd_lat_max = 200;
	c.wr_done_max = 400;
	rate_run("dma/slow", &c, scaled(200), 0, 0, 0, NULL, NULL);
}

/*
 * A host's PCIe: every read answered 1 us after its request (250 clocks
 * at the NIC's 250 MHz), writes posted (their dones at once), nothing
 * else in the way. The NIC keeps reads in flight to cover it and reads RX
 * descriptors ahead of their frames (inc_nic's TX_RD_OUT, TX_DESC_AHEAD,
 * RX_DESC_AHEAD, RX_WR_FRAMES; docs/dataflow.md, "DMA in flight"): every
 * frame right, and at 16 lanes each direction at least 50 host bytes a
 * clock (the wire's 100 Gbit/s), measured from the start to the last
 * completion or delivery. With 4 frame reads and 4 descriptors ahead, and
 * RX descriptors read as frames came, it was 6.6 and 19.6.
 */
#define HOST_RTT_CLOCKS	250

static void phase_dma_latency(void)
{
	struct nic_env_cfg c = cfg_std;
	unsigned int floor = vl_nic_beat() == 64 ? 50 : 25;
	double tx, rx;

	nic_env_cfg_nobp(&c);
	c.rd_lat_min = HOST_RTT_CLOCKS;
	rate_run("dma/latency", &c, 1200, 1, 0, 0, &tx, &rx);
	if (tx == 0 && rx == 0)
		return;
	t_ok(tx >= floor && rx >= floor,
	     "dma/latency: TX %.1f and RX %.1f host bytes a clock with reads answered %d clocks late (>= %u each at %u lanes)",
	     tx, rx, HOST_RTT_CLOCKS, floor, vl_nic_beat() / 4);
}

/* ---- 12. interrupts ---- */

struct irq_probe {
	size_t n;
	int vector[256];
	uint64_t clock[256];
	unsigned int done[256];	/* DONE descriptors of its ring, not reaped */
};

static struct irq_probe probe;

static void irq_hook(void *ctx, int vector, uint64_t clock)
{
	struct irq_probe *p = ctx;

	if (p->n < 256) {
		p->vector[p->n] = vector;
		p->clock[p->n] = clock;
		p->done[p->n] = vector == INC_IRQ_TX ? nic_drv_tx_done_pending(&drv) :
						       nic_drv_rx_done_pending(&drv);
	}
	p->n++;
}

static int irq_seen(struct nic_env *e, void *ctx)
{
	(void)e;
	return probe.n >= *(size_t *)ctx;
}

static int tx_done_n(struct nic_env *e, void *ctx)
{
	(void)e;
	return nic_drv_tx_done_pending(&drv) >= *(unsigned int *)ctx;
}

static void send_one(struct item *it)
{
	gen_unmarked(it, 1518);
	nic_drv_tx_post(&drv, it->f, it->len, NULL);
	nic_drv_tx_kick(&drv);
}

static void reap_all(void)
{
	struct nic_tx_done td;
	struct nic_rx_done rdn;
	int posted = 0;

	while (nic_drv_tx_reap(&drv, &td))
		;
	while (nic_drv_rx_reap(&drv, &rdn)) {
		nic_drv_rx_post(&drv, BUF_SIZE);
		posted = 1;
	}
	if (posted)
		nic_drv_rx_kick(&drv);
}

static void inject_one(struct item *it, unsigned int idle)
{
	gen_unmarked(it, 1518);
	nic_env_rx_inject(env, it->f, it->len, 0, idle);
}

static void phase_irq(void)
{
	const char *name = "interrupts";
	struct item it;
	size_t want, i, rounds = quick ? 10 : 40, ok_n;
	int ok;
	unsigned int one = 1;
	struct nic_env_cfg c = cfg_std;

	c.wr_done_max = 60;	/* a late done must hold the message back */
	if (phase_begin(name, &c, 5, 5, 9018))
		return;
	memset(&probe, 0, sizeof(probe));
	memset(&it, 0, sizeof(it));
	nic_env_on_irq(env, irq_hook, &probe);
	while (nic_drv_rx_space(&drv))
		nic_drv_rx_post(&drv, BUF_SIZE);
	nic_drv_rx_kick(&drv);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);

	/* masked: no message, no IRQ_STATUS; enabled: the message comes */
	send_one(&it);
	item_free(&it);
	nic_env_run_until(env, tx_done_n, &one, 100000);
	nic_env_step(env, 2000);
	ok = probe.n == 0 && (rd(INC_IRQ_STATUS) & 3) == 0;
	t_ok(ok, "%s: IRQ_ENABLE 0: a TX completion sends no message, IRQ_STATUS stays 0 (%zu messages)",
	     name, probe.n);
	want = 1;
	wr(INC_IRQ_ENABLE, 1);
	ok = !nic_env_run_until(env, irq_seen, &want, 100000) &&
	     probe.vector[0] == INC_IRQ_TX && probe.done[0] == 1;
	nic_env_step(env, 300);
	ok = ok && (rd(INC_IRQ_STATUS) & 3) == 1 && probe.n == 1;
	wr(INC_IRQ_STATUS, 1);
	t_ok(ok, "%s: enabling TX then sends one message for the completion that came while masked (%zu)",
	     name, probe.n);
	reap_all();

	/* one message per completion, after the descriptor is DONE */
	ok_n = 0;
	for (i = 0; i < rounds; i++) {
		int vec = (int)(i & 1);
		uint32_t en, st;

		wr(INC_IRQ_ENABLE, 1u << vec);
		want = probe.n + 1;
		if (vec == INC_IRQ_TX)
			send_one(&it);
		else
			inject_one(&it, 0);
		item_free(&it);
		ok = !nic_env_run_until(env, irq_seen, &want, 100000);
		nic_env_step(env, 300);
		en = rd(INC_IRQ_ENABLE);
		st = rd(INC_IRQ_STATUS);
		ok = ok && probe.n == want && probe.vector[want - 1] == vec &&
		     probe.done[want - 1] >= 1 && !(en & (1u << vec)) &&
		     (st & (1u << vec));
		wr(INC_IRQ_STATUS, 1u << vec);
		ok = ok && !(rd(INC_IRQ_STATUS) & (1u << vec));
		if (!ok && i - ok_n < DIAG_MAX)
			t_diag("%s: round %zu vector %d: %zu messages (want %zu), last vector %d with %u DONE descriptors; IRQ_ENABLE 0x%x, IRQ_STATUS 0x%x",
			       name, i, vec, probe.n, want,
			       probe.n ? probe.vector[(probe.n - 1) % 256] : -1,
			       probe.n ? probe.done[(probe.n - 1) % 256] : 0, en, st);
		ok_n += ok;
		reap_all();
	}
	t_ok(ok_n == rounds,
	     "%s: coalescing 0: one message per completion on the right vector, the descriptor already DONE in host memory at the handshake, auto-mask clears IRQ_ENABLE, IRQ_STATUS set and cleared by W1C (%zu of %zu rounds)",
	     name, ok_n, rounds);

	/* idle (docs/regmap.md) lets the clock stop, as incsim does: once it
	 * is high, the completion's message must already be out */
	ok_n = 0;
	for (i = 0; i < rounds; i++) {
		int vec = (int)(i & 1);
		uint64_t t0;

		wr(INC_IRQ_ENABLE, 1u << vec);
		want = probe.n + 1;
		if (vec == INC_IRQ_TX)
			send_one(&it);
		else
			inject_one(&it, 0);
		t0 = nic_env_clock(env);
		do
			nic_env_step(env, 1);
		while (!nic_env_idle(env) && nic_env_clock(env) - t0 < 100000);
		ok = nic_env_idle(env) && probe.n == want;
		if (!ok && i - ok_n < DIAG_MAX)
			t_diag("%s: round %zu vector %d: idle after %llu clocks with %zu messages (want %zu)",
			       name, i, vec,
			       (unsigned long long)(nic_env_clock(env) - t0),
			       probe.n, want);
		ok_n += ok;
		nic_env_run_until(env, irq_seen, &want, 100000);
		wr(INC_IRQ_STATUS, 3);
		item_free(&it);
		reap_all();
	}
	t_ok(ok_n == rounds,
	     "%s: the NIC says idle only once the completion's message is sent: a clock stopped then loses no interrupt (%zu of %zu rounds)",
	     name, ok_n, rounds);

	/* masked events are signalled once enabled again */
	wr(INC_IRQ_ENABLE, 1);
	want = probe.n + 1;
	send_one(&it);
	item_free(&it);
	nic_env_run_until(env, irq_seen, &want, 100000);
	for (i = 0; i < 3; i++) {
		send_one(&it);
		item_free(&it);
	}
	{
		unsigned int four = 4;

		nic_env_run_until(env, tx_done_n, &four, 100000);
	}
	nic_env_step(env, 2000);
	ok = probe.n == want;
	want = probe.n + 1;
	wr(INC_IRQ_ENABLE, 1);
	ok = !nic_env_run_until(env, irq_seen, &want, 100000) && ok &&
	     probe.vector[(want - 1) % 256] == 0;
	nic_env_step(env, 2000);
	t_ok(ok && probe.n == want,
	     "%s: auto-mask: no second message while masked; re-enabling sends one for the events that came meanwhile (%zu messages)",
	     name, probe.n);
	reap_all();

	/* coalescing by frames: RX 8 frames per message */
	wr(INC_IRQ_STATUS, 3);
	wr(INC_IRQ_COAL_RX, 8);
	ok_n = 0;
	for (i = 0; i < (quick ? 2u : 4u); i++) {
		size_t f;
		size_t before = probe.n;
		unsigned int seven = 7;

		wr(INC_IRQ_ENABLE, 2);
		for (f = 0; f < 7; f++) {
			inject_one(&it, 100);
			item_free(&it);
		}
		nic_env_run_until(env, rx_done_n, &seven, 200000);
		nic_env_step(env, 3000);
		ok = probe.n == before;
		want = before + 1;
		inject_one(&it, 0);
		item_free(&it);
		ok = !nic_env_run_until(env, irq_seen, &want, 100000) && ok &&
		     probe.vector[before % 256] == 1 && probe.done[before % 256] >= 8;
		nic_env_step(env, 2000);
		ok = ok && probe.n == want;
		if (!ok)
			t_diag("%s: frames=8 round %zu: %zu messages after 7 frames, then %zu; DONE at the message %u",
			       name, i, before, probe.n, probe.n > before ? probe.done[before % 256] : 0);
		ok_n += ok;
		reap_all();
	}
	t_ok(ok_n == (quick ? 2u : 4u),
	     "%s: IRQ_COAL_RX frames=8: no message for 7 frames, one when the 8th completes with all 8 DONE (%zu rounds right)",
	     name, ok_n);

	/* coalescing by time: 1 frame, message usecs later */
	{
		uint32_t us[2] = { 2, 8 };
		int64_t delay[2] = { -1, -1 };
		int k;

		for (k = 0; k < 2; k++) {
			uint64_t t_done;

			wr(INC_IRQ_COAL_RX, us[k] << 16);
			wr(INC_IRQ_ENABLE, 2);
			want = probe.n + 1;
			inject_one(&it, 0);
			item_free(&it);
			if (nic_env_run_until(env, rx_done_n, &one, 100000))
				continue;
			t_done = nic_env_clock(env);
			if (nic_env_run_until(env, irq_seen, &want, 100000))
				continue;
			delay[k] = (int64_t)(probe.clock[(want - 1) % 256] - t_done);
			reap_all();
		}
		ok = delay[0] >= 0 && delay[1] >= 0;
		for (k = 0; ok && k < 2; k++) {
			int64_t nom = (int64_t)us[k] * NIC_CLK_MHZ;

			/* a timer that counts a free-running microsecond tick
			 * may fire up to one tick early */
			ok = delay[k] >= nom - NIC_CLK_MHZ - 20 &&
			     delay[k] <= nom + nom / 10 + 80;
		}
		t_ok(ok,
		     "%s: IRQ_COAL_RX usecs 2 and 8: the message comes 2 and 8 us (less at most one 1-us tick) after the frame completes, CLK_MHZ %d (%lld and %lld clocks, nominal %d and %d)",
		     name, NIC_CLK_MHZ, (long long)delay[0], (long long)delay[1],
		     2 * NIC_CLK_MHZ, 8 * NIC_CLK_MHZ);
	}

	/* TX coalescing by frames: 4 */
	{
		size_t before;
		unsigned int three = 3;

		wr(INC_IRQ_COAL_RX, 0);
		wr(INC_IRQ_COAL_TX, 4);
		wr(INC_IRQ_ENABLE, 1);
		before = probe.n;
		for (i = 0; i < 3; i++) {
			send_one(&it);
			item_free(&it);
		}
		nic_env_run_until(env, tx_done_n, &three, 100000);
		nic_env_step(env, 3000);
		ok = probe.n == before;
		want = before + 1;
		send_one(&it);
		item_free(&it);
		ok = !nic_env_run_until(env, irq_seen, &want, 100000) && ok &&
		     probe.vector[before % 256] == 0 && probe.done[before % 256] >= 4;
		t_ok(ok, "%s: IRQ_COAL_TX frames=4: one TX message when the 4th frame completes, all 4 DONE (%zu messages)",
		     name, probe.n - before);
		reap_all();
	}
	nic_env_on_irq(env, NULL, NULL);
	wr(INC_CTRL, 0);
	phase_end(name);
}

/* ---- 13. statistics ---- */

static void phase_stats(void)
{
	const char *name = "statistics";
	size_t n = scaled(1500), i;
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	uint64_t want[INC_ST_N], got;
	struct run r;
	int s, bad = 0;
	unsigned int raw, body;

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	memset(want, 0, sizeof(want));
	mixed_items(tx, rx, n);
	for (i = 0; i < n; i++) {
		/* some bad descriptors and bad frames as well */
		if (rng_below(&R, 20) == 0) {
			tx[i].len_field = (uint16_t)(9019 + rng_below(&R, 100));
			expect_tx(&tx[i], 9018);
		}
		if (rng_below(&R, 10) == 0) {
			item_free(&rx[i]);
			gen_malformed(&rx[i]);
		} else if (rng_below(&R, 15) == 0) {
			rx[i].tuser = 1;
		}
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
	/* frames longer than MAX_FRAME */
	for (i = 0; i < n; i += 37) {
		uint8_t f[9100];

		item_free(&rx[i]);
		rx[i].len = 9019 + rng_below(&R, 60);
		fill_random(f, rx[i].len);
		rx[i].f = dup(f, rx[i].len);
		snprintf(rx[i].desc, sizeof(rx[i].desc), "oversize %zu", rx[i].len);
		expect_rx(&rx[i], rx[i].f, rx[i].len, 9018, BUF_SIZE);
	}
	for (i = 0; i < n; i++) {
		const struct item *t = &tx[i], *x = &rx[i];

		if (t->bad_len) {
			want[INC_ST_TX_DESC_ERRORS]++;
		} else {
			want[INC_ST_TX_FRAMES]++;
			want[INC_ST_TX_BYTES] += t->wire_len;
			if (t->tx_res == INCW_TX_COMPRESSED) {
				chunk_of(t->wire, t->wire_len, &raw, &body);
				want[INC_ST_TX_COMP_FRAMES]++;
				want[INC_ST_TX_COMP_IN_BYTES] += raw;
				want[INC_ST_TX_COMP_OUT_BYTES] += body;
				want[INC_ST_TX_BYTES_SAVED] += t->len - t->wire_len;
			} else if (t->o.compress) {
				want[INC_ST_TX_COMP_SKIPPED]++;
			}
		}
		want[INC_ST_RX_FRAMES]++;
		want[INC_ST_RX_BYTES] += x->len;
		if (x->rx_res == -1) {
			want[INC_ST_RX_DROP_MAC]++;
		} else if (x->rx_res >= INCW_RX_DROP_HEADER) {
			want[INC_ST_RX_DROP_MALFORMED]++;
		} else {
			if (x->rx_res == INCW_RX_RESTORED) {
				chunk_of(x->f, x->len, &raw, &body);
				want[INC_ST_RX_DECOMP_FRAMES]++;
				want[INC_ST_RX_DECOMP_IN_BYTES] += body;
				want[INC_ST_RX_DECOMP_OUT_BYTES] += raw;
			}
			want[INC_ST_RX_DELIVERED]++;
			want[INC_ST_RX_DELIVERED_BYTES] += x->deliv_len;
		}
	}
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	run_traffic(&r);
	bad += !check_wire(&r, name);
	bad += !check_tx_status(&r, name);
	bad += !check_rx(&r, name);
	for (s = 0; s < INC_ST_N; s++) {
		got = nic_stat(env, s);
		t_ok(got == want[s], "%s: %s = %llu (%llu)%s", name, nic_stat_name(s),
		     (unsigned long long)want[s], (unsigned long long)got,
		     s == INC_ST_RX_FRAMES || s == INC_ST_RX_BYTES ?
		     " [all frames from the MAC, errors and oversize included]" : "");
	}
	if (bad)
		t_diag("%s: the traffic itself went wrong, so the counters may be off for that reason", name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(tx, n);
	items_free(rx, n);
	phase_end(name);
}

/* ---- 14. rings above 4 GiB ---- */

static void phase_high_memory(void)
{
	const char *name = "dma/64-bit";
	size_t n = scaled(300);
	struct item *tx = calloc(n, sizeof(*tx)), *rx = calloc(n, sizeof(*rx));
	struct nic_env_cfg c = cfg_std;
	struct nic_env *save = env;
	struct run r;

	c.mem_base = 0x2fffd0000ull;	/* RX buffers straddle 12 GiB */
	nic_drv_fini(&drv);
	env = nic_env_new(&c);
	if (!env) {
		env = save;
		t_ok(0, "%s: a second environment", name);
		return;
	}
	if (phase_begin(name, &c, 4, 4, 9018))
		goto out;
	mixed_items(tx, rx, n);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.tx = tx;
	r.ntx = n;
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 40000000;
	t_diag("%s: TX ring at 0x%llx, RX buffers 0x%llx..", name,
	       (unsigned long long)drv.tx_ring, (unsigned long long)drv.rx_bufs);
	run_traffic(&r);
	check_wire(&r, name);
	check_tx_status(&r, name);
	check_rx(&r, name);
	run_free(&r);
	phase_end(name);
out:
	nic_drv_fini(&drv);
	nic_env_free(env);
	env = save;
	items_free(tx, n);
	items_free(rx, n);
}

/* ---- 15. free-running indices wrap past 65535 ---- */

static void phase_wrap(void)
{
	const char *name = "rings/index-wrap";
	size_t n = quick ? 5000 : 66000, i, bad = 0, got = 0;
	struct nic_env_cfg c = cfg_std;
	uint8_t f[64];
	size_t posted = 0, txdone = 0;
	struct nic_tx_done td;
	struct nic_rx_done rdn;
	uint64_t t0;

	nic_env_cfg_nobp(&c);
	if (phase_begin(name, &c, 8, 8, 9018))
		return;
	/* program the queues again, now with the largest rings (2^12) */
	nic_drv_fini(&drv);
	nic_env_free_all(env);
	if (nic_drv_init(&drv, env, 12, 12, 128)) {
		t_ok(0, "%s: driver set-up with 4096-entry rings", name);
		return;
	}
	memset(f, 0, sizeof(f));
	memset(f, 0xff, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	while (nic_drv_rx_space(&drv))
		nic_drv_rx_post(&drv, 128);
	nic_drv_rx_kick(&drv);
	wr(INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN | INC_CTRL_LOOPBACK);
	t0 = nic_env_clock(env);
	while ((txdone < n || got < n) && nic_env_clock(env) - t0 < 60 * n + 100000) {
		int kick = 0, posted_rx = 0;

		while (posted < n && nic_drv_tx_space(&drv) && posted - got < 3000) {
			f[14] = (uint8_t)posted;
			f[15] = (uint8_t)(posted >> 8);
			f[16] = (uint8_t)(posted >> 16);
			nic_drv_tx_post(&drv, f, 60, NULL);
			posted++;
			kick = 1;
		}
		if (kick)
			nic_drv_tx_kick(&drv);
		nic_env_step(env, 64);
		while (nic_drv_tx_reap(&drv, &td)) {
			if (td.status != (INC_DESC_DONE | 1u << 16 | 60) && bad++ < DIAG_MAX)
				t_diag("%s: TX %zu status 0x%08x", name, txdone, td.status);
			txdone++;
		}
		while (nic_drv_rx_reap(&drv, &rdn)) {
			size_t idx = rdn.data[14] | (size_t)rdn.data[15] << 8 |
				     (size_t)rdn.data[16] << 16;

			if ((rdn.len != 60 || idx != got) && bad++ < DIAG_MAX)
				t_diag("%s: RX %zu: %u bytes, frame %zu", name, got, rdn.len, idx);
			got++;
			nic_drv_rx_post(&drv, 128);
			posted_rx = 1;
		}
		if (posted_rx)
			nic_drv_rx_kick(&drv);
	}
	t_diag("%s: %zu frames each way in %llu clocks", name, n,
	       (unsigned long long)(nic_env_clock(env) - t0));
	i = nic_drv_tx_cons(&drv);
	t_ok(!bad && txdone == n && got == n && i == (n & 0xffff),
	     "%s: %zu frames through 4096-entry rings in loopback: the 16-bit PROD/CONS wrap, every frame once and in order (TX %zu, RX %zu, CONS %zu)",
	     name, n, txdone, got, i);
	wr(INC_CTRL, 0);
	phase_end(name);
}

/* ---- NIC_REPLAY=dir: every *.bin file there, injected on RX ---- */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void phase_replay(void)
{
	const char *name = "rx/replay", *dir = getenv("NIC_REPLAY");
	struct item *rx = NULL;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *de;
	struct run r;
	DIR *d;

	if (!dir || !*dir || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 4 && !strcmp(de->d_name + l - 4, ".bin")) {
			names = realloc(names, (n + 1) * sizeof(*names));
			names[n++] = strdup(de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	rx = calloc(n + 1, sizeof(*rx));
	for (i = 0; i < n; i++) {
		char path[1024];
		size_t len = 0;
		uint8_t *f;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		f = t_read_file(path, &len);
		if (!f || len > MAXF || len < 14) {
			free(f);
			f = dup((const uint8_t *)"\xff\xff\xff\xff\xff\xff\0\0\0\0\0\1\x88\xb5", 14);
			len = 14;
		}
		rx[i].f = f;
		rx[i].len = len;
		snprintf(rx[i].desc, sizeof(rx[i].desc), "%.100s", names[i]);
		expect_rx(&rx[i], f, len, 9018, BUF_SIZE);
		t_diag("%s: %s, %zu bytes: %s", name, names[i], len,
		       incw_rx_result_name(rx[i].rx_res));
		free(names[i]);
	}
	free(names);
	wr(INC_CTRL, INC_CTRL_RX_EN);
	memset(&r, 0, sizeof(r));
	r.rx = rx;
	r.nrx = n;
	r.rx_buf_len = BUF_SIZE;
	r.timeout = 4000000;
	run_traffic(&r);
	check_rx(&r, name);
	check_idle(&r, name);
	wr(INC_CTRL, 0);
	run_free(&r);
	items_free(rx, n);
	phase_end(name);
}

/* ---------------------------------------------------------------- */

static void load_gradients(void)
{
	char **paths;
	size_t n = t_gradient_files(&paths), i;

	for (i = 0; i < n; i++) {
		size_t len;
		uint8_t *g = t_read_file(paths[i], &len);

		if (g) {
			const char *b = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
			size_t nl = strcspn(b, "-");

			if (nl >= sizeof(model[0].name))
				nl = sizeof(model[0].name) - 1;
			if (!nmodel || strlen(model[nmodel - 1].name) != nl ||
			    strncmp(model[nmodel - 1].name, b, nl)) {
				if (nmodel < NMODEL) {
					memcpy(model[nmodel].name, b, nl);
					model[nmodel].name[nl] = 0;
					model[nmodel].off = grad_len;
					nmodel++;
				}
			}
			if (nmodel && model[nmodel - 1].off + model[nmodel - 1].len == grad_len)
				model[nmodel - 1].len += len;
			grad = realloc(grad, grad_len + len);
			memcpy(grad + grad_len, g, len);
			grad_len += len;
			free(g);
		}
		free(paths[i]);
	}
	free(paths);
	if (!grad_len)
		t_diag("no gradient files in %s: gaussians only", t_gradient_dir());
	else
		t_diag("%zu gradient files, %zu values", n, grad_len / 4);
}

/* ---- management block (register map 1.4): loader, firmware, mailbox ---- */

/* The firmware image (make firmware): NIC_FW, else next to the test
 * binary's directory (build/tests/ -> build/firmware/). */
static char fw_path[4096];

struct fw_image {
	uint8_t *buf;
	size_t len;
	uint32_t version, payload, load, entry, crc;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int fw_read(struct fw_image *im)
{
	FILE *f = fopen(fw_path, "rb");
	long n;

	memset(im, 0, sizeof(*im));
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < INC_FWIMG_HDR_BYTES ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	im->len = (size_t)n;
	im->buf = xmalloc(im->len);
	if (fread(im->buf, 1, im->len, f) != im->len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	if (le32(im->buf) != INC_FWIMG_MAGIC || le32(im->buf + 4) != INC_FWIMG_HDR_VERSION)
		return -1;
	im->version = le32(im->buf + 8);
	im->payload = le32(im->buf + 12);
	im->load = le32(im->buf + 16);
	im->entry = le32(im->buf + 20);
	im->crc = le32(im->buf + 24);
	if (im->payload % 4 || im->payload > INC_FWIMG_IMEM_BYTES ||
	    INC_FWIMG_HDR_BYTES + (size_t)im->payload != im->len)
		return -1;
	return 0;
}

/* The driver's boot steps (docs/firmware.md "Boot" 2): HALT, the load
 * address, every payload word, un-HALT. */
static void fw_load(const struct fw_image *im)
{
	uint32_t i;

	wr(INC_MGMT_CTRL, INC_MGMT_CTRL_HALT);
	wr(INC_MGMT_LOAD_ADDR, im->load);
	for (i = 0; i < im->payload; i += 4)
		wr(INC_MGMT_LOAD_DATA, le32(im->buf + INC_FWIMG_HDR_BYTES + i));
	wr(INC_MGMT_CTRL, 0);
}

/* Wait for FW_STATUS.READY: clocks taken, or 0 after max clocks. */
static uint64_t fw_wait_ready(uint64_t max)
{
	uint64_t c0 = nic_env_clock(env);

	while (nic_env_clock(env) - c0 < max) {
		if (rd(INC_FW_STATUS) & INC_FW_STATUS_READY)
			return nic_env_clock(env) - c0;
		nic_env_step(env, 5000);
	}
	return 0;
}

static int irq_vec2(struct nic_env *e, void *ctx)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < nic_env_irq_count(e); i++)
		if (nic_env_irq(e, i)->vector == INC_IRQ_MGMT)
			return 1;
	return 0;
}

static unsigned int mbox_seq = 0x100;
static uint64_t mbox_clocks;		/* the last command's doorbell to vector 2 */

/* One admin command through the mailbox, completed by vector 2's message:
 * the response's status, or -1 (no interrupt, BUSY left set, the sequence
 * number wrong, IRQ_STATUS bit 2 clear). rsp gets words 0..nrsp-1. */
static int mbox_cmd(uint32_t op, const uint32_t *arg, unsigned int nargs, uint32_t *rsp,
		    unsigned int nrsp)
{
	unsigned int i, seq = ++mbox_seq & 0xffff;
	uint64_t c0;
	uint32_t w0;

	wr(INC_MBOX_CMD, seq << 16 | op);
	for (i = 0; i < nargs; i++)
		wr((uint16_t)(INC_MBOX_CMD + 4 * (i + 1)), arg[i]);
	wr(INC_IRQ_STATUS, 1u << INC_IRQ_MGMT);
	wr(INC_IRQ_ENABLE, 1u << INC_IRQ_MGMT);
	nic_env_irq_clear(env);
	c0 = nic_env_clock(env);
	wr(INC_MBOX_DOORBELL, 1);
	if (nic_env_run_until(env, irq_vec2, NULL, 400000)) {
		t_diag("mailbox: no vector 2 message for opcode 0x%04x (MBOX_STATUS 0x%x, FW_STATUS 0x%08x)",
		       op, rd(INC_MBOX_STATUS), rd(INC_FW_STATUS));
		return -1;
	}
	mbox_clocks = nic_env_clock(env) - c0;
	if (rd(INC_MBOX_STATUS) & INC_MBOX_STATUS_BUSY) {
		t_diag("mailbox: BUSY still set after vector 2");
		return -1;
	}
	if (!(rd(INC_IRQ_STATUS) & 1u << INC_IRQ_MGMT) ||
	    (rd(INC_IRQ_ENABLE) & 1u << INC_IRQ_MGMT)) {
		t_diag("mailbox: IRQ_STATUS bit 2 clear or IRQ_ENABLE bit 2 not auto-masked");
		return -1;
	}
	for (i = 0; i < nrsp; i++)
		rsp[i] = rd((uint16_t)(INC_MBOX_RSP + 4 * i));
	w0 = rd(INC_MBOX_RSP);
	if (w0 >> 16 != seq) {
		t_diag("mailbox: response sequence 0x%x, sent 0x%x", w0 >> 16, seq);
		return -1;
	}
	return (int)(w0 & 0xffff);
}

#define MG_L	100u		/* the snapshot test's frames: bytes each */

/* STATS_SNAPSHOT: status; snap[n] the 64-bit counters of the response */
static int mbox_snapshot(int clear, uint64_t *snap)
{
	uint32_t arg = clear ? 1 : 0, rsp[2 + 2 * INC_ST_N];
	int st = mbox_cmd(INC_MBOX_OP_STATS_SNAPSHOT, &arg, 1, rsp, 2 + 2 * INC_ST_N), n;

	if (st != 0 || rsp[1] != INC_ST_N)
		return st ? st : -1;
	for (n = 0; n < INC_ST_N; n++)
		snap[n] = (uint64_t)rsp[3 + 2 * n] << 32 | rsp[2 + 2 * n];
	return 0;
}

/* ---- the engine test port and the boot self-test (register map 1.5) ---- */

static int nic_width(void)
{
	return (rd(INC_FEATURES) & INC_FEAT_MODE_WIDTH) != 0;
}

/* FW_SELFTEST when every set the NIC has ran and passed */
static uint32_t st_want_bits(void)
{
	uint32_t have = nic_width() ? 0x3f : 0x0f;

	return have | have << INC_FW_SELFTEST_RUN_SHIFT;
}

/* the vectors of the sets the NIC has, and of mask's sets among them */
static unsigned int st_vectors(uint32_t mask)
{
	unsigned int i, n = 0;
	uint32_t have = st_want_bits() & mask;

	for (i = 0; i < fw_st_nvectors; i++)
		n += (have >> fw_st_vectors[i].set) & 1;
	return n;
}

/* the first vector of set s */
static int st_first_of(unsigned int s)
{
	unsigned int i;

	for (i = 0; i < fw_st_nvectors; i++)
		if (fw_st_vectors[i].set == s)
			return (int)i;
	return -1;
}

static void phase_mgmt(void)
{
	const char *name = "mgmt";
	struct fw_image im;
	uint32_t v, rsp[8], arg[2];
	uint64_t t, hb0, hb1, s0[INC_ST_N], s1[INC_ST_N], live[INC_ST_N];
	size_t i, k = 6000;
	uint8_t f[MG_L];
	int st, ok, n;

	if (phase_begin(name, &cfg_std, 4, 4, 0))
		return;
	v = rd(INC_VERSION);
	t_ok(v >> 8 == 0x105 && (rd(INC_FEATURES) & INC_FEAT_MGMT) &&
	     (rd(INC_FEATURES) & INC_FEAT_TPORT),
	     "%s: VERSION 1.5 (0x%08x), FEATURES bits 13 and 14", name, v);
	t_ok(rd(INC_MGMT_CTRL) == INC_MGMT_CTRL_HALT && rd(INC_FW_STATUS) == 0 &&
	     rd(INC_FW_VERSION) == 0 && rd(INC_MBOX_STATUS) == 0,
	     "%s: after reset HALT is 1, FW_STATUS, FW_VERSION and MBOX_STATUS read 0", name);
	if (fw_read(&im)) {
		t_ok(0, "%s: firmware image %s (make firmware): missing or not an image", name,
		     fw_path);
		free(im.buf);
		phase_end(name);
		return;
	}
	t_diag("%s: %s: version 0x%08x, %u payload bytes at 0x%x, entry 0x%x", name,
	       fw_path, im.version, im.payload, im.load, im.entry);
	t = nic_env_clock(env);
	fw_load(&im);
	t_diag("%s: %u words loaded in %llu clocks", name, im.payload / 4,
	       (unsigned long long)(nic_env_clock(env) - t));
	t = fw_wait_ready(4000000);
	t_ok(t != 0, "%s: FW_STATUS.READY %llu clocks after un-HALT (bound 4000000; FW_STATUS 0x%08x)",
	     name, (unsigned long long)t, rd(INC_FW_STATUS));
	if (!t) {
		free(im.buf);
		phase_end(name);
		return;
	}
	v = rd(INC_FW_STATUS);
	t_ok((v & INC_FW_STATUS_ST_DONE) && (v & INC_FW_STATUS_ST_PASS) &&
	     !(v & INC_FW_STATUS_BOOT_ERROR),
	     "%s: FW_STATUS 0x%08x: SELFTEST_DONE and SELFTEST_PASS, no BOOT_ERROR", name, v);
	v = rd(INC_FW_SELFTEST);
	t_ok(v == st_want_bits(),
	     "%s: FW_SELFTEST 0x%04x: every set the NIC has ran and passed (want 0x%04x: width %s)",
	     name, v, st_want_bits(), nic_width() ? "run" : "not run, 8 lanes");
	v = rd(INC_FW_VERSION);
	t_ok(v == im.version, "%s: FW_VERSION 0x%08x is the header's (0x%08x)", name, v,
	     im.version);
	/* the heartbeat: every millisecond of mtime (TIMER_PRESCALE clocks a
	 * microsecond) */
	hb0 = rd(INC_FW_HEARTBEAT);
	nic_env_step(env, 3 * 1000 * NIC_CLK_MHZ);
	hb1 = rd(INC_FW_HEARTBEAT);
	t_ok(hb1 - hb0 >= 2 && hb1 - hb0 <= 4,
	     "%s: FW_HEARTBEAT +%llu in 3 ms of clocks (%llu -> %llu)", name,
	     (unsigned long long)(hb1 - hb0), (unsigned long long)hb0, (unsigned long long)hb1);

	memset(rsp, 0, sizeof(rsp));
	st = mbox_cmd(INC_MBOX_OP_GET_VERSION, NULL, 0, rsp, 6);
	t_ok(st == 0 && rsp[1] == im.version && rsp[4] == im.crc,
	     "%s: GET_VERSION through the mailbox and vector 2 (%llu clocks): status %d, version 0x%08x, build id 0x%08x, caps 0x%x, image CRC 0x%08x (header 0x%08x), IMEM %u bytes",
	     name, (unsigned long long)mbox_clocks, st, rsp[1], rsp[2], rsp[3], rsp[4], im.crc,
	     rsp[5]);
	st = mbox_cmd(INC_MBOX_OP_GET_LINK, NULL, 0, rsp, 3);
	ok = st == 0 && rsp[1] == 1 && rsp[2] == nic_env_get_cfg(env)->link_speed;
	nic_env_set_link(env, 0);
	nic_env_step(env, 8);
	st = mbox_cmd(INC_MBOX_OP_GET_LINK, NULL, 0, rsp, 3);
	ok = ok && st == 0 && rsp[1] == 0;
	nic_env_set_link(env, 1);
	t_ok(ok, "%s: GET_LINK: up at %u Mbit/s, then down", name,
	     nic_env_get_cfg(env)->link_speed);
	arg[0] = 0x5634120a;
	arg[1] = 0x9a78;
	st = mbox_cmd(INC_MBOX_OP_SET_MAC, arg, 2, rsp, 1);
	t_ok(st == 0 && rd(INC_MAC_LO) == arg[0] && rd(INC_MAC_HI) == arg[1],
	     "%s: SET_MAC: status %d, MAC_LO 0x%08x MAC_HI 0x%04x (the core's register writes)",
	     name, st, rd(INC_MAC_LO), rd(INC_MAC_HI));
	arg[0] = 0x56341201;		/* multicast */
	st = mbox_cmd(INC_MBOX_OP_SET_MAC, arg, 2, rsp, 1);
	t_ok(st == INC_MBOX_ST_EINVAL && rd(INC_MAC_LO) == 0x5634120a,
	     "%s: SET_MAC of a multicast address: EINVAL (%d), MAC unchanged", name, st);
	st = mbox_cmd(0x7777, NULL, 0, rsp, 1);
	t_ok(st == INC_MBOX_ST_EOPNOTSUPP, "%s: opcode 0x7777: EOPNOTSUPP (%d)", name, st);

	/* STATS_SNAPSHOT under traffic: k frames of MG_L bytes from the MAC
	 * (no RX buffer posted: counted and dropped); rx_frames and rx_bytes
	 * move in the same clock, so at any one instant bytes = MG_L frames */
	wr(INC_CTRL, INC_CTRL_RX_EN);
	for (i = 0; i < k; i++) {
		fill_random(f, MG_L);
		memset(f, 0xff, 6);
		f[12] = 0x88;
		f[13] = 0xb5;
		nic_env_rx_inject(env, f, MG_L, 0, 0);
	}
	nic_env_step(env, 1500);
	st = mbox_snapshot(0, s0);
	ok = st == 0 && s0[INC_ST_RX_BYTES] == MG_L * s0[INC_ST_RX_FRAMES];
	for (n = 0; ok && n < INC_ST_N; n++)
		ok = s0[n] == ((uint64_t)rd((uint16_t)(INC_STATS_SNAP_BANK + 8 * n + 4)) << 32 |
			       rd((uint16_t)(INC_STATS_SNAP_BANK + 8 * n)));
	t_ok(ok && s0[INC_ST_RX_FRAMES] > 0 && s0[INC_ST_RX_FRAMES] < k,
	     "%s: STATS_SNAPSHOT under traffic: status %d, rx_frames %llu of %zu, rx_bytes %llu = %u x frames (one instant), the response is the bank at 0x1800",
	     name, st, (unsigned long long)s0[INC_ST_RX_FRAMES], k,
	     (unsigned long long)s0[INC_ST_RX_BYTES], MG_L);
	st = mbox_snapshot(1, s1);
	ok = st == 0 && s1[INC_ST_RX_BYTES] == MG_L * s1[INC_ST_RX_FRAMES] &&
	     s1[INC_ST_RX_FRAMES] >= s0[INC_ST_RX_FRAMES];
	t_ok(ok && s1[INC_ST_RX_FRAMES] < k,
	     "%s: STATS_SNAPSHOT with clear under traffic: status %d, rx_frames %llu, rx_bytes %llu (one instant)",
	     name, st, (unsigned long long)s1[INC_ST_RX_FRAMES],
	     (unsigned long long)s1[INC_ST_RX_BYTES]);
	nic_env_run_until(env, env_quiet, NULL, 40 * k + 100000);
	nic_env_step(env, 2000);
	for (n = 0; n < INC_ST_N; n++)
		live[n] = nic_stat(env, n);
	t_ok(s1[INC_ST_RX_FRAMES] + live[INC_ST_RX_FRAMES] == k &&
	     s1[INC_ST_RX_BYTES] + live[INC_ST_RX_BYTES] == MG_L * k,
	     "%s: no count lost or doubled across the clear: %llu + %llu frames = %zu, %llu + %llu bytes",
	     name, (unsigned long long)s1[INC_ST_RX_FRAMES],
	     (unsigned long long)live[INC_ST_RX_FRAMES], k,
	     (unsigned long long)s1[INC_ST_RX_BYTES], (unsigned long long)live[INC_ST_RX_BYTES]);
	arg[0] = 2;
	st = mbox_cmd(INC_MBOX_OP_STATS_SNAPSHOT, arg, 1, rsp, 1);
	t_ok(st == INC_MBOX_ST_EINVAL, "%s: STATS_SNAPSHOT with an unknown flag: EINVAL (%d)",
	     name, st);
	wr(INC_CTRL, 0);

	/* HALT again, then a reload */
	wr(INC_MGMT_CTRL, INC_MGMT_CTRL_HALT);
	hb0 = rd(INC_FW_HEARTBEAT);
	nic_env_step(env, 1200 * NIC_CLK_MHZ);
	t_ok(rd(INC_FW_STATUS) == 0 && rd(INC_FW_VERSION) == 0 &&
	     rd(INC_FW_HEARTBEAT) == hb0,
	     "%s: HALT clears FW_STATUS and FW_VERSION, the heartbeat stops", name);
	fw_load(&im);
	t = fw_wait_ready(4000000);
	st = t ? mbox_cmd(INC_MBOX_OP_GET_VERSION, NULL, 0, rsp, 2) : -1;
	t_ok(t && st == 0 && rsp[1] == im.version && rd(INC_FW_VERSION) == im.version,
	     "%s: reload: READY after %llu clocks, GET_VERSION answers (%d)", name,
	     (unsigned long long)t, st);
	wr(INC_MGMT_CTRL, INC_MGMT_CTRL_HALT);
	wr(INC_IRQ_ENABLE, 0);
	nic_env_irq_clear(env);
	free(im.buf);
	phase_end(name);
}

/* RUN_VECTOR i (its input cut to in_len bytes, 0: all): the status; rsp
 * words 0..4 */
static int run_vector(unsigned int i, uint32_t in_len, uint32_t *rsp)
{
	uint32_t arg[2] = { i, in_len };

	return mbox_cmd(INC_MBOX_OP_RUN_VECTOR, arg, 2, rsp, 5);
}

/* TP_OUT's first n bytes, read by the host */
static void tp_out(uint8_t *p, size_t n)
{
	size_t i, b;

	for (i = 0; i < n; i += 4) {
		uint32_t w = rd((uint16_t)(INC_TP_OUT + i));

		for (b = 0; b < 4 && i + b < n; b++)
			p[i + b] = (uint8_t)(w >> (8 * b));
	}
}

/* RUN_SELFTEST, BUSY polled (a changed result raises EVENT bit 1, vector
 * 2's event, before the completion): the status, or -1; rsp words 0..4 */
static int run_selftest(uint32_t *rsp)
{
	unsigned int i, seq = ++mbox_seq & 0xffff;
	uint64_t c0 = nic_env_clock(env);

	wr(INC_MBOX_CMD, seq << 16 | INC_MBOX_OP_RUN_SELFTEST);
	wr(INC_MBOX_DOORBELL, 1);
	do {
		nic_env_step(env, 1000);
		if (nic_env_clock(env) - c0 > 4000000) {
			t_diag("RUN_SELFTEST: BUSY after %llu clocks",
			       (unsigned long long)(nic_env_clock(env) - c0));
			return -1;
		}
	} while (rd(INC_MBOX_STATUS) & INC_MBOX_STATUS_BUSY);
	for (i = 0; i < 5; i++)
		rsp[i] = rd((uint16_t)(INC_MBOX_RSP + 4 * i));
	if (rsp[0] >> 16 != seq)
		return -1;
	return (int)(rsp[0] & 0xffff);
}

/*
 * The engine test port and the boot self-test on the real firmware: every
 * set the NIC has ran and passed at boot; each vector alone through its
 * engine (RUN_VECTOR), its output read from TP_OUT by the host and
 * compared with the C golden model; malformed bodies into each
 * decompressor; RUN_SELFTEST while marked frames flow through the engines
 * (looped back: every frame checked, none lost or altered); then with
 * dbg_engine_fault: the failed sets, the first failure, PASS clear; and
 * PASS again without it.
 */
static void phase_mgmt_selftest(void)
{
	const char *name = "mgmt/selftest";
	struct fw_image im;
	uint32_t v, rsp[5], want, tps;
	uint8_t out[INC_TP_OUT_BYTES], gold[INC_TP_OUT_BYTES];
	unsigned int i, nran = 0, nsame = 0, nexp = 0, s;
	uint64_t t;
	int st, ok;

	if (phase_begin(name, &cfg_std, 6, 6, 9018))
		return;
	want = st_want_bits();
	v = rd(INC_TP_INFO);
	t_ok((rd(INC_FEATURES) & INC_FEAT_TPORT) && v == (INC_TP_OUT_BYTES << 16 | INC_TP_IN_BYTES) &&
	     rd(INC_TP_STATUS) == 0,
	     "%s: FEATURES bit 14, TP_INFO 0x%08x (TP_IN, TP_OUT bytes), TP_STATUS 0 after reset",
	     name, v);
	if (fw_read(&im)) {
		t_ok(0, "%s: firmware image %s: missing or not an image", name, fw_path);
		free(im.buf);
		phase_end(name);
		return;
	}
	fw_load(&im);
	t = fw_wait_ready(4000000);
	v = rd(INC_FW_STATUS);
	t_ok(t && (v & INC_FW_STATUS_ST_PASS) && rd(INC_FW_SELFTEST) == want,
	     "%s: READY after %llu clocks, FW_STATUS 0x%08x (PASS), FW_SELFTEST 0x%04x (want 0x%04x)",
	     name, (unsigned long long)t, v, rd(INC_FW_SELFTEST), want);
	if (!t) {
		free(im.buf);
		phase_end(name);
		return;
	}
	st = mbox_cmd(INC_MBOX_OP_GET_SELFTEST, NULL, 0, rsp, 5);
	t_ok(st == 0 && rsp[1] == want && rsp[2] == st_vectors(0x3f) && rsp[3] == 0,
	     "%s: GET_SELFTEST: 0x%04x, %u vectors run (the image's %u of the NIC's sets), %u failed",
	     name, rsp[1], rsp[2], st_vectors(0x3f), rsp[3]);

	/* each vector alone through its engine, TP_OUT against the model */
	for (i = 0; i < fw_st_nvectors; i++) {
		const struct st_vector *sv = &fw_st_vectors[i];
		int have = (want >> sv->set) & 1, rc;
		size_t glen = 0;

		st = run_vector(i, 0, rsp);
		tps = rd(INC_TP_STATUS);
		if (!have) {
			ok = st == 0 && rsp[1] == ST_NOT_RUN;
			if (!ok)
				t_diag("%s: vector %u (set %u, not the NIC's) ran: %u", name, i,
				       sv->set, rsp[1]);
			nexp += ok;
			continue;
		}
		if (sv->set & ST_SET_DECOMP) {
			glen = sv->out_len;
			rc = inc_chunk_decode(sv->in, sv->in_len, sv->out_len, sv->k,
					      (enum inc_mode)sv->mode, gold, sizeof(gold));
		} else {
			rc = inc_chunk_encode(sv->in, sv->in_len, sv->k, (enum inc_mode)sv->mode,
					      gold, sizeof(gold), &glen);
		}
		memset(out, 0, sizeof(out));
		tp_out(out, glen);
		ok = st == 0 && rc == 0 && rsp[1] == ST_RAN && rsp[2] == glen && rsp[3] == 1 &&
		     (tps & INC_TP_ST_DONE) && !(tps & ~(INC_TP_ST_DONE | 0xffff0000u)) &&
		     tps >> INC_TP_ST_OUT_SHIFT == glen && !memcmp(out, gold, glen);
		nran += rsp[1] == ST_RAN;
		nsame += ok;
		if (!ok)
			t_diag("%s: vector %u (set %u, mode %u, k %u, %u -> %zu bytes): status %d, result %u, %u bytes, as expected %u, TP_STATUS 0x%08x, model rc %d, TP_OUT %s the model's",
			       name, i, sv->set, sv->mode, sv->k, sv->in_len, glen, st, rsp[1],
			       rsp[2], rsp[3], tps, rc, memcmp(out, gold, glen) ? "differs from" : "is");
	}
	t_ok(nsame == st_vectors(0x3f) && nexp == fw_st_nvectors - st_vectors(0x3f),
	     "%s: RUN_VECTOR: %u vectors through their engines (compressor, decompressor%s), TP_OUT byte-exact with the C model; %u of other sets not run",
	     name, nsame, nic_width() ? ", width decompressor" : "", nexp);

	/* malformed bodies into each decompressor: a byte short */
	ok = 1;
	for (s = 1; s < INC_FW_ST_SETS; s += 2) {
		int vi = st_first_of(s);

		if (vi < 0 || !((want >> s) & 1))
			continue;
		st = run_vector((unsigned int)vi, fw_st_vectors[vi].in_len - 1u, rsp);
		tps = rd(INC_TP_STATUS);
		if (st != 0 || rsp[1] != ST_RAN_BAD || !(tps & INC_TP_ST_ERROR) ||
		    !(tps & INC_TP_ST_DONE)) {
			ok = 0;
			t_diag("%s: set %u vector %d a byte short: status %d, result %u, TP_STATUS 0x%08x",
			       name, s, vi, st, rsp[1], tps);
		}
	}
	t_ok(ok, "%s: a body a byte short into each decompressor: flagged (TP_STATUS ERROR, the result 'engine flagged')",
	     name);
	/* the decompressor goes on after a malformed chunk */
	{
		int vi = st_first_of(3);

		st = run_vector((unsigned int)vi, 0, rsp);
		t_ok(vi >= 0 && st == 0 && rsp[1] == ST_RAN && (rd(INC_TP_STATUS) & INC_TP_ST_DONE) &&
		     !(rd(INC_TP_STATUS) & INC_TP_ST_ERROR),
		     "%s: and the next chunk through the same decompressor is decoded normally", name);
	}

	/* RUN_SELFTEST while marked frames flow through the engines */
	{
		/* (a RUN_SELFTEST takes about 230000 clocks, 120 such frames
		 * about 20000 at 16 lanes: 1200 ended before the first
		 * RUN_SELFTEST, so NIC_QUICK runs them all too) */
		size_t n = 2400, k;
		struct item *tx = calloc(n, sizeof(*tx));
		struct run r;

		for (k = 0; k < n; k++) {
			gen_marked(&tx[k], 9018);
			expect_tx(&tx[k], 9018);
			expect_rx(&tx[k], tx[k].wire, tx[k].wire_len, 9018, BUF_SIZE);
		}
		loop_run(&r, tx, n);
		r.selftests = 2;
		r.st_want = want;
		run_traffic(&r);
		k = r.st_ok;
		t_diag("%s: %u RUN_SELFTEST done while the frames flowed (%zu frames, %llu clocks)",
		       name, r.st_ok, n, (unsigned long long)r.clocks);
		t = nic_env_clock(env);
		while ((r.st_busy || r.st_issued < r.selftests) && nic_env_clock(env) - t < 2000000) {
			nic_env_step(env, 500);
			selftest_under_load(&r);
		}
		t_ok(k >= 1 && r.st_ok == r.selftests,
		     "%s: RUN_SELFTEST under traffic: %u of %u passed (0x%04x), %zu during the frames",
		     name, r.st_ok, r.selftests, want, k);
		check_tx_status(&r, name);
		check_rx(&r, name);
		check_idle(&r, name);
		wr(INC_CTRL, 0);
		run_free(&r);
		items_free(tx, n);
		/* the completions above left vector 2's event pending (it was
		 * disabled): its message goes now, before mbox_cmd's next */
		wr(INC_IRQ_ENABLE, 1u << INC_IRQ_MGMT);
		nic_env_step(env, 200);
		nic_env_irq_clear(env);
	}

	/* a faulty engine: the sets it serves fail, PASS clears */
	for (s = 0; s < 2; s++) {
		uint32_t bad = s == 0 ? 0x15 : 0x2a;	/* compress sets, decompress sets */
		uint32_t wb = want & ~bad;
		unsigned int nbad = st_vectors(bad);

		nic_env_set_engine_fault(env, s == 0 ? NIC_FAULT_TX : NIC_FAULT_RX);
		wr(INC_MGMT_EVENT, 7);
		st = run_selftest(rsp);
		v = rd(INC_FW_STATUS);
		t_ok(st == 0 && rsp[1] == wb && rsp[2] == st_vectors(0x3f) && rsp[3] == nbad &&
		     rsp[4] == (s == 0 ? 0x0000u : 0x0100u) && rd(INC_FW_SELFTEST) == wb &&
		     (v & INC_FW_STATUS_READY) && (v & INC_FW_STATUS_ST_DONE) &&
		     !(v & INC_FW_STATUS_ST_PASS) && (rd(INC_MGMT_EVENT) & INC_MGMT_EVENT_SELFTEST),
		     "%s: dbg_engine_fault %s: RUN_SELFTEST 0x%04x (want 0x%04x), %u run, %u failed (want %u), first failure 0x%04x, FW_STATUS 0x%08x (PASS clear), EVENT bit 1",
		     name, s == 0 ? "compressor" : "decompressors", rsp[1], wb, rsp[2], rsp[3],
		     nbad, rsp[4], v);
	}
	nic_env_set_engine_fault(env, 0);
	st = run_selftest(rsp);
	v = rd(INC_FW_STATUS);
	t_ok(st == 0 && rsp[1] == want && rsp[3] == 0 && (v & INC_FW_STATUS_ST_PASS),
	     "%s: the fault gone: RUN_SELFTEST 0x%04x, PASS again (FW_STATUS 0x%08x)", name,
	     rsp[1], v);
	t_diag("%s: %u vectors ran through the port", name, nran);

	wr(INC_MGMT_CTRL, INC_MGMT_CTRL_HALT);
	wr(INC_IRQ_ENABLE, 0);
	nic_env_irq_clear(env);
	free(im.buf);
	phase_end(name);
}

int main(int argc, char **argv)
{
	const char *s = getenv("NIC_SEED");
	static const struct {
		const char *name;
		void (*fn)(void);
	} phases[] = {
		{ "id", phase_id },
		{ "control", phase_control },
		{ "dma/arbiter", phase_arbiter },
		{ "loopback/switch", phase_loopback_switch },
		{ "reset/rx-cut", phase_reset_rx },
		{ "registers/under-load", phase_churn },
		{ "flush/tx", phase_flush_tx },
		{ "flush/rx", phase_flush_rx },
		{ "unmarked/loopback", phase_unmarked_loopback },
		{ "unmarked/mac", phase_unmarked },
		{ "marked/mac", phase_marked },
		{ "marked/loopback", phase_marked_loopback },
		{ "marked/ineligible", phase_ineligible },
		{ "rx/malformed", phase_malformed },
		{ "rx/mac-errors", phase_mac_errors },
		{ "rx/no-buffer", phase_no_buffer },
		{ "backpressure", phase_backpressure },
		{ "rx/line-rate", phase_rx_stress },
		{ "no-backpressure", phase_nobp },
		{ "dma/slow", phase_slow_dma },
		{ "dma/latency", phase_dma_latency },
		{ "interrupts", phase_irq },
		{ "statistics", phase_stats },
		{ "dma/64-bit", phase_high_memory },
		{ "rings/index-wrap", phase_wrap },
		{ "rx/replay", phase_replay },
		{ "link/gradients", phase_link },
		{ "mgmt", phase_mgmt },
		{ "mgmt/selftest", phase_mgmt_selftest },
	};
	size_t i;

	if (getenv("NIC_FW") && *getenv("NIC_FW")) {
		snprintf(fw_path, sizeof(fw_path), "%s", getenv("NIC_FW"));
	} else {
		const char *sl = argc > 0 ? strrchr(argv[0], '/') : NULL;

		snprintf(fw_path, sizeof(fw_path), "%.*s../firmware/inceptionn-fw.bin",
			 sl ? (int)(sl - argv[0] + 1) : 0, sl ? argv[0] : "");
	}
	if (s && *s)
		seed = strtoull(s, NULL, 0);
	quick = getenv("NIC_QUICK") && *getenv("NIC_QUICK") == '1';
	only = getenv("NIC_PHASE");
	if (only && !*only)
		only = NULL;
	R.s = seed * 0x9e3779b97f4a7c15ull + 7;
	t_diag("seed %llu%s (NIC_SEED, NIC_PHASE, NIC_QUICK)", (unsigned long long)seed,
	       quick ? ", quick" : "");
	load_gradients();
	nic_env_cfg_default(&cfg_std, seed);
	cfg_std.log = env_log;
	cfg_std.trace = getenv("NIC_TRACE") && *getenv("NIC_TRACE") == '1';
	env = nic_env_new(&cfg_std);
	if (!env) {
		t_ok(0, "environment");
		return t_done();
	}
	memset(&drv, 0, sizeof(drv));
	for (i = 0; only && i < sizeof(phases) / sizeof(phases[0]); i++)
		only_exact |= !strcmp(phases[i].name, only);
	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		struct timespec a, b;
		uint64_t c0 = nic_env_clock(env);

		if (!want_phase(phases[i].name) ||
		    (phases[i].fn == phase_replay && !getenv("NIC_REPLAY")))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &a);
		phases[i].fn();
		clock_gettime(CLOCK_MONOTONIC, &b);
		t_diag("%s: %llu clocks, %.1f s", phases[i].name,
		       (unsigned long long)(nic_env_clock(env) - c0),
		       (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec));
	}
	t_diag("%llu clocks simulated", (unsigned long long)nic_env_clock(env));
	nic_drv_fini(&drv);
	nic_env_free(env);
	free(grad);
	return t_done();
}
