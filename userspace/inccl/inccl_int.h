/* SPDX-License-Identifier: MIT */
/*
 * inccl internals: the communicator, its links, and the operation lists a
 * collective is compiled into (plan.c) and that the engine (engine.c) runs.
 * Not installed.
 */
#ifndef INCCL_INT_H
#define INCCL_INT_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>

#include "inccl.h"

#define INCCL_DEFAULT_K		10
#define INCCL_DEFAULT_TIMEOUT_MS 60000u
#define INCCL_DEFAULT_SLICE	(64u << 10)
#define INCCL_SLICE_MIN		(8u << 10)
#define INCCL_SLICE_MAX		(16u << 20)
/* codec chunk of the sw transport: 2048 floats (docs/codec.md: <= 9000 B) */
#define INCCL_CHUNK_FLOATS	2048u
/* reduce-scatter: slices of partial sums in flight per link */
#define INCCL_FIFO_SLICES	4u

/* ---- wire ----------------------------------------------------------- */

#define INCCL_HELLO_MAGIC	0x48434e49u	/* "INCH": a link's first bytes */
#define INCCL_CALL_MAGIC	0x4c434e49u	/* "INCL": each call's header */
#define INCCL_BOOT_MAGIC	0x42434e49u	/* "INCB": rendezvous */
#define INCCL_PROTO_VERSION	1
#define INCCL_CALL_HDR_BYTES	24
#define INCCL_HELLO_BYTES	32

/* link purposes (hello) */
enum { LINK_RING = 1, LINK_STAR = 2 };

/* ---- operations ------------------------------------------------------ */

enum op_kind {
	OP_SEND_RAW,	/* write src exact */
	OP_SEND_GRID,	/* write Q(src): sw encodes, nic marks, none raw */
	OP_RECV_COPY,	/* buf = received */
	OP_RECV_ACCUM,	/* buf = buf + received */
	OP_RECV_ACCUM_FROM, /* buf = src (+ residual) + received */
};

/* op flags */
#define OPF_EFIN	(1u << 0)	/* src is this rank's input: add the
					 * residual, then clear it */
#define OPF_EFREC	(1u << 1)	/* record residual = value - Q(value) */
#define OPF_ONGRID	(1u << 2)	/* src is already Q(src): no quantize */
#define OPF_FROMGRID	(1u << 3)	/* recv: the sender's op is OP_SEND_GRID */

enum { DIR_SEND = 0, DIR_RECV = 1 };

struct op_dep {
	int16_t link;		/* -1: none */
	uint8_t dir;		/* DIR_SEND: written; DIR_RECV: applied */
	uint32_t idx;		/* satisfied when done[dir] > idx */
};

struct op {
	float *buf;		/* send: writeback target of Q (or NULL);
				 * recv: destination */
	const float *src;	/* send: data; ACCUM_FROM: local addend */
	uint32_t n;		/* floats */
	uint8_t kind;
	uint8_t flags;
	size_t ef_off;		/* element index into the EF state */
	struct op_dep dep[2];
};

struct oplist {
	struct op *v;
	uint32_t n, cap;
};

/* ---- communicator ----------------------------------------------------- */

struct inccl_link {
	int fd;
	int peer;		/* its rank */
	int tx, rx;		/* this link sends / receives in calls */
	int marked;		/* nic: the mark is on now */

	/* per call */
	struct oplist sendq, recvq;
	uint32_t done[2];	/* ops written / applied */
	int hdr_out;		/* call header bytes written (0..24) */
	int hdr_in;		/* call header checked */
	uint8_t hdr[INCCL_CALL_HDR_BYTES];
	int marks_this_call;	/* nic: the floats of this call go marked */

	/* send staging: two float slices and the encoded bytes */
	int staged;
	const uint8_t *tx_ptr;
	size_t tx_left;
	float *txf;
	uint8_t *txbuf;

	/* receive: read-ahead buffer, then the current op's floats */
	uint8_t *rxbuf;
	size_t rxcap, rx_rd, rx_wr;
	float *rxf;		/* the current recv op's floats */
	size_t rx_got;		/* bytes of them received */
	int rx_ready;		/* all received, waiting to be applied */
	int rx_eof;

	int want_in, want_out;
};

struct inccl_comm {
	struct inccl_config cfg;	/* resolved */
	int rank, world;
	unsigned int slice;		/* floats per slice */
	struct inccl_link *links;
	int nlinks;
	int next, prev;			/* ring: link indices */
	struct sockaddr_storage *addrs;	/* every rank's data address */
	char (*names)[100];		/* "rank R (addr:port)" per rank */

	uint32_t seq;			/* calls started */
	int failed;			/* first fatal error, or 0 */
	char failmsg[320];

	float *fifo;			/* INCCL_FIFO_SLICES slices */
	size_t fifo_floats;
	struct inccl_stats st;
};

struct inccl_ef {
	size_t count;
	float *r;
};

/* one collective call, as the engine sees it */
struct call {
	uint8_t coll, flags;
	int root;
	uint64_t count;
	int exact;			/* no compression in this call */
	inccl_ef *ef;
	uint8_t hdr[INCCL_CALL_HDR_BYTES];
};

/* ---- errors (err.c) ---------------------------------------------------- */

/* Set the thread's message and return -err. */
int ic_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ic_verr(int err, const char *fmt, va_list ap);
/* Fail the communicator: record, close every link, return -err. */
int ic_fail(struct inccl_comm *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- config.c ------------------------------------------------------------ */
int ic_config_resolve(const struct inccl_config *in, struct inccl_config *out);

/* ---- sock.c ------------------------------------------------------------- */
double ic_now(void);			/* monotonic seconds */
uint64_t ic_cpu_ns(void);		/* thread CPU time */
int ic_parse_hostport(const char *s, char *host, size_t hlen,
		      unsigned int *port);
int ic_resolve(const char *host, unsigned int port, int passive,
	       struct sockaddr_storage *ss, socklen_t *len);
int ic_ifaddr(const char *ifname, struct sockaddr_storage *ss);
socklen_t ic_sslen(const struct sockaddr_storage *ss);
unsigned int ic_port(const struct sockaddr_storage *ss);
void ic_set_port(struct sockaddr_storage *ss, unsigned int port);
void ic_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len);
int ic_listen(const struct sockaddr_storage *ss, int reuse);
int ic_connect_retry(const struct sockaddr_storage *ss, double deadline,
		     const char *what);
int ic_accept(int lfd, double deadline, const char *what);
int ic_read_full(int fd, void *buf, size_t len, double deadline,
		 const char *what);
int ic_write_full(int fd, const void *buf, size_t len, double deadline,
		  const char *what);
int ic_nonblock(int fd);
int ic_tune(int fd);
int ic_mark_probe(void);

/* ---- bootstrap.c ---------------------------------------------------------- */
int ic_bootstrap(struct inccl_comm *c);

/* ---- plan.c ----------------------------------------------------------- */
int ic_plan(struct inccl_comm *c, struct call *call, const float *sendbuf,
	    float *recvbuf);
struct op *ic_op_add(struct oplist *l);

/* ---- engine.c ----------------------------------------------------------- */
int ic_run(struct inccl_comm *c, struct call *call);
void ic_call_hdr_pack(const struct call *call, uint32_t seq,
		      uint8_t out[INCCL_CALL_HDR_BYTES]);

/* ---- xport.c ----------------------------------------------------------- */
int ic_stage_send(struct inccl_comm *c, struct inccl_link *l,
		  const struct call *call, const struct op *op);
int ic_recv_fill(struct inccl_comm *c, struct inccl_link *l,
		 const struct call *call, const struct op *op);
void ic_apply(struct inccl_comm *c, struct inccl_link *l,
	      const struct call *call, const struct op *op);
size_t ic_wire_bound(unsigned int floats);
int ic_op_coded(const struct inccl_comm *c, const struct call *call,
		const struct op *op);

static inline uint16_t ic_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t ic_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t ic_get64(const uint8_t *p)
{
	return (uint64_t)ic_get32(p) | (uint64_t)ic_get32(p + 4) << 32;
}

static inline void ic_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void ic_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void ic_put64(uint8_t *p, uint64_t v)
{
	ic_put32(p, (uint32_t)v);
	ic_put32(p + 4, (uint32_t)(v >> 32));
}

#endif /* INCCL_INT_H */
