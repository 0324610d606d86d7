// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: ethtool. Driver info with the NIC's version, link
 * settings, a register dump, ring sizes, the NIC's counters (compression
 * included) and the driver's, the standard MAC statistics, interrupt
 * coalescing, a reset of the NIC or of its management firmware.
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

#include "inc.h"

#define INC_HW_STAT_NAME(n, name) \
	[n] = #name,
static const char inc_hw_stat_names[INC_ST_N][ETH_GSTRING_LEN] = {
	INC_STATS_LIST(INC_HW_STAT_NAME)
};

#define INC_SW_STAT(name) { "drv_" #name, offsetof(struct inc_sw_stats, name) }
static const struct {
	char name[ETH_GSTRING_LEN];
	size_t off;
} inc_sw_stat_desc[] = {
	INC_SW_STAT(tx_packets), INC_SW_STAT(tx_bytes),
	INC_SW_STAT(tx_errors), INC_SW_STAT(tx_dropped),
	INC_SW_STAT(tx_marked), INC_SW_STAT(tx_marked_bytes),
	INC_SW_STAT(tx_compressed), INC_SW_STAT(tx_plain_peer),
	INC_SW_STAT(tx_plain_retrans), INC_SW_STAT(tx_plain_feature),
	INC_SW_STAT(rx_packets), INC_SW_STAT(rx_bytes),
	INC_SW_STAT(rx_dropped), INC_SW_STAT(rx_errors),
	INC_SW_STAT(rx_restored),
};

static void inc_get_drvinfo(struct net_device *ndev,
			    struct ethtool_drvinfo *info)
{
	struct inc_priv *p = netdev_priv(ndev);

	strscpy(info->driver, INC_DRV_NAME, sizeof(info->driver));
	strscpy(info->version, INC_DRV_VERSION, sizeof(info->version));
	/* the management firmware's (the NIC's own: devlink dev info) */
	inc_fw_version_str(p, info->fw_version, sizeof(info->fw_version));
	strscpy(info->bus_info, pci_name(p->pdev), sizeof(info->bus_info));
}

/*
 * The link's speed comes from the NIC (LINK_SPEED, when its feature bit
 * says the register exists); the MAC is not configurable from here.
 */
static int inc_get_link_ksettings(struct net_device *ndev,
				  struct ethtool_link_ksettings *ks)
{
	struct inc_priv *p = netdev_priv(ndev);
	u32 speed = 0;

	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	if ((p->features & INC_FEAT_LINK_SPEED) && netif_carrier_ok(ndev)) {
		speed = inc_rd(p, INC_LINK_SPEED);
		if (speed == ~0u)
			speed = 0;
	}
	ks->base.speed = speed ? speed : SPEED_UNKNOWN;
	ks->base.duplex = netif_carrier_ok(ndev) ? DUPLEX_FULL : DUPLEX_UNKNOWN;
	ks->base.port = PORT_OTHER;
	ks->base.autoneg = AUTONEG_DISABLE;
	return 0;
}

/*
 * ethtool -d: the register blocks of docs/regmap.md as (offset, value)
 * pairs, so that the dump describes itself. version = the NIC's VERSION.
 */
static const u16 inc_dump_regs[] = {
	INC_MAGIC, INC_VERSION, INC_FEATURES, INC_CONFIG, INC_SCRATCH,
	INC_BUILD,
	INC_CTRL, INC_STATUS, INC_MAC_LO, INC_MAC_HI, INC_MAX_FRAME,
	INC_TXQ + INC_Q_BASE_LO, INC_TXQ + INC_Q_BASE_HI, INC_TXQ + INC_Q_SIZE,
	INC_TXQ + INC_Q_PROD, INC_TXQ + INC_Q_CONS,
	INC_RXQ + INC_Q_BASE_LO, INC_RXQ + INC_Q_BASE_HI, INC_RXQ + INC_Q_SIZE,
	INC_RXQ + INC_Q_PROD, INC_RXQ + INC_Q_CONS,
	INC_IRQ_STATUS, INC_IRQ_ENABLE, INC_IRQ_COAL_TX, INC_IRQ_COAL_RX,
};

/* the management block (register map 1.4), when FEATURES has MGMT */
static const u16 inc_dump_regs_mgmt[] = {
	INC_MGMT_CTRL, INC_FW_STATUS, INC_FW_VERSION, INC_FW_HEARTBEAT,
	INC_FW_SELFTEST, INC_MBOX_STATUS, INC_MGMT_EVENT,
};

static unsigned int inc_dump_n(const struct inc_priv *p)
{
	return ARRAY_SIZE(inc_dump_regs) +
	       (p->features & INC_FEAT_MGMT ? ARRAY_SIZE(inc_dump_regs_mgmt) : 0);
}

static int inc_get_regs_len(struct net_device *ndev)
{
	return inc_dump_n(netdev_priv(ndev)) * 2 * sizeof(u32);
}

static void inc_get_regs(struct net_device *ndev, struct ethtool_regs *regs,
			 void *buf)
{
	struct inc_priv *p = netdev_priv(ndev);
	u32 *out = buf;
	unsigned int i;

	regs->version = p->version;
	for (i = 0; i < inc_dump_n(p); i++) {
		u16 off = i < ARRAY_SIZE(inc_dump_regs) ? inc_dump_regs[i] :
			  inc_dump_regs_mgmt[i - ARRAY_SIZE(inc_dump_regs)];

		*out++ = off;
		*out++ = inc_rd(p, off);
	}
}

/* ethtool -t: the firmware's self-test (inc_fw_selftest) */
static const char inc_test_names[INC_FW_TESTS][ETH_GSTRING_LEN] = {
	"fw mailbox (0 ok)",
	"codec sets not run",
	"codec sets failed",
};

static void inc_self_test(struct net_device *ndev, struct ethtool_test *t,
			  u64 *data)
{
	if (inc_fw_selftest(netdev_priv(ndev), data))
		t->flags |= ETH_TEST_FL_FAILED;
}

static int inc_get_sset_count(struct net_device *ndev, int sset)
{
	struct inc_priv *p = netdev_priv(ndev);

	if (sset == ETH_SS_TEST && (p->features & INC_FEAT_MGMT))
		return INC_FW_TESTS;
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return INC_ST_N + ARRAY_SIZE(inc_sw_stat_desc);
}

static void inc_get_strings(struct net_device *ndev, u32 sset, u8 *data)
{
	unsigned int i;

	if (sset == ETH_SS_TEST) {
		memcpy(data, inc_test_names, sizeof(inc_test_names));
		return;
	}
	if (sset != ETH_SS_STATS)
		return;
	memcpy(data, inc_hw_stat_names, sizeof(inc_hw_stat_names));
	data += sizeof(inc_hw_stat_names);
	for (i = 0; i < ARRAY_SIZE(inc_sw_stat_desc); i++, data += ETH_GSTRING_LEN)
		memcpy(data, inc_sw_stat_desc[i].name, ETH_GSTRING_LEN);
}

static void inc_get_ethtool_stats(struct net_device *ndev,
				  struct ethtool_stats *stats, u64 *data)
{
	struct inc_priv *p = netdev_priv(ndev);
	struct inc_sw_stats sum;
	unsigned int i;

	/*
	 * the firmware's STATS_SNAPSHOT while it runs: every counter of
	 * one clock; else each counter's two words in turn
	 */
	if (inc_fw_stats(p, data))
		for (i = 0; i < INC_ST_N; i++)
			data[i] = inc_read_stat(p, i);
	data += INC_ST_N;
	inc_sw_stats_sum(p, &sum);
	for (i = 0; i < ARRAY_SIZE(inc_sw_stat_desc); i++)
		*data++ = *(u64 *)((u8 *)&sum + inc_sw_stat_desc[i].off);
}

/*
 * ethtool -S DEV --groups eth-mac: the IEEE 802.3 counters the NIC's own
 * give exactly. Not given: OctetsReceivedOK and FrameCheckSequenceErrors
 * (rx_bytes includes frames later dropped with a MAC error, and
 * rx_drop_mac counts FCS errors and frames over MAX_FRAME together).
 */
static void inc_get_eth_mac_stats(struct net_device *ndev,
				  struct ethtool_eth_mac_stats *s)
{
	struct inc_priv *p = netdev_priv(ndev);

	s->FramesTransmittedOK = inc_read_stat(p, INC_ST_TX_FRAMES);
	s->OctetsTransmittedOK = inc_read_stat(p, INC_ST_TX_BYTES);
	s->FramesReceivedOK = inc_read_stat(p, INC_ST_RX_FRAMES) -
			      inc_read_stat(p, INC_ST_RX_DROP_MAC);
}

/*
 * ethtool --reset DEV dedicated (or all): a reset of the NIC, which halts
 * its management core (the firmware boots again); mgmt alone: the
 * firmware booted again, the datapath untouched. Under RTNL.
 */
static int inc_reset(struct net_device *ndev, u32 *flags)
{
	struct inc_priv *p = netdev_priv(ndev);
	int err;

	if ((*flags & ETH_RESET_DEDICATED) == ETH_RESET_DEDICATED) {
		err = inc_reset_locked(p);
		if (err)
			return err;
		*flags &= ~ETH_RESET_DEDICATED;
		return 0;
	}
	if (*flags & ETH_RESET_MGMT) {
		err = inc_fw_restart(p);
		if (err)
			return err;
		*flags &= ~ETH_RESET_MGMT;
	}
	return 0;
}

static void inc_get_ringparam(struct net_device *ndev,
			      struct ethtool_ringparam *ring,
			      struct kernel_ethtool_ringparam *kring,
			      struct netlink_ext_ack *extack)
{
	struct inc_priv *p = netdev_priv(ndev);

	ring->rx_max_pending = INC_RING_MAX;
	ring->tx_max_pending = INC_RING_MAX;
	ring->rx_pending = p->rx_size;
	ring->tx_pending = p->tx_size;
}

static int inc_set_ringparam(struct net_device *ndev,
			     struct ethtool_ringparam *ring,
			     struct kernel_ethtool_ringparam *kring,
			     struct netlink_ext_ack *extack)
{
	struct inc_priv *p = netdev_priv(ndev);
	int err;

	if (ring->rx_mini_pending || ring->rx_jumbo_pending)
		return -EINVAL;
	if (ring->rx_pending < INC_RING_MIN || ring->tx_pending < INC_RING_MIN ||
	    !is_power_of_2(ring->rx_pending) ||
	    !is_power_of_2(ring->tx_pending)) {
		NL_SET_ERR_MSG_MOD(extack, "ring sizes are powers of 2, 16 to 4096");
		return -EINVAL;
	}
	if (ring->rx_pending == p->rx_size && ring->tx_pending == p->tx_size)
		return 0;
	err = inc_reconfigure(p, ring->tx_pending, ring->rx_pending, ndev->mtu);
	if (err == -ENOMEM)
		NL_SET_ERR_MSG_MOD(extack, "no memory for the new rings: the old ones are kept");
	return err;
}

static int inc_get_coalesce(struct net_device *ndev,
			    struct ethtool_coalesce *ec,
			    struct kernel_ethtool_coalesce *kec,
			    struct netlink_ext_ack *extack)
{
	struct inc_priv *p = netdev_priv(ndev);

	ec->tx_max_coalesced_frames = p->coal_tx & 0xffff;
	ec->tx_coalesce_usecs = p->coal_tx >> 16;
	ec->rx_max_coalesced_frames = p->coal_rx & 0xffff;
	ec->rx_coalesce_usecs = p->coal_rx >> 16;
	return 0;
}

static int inc_set_coalesce(struct net_device *ndev,
			    struct ethtool_coalesce *ec,
			    struct kernel_ethtool_coalesce *kec,
			    struct netlink_ext_ack *extack)
{
	struct inc_priv *p = netdev_priv(ndev);

	if (!(p->features & INC_FEAT_IRQ_COAL))
		return -EOPNOTSUPP;
	if (ec->tx_max_coalesced_frames > 0xffff ||
	    ec->tx_coalesce_usecs > 0xffff ||
	    ec->rx_max_coalesced_frames > 0xffff ||
	    ec->rx_coalesce_usecs > 0xffff) {
		NL_SET_ERR_MSG_MOD(extack, "at most 65535 frames and 65535 us");
		return -EINVAL;
	}
	p->coal_tx = INC_COAL(ec->tx_max_coalesced_frames, ec->tx_coalesce_usecs);
	p->coal_rx = INC_COAL(ec->rx_max_coalesced_frames, ec->rx_coalesce_usecs);
	if (netif_running(ndev)) {
		inc_wr(p, INC_IRQ_COAL_TX, p->coal_tx);
		inc_wr(p, INC_IRQ_COAL_RX, p->coal_rx);
	}
	return 0;
}

const struct ethtool_ops inc_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_MAX_FRAMES,
	.get_drvinfo		= inc_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= inc_get_link_ksettings,
	.get_regs_len		= inc_get_regs_len,
	.get_regs		= inc_get_regs,
	.get_sset_count		= inc_get_sset_count,
	.self_test		= inc_self_test,
	.get_strings		= inc_get_strings,
	.get_ethtool_stats	= inc_get_ethtool_stats,
	.get_eth_mac_stats	= inc_get_eth_mac_stats,
	.get_ringparam		= inc_get_ringparam,
	.set_ringparam		= inc_set_ringparam,
	.get_coalesce		= inc_get_coalesce,
	.set_coalesce		= inc_set_coalesce,
	.reset			= inc_reset,
};
