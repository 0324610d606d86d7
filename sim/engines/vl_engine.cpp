// SPDX-License-Identifier: MIT
/*
 * The thin C++ layer Verilator needs: wraps the engine models (two
 * engines, two lane counts; width mode's 16-lane decompressor) behind the C
 * interface of vl_engine.h.
 */
#include <cstring>

#include "verilated.h"
#include "Vcomp8.h"
#include "Vcomp16.h"
#include "Vdecomp8.h"
#include "Vdecomp16.h"
#include "Vwdecomp16.h"

#include "vl_engine.h"

// copy bytes into / out of ports of any width
static void put(CData &p, const uint8_t *b) { p = b[0]; }
static void put(SData &p, const uint8_t *b) { p = (SData)(b[0] | b[1] << 8); }
static void put(IData &p, const uint8_t *b)
{
	p = (IData)b[0] | (IData)b[1] << 8 | (IData)b[2] << 16 | (IData)b[3] << 24;
}
static void put(QData &p, const uint8_t *b)
{
	IData lo, hi;

	put(lo, b);
	put(hi, b + 4);
	p = (QData)lo | (QData)hi << 32;
}
template <std::size_t N> static void put(VlWide<N> &p, const uint8_t *b)
{
	for (std::size_t i = 0; i < N; i++)
		put(p[i], b + 4 * i);
}

static void get(const CData &p, uint8_t *b) { b[0] = p; }
static void get(const SData &p, uint8_t *b) { b[0] = (uint8_t)p; b[1] = (uint8_t)(p >> 8); }
static void get(const IData &p, uint8_t *b)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(p >> (8 * i));
}
static void get(const QData &p, uint8_t *b)
{
	get((IData)p, b);
	get((IData)(p >> 32), b + 4);
}
template <std::size_t N> static void get(const VlWide<N> &p, uint8_t *b)
{
	for (std::size_t i = 0; i < N; i++)
		get(p[i], b + 4 * i);
}

struct vl_engine {
	virtual ~vl_engine() {}
	virtual void eval(struct vl_io *io) = 0;
	virtual void tick() = 0;
	virtual void reset() = 0;
	int in_bytes, out_bytes;
	uint64_t cycles = 0;
	VerilatedContext ctx;
};

template <class M, bool DECOMP> struct engine : vl_engine {
	M *m;

	engine(int in_b, int out_b)
	{
		in_bytes = in_b;
		out_bytes = out_b;
		m = new M(&ctx);
		m->clk = 0;
		m->rst = 1;
		m->eval();
	}
	~engine() override
	{
		m->final();
		delete m;
	}
	void eval(struct vl_io *io) override
	{
		uint8_t buf[128];

		std::memset(buf, 0, sizeof(buf));
		std::memcpy(buf, io->s_data, in_bytes);
		put(m->s_axis_tdata, buf);
		std::memset(buf, 0, sizeof(buf));
		std::memcpy(buf, io->s_keep, in_bytes / 8);
		put(m->s_axis_tkeep, buf);
		m->s_axis_tvalid = io->s_valid;
		m->s_axis_tlast = io->s_last;
		m->s_axis_tuser = io->s_user;
		m->m_axis_tready = io->m_ready;
		m->eval();
		get(m->m_axis_tdata, buf);
		std::memcpy(io->m_data, buf, out_bytes);
		get(m->m_axis_tkeep, buf);
		std::memcpy(io->m_keep, buf, out_bytes / 8);
		io->m_valid = m->m_axis_tvalid;
		io->m_last = m->m_axis_tlast;
		io->m_user = m->m_axis_tuser;
		io->s_ready = m->s_axis_tready;
		status(io);
	}
	void status(struct vl_io *io);
	void tick() override
	{
		m->clk = 1;
		m->eval();
		m->clk = 0;
		m->eval();
		cycles++;
	}
	void reset() override
	{
		m->rst = 1;
		for (int i = 0; i < 4; i++)
			tick();
		m->rst = 0;
		m->eval();
	}
};

template <> void engine<Vcomp8, false>::status(struct vl_io *io)
{
	io->status_valid = io->status_error = 0;
}
template <> void engine<Vcomp16, false>::status(struct vl_io *io)
{
	io->status_valid = io->status_error = 0;
}
template <> void engine<Vdecomp8, true>::status(struct vl_io *io)
{
	io->status_valid = m->status_valid;
	io->status_error = m->status_error;
}
template <> void engine<Vdecomp16, true>::status(struct vl_io *io)
{
	io->status_valid = m->status_valid;
	io->status_error = m->status_error;
}
template <> void engine<Vwdecomp16, true>::status(struct vl_io *io)
{
	io->status_valid = m->status_valid;
	io->status_error = m->status_error;
}

extern "C" struct vl_engine *vl_engine_new(enum vl_kind kind, int lanes)
{
	if (kind == VL_COMPRESSOR && lanes == 8)
		return new engine<Vcomp8, false>(32, 64);
	if (kind == VL_COMPRESSOR && lanes == 16)
		return new engine<Vcomp16, false>(64, 128);
	if (kind == VL_DECOMPRESSOR && lanes == 8)
		return new engine<Vdecomp8, true>(64, 32);
	if (kind == VL_DECOMPRESSOR && lanes == 16)
		return new engine<Vdecomp16, true>(128, 64);
	if (kind == VL_WIDTH_DECOMPRESSOR && lanes == 16)
		return new engine<Vwdecomp16, true>(128, 64);
	return nullptr;
}

extern "C" void vl_engine_free(struct vl_engine *e) { delete e; }
extern "C" int vl_engine_in_bytes(const struct vl_engine *e) { return e->in_bytes; }
extern "C" int vl_engine_out_bytes(const struct vl_engine *e) { return e->out_bytes; }
extern "C" void vl_engine_reset(struct vl_engine *e) { e->reset(); }
extern "C" void vl_engine_eval(struct vl_engine *e, struct vl_io *io) { e->eval(io); }
extern "C" void vl_engine_tick(struct vl_engine *e) { e->tick(); }
extern "C" uint64_t vl_engine_cycles(const struct vl_engine *e) { return e->cycles; }
