// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's interrupt controllers: the table of them, and the calls on them
 *
 * A controller left out of the build (CONFIG_PERFREC_GICV2, GICV3,
 * BCM2836) has a NULL entry, so that none of its code is linked.
 */

#include <errno.h>
#include <linux/kconfig.h>
#include <linux/kernel.h>
#include "perfrec_ctlr.h"
#include "perfrec_ctlr_ops.h"
#include "perfrec_gic.h"

/* Every interrupt controller perfrec drives */
static const struct perfrec_ctlr_ops *const perfrec_ctlrs[] = {
	IS_ENABLED(CONFIG_PERFREC_GICV2) ? &perfrec_gicv2_ctlr : NULL,
	IS_ENABLED(CONFIG_PERFREC_GICV3) ? &perfrec_gicv3_ctlr : NULL,
	IS_ENABLED(CONFIG_PERFREC_BCM2836) ? &perfrec_bcm2836_ctlr : NULL,
};

/*
 * The controller of @gic; perfrec_gic_from_dt() finds only those the build
 * has (perfrec_gic_parent_check()), so NULL is a bug
 */
static const struct perfrec_ctlr_ops *perfrec_ctlr_get(const struct perfrec_gic *gic)
{
	uint i;

	for (i = 0; i < ARRAY_SIZE(perfrec_ctlrs); i++) {
		if (perfrec_ctlrs[i] && perfrec_ctlrs[i]->version == gic->version)
			return perfrec_ctlrs[i];
	}

	return NULL;
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
