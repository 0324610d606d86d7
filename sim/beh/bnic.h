/* SPDX-License-Identifier: MIT */
/*
 * bnic: a behavioral model of the inceptionn NIC (incsim --model
 * behavioral; docs/sim.md "Two models").
 *
 * The same device as the RTL (rtl/nic/inc_nic.v) at the level of its
 * contract, docs/regmap.md: the register map with its access rights and
 * byte strobes, the TX and RX descriptor rings, DMA into host memory, the
 * three interrupt vectors with their coalescing, the counters and their
 * snapshot bank, loopback, queue flushes, a function-level reset, the
 * management block (its core an instruction-set model running the loaded
 * firmware image: sim/beh/mgmt_iss.h) and the engine test port. Frames are
 * built and restored by the project's C references, userspace/wire's
 * incw_tx() and incw_rx() (which the RTL is tested against byte for byte),
 * and the codec library.
 *
 * What it does not model is time inside the NIC: a frame is fetched,
 * compressed, sent and completed in the call that finds its descriptor. Its
 * clock is the caller's (NIC clocks at 250 MHz, e.g. wall time), which the
 * coalescing timers and the management core's timer count.
 *
 * Plain C11.
 */
#ifndef INC_BNIC_H
#define INC_BNIC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BNIC_CLK_MHZ		250	/* NIC clocks per microsecond */
#define BNIC_FAULT_TX		1	/* a faulty compressor (--fault engine-tx) */
#define BNIC_FAULT_RX		2	/* faulty decompressors (engine-rx) */

struct bnic_cfg {
	/* host memory: guest-physical [mem_base, mem_base + mem_size) */
	uint8_t *mem;
	uint64_t mem_base;
	size_t mem_size;
	unsigned int lanes;	/* 16 or 8: CONFIG, the engines' beats */
	int width;		/* width mode (FEATURES bit 12): only at 16 lanes */
	uint32_t link_speed;	/* LINK_SPEED, Mbit/s */
	int engine_fault;	/* BNIC_FAULT_* (inc_nic's dbg_engine_fault) */
	/* an MSI-X message for vector 0, 1 or 2 */
	void (*irq)(void *ctx, int vector);
	/* a frame to the MAC (without FCS) */
	void (*tx)(void *ctx, const uint8_t *f, size_t len);
	/* messages (a protocol problem, the trace) */
	void (*log)(void *ctx, const char *msg);
	void *ctx;
	int trace;
};

/* What the model did, beside the NIC's own counters. */
struct bnic_counts {
	uint64_t dma_rd, dma_rd_bytes, dma_wr, dma_wr_bytes;
	uint64_t dma_range;	/* DMA outside host memory: refused */
	uint64_t dma_blocked;	/* DMA answered without memory (mastering off) */
	uint64_t irqs;
	uint64_t core_instret;	/* the management core's instructions */
	uint64_t tp_runs;	/* engine test port runs */
};

struct bnic;

struct bnic *bnic_new(const struct bnic_cfg *cfg);
void bnic_free(struct bnic *b);
/*
 * A function-level reset at clock now: every register at its reset value,
 * the counters 0, the queues empty, the management core halted (its
 * memories keep what was loaded), frames waiting for the RX engine lost.
 * The link state, bus mastering and the TX hold are the environment's and
 * stay; a DMA stall (bnic_stall_dma_after) is cleared.
 */
void bnic_reset(struct bnic *b, uint64_t now);
/* The host's register accesses (BAR0). 0, or -1 for an error response. */
int bnic_csr_write(struct bnic *b, uint64_t now, uint16_t addr, uint32_t val,
		   unsigned int strb);
int bnic_csr_read(struct bnic *b, uint64_t now, uint16_t addr, uint32_t *val);
/* A frame from the MAC (bad: an FCS error, tuser). */
void bnic_rx_frame(struct bnic *b, uint64_t now, const uint8_t *f, size_t len,
		   int bad);
/* Frames from the MAC waiting for the receive engine (at most 16). */
unsigned int bnic_rx_pending(const struct bnic *b);
void bnic_set_link(struct bnic *b, int up);
/* Bus mastering: off, reads return zeros and writes are dropped. */
void bnic_set_dma_enable(struct bnic *b, int on);
/* The MAC takes no frame while held: the TX ring waits. */
void bnic_set_tx_hold(struct bnic *b, int hold);
/* A fault: the DMA bridge hangs once n frames were sent (0: never), until
 * the next reset. */
void bnic_stall_dma_after(struct bnic *b, uint64_t n);
int bnic_dma_stalled(const struct bnic *b);
void bnic_set_engine_fault(struct bnic *b, int fault);
/*
 * Do everything due by clock now: descriptors posted, frames waiting,
 * coalescing timers, the management core up to now. Returns 1 if it did
 * something the caller may want to look at (frames sent, interrupts).
 */
int bnic_run(struct bnic *b, uint64_t now);
/* Work that bnic_run() would do at once (not waiting for time). */
int bnic_busy(const struct bnic *b);
/* The clock of the next timed event (a coalescing timer, the core's timer
 * interrupt, a core running): UINT64_MAX if none. */
uint64_t bnic_next_event(const struct bnic *b);
/* Counter n (INC_ST_*) as the NIC has it. */
uint64_t bnic_stat(const struct bnic *b, int n);
const struct bnic_counts *bnic_counts(const struct bnic *b);
/* The management core's mtime (microseconds of NIC time). */
uint64_t bnic_mtime(const struct bnic *b);

#ifdef __cplusplus
}
#endif

#endif
