// SPDX-License-Identifier: MIT
/*
 * incgrad: command line. Subcommands: server, client, verify.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "incgrad.h"
#include "proto.h"
#include "report.h"
#include "util.h"
#include "verify.h"

static const char usage_text[] =
"usage:\n"
"  incgrad server [--port P] [--bind ADDR] [-4|-6] [--udp] [--once]\n"
"                 [--verify FILE] [--save FILE] [--allow-loss] [--json]\n"
"                 [--timeout SEC] [--udp-wait MS] [--max-bytes N]\n"
"  incgrad client HOST FILE [--port P] [-4|-6] [--udp] [--k K]\n"
"                 [--mode paper|sparse|width] [--mark|--no-mark|--emulate-nic]\n"
"                 [--msg BYTES] [--mtu BYTES|auto] [--rate BITS] [--repeat N]\n"
"                 [--json] [--timeout SEC]\n"
"                 [--test-drop N] [--test-mispair N] [--test-swap]\n"
"                 [--test-corrupt N] [--test-stop N] [--test-late MS]\n"
"  incgrad verify ORIGINAL RECEIVED [--k K] [--exact] [--json]\n"
"\n"
"The client sends a float32 FILE to an incgrad server, each message behind\n"
"an exact header, the floats on a socket marked as gradients\n"
"(INC_SO_GRADIENT, error bound 2^-K); the server checks every header and,\n"
"with --verify ORIGINAL, every value. Unmarked transfers must be bit-exact.\n"
"Without --mark and --no-mark the client marks if the kernel can and\n"
"otherwise warns and sends unmarked. --test-* options damage the transfer\n"
"on purpose (UDP: --test-drop drops every Nth datagram, --test-mispair the\n"
"payload of every Nth message and the next header, --test-swap sends\n"
"messages in swapped pairs; --test-corrupt flips a bit in every Nth\n"
"message, --test-stop quits after N messages, --test-late sends the last\n"
"message MS ms after the end record). Exit status: 0 verified, 1\n"
"verification failed, 2 usage, 3 file, network or protocol error.\n"
"See userspace/incgrad/PROTOCOL.md.\n";

static int usage(const char *msg, const char *arg)
{
	if (msg)
		fprintf(stderr, "incgrad: %s%s%s\n", msg, arg ? ": " : "",
			arg ? arg : "");
	fputs(usage_text, stderr);
	return IG_EXIT_USAGE;
}

static int num(const char *s, int si, uint64_t lo, uint64_t hi, uint64_t *v,
	       const char *what)
{
	if (ig_parse_num(s, si, lo, hi, v)) {
		fprintf(stderr, "incgrad: %s: bad value '%s' (%llu..%llu)\n",
			what, s, (unsigned long long)lo,
			(unsigned long long)hi);
		return -1;
	}
	return 0;
}

enum {
	O_MODE = 256, O_NO_MARK, O_MARK, O_EMULATE, O_MSG, O_MTU, O_RATE,
	O_JSON, O_TIMEOUT, O_DROP, O_MISPAIR, O_SWAP, O_VERIFY, O_SAVE, O_LOSS,
	O_UDP_WAIT, O_MAX_BYTES, O_EXACT, O_CORRUPT, O_STOP, O_LATE,
};

static int cmd_client(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "port", required_argument, 0, 'p' },
		{ "udp", no_argument, 0, 'u' },
		{ "k", required_argument, 0, 'k' },
		{ "mode", required_argument, 0, O_MODE },
		{ "no-mark", no_argument, 0, O_NO_MARK },
		{ "mark", no_argument, 0, O_MARK },
		{ "emulate-nic", no_argument, 0, O_EMULATE },
		{ "msg", required_argument, 0, O_MSG },
		{ "mtu", required_argument, 0, O_MTU },
		{ "rate", required_argument, 0, O_RATE },
		{ "repeat", required_argument, 0, 'n' },
		{ "json", no_argument, 0, O_JSON },
		{ "timeout", required_argument, 0, O_TIMEOUT },
		{ "test-drop", required_argument, 0, O_DROP },
		{ "test-mispair", required_argument, 0, O_MISPAIR },
		{ "test-swap", no_argument, 0, O_SWAP },
		{ "test-corrupt", required_argument, 0, O_CORRUPT },
		{ "test-stop", required_argument, 0, O_STOP },
		{ "test-late", required_argument, 0, O_LATE },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct ig_client_opts o = {
		.port = IG_DEFAULT_PORT, .family = AF_UNSPEC, .k = 10,
		.mode = IG_MODE_SPARSE, .repeat = 1, .timeout_ms = 10000,
	};
	int c, rate_set = 0, marks = 0;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "46p:uk:n:h", lo, NULL)) != -1) {
		switch (c) {
		case '4':
			o.family = AF_INET;
			break;
		case '6':
			o.family = AF_INET6;
			break;
		case 'p':
			if (num(optarg, 0, 1, 65535, &v, "--port"))
				return IG_EXIT_USAGE;
			o.port = (unsigned int)v;
			break;
		case 'u':
			o.udp = 1;
			break;
		case 'k':
			if (num(optarg, 0, 1, 24, &v, "--k"))
				return IG_EXIT_USAGE;
			o.k = (unsigned int)v;
			break;
		case O_MODE:
			if (!strcmp(optarg, "paper"))
				o.mode = IG_MODE_PAPER;
			else if (!strcmp(optarg, "sparse"))
				o.mode = IG_MODE_SPARSE;
			else if (!strcmp(optarg, "width"))
				o.mode = IG_MODE_WIDTH;
			else
				return usage("--mode must be paper, sparse or width",
					     optarg);
			break;
		case O_NO_MARK:
			o.mark = IG_MARK_NEVER;
			marks++;
			break;
		case O_MARK:
			o.mark = IG_MARK_REQUIRE;
			marks++;
			break;
		case O_EMULATE:
			o.mark = IG_MARK_EMULATE;
			marks++;
			break;
		case O_MSG:
			if (num(optarg, 0, 4, IG_TCP_MAX_MSG, &v, "--msg"))
				return IG_EXIT_USAGE;
			o.msg = (uint32_t)v;
			break;
		case O_MTU:
			if (!strcmp(optarg, "auto"))
				o.mtu = -1;
			else if (num(optarg, 0, 128, 65535, &v, "--mtu"))
				return IG_EXIT_USAGE;
			else
				o.mtu = (int)v;
			break;
		case O_RATE:
			if (num(optarg, 1, 0, UINT64_MAX / 2, &v, "--rate"))
				return IG_EXIT_USAGE;
			o.rate = v;
			rate_set = 1;
			break;
		case 'n':
			if (num(optarg, 0, 1, UINT32_MAX, &v, "--repeat"))
				return IG_EXIT_USAGE;
			o.repeat = (uint32_t)v;
			break;
		case O_JSON:
			o.json = 1;
			break;
		case O_TIMEOUT:
			if (num(optarg, 0, 1, 86400, &v, "--timeout"))
				return IG_EXIT_USAGE;
			o.timeout_ms = (int)v * 1000;
			break;
		case O_DROP:
			if (num(optarg, 0, 1, UINT32_MAX, &v, "--test-drop"))
				return IG_EXIT_USAGE;
			o.test_drop = (uint32_t)v;
			break;
		case O_MISPAIR:
			if (num(optarg, 0, 1, UINT32_MAX, &v, "--test-mispair"))
				return IG_EXIT_USAGE;
			o.test_mispair = (uint32_t)v;
			break;
		case O_SWAP:
			o.test_swap = 1;
			break;
		case O_CORRUPT:
			if (num(optarg, 0, 1, UINT32_MAX, &v, "--test-corrupt"))
				return IG_EXIT_USAGE;
			o.test_corrupt = (uint32_t)v;
			break;
		case O_STOP:
			if (num(optarg, 0, 0, UINT32_MAX, &v, "--test-stop"))
				return IG_EXIT_USAGE;
			o.test_stop = v + 1;
			break;
		case O_LATE:
			if (num(optarg, 0, 1, 600000, &v, "--test-late"))
				return IG_EXIT_USAGE;
			o.test_late_ms = (int)v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return IG_EXIT_OK;
		default:
			return usage(NULL, NULL);
		}
	}
	if (argc - optind != 2)
		return usage("client needs HOST and FILE", NULL);
	if (marks > 1)
		return usage("--mark, --no-mark and --emulate-nic exclude "
			     "each other", NULL);
	if (!o.udp && (o.mtu || rate_set || o.test_drop || o.test_mispair ||
		       o.test_swap || o.test_late_ms))
		return usage("--mtu, --rate, --test-drop, --test-mispair, "
			     "--test-swap and --test-late are for --udp", NULL);
	if (o.msg % 4 || o.msg > (o.udp ? IG_UDP_MAX_MSG : IG_TCP_MAX_MSG)) {
		fprintf(stderr, "incgrad: --msg %u: must be a multiple of 4, at "
			"most %u for %s\n", o.msg, o.udp ? IG_UDP_MAX_MSG :
			IG_TCP_MAX_MSG, o.udp ? "UDP" : "TCP");
		return IG_EXIT_USAGE;
	}
	if (o.udp && !rate_set)
		o.rate = 1000000000;	/* 1 Gbit/s unless told otherwise */
	o.host = argv[optind];
	o.file = argv[optind + 1];
	return ig_client(&o);
}

static int cmd_server(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "port", required_argument, 0, 'p' },
		{ "bind", required_argument, 0, 'B' },
		{ "udp", no_argument, 0, 'u' },
		{ "once", no_argument, 0, '1' },
		{ "verify", required_argument, 0, O_VERIFY },
		{ "save", required_argument, 0, O_SAVE },
		{ "allow-loss", no_argument, 0, O_LOSS },
		{ "json", no_argument, 0, O_JSON },
		{ "timeout", required_argument, 0, O_TIMEOUT },
		{ "udp-wait", required_argument, 0, O_UDP_WAIT },
		{ "max-bytes", required_argument, 0, O_MAX_BYTES },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct ig_server_opts o = {
		.port = IG_DEFAULT_PORT, .family = AF_UNSPEC,
		.timeout_ms = 10000, .udp_wait_ms = 500,
		.max_bytes = 1ull << 30,
	};
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "46p:B:u1h", lo, NULL)) != -1) {
		switch (c) {
		case '4':
			o.family = AF_INET;
			break;
		case '6':
			o.family = AF_INET6;
			break;
		case 'p':
			if (num(optarg, 0, 0, 65535, &v, "--port"))
				return IG_EXIT_USAGE;
			o.port = (unsigned int)v;
			break;
		case 'B':
			o.bind = optarg;
			break;
		case 'u':
			o.udp = 1;
			break;
		case '1':
			o.once = 1;
			break;
		case O_VERIFY:
			o.verify = optarg;
			break;
		case O_SAVE:
			o.save = optarg;
			break;
		case O_LOSS:
			o.allow_loss = 1;
			break;
		case O_JSON:
			o.json = 1;
			break;
		case O_TIMEOUT:
			if (num(optarg, 0, 1, 86400, &v, "--timeout"))
				return IG_EXIT_USAGE;
			o.timeout_ms = (int)v * 1000;
			break;
		case O_UDP_WAIT:
			if (num(optarg, 0, 1, 600000, &v, "--udp-wait"))
				return IG_EXIT_USAGE;
			o.udp_wait_ms = (int)v;
			break;
		case O_MAX_BYTES:
			if (num(optarg, 0, 4, UINT64_MAX / 4, &v, "--max-bytes"))
				return IG_EXIT_USAGE;
			o.max_bytes = v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return IG_EXIT_OK;
		default:
			return usage(NULL, NULL);
		}
	}
	if (optind != argc)
		return usage("unexpected argument", argv[optind]);
	return ig_server(&o);
}

static int cmd_verify(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "k", required_argument, 0, 'k' },
		{ "exact", no_argument, 0, O_EXACT },
		{ "json", no_argument, 0, O_JSON },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct ig_vstats s = { 0 };
	unsigned int k = 10;
	int c, exact = 0, json = 0, pass;
	uint8_t *a, *b;
	size_t al, bl;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "k:h", lo, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (num(optarg, 0, 1, 24, &v, "--k"))
				return IG_EXIT_USAGE;
			k = (unsigned int)v;
			break;
		case O_EXACT:
			exact = 1;
			break;
		case O_JSON:
			json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return IG_EXIT_OK;
		default:
			return usage(NULL, NULL);
		}
	}
	if (argc - optind != 2)
		return usage("verify needs ORIGINAL and RECEIVED", NULL);
	if (ig_load_floats("verify", argv[optind], &a, &al))
		return IG_EXIT_ERROR;
	if (ig_load_floats("verify", argv[optind + 1], &b, &bl)) {
		free(a);
		return IG_EXIT_ERROR;
	}
	if (al != bl) {
		fprintf(stderr, "incgrad: verify: lengths differ: %zu and %zu "
			"bytes\n", al, bl);
		free(a);
		free(b);
		return IG_EXIT_FAIL;
	}
	ig_verify(&s, a, b, al, k);
	pass = exact ? !s.not_exact : ig_within_bound(&s);
	if (json) {
		struct ig_json j;

		ig_json_begin(&j);
		ig_json_str(&j, "role", "verify");
		ig_json_str(&j, "result", pass ? "pass" : "fail");
		ig_json_str(&j, "check", exact ? "exact" : "bound");
		ig_json_u64(&j, "k", k);
		ig_json_u64(&j, "values_compared", s.values);
		ig_json_u64(&j, "values_not_exact", s.not_exact);
		ig_json_u64(&j, "values_over_bound", s.over_bound);
		ig_json_u64(&j, "nonfinite_bad", s.nonfinite_bad);
		ig_json_dbl(&j, "max_abs_err", s.max_abs_err);
		ig_json_bool(&j, "within_bound", ig_within_bound(&s));
		ig_json_print(&j, stdout);
	} else {
		printf("incgrad verify %s against %s\n", argv[optind + 1],
		       argv[optind]);
		ig_row(stdout, "result", "%s (%s)", pass ? "pass" : "fail",
		       exact ? "bit-exact" : "bound");
		ig_row(stdout, "values", "%llu, %llu not bit-exact",
		       (unsigned long long)s.values,
		       (unsigned long long)s.not_exact);
		ig_row(stdout, "bound 2^-k", "k %u: %llu over, %llu non-finite "
		       "changed, max error %g", k,
		       (unsigned long long)s.over_bound,
		       (unsigned long long)s.nonfinite_bad, s.max_abs_err);
	}
	free(a);
	free(b);
	return pass ? IG_EXIT_OK : IG_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	/* getopt names the subcommand in its messages */
	static char client[] = "incgrad client", server[] = "incgrad server",
		    verify[] = "incgrad verify";

	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return usage("no subcommand", NULL);
	if (!strcmp(argv[1], "client")) {
		argv[1] = client;
		return cmd_client(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "server")) {
		argv[1] = server;
		return cmd_server(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "verify")) {
		argv[1] = verify;
		return cmd_verify(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return IG_EXIT_OK;
	}
	return usage("unknown subcommand", argv[1]);
}
