/* SPDX-License-Identifier: MIT */
/*
 * A C interface to the Verilator model of the NIC top level, inc_nic
 * (rtl/nic/inc_nic.v; ports in docs/regmap.md). vl_nic.cpp is the only
 * C++: everything that drives the model (sim/nic/nic_env.h, the tests, the
 * simulator) is C.
 *
 * One clock: set the inputs and evaluate (vl_nic_eval), look at the
 * outputs, then vl_nic_tick() for the rising edge.
 */
#ifndef INC_VL_NIC_H
#define INC_VL_NIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per beat of the DMA and MAC data buses: 32 (8 codec lanes, 256
 * bits) or 64 (16 lanes, 512 bits), as the model was built (inc_nic's LANES;
 * vl_nic_beat() says which). struct vl_nic_io holds the widest; bytes and
 * keep bits past the model's beat are not used. */
#define VL_NIC_BEAT_MAX	64

/*
 * The ports of inc_nic, named as in the RTL. Byte i of a data bus is
 * bits 8i+7:8i, here data[i]; bit i of a keep mask says byte i is valid.
 * One-bit ports are int 0 or 1.
 */
struct vl_nic_io {
	/* ---- inputs ---- */
	int rst;
	int link_up;
	int dma_enable;		/* bus mastering on */
	uint32_t link_speed;	/* Mbit/s */
	/* AXI4-Lite slave (CSR) */
	uint16_t s_axil_awaddr;
	int s_axil_awvalid;
	uint32_t s_axil_wdata;
	uint8_t s_axil_wstrb;
	int s_axil_wvalid;
	int s_axil_bready;
	uint16_t s_axil_araddr;
	int s_axil_arvalid;
	int s_axil_rready;
	/* DMA read */
	int m_dma_rd_req_ready;
	uint8_t s_dma_rd_data[VL_NIC_BEAT_MAX];
	uint64_t s_dma_rd_keep;
	int s_dma_rd_last, s_dma_rd_valid;
	/* DMA write */
	int m_dma_wr_req_ready;
	int m_dma_wr_ready;
	int s_dma_wr_done;
	/* interrupts */
	int m_irq_ready;
	/* MAC TX */
	int m_axis_tx_tready;
	/* MAC RX */
	uint8_t s_axis_rx_tdata[VL_NIC_BEAT_MAX];
	uint64_t s_axis_rx_tkeep;
	int s_axis_rx_tvalid, s_axis_rx_tlast, s_axis_rx_tuser;
	/* simulation only: a faulty engine (bit 0 the compressor, bit 1 the
	 * decompressors: bit 0 of every beat they output flipped) */
	int dbg_engine_fault;

	/* ---- outputs ---- */
	int s_axil_awready, s_axil_wready;
	int s_axil_bresp, s_axil_bvalid;
	int s_axil_arready;
	uint32_t s_axil_rdata;
	int s_axil_rresp, s_axil_rvalid;
	uint64_t m_dma_rd_req_addr;
	uint16_t m_dma_rd_req_len;
	int m_dma_rd_req_valid;
	int s_dma_rd_ready;
	uint64_t m_dma_wr_req_addr;
	uint16_t m_dma_wr_req_len;
	int m_dma_wr_req_valid;
	uint8_t m_dma_wr_data[VL_NIC_BEAT_MAX];
	uint64_t m_dma_wr_keep;
	int m_dma_wr_last, m_dma_wr_valid;
	int m_irq_vector, m_irq_valid;
	uint8_t m_axis_tx_tdata[VL_NIC_BEAT_MAX];
	uint64_t m_axis_tx_tkeep;
	int m_axis_tx_tvalid, m_axis_tx_tlast;
	int idle;		/* nothing to do, nothing in flight */
	int sleep;		/* idle but for the management core's timer */
};

struct vl_nic;

/* Bytes per beat of the model (32 or 64). */
unsigned int vl_nic_beat(void);
struct vl_nic *vl_nic_new(void);
void vl_nic_free(struct vl_nic *n);
/* Drive the inputs of io and the clock low (nothing settles yet). */
void vl_nic_set_inputs(struct vl_nic *n, const struct vl_nic_io *io);
/* Settle the combinational logic. */
void vl_nic_settle(struct vl_nic *n);
/* Read the outputs into io. */
void vl_nic_get_outputs(const struct vl_nic *n, struct vl_nic_io *io);
/* All three: drive io's inputs, settle, read the outputs into io. */
void vl_nic_eval(struct vl_nic *n, struct vl_nic_io *io);
/* One rising clock edge; the clock stays high until the next inputs are
 * driven (or the next edge: a tick after a tick evaluates the fall). */
void vl_nic_tick(struct vl_nic *n);
/* Hold rst high for clocks edges with every other input idle (0, link_up
 * kept as given), then drive rst low and settle. */
void vl_nic_reset(struct vl_nic *n, int clocks, int link_up);
/* Rising edges so far (skipped clocks included). */
uint64_t vl_nic_cycles(const struct vl_nic *n);

/*
 * A sleeping management core (the sleep output; docs/sim.md "A sleeping
 * core"). Clocks of the NIC with sleep high change nothing but the core's
 * timer (mtime, its prescaler) and its mcycle, until the timer's interrupt
 * rises (mtime reaches mtimecmp) or an input changes. _sleep_limit: how
 * many clocks may be skipped from now, leaving VL_NIC_SLEEP_MARGIN clocks
 * before the interrupt to be simulated (UINT64_MAX: no limit, the core is
 * halted or its timer's interrupt is already high). _skip: advance those
 * counters as n clocks would (n at most the limit; with sleep high).
 */
#define VL_NIC_TIMER_PRESCALE	250	/* inc_nic's MGMT_TIMER_PRESCALE */
#define VL_NIC_SLEEP_MARGIN	4
uint64_t vl_nic_sleep_limit(const struct vl_nic *n);
void vl_nic_skip(struct vl_nic *n, uint64_t clocks);
/* The core's mtime (microseconds of NIC time on the board). */
uint64_t vl_nic_mtime(const struct vl_nic *n);

#ifdef __cplusplus
}
#endif

#endif
