// SPDX-License-Identifier: GPL-2.0
/*
 * inceptionn NIC: devlink. `devlink dev info` shows the driver and the
 * NIC's register map version and build; the health reporter "tx" records
 * every TX timeout and recovers from it by flushing the TX queue, or
 * resetting the NIC if that fails or the NIC has no QFLUSH (its recover
 * runs from the reset task, or from `devlink health recover`), and
 * `devlink health diagnose` shows the TX queue's state. With the
 * management firmware: `devlink dev info` asks it GET_VERSION, and the
 * reporter "fw" counts its deaths (heartbeat stopped, fault) and its
 * diagnose shows its state and, through GET_LINK, the link as it sees it.
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
	if (inc_fw_running(p)) {
		u32 res[2], v = p->fw_version;
		bool asked;

		/* the management firmware, asked (GET_VERSION) */
		asked = !inc_fw_cmd(p, INC_MBOX_OP_GET_VERSION, NULL, 0, res,
				    ARRAY_SIZE(res));
		if (asked)
			v = res[0];
		snprintf(buf, sizeof(buf), "%u.%u.%u", INC_VERSION_MAJOR(v),
			 INC_VERSION_MINOR(v), INC_VERSION_PATCH(v));
		err = devlink_info_version_running_put(req,
						       DEVLINK_INFO_VERSION_GENERIC_FW,
						       buf);
		if (err)
			return err;
		if (asked) {
			snprintf(buf, sizeof(buf), "%08x", res[1]);
			err = devlink_info_version_running_put(req,
							       "fw.mgmt.build",
							       buf);
			if (err)
				return err;
		}
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

static const char *const inc_fw_state_names[] = {
	[INC_FW_NONE] = "none",
	[INC_FW_BOOTING] = "booting",
	[INC_FW_RUNNING] = "running",
	[INC_FW_DEAD] = "dead",
};

/* the firmware's state, and the link as it reports it (GET_LINK) */
static int inc_fw_diagnose(struct devlink_health_reporter *rep,
			   struct devlink_fmsg *fmsg,
			   struct netlink_ext_ack *extack)
{
	struct inc_priv *p = devlink_health_reporter_priv(rep);
	enum inc_fw_state st = READ_ONCE(p->fw_state);
	u32 link[2];
	int err, cmd;

	cmd = st == INC_FW_RUNNING ?
	      inc_fw_cmd(p, INC_MBOX_OP_GET_LINK, NULL, 0, link,
			 ARRAY_SIZE(link)) : -EIO;
	err = devlink_fmsg_string_pair_put(fmsg, "state",
					   inc_fw_state_names[st]);
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "heartbeat",
						inc_rd(p, INC_FW_HEARTBEAT));
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "deaths", p->fw_deaths);
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "commands", p->fw_cmds);
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "command_errors",
						p->fw_cmd_errors);
	if (!err)
		err = devlink_fmsg_u32_pair_put(fmsg, "vector2_irqs",
						p->fw_irqs);
	if (!err && !cmd)
		err = devlink_fmsg_bool_pair_put(fmsg, "link_up", link[0] & 1);
	if (!err && !cmd)
		err = devlink_fmsg_u32_pair_put(fmsg, "link_speed_mbps", link[1]);
	if (!err && cmd)
		err = devlink_fmsg_string_pair_put(fmsg, "link",
						   "not asked: the firmware does not answer");
	return err;
}

static const struct devlink_health_reporter_ops inc_fw_reporter_ops = {
	.name		= "fw",
	.diagnose	= inc_fw_diagnose,
};

/* the firmware died (the watchdog's work, under fw_lock) */
void inc_devlink_report_fw(struct inc_priv *p, const char *msg)
{
	lockdep_assert_held(&p->fw_lock);
	if (p->fw_reporter)
		devlink_health_report(p->fw_reporter, msg, NULL);
}

int inc_devlink_register(struct inc_priv *p)
{
	struct devlink_health_reporter *rep;
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
	if (p->features & INC_FEAT_MGMT) {
		rep = devlink_health_reporter_create(dl, &inc_fw_reporter_ops,
						     0, p);
		if (IS_ERR(rep))
			return 0;	/* devlink without it: no reason to fail */
		/* the watchdog reports under fw_lock, once registered */
		mutex_lock(&p->fw_lock);
		p->fw_reporter = rep;
		mutex_unlock(&p->fw_lock);
	}
	return 0;
}

void inc_devlink_unregister(struct inc_priv *p)
{
	struct devlink_health_reporter *rep;

	if (!p->devlink)
		return;
	mutex_lock(&p->fw_lock);
	rep = p->fw_reporter;
	p->fw_reporter = NULL;
	mutex_unlock(&p->fw_lock);
	if (rep)
		devlink_health_reporter_destroy(rep);
	devlink_unregister(p->devlink);
	devlink_health_reporter_destroy(p->tx_reporter);
	p->tx_reporter = NULL;
	devlink_free(p->devlink);
	p->devlink = NULL;
}
