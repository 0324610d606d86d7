// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: devlink. `devlink dev info` shows the driver and the
 * NIC's register map version and build; the health reporter "tx" records
 * every TX timeout and recovers from it by flushing the TX queue, or
 * resetting the NIC if that fails or the NIC has no QFLUSH (its recover
 * runs from the reset task, or from `devlink health recover`), and
 * `devlink health diagnose` shows the TX queue's state.
 */
#include <linux/rtnetlink.h>
#include <net/devlink.h>

#include "inc.h"

static struct inc_priv *inc_devlink_priv(struct devlink *dl)
{
	return *(struct inc_priv **)devlink_priv(dl);
}

static int inc_devlink_info_get(struct devlink *dl, struct devlink_info_req *req,
				struct netlink_ext_ack *extack)
{
	struct inc_priv *p = inc_devlink_priv(dl);
	char buf[32];
	int err;

	err = devlink_info_driver_name_put(req, INC_DRV_NAME);
	if (err)
		return err;
	err = devlink_info_version_fixed_put(req, DEVLINK_INFO_VERSION_GENERIC_BOARD_ID,
					     p->tp->name);
	if (err)
		return err;
	snprintf(buf, sizeof(buf), "%u.%u.%u", INC_VERSION_MAJOR(p->version),
		 INC_VERSION_MINOR(p->version), INC_VERSION_PATCH(p->version));
	err = devlink_info_version_running_put(req, "fw.regmap", buf);
	if (err)
		return err;
	snprintf(buf, sizeof(buf), "0x%08x", p->build);
	err = devlink_info_version_running_put(req, "fw.build", buf);
	if (err)
		return err;
	if (READ_ONCE(p->fw_state) == INC_FW_RUNNING) {
		snprintf(buf, sizeof(buf), "%u.%u.%u",
			 INC_VERSION_MAJOR(p->fw_version),
			 INC_VERSION_MINOR(p->fw_version),
			 INC_VERSION_PATCH(p->fw_version));
		/* the management firmware */
		err = devlink_info_version_running_put(req,
						       DEVLINK_INFO_VERSION_GENERIC_FW,
						       buf);
		if (err)
			return err;
	}
	return devlink_info_version_running_put(req, "drv", INC_DRV_VERSION);
}

static const struct devlink_ops inc_devlink_ops = {
	.info_get	= inc_devlink_info_get,
};

static int inc_tx_recover(struct devlink_health_reporter *rep, void *ctx,
			  struct netlink_ext_ack *extack)
{
	struct inc_priv *p = devlink_health_reporter_priv(rep);
	int err = inc_recover(p);

	if (err)
		NL_SET_ERR_MSG_MOD(extack, "neither a TX flush nor a reset of the NIC worked");
	return err;
}

static int inc_tx_diagnose(struct devlink_health_reporter *rep,
			   struct devlink_fmsg *fmsg,
			   struct netlink_ext_ack *extack)
{
	struct inc_priv *p = devlink_health_reporter_priv(rep);
	int err;

	err = devlink_fmsg_u32_pair_put(fmsg, "prod", READ_ONCE(p->r.tx.prod));
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "clean",
						READ_ONCE(p->r.tx.clean));
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "nic_cons",
						inc_rd(p, INC_TXQ + INC_Q_CONS));
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "nic_status",
						inc_rd(p, INC_STATUS));
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "tx_timeouts",
						p->tx_timeouts);
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "resets", p->resets);
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "tx_flushes",
						p->tx_flushes);
	if (!err)
		err = devlink_fmsg_bool_pair_put(fmsg, "dma_off",
						 test_bit(INC_S_DMA_OFF, &p->state));
	return err;
}

static const struct devlink_health_reporter_ops inc_tx_reporter_ops = {
	.name		= "tx",
	.recover	= inc_tx_recover,
	.diagnose	= inc_tx_diagnose,
};

void inc_devlink_report_tx(struct inc_priv *p, const char *msg)
{
	devlink_health_report(p->tx_reporter, msg, NULL);
}

int inc_devlink_register(struct inc_priv *p)
{
	struct devlink *dl;

	dl = devlink_alloc(&inc_devlink_ops, sizeof(p), &p->pdev->dev);
	if (!dl)
		return -ENOMEM;
	*(struct inc_priv **)devlink_priv(dl) = p;
	/* no grace period: every timeout gets its reset */
	p->tx_reporter = devlink_health_reporter_create(dl, &inc_tx_reporter_ops,
							0, p);
	if (IS_ERR(p->tx_reporter)) {
		int err = PTR_ERR(p->tx_reporter);

		p->tx_reporter = NULL;
		devlink_free(dl);
		return err;
	}
	p->devlink = dl;
	devlink_register(dl);
	return 0;
}

void inc_devlink_unregister(struct inc_priv *p)
{
	if (!p->devlink)
		return;
	devlink_unregister(p->devlink);
	devlink_health_reporter_destroy(p->tx_reporter);
	p->tx_reporter = NULL;
	devlink_free(p->devlink);
	p->devlink = NULL;
}
