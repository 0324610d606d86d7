// SPDX-License-Identifier: GPL-2.0
/*
 * The gradient socket option INC_SO_GRADIENT (docs/socket-option.md), run
 * in the main test guest by the kselftest runner (tests/driver/run-driver.sh
 * builds it with the kernel's kselftest_harness.h).
 *
 * Besides the tests, two modes for the other guests and scripts:
 *   sockopt --sink PORT   a TCP sink on every address (the peer guest runs it)
 *   sockopt --hold        marks sockets and keeps them across a module reload,
 *                         driven by commands on stdin (nic_mark_unload.sh)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#include <inceptionn/inceptionn.h>

#include "kselftest_harness.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef TCP_ULP
#define TCP_ULP 31
#endif

#define IFNAME		"eth0"
#define PEER4		"10.0.0.2"
#define PEER6		"fd00::2"
#define SINK_PORT	7790
#define DBG_DIR		"/sys/kernel/debug/inceptionn-mark"
#define POLICY		"/proc/sys/net/inceptionn/mark_policy"
#define POLICY_GID	"/proc/sys/net/inceptionn/mark_gid"

/* ---- helpers ------------------------------------------------------------ */

/* for TEST_F_TIMEOUT: TEST() has no timeout of its own */
FIXTURE(slow) {
	int unused;
};
FIXTURE_SETUP(slow) { }
FIXTURE_TEARDOWN(slow) { }

static int level_of(int family)
{
	return family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP;
}

static int set_grad_at(int fd, int level, __u32 enable, __u32 k, __u32 mode,
		       __u32 flags)
{
	struct inc_gradient g = { .enable = enable, .k = k, .mode = mode,
				  .flags = flags };

	return setsockopt(fd, level, INC_SO_GRADIENT, &g, sizeof(g)) ? errno : 0;
}

static int get_grad_at(int fd, int level, struct inc_gradient *g)
{
	socklen_t len = sizeof(*g);

	memset(g, 0xa5, sizeof(*g));
	if (getsockopt(fd, level, INC_SO_GRADIENT, g, &len))
		return errno;
	return len == sizeof(*g) ? 0 : -1;
}

static int sock_family(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		return -1;
	return ss.ss_family;
}

static int set_grad(int fd, __u32 enable, __u32 k, __u32 mode)
{
	return set_grad_at(fd, level_of(sock_family(fd)), enable, k, mode, 0);
}

/* 0 when the socket's setting is exactly {enable, k, mode, 0} */
static int grad_is(int fd, __u32 enable, __u32 k, __u32 mode)
{
	struct inc_gradient g;
	int err = get_grad_at(fd, level_of(sock_family(fd)), &g);

	if (err)
		return err;
	if (g.enable != enable || g.k != k || g.mode != mode || g.flags)
		return -2;
	return 0;
}

static socklen_t loopback(int family, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		a->sin6_addr = in6addr_loopback;
		return sizeof(*a);
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*a);
}

static socklen_t peer_addr(int family, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		inet_pton(AF_INET6, PEER6, &a->sin6_addr);
		return sizeof(*a);
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	inet_pton(AF_INET, PEER4, &a->sin_addr);
	return sizeof(*a);
}

/* a listening TCP socket on the loopback address, port chosen by the kernel */
static int tcp_listener(int family, int rcvbuf)
{
	struct sockaddr_storage ss;
	socklen_t sl = loopback(family, 0, &ss);
	int fd = socket(family, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&ss, sl) || listen(fd, 256)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* connect to listener @lfd and accept: 0, *cli and *srv */
static int tcp_connect_to(int lfd, int *cli, int *srv)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(lfd, (struct sockaddr *)&ss, &sl))
		return -1;
	*cli = socket(ss.ss_family, SOCK_STREAM, 0);
	if (*cli < 0)
		return -1;
	if (connect(*cli, (struct sockaddr *)&ss, sl)) {
		close(*cli);
		return -1;
	}
	*srv = accept(lfd, NULL, NULL);
	if (*srv < 0) {
		close(*cli);
		return -1;
	}
	return 0;
}

static int tcp_pair(int family, int *cli, int *srv)
{
	int lfd = tcp_listener(family, 0), err;

	if (lfd < 0)
		return -1;
	err = tcp_connect_to(lfd, cli, srv);
	close(lfd);
	return err;
}

static int udp_socket(int family)
{
	struct sockaddr_storage ss;
	socklen_t sl = loopback(family, 0, &ss);
	int fd = socket(family, SOCK_DGRAM, 0);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&ss, sl)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= n;
	}
}

/* wait up to @ms until everything written on TCP socket @fd is acknowledged */
static int tcp_wait_acked(int fd, int ms)
{
	int outq = -1;

	for (; ms > 0; ms -= 10) {
		if (ioctl(fd, SIOCOUTQ, &outq) == 0 && outq == 0)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* segments TCP retransmitted on fd so far, and its MSS */
static long long tcp_retrans(int fd, long long *mss)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return -1;
	*mss = ti.tcpi_snd_mss;
	return ti.tcpi_total_retrans;
}

static void ensure_debugfs(void)
{
	struct stat st;

	if (stat(DBG_DIR, &st) == 0)
		return;
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
}

/* a counter in DBG_DIR, or -1 */
static long dbg_counter(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	ensure_debugfs();
	snprintf(path, sizeof(path), DBG_DIR "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* poll a debugfs counter until it equals @want, up to @ms */
static long dbg_wait(const char *name, long want, int ms)
{
	long v = dbg_counter(name);

	for (; v != want && ms > 0; ms -= 20) {
		usleep(20000);
		v = dbg_counter(name);
	}
	return v;
}

/* an `ethtool -S IFNAME` counter, through SIOCETHTOOL; -1 if none */
static long long eth_stat(const char *name)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	long long v = -1;
	struct ifreq ifr;
	unsigned int i, n;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, IFNAME, IFNAMSIZ - 1);
	ifr.ifr_data = (void *)&di;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		goto out;
	n = di.n_stats;
	gs = calloc(1, sizeof(*gs) + n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + n * sizeof(__u64));
	if (!gs || !st)
		goto out;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	ifr.ifr_data = (void *)gs;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	ifr.ifr_data = (void *)st;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		goto out;
	for (i = 0; i < n; i++)
		if (!strncmp((char *)gs->data + i * ETH_GSTRING_LEN, name,
			     ETH_GSTRING_LEN))
			v = (long long)st->data[i];
out:
	free(gs);
	free(st);
	close(fd);
	return v;
}

/* ---- set, get, invalid arguments, on each kind of supported socket ------ */

FIXTURE(sk) {
	int fd;		/* the socket under test */
	int other;	/* TCP: the accepted end, else -1 */
	int level;
};

FIXTURE_VARIANT(sk) {
	int family;
	int type;
};

FIXTURE_VARIANT_ADD(sk, tcp4) { .family = AF_INET, .type = SOCK_STREAM };
FIXTURE_VARIANT_ADD(sk, tcp6) { .family = AF_INET6, .type = SOCK_STREAM };
FIXTURE_VARIANT_ADD(sk, udp4) { .family = AF_INET, .type = SOCK_DGRAM };
FIXTURE_VARIANT_ADD(sk, udp6) { .family = AF_INET6, .type = SOCK_DGRAM };

static int open_variant(int family, int type, int *other)
{
	int fd;

	*other = -1;
	if (type == SOCK_DGRAM)
		return udp_socket(family);
	if (tcp_pair(family, &fd, other))
		return -1;
	return fd;
}

FIXTURE_SETUP(sk)
{
	self->fd = open_variant(variant->family, variant->type, &self->other);
	ASSERT_LE(0, self->fd);
	self->level = level_of(variant->family);
}

/* write a sysctl: 0 or errno */
static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

FIXTURE_TEARDOWN(sk)
{
	/* the policy test's sysctls back to their defaults, whatever happened */
	write_sysctl(POLICY, "2");
	write_sysctl(POLICY_GID, "0");
	if (self->fd >= 0)
		close(self->fd);
	if (self->other >= 0)
		close(self->other);
}

TEST_F(sk, default_all_zero)
{
	struct inc_gradient g;
	socklen_t len = sizeof(g);

	memset(&g, 0xa5, sizeof(g));
	ASSERT_EQ(0, getsockopt(self->fd, self->level, INC_SO_GRADIENT, &g, &len));
	EXPECT_EQ(sizeof(g), len);
	EXPECT_EQ(0, g.enable);
	EXPECT_EQ(0, g.k);
	EXPECT_EQ(0, g.mode);
	EXPECT_EQ(0, g.flags);
	if (self->other >= 0)	/* the accepted end too */
		EXPECT_EQ(0, grad_is(self->other, 0, 0, 0));
}

TEST_F(sk, set_get_round_trip)
{
	static const struct { __u32 k, mode; } s[] = {
		{ 10, INC_GRAD_MODE_SPARSE }, { INC_GRAD_K_MIN, INC_GRAD_MODE_PAPER },
		{ INC_GRAD_K_MAX, INC_GRAD_MODE_SPARSE }, { 7, INC_GRAD_MODE_PAPER },
		{ 7, INC_GRAD_MODE_PAPER },	/* the same again */
		{ 9, INC_GRAD_MODE_WIDTH }, { INC_GRAD_K_MAX, INC_GRAD_MODE_WIDTH },
		{ 7, INC_GRAD_MODE_PAPER },
	};
	char buf[256] = { 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(s); i++) {
		ASSERT_EQ(0, set_grad(self->fd, 1, s[i].k, s[i].mode));
		ASSERT_EQ(0, grad_is(self->fd, 1, s[i].k, s[i].mode));
		/* data between changes: each change a new TCP run */
		if (self->other >= 0)
			write_all(self->fd, buf, sizeof(buf));
	}
	if (self->other >= 0) {
		/* the accepted end has its own setting */
		EXPECT_EQ(0, grad_is(self->other, 0, 0, 0));
		EXPECT_EQ(0, set_grad(self->other, 1, 3, INC_GRAD_MODE_SPARSE));
		EXPECT_EQ(0, grad_is(self->other, 1, 3, INC_GRAD_MODE_SPARSE));
		EXPECT_EQ(0, grad_is(self->fd, 1, 7, INC_GRAD_MODE_PAPER));
	}
}

TEST_F(sk, turn_off)
{
	ASSERT_EQ(0, set_grad(self->fd, 1, 12, INC_GRAD_MODE_SPARSE));
	ASSERT_EQ(0, set_grad(self->fd, 0, 0, 0));
	EXPECT_EQ(0, grad_is(self->fd, 0, 0, 0));
	/* off again: nothing to do, not an error */
	EXPECT_EQ(0, set_grad(self->fd, 0, 0, 0));
	/* with enable 0, k and mode are ignored */
	EXPECT_EQ(0, set_grad(self->fd, 0, 99, 77));
	EXPECT_EQ(0, grad_is(self->fd, 0, 0, 0));
	/* and on again */
	EXPECT_EQ(0, set_grad(self->fd, 1, 5, INC_GRAD_MODE_PAPER));
	EXPECT_EQ(0, grad_is(self->fd, 1, 5, INC_GRAD_MODE_PAPER));
}

/* every invalid argument: EINVAL, and the previous setting unchanged */
TEST_F(sk, invalid_arguments)
{
	static const struct inc_gradient bad[] = {
		{ .enable = 1, .k = 10, .mode = INC_GRAD_MODE_SPARSE, .flags = 1 },
		{ .enable = 1, .k = 10, .mode = INC_GRAD_MODE_SPARSE, .flags = 0x80000000 },
		{ .enable = 0, .k = 0, .mode = 0, .flags = 2 },	/* flags even when off */
		{ .enable = 2, .k = 10, .mode = INC_GRAD_MODE_SPARSE },
		{ .enable = 0xffffffff, .k = 10, .mode = INC_GRAD_MODE_SPARSE },
		{ .enable = 1, .k = 0, .mode = INC_GRAD_MODE_SPARSE },
		{ .enable = 1, .k = INC_GRAD_K_MIN - 1, .mode = INC_GRAD_MODE_PAPER },
		{ .enable = 1, .k = INC_GRAD_K_MAX + 1, .mode = INC_GRAD_MODE_PAPER },
		{ .enable = 1, .k = 0xffffffff, .mode = INC_GRAD_MODE_PAPER },
		{ .enable = 1, .k = 256 + 10, .mode = INC_GRAD_MODE_PAPER },
		{ .enable = 1, .k = 10, .mode = 0 },
		{ .enable = 1, .k = 10, .mode = INC_GRAD_MODE_WIDTH + 1 },	/* 4 */
		{ .enable = 1, .k = 10, .mode = 0x100 | INC_GRAD_MODE_PAPER },
		{ .enable = 1, .k = 10, .mode = 0x100 | INC_GRAD_MODE_WIDTH },
		{ .enable = 1, .k = 0, .mode = INC_GRAD_MODE_WIDTH },
	};
	unsigned int i, pass;

	for (pass = 0; pass < 2; pass++) {
		/* first with the mark on, then with it off */
		__u32 en = pass == 0;

		ASSERT_EQ(0, set_grad_at(self->fd, self->level, en, en ? 12 : 0,
					 en ? INC_GRAD_MODE_PAPER : 0, 0));
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			int r = setsockopt(self->fd, self->level, INC_SO_GRADIENT,
					   &bad[i], sizeof(bad[i]));

			EXPECT_EQ(-1, r) TH_LOG("case %u accepted", i);
			EXPECT_EQ(EINVAL, errno) TH_LOG("case %u", i);
			EXPECT_EQ(0, grad_is(self->fd, en, en ? 12 : 0,
					     en ? INC_GRAD_MODE_PAPER : 0))
				TH_LOG("setting changed by case %u", i);
		}
	}
}

TEST_F(sk, wrong_length)
{
	static const socklen_t lens[] = { 0, 1, 4, 12, 15, 17, 20, 32, 4096 };
	char buf[4096];
	struct inc_gradient *g = (struct inc_gradient *)buf;
	unsigned int i;

	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, set_grad(self->fd, 1, 9, INC_GRAD_MODE_SPARSE));
	*g = (struct inc_gradient){ .enable = 1, .k = 4, .mode = INC_GRAD_MODE_PAPER };
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		EXPECT_EQ(-1, setsockopt(self->fd, self->level, INC_SO_GRADIENT,
					 buf, lens[i])) TH_LOG("len %u", lens[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("len %u", lens[i]);
	}
	/* a bad pointer with the right length */
	EXPECT_EQ(-1, setsockopt(self->fd, self->level, INC_SO_GRADIENT, NULL,
				 sizeof(*g)));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(0, grad_is(self->fd, 1, 9, INC_GRAD_MODE_SPARSE));
}

TEST_F(sk, get_length)
{
	struct inc_gradient g;
	char big[64];
	socklen_t len;
	int neg = -1;

	ASSERT_EQ(0, set_grad(self->fd, 1, 11, INC_GRAD_MODE_PAPER));
	for (len = 0; len < sizeof(g); len++) {
		socklen_t l = len;

		EXPECT_EQ(-1, getsockopt(self->fd, self->level, INC_SO_GRADIENT, &g, &l))
			TH_LOG("len %u", len);
		EXPECT_EQ(EINVAL, errno) TH_LOG("len %u", len);
	}
	/* a negative length: the IP layer refuses it first */
	EXPECT_EQ(-1, getsockopt(self->fd, self->level, INC_SO_GRADIENT, &g,
				 (socklen_t *)&neg));
	EXPECT_EQ(EINVAL, errno);
	/* longer than needed: the struct, and its length */
	memset(big, 0x5a, sizeof(big));
	len = sizeof(big);
	ASSERT_EQ(0, getsockopt(self->fd, self->level, INC_SO_GRADIENT, big, &len));
	EXPECT_EQ(sizeof(g), len);
	memcpy(&g, big, sizeof(g));
	EXPECT_EQ(1, g.enable);
	EXPECT_EQ(11, g.k);
	EXPECT_EQ(INC_GRAD_MODE_PAPER, g.mode);
	EXPECT_EQ(0, g.flags);
	EXPECT_EQ(0x5a, (unsigned char)big[sizeof(g)]);
	/* bad pointers */
	len = sizeof(g);
	EXPECT_EQ(-1, getsockopt(self->fd, self->level, INC_SO_GRADIENT, NULL, &len));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, getsockopt(self->fd, self->level, INC_SO_GRADIENT, &g, NULL));
	EXPECT_EQ(EFAULT, errno);
}

/*
 * The other IP level: an IPv6 socket also answers at IPPROTO_IP (the IPv6
 * stack hands SOL_IP of TCP and UDP sockets to the IPv4 code), with the same
 * state; an IPv4 socket refuses IPPROTO_IPV6: ENOPROTOOPT to set,
 * EOPNOTSUPP to get (the IPv4 code's own answers).
 */
TEST_F(sk, other_level)
{
	struct inc_gradient g;

	if (variant->family == AF_INET6) {
		ASSERT_EQ(0, set_grad_at(self->fd, IPPROTO_IPV6, 1, 6,
					 INC_GRAD_MODE_SPARSE, 0));
		ASSERT_EQ(0, get_grad_at(self->fd, IPPROTO_IP, &g));
		EXPECT_EQ(1, g.enable);
		EXPECT_EQ(6, g.k);
		EXPECT_EQ(0, set_grad_at(self->fd, IPPROTO_IP, 1, 8,
					 INC_GRAD_MODE_PAPER, 0));
		EXPECT_EQ(0, grad_is(self->fd, 1, 8, INC_GRAD_MODE_PAPER));
	} else {
		EXPECT_EQ(ENOPROTOOPT, set_grad_at(self->fd, IPPROTO_IPV6, 1, 6,
						   INC_GRAD_MODE_SPARSE, 0));
		EXPECT_EQ(EOPNOTSUPP, get_grad_at(self->fd, IPPROTO_IPV6, &g));
		EXPECT_EQ(0, grad_is(self->fd, 0, 0, 0));
	}
	/* at another level altogether: not this option */
	EXPECT_EQ(ENOPROTOOPT, set_grad_at(self->fd, SOL_SOCKET + 1000, 1, 6,
					   INC_GRAD_MODE_SPARSE, 0));
}

/* no privilege needed: nobody marks its own socket */
TEST_F(sk, unprivileged)
{
	int status, other;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534) || geteuid() != 65534)
			_exit(10);
		fd = open_variant(variant->family, variant->type, &other);
		if (fd < 0)
			_exit(11);
		if (set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE))
			_exit(12);
		if (grad_is(fd, 1, 10, INC_GRAD_MODE_SPARSE))
			_exit(13);
		if (set_grad(fd, 1, 20, INC_GRAD_MODE_PAPER) ||
		    grad_is(fd, 1, 20, INC_GRAD_MODE_PAPER))
			_exit(14);
		if (set_grad(fd, 0, 0, 0) || grad_is(fd, 0, 0, 0))
			_exit(15);
		/* invalid arguments still refused */
		if (set_grad(fd, 1, 99, INC_GRAD_MODE_PAPER) != EINVAL)
			_exit(16);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* a child as user and group 65534 marks a new socket of the variant: 0 or errno */
static int try_as_nobody(int family, int type)
{
	int status, other;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(200);
		fd = open_variant(family, type, &other);
		if (fd < 0)
			_exit(201);
		_exit(set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Who may mark (net.inceptionn.mark_policy): 0 nobody, 1 members of
 * mark_gid and holders of CAP_NET_ADMIN, 2 everyone (the default).
 * Turning a mark off always works; a mark set before a stricter policy
 * stays until turned off.
 */
TEST_F(sk, policy)
{
	ASSERT_EQ(0, set_grad(self->fd, 1, 10, INC_GRAD_MODE_SPARSE));
	ASSERT_EQ(0, write_sysctl(POLICY, "0"));
	EXPECT_EQ(0, grad_is(self->fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(EPERM, set_grad(self->fd, 1, 12, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, set_grad(self->fd, 0, 0, 0));
	EXPECT_EQ(0, grad_is(self->fd, 0, 0, 0));
	EXPECT_EQ(EPERM, set_grad(self->fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(EPERM, try_as_nobody(variant->family, variant->type));

	ASSERT_EQ(0, write_sysctl(POLICY, "1"));
	ASSERT_EQ(0, write_sysctl(POLICY_GID, "1234"));
	EXPECT_EQ(0, set_grad(self->fd, 1, 10, INC_GRAD_MODE_SPARSE));	/* root */
	EXPECT_EQ(EPERM, try_as_nobody(variant->family, variant->type));
	ASSERT_EQ(0, write_sysctl(POLICY_GID, "65534"));
	EXPECT_EQ(0, try_as_nobody(variant->family, variant->type));

	EXPECT_EQ(EINVAL, write_sysctl(POLICY, "3"));
	EXPECT_EQ(EINVAL, write_sysctl(POLICY, "-1"));
	ASSERT_EQ(0, write_sysctl(POLICY, "2"));
	EXPECT_EQ(0, try_as_nobody(variant->family, variant->type));
}

/* ---- sockets the option does not apply to ------------------------------- */

struct kind {
	const char *name;
	int family, type, proto;
	/* errno of setsockopt and getsockopt at IPPROTO_IP, then IPPROTO_IPV6 */
	int set_ip, get_ip, set_ip6, get_ip6;
};

#define EOPN	EOPNOTSUPP
#define ENOPR	ENOPROTOOPT

/*
 * What Linux 6.1 answers: EOPNOTSUPP from the option itself when the IP
 * stack hands it the socket; otherwise whatever the stack says first.
 */
static const struct kind unsupported[] = {
	{ "raw4", AF_INET, SOCK_RAW, IPPROTO_UDP, EOPN, EOPN, 0, 0 },
	{ "raw4-icmp", AF_INET, SOCK_RAW, IPPROTO_ICMP, EOPN, EOPN, 0, 0 },
	/* the IPv6 stack hands SOL_IP on, except for raw sockets */
	{ "raw6", AF_INET6, SOCK_RAW, IPPROTO_UDP, ENOPR, ENOPR, EOPN, EOPN },
	{ "udplite4", AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE, EOPN, EOPN, 0, 0 },
	{ "udplite6", AF_INET6, SOCK_DGRAM, IPPROTO_UDPLITE, EOPN, EOPN, EOPN, EOPN },
	{ "ping4", AF_INET, SOCK_DGRAM, IPPROTO_ICMP, EOPN, EOPN, 0, 0 },
	{ "ping6", AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6, EOPN, EOPN, EOPN, EOPN },
	{ "sctp4", AF_INET, SOCK_STREAM, IPPROTO_SCTP, EOPN, EOPN, 0, 0 },
	{ "sctp6", AF_INET6, SOCK_SEQPACKET, IPPROTO_SCTP, EOPN, EOPN, EOPN, EOPN },
	/* MPTCP handles SOL_IP and SOL_IPV6 itself, never hands this on */
	{ "mptcp4", AF_INET, SOCK_STREAM, IPPROTO_MPTCP, ENOPR, EOPN, 0, 0 },
	{ "mptcp6", AF_INET6, SOCK_STREAM, IPPROTO_MPTCP, ENOPR, EOPN, ENOPR, EOPN },
	/* no setsockopt beyond SOL_SOCKET at all: the socket layer's EOPNOTSUPP */
	{ "unix-stream", AF_UNIX, SOCK_STREAM, 0, EOPN, EOPN, 0, 0 },
	{ "unix-dgram", AF_UNIX, SOCK_DGRAM, 0, EOPN, EOPN, 0, 0 },
	/* their own levels only */
	{ "packet", AF_PACKET, SOCK_DGRAM, 0, ENOPR, ENOPR, 0, 0 },
	{ "netlink", AF_NETLINK, SOCK_RAW, 0, ENOPR, ENOPR, 0, 0 },
};

TEST(unsupported_sockets)
{
	unsigned int i, tried = 0;

	for (i = 0; i < ARRAY_SIZE(unsupported); i++) {
		const struct kind *c = &unsupported[i];
		int lv, fd = socket(c->family, c->type, c->proto);
		struct inc_gradient g;

		if (fd < 0) {
			TH_LOG("%s: no such socket here (%s), not tried", c->name,
			       strerror(errno));
			continue;
		}
		tried++;
		/* both levels for AF_INET/AF_INET6, IPPROTO_IP for the others */
		for (lv = 0; lv < 2; lv++) {
			int level = lv ? IPPROTO_IPV6 : IPPROTO_IP;
			int set = lv ? c->set_ip6 : c->set_ip;
			int get = lv ? c->get_ip6 : c->get_ip;

			if (lv && c->family != AF_INET6)
				continue;
			EXPECT_EQ(set, set_grad_at(fd, level, 1, 10,
						   INC_GRAD_MODE_SPARSE, 0))
				TH_LOG("%s level %d set", c->name, level);
			EXPECT_EQ(set, set_grad_at(fd, level, 0, 0, 0, 0))
				TH_LOG("%s level %d set off", c->name, level);
			EXPECT_EQ(get, get_grad_at(fd, level, &g))
				TH_LOG("%s level %d get", c->name, level);
		}
		close(fd);
	}
	EXPECT_LE(8, tried);
}

static void tcp_listen_case(struct __test_metadata *_metadata, int family)
{
	int fd = tcp_listener(family, 0);

	ASSERT_LE(0, fd);
	EXPECT_EQ(EOPNOTSUPP, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, set_grad(fd, 0, 0, 0));
	EXPECT_EQ(0, grad_is(fd, 0, 0, 0));
	/* invalid arguments are refused before the socket's state matters */
	EXPECT_EQ(EINVAL, set_grad(fd, 1, 0, INC_GRAD_MODE_SPARSE));
	close(fd);
}

TEST(tcp_listening)
{
	tcp_listen_case(_metadata, AF_INET);
	tcp_listen_case(_metadata, AF_INET6);
}

static void tcp_unconnected_case(struct __test_metadata *_metadata, int family)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, lfd, port;

	/* fresh */
	fd = socket(family, SOCK_STREAM, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(ENOTCONN, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, set_grad(fd, 0, 0, 0));
	EXPECT_EQ(0, grad_is(fd, 0, 0, 0));
	/* bound */
	sl = loopback(family, 0, &ss);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&ss, sl));
	EXPECT_EQ(ENOTCONN, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	close(fd);

	/* a refused connection: back in CLOSE */
	lfd = tcp_listener(family, 0);
	ASSERT_LE(0, lfd);
	sl = sizeof(ss);
	ASSERT_EQ(0, getsockname(lfd, (struct sockaddr *)&ss, &sl));
	close(lfd);	/* nobody listens on that port now */
	port = ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					: ((struct sockaddr_in *)&ss)->sin_port);
	sl = loopback(family, port, &ss);
	fd = socket(family, SOCK_STREAM, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, connect(fd, (struct sockaddr *)&ss, sl));
	EXPECT_EQ(ECONNREFUSED, errno);
	EXPECT_EQ(ENOTCONN, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, grad_is(fd, 0, 0, 0));
	close(fd);
}

TEST(tcp_unconnected)
{
	tcp_unconnected_case(_metadata, AF_INET);
	tcp_unconnected_case(_metadata, AF_INET6);
}

/* a connection the peer closed (CLOSE_WAIT) can still be marked */
TEST(tcp_close_wait)
{
	int cli, srv;

	ASSERT_EQ(0, tcp_pair(AF_INET, &cli, &srv));
	close(srv);
	usleep(100000);
	EXPECT_EQ(0, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, grad_is(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	/* shut down for writing too: nothing more to mark */
	ASSERT_EQ(0, shutdown(cli, SHUT_WR));
	usleep(100000);
	EXPECT_EQ(0, set_grad(cli, 0, 0, 0));
	EXPECT_EQ(ENOTCONN, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	close(cli);
}

/*
 * kTLS: a socket with an upper-layer protocol cannot be marked (its bytes on
 * the wire are not the application's), and a mark set before the ULP came
 * goes off.
 */
TEST(tcp_ulp)
{
	int cli, srv;

	ASSERT_EQ(0, tcp_pair(AF_INET, &cli, &srv));
	ASSERT_EQ(0, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	if (setsockopt(cli, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls"))) {
		close(cli);
		close(srv);
		SKIP(return, "no kTLS here (%s)", strerror(errno));
	}
	EXPECT_EQ(0, grad_is(cli, 0, 0, 0));
	EXPECT_EQ(EOPNOTSUPP, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	/* turning it off always works */
	EXPECT_EQ(0, set_grad(cli, 0, 0, 0));
	EXPECT_EQ(0, grad_is(cli, 0, 0, 0));
	close(cli);
	close(srv);
}

/*
 * At most 64 runs per TCP socket that are not wholly acknowledged: the
 * receiver of a loopback connection does not read, its window closes, and
 * every run written after that stays unacknowledged.
 */
TEST(tcp_max_runs)
{
	static char bulk[65536];
	int lfd, cli, srv, sndbuf = 4 << 20, i, fl;
	long runs0 = dbg_counter("runs");
	char small[16] = { 0 };

	lfd = tcp_listener(AF_INET, 2048);
	ASSERT_LE(0, lfd);
	ASSERT_EQ(0, tcp_connect_to(lfd, &cli, &srv));
	close(lfd);
	ASSERT_EQ(0, setsockopt(cli, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
				sizeof(sndbuf)));
	fl = fcntl(cli, F_GETFL);
	ASSERT_EQ(0, fcntl(cli, F_SETFL, fl | O_NONBLOCK));
	/* more than the receiver's window: the rest waits unacknowledged */
	ASSERT_EQ((ssize_t)sizeof(bulk), write(cli, bulk, sizeof(bulk)));
	usleep(200000);
	for (i = 0; i < 64; i++) {
		ASSERT_EQ(0, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE))
			TH_LOG("run %d", i);
		ASSERT_EQ(8, write(cli, small, 8));
		ASSERT_EQ(0, set_grad(cli, 0, 0, 0));
		ASSERT_EQ(4, write(cli, small, 4));
	}
	if (runs0 >= 0)
		EXPECT_EQ(runs0 + 64, dbg_counter("runs"));
	EXPECT_EQ(ENOBUFS, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, grad_is(cli, 0, 0, 0));
	/* on at the end of the last run would continue it: still too many */
	EXPECT_EQ(ENOBUFS, set_grad(cli, 1, 11, INC_GRAD_MODE_PAPER));
	/* the receiver reads: everything is acknowledged, runs can go */
	fl = fcntl(srv, F_GETFL);
	ASSERT_EQ(0, fcntl(srv, F_SETFL, fl | O_NONBLOCK));
	for (i = 0; i < 500; i++) {
		int outq = -1;

		while (read(srv, bulk, sizeof(bulk)) > 0)
			;
		if (ioctl(cli, SIOCOUTQ, &outq) == 0 && outq == 0)
			break;
		usleep(10000);
	}
	EXPECT_EQ(0, tcp_wait_acked(cli, 2000));
	EXPECT_EQ(0, set_grad(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, grad_is(cli, 1, 10, INC_GRAD_MODE_SPARSE));
	if (runs0 >= 0)
		EXPECT_EQ(runs0 + 1, dbg_counter("runs"));
	close(cli);
	close(srv);
	if (runs0 >= 0)
		EXPECT_EQ(runs0, dbg_wait("runs", runs0, 5000));
}

/* ---- lifetime: entries go with their sockets ---------------------------- */

#define MANY_UDP	8000
#define MANY_TCP	1000	/* connections: both ends marked */

TEST_F_TIMEOUT(slow, many_sockets_freed, 180)
{
	static int fds[MANY_UDP + 2 * MANY_TCP];
	struct rlimit rl = { .rlim_cur = 30000, .rlim_max = 30000 };
	long s0, r0, v;
	int i, n = 0, lfd[2];

	if (dbg_counter("sockets") < 0)
		SKIP(return, "no " DBG_DIR "/sockets");
	/* sockets of the tests before may still be going */
	s0 = dbg_wait("sockets", 0, 5000);
	if (s0)
		TH_LOG("%ld marked sockets of other tests left", s0);
	r0 = dbg_counter("runs");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	for (i = 0; i < MANY_UDP; i++) {
		fds[n] = udp_socket(i & 1 ? AF_INET6 : AF_INET);
		ASSERT_LE(0, fds[n]) TH_LOG("udp socket %d: %s", i, strerror(errno));
		ASSERT_EQ(0, set_grad(fds[n], 1, 1 + i % 24,
				      i & 2 ? INC_GRAD_MODE_PAPER : INC_GRAD_MODE_SPARSE));
		n++;
	}
	lfd[0] = tcp_listener(AF_INET, 0);
	lfd[1] = tcp_listener(AF_INET6, 0);
	ASSERT_LE(0, lfd[0]);
	ASSERT_LE(0, lfd[1]);
	for (i = 0; i < MANY_TCP; i++) {
		ASSERT_EQ(0, tcp_connect_to(lfd[i & 1], &fds[n], &fds[n + 1]))
			TH_LOG("connection %d: %s", i, strerror(errno));
		ASSERT_EQ(0, set_grad(fds[n], 1, 10, INC_GRAD_MODE_SPARSE));
		ASSERT_EQ(0, set_grad(fds[n + 1], 1, 12, INC_GRAD_MODE_PAPER));
		n += 2;
	}
	close(lfd[0]);
	close(lfd[1]);
	EXPECT_EQ(s0 + n, dbg_counter("sockets"));
	if (r0 >= 0)
		EXPECT_EQ(r0 + 2 * MANY_TCP, dbg_counter("runs"));
	EXPECT_EQ(0, grad_is(fds[n - 1], 1, 12, INC_GRAD_MODE_PAPER));
	for (i = 0; i < n; i++)
		close(fds[i]);
	/* socket destruction may be deferred (RCU, TCP teardown): poll */
	v = dbg_wait("sockets", s0, 10000);
	EXPECT_EQ(s0, v);
	if (r0 >= 0)
		EXPECT_EQ(r0, dbg_wait("runs", r0, 1000));
	EXPECT_EQ(0, dbg_counter("stale"));
}

/* an address reused by a new socket never inherits a mark */
TEST(reused_socket_unmarked)
{
	int i, fd;

	for (i = 0; i < 200; i++) {
		fd = udp_socket(AF_INET);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, grad_is(fd, 0, 0, 0)) TH_LOG("socket %d", i);
		ASSERT_EQ(0, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
		close(fd);
	}
}

/* ---- marking frames on the NIC (the peer guest) ------------------------- */

static int udp_to_peer_case(struct __test_metadata *_metadata, int family)
{
	struct sockaddr_storage ss;
	socklen_t sl = peer_addr(family, 7701, &ss);
	long long m0, b0, m1, b1, p0, p1;
	int fd, r, i, fails = 0, last_err = 0;
	char buf[1024];
	float *f = (float *)buf;

	for (i = 0; i < (int)(sizeof(buf) / 4); i++)
		f[i] = (float)i / 1000.0f;
	fd = socket(family, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	m0 = eth_stat("drv_tx_marked");
	b0 = eth_stat("drv_tx_marked_bytes");
	p0 = eth_stat("drv_tx_plain_peer");
	if (m0 < 0 || b0 < 0) {
		close(fd);
		return -1;
	}
	for (r = 0; r < 40; r++) {
		EXPECT_EQ(0, set_grad(fd, 1, 4 + r % 16,
				      r & 1 ? INC_GRAD_MODE_PAPER : INC_GRAD_MODE_SPARSE))
			TH_LOG("round %d on", r);
		for (i = 0; i < 10; i++)
			if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&ss, sl) < 0)
				fails++, last_err = errno;
		EXPECT_EQ(0, set_grad(fd, 0, 0, 0)) TH_LOG("round %d off", r);
		for (i = 0; i < 10; i++)
			sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&ss, sl);
		/* too short to mark (under INC_MARK_MIN_LEN) while on */
		EXPECT_EQ(0, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
		sendto(fd, buf, 28, 0, (struct sockaddr *)&ss, sl);
		EXPECT_EQ(0, set_grad(fd, 0, 0, 0));
	}
	m1 = eth_stat("drv_tx_marked");
	b1 = eth_stat("drv_tx_marked_bytes");
	p1 = eth_stat("drv_tx_plain_peer");
	/* every marked datagram was handed to the stack */
	EXPECT_EQ(0, fails) TH_LOG("family %d: %d sends failed, the last with %s",
				   family, fails, strerror(last_err));
	EXPECT_EQ(0, p1 - p0) TH_LOG("family %d: sent plain to the peer", family);
	/* the datagrams sent while on, all of them, and only those */
	EXPECT_EQ(400, m1 - m0);
	EXPECT_EQ(400 * 1024, b1 - b0);
	close(fd);
	return 0;
}

TEST(udp_toggle_while_sending)
{
	if (udp_to_peer_case(_metadata, AF_INET))
		SKIP(return, "no " IFNAME " statistics");
	udp_to_peer_case(_metadata, AF_INET6);
}

struct sender {
	int fd;
	int stop;	/* __atomic */
	long sent;
};

static void *sender_thread(void *arg)
{
	struct sender *s = arg;
	struct sockaddr_storage ss;
	socklen_t sl = peer_addr(AF_INET, 7701, &ss);
	char buf[1024] = { 0 };

	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		if (sendto(s->fd, buf, sizeof(buf), 0, (struct sockaddr *)&ss, sl) > 0)
			__atomic_fetch_add(&s->sent, 1, __ATOMIC_RELAXED);
		usleep(500);
	}
	return NULL;
}

/* another thread sends all along: a change succeeds, or EAGAIN after 2 s */
TEST_F_TIMEOUT(slow, udp_toggle_concurrent_sender, 150)
{
	struct sender s = { .fd = socket(AF_INET, SOCK_DGRAM, 0) };
	int i, ok = 0, again = 0, on = 0;
	pthread_t th;

	ASSERT_LE(0, s.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, sender_thread, &s));
	/* 50 changes at least, and until the other thread sent 200 datagrams */
	for (i = 0; i < 50 || (__atomic_load_n(&s.sent, __ATOMIC_RELAXED) < 200 &&
			       i < 5000); i++) {
		int want = !(i & 1);
		int err = set_grad(s.fd, want, 10, INC_GRAD_MODE_SPARSE);

		if (err == 0) {
			ok++;
			on = want;
		} else {
			EXPECT_EQ(EAGAIN, err) TH_LOG("change %d: %s", i, strerror(err));
			again++;
		}
		EXPECT_EQ(0, grad_is(s.fd, on, on ? 10 : 0,
				     on ? INC_GRAD_MODE_SPARSE : 0));
		usleep(2000);
	}
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	TH_LOG("%d changes done, %d EAGAIN, %ld datagrams sent meanwhile", ok,
	       again, s.sent);
	EXPECT_LT(0, ok);
	EXPECT_LE(200, s.sent);
	close(s.fd);
}

/* a non-blocking UDP socket with nothing in flight changes at once */
TEST(udp_nonblocking)
{
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, set_grad(fd, 0, 0, 0));
	close(fd);
}

/* a corked datagram must be sent before a change: EBUSY */
TEST(udp_corked)
{
	int fd = udp_socket(AF_INET), one = 1, zero = 0;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char buf[64] = { 0 };

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, getsockname(fd, (struct sockaddr *)&ss, &sl));
	ASSERT_EQ(0, connect(fd, (struct sockaddr *)&ss, sl));
	ASSERT_EQ(0, setsockopt(fd, IPPROTO_UDP, UDP_CORK, &one, sizeof(one)));
	ASSERT_EQ((ssize_t)sizeof(buf), send(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(EBUSY, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, grad_is(fd, 0, 0, 0));
	ASSERT_EQ(0, setsockopt(fd, IPPROTO_UDP, UDP_CORK, &zero, sizeof(zero)));
	EXPECT_EQ(0, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	EXPECT_EQ(0, grad_is(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	close(fd);
}

/*
 * TCP to the peer's sink: bytes written with the mark off are never marked;
 * those written with it on are, in whole floats, up to a few bytes per
 * frame lost to the 4-byte grid.
 */
static void tcp_to_peer_case(struct __test_metadata *_metadata, int family,
			     int *skipped)
{
	static float data[65536];	/* 256 KiB */
	struct sockaddr_storage ss;
	socklen_t sl = peer_addr(family, SINK_PORT, &ss);
	long long m0, b0, m1, b1, f0, f1, r0, r1, mss;
	int fd, i;

	for (i = 0; i < 65536; i++)
		data[i] = (float)i * 1e-4f;
	fd = socket(family, SOCK_STREAM, 0);
	ASSERT_LE(0, fd);
	if (connect(fd, (struct sockaddr *)&ss, sl)) {
		*skipped = 1;
		close(fd);
		return;
	}
	m0 = eth_stat("drv_tx_marked");
	f0 = eth_stat("drv_tx_packets");
	write_all(fd, data, 65536);
	ASSERT_EQ(0, tcp_wait_acked(fd, 10000));
	EXPECT_EQ(m0, eth_stat("drv_tx_marked"));
	/* an odd number of bytes first: the run starts off the 4-byte grid */
	write_all(fd, data, 3);
	ASSERT_EQ(0, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE));
	m0 = eth_stat("drv_tx_marked");
	b0 = eth_stat("drv_tx_marked_bytes");
	f0 = eth_stat("drv_tx_packets");
	r0 = tcp_retrans(fd, &mss);
	ASSERT_LE(0, r0);
	write_all(fd, data, sizeof(data));
	ASSERT_EQ(0, set_grad(fd, 0, 0, 0));
	ASSERT_EQ(0, tcp_wait_acked(fd, 10000));
	m1 = eth_stat("drv_tx_marked");
	b1 = eth_stat("drv_tx_marked_bytes");
	f1 = eth_stat("drv_tx_packets");
	r1 = tcp_retrans(fd, &mss);
	TH_LOG("family %d: %lld frames marked, %lld bytes, of %lld frames; %lld segments retransmitted (MSS %lld)",
	       family, m1 - m0, b1 - b0, f1 - f0, r1 - r0, mss);
	EXPECT_LT(0, m1 - m0);
	EXPECT_LE(m1 - m0, f1 - f0);
	EXPECT_LE((long long)sizeof(data) * 9 / 10, b1 - b0);
	/*
	 * Each marked byte once, plus at most a segment for each segment TCP
	 * retransmitted (a retransmission is marked again; the simulated
	 * link drops a frame now and then when the receiving NIC runs late).
	 */
	EXPECT_GE((long long)sizeof(data) + (r1 - r0) * mss, b1 - b0);
	/* off again: nothing marked */
	write_all(fd, data, 65536);
	ASSERT_EQ(0, tcp_wait_acked(fd, 10000));
	EXPECT_EQ(m1, eth_stat("drv_tx_marked"));
	close(fd);
}

TEST_F_TIMEOUT(slow, tcp_to_peer, 90)
{
	int skipped = 0;

	if (eth_stat("drv_tx_marked") < 0)
		SKIP(return, "no " IFNAME " statistics");
	tcp_to_peer_case(_metadata, AF_INET, &skipped);
	if (skipped)
		SKIP(return, "no sink on the peer's port %d", SINK_PORT);
	tcp_to_peer_case(_metadata, AF_INET6, &skipped);
}

/* ---- --sink: the peer's TCP sink ---------------------------------------- */

static int sink_main(int port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_port = htons(port) };
	int lfd = socket(AF_INET6, SOCK_STREAM, 0), zero = 0, one = 1;
	static char buf[65536];

	signal(SIGCHLD, SIG_IGN);
	setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 64)) {
		perror("sink");
		return 1;
	}
	for (;;) {
		int c = accept(lfd, NULL, NULL);

		if (c < 0)
			continue;
		if (fork() == 0) {
			while (read(c, buf, sizeof(buf)) > 0)
				;
			_exit(0);
		}
		close(c);
	}
}

/* ---- --hold: sockets marked across a module reload ---------------------- */

/*
 * Commands on stdin, one a line; each answers "ok CMD" or "fail CMD: why"
 * lines, then "done CMD":
 *   (start)   mark every socket, check the settings       -> "done start"
 *   unloaded  the option is gone: ENOPROTOOPT, traffic still flows
 *   loaded    the module is back: every socket reads off (its state went
 *             with the old module), can be marked again, traffic flows
 *   quit      close everything, exit 0 when nothing failed
 */
#define HOLD_TCP	4	/* loopback connections: v4, v6, v4, v6 */
#define HOLD_UDP	4

static int hold_fails;

static void hold_check(const char *cmd, int ok, const char *what, int n)
{
	if (!ok) {
		hold_fails++;
		printf("fail %s: %s %d (errno %d)\n", cmd, what, n, errno);
		fflush(stdout);
	}
}

struct held {
	int cli[HOLD_TCP], srv[HOLD_TCP], udp[HOLD_UDP];
	int peer_udp;	/* sends to the peer through the NIC */
};

static void hold_traffic(struct held *h, const char *cmd)
{
	char buf[1024] = { 0 }, in[4096];
	struct sockaddr_storage ss;
	socklen_t sl;
	int i;

	for (i = 0; i < HOLD_TCP; i++) {
		ssize_t n;

		hold_check(cmd, write(h->cli[i], buf, sizeof(buf)) == sizeof(buf),
			   "tcp write", i);
		hold_check(cmd, write(h->srv[i], buf, 100) == 100, "tcp write back", i);
		n = recv(h->srv[i], in, sizeof(buf), MSG_WAITALL);
		hold_check(cmd, n == (ssize_t)sizeof(buf), "tcp read", i);
		n = recv(h->cli[i], in, 100, MSG_WAITALL);
		hold_check(cmd, n == 100, "tcp read back", i);
	}
	for (i = 0; i < HOLD_UDP; i++) {
		sl = sizeof(ss);
		getsockname(h->udp[i], (struct sockaddr *)&ss, &sl);
		hold_check(cmd, sendto(h->udp[i], buf, sizeof(buf), 0,
				       (struct sockaddr *)&ss, sl) == sizeof(buf),
			   "udp send", i);
		hold_check(cmd, recv(h->udp[i], in, sizeof(in), 0) == sizeof(buf),
			   "udp receive", i);
	}
	sl = peer_addr(AF_INET, 7701, &ss);
	for (i = 0; i < 20; i++)
		sendto(h->peer_udp, buf, sizeof(buf), 0, (struct sockaddr *)&ss, sl);
}

static void hold_all(struct held *h, void (*fn)(int fd, const char *cmd, int n),
		     const char *cmd)
{
	int i;

	for (i = 0; i < HOLD_TCP; i++) {
		fn(h->cli[i], cmd, i);
		fn(h->srv[i], cmd, 100 + i);
	}
	for (i = 0; i < HOLD_UDP; i++)
		fn(h->udp[i], cmd, 200 + i);
	fn(h->peer_udp, cmd, 300);
}

static void hold_mark(int fd, const char *cmd, int n)
{
	hold_check(cmd, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE) == 0, "set", n);
	hold_check(cmd, grad_is(fd, 1, 10, INC_GRAD_MODE_SPARSE) == 0, "get", n);
}

static void hold_gone(int fd, const char *cmd, int n)
{
	struct inc_gradient g;

	hold_check(cmd, set_grad(fd, 1, 10, INC_GRAD_MODE_SPARSE) == ENOPROTOOPT,
		   "set without the module", n);
	hold_check(cmd, set_grad(fd, 0, 0, 0) == ENOPROTOOPT,
		   "set off without the module", n);
	hold_check(cmd, get_grad_at(fd, level_of(sock_family(fd)), &g) == ENOPROTOOPT,
		   "get without the module", n);
}

static void hold_back(int fd, const char *cmd, int n)
{
	hold_check(cmd, grad_is(fd, 0, 0, 0) == 0, "off after reload", n);
	hold_mark(fd, cmd, n);
	hold_check(cmd, set_grad(fd, 0, 0, 0) == 0, "set off", n);
	hold_check(cmd, grad_is(fd, 0, 0, 0) == 0, "get off", n);
	hold_mark(fd, cmd, n);
}

static int hold_main(void)
{
	struct held h;
	char line[64];
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < HOLD_TCP; i++)
		if (tcp_pair(i & 1 ? AF_INET6 : AF_INET, &h.cli[i], &h.srv[i])) {
			printf("fail start: tcp pair %d\n", i);
			return 1;
		}
	for (i = 0; i < HOLD_UDP; i++) {
		h.udp[i] = udp_socket(i & 1 ? AF_INET6 : AF_INET);
		if (h.udp[i] < 0) {
			printf("fail start: udp %d\n", i);
			return 1;
		}
	}
	h.peer_udp = socket(AF_INET, SOCK_DGRAM, 0);
	hold_all(&h, hold_mark, "start");
	hold_traffic(&h, "start");
	printf("sockets %d\ndone start\n", 2 * HOLD_TCP + HOLD_UDP + 1);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "unloaded")) {
			hold_all(&h, hold_gone, line);
			hold_traffic(&h, line);
		} else if (!strcmp(line, "loaded")) {
			hold_all(&h, hold_back, line);
			hold_traffic(&h, line);
		} else if (strcmp(line, "quit")) {
			printf("fail %s: unknown command\n", line);
			hold_fails++;
		} else {
			break;
		}
		printf("done %s\n", line);
	}
	for (i = 0; i < HOLD_TCP; i++) {
		close(h.cli[i]);
		close(h.srv[i]);
	}
	for (i = 0; i < HOLD_UDP; i++)
		close(h.udp[i]);
	close(h.peer_udp);
	printf("done quit, %d failures\n", hold_fails);
	return hold_fails ? 1 : 0;
}

/* TEST_HARNESS_MAIN, with the two extra modes */
static void __attribute__((constructor)) order_last(void)
{
	if (!__constructor_order)
		__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--sink"))
		return sink_main(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "--hold"))
		return hold_main();
	return test_harness_run(argc, argv);
}
