// SPDX-License-Identifier: MIT
/*
 * The thin C++ layer Verilator needs: the model of inc_nic (built with
 * --prefix Vnic) behind the C interface of vl_nic.h.
 *
 * The lockstep check (sim/nic/vl_nic_lockstep.cpp) compiles this file twice
 * more, with VL_NIC_AS set: VL_NIC_AS_REF for the reference model (built
 * with --prefix Vnicref), VL_NIC_AS_CUR for the working tree's; every name
 * of vl_nic.h then gets that model's own prefix (vl_nic_as.h).
 */
#include <cstring>
#include <type_traits>

#include "verilated.h"
#ifdef VL_NIC_AS_REF
#include "Vnicref.h"
#include "Vnicref___024root.h"
#define Vnic Vnicref
#define Vnic___024root Vnicref___024root
#else
#include "Vnic.h"
#include "Vnic___024root.h"	// the public state of vl_nic.vlt
#endif

#include "vl_nic_as.h"
#include "vl_nic.h"

// scalar ports of any width up to 64 bits
template <class T> static void set_port(T &p, uint64_t v) { p = (T)v; }
template <class T> static uint64_t get_port(const T &p) { return (uint64_t)p; }

// the bytes of a wide port's type
template <class T> struct wide_bytes;
template <std::size_t N> struct wide_bytes<VlWide<N>> {
	static constexpr unsigned int n = 4 * N;
};
// (Verilator declares the model's ports as references)
static constexpr unsigned int beat_bytes =
	wide_bytes<std::remove_reference<decltype(Vnic::s_dma_rd_data)>::type>::n;
static_assert(beat_bytes <= VL_NIC_BEAT_MAX, "the model's beat is wider than struct vl_nic_io's");

// wide ports from / to little-endian bytes (byte i = bits 8i+7:8i): a
// VlWide is N 32-bit words, word 0 the lowest, so on a little-endian host
// its memory is the bytes in order (a copy: these run at every clock)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	      "wide ports are copied as little-endian bytes");
template <std::size_t N> static void set_bytes(VlWide<N> &p, const uint8_t *b)
{
	static_assert(sizeof(p[0]) == 4, "a VlWide word is 32 bits");
	std::memcpy(&p[0], b, 4 * N);
}
template <std::size_t N> static void get_bytes(const VlWide<N> &p, uint8_t *b)
{
	std::memcpy(b, &p[0], 4 * N);
}

struct vl_nic {
	VerilatedContext ctx;
	Vnic *m;
	uint64_t cycles = 0;

	vl_nic()
	{
		m = new Vnic(&ctx);
		m->clk = 0;
		m->rst = 1;
		m->eval();
	}
	~vl_nic()
	{
		m->final();
		// the public scopes (vl_nic.vlt) leave the thread's context when
		// deleted: make it this model's, not one deleted before
		Verilated::threadContextp(&ctx);
		delete m;
	}
};

extern "C" unsigned int vl_nic_beat(void)
{
	return beat_bytes;
}

extern "C" struct vl_nic *vl_nic_new(void)
{
	return new vl_nic;
}

extern "C" void vl_nic_free(struct vl_nic *n)
{
	delete n;
}

extern "C" void vl_nic_set_inputs(struct vl_nic *n, const struct vl_nic_io *io)
{
	Vnic *m = n->m;

	/* the falling edge, in the evaluation that settles the clock's
	 * inputs (vl_nic_tick) */
	m->clk = 0;
	set_port(m->rst, (uint64_t)(io->rst != 0));
	set_port(m->link_up, (uint64_t)(io->link_up != 0));
	set_port(m->dma_enable, (uint64_t)(io->dma_enable != 0));
	set_port(m->link_speed, io->link_speed);
	set_port(m->s_axil_awaddr, io->s_axil_awaddr);
	set_port(m->s_axil_awvalid, (uint64_t)(io->s_axil_awvalid != 0));
	set_port(m->s_axil_wdata, io->s_axil_wdata);
	set_port(m->s_axil_wstrb, io->s_axil_wstrb & 15u);
	set_port(m->s_axil_wvalid, (uint64_t)(io->s_axil_wvalid != 0));
	set_port(m->s_axil_bready, (uint64_t)(io->s_axil_bready != 0));
	set_port(m->s_axil_araddr, io->s_axil_araddr);
	set_port(m->s_axil_arvalid, (uint64_t)(io->s_axil_arvalid != 0));
	set_port(m->s_axil_rready, (uint64_t)(io->s_axil_rready != 0));
	set_port(m->m_dma_rd_req_ready, (uint64_t)(io->m_dma_rd_req_ready != 0));
	set_bytes(m->s_dma_rd_data, io->s_dma_rd_data);
	set_port(m->s_dma_rd_keep, io->s_dma_rd_keep);
	set_port(m->s_dma_rd_last, (uint64_t)(io->s_dma_rd_last != 0));
	set_port(m->s_dma_rd_valid, (uint64_t)(io->s_dma_rd_valid != 0));
	set_port(m->m_dma_wr_req_ready, (uint64_t)(io->m_dma_wr_req_ready != 0));
	set_port(m->m_dma_wr_ready, (uint64_t)(io->m_dma_wr_ready != 0));
	set_port(m->s_dma_wr_done, (uint64_t)(io->s_dma_wr_done != 0));
	set_port(m->m_irq_ready, (uint64_t)(io->m_irq_ready != 0));
	set_port(m->m_axis_tx_tready, (uint64_t)(io->m_axis_tx_tready != 0));
	set_bytes(m->s_axis_rx_tdata, io->s_axis_rx_tdata);
	set_port(m->s_axis_rx_tkeep, io->s_axis_rx_tkeep);
	set_port(m->s_axis_rx_tvalid, (uint64_t)(io->s_axis_rx_tvalid != 0));
	set_port(m->s_axis_rx_tlast, (uint64_t)(io->s_axis_rx_tlast != 0));
	set_port(m->s_axis_rx_tuser, (uint64_t)(io->s_axis_rx_tuser != 0));
	set_port(m->dbg_engine_fault, (uint64_t)(io->dbg_engine_fault & 3));
}

extern "C" void vl_nic_settle(struct vl_nic *n)
{
	n->m->eval();
}

extern "C" void vl_nic_get_outputs(const struct vl_nic *n, struct vl_nic_io *io)
{
	const Vnic *m = n->m;

	io->s_axil_awready = (int)get_port(m->s_axil_awready);
	io->s_axil_wready = (int)get_port(m->s_axil_wready);
	io->s_axil_bresp = (int)get_port(m->s_axil_bresp);
	io->s_axil_bvalid = (int)get_port(m->s_axil_bvalid);
	io->s_axil_arready = (int)get_port(m->s_axil_arready);
	io->s_axil_rdata = (uint32_t)get_port(m->s_axil_rdata);
	io->s_axil_rresp = (int)get_port(m->s_axil_rresp);
	io->s_axil_rvalid = (int)get_port(m->s_axil_rvalid);
	io->m_dma_rd_req_addr = get_port(m->m_dma_rd_req_addr);
	io->m_dma_rd_req_len = (uint16_t)get_port(m->m_dma_rd_req_len);
	io->m_dma_rd_req_valid = (int)get_port(m->m_dma_rd_req_valid);
	io->s_dma_rd_ready = (int)get_port(m->s_dma_rd_ready);
	io->m_dma_wr_req_addr = get_port(m->m_dma_wr_req_addr);
	io->m_dma_wr_req_len = (uint16_t)get_port(m->m_dma_wr_req_len);
	io->m_dma_wr_req_valid = (int)get_port(m->m_dma_wr_req_valid);
	get_bytes(m->m_dma_wr_data, io->m_dma_wr_data);
	io->m_dma_wr_keep = get_port(m->m_dma_wr_keep);
	io->m_dma_wr_last = (int)get_port(m->m_dma_wr_last);
	io->m_dma_wr_valid = (int)get_port(m->m_dma_wr_valid);
	io->m_irq_vector = (int)get_port(m->m_irq_vector);
	io->m_irq_valid = (int)get_port(m->m_irq_valid);
	get_bytes(m->m_axis_tx_tdata, io->m_axis_tx_tdata);
	io->m_axis_tx_tkeep = get_port(m->m_axis_tx_tkeep);
	io->m_axis_tx_tvalid = (int)get_port(m->m_axis_tx_tvalid);
	io->m_axis_tx_tlast = (int)get_port(m->m_axis_tx_tlast);
	io->idle = (int)get_port(m->idle);
	io->sleep = (int)get_port(m->sleep);
}

extern "C" void vl_nic_eval(struct vl_nic *n, struct vl_nic_io *io)
{
	vl_nic_set_inputs(n, io);
	n->m->eval();
	vl_nic_get_outputs(n, io);
}

/*
 * The rising edge. The falling edge needs an evaluation of its own (the
 * model sees an edge as a change of clk between two evaluations) only
 * when nothing evaluated the model since the last rising edge: a clock
 * of vl_nic_eval() and vl_nic_tick() evaluates it twice, not three times
 * (nothing in the RTL is clocked on the falling edge).
 */
extern "C" void vl_nic_tick(struct vl_nic *n)
{
	if (n->m->clk) {
		n->m->clk = 0;
		n->m->eval();
	}
	n->m->clk = 1;
	n->m->eval();
	n->cycles++;
}

extern "C" void vl_nic_reset(struct vl_nic *n, int clocks, int link_up)
{
	struct vl_nic_io io;

	std::memset(&io, 0, sizeof(io));
	io.rst = 1;
	io.link_up = link_up;
	vl_nic_set_inputs(n, &io);
	n->m->eval();
	for (int i = 0; i < clocks; i++)
		vl_nic_tick(n);
	io.rst = 0;
	vl_nic_set_inputs(n, &io);
	n->m->eval();
}

extern "C" uint64_t vl_nic_cycles(const struct vl_nic *n)
{
	return n->cycles;
}

// ---- a sleeping management core (vl_nic.vlt makes these public) ----

extern "C" uint64_t vl_nic_mtime(const struct vl_nic *n)
{
	return n->m->rootp->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__mtime;
}

extern "C" uint64_t vl_nic_sleep_limit(const struct vl_nic *n)
{
	const Vnic___024root *r = n->m->rootp;
	const uint64_t P = VL_NIC_TIMER_PRESCALE;
	uint64_t mtime = r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__mtime;
	uint64_t cmp = r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__mtimecmp;
	uint64_t ps = r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__ps;
	uint64_t ticks, d;

	// halted: the core is held in reset, the timer's interrupt goes nowhere
	if (r->inc_nic__DOT__mgmt__DOT__halt)
		return UINT64_MAX;
	// already high (and masked: the core sleeps on): nothing will change
	if (r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__irq)
		return mtime >= cmp ? UINT64_MAX : 0;
	if (mtime >= cmp)
		return 0;		// rising within two clocks
	// clocks until mtime == mtimecmp: the rest of this tick, then P each
	ticks = cmp - mtime - 1;
	if (ticks > (UINT64_MAX - P) / P)
		return UINT64_MAX;	// (mtimecmp all ones: never)
	d = (P - ps) + ticks * P;
	return d > VL_NIC_SLEEP_MARGIN ? d - VL_NIC_SLEEP_MARGIN : 0;
}

extern "C" void vl_nic_skip(struct vl_nic *n, uint64_t clocks)
{
	Vnic___024root *r = n->m->rootp;
	const uint64_t P = VL_NIC_TIMER_PRESCALE;
	uint64_t t = r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__ps + clocks;

	r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__mtime += t / P;
	r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_timer__DOT__ps = (CData)(t % P);
	// held in reset while halted, mcycle stays 0
	if (!r->inc_nic__DOT__mgmt__DOT__halt)
		r->inc_nic__DOT__mgmt__DOT__soc__DOT__u_cpu__DOT__mcycle += clocks;
	n->cycles += clocks;
}
