// SPDX-License-Identifier: GPL-2.0
/*
 * Gradient marking: the socket option INC_SO_GRADIENT and, for each frame
 * the netdev sends, the byte range the NIC may compress
 * (docs/socket-option.md).
 *
 * State. One entry per marked socket in a hash table keyed by the socket's
 * address. The table never dereferences a socket: the transmit path looks up
 * skb->sk, which the skb keeps alive, and setsockopt/getsockopt run on a
 * socket the caller holds. An entry goes when its socket is destroyed: an
 * ftrace hook on inet_sock_destruct(), which every TCP and UDP socket (IPv4
 * and IPv6) passes through right before its memory is freed. Entries also
 * record the socket's cookie (unique per boot), and a lookup that finds an
 * entry with another cookie ignores it, so an address reused by a new socket
 * can never inherit a mark, even if a destruction were missed. Module exit
 * removes the hook and frees every entry; the sockets themselves were never
 * changed. Lookups on the transmit path are lockless (RCU); writers take
 * inc_mark_lock for the table and the socket lock for an entry's contents.
 *
 * TCP. A run is the stretch of the byte stream written while the mark was
 * on, from tp->write_seq when it went on to tp->write_seq when it went off
 * (both read under the socket lock, which tcp_sendmsg holds too). Positions
 * are 64-bit (inc_mark_range.h): snd_una's is tp->bytes_acked, so
 * runs never wrap. The runs are an immutable array replaced under RCU on
 * every change; those wholly acknowledged are dropped then. A frame's
 * range comes from the sequence number in its own TCP header only, so a
 * retransmission gets the same one.
 *
 * UDP. The setting is one word read per datagram. Changing it first waits
 * until the socket has no datagram left anywhere in the host (sk_wmem_alloc
 * back to 1): no datagram sent before the change is sent after it, and the
 * transmit path only marks datagrams that still charge their socket
 * (destructor sock_wfree), so none escaped that count.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jiffies.h>
#include <linux/netfilter.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sock_diag.h>
#include <linux/sysctl.h>
#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/sockptr.h>
#include <linux/spinlock.h>
#include <linux/tcp.h>
#include <linux/types.h>
#include <linux/udp.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <net/inet_connection_sock.h>
#include <net/ip.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <hw/inc_nic_regs.h>
#include <inceptionn/inceptionn.h>

#include "inc_mark.h"
#include "inc_mark_range.h"
#include "inc_parse.h"

/* runs of one TCP socket, the open one included */
#define INC_MARK_MAX_RUNS	64
/* longest wait for a UDP socket's datagrams to leave, and one step of it */
#define INC_MARK_UDP_DRAIN	(2 * HZ)
#define INC_MARK_UDP_STEP	(HZ / 50 + 1)
#define INC_MARK_HASH_BITS	10

/* a TCP socket's runs: never changed once published */
struct inc_mark_tcp {
	struct rcu_head rcu;
	u32 una_off;		/* snd_una - (u32)bytes_acked of its connection */
	u32 nr;
	struct inc_mark_run run[];
};

struct inc_mark_sk {
	struct hlist_node node;
	struct rcu_head rcu;
	const struct sock *sk;	/* the key: never dereferenced */
	u64 cookie;		/* the socket's cookie */
	u8 proto;		/* IPPROTO_TCP or IPPROTO_UDP */
	u32 udp;		/* UDP: inc_mark_udp_word() or 0 */
	struct inc_mark_tcp __rcu *tcp;
};

static DEFINE_HASHTABLE(inc_mark_tab, INC_MARK_HASH_BITS);
static DEFINE_SPINLOCK(inc_mark_lock);	/* table insertions and removals */
static bool inc_mark_live;
static atomic_t inc_mark_nr_sockets = ATOMIC_INIT(0);
static atomic_t inc_mark_nr_runs = ATOMIC_INIT(0);
static atomic_t inc_mark_nr_stale = ATOMIC_INIT(0);
static struct dentry *inc_mark_debugfs;

static u32 inc_mark_udp_word(u32 k, u32 mode)
{
	return 1 | k << 8 | mode << 16;
}

/* ---- the table ------------------------------------------------------- */

/*
 * Under rcu_read_lock() or inc_mark_lock: the bucket's chain holds entries
 * of other sockets, which may go at any time.
 */
static struct inc_mark_sk *inc_mark_find(const struct sock *sk)
{
	struct inc_mark_sk *e;

	hash_for_each_possible_rcu(inc_mark_tab, e, node, (unsigned long)sk)
		if (e->sk == sk)
			return e;
	return NULL;
}

/*
 * The entry of a socket the caller holds, under its lock: only calls on
 * that socket add or remove it, so it stays valid after the lookup.
 */
static struct inc_mark_sk *inc_mark_find_held(const struct sock *sk)
{
	struct inc_mark_sk *e;

	rcu_read_lock();
	e = inc_mark_find(sk);
	rcu_read_unlock();
	return e;
}

static u64 inc_mark_cookie(struct sock *sk)
{
	u32 c[2];

	sock_diag_save_cookie(sk, c);
	return (u64)c[1] << 32 | c[0];
}

/* Free an entry no longer in the table, once readers are done with it. */
static void inc_mark_free(struct inc_mark_sk *e)
{
	struct inc_mark_tcp *t = rcu_dereference_protected(e->tcp, 1);

	if (t) {
		atomic_sub(t->nr, &inc_mark_nr_runs);
		kfree_rcu(t, rcu);
	}
	kfree_rcu(e, rcu);
	atomic_dec(&inc_mark_nr_sockets);
}

static void inc_mark_unlink(struct inc_mark_sk *e)
{
	unsigned long flags;

	spin_lock_irqsave(&inc_mark_lock, flags);
	hash_del_rcu(&e->node);
	spin_unlock_irqrestore(&inc_mark_lock, flags);
	inc_mark_free(e);
}

static void inc_mark_insert(struct inc_mark_sk *e)
{
	unsigned long flags;

	atomic_inc(&inc_mark_nr_sockets);
	spin_lock_irqsave(&inc_mark_lock, flags);
	hash_add_rcu(inc_mark_tab, &e->node, (unsigned long)e->sk);
	spin_unlock_irqrestore(&inc_mark_lock, flags);
}

/*
 * The entry of a socket the caller holds, under its lock. An entry left by
 * a destroyed socket at the same address (a missed destruction) is dropped.
 */
static struct inc_mark_sk *inc_mark_own(struct sock *sk, u64 cookie)
{
	struct inc_mark_sk *e = inc_mark_find_held(sk);

	if (e && e->cookie != cookie) {
		atomic_inc(&inc_mark_nr_stale);
		inc_mark_unlink(e);
		e = NULL;
	}
	return e;
}

static struct inc_mark_sk *inc_mark_new(struct sock *sk, u64 cookie)
{
	struct inc_mark_sk *e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);

	if (e) {
		e->sk = sk;
		e->cookie = cookie;
		e->proto = sk->sk_protocol;
	}
	return e;
}

/*
 * The hooked function's first argument. Kernels whose ftrace passes the
 * argument registers to every callback (DYNAMIC_FTRACE_WITH_ARGS, 6.2 on)
 * have ftrace_regs_get_argument(); older ones need the callback to ask for
 * a full pt_regs (FTRACE_OPS_FL_SAVE_REGS, DYNAMIC_FTRACE_WITH_REGS).
 */
#ifdef ftrace_regs_get_argument
#define INC_MARK_FTRACE_FLAGS	0
static const struct sock *inc_mark_arg0(struct ftrace_regs *fregs)
{
	return (const struct sock *)ftrace_regs_get_argument(fregs, 0);
}
#else
#define INC_MARK_FTRACE_FLAGS	FTRACE_OPS_FL_SAVE_REGS
static const struct sock *inc_mark_arg0(struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	return regs ? (const struct sock *)regs_get_kernel_argument(regs, 0)
		    : NULL;
}
#endif

/*
 * Every TCP and UDP socket, IPv4 or IPv6, ends in inet_sock_destruct(sk),
 * from any context, once nothing refers to it any more: its entry goes.
 */
static void notrace inc_mark_destruct(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct inc_mark_sk *e = NULL;
	const struct sock *sk;
	unsigned long flags;

	if (!atomic_read(&inc_mark_nr_sockets))
		return;
	sk = inc_mark_arg0(fregs);
	if (!sk)
		return;
	rcu_read_lock();
	if (inc_mark_find(sk)) {
		spin_lock_irqsave(&inc_mark_lock, flags);
		e = inc_mark_find(sk);
		if (e)
			hash_del_rcu(&e->node);
		spin_unlock_irqrestore(&inc_mark_lock, flags);
	}
	rcu_read_unlock();
	if (e)
		inc_mark_free(e);
}

static struct ftrace_ops inc_mark_ftrace_ops = {
	.func = inc_mark_destruct,
	.flags = INC_MARK_FTRACE_FLAGS | FTRACE_OPS_FL_RECURSION |
		 FTRACE_OPS_FL_PERMANENT,
};

/* ---- who may mark: net.inceptionn.mark_policy, mark_gid ------------- */

enum { INC_MARK_NOBODY, INC_MARK_GROUP, INC_MARK_EVERYONE };

static int inc_mark_policy = INC_MARK_EVERYONE;
static unsigned int inc_mark_gid;
static int inc_mark_policy_max = INC_MARK_EVERYONE;
static struct ctl_table_header *inc_mark_sysctl;

static struct ctl_table inc_mark_sysctl_table[] = {
	{
		.procname	= "mark_policy",
		.data		= &inc_mark_policy,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &inc_mark_policy_max,
	},
	{
		.procname	= "mark_gid",
		.data		= &inc_mark_gid,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
	{ }
};

/* May the caller turn a mark on? (Turning it off is always allowed.) */
static int inc_mark_allowed(const struct sock *sk)
{
	switch (READ_ONCE(inc_mark_policy)) {
	case INC_MARK_EVERYONE:
		return 0;
	case INC_MARK_GROUP:
		if (ns_capable(sock_net(sk)->user_ns, CAP_NET_ADMIN) ||
		    in_group_p(make_kgid(&init_user_ns, READ_ONCE(inc_mark_gid))))
			return 0;
		return -EPERM;
	default:
		return -EPERM;
	}
}

/* ---- the socket option ---------------------------------------------- */

static bool inc_mark_sock_ok(const struct sock *sk)
{
	if (sk->sk_family != AF_INET && sk->sk_family != AF_INET6)
		return false;
	return (sk->sk_type == SOCK_STREAM && sk->sk_protocol == IPPROTO_TCP) ||
	       (sk->sk_type == SOCK_DGRAM && sk->sk_protocol == IPPROTO_UDP);
}

/* the byte-stream position of snd_una, and the connection's offset */
static void inc_mark_tcp_now(const struct tcp_sock *tp, u64 *acked,
			     u32 *una_off, u64 *written)
{
	*acked = tp->bytes_acked;
	*una_off = tp->snd_una - (u32)tp->bytes_acked;
	*written = tp->bytes_acked + (u32)(tp->write_seq - tp->snd_una);
}

static bool inc_mark_run_same(const struct inc_mark_run *r,
			      const struct inc_gradient *g)
{
	return r->k == g->k && r->mode == g->mode;
}

static int inc_mark_set_tcp(struct sock *sk, const struct inc_gradient *g)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct inc_mark_tcp *old = NULL, *t = NULL;
	struct inc_mark_sk *e, *fresh = NULL;
	u64 cookie = inc_mark_cookie(sk);
	u64 acked, written;
	struct inc_mark_run *last;
	unsigned int i, n;
	u32 una_off;
	int err = 0;

	lock_sock(sk);
	/* turning the mark off always works, whatever the socket became */
	if (g->enable && (sk->sk_state == TCP_LISTEN || tp->repair ||
			  inet_csk_has_ulp(sk))) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (g->enable && !((1 << sk->sk_state) & (TCPF_ESTABLISHED |
		TCPF_SYN_SENT | TCPF_SYN_RECV | TCPF_CLOSE_WAIT))) {
		err = -ENOTCONN;
		goto out;
	}
	/* TCP_FASTOPEN_CONNECT: snd_una is not set until the first write */
	if (g->enable && sk->sk_state == TCP_SYN_SENT &&
	    inet_sk(sk)->defer_connect) {
		err = -ENOTCONN;
		goto out;
	}
	inc_mark_tcp_now(tp, &acked, &una_off, &written);
	e = inc_mark_own(sk, cookie);
	if (e)
		old = rcu_dereference_protected(e->tcp, lockdep_sock_is_held(sk));
	if (old && old->una_off != una_off)
		old = NULL;	/* runs of an earlier connection */
	if (!e && !g->enable)
		goto out;

	n = old ? old->nr : 0;
	/*
	 * Turning the mark off must not fail: what the application writes
	 * next may be headers. The array is small (INC_MARK_MAX_RUNS runs).
	 */
	t = kmalloc(struct_size(t, run, n + 1), g->enable ? GFP_KERNEL_ACCOUNT :
		    GFP_KERNEL_ACCOUNT | __GFP_NOFAIL);
	if (!t) {
		err = -ENOMEM;
		goto out;
	}
	t->una_off = una_off;
	t->nr = 0;
	/* the runs still needed: open, or not wholly acknowledged */
	for (i = 0; i < n; i++)
		if (old->run[i].end > acked)
			t->run[t->nr++] = old->run[i];

	last = t->nr ? &t->run[t->nr - 1] : NULL;
	if (last && last->end == INC_MARK_OPEN) {
		if (g->enable && inc_mark_run_same(last, g))
			goto publish;	/* on already, same setting */
		last->end = written;
		if (last->end == last->start)
			t->nr--;
		last = t->nr ? &t->run[t->nr - 1] : NULL;
	}
	if (g->enable) {
		if (last && last->end == written && inc_mark_run_same(last, g) &&
		    !((last->end - last->start) & 3)) {
			last->end = INC_MARK_OPEN;	/* continues that run */
		} else if (t->nr >= INC_MARK_MAX_RUNS) {
			err = -ENOBUFS;
			goto out;
		} else {
			t->run[t->nr].start = written;
			t->run[t->nr].end = INC_MARK_OPEN;
			t->run[t->nr].k = g->k;
			t->run[t->nr].mode = g->mode;
			t->nr++;
		}
	}

publish:
	if (!t->nr) {
		if (e)
			inc_mark_unlink(e);
		goto out;
	}
	if (!e) {
		fresh = inc_mark_new(sk, cookie);
		if (!fresh) {
			err = -ENOMEM;
			goto out;
		}
		e = fresh;
	}
	old = rcu_dereference_protected(e->tcp, lockdep_sock_is_held(sk));
	atomic_add(t->nr, &inc_mark_nr_runs);
	rcu_assign_pointer(e->tcp, t);
	t = NULL;
	if (old) {
		atomic_sub(old->nr, &inc_mark_nr_runs);
		kfree_rcu(old, rcu);
	}
	if (fresh)
		inc_mark_insert(fresh);
out:
	release_sock(sk);
	kfree(t);
	return err;
}

static void inc_mark_get_tcp(struct sock *sk, struct inc_gradient *g)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct inc_mark_run *last;
	const struct inc_mark_tcp *t;
	struct inc_mark_sk *e;
	u64 acked, written;
	u32 una_off;

	lock_sock(sk);
	inc_mark_tcp_now(tp, &acked, &una_off, &written);
	e = inc_mark_find_held(sk);
	if (e && e->cookie == inc_mark_cookie(sk) && !inet_csk_has_ulp(sk)) {
		t = rcu_dereference_protected(e->tcp, lockdep_sock_is_held(sk));
		last = t && t->una_off == una_off ? &t->run[t->nr - 1] : NULL;
		if (last && last->end == INC_MARK_OPEN) {
			g->enable = 1;
			g->k = last->k;
			g->mode = last->mode;
		}
	}
	release_sock(sk);
}

/*
 * Wait, without the socket lock, until no datagram of the socket is left in
 * the host. 0, -EAGAIN (non-blocking socket, or still some after
 * min(SO_SNDTIMEO, INC_MARK_UDP_DRAIN)) or -EINTR.
 */
static int inc_mark_udp_drain(struct sock *sk)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct socket *sock = sk->sk_socket;
	bool nonblock = sock && sock->file &&
			(READ_ONCE(sock->file->f_flags) & O_NONBLOCK);
	long timeo = nonblock ? 0 : min_t(long, READ_ONCE(sk->sk_sndtimeo),
					  INC_MARK_UDP_DRAIN);
	unsigned long end = jiffies + timeo;
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (refcount_read(&sk->sk_wmem_alloc) > 1) {
		long left = (long)(end - jiffies);

		if (left <= 0) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = -EINTR;
			break;
		}
		release_sock(sk);
		/* sock_wfree() wakes us; the step only bounds a lost wakeup */
		wait_woken(&wait, TASK_INTERRUPTIBLE,
			   min_t(long, left, INC_MARK_UDP_STEP));
		lock_sock(sk);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

static int inc_mark_set_udp(struct sock *sk, const struct inc_gradient *g)
{
	u32 want = g->enable ? inc_mark_udp_word(g->k, g->mode) : 0;
	u64 cookie = inc_mark_cookie(sk);
	struct inc_mark_sk *e, *fresh = NULL;
	int err;

	if (want) {
		fresh = inc_mark_new(sk, cookie);
		if (!fresh)
			return -ENOMEM;
	}
	lock_sock(sk);
	e = inc_mark_own(sk, cookie);
	if ((e ? e->udp : 0) == want) {
		err = 0;
		goto out;
	}
	if (want && READ_ONCE(udp_sk(sk)->encap_type)) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (READ_ONCE(udp_sk(sk)->pending)) {
		err = -EBUSY;	/* a corked datagram: send it first */
		goto out;
	}
	err = inc_mark_udp_drain(sk);
	if (!err && READ_ONCE(udp_sk(sk)->pending))
		err = -EBUSY;	/* corked by another thread meanwhile */
	if (err)
		goto out;
	/* the lock was dropped while waiting: look again */
	e = inc_mark_own(sk, cookie);
	if (!want) {
		if (e)
			inc_mark_unlink(e);
	} else if (e) {
		WRITE_ONCE(e->udp, want);
	} else {
		fresh->udp = want;
		inc_mark_insert(fresh);
		fresh = NULL;
	}
out:
	release_sock(sk);
	kfree(fresh);
	return err;
}

static void inc_mark_get_udp(struct sock *sk, struct inc_gradient *g)
{
	struct inc_mark_sk *e;
	u32 w = 0;

	lock_sock(sk);
	e = inc_mark_find_held(sk);
	if (e && e->cookie == inc_mark_cookie(sk))
		w = e->udp;
	release_sock(sk);
	if (w) {
		g->enable = 1;
		g->k = (w >> 8) & 0xff;
		g->mode = (w >> 16) & 0xff;
	}
}

static int inc_mark_setsockopt(struct sock *sk, int optval, sockptr_t arg,
			       unsigned int len)
{
	struct inc_gradient g;

	if (!inc_mark_sock_ok(sk))
		return -EOPNOTSUPP;
	if (len != sizeof(g))
		return -EINVAL;
	if (copy_from_sockptr(&g, arg, sizeof(g)))
		return -EFAULT;
	if (g.flags || g.enable > 1)
		return -EINVAL;
	if (g.enable && (g.k < INC_GRAD_K_MIN || g.k > INC_GRAD_K_MAX ||
			 (g.mode != INC_GRAD_MODE_PAPER &&
			  g.mode != INC_GRAD_MODE_SPARSE &&
			  g.mode != INC_GRAD_MODE_WIDTH)))
		return -EINVAL;
	if (g.enable) {
		int err = inc_mark_allowed(sk);

		if (err)
			return err;
	}
	if (sk->sk_protocol == IPPROTO_TCP)
		return inc_mark_set_tcp(sk, &g);
	return inc_mark_set_udp(sk, &g);
}

static int inc_mark_getsockopt(struct sock *sk, int optval, void __user *user,
			       int *len)
{
	struct inc_gradient g = {};

	if (!inc_mark_sock_ok(sk))
		return -EOPNOTSUPP;
	if (*len < (int)sizeof(g))
		return -EINVAL;
	if (sk->sk_protocol == IPPROTO_TCP)
		inc_mark_get_tcp(sk, &g);
	else
		inc_mark_get_udp(sk, &g);
	if (copy_to_user(user, &g, sizeof(g)))
		return -EFAULT;
	*len = sizeof(g);
	return 0;
}

static struct nf_sockopt_ops inc_mark_sockopt4 = {
	.pf = PF_INET,
	.set_optmin = INC_SO_GRADIENT,
	.set_optmax = INC_SO_GRADIENT + 1,
	.set = inc_mark_setsockopt,
	.get_optmin = INC_SO_GRADIENT,
	.get_optmax = INC_SO_GRADIENT + 1,
	.get = inc_mark_getsockopt,
	.owner = THIS_MODULE,
};

static struct nf_sockopt_ops inc_mark_sockopt6 = {
	.pf = PF_INET6,
	.set_optmin = INC_SO_GRADIENT,
	.set_optmax = INC_SO_GRADIENT + 1,
	.set = inc_mark_setsockopt,
	.get_optmin = INC_SO_GRADIENT,
	.get_optmax = INC_SO_GRADIENT + 1,
	.get = inc_mark_getsockopt,
	.owner = THIS_MODULE,
};

/* ---- frames ---------------------------------------------------------- */

/* A TCP option the payload must not change under: MD5 (19), AO (29). */
static bool inc_mark_tcp_signed(const struct sk_buff *skb, unsigned int off,
				unsigned int len)
{
	u8 _opt[40];
	const u8 *opt = skb_header_pointer(skb, off, len, _opt);
	unsigned int i = 0;

	if (!opt)
		return true;
	while (i < len) {
		if (opt[i] == TCPOPT_EOL)
			break;
		if (opt[i] == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (opt[i] == 19 || opt[i] == 29)
			return true;
		if (i + 1 >= len || opt[i + 1] < 2)
			break;
		i += opt[i + 1];
	}
	return false;
}

static bool inc_mark_tcp_frame(const struct sk_buff *skb,
			       const struct inc_l3 *l4, struct sock *sk,
			       const struct inc_mark_sk *e,
			       struct inc_mark_pick *pick)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct inc_mark_tcp *t = rcu_dereference(e->tcp);
	struct tcphdr _th;
	const struct tcphdr *th;
	unsigned int hl;
	u64 acked, acked2, pos;
	u32 una;

	/* an upper layer (kTLS) writes other bytes than the application's */
	if (inet_csk_has_ulp(sk))
		return false;
	th = skb_header_pointer(skb, l4->l4_off, sizeof(_th), &_th);
	if (!t || !th || th->rst || th->doff < 5)
		return false;
	hl = th->doff * 4;
	if (hl >= l4->l4_len || th->source != inet_sk(sk)->inet_sport ||
	    th->dest != inet_sk(sk)->inet_dport)
		return false;
	if (hl > sizeof(*th) &&
	    inc_mark_tcp_signed(skb, l4->l4_off + sizeof(*th), hl - sizeof(*th)))
		return false;
	/* snd_una and its position, consistent with each other */
	acked = READ_ONCE(tp->bytes_acked);
	una = READ_ONCE(tp->snd_una);
	acked2 = READ_ONCE(tp->bytes_acked);
	if (acked != acked2 || (u32)acked + t->una_off != una)
		return false;
	if (!inc_mark_seq_pos(acked, una, ntohl(th->seq) + th->syn, &pos))
		return false;
	return inc_mark_pick(t->run, t->nr, pos, l4->l4_len - hl,
			     INC_MARK_MIN_LEN, pick);
}

static bool inc_mark_udp_frame(const struct sk_buff *skb,
			       const struct inc_l3 *l4, struct sock *sk,
			       const struct inc_mark_sk *e,
			       struct inc_mark_pick *pick)
{
	u32 w = READ_ONCE(e->udp);
	struct udphdr _uh;
	const struct udphdr *uh;

	/* still charged to the socket: inc_mark_udp_drain() counted it */
	if (!w || skb->destructor != sock_wfree ||
	    READ_ONCE(udp_sk(sk)->encap_type))
		return false;
	uh = skb_header_pointer(skb, l4->l4_off, sizeof(_uh), &_uh);
	if (!uh || ntohs(uh->len) != l4->l4_len || l4->l4_len < sizeof(*uh) ||
	    uh->source != inet_sk(sk)->inet_sport)
		return false;
	/* a connected socket: its peer's port too */
	if (inet_sk(sk)->inet_dport && uh->dest != inet_sk(sk)->inet_dport)
		return false;
	if (!inc_mark_pick_dgram(l4->l4_len - sizeof(*uh), INC_MARK_MIN_LEN, pick))
		return false;
	pick->k = (w >> 8) & 0xff;
	pick->mode = (w >> 16) & 0xff;
	return true;
}

bool inc_mark_frame(const struct sk_buff *skb, struct inc_mark *m)
{
	struct sock *sk = skb->sk;
	const struct inc_mark_sk *e;
	struct inc_mark_pick pick;
	const __be16 *type;
	__be16 _type;
	bool ok = false;

	if (!atomic_read(&inc_mark_nr_sockets) || !READ_ONCE(inc_mark_live) ||
	    !sk || !sk_fullsock(sk))
		return false;
	/*
	 * A tunnel's packet (VXLAN, Geneve, IPIP... over this NIC) may still
	 * carry the socket of the application inside it, and its outer
	 * header can look like that socket's own; so may a frame of a socket
	 * in another namespace forwarded here (veth, bridge). Only frames the
	 * socket sent itself, in this device's namespace, are marked.
	 */
	if (skb->encapsulation || skb->inner_protocol ||
	    !net_eq(sock_net(sk), dev_net(skb->dev)))
		return false;
	type = skb_header_pointer(skb, ETH_HLEN - 2, 2, &_type);
	if (!type || !inc_parse_l3(skb, ETH_HLEN, *type, &m->l3))
		return false;
	if (m->l3.proto != sk->sk_protocol || !inc_mark_sock_ok(sk) ||
	    (!m->l3.v4 && sk->sk_family != AF_INET6))
		return false;

	rcu_read_lock();
	e = inc_mark_find(sk);
	if (!e || e->cookie != (u64)atomic64_read(&sk->sk_cookie))
		goto out;
	if (m->l3.proto == IPPROTO_TCP)
		ok = inc_mark_tcp_frame(skb, &m->l3, sk, e, &pick);
	else
		ok = inc_mark_udp_frame(skb, &m->l3, sk, e, &pick);
out:
	rcu_read_unlock();
	if (!ok || pick.off > U16_MAX || pick.len > U16_MAX)
		return false;
	m->k = pick.k;
	m->mode = pick.mode;
	m->range_off = pick.off;
	m->range_len = pick.len;
	/* RTO retransmissions of the oldest unacknowledged segment */
	m->retrans = m->l3.proto == IPPROTO_TCP ?
		     READ_ONCE(inet_csk(sk)->icsk_retransmits) : 0;
	return true;
}

/* ---- module ---------------------------------------------------------- */

int inc_mark_init(void)
{
	static unsigned char fn[] = "inet_sock_destruct";
	int err;

	BUILD_BUG_ON(INC_GRAD_MODE_PAPER != INC_MODE_PAPER);
	BUILD_BUG_ON(INC_GRAD_MODE_SPARSE != INC_MODE_SPARSE);
	BUILD_BUG_ON(INC_GRAD_MODE_WIDTH != INC_MODE_WIDTH);

	WRITE_ONCE(inc_mark_live, true);
	/* the destruction hook first: no entry may exist without it */
	err = ftrace_set_filter(&inc_mark_ftrace_ops, fn, strlen(fn), 1);
	if (!err) {
		err = register_ftrace_function(&inc_mark_ftrace_ops);
		if (err)
			ftrace_free_filter(&inc_mark_ftrace_ops);
	}
	if (err) {
		pr_warn("inceptionn: cannot hook %s (%d): the gradient socket option needs a kernel with CONFIG_DYNAMIC_FTRACE_WITH_REGS or _WITH_ARGS (docs/socket-option.md)\n",
			fn, err);
		goto err_live;
	}
	inc_mark_sysctl = register_sysctl("net/inceptionn", inc_mark_sysctl_table);
	if (!inc_mark_sysctl) {
		err = -ENOMEM;
		goto err_ftrace;
	}
	err = nf_register_sockopt(&inc_mark_sockopt4);
	if (err)
		goto err_sysctl;
	err = nf_register_sockopt(&inc_mark_sockopt6);
	if (err)
		goto err_sockopt4;

	inc_mark_debugfs = debugfs_create_dir("inceptionn-mark", NULL);
	debugfs_create_atomic_t("sockets", 0444, inc_mark_debugfs,
				&inc_mark_nr_sockets);
	debugfs_create_atomic_t("runs", 0444, inc_mark_debugfs,
				&inc_mark_nr_runs);
	debugfs_create_atomic_t("stale", 0444, inc_mark_debugfs,
				&inc_mark_nr_stale);
	return 0;

err_sockopt4:
	nf_unregister_sockopt(&inc_mark_sockopt4);
err_sysctl:
	unregister_sysctl_table(inc_mark_sysctl);
err_ftrace:
	unregister_ftrace_function(&inc_mark_ftrace_ops);
	ftrace_free_filter(&inc_mark_ftrace_ops);
err_live:
	WRITE_ONCE(inc_mark_live, false);
	return err;
}

void inc_mark_exit(void)
{
	struct inc_mark_sk *e;
	struct hlist_node *tmp;
	int bkt;

	debugfs_remove_recursive(inc_mark_debugfs);
	WRITE_ONCE(inc_mark_live, false);
	/* no setsockopt/getsockopt can be running: they hold the module */
	nf_unregister_sockopt(&inc_mark_sockopt6);
	nf_unregister_sockopt(&inc_mark_sockopt4);
	unregister_sysctl_table(inc_mark_sysctl);
	/* returns once no destruction hook runs any more */
	unregister_ftrace_function(&inc_mark_ftrace_ops);
	ftrace_free_filter(&inc_mark_ftrace_ops);
	/* and no inc_mark_frame() that saw inc_mark_live */
	synchronize_rcu();
	hash_for_each_safe(inc_mark_tab, bkt, tmp, e, node) {
		hash_del_rcu(&e->node);
		inc_mark_free(e);
	}
	/* the kfree_rcu() callbacks are not module code: no rcu_barrier() */
}
