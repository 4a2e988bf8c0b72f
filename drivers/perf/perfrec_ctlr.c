// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's interrupt controllers: which one drives @gic, and the calls on it
 *
 * The choice is the IRQ path's (perfrec_gic_v2() and the rest): a
 * controller left out of the build (CONFIG_PERFREC_GICV2, GICV3, BCM2836)
 * is never chosen, so none of its code is linked, and a build with one
 * controller calls it directly.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <perfrec_dt.h>
#include <linux/string.h>
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include "perfrec_ctlr_ops.h"
#include "perfrec_dt_irq.h"
#include "perfrec_gic.h"

/*
 * The controller of @gic; perfrec_ctlr_find() finds only those the build
 * has (perfrec_gic_dt_check()), so NULL is a bug
 */
static const struct perfrec_ctlr_ops *perfrec_ctlr_get(const struct perfrec_gic *gic)
{
	if (perfrec_gic_bcm2836(gic->version))
		return &perfrec_bcm2836_ctlr;
	if (perfrec_gic_v2(gic->version) || perfrec_gic_v3(gic->version))
		return &perfrec_gic_ctlr;

	return NULL;
}

int perfrec_ctlr_find(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic)
{
	const struct perfrec_ctlr_ops *ops;
	int ret;

	memset(gic, 0, sizeof(*gic));
	/* What the node must give: checked before any block is read */
	ret = perfrec_gic_dt_check(ctlr, perfrec_cpu_affinity());
	if (ret) {
		gic->dt_err = log_msg_ret("dt", ret);
		return gic->dt_err;
	}
	gic->version = ctlr->version;
	ops = perfrec_ctlr_get(gic);
	gic->dt_err = ops ? ops->find(ctlr, gic) : -EPROTONOSUPPORT;
	if (gic->dt_err)
		perfrec_gic_put(gic);

	return gic->dt_err;
}

int perfrec_ctlr_setup(struct perfrec_gic *gic)
{
	const struct perfrec_ctlr_ops *ops = perfrec_ctlr_get(gic);

	return ops ? ops->setup(gic) : -EPROTONOSUPPORT;
}

void perfrec_ctlr_restore(struct perfrec_gic *gic)
{
	const struct perfrec_ctlr_ops *ops = perfrec_ctlr_get(gic);

	if (ops)
		ops->restore(gic);
}

bool perfrec_ctlr_pending(const struct perfrec_gic *gic)
{
	const struct perfrec_ctlr_ops *ops = perfrec_ctlr_get(gic);

	return ops && ops->pending(gic);
}

void perfrec_ctlr_clear_pending(struct perfrec_gic *gic)
{
	const struct perfrec_ctlr_ops *ops = perfrec_ctlr_get(gic);

	if (ops)
		ops->clear_pending(gic);
}

void perfrec_ctlr_snapshot(const struct perfrec_gic *gic, struct perfrec_snapshot *snap)
{
	const struct perfrec_ctlr_ops *ops = perfrec_ctlr_get(gic);

	if (ops)
		ops->snapshot(gic, snap);
}
