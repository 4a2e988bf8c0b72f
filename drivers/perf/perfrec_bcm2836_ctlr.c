// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * The BCM2836 local controller as one of perfrec's interrupt controllers
 *
 * Its struct perfrec_ctlr_ops, which perfrec_ctlr.c picks, over the
 * register-level perfrec_bcm2836.c: the session's interrupt is a source of
 * the core's own (@gic->l1), which stays pending until its device drops it.
 */

#include <perfrec_dt.h>
#include <perfrec_snapshot.h>
#include <linux/bitfield.h>
#include <linux/sizes.h>
#include "perfrec_bcm2836.h"
#include "perfrec_cpu.h"
#include "perfrec_ctlr_ops.h"
#include "perfrec_gic.h"

/* Its one block of registers, and this core's IRQ source register in it */
static int perfrec_bcm2836_ctlr_find(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic)
{
	int ret;

	gic->l1.core = FIELD_GET(CPU_MPIDR_AFF0, perfrec_cpu_affinity());
	ret = perfrec_gic_reach(gic, "registers", ctlr->base[0], ctlr->size[0] ?: SZ_256, 0,
				&gic->dist);
	if (ret)
		return ret;
	gic->l1.base = gic->dist;
	gic->cpu = perfrec_bcm2836_source(gic->dist, gic->l1.core);

	return 0;
}

static int perfrec_bcm2836_ctlr_setup(struct perfrec_gic *gic)
{
	gic->l1.hwirq = gic->intid;
	perfrec_bcm2836_setup(&gic->l1);

	return 0;
}

static void perfrec_bcm2836_ctlr_restore(struct perfrec_gic *gic)
{
	perfrec_bcm2836_restore(&gic->l1);
}

static bool perfrec_bcm2836_ctlr_pending(const struct perfrec_gic *gic)
{
	return perfrec_bcm2836_pending(&gic->l1);
}

/* No pending state of its own: its sources are levels */
static void perfrec_bcm2836_ctlr_clear_pending(struct perfrec_gic *gic)
{
}

static void perfrec_bcm2836_ctlr_snapshot(const struct perfrec_gic *gic,
					  struct perfrec_snapshot *snap)
{
	u32 timer_ctl, mbox_ctl, pmu, gpu_route;

	perfrec_bcm2836_regs(&gic->l1, &timer_ctl, &mbox_ctl, &pmu, &gpu_route);
	/* Linux's irq-bcm2836.h names, without LOCAL_, with the core */
	perfrec_snap_add(snap, "TIMER_INT_CONTROL%d", gic->l1.core, timer_ctl);
	perfrec_snap_add(snap, "MAILBOX_INT_CONTROL%d", gic->l1.core, mbox_ctl);
	perfrec_snap_add(snap, "PM_ROUTING%d", gic->l1.core, pmu);
	perfrec_snap_add(snap, "GPU_INT_ROUTING", -1, gpu_route);
}

const struct perfrec_ctlr_ops perfrec_bcm2836_ctlr = {
	.find		= perfrec_bcm2836_ctlr_find,
	.setup		= perfrec_bcm2836_ctlr_setup,
	.restore	= perfrec_bcm2836_ctlr_restore,
	.pending	= perfrec_bcm2836_ctlr_pending,
	.clear_pending	= perfrec_bcm2836_ctlr_clear_pending,
	.snapshot	= perfrec_bcm2836_ctlr_snapshot,
};
