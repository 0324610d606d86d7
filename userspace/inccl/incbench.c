// SPDX-License-Identifier: MIT
/*
 * incbench: the nccl-tests of inceptionn. Runs one collective over a range
 * of sizes and prints, per size: time, algbw and busbw (nccl-tests'
 * definitions), bytes on the wire per rank, the compression ratio, the
 * codec's CPU time, the largest error against the exact (fp64) result,
 * the documented bound, and a check: the result must equal the reference
 * model bit for bit (userspace/inccl/model.c), stay within the bound, and
 * be the same on every rank. Exits 1 when a check fails.
 *
 * One process per rank (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT or
 * INCCL_HOSTS in the environment), or --local N to fork N ranks on
 * loopback. docs/inccl.md describes the options and the columns.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inccl.h"
#include "inccodec.h"
#include "model.h"

static const char usage[] =
"usage: incbench allreduce|reducescatter|allgather|broadcast [OPTION]...\n"
"  -b SIZE, -e SIZE   smallest and largest size in bytes (K, M, G: powers of\n"
"                     1024; default 8K and 64M); the size is the whole buffer,\n"
"                     as in nccl-tests (reduce-scatter: the input, all-gather:\n"
"                     the output)\n"
"  -f FACTOR          size step, a factor (default 2)\n"
"  -n ITERS, -w WARM  timed and warm-up iterations per size (default 20, 5)\n"
"  --algo ring|wa, --transport nic|sw|none, -k K, --mode paper|sparse|width,\n"
"  --slice BYTES, --timeout SECONDS\n"
"                     the communicator (default: the INCCL_* environment,\n"
"                     then ring, sw, 10, and the transport's mode: width\n"
"                     with sw and none, sparse with nic)\n"
"  --avg, --exact     collective flags INCCL_AVG, INCCL_EXACT\n"
"  --root R           broadcast root (default 0)\n"
"  --data FILE        each rank's input is this raw float32 file (repeated to\n"
"                     the size) times (rank + 1) / WORLD; default: generated\n"
"                     gradient-like values (--seed S)\n"
"  --no-check         do not compute the model (time only)\n"
"  --digest           print a CRC-32C of every result (compare runs with it)\n"
"  --csv FILE         also write one line per size to FILE (rank 0)\n"
"  --local N          fork N ranks on 127.0.0.1 (else one process per rank:\n"
"                     RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT)\n";

struct opts {
	int coll;
	size_t b, e;
	double f;
	int iters, warm;
	struct inccl_config cfg;
	unsigned int flags;
	int root;
	const char *data;
	uint64_t seed;
	int check, digest, local;
	int corrupt;		/* testing the checker: flip a bit of rank 1's result */
	const char *csv;
};

/* what each rank measures for one size; gathered exactly */
struct meas {
	double t_us;		/* mean time per iteration */
	double wire;		/* bytes written per iteration */
	double floatb;		/* float bytes sent per iteration */
	double codec_us;	/* codec CPU per iteration */
	double maxerr, maxbound, worst;	/* worst = max err / bound */
	uint64_t bad, over;	/* values unlike the model, beyond the bound */
	uint32_t crc;
	uint32_t pad;
};

#define MEAS_FLOATS	(sizeof(struct meas) / sizeof(float))

static int parse_size(const char *s, size_t *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'K': case 'k': v *= 1024; end++; break;
	case 'M': case 'm': v *= 1024 * 1024; end++; break;
	case 'G': case 'g': v *= 1024.0 * 1024 * 1024; end++; break;
	}
	if (*end == 'B')
		end++;
	if (*end || v > 16e9)
		return -1;
	*out = (size_t)v;
	return 0;
}

static const char *coll_name(int coll)
{
	switch (coll) {
	case INCCL_COLL_ALLREDUCE: return "allreduce";
	case INCCL_COLL_REDUCESCATTER: return "reducescatter";
	case INCCL_COLL_ALLGATHER: return "allgather";
	case INCCL_COLL_BROADCAST: return "broadcast";
	}
	return "?";
}

static float *load_data(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	float *v;

	if (!f || fstat(fileno(f), &st)) {
		fprintf(stderr, "incbench: --data %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	if (st.st_size < 4 || st.st_size % 4) {
		fprintf(stderr, "incbench: --data %s: %lld bytes is not a whole number of float32 values\n",
			path, (long long)st.st_size);
		fclose(f);
		return NULL;
	}
	*n = (size_t)st.st_size / 4;
	v = malloc((size_t)st.st_size);
	if (!v || fread(v, 4, *n, f) != *n) {
		fprintf(stderr, "incbench: --data %s: cannot read it\n", path);
		free(v);
		v = NULL;
	}
	fclose(f);
	return v;
}

static void fill(const struct opts *o, const float *data, size_t dn, int rank,
		 int world, float *x, size_t n, uint64_t seed)
{
	size_t i;

	if (data) {
		float s = (float)(rank + 1) / (float)world;

		for (i = 0; i < n; i++)
			x[i] = data[i % dn] * s;
	} else {
		for (i = 0; i < n; i++)
			x[i] = im_gen(seed, rank, i);
	}
	(void)o;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int do_coll(inccl_comm *c, const struct opts *o, const float *in,
		   float *out, size_t cnt)
{
	switch (o->coll) {
	case INCCL_COLL_ALLREDUCE:
		return inccl_allreduce(c, in, out, cnt, o->flags, NULL);
	case INCCL_COLL_REDUCESCATTER:
		return inccl_reducescatter(c, in, out, cnt, o->flags, NULL);
	case INCCL_COLL_ALLGATHER:
		return inccl_allgather(c, in, out, cnt, o->flags, NULL);
	default:
		return inccl_broadcast(c, in, out, cnt, o->root, o->flags);
	}
}

/* the checks of one result: model, bound, CRC */
static void verify(inccl_comm *c, const struct opts *o, const float *data,
		   size_t dn, const float *res, size_t cnt, uint64_t seed,
		   struct meas *m)
{
	int N = inccl_comm_world(c), me = inccl_comm_rank(c), r;
	int rs = o->coll == INCCL_COLL_REDUCESCATTER;
	size_t insz = rs ? cnt * (size_t)N : cnt;
	size_t outsz = rs || o->coll == INCCL_COLL_ALLGATHER ? cnt * (size_t)N : cnt;
	size_t mysz = rs ? cnt : outsz, i;
	float **in = calloc((size_t)N, sizeof(float *));
	float *model = malloc((outsz + 1) * sizeof(float));
	struct inccl_config cfg;
	struct im_params mp;

	inccl_comm_config(c, &cfg);
	mp = (struct im_params){ .world = N, .algo = cfg.algo,
				 .transport = cfg.transport, .k = cfg.k,
				 .flags = o->flags, .root = o->root };
	for (r = 0; r < N; r++) {
		in[r] = malloc((insz + 1) * sizeof(float));
		fill(o, data, dn, r, N, in[r], insz, seed);
	}
	im_run(&mp, o->coll, (const float *const *)in, NULL, model, cnt);
	for (i = 0; i < mysz; i++) {
		size_t gi = rs ? (size_t)me * cnt + i : i;
		double S = 0, A = 0, err, b;
		uint32_t x, y;

		memcpy(&x, &res[i], 4);
		memcpy(&y, &model[gi], 4);
		m->bad += x != y;
		if (o->coll == INCCL_COLL_ALLREDUCE || rs) {
			for (r = 0; r < N; r++) {
				S += in[r][gi];
				A += fabs(in[r][gi]);
			}
			if (o->flags & INCCL_AVG)
				S /= N;
		} else if (o->coll == INCCL_COLL_ALLGATHER) {
			S = in[i / cnt][i % cnt];
			A = fabs(S);
		} else {
			S = in[o->root][i];
			A = fabs(S);
		}
		err = fabs((double)res[i] - S);
		b = inccl_bound(c, o->coll, o->flags, A, fabs(res[i]));
		/* the fp64 sum itself can be off by a few ulps of A */
		if (!(err <= b + A * 0x1p-50))
			m->over++;
		if (err > m->maxerr)
			m->maxerr = err;
		if (b > m->maxbound)
			m->maxbound = b;
		if (b > 0 && err / b > m->worst)
			m->worst = err / b;
	}
	for (r = 0; r < N; r++)
		free(in[r]);
	free(in);
	free(model);
}

static int gather(inccl_comm *c, const struct meas *mine, struct meas *all)
{
	return inccl_allgather(c, (const float *)mine, (float *)all, MEAS_FLOATS,
			       INCCL_EXACT, NULL);
}

static int run(const struct opts *o)
{
	struct inccl_config cfg;
	inccl_comm *c;
	const float *data = NULL;
	float *own_data = NULL;
	size_t dn = 0, size;
	int r, N, me, failed = 0;
	FILE *csv = NULL;
	float *in = NULL, *out = NULL;

	if (o->data) {
		own_data = load_data(o->data, &dn);
		if (!own_data)
			return 2;
		data = own_data;
	}
	r = inccl_comm_init(&c, &o->cfg);
	if (r) {
		fprintf(stderr, "incbench: %s\n", inccl_errmsg());
		free(own_data);
		return 3;
	}
	N = inccl_comm_world(c);
	me = inccl_comm_rank(c);
	inccl_comm_config(c, &cfg);
	if (!me) {
		char tr[64];

		if (cfg.transport == INCCL_NONE)
			snprintf(tr, sizeof(tr), "none");
		else
			snprintf(tr, sizeof(tr), "%s (k %u, %s, bound 2^-%u)",
				 inccl_transport_name(cfg.transport), cfg.k,
				 inccl_mode_name(cfg.mode),
				 cfg.k);
		printf("# incbench %s: %d ranks, algorithm %s, transport %s%s%s\n",
		       coll_name(o->coll), N, inccl_algo_name(cfg.algo), tr,
		       o->flags & INCCL_AVG ? ", average" : "",
		       o->flags & INCCL_EXACT ? ", exact" : "");
		printf("# data: %s%s; %d iterations after %d warm-up; slice %u KiB; codec %s\n",
		       o->data ? o->data : "generated gradient-like values",
		       o->data ? " x (rank+1)/WORLD" : "", o->iters, o->warm,
		       cfg.slice_bytes >> 10, inc_impl_name());
		printf("# time: slowest rank's mean; wire: bytes each rank wrote to its sockets (mean);\n"
		       "# ratio: float bytes sent / wire bytes; codec: CPU time in the codec per rank;\n"
		       "# check: equal to the model bit for bit, within the bound, same on every rank\n#\n");
		printf("%12s %10s %10s %11s %11s %12s %7s %9s %9s %9s  %s%s\n",
		       "size(B)", "count", "time(us)", "algbw(GB/s)", "busbw(GB/s)",
		       "wire(B/rank)", "ratio", "codec(us)", "max err", "bound",
		       "check", o->digest ? "  digest" : "");
		fflush(stdout);
		if (o->csv) {
			csv = fopen(o->csv, "w");
			if (!csv)
				fprintf(stderr, "incbench: --csv %s: %s\n", o->csv,
					strerror(errno));
			else
				fprintf(csv, "coll,ranks,algo,transport,k,mode,size,count,time_us,algbw_gbs,busbw_gbs,wire_mean,wire_max,ratio,codec_us,max_err,bound,check\n");
		}
	}
	for (size = o->b; size <= o->e; size = (size_t)ceil((double)size * o->f)) {
		size_t cnt = size / 4, insz, outsz, i;
		struct meas m = { 0 }, *all = calloc((size_t)N, sizeof(*all));
		struct inccl_stats s0, s1;
		double t0, algbw, busbw, bw_f, wire = 0, wmax = 0, fb = 0, cu = 0;
		double tmax = 0, maxerr = 0, maxb = 0;
		uint64_t bad = 0, over = 0;
		int same = 1, it, ok;
		uint32_t crc = 0;

		if (o->coll == INCCL_COLL_REDUCESCATTER ||
		    o->coll == INCCL_COLL_ALLGATHER)
			cnt /= (size_t)N;
		insz = o->coll == INCCL_COLL_REDUCESCATTER ? cnt * (size_t)N : cnt;
		outsz = o->coll == INCCL_COLL_ALLGATHER ? cnt * (size_t)N : cnt;
		in = realloc(in, (insz + 1) * sizeof(float));
		out = realloc(out, (outsz + 1) * sizeof(float));
		if (!in || !out || !all) {
			fprintf(stderr, "incbench: out of memory at %zu bytes\n", size);
			failed = 1;
			break;
		}
		fill(o, data, dn, me, N, in, insz, o->seed * 1000003u + size);
		r = 0;
		for (it = 0; it < o->warm && !r; it++)
			r = do_coll(c, o, in, out, cnt);
		if (!r)
			r = inccl_barrier(c);
		inccl_get_stats(c, &s0);
		t0 = now();
		for (it = 0; it < o->iters && !r; it++)
			r = do_coll(c, o, in, out, cnt);
		m.t_us = (now() - t0) * 1e6 / o->iters;
		inccl_get_stats(c, &s1);
		if (r) {
			fprintf(stderr, "incbench: rank %d: %s\n", me, inccl_errmsg());
			failed = 1;
			free(all);
			break;
		}
		m.wire = (double)(s1.tx_bytes - s0.tx_bytes) / o->iters;
		m.floatb = (double)(s1.tx_float_bytes - s0.tx_float_bytes) / o->iters;
		m.codec_us = (double)(s1.codec_ns - s0.codec_ns) / 1e3 / o->iters;
		if (o->corrupt && me == 1 && cnt)
			out[cnt / 2] = nextafterf(out[cnt / 2], INFINITY);
		if (o->check)
			verify(c, o, data, dn, out, cnt, o->seed * 1000003u + size, &m);
		m.crc = inc_crc32c(0, out, (o->coll == INCCL_COLL_REDUCESCATTER ?
					    cnt : outsz) * sizeof(float));
		if (gather(c, &m, all)) {
			fprintf(stderr, "incbench: rank %d: %s\n", me, inccl_errmsg());
			failed = 1;
			free(all);
			break;
		}
		for (i = 0; i < (size_t)N; i++) {
			tmax = fmax(tmax, all[i].t_us);
			wire += all[i].wire / N;
			wmax = fmax(wmax, all[i].wire);
			fb += all[i].floatb;
			cu += all[i].codec_us / N;
			maxerr = fmax(maxerr, all[i].maxerr);
			maxb = fmax(maxb, all[i].maxbound);
			bad += all[i].bad;
			over += all[i].over;
			if (o->coll != INCCL_COLL_REDUCESCATTER &&
			    all[i].crc != all[0].crc)
				same = 0;
			crc = inc_crc32c(crc, &all[i].crc, 4);
		}
		if (o->coll != INCCL_COLL_REDUCESCATTER)
			crc = all[0].crc;
		ok = !bad && !over && same;
		failed |= !ok;
		algbw = (double)size / (tmax * 1e-6) / 1e9;
		bw_f = o->coll == INCCL_COLL_ALLREDUCE ? 2.0 * (N - 1) / N :
		       o->coll == INCCL_COLL_BROADCAST ? 1.0 : (double)(N - 1) / N;
		busbw = algbw * bw_f;
		if (!me) {
			char chk[96];

			if (!o->check)
				snprintf(chk, sizeof(chk), "%s", same ? "same" : "DIFFERS between ranks");
			else if (ok)
				snprintf(chk, sizeof(chk), "ok");
			else
				snprintf(chk, sizeof(chk), "FAIL:%s%s%s",
					 bad ? " unlike the model" : "",
					 over ? " beyond the bound" : "",
					 same ? "" : " differs between ranks");
			printf("%12zu %10zu %10.1f %11.4f %11.4f %12.0f %6.2fx %9.1f %9.3g %9.3g  %s",
			       size, cnt, tmax, algbw, busbw, wire,
			       wire * N > 0 ? fb / (wire * N) : 0.0, cu, maxerr, maxb, chk);
			if (o->digest)
				printf("  %08x", crc);
			printf("\n");
			fflush(stdout);
			if (csv)
				fprintf(csv, "%s,%d,%s,%s,%u,%s,%zu,%zu,%.1f,%.5f,%.5f,%.0f,%.0f,%.3f,%.1f,%.4g,%.4g,%s\n",
					coll_name(o->coll), N, inccl_algo_name(cfg.algo),
					inccl_transport_name(cfg.transport), cfg.k,
					inccl_mode_name(cfg.mode),
					size, cnt, tmax, algbw, busbw, wire, wmax,
					wire * N > 0 ? fb / (wire * N) : 0.0, cu, maxerr, maxb,
					ok || !o->check ? "ok" : "fail");
		}
		free(all);
		if (size == o->e || o->f <= 1)
			break;
		if ((size_t)ceil((double)size * o->f) > o->e && size < o->e)
			size = (size_t)ceil(o->e / o->f);	/* end exactly at -e */
	}
	if (csv)
		fclose(csv);
	free(in);
	free(out);
	free(own_data);
	inccl_comm_destroy(c);
	return failed ? 1 : 0;
}

/* --local N: fork the ranks, each with the torchrun-style environment */
static int run_local(const struct opts *o)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	pid_t pid[INCCL_WORLD_MAX];
	char port[16], world[16], rank[16];
	int fd, i, worst = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &l)) {
		perror("incbench: --local: a free port");
		return 3;
	}
	close(fd);
	snprintf(port, sizeof(port), "%u", ntohs(a.sin_port));
	snprintf(world, sizeof(world), "%d", o->local);
	setenv("MASTER_ADDR", "127.0.0.1", 1);
	setenv("MASTER_PORT", port, 1);
	unsetenv("INCCL_MASTER_PORT");
	unsetenv("INCCL_HOSTS");
	setenv("WORLD_SIZE", world, 1);
	fflush(stdout);
	for (i = 0; i < o->local; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("incbench: fork");
			return 3;
		}
		if (!pid[i]) {
			snprintf(rank, sizeof(rank), "%d", i);
			setenv("RANK", rank, 1);
			if (i)	/* rank 0 prints the table */
				if (!freopen("/dev/null", "w", stdout))
					_exit(3);
			_exit(run(o));
		}
	}
	for (i = 0; i < o->local; i++) {
		int st, rc;

		waitpid(pid[i], &st, 0);
		rc = WIFEXITED(st) ? WEXITSTATUS(st) : 4;
		if (!WIFEXITED(st))
			fprintf(stderr, "incbench: rank %d died (signal %d)\n", i,
				WTERMSIG(st));
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "algo", 1, 0, 'A' }, { "transport", 1, 0, 'T' },
		{ "mode", 1, 0, 'M' }, { "slice", 1, 0, 'S' },
		{ "timeout", 1, 0, 'O' }, { "avg", 0, 0, 'a' },
		{ "exact", 0, 0, 'x' }, { "root", 1, 0, 'R' },
		{ "data", 1, 0, 'D' }, { "seed", 1, 0, 's' },
		{ "no-check", 0, 0, 'N' }, { "digest", 0, 0, 'd' },
		{ "csv", 1, 0, 'C' }, { "local", 1, 0, 'L' },
		{ "help", 0, 0, 'h' }, { "corrupt", 0, 0, 'X' }, { 0, 0, 0, 0 },
	};
	struct opts o = { .b = 8192, .e = 64u << 20, .f = 2, .iters = 20,
			  .warm = 5, .seed = 1, .check = 1 };
	int opt;
	char *end;

	signal(SIGPIPE, SIG_IGN);
	inccl_config_init(&o.cfg);
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "allreduce"))
		o.coll = INCCL_COLL_ALLREDUCE;
	else if (!strcmp(argv[1], "reducescatter"))
		o.coll = INCCL_COLL_REDUCESCATTER;
	else if (!strcmp(argv[1], "allgather"))
		o.coll = INCCL_COLL_ALLGATHER;
	else if (!strcmp(argv[1], "broadcast"))
		o.coll = INCCL_COLL_BROADCAST;
	else {
		fprintf(stderr, "incbench: %s: allreduce, reducescatter, allgather or broadcast expected\n%s",
			argv[1], usage);
		return 2;
	}
	optind = 2;
	while ((opt = getopt_long(argc, argv, "b:e:f:n:w:k:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'b':
		case 'e':
			if (parse_size(optarg, opt == 'b' ? &o.b : &o.e))
				goto bad;
			break;
		case 'f':
			o.f = strtod(optarg, &end);
			if (*end || !(o.f >= 1 && o.f <= 1024))
				goto bad;
			break;
		case 'n':
		case 'w': {
			long v = strtol(optarg, &end, 10);

			if (*end || v < (opt == 'n') || v > 1000000)
				goto bad;
			*(opt == 'n' ? &o.iters : &o.warm) = (int)v;
			break;
		}
		case 'k': {
			long v = strtol(optarg, &end, 10);

			if (*end || v < 1 || v > 24)
				goto bad;
			o.cfg.k = (unsigned int)v;
			break;
		}
		case 'A':
			if (!strcmp(optarg, "ring"))
				o.cfg.algo = INCCL_RING;
			else if (!strcmp(optarg, "wa"))
				o.cfg.algo = INCCL_WA;
			else
				goto bad;
			break;
		case 'T':
			if (!strcmp(optarg, "nic"))
				o.cfg.transport = INCCL_NIC;
			else if (!strcmp(optarg, "sw"))
				o.cfg.transport = INCCL_SW;
			else if (!strcmp(optarg, "none"))
				o.cfg.transport = INCCL_NONE;
			else
				goto bad;
			break;
		case 'M':
			if (!strcmp(optarg, "paper"))
				o.cfg.mode = INCCL_MODE_PAPER;
			else if (!strcmp(optarg, "sparse"))
				o.cfg.mode = INCCL_MODE_SPARSE;
			else if (!strcmp(optarg, "width"))
				o.cfg.mode = INCCL_MODE_WIDTH;
			else
				goto bad;
			break;
		case 'S': {
			size_t v;

			if (parse_size(optarg, &v) || v > (16u << 20))
				goto bad;
			o.cfg.slice_bytes = (unsigned int)v;	/* the library checks */
			break;
		}
		case 'O': {
			double v = strtod(optarg, &end);

			if (*end || !(v >= 0.01 && v <= 86400))
				goto bad;
			o.cfg.timeout_ms = (unsigned int)(v * 1000);
			break;
		}
		case 'a':
			o.flags |= INCCL_AVG;
			break;
		case 'x':
			o.flags |= INCCL_EXACT;
			break;
		case 'R': {
			long v = strtol(optarg, &end, 10);

			if (*end || v < 0 || v >= INCCL_WORLD_MAX)
				goto bad;
			o.root = (int)v;
			break;
		}
		case 'D':
			o.data = optarg;
			break;
		case 's':
			o.seed = strtoull(optarg, &end, 10);
			if (*end)
				goto bad;
			break;
		case 'N':
			o.check = 0;
			break;
		case 'd':
			o.digest = 1;
			break;
		case 'C':
			o.csv = optarg;
			break;
		case 'L': {
			long v = strtol(optarg, &end, 10);

			if (*end || v < INCCL_WORLD_MIN || v > INCCL_WORLD_MAX)
				goto bad;
			o.local = (int)v;
			break;
		}
		case 'X':
			o.corrupt = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			goto usage_err;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "incbench: unexpected argument %s\n", argv[optind]);
		goto usage_err;
	}
	if (o.b < 4 || o.e < o.b) {
		fprintf(stderr, "incbench: -b %zu -e %zu: sizes from 4 bytes, -b <= -e\n",
			o.b, o.e);
		return 2;
	}
	if ((o.flags & INCCL_AVG) && (o.coll == INCCL_COLL_ALLGATHER ||
				      o.coll == INCCL_COLL_BROADCAST)) {
		fprintf(stderr, "incbench: --avg applies to allreduce and reducescatter\n");
		return 2;
	}
	return o.local ? run_local(&o) : run(&o);
bad:
	fprintf(stderr, "incbench: bad value \"%s\" for %s\n", optarg, argv[optind - 1]);
usage_err:
	fputs(usage, stderr);
	return 2;
}
