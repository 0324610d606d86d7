/* SPDX-License-Identifier: MIT */
/*
 * bnic's internals, shared by its files: bnic.c (the register file, the
 * management block, interrupts, reset), bnic_dp.c (the TX and RX engines,
 * DMA) and bnic_tport.c (the engine test port).
 */
#ifndef INC_BNIC_PRIV_H
#define INC_BNIC_PRIV_H

#include <stdint.h>

#include "bnic.h"
#include "incwire.h"		/* (inccodec.h before the register map's INC_MODE_*) */
#include "hw/inc_nic_regs.h"
#include "mgmt_iss.h"

#define BNIC_RX_FRAMES	16		/* nic_rx's frame queue */
#define BNIC_RX_RING	32768u		/* and its ring's bytes */
#define BNIC_VERSION	0x00010500u	/* register map 1.5.0 (nic_csr's VERSION) */
#define BNIC_BUILD_ID	0x20261129u	/* inc_nic's BUILD_ID */
#define BNIC_MAX_FRAME_HW 9018u		/* CONFIG's largest frame */

struct bnic_queue {
	uint64_t base;
	uint32_t size;			/* log2 of the descriptors */
	uint16_t prod, cons;
};

struct bnic_vec {
	uint32_t pending;		/* events since the last message */
	uint64_t first;			/* the clock of the first of them */
};

struct bnic_rxf {
	uint8_t *data;
	size_t len;
};

struct bnic {
	struct bnic_cfg cfg;
	struct bnic_counts cnt;
	uint64_t now;

	/* the register file (nic_csr) */
	uint32_t scratch;
	int tx_en, rx_en, loopback;
	uint8_t mac[6];
	uint32_t max_frame;
	struct bnic_queue txq, rxq;
	uint32_t irq_status, irq_enable, coal[2];
	struct bnic_vec vec[3];
	uint64_t stats[INC_ST_N], snap[INC_ST_N];
	uint32_t hi_latch, c_hi_latch;	/* the host's and the core's */

	/* the environment */
	int link_up, dma_on, tx_hold;
	uint64_t stall_after, tx_sent;
	int stalled;

	/* the management block (nic_mgmt) and its core */
	int halt, meip;
	uint32_t load_addr, fw_status, fw_version, fw_heartbeat, fw_selftest;
	int mbox_busy;
	uint32_t event;
	uint32_t mbox_cmd[INC_MBOX_CMD_WORDS], mbox_rsp[INC_MBOX_RSP_WORDS];
	struct mgmt_iss *core;
	int in_core;			/* inside the core's run */

	/* the engine test port (nic_tport) */
	uint32_t tp_ctrl, tp_len, tp_status;
	uint8_t tp_in[INC_TP_IN_BYTES], tp_out[INC_TP_OUT_BYTES];

	/* frames from the MAC waiting for the receive engine */
	struct bnic_rxf rxf[BNIC_RX_FRAMES];
	unsigned int rx_head, rx_n;
	size_t rx_queued;

	uint8_t frame[16384], out[INCW_MAX_FRAME + 64];
	unsigned int mutant;	/* BNIC_MUTANT's count (bnic_dp.c) */
};

/* bnic.c */
void bnic_msg(struct bnic *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bnic_stat_add(struct bnic *b, int n, uint64_t v);
/* a completion (vector 0 or 1) or a management event (2) */
void bnic_event(struct bnic *b, int vector);
void bnic_irq_check(struct bnic *b);
unsigned int bnic_modes(const struct bnic *b);

/* bnic_dp.c */
int bnic_dma_read(struct bnic *b, uint64_t addr, void *dst, size_t len);
int bnic_dma_write(struct bnic *b, uint64_t addr, const void *src, size_t len);
int bnic_tx_work(const struct bnic *b);
int bnic_rx_work(const struct bnic *b);
int bnic_tx_run(struct bnic *b);
int bnic_rx_run(struct bnic *b);
void bnic_rx_flush(struct bnic *b);
void bnic_rx_enqueue(struct bnic *b, const uint8_t *f, size_t len, int bad);
/* a faulty engine's output (inc_nic's dbg_engine_fault): bit 0 of the
 * first byte of every beat of out[0..n) flipped */
void bnic_fault_flip(uint8_t *p, size_t n, size_t beat);

/* bnic_tport.c */
uint32_t bnic_tp_read(struct bnic *b, uint16_t a);
void bnic_tp_write(struct bnic *b, uint16_t a, uint32_t v);

/* little-endian fields */
static inline uint32_t bn_get(const uint8_t *p, unsigned int n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static inline void bn_put(uint8_t *p, uint32_t v, unsigned int n)
{
	while (n--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

#endif
