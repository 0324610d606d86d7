// SPDX-License-Identifier: MIT
/*
 * incsim: the NIC's RTL (Verilator model of rtl/nic/inc_nic.v) as a PCI
 * device of a QEMU guest, through QEMU's ivshmem-doorbell device, with an
 * Ethernet link to a peer. docs/sim.md is its manual.
 *
 * The model's ports are served by sim/nic/nic_env.c with every random stall
 * turned off (or on, with --random): the CSR port executes the guest's
 * command ring, DMA reads and writes the guest's RAM file, interrupts write
 * QEMU's eventfds, and MAC frames go to and come from the link. For tests of
 * a driver's recovery, the guest can reset the NIC and turn its bus
 * mastering off, a fault can hang the DMA bridge, and --check-dma catches
 * queues moved while the NIC could still DMA.
 *
 * --model behavioral puts the behavioral model of the same device
 * (sim/beh/bnic.h) behind the same shim, link and faults instead: no clock
 * of the RTL, frames built by the C references, the NIC's time the wall
 * clock's (docs/sim.md "Two models").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <inceptionn/incsim.h>

#include "bnic.h"
#include "incwire.h"
#include "ivshmem.h"
#include "link.h"
#include "nic_env.h"

#define BAR0_SIZE	0x10000u	/* the NIC's 16-bit CSR address space */
#define MAX_RAM		(0xb0000000ull)	/* 2.75 GiB: GPA == file offset */
#define RUN_CLOCKS	64		/* clocks between looks at the ring */
#define RUN_ROUNDS	16		/* ... and between looks at the fds */
#define RX_QUEUE	8		/* link frames waiting for the MAC */
#define TX_HOLD_ON	(256u << 10)	/* link bytes queued: MAC TX waits */
#define STALL_MAX	8		/* --stall-after N,N,... */
#define TX_HOLD_OFF	(64u << 10)
#define UNSAFE_LOG_MAX	5		/* DMA safety messages printed */
#define SLEEP_SCALE	100		/* --sleep-scale: wall ms per NIC ms asleep */
#define SLEEP_PUBLISH_MS 50		/* asleep: INCSIM_OFF_CLOCKS at least this often */
#define SLEEP_LAG	(2 * 250000ull)	/* clocks behind the pace: a new pace */
#define SLEEP_CHUNK	8		/* clocks between looks at the sleep output */

struct incsim {
	const char *name;
	struct ivs ivs;
	struct link link;
	int have_link;
	struct nic_env *env;	/* the RTL (--model rtl) */
	struct bnic *bn;	/* or the behavioral model */
	int64_t t0;		/* behavioral: the NIC's clock 0, wall ns */
	FILE *record;		/* --record-compressed: a pcap file */
	uint64_t recorded;
	uint8_t *ram;
	size_t ram_size;
	uint32_t cons;
	int sigfd;
	int trace;
	int tx_hold;
	uint8_t mac[6];
	int master;		/* bus mastering (INCSIM_OP_MASTER) */
	uint64_t stall_after[STALL_MAX];	/* --stall-after N[,N...] */
	unsigned int stall_n, stall_i;	/* how many; the one armed now */
	int stall_seen;		/* the stall's message was printed */
	/*
	 * --tx-wedge-after N: the MAC takes nothing once N frames were sent
	 * (counted from the start), until the TX queue is flushed or the NIC
	 * reset; once
	 */
	uint64_t wedge_after, tx_sent;
	int wedged, wedge_done;
	int check_dma;
	/*
	 * A sleeping management core (docs/sim.md "A sleeping core"): while
	 * the NIC's sleep output is high, its clocks are skipped at
	 * sleep_scale wall ms per NIC ms (0: never, the core is clocked)
	 */
	double sleep_scale;
	int asleep;		/* in poll() with clocks being skipped */
	/*
	 * The pace: NIC clock pace_clk was at wall time pace_at (0: none);
	 * asleep, the clock is brought to pace_clk + the wall time since at
	 * the scale, so the clocks simulated for the core's wakeups count
	 * too. A command, a link frame or a long lag starts a new pace.
	 */
	int64_t pace_at;
	uint64_t pace_clk;
	uint64_t skipped, sleeps;
	/* wakeups by the timer, and the clocks simulated until asleep again */
	uint64_t timer_wakes, wake_clocks, wake_at;
	/* counters */
	uint64_t cmd_writes, cmd_reads, cmd_bad, cmd_lost, doorbells;
	uint64_t irqs[3], irqs_unsent, irqs_blocked;	/* vectors 0 TX, 1 RX, 2 management */
	uint64_t resets, master_changes, unsafe_reprogram;
	uint64_t wakeups, busy_ns;
	/* the environment's errors and counts from before the last reset */
	uint64_t env_errors, env_dma_range, env_csr_resp, env_csr_timeout;
	uint64_t env_dma_blocked;
};

static void msg(struct incsim *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", s->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void link_msg(void *ctx, const char *fmt, ...)
{
	struct incsim *s = ctx;
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	msg(s, "%s", buf);
}

static void env_log(void *ctx, const char *m)
{
	msg(ctx, "NIC interface: %s", m);
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* ---- options ---- */

struct opts {
	const char *ivshmem, *ram, *link_path, *name;
	int link_connect;
	uint64_t ram_size;
	unsigned int vectors;
	int stats, trace, random, check_dma;
	uint64_t seed, stall_after[STALL_MAX];
	unsigned int stall_n;
	uint64_t wedge_after;		/* --tx-wedge-after */
	int engine_fault;		/* --fault engine-tx|engine-rx (NIC_FAULT_*) */
	double gbps;
	double sleep_scale;		/* --sleep-scale */
	uint8_t mac[6];
	int have_mac;
	int behavioral;			/* --model behavioral */
	const char *record;		/* --record-compressed FILE */
	unsigned int lanes;		/* --lanes (0: the model's) */
	double dma_latency_ns;		/* --dma-latency: a read's round trip */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: incsim --ivshmem PATH --ram PATH [--ram-size SIZE]\n"
"              [--link-listen PATH | --link-connect PATH] [--vectors N]\n"
"              [--gbps G] [--mac MAC] [--name NAME] [--stats] [--random SEED] [--trace]\n"
"              [--stall-after N[,N...]] [--tx-wedge-after N] [--check-dma]\n"
"              [--sleep-scale MS]\n"
"              [--fault engine-tx|engine-rx] [--model rtl|behavioral] [--lanes 16|8]\n"
"              [--dma-latency NS]\n"
"  --model rtl         the NIC's RTL, Verilated, clock by clock (the default)\n"
"  --model behavioral  the behavioral model of the same device: the same registers,\n"
"                      rings, counters, firmware and frames, without the RTL's timing\n"
"  --lanes 16|8        the behavioral NIC's lanes (8: no width mode; FEATURES bit 12)\n"
"  --record-compressed FILE  every encapsulated (compressed) frame sent or received\n"
"                      on the link, into FILE as pcap (tests/sim/beh/wire-recheck)\n"
"  --dma-latency NS    every DMA read of the RTL model answered NS nanoseconds after\n"
"                      its request at the earliest (a host's PCIe round trip, about\n"
"                      1000; 0, the default: as soon as the guest's memory gives it)\n"
"  --fault engine-tx   a faulty compressor: inc_nic's dbg_engine_fault bit 0 flips\n"
"                      bit 0 of every beat it outputs (frames and the self-test)\n"
"  --fault engine-rx   the same for the decompressors (bit 1); may be repeated\n"
"Runs the NIC's RTL as QEMU's ivshmem-doorbell device; see docs/sim.md.\n");
}

static int parse_size(const char *a, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(a, &end, 0);
	if (errno || end == a || a[0] == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end || v == 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_mac(const char *a, uint8_t mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (sscanf(a, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &end) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	/* unicast, not all zeros */
	return (mac[0] & 1) || !(b[0] | b[1] | b[2] | b[3] | b[4] | b[5]) ? -1 : 0;
}

/* A locally administered address from the socket path: stable across runs,
 * different for each NIC of a setup. */
static void default_mac(const char *path, uint8_t mac[6])
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *path; path++)
		h = (h ^ (uint8_t)*path) * 0x100000001b3ull;
	mac[0] = 0x02;
	mac[1] = 0x1c;
	mac[2] = (uint8_t)(h >> 24);
	mac[3] = (uint8_t)(h >> 16);
	mac[4] = (uint8_t)(h >> 8);
	mac[5] = (uint8_t)h;
}

static int bad_opt(const char *fmt, const char *arg)
{
	fprintf(stderr, "incsim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	return -1;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "ivshmem", required_argument, NULL, 'i' },
		{ "ram", required_argument, NULL, 'r' },
		{ "ram-size", required_argument, NULL, 's' },
		{ "link-listen", required_argument, NULL, 'l' },
		{ "link-connect", required_argument, NULL, 'c' },
		{ "vectors", required_argument, NULL, 'v' },
		{ "gbps", required_argument, NULL, 'g' },
		{ "mac", required_argument, NULL, 'm' },
		{ "name", required_argument, NULL, 'n' },
		{ "stats", no_argument, NULL, 'S' },
		{ "random", required_argument, NULL, 'R' },
		{ "trace", no_argument, NULL, 'T' },
		{ "stall-after", required_argument, NULL, 'A' },
		{ "tx-wedge-after", required_argument, NULL, 'W' },
		{ "check-dma", no_argument, NULL, 'D' },
		{ "sleep-scale", required_argument, NULL, 'Z' },
		{ "fault", required_argument, NULL, 'F' },
		{ "model", required_argument, NULL, 'M' },
		{ "lanes", required_argument, NULL, 'L' },
		{ "record-compressed", required_argument, NULL, 'P' },
		{ "dma-latency", required_argument, NULL, 'Y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->vectors = 2;
	o->gbps = 100;
	o->sleep_scale = SLEEP_SCALE;
	o->name = "incsim";
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'i': o->ivshmem = optarg; break;
		case 'r': o->ram = optarg; break;
		case 's':
			if (parse_size(optarg, &o->ram_size) < 0)
				return bad_opt("bad --ram-size: %s", optarg);
			break;
		case 'l': case 'c':
			if (o->link_path)
				return bad_opt("%s", "one link only: --link-listen or --link-connect");
			o->link_path = optarg;
			o->link_connect = c == 'c';
			break;
		case 'v':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || v < 2 || v > 64)
				return bad_opt("bad --vectors (2..64): %s", optarg);
			o->vectors = (unsigned int)v;
			break;
		case 'g':
			errno = 0;
			o->gbps = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->gbps >= 0) ||
			    o->gbps > 1000)
				return bad_opt("bad --gbps (0..1000, 0: no limit): %s",
					       optarg);
			break;
		case 'm':
			if (parse_mac(optarg, o->mac) < 0)
				return bad_opt("bad --mac (a unicast address, xx:xx:xx:xx:xx:xx): %s",
					       optarg);
			o->have_mac = 1;
			break;
		case 'n': o->name = optarg; break;
		case 'S': o->stats = 1; break;
		case 'R':
			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (errno || *end || end == optarg)
				return bad_opt("bad --random seed: %s", optarg);
			o->random = 1;
			break;
		case 'T': o->trace = 1; break;
		case 'A': {
			const char *a = optarg;

			for (o->stall_n = 0; o->stall_n < STALL_MAX; a = end + 1) {
				uint64_t n;

				errno = 0;
				n = strtoull(a, &end, 10);
				if (errno || end == a || a[0] == '-' || n == 0 ||
				    (*end && *end != ','))
					return bad_opt("bad --stall-after (frames, 1 or more, up to 8 separated by commas): %s",
						       optarg);
				o->stall_after[o->stall_n++] = n;
				if (!*end)
					break;
			}
			if (*end)
				return bad_opt("bad --stall-after (at most 8 stalls): %s",
					       optarg);
			break;
		}
		case 'W':
			errno = 0;
			o->wedge_after = strtoull(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-' ||
			    !o->wedge_after)
				return bad_opt("bad --tx-wedge-after (frames, 1 or more): %s",
					       optarg);
			break;
		case 'D': o->check_dma = 1; break;
		case 'Z':
			errno = 0;
			o->sleep_scale = strtod(optarg, &end);
			if (errno || *end || end == optarg ||
			    !(o->sleep_scale >= 0) || o->sleep_scale > 100000)
				return bad_opt("bad --sleep-scale (wall ms per NIC ms while the management core sleeps, 0..100000; 0: clock it): %s",
					       optarg);
			break;
		case 'F':
			if (!strcmp(optarg, "engine-tx"))
				o->engine_fault |= NIC_FAULT_TX;
			else if (!strcmp(optarg, "engine-rx"))
				o->engine_fault |= NIC_FAULT_RX;
			else
				return bad_opt("bad --fault (engine-tx or engine-rx): %s", optarg);
			break;
		case 'M':
			if (!strcmp(optarg, "rtl"))
				o->behavioral = 0;
			else if (!strcmp(optarg, "behavioral"))
				o->behavioral = 1;
			else
				return bad_opt("bad --model (rtl or behavioral): %s", optarg);
			break;
		case 'L':
			if (strcmp(optarg, "16") && strcmp(optarg, "8"))
				return bad_opt("bad --lanes (16 or 8): %s", optarg);
			o->lanes = (unsigned int)atoi(optarg);
			break;
		case 'P': o->record = optarg; break;
		case 'Y':
			errno = 0;
			o->dma_latency_ns = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->dma_latency_ns >= 0) ||
			    o->dma_latency_ns > 1e6)
				return bad_opt("bad --dma-latency (nanoseconds, 0..1000000): %s",
					       optarg);
			break;
		case 'h': usage(stdout); exit(0);
		default:
			return bad_opt("unknown or incomplete option: %s",
				       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_opt("unexpected argument: %s", argv[optind]);
	if (!o->ivshmem)
		return bad_opt("%s", "--ivshmem PATH is required");
	if (!o->ram)
		return bad_opt("%s", "--ram PATH is required");
	if (o->ram_size > MAX_RAM)
		return bad_opt("%s", "--ram-size over 2.75 GiB: guest memory above that is not at its file offset");
	if (!o->behavioral && o->lanes && o->lanes != vl_nic_beat() / 4)
		return bad_opt("--lanes: this incsim's RTL has %s lanes (incsim: 16, incsim8: 8; --model behavioral takes either)",
			       vl_nic_beat() == 64 ? "16" : "8");
	return 0;
}

/* ---- guest RAM ---- */

static int map_ram(struct incsim *s, const struct opts *o)
{
	struct stat st;
	uint64_t size;
	int fd;

	fd = open(o->ram, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && o->ram_size)
		fd = open(o->ram, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		msg(s, "guest RAM %s: %s%s", o->ram, strerror(errno),
		    errno == ENOENT ? " (give --ram-size to create it)" : "");
		return -1;
	}
	if (fstat(fd, &st) < 0)
		goto io;
	size = (uint64_t)st.st_size;
	if (size == 0 && o->ram_size) {
		if (ftruncate(fd, (off_t)o->ram_size) < 0)
			goto io;
		size = o->ram_size;
	}
	if (size == 0 || (o->ram_size && size != o->ram_size)) {
		msg(s, "guest RAM %s is %" PRIu64 " bytes, expected %" PRIu64,
		    o->ram, size, o->ram_size);
		close(fd);
		return -1;
	}
	if (size > MAX_RAM) {
		msg(s, "guest RAM %s is over 2.75 GiB: not supported", o->ram);
		close(fd);
		return -1;
	}
	s->ram = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->ram == MAP_FAILED) {
		s->ram = NULL;
		goto io;
	}
	s->ram_size = size;
	close(fd);
	return 0;
io:
	msg(s, "guest RAM %s: %s", o->ram, strerror(errno));
	close(fd);
	return -1;
}

/* ---- BAR2 ---- */

static _Atomic uint32_t *bar2_u32(struct incsim *s, unsigned int off)
{
	return (_Atomic uint32_t *)(s->ivs.bar2 + off);
}

static void bar2_init(struct incsim *s)
{
	uint8_t *b = s->ivs.bar2;
	uint64_t magic = INCSIM_MAGIC;

	memset(b, 0, s->ivs.bar2_size);
	memcpy(b + INCSIM_OFF_MAGIC, &magic, 8);	/* little-endian host */
	atomic_store(bar2_u32(s, INCSIM_OFF_VERSION), INCSIM_VERSION);
	atomic_store(bar2_u32(s, INCSIM_OFF_BAR0), BAR0_SIZE);
	atomic_store(bar2_u32(s, INCSIM_OFF_ENTRIES), INCSIM_RING_ENTRIES);
	atomic_store(bar2_u32(s, INCSIM_OFF_VECTORS), s->ivs.vectors);
	atomic_store(bar2_u32(s, INCSIM_OFF_FEATURES),
		     INCSIM_FEAT_RESET | INCSIM_FEAT_MASTER);
	atomic_store_explicit(bar2_u32(s, INCSIM_OFF_STATE),
			      INCSIM_STATE_ATTACHED, memory_order_release);
}

static int ring_pending(struct incsim *s)
{
	return atomic_load_explicit(bar2_u32(s, INCSIM_OFF_PROD),
				    memory_order_acquire) != s->cons;
}

/*
 * ---- the device: the RTL in its environment, or the behavioral model ----
 * The behavioral NIC's clock is the wall clock's, at INCSIM_CLK_MHZ.
 */
static uint64_t beh_now(const struct incsim *s)
{
	int64_t d = now_ns() - s->t0;

	return d > 0 ? (uint64_t)d * INCSIM_CLK_MHZ / 1000 : 0;
}

static uint64_t dev_clock(const struct incsim *s)
{
	return s->bn ? beh_now(s) : nic_env_clock(s->env);
}

/* 0, or -1 when the access timed out; *resp: the response (0 OKAY) */
static int dev_write(struct incsim *s, uint32_t addr, uint32_t val, int *resp)
{
	if (s->bn) {
		*resp = bnic_csr_write(s->bn, beh_now(s), (uint16_t)addr, val, 0xf) ? 2 : 0;
		return 0;
	}
	return nic_csr_write_resp(s->env, (uint16_t)addr, val, resp);
}

static int dev_read(struct incsim *s, uint32_t addr, uint32_t *val, int *resp)
{
	if (s->bn) {
		*resp = bnic_csr_read(s->bn, beh_now(s), (uint16_t)addr, val) ? 2 : 0;
		return 0;
	}
	return nic_csr_read_resp(s->env, (uint16_t)addr, val, resp);
}

static int dev_dma_stalled(const struct incsim *s)
{
	return s->bn ? bnic_dma_stalled(s->bn) : nic_env_dma_stalled(s->env);
}

/* the behavioral NIC's DMA is done within the access that starts it */
static int dev_dma_busy(const struct incsim *s)
{
	return s->bn ? 0 : nic_env_dma_busy(s->env);
}

static void dev_set_tx_hold(struct incsim *s, int hold)
{
	if (s->bn)
		bnic_set_tx_hold(s->bn, hold);
	else
		nic_env_set_tx_hold(s->env, hold);
}

static size_t dev_rx_pending(const struct incsim *s)
{
	return s->bn ? bnic_rx_pending(s->bn) : nic_env_rx_pending(s->env);
}

static void dev_stall_after(struct incsim *s, uint64_t n)
{
	if (s->bn)
		bnic_stall_dma_after(s->bn, n);
	else
		nic_env_stall_dma_after(s->env, n);
}

static uint64_t dev_stat(struct incsim *s, int n)
{
	return s->bn ? bnic_stat(s->bn, n) : nic_stat(s->env, n);
}

/* The board's firmware sets the MAC address after reset; so does incsim. */
static void write_mac(struct incsim *s)
{
	const uint8_t *m = s->mac;
	int resp;

	dev_write(s, INC_MAC_LO, (uint32_t)m[0] | (uint32_t)m[1] << 8 |
		  (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24, &resp);
	dev_write(s, INC_MAC_HI, (uint32_t)m[4] | (uint32_t)m[5] << 8, &resp);
}

static void forward_tx(struct incsim *s);
static void unwedge_tx(struct incsim *s, const char *why);

static void check_stall(struct incsim *s)
{
	if (s->stall_seen || !dev_dma_stalled(s))
		return;
	s->stall_seen = 1;
	msg(s, "fault: DMA bridge stalled after %" PRIu64 " frames (--stall-after, stall %u of %u)",
	    s->stall_after[s->stall_i], s->stall_i + 1, s->stall_n);
}

/*
 * INCSIM_OP_RESET, what a function-level reset does to the board: the DMA
 * in flight is dropped, the RTL and every service are reset, the firmware
 * sets the MAC address again; the link and the MAC carry on, so a frame the
 * MAC is receiving goes on arriving (the NIC drops its tail) and frames
 * behind it arrive. nic_env_reset_nic() keeps host memory, the cfg
 * (randomness, wire rate, link state), the TX hold and bus mastering; it
 * clears the stall fault, which is not armed again. Its errors and counts
 * start again from 0: the statistics keep the sums.
 */
static void reset_nic(struct incsim *s)
{
	check_stall(s);
	if (s->bn) {
		bnic_run(s->bn, beh_now(s));
		bnic_reset(s->bn, beh_now(s));
	} else {
		const struct nic_env_errors *er = nic_env_errors(s->env);

		forward_tx(s);	/* frames already sent reach the link */
		s->env_errors += nic_env_error_total(s->env);
		s->env_dma_range += er->dma_range;
		s->env_csr_resp += er->csr_resp;
		s->env_csr_timeout += er->csr_timeout;
		s->env_dma_blocked += nic_env_counts(s->env)->dma_blocked;
		nic_env_reset_nic(s->env);
	}
	write_mac(s);
	unwedge_tx(s, "the NIC is reset");
	s->resets++;
	/*
	 * The next stall of the list once this one came (or this one again
	 * if it did not), counted from this reset
	 */
	if (s->stall_i < s->stall_n && s->stall_seen) {
		s->stall_i++;
		s->stall_seen = 0;
	}
	if (s->stall_i < s->stall_n)
		dev_stall_after(s, s->stall_after[s->stall_i]);
}

/* A queue's BASE or SIZE: where and how far the NIC's DMA goes. */
static const char *queue_reg_name(uint32_t addr, const char **queue)
{
	uint32_t reg = addr & 0xff;

	if ((addr & ~0xffu) != INC_TXQ && (addr & ~0xffu) != INC_RXQ)
		return NULL;
	*queue = (addr & ~0xffu) == INC_TXQ ? "TX" : "RX";
	if (reg == INC_Q_BASE_LO || reg == INC_Q_BASE_HI)
		return "BASE";
	return reg == INC_Q_SIZE ? "SIZE" : NULL;
}

/* --check-dma: a queue moved while the NIC could still DMA for it */
static void check_reprogram(struct incsim *s, uint32_t addr)
{
	const char *queue, *reg = queue_reg_name(addr, &queue);

	if (!reg || !s->master || !dev_dma_busy(s))
		return;
	if (s->unsafe_reprogram++ < UNSAFE_LOG_MAX)
		msg(s, "DMA safety: %s queue %s written while the NIC had DMA in flight (bus mastering on)%s",
		    queue, reg, s->unsafe_reprogram == UNSAFE_LOG_MAX ?
		    "; more are only counted" : "");
}

static void exec_cmd(struct incsim *s, volatile struct incsim_cmd *c)
{
	uint32_t op = c->op, addr = c->addr, val = c->value;
	int resp = 0, rc;

	if (op == INCSIM_OP_RESET) {
		reset_nic(s);
		if (s->trace)
			msg(s, "reset");
		return;
	}
	if (op == INCSIM_OP_MASTER && val <= 1) {
		if (s->master != (int)val)
			s->master_changes++;
		s->master = (int)val;
		if (s->bn)
			bnic_set_dma_enable(s->bn, s->master);
		else
			nic_env_set_dma_enable(s->env, s->master);
		if (s->trace)
			msg(s, "bus mastering %s", val ? "on" : "off");
		return;
	}
	if ((addr & 3) || addr >= BAR0_SIZE ||
	    (op != INCSIM_OP_WRITE && op != INCSIM_OP_READ)) {
		if (s->cmd_bad++ < 10)
			msg(s, "bad command op %u addr 0x%x value 0x%x: ignored%s",
			    op, addr, val,
			    op == INCSIM_OP_READ ? " (reads ~0)" : "");
		if (op == INCSIM_OP_READ)
			c->value = 0xffffffffu;
		return;
	}
	if (op == INCSIM_OP_WRITE) {
		s->cmd_writes++;
		check_reprogram(s, addr);
		if (addr == INC_QFLUSH && (val & INC_QFLUSH_TX))
			unwedge_tx(s, "the TX queue is flushed");
		dev_write(s, addr, val, &resp);
		if (s->trace)
			msg(s, "write 0x%04x = 0x%08x", addr, val);
		return;
	}
	s->cmd_reads++;
	rc = dev_read(s, addr, &val, &resp);
	/* an access the NIC refused reads as all ones, as on PCIe */
	c->value = rc < 0 || resp ? 0xffffffffu : val;
	if (s->trace)
		msg(s, "read  0x%04x = 0x%08x", addr, c->value);
}

/* Execute the commands the guest has queued, in order. */
static void exec_ring(struct incsim *s)
{
	volatile struct incsim_cmd *ring =
		(volatile struct incsim_cmd *)(s->ivs.bar2 + INCSIM_OFF_RING);
	uint32_t prod = atomic_load_explicit(bar2_u32(s, INCSIM_OFF_PROD),
					     memory_order_acquire);

	if (prod - s->cons > INCSIM_RING_ENTRIES) {
		msg(s, "the guest overran the command ring (prod %u, cons %u): %u commands lost",
		    prod, s->cons, prod - s->cons);
		s->cmd_lost += prod - s->cons;
		s->cons = prod;
		atomic_store_explicit(bar2_u32(s, INCSIM_OFF_CONS), s->cons,
				      memory_order_release);
		return;
	}
	if (s->cons != prod)
		s->pace_at = 0;
	while (s->cons != prod) {
		exec_cmd(s, &ring[s->cons % INCSIM_RING_ENTRIES]);
		s->cons++;
		atomic_store_explicit(bar2_u32(s, INCSIM_OFF_CONS), s->cons,
				      memory_order_release);
		if (s->cons == prod)
			prod = atomic_load_explicit(bar2_u32(s, INCSIM_OFF_PROD),
						    memory_order_acquire);
	}
}

/* ---- the NIC's other ports ---- */

static void on_irq(void *ctx, int vector, uint64_t clock)
{
	struct incsim *s = ctx;

	(void)clock;
	if (vector >= 0 && vector < 3)
		s->irqs[vector]++;
	if (vector < 0 || (unsigned int)vector >= s->ivs.vectors)
		s->irqs_unsent++;	/* a vector the guest has no eventfd for (2: management, with --vectors 2) */
	else if (!s->master)	/* an MSI-X message is a DMA write */
		s->irqs_blocked++;
	else if (s->ivs.conn_fd < 0 ||
		 ivs_raise(&s->ivs, (unsigned int)vector) < 0)
		s->irqs_unsent++;
}

static void beh_irq(void *ctx, int vector)
{
	on_irq(ctx, vector, 0);
}

static void beh_log(void *ctx, const char *m)
{
	msg(ctx, "behavioral NIC: %s", m);
}

/*
 * Flow control: a peer that does not keep up holds the MAC back; so does
 * the wedge fault (--tx-wedge-after).
 */
static void update_hold(struct incsim *s)
{
	int hold = s->tx_hold;

	if (s->have_link) {
		size_t q = link_queued(&s->link);

		hold = q > TX_HOLD_ON || (s->tx_hold && q > TX_HOLD_OFF);
	}
	if (hold != s->tx_hold || s->wedged)
		dev_set_tx_hold(s, hold || s->wedged);
	s->tx_hold = hold;
}

/*
 * --tx-wedge-after: the MAC stops taking frames once that many were sent,
 * a TX path that hangs while the DMA bridge and RX go on; the queue's own
 * reset is what clears it (a QFLUSH of TX, or a reset of the NIC).
 */
static void wedge_tx(struct incsim *s)
{
	if (!s->wedge_after || s->wedge_done || s->wedged ||
	    s->tx_sent < s->wedge_after)
		return;
	s->wedged = 1;
	msg(s, "fault: the MAC takes no frame after %" PRIu64 " sent (--tx-wedge-after); a flush of the TX queue or a reset clears it",
	    s->tx_sent);
	update_hold(s);
}

static void unwedge_tx(struct incsim *s, const char *why)
{
	if (!s->wedged)
		return;
	s->wedged = 0;
	s->wedge_done = 1;
	msg(s, "fault cleared: %s, the MAC takes frames again", why);
	dev_set_tx_hold(s, s->tx_hold);
}

/*
 * --record-compressed: the link's encapsulated frames (IP protocol 253, the
 * NIC's compressed ones, both ways) as pcap records (link type Ethernet,
 * without FCS), for an offline check against the wire reference.
 */
static void record_frame(struct incsim *s, const uint8_t *f, size_t len)
{
	struct incw_frame fr;
	uint32_t h[4];
	int64_t t = now_ns();

	if (!s->record || incw_parse(f, len, &fr) != INCW_P_NOT_L4 ||
	    fr.proto != INCW_PROTO)
		return;
	h[0] = (uint32_t)(t / 1000000000);
	h[1] = (uint32_t)(t % 1000000000 / 1000);
	h[2] = h[3] = (uint32_t)len;
	if (fwrite(h, sizeof(h), 1, s->record) != 1 ||
	    fwrite(f, len, 1, s->record) != 1) {
		msg(s, "--record-compressed: write failed; recording stopped");
		fclose(s->record);
		s->record = NULL;
		return;
	}
	s->recorded++;
}

static FILE *record_open(const char *path)
{
	/* pcap's file header: magic, version 2.4, zone, sigfigs, snaplen,
	 * link type 1 (Ethernet) */
	static const uint32_t hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };
	FILE *f = fopen(path, "wb");

	if (f && fwrite(hdr, sizeof(hdr), 1, f) != 1) {
		fclose(f);
		return NULL;
	}
	return f;
}

/* The behavioral NIC's frames, as it sends them. */
static void beh_tx(void *ctx, const uint8_t *f, size_t len)
{
	struct incsim *s = ctx;

	if (s->have_link) {
		record_frame(s, f, len);
		link_send(&s->link, f, len);
	}
	s->tx_sent++;
	update_hold(s);
	wedge_tx(s);
}

static void forward_tx(struct incsim *s)
{
	size_t i, n;

	if (s->bn)
		return;		/* beh_tx() has sent them */
	n = nic_env_tx_count(s->env);

	for (i = 0; i < n; i++) {
		const struct nic_frame *f = nic_env_tx_frame(s->env, i);

		if (s->have_link) {
			record_frame(s, f->data, f->len);
			link_send(&s->link, f->data, f->len);
		}
	}
	if (n)
		nic_env_tx_clear(s->env);
	s->tx_sent += n;
	update_hold(s);
	wedge_tx(s);
}

static void link_rx(void *ctx, const uint8_t *f, size_t len)
{
	struct incsim *s = ctx;

	s->pace_at = 0;
	record_frame(s, f, len);
	/*
	 * The behavioral NIC handles the frame at once: the guest's commands
	 * queued before it arrived (RX buffers posted, PROD) come first, as
	 * their posted writes would reach a board before the frame's end
	 */
	if (s->bn)
		exec_ring(s);
	if (s->bn)
		bnic_rx_frame(s->bn, beh_now(s), f, len, 0);
	else
		nic_env_rx_inject(s->env, f, len, 0, 0);
}

static int link_more(void *ctx)
{
	struct incsim *s = ctx;

	return dev_rx_pending(s) < RX_QUEUE;
}

/* Held back by the link, or by a stalled DMA bridge: the NIC may still
 * have work (RX, a reset), but not enough to run it flat out. */
static int held(struct incsim *s)
{
	return s->tx_hold || s->wedged || dev_dma_stalled(s);
}

/*
 * The NIC need not be clocked: idle, or (--sleep-scale) its sleep output
 * high with clocks to skip before the core's timer interrupt.
 */
static int can_rest(struct incsim *s)
{
	if (s->bn)
		return !bnic_busy(s->bn);
	if (!s->sleep_scale)
		return nic_env_idle(s->env);
	return nic_env_sleep(s->env) && nic_env_sleep_limit(s->env) > 0;
}

/* NIC clocks per wall nanosecond while asleep */
static double sleep_rate(const struct incsim *s)
{
	return INCSIM_CLK_MHZ * 1e-3 / s->sleep_scale;
}

static void publish_clocks(struct incsim *s)
{
	atomic_store_explicit((_Atomic uint64_t *)(s->ivs.bar2 +
						   INCSIM_OFF_CLOCKS),
			      dev_clock(s), memory_order_relaxed);
}

/* The clock the pace asks for now. */
static uint64_t pace_target(const struct incsim *s, int64_t t)
{
	return s->pace_clk + (uint64_t)((double)(t - s->pace_at) * sleep_rate(s));
}

/* Going to sleep: keep the pace, or start one (none, or far behind it). */
static void sleep_begin(struct incsim *s)
{
	int64_t t = now_ns();
	uint64_t clk = nic_env_clock(s->env);

	if (s->wake_at) {
		s->wake_clocks += clk - s->wake_at;
		s->wake_at = 0;
	}
	if (!s->pace_at || pace_target(s, t) > clk + SLEEP_LAG) {
		s->pace_at = t;
		s->pace_clk = clk;
	}
	s->asleep = 1;
	s->sleeps++;
}

/*
 * Asleep: skip the clocks the pace asks for, up to the limit (the timer's
 * interrupt less a margin, which is simulated), and publish the count.
 */
static void sleep_catch_up(struct incsim *s)
{
	uint64_t want, clk, n, lim;

	if (!s->asleep)
		return;
	clk = nic_env_clock(s->env);
	s->asleep = 0;
	want = pace_target(s, now_ns());
	if (want <= clk)
		return;
	lim = nic_env_sleep_limit(s->env);
	n = want - clk < lim ? want - clk : lim;
	if (n) {
		nic_env_skip(s->env, n);
		s->skipped += n;
	}
	if (n == lim) {		/* the timer's interrupt is next */
		s->timer_wakes++;
		s->wake_at = nic_env_clock(s->env);
	}
	publish_clocks(s);
}

/* poll()'s timeout while asleep, ms: the timer's interrupt, or a publish */
static int sleep_timeout(struct incsim *s)
{
	uint64_t lim = nic_env_sleep_limit(s->env);
	double ms;

	if (lim > (uint64_t)1 << 62)
		return SLEEP_PUBLISH_MS;
	if (!s->pace_at)
		ms = (double)lim / sleep_rate(s) * 1e-6;
	else	/* when the pace reaches the clock + lim */
		ms = ((double)(nic_env_clock(s->env) + lim - s->pace_clk) /
		      sleep_rate(s) - (double)(now_ns() - s->pace_at)) * 1e-6;
	if (ms < 0)
		ms = 0;
	return ms < SLEEP_PUBLISH_MS ? (int)ms + 1 : SLEEP_PUBLISH_MS;
}

/*
 * The behavioral NIC: poll()'s timeout, ms, until its next timed event
 * (a coalescing timer, the core's timer), at most SLEEP_PUBLISH_MS so that
 * the published clock moves.
 */
static int beh_timeout(struct incsim *s)
{
	uint64_t next = bnic_next_event(s->bn), now = beh_now(s);
	uint64_t clk_ms = (uint64_t)INCSIM_CLK_MHZ * 1000;

	if (next <= now)
		return 0;
	if (next - now >= SLEEP_PUBLISH_MS * clk_ms)
		return SLEEP_PUBLISH_MS;
	return (int)((next - now + clk_ms - 1) / clk_ms);
}

/* Run the NIC while it has work, looking at the ring between slices. */
static void run_nic(struct incsim *s)
{
	int64_t t0 = now_ns();
	int i;

	if (s->bn) {
		for (i = 0; i < RUN_ROUNDS; i++) {
			exec_ring(s);
			bnic_run(s->bn, beh_now(s));
			check_stall(s);
			if (!ring_pending(s) && (!bnic_busy(s->bn) || held(s)))
				break;
		}
		publish_clocks(s);
		s->busy_ns += (uint64_t)(now_ns() - t0);
		return;
	}

	for (i = 0; i < (held(s) ? 1 : RUN_ROUNDS); i++) {
		exec_ring(s);
		if (can_rest(s) && !ring_pending(s))
			break;
		if (s->sleep_scale) {
			/* a core going back to sleep: caught within a few clocks */
			int k;

			for (k = 0; k < RUN_CLOCKS / SLEEP_CHUNK; k++) {
				nic_env_step(s->env, SLEEP_CHUNK);
				if (can_rest(s))
					break;
			}
		} else {
			nic_env_step(s->env, RUN_CLOCKS);
		}
		forward_tx(s);
		check_stall(s);
	}
	publish_clocks(s);
	s->busy_ns += (uint64_t)(now_ns() - t0);
}

/* ---- statistics ---- */

static void print_stats(struct incsim *s, int64_t wall_ns)
{
	const struct link_stats *l = &s->link.st;
	static const struct nic_env_errors none;
	const struct nic_env_errors *er = s->bn ? &none : nic_env_errors(s->env);
	struct rusage ru;
	double cpu, busy = (double)s->busy_ns * 1e-9;
	uint64_t clocks = dev_clock(s);
	int n;

	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	      (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
	msg(s, "stats: wall %.2f s, cpu %.2f s, running the NIC %.2f s",
	    wall_ns * 1e-9, cpu, busy);
	if (s->bn)
		msg(s, "stats: clocks %" PRIu64 " (behavioral model: the wall clock at %d MHz)",
		    clocks, INCSIM_CLK_MHZ);
	else
		msg(s, "stats: clocks %" PRIu64 " (%.0f per second of running), %" PRIu64
		    " of them skipped asleep (--sleep-scale %g, %" PRIu64 " sleeps)",
		    clocks, busy > 0 ? (clocks - s->skipped) / busy : 0.0, s->skipped,
		    s->sleep_scale, s->sleeps);
	msg(s, "stats: timer wakeups of the sleeping core %" PRIu64
	    ", %.0f clocks simulated each",
	    s->timer_wakes, s->timer_wakes ?
	    (double)s->wake_clocks / (double)s->timer_wakes : 0.0);
	msg(s, "stats: commands %" PRIu64 " writes, %" PRIu64 " reads, %"
	    PRIu64 " bad, %" PRIu64 " lost; doorbells %" PRIu64
	    "; wakeups %" PRIu64,
	    s->cmd_writes, s->cmd_reads, s->cmd_bad, s->cmd_lost,
	    s->doorbells, s->wakeups);
	msg(s, "stats: interrupts tx %" PRIu64 ", rx %" PRIu64 ", management %" PRIu64
	    ", not delivered %" PRIu64 ", blocked (bus mastering off) %" PRIu64,
	    s->irqs[0], s->irqs[1], s->irqs[2], s->irqs_unsent, s->irqs_blocked);
	msg(s, "stats: resets %" PRIu64 "; bus mastering %s, changed %" PRIu64
	    " times; dma_blocked %" PRIu64 "; unsafe_reprogram %" PRIu64
	    "; DMA bridge %s",
	    s->resets, s->master ? "on" : "off", s->master_changes,
	    s->env_dma_blocked + (s->bn ? bnic_counts(s->bn)->dma_blocked :
				  nic_env_counts(s->env)->dma_blocked),
	    s->unsafe_reprogram,
	    dev_dma_stalled(s) ? "stalled (--stall-after)" : "working");
	if (s->have_link)
		msg(s, "stats: link tx %" PRIu64 " frames %" PRIu64
		    " bytes, rx %" PRIu64 " frames %" PRIu64
		    " bytes; dropped %" PRIu64 " (no peer) %" PRIu64
		    " (peer slow); malformed %" PRIu64 "; connects %" PRIu64
		    ", disconnects %" PRIu64,
		    l->tx_frames, l->tx_bytes, l->rx_frames, l->rx_bytes,
		    l->tx_dropped_down, l->tx_dropped_full, l->malformed,
		    l->connects, l->disconnects);
	for (n = 0; n < INC_ST_N; n++)
		msg(s, "stats: nic %-22s %" PRIu64, nic_stat_name(n),
		    dev_stat(s, n));
	msg(s, "stats: interface errors %" PRIu64 " (dma_range %" PRIu64
	    ", csr_resp %" PRIu64 ", csr_timeout %" PRIu64 ")",
	    s->env_errors + (s->bn ? bnic_counts(s->bn)->dma_range :
			     nic_env_error_total(s->env)),
	    s->env_dma_range + (s->bn ? bnic_counts(s->bn)->dma_range : er->dma_range),
	    s->env_csr_resp + er->csr_resp, s->env_csr_timeout + er->csr_timeout);
	if (s->bn) {
		const struct bnic_counts *bc = bnic_counts(s->bn);

		msg(s, "stats: behavioral model: DMA reads %" PRIu64 " (%" PRIu64
		    " bytes), writes %" PRIu64 " (%" PRIu64 " bytes); core instructions %"
		    PRIu64 "; test port runs %" PRIu64,
		    bc->dma_rd, bc->dma_rd_bytes, bc->dma_wr, bc->dma_wr_bytes,
		    bc->core_instret, bc->tp_runs);
	}
}

/* ---- main loop ---- */

enum { STOP_NONE, STOP_QEMU, STOP_SIGNAL, STOP_FATAL };

static int handle_qemu(struct incsim *s)
{
	char buf[64];
	ssize_t n = read(s->ivs.conn_fd, buf, sizeof(buf));

	if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
		return STOP_NONE;	/* QEMU says nothing after the handshake */
	msg(s, "QEMU disconnected");
	return STOP_QEMU;
}

static int loop(struct incsim *s)
{
	struct pollfd p[8 + 64];
	int64_t t;
	int stop = STOP_NONE;

	while (stop == STOP_NONE) {
		int idle = can_rest(s);
		int busy = (!idle && !held(s)) || ring_pending(s) ||
			   (!s->bn && nic_env_rx_pending(s->env));
		/* held back: look again soon, not at once (stalled or
		 * wedged, the NIC has little left to do: later; RUN_CLOCKS
		 * clocks every 25 ms, about 2% of a core for the 16-lane
		 * model at some 17 us a clock) */
		int timeout = busy ? 0 : s->bn ? beh_timeout(s) :
			      idle ? (s->sleep_scale ? sleep_timeout(s) : -1) :
			      dev_dma_stalled(s) || s->wedged ? 25 : 1;
		int np = 0, i_sig, i_lis, i_conn = -1;
		int i_db, i_link, r;
		unsigned int v;
		char err[160];

		t = now_ns();
		i_sig = np;
		p[np++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
		i_lis = np;
		p[np++] = (struct pollfd){ .fd = s->ivs.listen_fd, .events = POLLIN };
		if (s->ivs.conn_fd >= 0) {
			i_conn = np;
			p[np++] = (struct pollfd){ .fd = s->ivs.conn_fd, .events = POLLIN };
		}
		i_db = np;
		for (v = 0; v < s->ivs.vectors; v++)
			p[np++] = (struct pollfd){ .fd = s->ivs.doorbell[v], .events = POLLIN };
		i_link = np;
		if (s->have_link)
			np += link_pollfds(&s->link, link_more(s), p + np,
					   t / 1000000, &timeout);
		/* asleep: the clocks of the wait are skipped after it */
		if (!busy && idle && s->sleep_scale && !s->bn)
			sleep_begin(s);
		r = poll(p, (nfds_t)np, timeout);
		sleep_catch_up(s);
		if (r < 0 && errno != EINTR) {
			msg(s, "poll: %s", strerror(errno));
			return STOP_FATAL;
		}
		if (timeout)
			s->wakeups++;
		(void)i_link;
		if (r > 0 && p[i_sig].revents)
			return STOP_SIGNAL;
		if (r > 0 && p[i_lis].revents) {
			int a = ivs_accept(&s->ivs, err, sizeof(err));

			if (a < 0) {
				msg(s, "%s", err);
				return STOP_FATAL;
			}
			if (a > 0)
				msg(s, "QEMU connected");
			else if (err[0])
				msg(s, "%s", err);
		}
		if (r > 0 && i_conn >= 0 && p[i_conn].revents)
			stop = handle_qemu(s);
		if (r > 0)
			for (v = 0; v < s->ivs.vectors; v++)
				if (p[i_db + (int)v].revents) {
					s->doorbells += ivs_drain_doorbells(&s->ivs);
					break;
				}
		if (s->have_link) {
			link_service(&s->link, now_ns() / 1000000, link_rx,
				     link_more, s);
			if (s->bn)
				bnic_set_link(s->bn, link_up(&s->link));
			else
				nic_env_set_link(s->env, link_up(&s->link));
		}
		run_nic(s);
		if (s->have_link) {
			link_flush(&s->link);
			update_hold(s);
		}
	}
	return stop;
}

int main(int argc, char **argv)
{
	struct incsim s = { .name = "incsim", .sigfd = -1 };
	struct nic_env_cfg cfg;
	struct opts o;
	sigset_t set;
	char err[160];
	int64_t t0 = now_ns();
	int stop, rc = 1;

	if (parse_opts(argc, argv, &o) < 0)
		return 2;
	s.name = o.name;
	s.trace = o.trace;
	s.master = 1;
	memcpy(s.stall_after, o.stall_after, sizeof(s.stall_after));
	s.stall_n = o.stall_n;
	s.check_dma = o.check_dma;
	s.wedge_after = o.wedge_after;
	s.sleep_scale = o.sleep_scale;
	s.ivs.listen_fd = s.ivs.conn_fd = s.ivs.shm_fd = -1;
	s.link.listen_fd = s.link.fd = -1;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	s.sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s.sigfd < 0) {
		msg(&s, "signalfd: %s", strerror(errno));
		return 1;
	}
	if (map_ram(&s, &o) < 0)
		return 1;

	s.t0 = now_ns();
	if (o.behavioral) {
		struct bnic_cfg bc = {
			.mem = s.ram, .mem_base = 0, .mem_size = s.ram_size,
			.lanes = o.lanes ? o.lanes : 16, .width = o.lanes != 8,
			.link_speed = (uint32_t)(o.gbps * 1000 + 0.5),
			.engine_fault = o.engine_fault, .irq = beh_irq, .tx = beh_tx,
			.log = beh_log, .ctx = &s, .trace = o.trace,
		};

		s.bn = bnic_new(&bc);
		if (!s.bn) {
			msg(&s, "out of memory");
			goto out;
		}
		if (o.random)
			msg(&s, "--random: the behavioral model has no interface timing to shake; ignored");
		if (o.dma_latency_ns > 0)
			msg(&s, "--dma-latency: the behavioral model has no DMA timing; ignored");
		goto made;
	}
	nic_env_cfg_default(&cfg, o.seed);
	if (!o.random)
		nic_env_cfg_nobp(&cfg);
	cfg.mem_base = 0;
	cfg.mem_size = s.ram_size;
	cfg.mem_ext = s.ram;
	cfg.link_up = 0;
	cfg.wire_bytes_per_clk = o.gbps * 1e9 / 8 / (INCSIM_CLK_MHZ * 1e6);
	/* what the board's MAC would report: the wire rate (0: no limit, unknown) */
	cfg.link_speed = (uint32_t)(o.gbps * 1000 + 0.5);
	cfg.log = env_log;
	cfg.log_ctx = &s;
	cfg.trace = o.trace;
	cfg.engine_fault = o.engine_fault;
	/* a read's round trip, in the NIC's clocks */
	cfg.rd_lat_min = (unsigned int)(o.dma_latency_ns * INCSIM_CLK_MHZ / 1000 + 0.5);
	s.env = nic_env_new(&cfg);
	if (!s.env) {
		msg(&s, "out of memory");
		goto out;
	}
	nic_env_on_irq(s.env, on_irq, &s);
made:
	if (!o.have_mac)
		default_mac(o.ivshmem, o.mac);
	memcpy(s.mac, o.mac, sizeof(s.mac));
	write_mac(&s);
	if (o.stall_n)
		dev_stall_after(&s, o.stall_after[0]);
	if (o.engine_fault)
		msg(&s, "fault: a faulty %s%s%s (--fault: dbg_engine_fault 0x%x, bit 0 of every output beat flipped)",
		    o.engine_fault & NIC_FAULT_TX ? "compressor" : "",
		    o.engine_fault == (NIC_FAULT_TX | NIC_FAULT_RX) ? " and " : "",
		    o.engine_fault & NIC_FAULT_RX ? "decompressors" : "", o.engine_fault);

	if (ivs_open(&s.ivs, o.ivshmem, o.vectors, INCSIM_BAR2_SIZE, err,
		     sizeof(err)) < 0) {
		msg(&s, "%s", err);
		goto out;
	}
	bar2_init(&s);
	if (o.record) {
		s.record = record_open(o.record);
		if (!s.record) {
			msg(&s, "--record-compressed %s: %s", o.record, strerror(errno));
			goto out;
		}
	}
	if (o.link_path) {
		if (link_open(&s.link, o.link_path, o.link_connect, link_msg,
			      &s, err, sizeof(err)) < 0) {
			msg(&s, "%s", err);
			goto out;
		}
		s.have_link = 1;
	}
	msg(&s, "ready: %s model, ivshmem %s, RAM %s (%zu MiB)%s%s",
	    s.bn ? "behavioral" : "RTL", o.ivshmem, o.ram,
	    s.ram_size >> 20, o.link_path ? (o.link_connect ?
	    ", link to " : ", link on ") : "", o.link_path ? o.link_path : "");

	stop = loop(&s);
	if (stop == STOP_SIGNAL)
		msg(&s, "stopped by a signal");
	rc = stop == STOP_FATAL;
	atomic_store(bar2_u32(&s, INCSIM_OFF_STATE), 0);
	if (o.stats)
		print_stats(&s, now_ns() - t0);
	if (s.unsafe_reprogram && s.check_dma) {
		msg(&s, "DMA safety: %" PRIu64 " queue BASE/SIZE writes while the NIC had DMA in flight (--check-dma): exit status 3",
		    s.unsafe_reprogram);
		if (!rc)
			rc = 3;
	}
out:
	if (s.have_link)
		link_close(&s.link);
	if (s.ivs.bar2 || s.ivs.listen_fd >= 0)
		ivs_close(&s.ivs);
	nic_env_free(s.env);
	bnic_free(s.bn);
	if (s.record) {
		msg(&s, "--record-compressed: %" PRIu64 " frames in %s", s.recorded, o.record);
		fclose(s.record);
	}
	if (s.ram)
		munmap(s.ram, s.ram_size);
	close(s.sigfd);
	return rc;
}
