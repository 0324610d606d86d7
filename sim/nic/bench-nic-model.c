// SPDX-License-Identifier: MIT
/*
 * bench-nic-model: the raw clock rate of the Verilator model of the NIC
 * (vl_nic.h through sim/nic/nic_env.h), no clock skipped, in two rows:
 *   - idle: out of reset, queues enabled, nothing to do;
 *   - marked traffic at line rate: the TX ring kept full of marked UDP
 *     frames (1514 bytes, the payload a gradient compressed in the given
 *     mode), MAC TX and RX paced at the wire's rate (--gbps, default 100,
 *     as incsim), and the compressed frames the NIC sent injected back on
 *     RX, so that compressor and decompressor both run all the time.
 * Prints one Markdown row: the model, its lanes, the mode, M clocks per CPU second
 * of each (the process's CPU time, not the wall clock: the machine may be
 * shared), frames per CPU second through RX in the second.
 * Built once per model (make bench-incsim runs them all; docs/sim.md).
 *
 * usage: bench-nic-model [--seconds S] [--mode M] [--gbps G] [--name NAME]
 *                        [--row idle|marked] [--clocks N]
 *   (--seconds: CPU seconds per row, default 3; --clocks: N clocks per
 *   row instead (and N/4 to start the traffic), a fixed amount of work to
 *   count instructions per clock under valgrind --tool=callgrind; --mode: the chunk mode,
 *   default width (3) where the model has it, FEATURES bit 12, else sparse (2))
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frames.h"
#include "nic_env.h"

#define CLK_MHZ		250	/* incsim's INCSIM_CLK_MHZ */
#define PAY		1472	/* a 1514-byte IPv4 UDP frame */

/* the process's CPU time: the machine may be shared, the rate is the
 * model's per CPU second */
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* gradient-like float32 values: a Gaussian of varying scale, some zeros */
static void fill_grad(uint8_t *p, size_t n, uint64_t *s)
{
	for (size_t i = 0; i + 4 <= n; i += 4) {
		double u1, u2, g;
		float f;

		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		u1 = ((double)(*s >> 11) + 1) / 9007199254740993.0;
		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		u2 = (double)(*s >> 11) / 9007199254740992.0;
		g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		f = (*s >> 60) == 0 ? 0.0f : (float)(g * 1e-3);
		memcpy(p + i, &f, 4);
	}
}

static void die(const char *what)
{
	fprintf(stderr, "bench-nic-model: %s\n", what);
	exit(1);
}

/* --clocks: a row's clocks (0: run for its seconds) */
static uint64_t row_clocks;
static double base_secs = 3;

/* M clocks per second over about secs seconds of wall time (or over
 * row_clocks clocks, when set: secs then scales them) */
static double run(struct nic_env *e, struct nic_drv *d, double secs, int traffic,
		  unsigned int mode, const uint8_t *frame, size_t len, size_t pay_off,
		  unsigned long *frames)
{
	struct nic_tx_opts o = { .compress = 1, .k = 10, .mode = mode,
				 .range_off = 0, .range_len = (unsigned int)(len - pay_off) };
	uint64_t c0 = nic_env_clock(e), txseen = 0;
	double t0 = now(), t;
	unsigned long rx = 0;

	do {
		struct nic_tx_done td;
		struct nic_rx_done rd;

		for (int i = 0; i < 20; i++) {
			if (traffic) {
				while (nic_drv_tx_reap(d, &td) == 1)
					;
				while (nic_drv_rx_reap(d, &rd) == 1) {
					nic_drv_rx_post(d, 9216);
					rx++;
				}
				if (nic_drv_tx_space(d) > 16) {
					while (nic_drv_tx_space(d) > 0)
						nic_drv_tx_post(d, frame, len, &o);
					nic_drv_tx_kick(d);
					nic_drv_rx_kick(d);
				}
				/* what the NIC sent comes back on RX */
				while (txseen < nic_env_tx_count(e)) {
					const struct nic_frame *f = nic_env_tx_frame(e, txseen++);

					if (nic_env_rx_pending(e) < 4)
						nic_env_rx_inject(e, f->data, f->len, 0, 0);
				}
				if (nic_env_tx_count(e) > 64) {
					nic_env_tx_clear(e);
					txseen = 0;
				}
			}
			nic_env_step(e, 100);
		}
		t = now();
	} while (row_clocks ? nic_env_clock(e) - c0 < (uint64_t)(row_clocks * secs / base_secs) :
			      t - t0 < secs);
	*frames = rx;
	return (double)(nic_env_clock(e) - c0) / (t - t0) / 1e6;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "gbps", required_argument, NULL, 'g' },
		{ "name", required_argument, NULL, 'n' },
		{ "row", required_argument, NULL, 'r' },
		{ "clocks", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	double secs = 3, gbps = 100, idle, busy;
	unsigned int mode = 0;
	const char *name = NULL, *row = NULL;
	struct nic_env_cfg cfg;
	struct nic_env *e;
	struct nic_drv d;
	struct fspec s = { .ipv = 4, .proto = 17 };
	uint8_t pay[PAY], frame[PAY + 64];
	uint64_t seed = 1;
	unsigned long frames = 0;
	size_t len;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': secs = atof(optarg); break;
		case 'm': mode = (unsigned int)atoi(optarg); break;
		case 'g': gbps = atof(optarg); break;
		case 'n': name = optarg; break;
		case 'r': row = optarg; break;
		case 'c': row_clocks = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: bench-nic-model [--seconds S] [--mode M] [--gbps G] [--name NAME] [--row idle|marked] [--clocks N]\n");
			return 2;
		}
	}
	base_secs = secs;
	nic_env_cfg_default(&cfg, 1);
	nic_env_cfg_nobp(&cfg);
	cfg.wire_bytes_per_clk = gbps * 1e9 / 8 / (CLK_MHZ * 1e6);
	cfg.link_speed = (uint32_t)(gbps * 1000 + 0.5);
	cfg.link_up = 1;
	e = nic_env_new(&cfg);
	if (!e)
		die("no environment");
	memset(&d, 0, sizeof(d));
	if (nic_drv_init(&d, e, 8, 8, 9216))
		die("nic_drv_init");
	while (nic_drv_rx_space(&d) > 0)
		nic_drv_rx_post(&d, 9216);
	nic_drv_rx_kick(&d);
	nic_csr_write(e, INC_CTRL, INC_CTRL_TX_EN | INC_CTRL_RX_EN);
	if (!mode)
		mode = nic_csr_read(e, INC_FEATURES) & INC_FEAT_MODE_WIDTH ? INC_MODE_WIDTH :
		       INC_MODE_SPARSE;
	fill_grad(pay, sizeof(pay), &seed);
	len = frame_build(&s, pay, sizeof(pay), frame);

	nic_env_step(e, 1000);
	/* --row idle or marked: that row alone (the other's figure 0), e.g.
	 * for instructions per clock under valgrind --tool=callgrind */
	idle = row && strcmp(row, "idle") ? 0 :
	       run(e, &d, secs, 0, mode, frame, len, frame_payload_off(&s), &frames);
	if (row && strcmp(row, "marked")) {
		printf("| %s | %u | - | %.3f | - | - |\n", name ? name : "NIC", vl_nic_beat() / 4,
		       idle);
		return 0;
	}
	(void)run(e, &d, secs / 4, 1, mode, frame, len, frame_payload_off(&s), &frames);
	busy = run(e, &d, secs, 1, mode, frame, len, frame_payload_off(&s), &frames);
	if (!frames)
		die("no frame came back through RX: the traffic row would measure nothing");
	if (nic_env_error_total(e) || nic_drv_error_total(&d))
		die("protocol errors in the environment or the driver");
	/* the frames were compressed on TX and decompressed on RX */
	if (nic_stat(e, INC_ST_TX_COMP_FRAMES) * 10 < nic_stat(e, INC_ST_TX_FRAMES) * 9 ||
	    nic_stat(e, INC_ST_RX_DECOMP_FRAMES) * 10 < nic_stat(e, INC_ST_RX_FRAMES) * 9 ||
	    nic_stat(e, INC_ST_RX_DROP_MALFORMED))
		die("the frames were not compressed and decompressed");
	printf("| %s | %u | %s | %.3f | %.3f | %.0f |\n", name ? name : "NIC", vl_nic_beat() / 4,
	       mode == INC_MODE_WIDTH ? "width" : mode == INC_MODE_SPARSE ? "sparse" : "paper",
	       idle, busy, (double)frames / secs);
	nic_drv_fini(&d);
	nic_env_free(e);
	return 0;
}
