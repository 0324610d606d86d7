/* SPDX-License-Identifier: MIT */
/*
 * inccl: gradient-centric collectives over inceptionn NICs.
 *
 * A communicator joins WORLD ranks (2..64), one per process, over TCP.
 * Collectives work on float32 arrays. The algorithm (ring: gradient-centric,
 * the default; wa: the worker-aggregator baseline) and the transport (nic:
 * sockets marked with INC_SO_GRADIENT, the NIC compresses; sw: the codec in
 * software; none: exact floats) are chosen per communicator. docs/inccl.md
 * is the specification: what travels where, the error bound, error
 * feedback, the memory footprint.
 *
 *	struct inccl_config cfg;
 *	inccl_comm *c;
 *
 *	inccl_config_init(&cfg);	(then RANK, WORLD_SIZE, MASTER_ADDR,
 *	cfg.transport = INCCL_SW;	 MASTER_PORT come from the environment)
 *	if (inccl_comm_init(&c, &cfg))
 *		errx(1, "%s", inccl_errmsg());
 *	inccl_allreduce(c, grad, grad, n, INCCL_AVG, NULL);
 *	inccl_comm_destroy(c);
 *
 * Every function returns 0 or a negative INCCL_E* code; inccl_errmsg()
 * then says what happened, in the calling thread. A communicator is used
 * by one thread at a time. After a network failure (a peer died, stalled
 * past the timeout, or sent malformed data) the communicator is aborted:
 * it closes its connections, so every other rank fails promptly too, and
 * each later call returns -INCCL_EABORTED.
 */
#ifndef INCCL_H
#define INCCL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INCCL_VERSION_MAJOR	1
#define INCCL_VERSION_MINOR	0

#define INCCL_WORLD_MIN		2
#define INCCL_WORLD_MAX		64

enum inccl_err {
	INCCL_OK = 0,
	INCCL_EINVAL = 1,	/* bad argument or configuration */
	INCCL_ENOMEM = 2,	/* out of memory */
	INCCL_ESYS = 3,		/* a system call failed (socket, bind ...) */
	INCCL_ETIMEDOUT = 4,	/* no progress from a peer within the timeout */
	INCCL_EPEER = 5,	/* a peer closed or reset its connection */
	INCCL_EPROTO = 6,	/* a peer sent data that breaks the protocol */
	INCCL_EMISMATCH = 7,	/* ranks disagree: configuration or call */
	INCCL_ENOMARK = 8,	/* transport nic: no gradient socket option */
	INCCL_EABORTED = 9,	/* the communicator failed in an earlier call */
};

enum inccl_algo {
	INCCL_RING = 0,		/* ring reduce-scatter + all-gather */
	INCCL_WA = 1,		/* worker-aggregator: rank 0 aggregates */
};

enum inccl_transport {
	INCCL_NONE = 0,		/* exact floats */
	INCCL_SW = 1,		/* the codec in software (no board needed) */
	INCCL_NIC = 2,		/* INC_SO_GRADIENT: the NIC compresses */
};

/* Codec modes (the values of enum inc_mode and INC_GRAD_MODE_*). */
#define INCCL_MODE_PAPER	1
#define INCCL_MODE_SPARSE	2
#define INCCL_MODE_WIDTH	3	/* docs/codec.md section 12 */

/* Collective flags. */
#define INCCL_AVG	(1u << 0)	/* all-reduce, reduce-scatter: sum / WORLD */
#define INCCL_EXACT	(1u << 1)	/* this call travels exact whatever the
					 * transport (weights: broadcast them so) */

/*
 * Configuration. inccl_config_init() sets "unset" values; inccl_comm_init()
 * takes each unset field from the environment, then from the default:
 *
 *   field        environment                       default
 *   rank         RANK                              (required)
 *   world        WORLD_SIZE (or the host list)     (required)
 *   master_addr  MASTER_ADDR                       (required without hosts)
 *   master_port  INCCL_MASTER_PORT, MASTER_PORT    (required without hosts)
 *   hosts        INCCL_HOSTS "h:p,h:p,..." (rank i listens on entry i;
 *                IPv6 as [addr]:port)              none: rendezvous at master
 *   ifname       INCCL_IFNAME                      any interface
 *   algo         INCCL_ALGO ring|wa                ring
 *   transport    INCCL_TRANSPORT nic|sw|none       sw
 *   k            INCCL_K 1..24                     10
 *   mode         INCCL_MODE paper|sparse|width     width with sw and none,
 *                                                  sparse with nic
 *   timeout_ms   INCCL_TIMEOUT seconds             60 s
 *   slice_bytes  INCCL_SLICE bytes (K/M suffix)    64 KiB
 *
 * The mode's default follows the transport, which is resolved first: the
 * sw transport compresses on the CPU, where width mode puts about 1.7x
 * fewer bytes on the wire than sparse for the same decoded floats; the
 * nic transport leaves compression to the NIC, and not every NIC takes
 * width mode (FEATURES bit 12: set by the 16-lane NIC of register map
 * 1.3, clear at 8 lanes, where such frames go uncompressed), so it stays
 * sparse; on a NIC with the bit, INCCL_MODE=width puts fewer bytes on the
 * link. none sends floats, whatever the mode (width, as sw). An
 * explicit mode (field or INCCL_MODE) is always taken as it is.
 */
struct inccl_config {
	int rank;			/* -1: unset */
	int world;			/* 0: unset */
	const char *master_addr;	/* NULL: unset */
	unsigned int master_port;	/* 0: unset */
	const char *hosts;		/* NULL: unset */
	const char *ifname;		/* NULL: unset */
	int algo;			/* -1: unset, else enum inccl_algo */
	int transport;			/* -1: unset, else enum inccl_transport */
	unsigned int k;			/* 0: unset */
	unsigned int mode;		/* 0: unset (the transport's default) */
	unsigned int timeout_ms;	/* 0: unset */
	unsigned int slice_bytes;	/* 0: unset; 8 KiB .. 16 MiB, a multiple
					 * of 8 KiB */
};

typedef struct inccl_comm inccl_comm;
typedef struct inccl_ef inccl_ef;

void inccl_config_init(struct inccl_config *cfg);

/*
 * Join the communicator: every rank calls this with the same algorithm,
 * transport, k, mode and slice size (checked: -INCCL_EMISMATCH), within
 * the timeout of each other. Transport nic fails with -INCCL_ENOMARK when
 * the kernel has no gradient socket option (inceptionn.ko not loaded).
 */
int inccl_comm_init(inccl_comm **comm, const struct inccl_config *cfg);
/*
 * Whether this host can use a transport, without joining anything: 0, or
 * -INCCL_ENOMARK for nic when the kernel has no gradient socket option
 * (what inccl_comm_init() checks first), -INCCL_EINVAL for an unknown one.
 */
int inccl_transport_check(int transport);
/* Close the connections and free everything; NULL is a no-op. */
void inccl_comm_destroy(inccl_comm *comm);

int inccl_comm_rank(const inccl_comm *comm);
int inccl_comm_world(const inccl_comm *comm);
/* The configuration in effect, every field resolved. */
void inccl_comm_config(const inccl_comm *comm, struct inccl_config *cfg);

/* Message of the calling thread's last failure ("" if none). */
const char *inccl_errmsg(void);
const char *inccl_strerror(int err);
const char *inccl_algo_name(int algo);
const char *inccl_transport_name(int transport);
/* "paper", "sparse", "width", or "?" */
static inline const char *inccl_mode_name(unsigned int mode)
{
	return mode == INCCL_MODE_PAPER ? "paper" :
	       mode == INCCL_MODE_SPARSE ? "sparse" :
	       mode == INCCL_MODE_WIDTH ? "width" : "?";
}

/*
 * Collectives. Every rank of the communicator calls the same collective with
 * the same count, flags and root, in the same order (checked on the wire:
 * -INCCL_EMISMATCH). Buffers are the caller's; sendbuf == recvbuf (in place)
 * is allowed for all-reduce and broadcast, and for all-gather when sendbuf
 * is rank's block of recvbuf; other overlap is not. ef (NULL: none) is an
 * error-feedback state of the call's input size (docs/inccl.md).
 *
 * With a compressing transport (sw, nic) and without INCCL_EXACT, every
 * rank receives identical results within the documented bound (see
 * inccl_bound()); with transport none or INCCL_EXACT they are exact fp32
 * sums in the documented order, also identical on every rank.
 */
/* recvbuf[i] = sum over ranks of sendbuf[i], i < count */
int inccl_allreduce(inccl_comm *comm, const float *sendbuf, float *recvbuf,
		    size_t count, unsigned int flags, inccl_ef *ef);
/* recvbuf[i] = sum over ranks of sendbuf[rank * recvcount + i]; sendbuf
 * holds WORLD * recvcount values */
int inccl_reducescatter(inccl_comm *comm, const float *sendbuf,
			float *recvbuf, size_t recvcount, unsigned int flags,
			inccl_ef *ef);
/* recvbuf[r * sendcount + i] = sendbuf of rank r [i] */
int inccl_allgather(inccl_comm *comm, const float *sendbuf, float *recvbuf,
		    size_t sendcount, unsigned int flags, inccl_ef *ef);
/* recvbuf = root's sendbuf (sendbuf is read on root only) */
int inccl_broadcast(inccl_comm *comm, const float *sendbuf, float *recvbuf,
		    size_t count, int root, unsigned int flags);
/* returns once every rank has entered it */
int inccl_barrier(inccl_comm *comm);

/*
 * Error feedback (EF-SGD): ef keeps, per input element, what this rank's
 * own quantization lost in the last call, and adds it to the next call's
 * input. count is the input size of the calls it is used with (all-reduce:
 * count; reduce-scatter: WORLD * recvcount; all-gather: sendcount).
 */
int inccl_ef_create(inccl_ef **ef, size_t count);
void inccl_ef_destroy(inccl_ef *ef);
void inccl_ef_reset(inccl_ef *ef);		/* residuals to 0 */
const float *inccl_ef_residual(const inccl_ef *ef, size_t *count);

/* Collectives, for inccl_bound(). */
enum inccl_coll {
	INCCL_COLL_ALLREDUCE = 1,
	INCCL_COLL_REDUCESCATTER = 2,
	INCCL_COLL_ALLGATHER = 3,
	INCCL_COLL_BROADCAST = 4,
	INCCL_COLL_BARRIER = 5,
};

/*
 * The documented worst-case error |result - exact| of one result element
 * (docs/inccl.md, "Error bound"): sum_abs is the sum over ranks of |input|
 * of that element (for all-gather and broadcast: |input|), result_abs the
 * result's magnitude (used with INCCL_AVG). Depends on the collective, the
 * algorithm, WORLD, k, the transport and the flags.
 */
double inccl_bound(const inccl_comm *comm, int coll, unsigned int flags,
		   double sum_abs, double result_abs);

/* Counters since inccl_comm_init() (or the last reset). */
struct inccl_stats {
	uint64_t calls;			/* collectives completed */
	uint64_t tx_bytes;		/* bytes this rank wrote to its sockets */
	uint64_t rx_bytes;		/* bytes it read from them */
	uint64_t tx_float_bytes;	/* 4 x the floats it sent, before any
					 * compression */
	uint64_t tx_marked_bytes;	/* bytes written while marked (nic) */
	uint64_t mark_failures;		/* marks refused (ENOBUFS): the data
					 * went unmarked, still exact */
	uint64_t codec_ns;		/* thread CPU time in quantize, encode,
					 * decode */
	uint64_t reduce_ns;		/* thread CPU time in sums and copies */
};
void inccl_get_stats(const inccl_comm *comm, struct inccl_stats *st);
void inccl_reset_stats(inccl_comm *comm);

#ifdef __cplusplus
}
#endif

#endif /* INCCL_H */
