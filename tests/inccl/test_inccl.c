// SPDX-License-Identifier: MIT
/*
 * inccl on loopback: N processes (fork) join a communicator and run every
 * collective; each rank checks its result bit for bit against the
 * reference model (userspace/inccl/model.c, docs/inccl.md) and every
 * element against the documented error bound around the fp64 sum. Then
 * error feedback, faults (a killed rank, a stalled rank, mismatched calls
 * and configurations), bad arguments and malformed data from a peer.
 *
 * usage: test_inccl [-t TRANSPORT] [-q]
 *   -t none|sw|nic   transports of the collective matrix (default: none,sw;
 *                    nic needs inceptionn.ko, tests/inccl/run-guest.sh)
 *   -q               a shorter matrix (the sanitizer build)
 */
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inceptionn/inceptionn.h"
#include "inccl.h"
#include "inccl_int.h"
#include "inccodec.h"
#include "model.h"
#include "testlib.h"

static int quick;

/*
 * The modes this process turned a gradient mark on with (bit m: mode m):
 * this setsockopt comes before libc's for every call in the binary,
 * libinccl.a's included, and passes each one to the kernel unchanged.
 */
static unsigned int mark_modes_seen;

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	if ((level == IPPROTO_IP || level == IPPROTO_IPV6) &&
	    name == INC_SO_GRADIENT && val &&
	    len == sizeof(struct inc_gradient)) {
		const struct inc_gradient *g = val;

		if (g->enable && g->mode < 32)
			mark_modes_seen |= 1u << g->mode;
	}
	return (int)syscall(SYS_setsockopt, fd, level, name, val, len);
}

/* ---- running N ranks ------------------------------------------------------ */

#define MAX_LINES	4096

struct job {
	int world;
	int status[INCCL_WORLD_MAX];	/* exit status, -SIG when killed */
	char *line[MAX_LINES];		/* "RANK TEXT" reports */
	int nlines;
};

typedef int (*rank_fn)(int rank, int world, void *arg, FILE *out);

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* N free TCP ports on 127.0.0.1 */
static void free_ports(int n, unsigned int *ports)
{
	int fds[INCCL_WORLD_MAX], i;

	for (i = 0; i < n; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET };
		socklen_t l = sizeof(a);

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		bind(fds[i], (struct sockaddr *)&a, sizeof(a));
		getsockname(fds[i], (struct sockaddr *)&a, &l);
		ports[i] = ntohs(a.sin_port);
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * Fork world children running fn; collect their report lines until all
 * exit; kill them after limit seconds. Children stopped by SIGSTOP are
 * killed once every other child has exited.
 */
static void run_job(struct job *j, int world, rank_fn fn, void *arg,
		    double limit)
{
	pid_t pid[INCCL_WORLD_MAX];
	int fd[2], i;
	double end = mono() + limit;
	char buf[65536];
	size_t have = 0;

	memset(j, 0, sizeof(*j));
	j->world = world;
	if (pipe(fd))
		abort();
	fflush(stdout);
	for (i = 0; i < world; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			FILE *out;
			int rc;

			close(fd[0]);
			out = fdopen(fd[1], "w");
			setvbuf(out, NULL, _IOLBF, 0);
			rc = fn(i, world, arg, out);
			fflush(out);
			_exit(rc);
		}
		j->status[i] = 999;	/* running */
	}
	close(fd[1]);
	for (;;) {
		struct pollfd p = { .fd = fd[0], .events = POLLIN };
		int running = 0, stopped = 0;

		for (i = 0; i < world; i++) {
			int st;
			pid_t r;

			if (j->status[i] != 999 && j->status[i] != 998)
				continue;
			r = waitpid(pid[i], &st, WNOHANG | WUNTRACED);
			if ((r == pid[i] && WIFSTOPPED(st)) ||
			    (!r && j->status[i] == 998)) {
				j->status[i] = 998;	/* stopped */
				stopped++;
				continue;
			}
			if (r == pid[i]) {
				j->status[i] = WIFEXITED(st) ? WEXITSTATUS(st) :
					       -WTERMSIG(st);
			} else {
				running++;
			}
		}
		if (!running && stopped) {
			/* only stopped ranks are left: end them */
			for (i = 0; i < world; i++)
				if (j->status[i] == 998)
					kill(pid[i], SIGKILL);
		}
		if (!running && !stopped)
			break;
		if (mono() > end) {
			for (i = 0; i < world; i++)
				if (j->status[i] >= 998)
					kill(pid[i], SIGKILL);
			t_diag("job killed after %.0f s", limit);
			end = mono() + 3600;
		}
		if (poll(&p, 1, 20) > 0) {
			ssize_t n = read(fd[0], buf + have, sizeof(buf) - 1 - have);
			char *s, *nl;

			if (n <= 0)
				continue;
			have += (size_t)n;
			buf[have] = 0;
			s = buf;
			while ((nl = strchr(s, '\n'))) {
				*nl = 0;
				if (j->nlines < MAX_LINES)
					j->line[j->nlines++] = strdup(s);
				s = nl + 1;
			}
			have = strlen(s);
			memmove(buf, s, have);
		}
	}
	/* what is still in the pipe */
	for (;;) {
		ssize_t n = read(fd[0], buf + have, sizeof(buf) - 1 - have);
		char *s, *nl;

		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = 0;
		s = buf;
		while ((nl = strchr(s, '\n'))) {
			*nl = 0;
			if (j->nlines < MAX_LINES)
				j->line[j->nlines++] = strdup(s);
			s = nl + 1;
		}
		have = strlen(s);
		memmove(buf, s, have);
	}
	close(fd[0]);
}

static void job_free(struct job *j)
{
	int i;

	for (i = 0; i < j->nlines; i++)
		free(j->line[i]);
}

/* the report of rank r whose text starts with key, or NULL */
static const char *job_find(const struct job *j, int r, const char *key)
{
	size_t kl = strlen(key);
	int i;

	for (i = 0; i < j->nlines; i++) {
		char *rest;
		long rk = strtol(j->line[i], &rest, 10);

		if (rk == r && *rest == ' ' && !strncmp(rest + 1, key, kl))
			return rest + 1;
	}
	return NULL;
}

static void job_diag_all(const struct job *j)
{
	int i;

	for (i = 0; i < j->nlines && i < 40; i++)
		t_diag("  %s", j->line[i]);
}

/* ---- configuration of a scenario -------------------------------------------- */

struct scen {
	int algo, transport;
	unsigned int k, mode, slice;
	unsigned int timeout_ms;
	int use_master;
	int v6;				/* ::1 instead of 127.0.0.1 */
	const char *ifname;
	unsigned int ports[INCCL_WORLD_MAX];
	unsigned int master_port;
	int only;			/* -1, or the case list to run */
};

static void scen_ports(struct scen *s, int world)
{
	free_ports(world + 1, s->ports);
	s->master_port = s->ports[world];
}

static int join(const struct scen *s, int rank, int world, inccl_comm **c,
		char *hosts, size_t hl)
{
	struct inccl_config cfg;
	int i;

	inccl_config_init(&cfg);
	cfg.rank = rank;
	cfg.world = world;
	cfg.algo = s->algo;
	cfg.transport = s->transport;
	cfg.k = s->k;
	cfg.mode = s->mode;
	cfg.slice_bytes = s->slice;
	cfg.timeout_ms = s->timeout_ms ? s->timeout_ms : 30000;
	cfg.ifname = s->ifname;
	if (s->use_master) {
		cfg.master_addr = s->v6 ? "::1" : "127.0.0.1";
		cfg.master_port = s->master_port;
	} else {
		size_t w = 0;

		for (i = 0; i < world; i++)
			w += (size_t)snprintf(hosts + w, hl - w, "%s%s:%u",
					      i ? "," : "",
					      s->v6 ? "[::1]" : "127.0.0.1",
					      s->ports[i]);
		cfg.hosts = hosts;
	}
	return inccl_comm_init(c, &cfg);
}

/* ---- data ------------------------------------------------------------- */

struct ccase {
	int coll;
	size_t count;
	unsigned int flags;
	int root;
	int inplace;
};

/* sizes that exercise empty segments, partial slices, FIFO reuse */
static int build_cases(struct ccase *cs, int world, unsigned int slice_floats,
		       int list)
{
	size_t ar[] = { 0, 1, (size_t)world - 1, (size_t)world + 1, 1000,
			(size_t)slice_floats * 3 * (size_t)world + 17, 100003 };
	size_t blk[] = { 0, 1, 3, (size_t)slice_floats + 1,
			 (size_t)slice_floats * 5 + 3 };
	int n = 0;
	size_t i;

	if (list == 1) {	/* the k sweep: a few all-reduces */
		cs[n++] = (struct ccase){ INCCL_COLL_ALLREDUCE, 5000, 0, 0, 0 };
		cs[n++] = (struct ccase){ INCCL_COLL_ALLREDUCE, 777, INCCL_AVG, 0, 1 };
		cs[n++] = (struct ccase){ INCCL_COLL_REDUCESCATTER, 1500, 0, 0, 0 };
		cs[n++] = (struct ccase){ INCCL_COLL_ALLGATHER, 900, 0, 0, 0 };
		return n;
	}
	for (i = 0; i < sizeof(ar) / sizeof(ar[0]); i++) {
		if (quick && i == 5)
			continue;
		cs[n++] = (struct ccase){ INCCL_COLL_ALLREDUCE, ar[i], 0, 0, 0 };
	}
	cs[n++] = (struct ccase){ INCCL_COLL_ALLREDUCE, 4099, INCCL_AVG, 0, 0 };
	cs[n++] = (struct ccase){ INCCL_COLL_ALLREDUCE, 5001, 0, 0, 1 };
	cs[n++] = (struct ccase){ INCCL_COLL_ALLREDUCE, 3000, INCCL_EXACT, 0, 0 };
	for (i = 0; i < sizeof(blk) / sizeof(blk[0]); i++) {
		if (quick && i == 4)
			continue;
		cs[n++] = (struct ccase){ INCCL_COLL_REDUCESCATTER, blk[i], 0, 0, 0 };
		cs[n++] = (struct ccase){ INCCL_COLL_ALLGATHER, blk[i], 0, 0, 0 };
	}
	cs[n++] = (struct ccase){ INCCL_COLL_REDUCESCATTER, 1001, INCCL_AVG, 0, 0 };
	cs[n++] = (struct ccase){ INCCL_COLL_ALLGATHER, 1001, 0, 0, 1 };
	cs[n++] = (struct ccase){ INCCL_COLL_ALLGATHER, 333, INCCL_EXACT, 0, 0 };
	cs[n++] = (struct ccase){ INCCL_COLL_BROADCAST, 7000, 0, 0, 0 };
	cs[n++] = (struct ccase){ INCCL_COLL_BROADCAST, 2049, 0, world - 1, 1 };
	cs[n++] = (struct ccase){ INCCL_COLL_BROADCAST, 100, INCCL_EXACT, 1, 0 };
	cs[n++] = (struct ccase){ INCCL_COLL_BARRIER, 0, 0, 0, 0 };
	return n;
}

static const char *cname(int coll)
{
	switch (coll) {
	case INCCL_COLL_ALLREDUCE: return "allreduce";
	case INCCL_COLL_REDUCESCATTER: return "reducescatter";
	case INCCL_COLL_ALLGATHER: return "allgather";
	case INCCL_COLL_BROADCAST: return "broadcast";
	case INCCL_COLL_BARRIER: return "barrier";
	}
	return "?";
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* run one case on this rank; 0 and "ok ..." or -1 and a reason in why */
static int run_case(inccl_comm *c, const struct scen *s, const struct ccase *k,
		    uint64_t seed, char *why, size_t wl)
{
	int N = inccl_comm_world(c), me = inccl_comm_rank(c), r, rc = 0;
	size_t cnt = k->count, insz, outsz, mysz, i, bad = 0, over = 0;
	float **in = calloc((size_t)N, sizeof(float *)), *res, *model, *send;
	struct im_params mp = { .world = N, .algo = s->algo,
				.transport = s->transport, .k = s->k,
				.flags = k->flags, .root = k->root };
	double maxerr = 0, worst = 0;
	size_t first_bad = (size_t)-1;

	if (k->coll == INCCL_COLL_BARRIER) {
		r = inccl_barrier(c);
		snprintf(why, wl, "%s", r ? inccl_errmsg() : "");
		free(in);
		return r ? -1 : 0;
	}
	insz = k->coll == INCCL_COLL_REDUCESCATTER ? cnt * (size_t)N : cnt;
	outsz = k->coll == INCCL_COLL_REDUCESCATTER ||
		k->coll == INCCL_COLL_ALLGATHER ? cnt * (size_t)N : cnt;
	mysz = k->coll == INCCL_COLL_REDUCESCATTER ? cnt : outsz;
	for (r = 0; r < N; r++) {
		in[r] = malloc((insz + 1) * sizeof(float));
		for (i = 0; i < insz; i++)
			in[r][i] = im_gen(seed, r, i);
	}
	res = malloc((outsz + 1) * sizeof(float));
	model = malloc((outsz + 1) * sizeof(float));
	for (i = 0; i < outsz; i++)
		res[i] = __builtin_nanf("0x5ead");
	send = in[me];
	if (k->inplace) {
		if (k->coll == INCCL_COLL_ALLGATHER) {
			memcpy(res + (size_t)me * cnt, in[me], cnt * sizeof(float));
			send = res + (size_t)me * cnt;
		} else {
			memcpy(res, in[me], cnt * sizeof(float));
			send = res;
		}
	}
	switch (k->coll) {
	case INCCL_COLL_ALLREDUCE:
		r = inccl_allreduce(c, send, res, cnt, k->flags, NULL);
		break;
	case INCCL_COLL_REDUCESCATTER:
		r = inccl_reducescatter(c, send, res, cnt, k->flags, NULL);
		break;
	case INCCL_COLL_ALLGATHER:
		r = inccl_allgather(c, send, res, cnt, k->flags, NULL);
		break;
	default:
		r = inccl_broadcast(c, me == k->root ? send : NULL, res, cnt,
				    k->root, k->flags);
		break;
	}
	if (r) {
		snprintf(why, wl, "returned %d: %s", r, inccl_errmsg());
		rc = -1;
		goto out;
	}
	im_run(&mp, k->coll, (const float *const *)in, NULL, model, cnt);
	for (i = 0; i < mysz; i++) {
		size_t gi = k->coll == INCCL_COLL_REDUCESCATTER ? (size_t)me * cnt + i : i;
		double S = 0, A = 0, err, b;

		if (fbits(res[i]) != fbits(model[gi])) {
			if (first_bad == (size_t)-1)
				first_bad = i;
			bad++;
		}
		switch (k->coll) {
		case INCCL_COLL_ALLREDUCE:
		case INCCL_COLL_REDUCESCATTER:
			for (r = 0; r < N; r++) {
				S += in[r][gi];
				A += fabs(in[r][gi]);
			}
			if (k->flags & INCCL_AVG) {
				S /= N;
			}
			break;
		case INCCL_COLL_ALLGATHER:
			S = in[i / (cnt ? cnt : 1)][i % (cnt ? cnt : 1)];
			A = fabs(S);
			break;
		default:
			S = in[k->root][i];
			A = fabs(S);
			break;
		}
		err = fabs((double)res[i] - S);
		b = inccl_bound(c, k->coll, k->flags, A, fabs(res[i]));
		/* the fp64 reference sum itself may be off by N ulps of A */
		if (!(err <= b + A * 0x1p-50))
			over++;
		if (err > maxerr)
			maxerr = err;
		if (b > 0 && err / b > worst)
			worst = err / b;
	}
	if (bad) {
		size_t gi = k->coll == INCCL_COLL_REDUCESCATTER ?
			    (size_t)me * cnt + first_bad : first_bad;

		snprintf(why, wl, "%zu of %zu values differ from the model; first [%zu] %.9g (0x%08x) vs %.9g (0x%08x)",
			 bad, mysz, first_bad, res[first_bad], fbits(res[first_bad]),
			 model[gi], fbits(model[gi]));
		rc = -1;
	} else if (over) {
		snprintf(why, wl, "%zu values beyond the bound (max error %.3g)",
			 over, maxerr);
		rc = -1;
	} else {
		snprintf(why, wl, "max error %.3g, %.0f%% of the bound", maxerr,
			 worst * 100);
	}
out:
	for (r = 0; r < N; r++)
		free(in[r]);
	free(in);
	free(res);
	free(model);
	return rc;
}

static int scen_rank(int rank, int world, void *arg, FILE *out)
{
	const struct scen *s = arg;
	struct ccase cs[64];
	char hosts[4096], why[300];
	inccl_comm *c;
	int n, i, fails = 0;

	alarm(300);
	if (join(s, rank, world, &c, hosts, sizeof(hosts))) {
		fprintf(out, "%d init FAIL %s\n", rank, inccl_errmsg());
		return 1;
	}
	fprintf(out, "%d init ok\n", rank);
	n = build_cases(cs, world, s->slice / 4, s->only);
	for (i = 0; i < n; i++) {
		int r = run_case(c, s, &cs[i], (uint64_t)i * 7919 + s->k, why,
				 sizeof(why));

		fprintf(out, "%d case%d %s %s\n", rank, i, r ? "FAIL" : "ok", why);
		fails += !!r;
		if (r && inccl_errmsg()[0] && strstr(why, "returned"))
			break;	/* the communicator is gone */
	}
	inccl_comm_destroy(c);
	return fails ? 1 : 0;
}

static void scenario(int world, struct scen *s, const char *label)
{
	struct ccase cs[64];
	struct job j;
	int n, i, r;
	char name[200];
	double t0;

	scen_ports(s, world);
	snprintf(name, sizeof(name), "N=%d %s %s k=%u %s slice %uK%s%s%s", world,
		 inccl_algo_name(s->algo), inccl_transport_name(s->transport),
		 s->k, inccl_mode_name(s->mode),
		 s->slice >> 10, s->use_master ? " (MASTER_ADDR" : " (INCCL_HOSTS",
		 s->v6 ? ", IPv6)" : s->ifname ? ", interface lo)" : ")", label);
	t0 = mono();
	run_job(&j, world, scen_rank, s, 600);
	t_diag("%s: %.2f s", name, mono() - t0);
	for (r = 0; r < world; r++)
		if (!job_find(&j, r, "init ok")) {
			t_ok(0, "%s: every rank joins", name);
			job_diag_all(&j);
			job_free(&j);
			return;
		}
	n = build_cases(cs, world, s->slice / 4, s->only);
	for (i = 0; i < n; i++) {
		char key[24];
		int ok = 1;
		const char *detail = "";

		snprintf(key, sizeof(key), "case%d ", i);
		for (r = 0; r < world; r++) {
			const char *l = job_find(&j, r, key);

			if (!l || strncmp(l + strlen(key), "ok", 2)) {
				ok = 0;
				detail = l ? l : "no report";
				t_diag("rank %d: %s", r, detail);
			} else if (!r) {
				detail = l + strlen(key) + 3;
			}
		}
		t_ok(ok, "%s: %s%s count %zu%s%s%s: %s", name, cname(cs[i].coll),
		     cs[i].coll == INCCL_COLL_BROADCAST ? " root" : "",
		     cs[i].count, cs[i].flags & INCCL_AVG ? " avg" : "",
		     cs[i].flags & INCCL_EXACT ? " exact" : "",
		     cs[i].inplace ? " in place" : "", ok ? detail : "FAILED");
	}
	for (r = 0; r < world; r++)
		if (j.status[r]) {
			t_ok(0, "%s: rank %d exits 0 (status %d)", name, r, j.status[r]);
			break;
		}
	job_free(&j);
}

/* ---- error feedback ---------------------------------------------------- */

struct ef_arg {
	struct scen s;
	int calls;
};

/* inputs below the bound: without EF they vanish every call */
static float ef_input(int rank, size_t i, unsigned int k)
{
	return ldexpf(0.3f + 0.013f * (float)(i % 17) + 0.05f * (float)rank, -(int)k) *
	       (i % 3 == 1 ? -1.0f : 1.0f);
}

static int ef_rank(int rank, int world, void *arg, FILE *out)
{
	struct ef_arg *a = arg;
	const size_t n = 1000;
	char hosts[4096];
	inccl_comm *c;
	inccl_ef *ef;
	float *x = malloc(n * sizeof(float)), *res = malloc(n * sizeof(float));
	float *mout = malloc(n * sizeof(float)), *mef[INCCL_WORLD_MAX];
	const float *mine[INCCL_WORLD_MAX];
	float *ins[INCCL_WORLD_MAX];
	double *acc_ef = calloc(n, sizeof(double)), *acc_no = calloc(n, sizeof(double));
	double *acc_ex = calloc(n, sizeof(double)), e_ef = 0, e_no = 0;
	struct im_params mp = { .world = world, .algo = a->s.algo,
				.transport = a->s.transport, .k = a->s.k };
	size_t i, rl;
	int t, r, model_bad = 0, res_bad = 0;

	alarm(300);
	if (join(&a->s, rank, world, &c, hosts, sizeof(hosts)) ||
	    inccl_ef_create(&ef, n)) {
		fprintf(out, "%d ef FAIL init: %s\n", rank, inccl_errmsg());
		return 1;
	}
	for (r = 0; r < world; r++) {
		mef[r] = calloc(n, sizeof(float));
		ins[r] = malloc(n * sizeof(float));
		for (i = 0; i < n; i++)
			ins[r][i] = ef_input(r, i, a->s.k);
		mine[r] = ins[r];
	}
	for (i = 0; i < n; i++)
		x[i] = ins[rank][i];
	for (t = 0; t < a->calls; t++) {
		if (inccl_allreduce(c, x, res, n, 0, ef)) {
			fprintf(out, "%d ef FAIL call %d: %s\n", rank, t, inccl_errmsg());
			return 1;
		}
		im_run(&mp, INCCL_COLL_ALLREDUCE, mine, mef, mout, n);
		model_bad += memcmp(res, mout, n * sizeof(float)) != 0;
		res_bad += memcmp(inccl_ef_residual(ef, &rl), mef[rank],
				  n * sizeof(float)) != 0;
		for (i = 0; i < n; i++) {
			double s = 0;

			for (r = 0; r < world; r++)
				s += ins[r][i];
			acc_ef[i] += res[i];
			acc_ex[i] += s;
		}
		if (inccl_allreduce(c, x, res, n, 0, NULL)) {
			fprintf(out, "%d ef FAIL call %d: %s\n", rank, t, inccl_errmsg());
			return 1;
		}
		for (i = 0; i < n; i++)
			acc_no[i] += res[i];
	}
	for (i = 0; i < n; i++) {
		e_ef = fmax(e_ef, fabs(acc_ef[i] - acc_ex[i]));
		e_no = fmax(e_no, fabs(acc_no[i] - acc_ex[i]));
	}
	fprintf(out, "%d ef %s model %d residual %d err_ef %.6g err_no %.6g eb %.6g\n",
		rank, model_bad || res_bad ? "FAIL" : "ok", model_bad, res_bad,
		e_ef, e_no, ldexp(1, -(int)a->s.k));
	inccl_ef_destroy(ef);
	inccl_comm_destroy(c);
	return 0;
}

static void test_ef(int world, int algo)
{
	struct ef_arg a = { .s = { .algo = algo, .transport = INCCL_SW, .k = 6,
				   .mode = INCCL_MODE_SPARSE, .slice = 8192,
				   .only = -1 }, .calls = 40 };
	double eb = ldexp(1, -6);
	struct job j;
	int r, ok = 1;
	double e_ef = 0, e_no = 0;

	scen_ports(&a.s, world);
	run_job(&j, world, ef_rank, &a, 300);
	for (r = 0; r < world; r++) {
		const char *l = job_find(&j, r, "ef ");
		double x, y, z;
		int m, q;

		if (!l || sscanf(l, "ef ok model %d residual %d err_ef %lf err_no %lf eb %lf",
				 &m, &q, &x, &y, &z) != 5) {
			ok = 0;
			t_diag("rank %d: %s", r, l ? l : "no report");
			continue;
		}
		e_ef = fmax(e_ef, x);
		e_no = fmax(e_no, y);
	}
	t_ok(ok, "EF N=%d %s: results and every rank's residuals equal the model over %d calls",
	     world, inccl_algo_name(algo), a.calls);
	t_ok(ok && e_ef <= (world + 1) * eb,
	     "EF N=%d %s: accumulated error after %d calls %.4g <= (N+1) eb = %.4g",
	     world, inccl_algo_name(algo), a.calls, e_ef, (world + 1) * eb);
	t_ok(ok && e_no > 4 * e_ef,
	     "EF N=%d %s: without EF the accumulated error is %.4g (%.1fx)",
	     world, inccl_algo_name(algo), e_no, e_ef > 0 ? e_no / e_ef : 0);
	job_free(&j);
}

/* ---- faults ---------------------------------------------------------- */

enum fault { F_KILL, F_STOP, F_CALL_MISMATCH, F_CFG_MISMATCH, F_SLOW };

struct fault_arg {
	struct scen s;
	enum fault f;
	int victim;
};

static int fault_rank(int rank, int world, void *arg, FILE *out)
{
	struct fault_arg *a = arg;
	struct scen s = a->s;
	size_t n = 1 << 20, i;
	float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
	char hosts[4096];
	inccl_comm *c;
	double t0;
	int r, calls = 0;

	alarm(120);
	for (i = 0; i < n; i++)
		x[i] = im_gen(1, rank, i);
	if (a->f == F_CFG_MISMATCH && rank == a->victim)
		s.k = 8;
	t0 = mono();
	r = join(&s, rank, world, &c, hosts, sizeof(hosts));
	if (r) {
		fprintf(out, "%d result %d %.3f %s\n", rank, -r, mono(), inccl_errmsg());
		return 0;
	}
	if (rank == a->victim) {
		if (a->f == F_KILL) {
			struct itimerval it = { .it_value = { 0, 300000 } };

			fprintf(out, "%d death %.3f\n", rank, mono() + 0.3);
			setitimer(ITIMER_REAL, &it, NULL);	/* SIGALRM: dies */
		} else if (a->f == F_STOP) {
			fprintf(out, "%d death %.3f\n", rank, mono());
			raise(SIGSTOP);
		} else if (a->f == F_SLOW) {
			usleep(1500000);
		}
	}
	for (;;) {
		size_t cnt = a->f == F_CALL_MISMATCH && rank == a->victim ? n - 1 : n;

		r = inccl_allreduce(c, x, y, cnt, 0, NULL);
		if (r)
			break;
		calls++;
		if (a->f == F_SLOW || a->f == F_CFG_MISMATCH ||
		    (a->f == F_CALL_MISMATCH && calls > 3)) {
			r = 0;
			break;
		}
	}
	fprintf(out, "%d result %d %.3f %s\n", rank, -r, mono(),
		r ? inccl_errmsg() : "ok");
	(void)t0;
	inccl_comm_destroy(c);
	return 0;
}

static void test_fault(int world, int algo, enum fault f, int victim,
		       const char *what)
{
	struct fault_arg a = { .s = { .algo = algo, .transport = INCCL_SW, .k = 10,
				      .mode = INCCL_MODE_SPARSE, .slice = 65536,
				      .timeout_ms = 3000, .only = -1 },
			       .f = f, .victim = victim };
	struct job j;
	double death = 0, latest = 0;
	int r, all_err = 1, some = 0, mismatch = 0;
	char name[160];

	snprintf(name, sizeof(name), "fault N=%d %s: %s", world,
		 inccl_algo_name(algo), what);
	a.s.use_master = f == F_CFG_MISMATCH;
	scen_ports(&a.s, world);
	run_job(&j, world, fault_rank, &a, 120);
	if (f == F_KILL || f == F_STOP) {
		const char *l = job_find(&j, victim, "death ");

		death = l ? atof(l + 6) : 0;
	}
	for (r = 0; r < world; r++) {
		const char *l;
		int code;
		double t;
		char msg[300] = "";

		if ((f == F_KILL || f == F_STOP) && r == victim)
			continue;
		l = job_find(&j, r, "result ");
		if (!l || sscanf(l, "result %d %lf %299[^\n]", &code, &t, msg) < 2) {
			all_err = 0;
			t_diag("rank %d: no result (status %d)", r, j.status[r]);
			continue;
		}
		t_diag("rank %d: %s", r, l);
		if (f == F_SLOW)
			all_err &= code == 0;
		else
			all_err &= code != 0 && strlen(msg) > 10;
		some |= code != 0;
		mismatch |= code == INCCL_EMISMATCH;
		if (t > latest)
			latest = t;
		if (j.status[r] != 0)
			all_err = 0;
	}
	if (f == F_SLOW) {
		t_ok(all_err, "%s: a rank 1.5 s late is no error (timeout 3 s)", name);
	} else if (f == F_KILL || f == F_STOP) {
		t_ok(all_err && death > 0, "%s: every other rank gets an error with a message",
		     name);
		t_ok(all_err && death > 0 && latest - death < 3.0 + 2.5,
		     "%s: the last one %.2f s after it (timeout 3 s)", name,
		     latest - death);
	} else {
		t_ok(all_err && some, "%s: every rank gets an error with a message", name);
		t_ok(mismatch, "%s: at least one says INCCL_EMISMATCH", name);
	}
	job_free(&j);
}

/* ---- bad arguments ----------------------------------------------------- */

static int args_rank(int rank, int world, void *arg, FILE *out)
{
	struct scen *s = arg;
	char hosts[4096];
	inccl_comm *c;
	inccl_ef *ef;
	float x[64] = { 0 }, y[256];
	int r, ok = 1;

	alarm(60);
	if (join(s, rank, world, &c, hosts, sizeof(hosts))) {
		fprintf(out, "%d args FAIL join %s\n", rank, inccl_errmsg());
		return 1;
	}
	inccl_ef_create(&ef, 10);
#define EXPECT(call, code)						\
	do {								\
		r = (call);						\
		if (r != -(code)) {					\
			ok = 0;						\
			fprintf(out, "%d args FAIL %s gave %d\n", rank, #call, r); \
		} else if ((code) && !inccl_errmsg()[0]) {		\
			ok = 0;						\
			fprintf(out, "%d args FAIL %s: no message\n", rank, #call); \
		}							\
	} while (0)
	EXPECT(inccl_allreduce(c, NULL, y, 4, 0, NULL), INCCL_EINVAL);
	EXPECT(inccl_allreduce(c, x, y, 4, 1u << 7, NULL), INCCL_EINVAL);
	EXPECT(inccl_allreduce(c, x, x + 1, 4, 0, NULL), INCCL_EINVAL);
	EXPECT(inccl_allreduce(c, x, y, 4, 0, ef), INCCL_EINVAL);
	EXPECT(inccl_allgather(c, x, y, 4, INCCL_AVG, NULL), INCCL_EINVAL);
	EXPECT(inccl_allgather(c, y + 1, y, 4, 0, NULL), INCCL_EINVAL);
	EXPECT(inccl_reducescatter(c, x, NULL, 4, 0, NULL), INCCL_EINVAL);
	EXPECT(inccl_reducescatter(c, x, y, 4, 0, ef), INCCL_EINVAL);
	EXPECT(inccl_broadcast(c, x, y, 4, -1, 0), INCCL_EINVAL);
	EXPECT(inccl_broadcast(c, x, y, 4, world, 0), INCCL_EINVAL);
	EXPECT(inccl_broadcast(c, x, y, 4, 0, INCCL_AVG), INCCL_EINVAL);
	EXPECT(inccl_allreduce(NULL, x, y, 4, 0, NULL), INCCL_EINVAL);
	EXPECT(inccl_allreduce(c, x, y, (size_t)1 << 62, 0, NULL), INCCL_EINVAL);
	/* nothing was sent: the communicator still works */
	EXPECT(inccl_allreduce(c, x, y, 10, 0, ef), INCCL_OK);
	EXPECT(inccl_barrier(c), INCCL_OK);
	fprintf(out, "%d args %s\n", rank, ok ? "ok" : "FAIL");
	inccl_ef_destroy(ef);
	inccl_comm_destroy(c);
	return ok ? 0 : 1;
#undef EXPECT
}

static void test_config_errors(void)
{
	static const struct {
		const char *env[6];
		const char *expect;
	} cs[] = {
		{ { "WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=1" }, "RANK" },
		{ { "RANK=0", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=1" }, "WORLD_SIZE" },
		{ { "RANK=0", "WORLD_SIZE=1", "MASTER_ADDR=x", "MASTER_PORT=1" }, "WORLD_SIZE=1" },
		{ { "RANK=0", "WORLD_SIZE=65", "MASTER_ADDR=x", "MASTER_PORT=1" }, "WORLD_SIZE=65" },
		{ { "RANK=3", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1" }, "rank 3" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_PORT=1" }, "MASTER_ADDR" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x" }, "MASTER_PORT" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=70000" }, "MASTER_PORT=70000" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_K=25" }, "INCCL_K=25" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_K=0" }, "INCCL_K=0" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_TRANSPORT=fpga" }, "INCCL_TRANSPORT" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_ALGO=tree" }, "INCCL_ALGO" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_MODE=dense" }, "INCCL_MODE" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_SLICE=1000" }, "INCCL_SLICE" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=x", "MASTER_PORT=1", "INCCL_TIMEOUT=-1" }, "INCCL_TIMEOUT" },
		{ { "RANK=0", "INCCL_HOSTS=a:1,b" }, "entry 1" },
		{ { "RANK=0", "INCCL_HOSTS=a:1,:5" }, "entry 1" },
		{ { "RANK=0", "INCCL_HOSTS=a:1,b:0" }, "entry 1" },
		{ { "RANK=0", "WORLD_SIZE=3", "INCCL_HOSTS=a:1,b:2" }, "2 entries" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=no.such.host.invalid", "MASTER_PORT=1", "INCCL_TIMEOUT=1" }, "resolve" },
		{ { "RANK=1", "WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=1", "INCCL_TIMEOUT=0.5" }, "nobody listens" },
		{ { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=1", "INCCL_IFNAME=nosuch0" }, "no such interface" },
	};
	static const char *const vars[] = {
		"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "INCCL_MASTER_PORT",
		"INCCL_HOSTS", "INCCL_IFNAME", "INCCL_ALGO", "INCCL_TRANSPORT",
		"INCCL_K", "INCCL_MODE", "INCCL_TIMEOUT", "INCCL_SLICE",
	};
	size_t i, v;

	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		inccl_comm *c = (inccl_comm *)1;
		char desc[200] = "";
		int r;

		for (v = 0; v < sizeof(vars) / sizeof(vars[0]); v++)
			unsetenv(vars[v]);
		for (v = 0; v < 6 && cs[i].env[v]; v++) {
			char name[32];
			const char *eq = strchr(cs[i].env[v], '=');

			snprintf(name, sizeof(name), "%.*s", (int)(eq - cs[i].env[v]),
				 cs[i].env[v]);
			setenv(name, eq + 1, 1);
			strncat(desc, cs[i].env[v], sizeof(desc) - strlen(desc) - 2);
			strcat(desc, " ");
		}
		r = inccl_comm_init(&c, NULL);
		t_ok(r < 0 && !c && strstr(inccl_errmsg(), cs[i].expect),
		     "config %s-> %d \"%s\"", desc, r, inccl_errmsg());
	}
	for (v = 0; v < sizeof(vars) / sizeof(vars[0]); v++)
		unsetenv(vars[v]);
}

/* ---- width mode: the chunks on the wire are the codec's --------------- */

#define WIRE_COUNT	10000u	/* 4 chunks of 2048 floats and a short one */
#define WIRE_SEED	99

struct wire_arg {
	struct scen s;
	const char *env_mode;	/* rank 1 takes INCCL_MODE from here */
	int no_mode;		/* both ranks: mode unset, INCCL_MODE unset */
};

/*
 * Chunk by chunk, what the sw transport writes of x in mode m: the codec
 * library's body, or the stored floats when it would not shrink. Returns
 * the body bytes; with dec, also what the receiver decodes.
 */
static size_t wire_bodies(const float *x, size_t n, unsigned int k,
			  unsigned int m, float *dec)
{
	static uint8_t body[INCCL_CHUNK_FLOATS * 5 + 256];
	size_t i, total = 0;

	for (i = 0; i < n; i += INCCL_CHUNK_FLOATS) {
		size_t c = n - i < INCCL_CHUNK_FLOATS ? n - i : INCCL_CHUNK_FLOATS;
		size_t blen = 0;

		if (inc_chunk_encode(x + i, 4 * c, k, (enum inc_mode)m, body,
				     sizeof(body), &blen))
			return 0;
		if (blen >= 4 * c) {
			total += 4 * c;
			if (dec)
				inc_quantize(x + i, dec + i, c, k);
			continue;
		}
		total += blen;
		if (dec && inc_chunk_decode(body, blen, 4 * c, k,
					    (enum inc_mode)m, dec + i, 4 * c))
			return 0;
	}
	return total;
}

/*
 * Rank 0 broadcasts WIRE_COUNT floats to rank 1 (ring, sw). Each prints
 * the mode in effect and the bytes it wrote; rank 1 also how many values
 * differ from the codec library's decoding of rank 0's chunks.
 */
static int wire_rank(int rank, int world, void *arg, FILE *out)
{
	const struct wire_arg *a = arg;
	struct scen s = a->s;
	struct inccl_config cfg;
	struct inccl_stats st;
	static float x[WIRE_COUNT], y[WIRE_COUNT], dec[WIRE_COUNT];
	char hosts[4096];
	inccl_comm *c;
	size_t i, bad = 0;
	int r;

	alarm(60);
	if (a->env_mode && rank == 1) {
		setenv("INCCL_MODE", a->env_mode, 1);
		s.mode = 0;	/* unset: from the environment */
	}
	if (a->no_mode) {
		unsetenv("INCCL_MODE");
		s.mode = 0;	/* unset: the transport's default */
	}
	for (i = 0; i < WIRE_COUNT; i++)
		x[i] = im_gen(WIRE_SEED, 0, i);
	r = join(&s, rank, world, &c, hosts, sizeof(hosts));
	if (r) {
		fprintf(out, "%d wire join %d %s\n", rank, -r, inccl_errmsg());
		return 0;
	}
	inccl_comm_config(c, &cfg);
	inccl_reset_stats(c);
	r = inccl_broadcast(c, rank == 0 ? x : NULL, y, WIRE_COUNT, 0, 0);
	inccl_get_stats(c, &st);
	if (!r && rank == 1) {
		if (!wire_bodies(x, WIRE_COUNT, cfg.k, cfg.mode, dec))
			bad = WIRE_COUNT;
		for (i = 0; i < WIRE_COUNT && bad < WIRE_COUNT; i++)
			bad += fbits(y[i]) != fbits(dec[i]);
	}
	fprintf(out, "%d wire %s mode %u tx %llu bad %zu\n", rank,
		r ? "FAIL" : "ok", cfg.mode, (unsigned long long)st.tx_bytes,
		bad);
	inccl_comm_destroy(c);
	return 0;
}

/* one run of wire_rank: rank 0's bytes written, rank 1's line; 0 ok */
static int wire_job(struct wire_arg *a, unsigned long long *tx0,
		    char *l1, size_t l1len)
{
	struct job j;
	const char *l;
	unsigned int m;
	int ok;

	scen_ports(&a->s, 2);
	run_job(&j, 2, wire_rank, a, 60);
	l = job_find(&j, 0, "wire ok ");
	ok = l && sscanf(l, "wire ok mode %u tx %llu", &m, tx0) == 2;
	l = job_find(&j, 1, "wire ");
	snprintf(l1, l1len, "%s", l ? l : "no report");
	if (!ok || !l)
		job_diag_all(&j);
	job_free(&j);
	return ok && l ? 0 : -1;
}

static void test_width_wire(void)
{
	static float x[WIRE_COUNT];
	struct wire_arg a = { .s = { .algo = INCCL_RING, .transport = INCCL_SW,
				     .k = 10, .slice = 65536, .only = -1 } };
	unsigned long long tx_s = 0, tx_w = 0;
	size_t body_s, body_w, i;
	char l1[256];
	unsigned int m;
	size_t bad;
	struct job j;
	int r, fails = 0, named = 0;

	for (i = 0; i < WIRE_COUNT; i++)
		x[i] = im_gen(WIRE_SEED, 0, i);
	body_s = wire_bodies(x, WIRE_COUNT, 10, INCCL_MODE_SPARSE, NULL);
	body_w = wire_bodies(x, WIRE_COUNT, 10, INCCL_MODE_WIDTH, NULL);

	a.s.mode = INCCL_MODE_SPARSE;
	r = wire_job(&a, &tx_s, l1, sizeof(l1));
	t_ok(!r && sscanf(l1, "wire ok mode %u tx %*u bad %zu", &m, &bad) == 2 &&
	     m == INCCL_MODE_SPARSE && !bad,
	     "sparse broadcast, 2 ranks: rank 1 gets the codec's decoding (%s)", l1);
	/* rank 0 in width mode, rank 1 from INCCL_MODE=width */
	a.s.mode = INCCL_MODE_WIDTH;
	a.env_mode = "width";
	r = wire_job(&a, &tx_w, l1, sizeof(l1));
	t_ok(!r && sscanf(l1, "wire ok mode %u tx %*u bad %zu", &m, &bad) == 2 &&
	     m == INCCL_MODE_WIDTH && !bad,
	     "width broadcast, 2 ranks (rank 1 by INCCL_MODE=width): rank 1 gets the codec's decoding (%s)",
	     l1);
	/* the same framing; only the chunk bodies differ (on this data
	 * width's are a little larger: its gain is on real gradients), and
	 * they are the codec library's in each mode */
	t_ok(body_s && body_w && body_w != body_s && tx_s > body_s &&
	     tx_w > body_w && tx_w - body_w == tx_s - body_s,
	     "width broadcast: rank 0 wrote %llu bytes, sparse %llu: the codec's bodies in each mode (%zu and %zu bytes) and the same %llu bytes of headers",
	     tx_w, tx_s, body_w, body_s, tx_s - body_s);
	/* neither rank gives a mode, INCCL_MODE unset: transport sw's
	 * default is width, so rank 0 writes width chunks (width's bytes,
	 * not sparse's) and rank 1 decodes them as the codec does */
	{
		unsigned long long tx_d = 0;

		a.env_mode = NULL;
		a.no_mode = 1;
		r = wire_job(&a, &tx_d, l1, sizeof(l1));
		t_ok(!r && sscanf(l1, "wire ok mode %u tx %*u bad %zu", &m, &bad) == 2 &&
		     m == INCCL_MODE_WIDTH && !bad && tx_d == tx_w && tx_d != tx_s,
		     "sw broadcast, no mode given: width chunks by default (rank 0 wrote %llu bytes: width %llu, sparse %llu; %s)",
		     tx_d, tx_w, tx_s, l1);
		a.no_mode = 0;
		a.env_mode = "width";
	}

	/* a mode mismatch: rank 0 sparse, rank 1 width */
	a.s.mode = INCCL_MODE_SPARSE;
	scen_ports(&a.s, 2);
	run_job(&j, 2, wire_rank, &a, 60);
	for (r = 0; r < 2; r++) {
		const char *l = job_find(&j, r, "wire join ");

		fails += !l;
		named |= l && strstr(l, "mode") && strstr(l, "width") &&
			 strstr(l, "sparse");
		t_diag("rank %d: %s", r, l ? l : "no join error");
	}
	t_ok(!fails && named,
	     "sparse against width: every rank fails to join, a message names both modes");
	job_free(&j);
}

/* ---- the mode a transport takes when none is given -------------------- */

struct dmode_arg {
	struct scen s;
	const char *env_mode;	/* INCCL_MODE on every rank, NULL: unset */
};

/*
 * Mode unset in the configuration; each rank all-reduces 10000 floats
 * and reports the mode in effect, the modes its sockets were marked with
 * (setsockopt INC_SO_GRADIENT, above) and its marked bytes.
 */
static int dmode_rank(int rank, int world, void *arg, FILE *out)
{
	const struct dmode_arg *a = arg;
	struct scen s = a->s;
	struct inccl_config cfg;
	struct inccl_stats st;
	static float x[10000];
	char hosts[4096];
	inccl_comm *c;
	size_t i;
	int r;

	alarm(120);
	if (a->env_mode)
		setenv("INCCL_MODE", a->env_mode, 1);
	else
		unsetenv("INCCL_MODE");
	s.mode = 0;
	for (i = 0; i < 10000; i++)
		x[i] = im_gen(WIRE_SEED, rank, i);
	r = join(&s, rank, world, &c, hosts, sizeof(hosts));
	if (r) {
		fprintf(out, "%d dmode join %d %s\n", rank, -r, inccl_errmsg());
		return 0;
	}
	inccl_comm_config(c, &cfg);
	mark_modes_seen = 0;
	r = inccl_allreduce(c, x, x, 10000, 0, NULL);
	inccl_get_stats(c, &st);
	fprintf(out, "%d dmode %s mode %u seen 0x%x marked %llu\n", rank,
		r ? "FAIL" : "ok", cfg.mode, mark_modes_seen,
		(unsigned long long)st.tx_marked_bytes);
	inccl_comm_destroy(c);
	return 0;
}

/* every rank of 2 says mode `want`, marks `seen`, marked bytes or not */
static void test_default_mode(int transport, const char *env_mode,
			      unsigned int want, unsigned int seen,
			      const char *what)
{
	struct dmode_arg a = { .s = { .algo = INCCL_RING, .transport = transport,
				      .k = 10, .slice = 8192, .only = -1 },
			       .env_mode = env_mode };
	unsigned int m, sn;
	unsigned long long marked;
	int r, ok = 1;
	struct job j;

	scen_ports(&a.s, 2);
	run_job(&j, 2, dmode_rank, &a, 120);
	for (r = 0; r < 2; r++) {
		const char *l = job_find(&j, r, "dmode ");

		ok &= l && sscanf(l, "dmode ok mode %u seen 0x%x marked %llu",
				  &m, &sn, &marked) == 3 && m == want &&
		      sn == seen && (marked > 0) == (seen != 0);
		t_diag("rank %d: %s", r, l ? l : "no report");
	}
	if (!ok)
		job_diag_all(&j);
	t_ok(ok, "transport %s, no mode given%s%s: %s",
	     inccl_transport_name(transport), env_mode ? ", INCCL_MODE=" : "",
	     env_mode ? env_mode : ", no INCCL_MODE", what);
	job_free(&j);
}

/* ---- a peer that breaks the protocol ---------------------------------- */

enum bad { B_MAGIC, B_CHUNK_HDR, B_RAW_LEN, B_BODY, B_CLOSE, B_WRONG_CALL };

struct proto_arg {
	struct scen s;
	enum bad b;
};

static void put_cfg(uint8_t *p, const struct scen *s, int world)
{
	ic_put16(p, INCCL_PROTO_VERSION);
	ic_put16(p + 2, (uint16_t)world);
	p[4] = (uint8_t)s->algo;
	p[5] = (uint8_t)s->transport;
	p[6] = (uint8_t)s->k;
	p[7] = (uint8_t)s->mode;
	ic_put32(p + 8, s->slice);
}

static int sock_to(unsigned int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd, i;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < 200; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		usleep(20000);
	}
	return -1;
}

static int read_n(int fd, void *b, size_t n)
{
	uint8_t *p = b;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* rank 0 is the library; rank 1 speaks the wire format by hand */
static int proto_rank(int rank, int world, void *arg, FILE *out)
{
	struct proto_arg *a = arg;
	uint8_t h[INCCL_HELLO_BYTES] = { 0 }, ack[8], msg[64] = { 0 };
	char hosts[4096];
	inccl_comm *c;
	float x[4096] = { 0 }, y[4096];
	int r;

	alarm(60);
	if (rank == 0) {
		r = join(&a->s, 0, world, &c, hosts, sizeof(hosts));
		if (r) {
			fprintf(out, "0 result %d %s\n", -r, inccl_errmsg());
			return 0;
		}
		r = inccl_allreduce(c, x, y, 4096, 0, NULL);
		fprintf(out, "0 result %d %s\n", -r, r ? inccl_errmsg() : "ok");
		inccl_comm_destroy(c);
		return 0;
	} else {
		struct sockaddr_in me = { .sin_family = AF_INET,
					  .sin_port = htons((uint16_t)a->s.ports[1]) };
		int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1, to, from;
		struct inc_chunk_hdr ch = { .mode = INC_MODE_SPARSE, .k = 10,
					    .raw_len = 8192, .body_len = 4 };
		struct call call = { .coll = INCCL_COLL_ALLREDUCE, .count = 4096 };

		me.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (struct sockaddr *)&me, sizeof(me)) || listen(lfd, 4))
			return 1;
		to = sock_to(a->s.ports[0]);
		ic_put32(h, INCCL_HELLO_MAGIC);
		ic_put16(h + 4, 1);
		h[6] = LINK_RING;
		put_cfg(h + 8, &a->s, world);
		if (to < 0 || write(to, h, sizeof(h)) != sizeof(h))
			return 1;
		from = accept(lfd, NULL, NULL);
		if (from < 0 || read_n(from, h, sizeof(h)))
			return 1;
		ic_put32(ack, INCCL_HELLO_MAGIC);
		ic_put32(ack + 4, 0);
		if (write(from, ack, 8) != 8 || read_n(to, ack, 8))
			return 1;
		/* the call: a header, then a slice of 4096 floats (2 chunks) */
		ic_call_hdr_pack(&call, 1, msg);
		if (a->b == B_MAGIC)
			msg[0] ^= 0xff;
		if (a->b == B_WRONG_CALL)
			msg[8] = INCCL_COLL_ALLGATHER;
		if (a->b == B_CLOSE) {
			if (write(to, msg, INCCL_CALL_HDR_BYTES) < 0)
				return 1;
			usleep(200000);
			close(to);
			return 0;
		}
		if (a->b == B_RAW_LEN)
			ch.raw_len = 4000;
		inc_chunk_hdr_pack(&ch, msg + INCCL_CALL_HDR_BYTES);
		if (a->b == B_CHUNK_HDR)
			msg[INCCL_CALL_HDR_BYTES] = 9;	/* mode 9 */
		/* a sparse body of 4 bytes: mask 0xff says groups that are
		 * not there */
		memset(msg + INCCL_CALL_HDR_BYTES + 8, 0xff, 4);
		if (write(to, msg, INCCL_CALL_HDR_BYTES + 12) < 0)
			return 1;
		usleep(500000);
		close(to);
		close(from);
		return 0;
	}
}

static void test_proto(enum bad b, const char *what, int expect,
		       const char *text)
{
	struct proto_arg a = { .s = { .algo = INCCL_RING, .transport = INCCL_SW,
				      .k = 10, .mode = INCCL_MODE_SPARSE,
				      .slice = 65536, .timeout_ms = 5000, .only = -1 },
			       .b = b };
	struct job j;
	const char *l;
	int code = -1;

	scen_ports(&a.s, 2);
	run_job(&j, 2, proto_rank, &a, 60);
	l = job_find(&j, 0, "result ");
	if (l)
		sscanf(l, "result %d", &code);
	t_ok(l && code == expect && strstr(l, text),
	     "malformed peer: %s -> %s (%s)", what, inccl_strerror(expect),
	     l ? l : "no result");
	job_free(&j);
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
	int transports[3] = { INCCL_NONE, INCCL_SW, -1 }, nt = 2, opt, ti;
	static const int worlds[] = { 2, 3, 4, 7 };
	int nic_only = 0;
	size_t w;

	signal(SIGPIPE, SIG_IGN);
	while ((opt = getopt(argc, argv, "t:q")) != -1) {
		if (opt == 'q') {
			quick = 1;
		} else if (opt == 't') {
			nt = 1;
			transports[0] = !strcmp(optarg, "nic") ? INCCL_NIC :
					!strcmp(optarg, "sw") ? INCCL_SW : INCCL_NONE;
			nic_only = transports[0] == INCCL_NIC;
		} else {
			return 2;
		}
	}
	t_diag("codec implementation: %s", inc_impl_name());

	/* the collective matrix: every world, both algorithms, transports */
	for (w = 0; w < sizeof(worlds) / sizeof(worlds[0]); w++) {
		for (int algo = INCCL_RING; algo <= INCCL_WA; algo++) {
			for (ti = 0; ti < nt; ti++) {
				struct scen s = { .algo = algo, .transport = transports[ti],
						  .k = 10, .mode = INCCL_MODE_SPARSE,
						  .slice = 8192, .only = -1,
						  .use_master = (int)(w + (size_t)algo) & 1 };

				if (quick && worlds[w] == 7 && algo == INCCL_WA)
					continue;
				scenario(worlds[w], &s, "");
			}
		}
	}
	/* width mode: every collective, both algorithms (nic: marked with
	 * mode 3, which a NIC without the width feature sends uncompressed;
	 * what arrives is Q(x) either way) */
	for (int algo = INCCL_RING; algo <= INCCL_WA; algo++) {
		struct scen s = { .algo = algo,
				  .transport = nic_only ? INCCL_NIC : INCCL_SW,
				  .k = 10, .mode = INCCL_MODE_WIDTH, .slice = 8192,
				  .only = -1, .use_master = algo == INCCL_WA };

		scenario(4, &s, "");
	}
	if (nic_only) {
		/* in the guest: paper mode and a larger slice too */
		struct scen s = { .algo = INCCL_RING, .transport = INCCL_NIC, .k = 8,
				  .mode = INCCL_MODE_PAPER, .slice = 65536, .only = -1 };

		scenario(4, &s, "");
		/* the nic transport's default mode is sparse (not every
		 * NIC takes width): every mark says mode 2 ... */
		test_default_mode(INCCL_NIC, NULL, INCCL_MODE_SPARSE,
				  1u << INCCL_MODE_SPARSE,
				  "sparse, every socket marked with mode 2");
		/* ... and INCCL_MODE still chooses */
		test_default_mode(INCCL_NIC, "width", INCCL_MODE_WIDTH,
				  1u << INCCL_MODE_WIDTH,
				  "width, every socket marked with mode 3");
		return t_done();
	}
	/* every k, the sw transport (and paper and width modes, the
	 * default slice) */
	for (unsigned int k = 1; k <= 24; k++) {
		struct scen s = { .algo = k % 5 ? INCCL_RING : INCCL_WA,
				  .transport = INCCL_SW, .k = k,
				  .mode = k % 3 == 0 ? INCCL_MODE_PAPER :
					  k % 3 == 1 ? INCCL_MODE_SPARSE :
					  INCCL_MODE_WIDTH,
				  .slice = k % 2 ? 8192 : 65536, .only = 1,
				  .use_master = k & 1 };

		if (quick && k % 4)
			continue;
		scenario(3, &s, " (k sweep)");
	}
	/* IPv6: a host list and a rendezvous at ::1 */
	for (int algo = INCCL_RING; algo <= INCCL_WA; algo++) {
		struct scen s = { .algo = algo, .transport = INCCL_SW, .k = 10,
				  .mode = INCCL_MODE_SPARSE, .slice = 8192, .only = 1,
				  .use_master = algo == INCCL_WA, .v6 = 1 };

		scenario(3, &s, "");
		s.v6 = 0;
		s.ifname = "lo";
		scenario(3, &s, "");
	}
	test_ef(4, INCCL_RING);
	test_ef(3, INCCL_WA);
	test_fault(4, INCCL_RING, F_KILL, 2, "rank 2 killed in an all-reduce");
	test_fault(3, INCCL_WA, F_KILL, 0, "the aggregator killed");
	test_fault(4, INCCL_RING, F_STOP, 1, "rank 1 stopped (SIGSTOP)");
	test_fault(4, INCCL_RING, F_CALL_MISMATCH, 3, "rank 3 calls with count - 1");
	test_fault(3, INCCL_RING, F_CFG_MISMATCH, 1, "rank 1 with k = 8");
	test_fault(3, INCCL_WA, F_SLOW, 1, "rank 1 late");
	{
		struct scen s = { .algo = INCCL_RING, .transport = INCCL_SW, .k = 10,
				  .mode = INCCL_MODE_SPARSE, .slice = 8192, .only = -1 };
		struct job j;
		int r, ok = 1;

		scen_ports(&s, 2);
		run_job(&j, 2, args_rank, &s, 60);
		for (r = 0; r < 2; r++)
			ok &= job_find(&j, r, "args ok") != NULL;
		if (!ok)
			job_diag_all(&j);
		t_ok(ok, "bad arguments: INCCL_EINVAL with a message, and the communicator keeps working");
		job_free(&j);
	}
	test_config_errors();
	test_width_wire();
	test_default_mode(INCCL_SW, NULL, INCCL_MODE_WIDTH, 0,
			  "width, no socket marked");
	test_default_mode(INCCL_SW, "sparse", INCCL_MODE_SPARSE, 0,
			  "sparse, no socket marked");
	test_default_mode(INCCL_NONE, NULL, INCCL_MODE_WIDTH, 0,
			  "width (documented; none sends floats), no socket marked");
	{
		struct scen s = { .algo = INCCL_RING, .transport = INCCL_NIC, .k = 10,
				  .mode = INCCL_MODE_SPARSE, .slice = 8192, .only = -1 };
		char hosts[256];
		inccl_comm *c;
		int r;

		scen_ports(&s, 2);
		r = join(&s, 0, 2, &c, hosts, sizeof(hosts));
		if (ic_mark_probe())
			t_ok(r == -INCCL_ENOMARK && strstr(inccl_errmsg(), "inceptionn.ko"),
			     "transport nic without inceptionn.ko: %s", inccl_errmsg());
		else
			t_skip("inceptionn.ko is loaded: transport nic is tested in run-guest.sh");
		if (!r)
			inccl_comm_destroy(c);
	}
	test_proto(B_MAGIC, "no call header", INCCL_EPROTO, "not a call header");
	test_proto(B_WRONG_CALL, "another collective", INCCL_EMISMATCH, "allgather");
	test_proto(B_CHUNK_HDR, "chunk mode 9", INCCL_EPROTO, "malformed chunk header");
	test_proto(B_RAW_LEN, "chunk of the wrong length", INCCL_EPROTO, "unexpected chunk");
	test_proto(B_BODY, "a body that does not decode", INCCL_EPROTO, "does not decode");
	test_proto(B_CLOSE, "closes after the header", INCCL_EPEER, "closed the connection");
	return t_done();
}
