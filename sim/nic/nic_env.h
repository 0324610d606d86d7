/* SPDX-License-Identifier: MIT */
/*
 * A simulation environment around the Verilator model of the NIC
 * (vl_nic.h): everything on the other side of its ports, clock by clock.
 *
 * - host memory: a flat byte array at guest-physical [mem_base, +mem_size);
 * - a DMA bridge: read requests answered in order after a random latency,
 *   in 32-byte beats with random gaps; write requests and data taken with
 *   random ready, the bytes applied to memory (and s_dma_wr_done pulsed)
 *   in order, a random number of clocks after the last data beat;
 * - a MAC: a TX sink with random tready, an RX source with random idle
 *   clocks (the NIC takes every beat: it has no tready);
 * - an MSI-X sink with random ready;
 * - AXI4-Lite CSR reads and writes that run clock by clock with the rest;
 * - protocol checks on every interface (handshake stability, keep masks,
 *   DMA bounds and lengths), counted in struct nic_env_errors.
 *
 * Below it, a small driver (struct nic_drv) that sets up the TX and RX
 * rings of docs/regmap.md in host memory, posts frames and buffers, and
 * reaps completions, checking the NIC's ordering promises as it goes.
 *
 * Plain C11, no test framework: the QEMU simulator's tests use it too.
 */
#ifndef INC_NIC_ENV_H
#define INC_NIC_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "vl_nic.h"
#include "hw/inc_nic_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Register offsets, descriptors and counters: include/hw/inc_nic_regs.h */
const char *nic_stat_name(int n);

/* ---- the environment ---- */

#define NIC_WIRE_OVERHEAD	24	/* preamble 8, FCS 4, gap 12 */

struct nic_env_cfg {
	uint64_t seed;
	uint64_t mem_base;	/* guest-physical address of host memory */
	size_t mem_size;
	uint8_t *mem_ext;	/* host memory owned by the caller (e.g. a
				 * guest's RAM file), or NULL: allocated */
	int link_up;		/* the link_up input */
	int engine_fault;	/* the dbg_engine_fault input (NIC_FAULT_*) */
	uint32_t link_speed;	/* the link_speed input, Mbit/s (0: unknown) */
	/* DMA read: chance the request channel is not ready on a clock;
	 * a response starts rd_lat_min + 0..rd_lat_max clocks after its
	 * request was taken (and after the response before it; rd_lat_min:
	 * the host's round trip, 250 clocks for a PCIe read's 1 us at the
	 * NIC's 250 MHz); chance of a clock without a beat inside a response;
	 * requests in flight before ready goes low (0: no limit) */
	double rd_req_stall;
	unsigned int rd_lat_min, rd_lat_max;
	double rd_gap;
	unsigned int rd_max_outstanding;
	/* DMA write: chance each channel is not ready on a clock; the done
	 * pulse comes 1 + wr_done_min + 0..wr_done_max clocks after the last
	 * data beat (and after the done before it) */
	double wr_req_stall, wr_data_stall;
	unsigned int wr_done_min, wr_done_max;
	/* MAC TX: chance tready is low on a clock */
	double tx_stall;
	/* MAC RX: chance of an idle clock before each beat inside a frame,
	 * and 0..rx_ifg_max idle clocks before each frame */
	double rx_gap;
	unsigned int rx_ifg_max;
	/* MAC line rate, bytes per clock (0: no limit): TX tready and RX
	 * beats are paced so that frames, plus NIC_WIRE_OVERHEAD bytes each
	 * (preamble, FCS, inter-frame gap), pass at this rate on average */
	double wire_bytes_per_clk;
	/* MSI-X: chance ready is low on a clock */
	double irq_stall;
	/* AXI4-Lite: awvalid and wvalid start 0..csr_skew_max clocks apart;
	 * chance bready / rready is low on a clock; clocks before a CSR
	 * access gives up */
	unsigned int csr_skew_max;
	double csr_stall;
	unsigned int csr_timeout;
	/* Protocol errors are counted; the first log_max are also passed to
	 * log (or printed on stderr when log is NULL). */
	void (*log)(void *ctx, const char *msg);
	void *log_ctx;
	unsigned int log_max;
	/* Print every DMA request, done pulse, frame and message on stderr. */
	int trace;
};

/* Moderate randomness everywhere (what the tests use by default). */
void nic_env_cfg_default(struct nic_env_cfg *c, uint64_t seed);
/* Turn all randomness off: every ready high, no latency, no gaps. */
void nic_env_cfg_nobp(struct nic_env_cfg *c);

/* Interface protocol and bounds violations seen by the environment. */
struct nic_env_errors {
	uint64_t dma_range;	/* a DMA request outside host memory, or len 0 or > 16384 */
	uint64_t dma_proto;	/* DMA write: keep holes, short beats, last in the wrong place, length mismatch */
	uint64_t axis_proto;	/* MAC TX: keep holes, short beats before tlast, empty beats */
	uint64_t tx_gap;	/* MAC TX: tvalid low inside a frame (a real MAC's underrun) */
	uint64_t stability;	/* valid dropped, or payload changed, before its handshake */
	uint64_t irq_vector;	/* m_irq_vector not 0, 1 or 2 */
	uint64_t csr_proto;	/* a response without a request, or before it */
	uint64_t csr_timeout;	/* CSR accesses that gave up */
	uint64_t csr_resp;	/* CSR accesses answered with a non-OKAY resp */
};

/* What went through the interfaces. */
struct nic_env_counts {
	uint64_t rd_reqs, rd_bytes, rd_beats;
	uint64_t wr_reqs, wr_bytes, wr_beats, wr_dones;
	uint64_t tx_frames, tx_bytes, tx_beats, tx_stall_clocks;
	uint64_t rx_frames, rx_bytes, rx_beats;
	uint64_t irqs;
	uint64_t csr_reads, csr_writes;
	uint64_t dma_blocked;	/* DMA requests answered without host memory */
};

/* A frame seen on the MAC TX port. */
struct nic_frame {
	uint8_t *data;
	size_t len;
	uint64_t clock;		/* clock of its tlast beat */
};

/* An MSI-X message. */
struct nic_irq {
	int vector;
	uint64_t clock;		/* clock of the handshake */
};

struct nic_env;

struct nic_env *nic_env_new(const struct nic_env_cfg *cfg);
void nic_env_free(struct nic_env *e);
/* Reset the model (rst for a few clocks) and every service: DMA in flight,
 * MAC queues, captured frames, IRQ log, CSR state, errors and counts. Host
 * memory and its allocator are kept. */
void nic_env_reset(struct nic_env *e);
/* The same for the NIC alone (a function-level reset): the MAC and the wire
 * carry on, so the RX stream keeps its frames and its place, even inside
 * a frame; a beat offered and not taken is offered again. */
void nic_env_reset_nic(struct nic_env *e);
/* Change the randomness (seed and memory are not changed). */
void nic_env_set_cfg(struct nic_env *e, const struct nic_env_cfg *cfg);
const struct nic_env_cfg *nic_env_get_cfg(const struct nic_env *e);
struct vl_nic *nic_env_model(struct nic_env *e);
void nic_env_set_link(struct nic_env *e, int up);
/* inc_nic's dbg_engine_fault input: a faulty compressor (NIC_FAULT_TX: bit
 * 0 of every beat it outputs flipped) or decompressors (NIC_FAULT_RX), for
 * the datapath and the engine test port alike; 0 on a board */
#define NIC_FAULT_TX	1
#define NIC_FAULT_RX	2
void nic_env_set_engine_fault(struct nic_env *e, int fault);
/* Hold MAC TX tready low (flow control: the link cannot take more). */
void nic_env_set_tx_hold(struct nic_env *e, int hold);
/* Bus mastering, as the PCI command register's bit: on when created and
 * kept by nic_env_reset(). While off, DMA requests are still taken and
 * answered, without host memory: a read returns zeros, a write's bytes are
 * dropped when they would land (its done pulse still comes); each one is
 * counted in dma_blocked. */
void nic_env_set_dma_enable(struct nic_env *e, int on);
/* Fault, a hung DMA bridge: once tx_frames frames have ended on the MAC TX
 * port (counts.tx_frames; 0: never), the NIC's next DMA read request may
 * still be taken, and after it no request of either channel (ready held
 * low) until nic_env_reset(), which also disarms the fault. Requests taken
 * before are answered. */
void nic_env_stall_dma_after(struct nic_env *e, uint64_t tx_frames);
int nic_env_dma_stalled(const struct nic_env *e);

/* Clocks since the environment was created. */
uint64_t nic_env_clock(const struct nic_env *e);
/* Advance n clocks, servicing every interface. */
void nic_env_step(struct nic_env *e, uint64_t n);
/* Step until pred(e, ctx) holds (checked before each clock); 0, or -1
 * after timeout clocks. */
int nic_env_run_until(struct nic_env *e, int (*pred)(struct nic_env *, void *),
		      void *ctx, uint64_t timeout);
/* No DMA in flight or pending done, no RX frame waiting to be injected,
 * no partial TX frame, no IRQ valid. */
int nic_env_quiet(const struct nic_env *e);
/* Quiet, no frame queued for RX, and the NIC's idle output high: nothing
 * will change until a CSR access or a frame arrives. */
int nic_env_idle(const struct nic_env *e);
/* Quiet, and the NIC's sleep output high: idle but for the management
 * core's timer (vl_nic.h, docs/sim.md "A sleeping core"). */
int nic_env_sleep(const struct nic_env *e);
/* Clocks that may be skipped now (vl_nic_sleep_limit()). */
uint64_t nic_env_sleep_limit(const struct nic_env *e);
/* Skip n clocks while sleeping: the core's timer and mcycle, the wire's
 * credit and nic_env_clock() advance as n clocks would advance them. */
void nic_env_skip(struct nic_env *e, uint64_t n);
/* A DMA request valid, or taken and not answered yet, or a write not yet
 * done: the NIC may still read or write host memory (with the queue
 * configuration it had when it asked). */
int nic_env_dma_busy(const struct nic_env *e);

/* ---- host memory ---- */
/* Pointer to [addr, addr + len) of host memory, or NULL if outside. */
uint8_t *nic_env_mem(struct nic_env *e, uint64_t addr, size_t len);
/* Allocate len bytes of host memory aligned to align (a power of 2);
 * 0 when full. nic_env_free_all() takes everything back. */
uint64_t nic_env_alloc(struct nic_env *e, size_t len, size_t align);
void nic_env_free_all(struct nic_env *e);
/* Called for each DMA write just before its bytes land in memory. */
void nic_env_on_write(struct nic_env *e,
		      void (*fn)(void *ctx, uint64_t addr, const uint8_t *data,
				 size_t len),
		      void *ctx);

/* ---- CSR (AXI4-Lite), running the environment while they wait ---- */
/* 0, or -1 on timeout; *resp (if not NULL) receives bresp / rresp. */
int nic_csr_write_resp(struct nic_env *e, uint16_t addr, uint32_t val,
		       int *resp);
int nic_csr_read_resp(struct nic_env *e, uint16_t addr, uint32_t *val,
		      int *resp);
/* The same, counting a non-OKAY response as an error; a read that times
 * out returns 0xffffffff. */
int nic_csr_write(struct nic_env *e, uint16_t addr, uint32_t val);
uint32_t nic_csr_read(struct nic_env *e, uint16_t addr);
/* 64-bit statistics counter n: low word, then high word. */
uint64_t nic_stat(struct nic_env *e, int n);

/* ---- MAC ---- */
/* Queue a frame for the RX port: tuser on its tlast beat, and at least
 * idle_before idle clocks before its first beat (on top of the random
 * inter-frame gap). */
void nic_env_rx_inject(struct nic_env *e, const uint8_t *data, size_t len,
		       int tuser, unsigned int idle_before);
/* Pause the RX stream (a gap, as long as it is set; a MAC may leave gaps
 * inside a frame). */
void nic_env_set_rx_pause(struct nic_env *e, int pause);
/* Bytes of the current RX frame already given to the NIC (0: between). */
size_t nic_env_rx_partial(const struct nic_env *e);
/* Frames queued and not yet completely sent. */
size_t nic_env_rx_pending(const struct nic_env *e);
/* The model's ports as of the last clock (outputs included). */
const struct vl_nic_io *nic_env_io(const struct nic_env *e);
/* Bytes of the frame the MAC TX port is receiving now (0: between frames). */
size_t nic_env_tx_partial(const struct nic_env *e);
/* Frames seen on the TX port, in order; _clear forgets them. */
size_t nic_env_tx_count(const struct nic_env *e);
const struct nic_frame *nic_env_tx_frame(const struct nic_env *e, size_t i);
void nic_env_tx_clear(struct nic_env *e);

/* ---- interrupts ---- */
size_t nic_env_irq_count(const struct nic_env *e);
const struct nic_irq *nic_env_irq(const struct nic_env *e, size_t i);
void nic_env_irq_clear(struct nic_env *e);
/* Called at the clock of each handshake (memory as the host sees it). */
void nic_env_on_irq(struct nic_env *e,
		    void (*fn)(void *ctx, int vector, uint64_t clock),
		    void *ctx);

/* ---- bookkeeping ---- */
const struct nic_env_errors *nic_env_errors(const struct nic_env *e);
uint64_t nic_env_error_total(const struct nic_env *e);
const struct nic_env_counts *nic_env_counts(const struct nic_env *e);

/* ---- a tiny driver ---- */

struct nic_tx_opts {
	int compress;
	unsigned int k, mode;
	unsigned int range_off, range_len;
};

struct nic_tx_done {
	unsigned int slot;
	uint32_t status;
};

struct nic_rx_done {
	unsigned int slot;
	const uint8_t *data;	/* in host memory: valid until the slot is
				 * posted again */
	unsigned int len, buf_len;
	uint32_t status;
};

/* Ordering promises of docs/regmap.md that the driver checks. */
struct nic_drv_errors {
	uint64_t rx_done_before_data;	/* RX DONE visible before the frame's bytes */
	uint64_t desc_clobber;		/* a driver-owned descriptor field changed */
	uint64_t stray_write;		/* a DMA write outside RX buffers and descriptor status */
	uint64_t rx_overrun;		/* RX data past buf_len, or to a slot not posted */
	uint64_t cons_ahead;		/* CONS past a descriptor without DONE, or past PROD */
	uint64_t done_unposted;		/* DONE on a descriptor never posted */
};

struct nic_drv {
	struct nic_env *env;
	unsigned int tx_log2, rx_log2;
	uint64_t tx_ring, rx_ring;	/* descriptor rings */
	uint64_t tx_bufs, rx_bufs;	/* one buffer of buf_size per slot */
	size_t buf_size;
	uint16_t tx_prod, tx_clean;	/* next slot to post, next to reap */
	uint16_t rx_prod, rx_clean;
	uint16_t tx_kicked, rx_kicked;	/* PROD as last written */
	uint32_t *rx_written;		/* per RX slot: frame bytes written */
	uint16_t *rx_buf_len;		/* per RX slot: buf_len posted */
	struct nic_drv_errors err;
};

/*
 * Allocate rings of 2^tx_log2 and 2^rx_log2 descriptors and per-slot
 * buffers of buf_size bytes in host memory, and program both queues
 * (BASE, SIZE, PROD = CONS). The queues must be disabled in CTRL. Hooks
 * the environment's write callback for the ordering checks. 0 or -1.
 */
int nic_drv_init(struct nic_drv *d, struct nic_env *e, unsigned int tx_log2,
		 unsigned int rx_log2, size_t buf_size);
void nic_drv_fini(struct nic_drv *d);
/*
 * After a queue flush (QFLUSH): forget what was posted on that ring, clear
 * its descriptors in host memory and program it again from CONS (0 after
 * a flush) with PROD = CONS. The queue must be disabled. 0 or -1.
 */
int nic_drv_tx_reset(struct nic_drv *d);
int nic_drv_rx_reset(struct nic_drv *d);
/* Descriptors the TX ring can still take. */
unsigned int nic_drv_tx_space(const struct nic_drv *d);
/*
 * Copy frame f into the next slot's buffer and fill its descriptor with
 * len and o (NULL: not compressed); does not ring the doorbell. Returns
 * the slot, or -1 if the ring is full. _desc takes the descriptor's len
 * field apart from the bytes copied (for bad lengths).
 */
int nic_drv_tx_post(struct nic_drv *d, const uint8_t *f, size_t len,
		    const struct nic_tx_opts *o);
int nic_drv_tx_post_desc(struct nic_drv *d, const uint8_t *f, size_t copy,
			 uint16_t len_field, const struct nic_tx_opts *o);
/* Write PROD. */
int nic_drv_tx_kick(struct nic_drv *d);
/* Reap the oldest TX descriptor if DONE: 1, else 0. */
int nic_drv_tx_reap(struct nic_drv *d, struct nic_tx_done *out);
unsigned int nic_drv_rx_space(const struct nic_drv *d);
/* Post the next slot's buffer with buf_len (<= buf_size); no doorbell. */
int nic_drv_rx_post(struct nic_drv *d, uint16_t buf_len);
int nic_drv_rx_kick(struct nic_drv *d);
int nic_drv_rx_reap(struct nic_drv *d, struct nic_rx_done *out);
/* CONS read through the CSR, checked against the descriptors. */
uint16_t nic_drv_tx_cons(struct nic_drv *d);
uint16_t nic_drv_rx_cons(struct nic_drv *d);
/* Descriptors posted and DONE in host memory but not yet reaped. */
unsigned int nic_drv_tx_done_pending(const struct nic_drv *d);
unsigned int nic_drv_rx_done_pending(const struct nic_drv *d);
uint64_t nic_drv_error_total(const struct nic_drv *d);

#ifdef __cplusplus
}
#endif

#endif
