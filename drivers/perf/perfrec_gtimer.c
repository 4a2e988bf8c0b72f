// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * The Cortex-A9 MPCore's global timer: perfrec's clock and cpu-clock where
 * the core has no generic timer
 *
 * The A8 and A9 have no generic timer. An A9 MPCore has a global timer in
 * its private region (PERIPHBASE, which CBAR holds, + 0x200): a 64-bit
 * up-counter that all cores share, and per core a comparator whose match
 * raises PPI 11 (ID 27). perfrec counts time on it and, for cpu-clock,
 * sets the comparator to each deadline as it does the generic timer's.
 * The enable bit is every core's and restarts the count (on QEMU): a
 * running timer is never stopped; one that is off is started for the
 * session and stopped after. Its rate (PERIPHCLK over the prescaler) is
 * the clock framework's where the tree gives the timer a clock (Zynq-7000);
 * it is measured against U-Boot's own timer in any case, which is all there
 * is where the tree does not (Versatile Express, i.MX6).
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <clk.h>
#include <errno.h>
#include <log.h>
#include <perfrec_dt.h>
#include <perfrec_snapshot.h>
#include <time.h>
#include <asm/io.h>
#include <dm/ofnode.h>
#include <linux/bitfield.h>
#include <linux/err.h>
#include "perfrec_arch.h"
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include "perfrec_gic.h"
#include "perfrec_gtimer.h"
#include "perfrec_source_ops.h"
#include "pmuv3_events.h"

/* The prescaler: its rate is PERIPHCLK / (prescaler + 1) */
#define PERFREC_GT_CTRL_PRESCALER	GENMASK(15, 8)
/* How long the rate is measured, in U-Boot's timer: 1 / this of a second */
#define PERFREC_GT_CAL_DIV		100
/* Reads of U-Boot's timer before giving up on it or on the global timer */
#define PERFREC_GT_CAL_TRIES		10000000

#define PERFREC_GT_COMPAT		"arm,cortex-a9-global-timer"

/* The rate measured, and the prescaler it was measured with */
static struct {
	u64 rate;
	u32 prescaler;
} perfrec_gt_cal;

static void __iomem *perfrec_gtimer_base(void)
{
	if (!IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) || perfrec_arch_has_timer() ||
	    pmuv3_core_by_midr(read_cpu_midr()) != PMUV3_CORE_A9)
		return NULL;

	return (void __iomem *)(ulong)(read_cbar() + PERFREC_GT_OFFSET);
}

/* This core's comparator, its two halves */
static u64 perfrec_gtimer_cmp(void __iomem *base)
{
	return (u64)readl(base + PERFREC_GT_CMP_HI) << 32 | readl(base + PERFREC_GT_CMP_LO);
}

int perfrec_gtimer_find(struct perfrec_gtimer *gt)
{
	gt->claimed = false;
	gt->base = perfrec_gtimer_base();

	return gt->base ? 0 : -ETIME;
}

/*
 * Its ticks over 1/PERFREC_GT_CAL_DIV s of U-Boot's timer: ticks per
 * second, or 0 if either stands still
 */
static u64 perfrec_gtimer_measure(void __iomem *base)
{
	u64 tbclk = get_tbclk(), want = tbclk / PERFREC_GT_CAL_DIV, t0, t1, c0, c1;
	uint tries = 0;

	if (!want)
		return 0;
	t0 = get_ticks();
	c0 = perfrec_gtimer_count(base);
	do {
		t1 = get_ticks();
	} while (t1 - t0 < want && ++tries < PERFREC_GT_CAL_TRIES);
	c1 = perfrec_gtimer_count(base);
	if (t1 - t0 < want || c1 == c0)
		return 0;

	return (c1 - c0) * tbclk / (t1 - t0);
}

/*
 * Its ticks per second from its node's clock: the node of the timer at
 * @base, its first clock's rate over the prescaler; 0 if the tree gives
 * none or no clock driver knows it
 */
static u64 perfrec_gtimer_tree_rate(void __iomem *base, u32 prescaler)
{
	struct clk clk;
	ofnode node;
	ulong rate;

	if (!CONFIG_IS_ENABLED(CLK))
		return 0;
	ofnode_for_each_compatible_node(node, PERFREC_GT_COMPAT) {
		if (ofnode_get_addr(node) != (ulong)base)
			continue;
		if (clk_get_by_index_nodev(node, 0, &clk))
			return 0;
		rate = clk_get_rate(&clk);
		if (!rate || IS_ERR_VALUE(rate))
			return 0;

		return rate / (prescaler + 1);
	}

	return 0;
}

int perfrec_gtimer_claim(struct perfrec_gtimer *gt)
{
	void __iomem *base = gt->base;
	u32 prescaler;

	gt->ctl = readl(base + PERFREC_GT_CTRL);
	gt->cmp = perfrec_gtimer_cmp(base);
	gt->inc = readl(base + PERFREC_GT_AUTOINC);
	gt->claimed = true;
	if (!(gt->ctl & PERFREC_GT_CTRL_ENABLE))
		writel(gt->ctl | PERFREC_GT_CTRL_ENABLE, base + PERFREC_GT_CTRL);
	prescaler = FIELD_GET(PERFREC_GT_CTRL_PRESCALER, gt->ctl);
	if (!perfrec_gt_cal.rate || perfrec_gt_cal.prescaler != prescaler) {
		perfrec_gt_cal.rate = perfrec_gtimer_measure(base);
		perfrec_gt_cal.prescaler = prescaler;
	}
	/* A timer that stands still is refused, whatever the tree says */
	gt->measured = perfrec_gt_cal.rate;
	if (!gt->measured) {
		perfrec_gtimer_release(gt);
		return log_msg_ret("rate", -ETIME);
	}
	gt->tree_rate = perfrec_gtimer_tree_rate(base, prescaler);
	gt->rate = gt->tree_rate ?: gt->measured;

	return 0;
}

u32 perfrec_gtimer_start(struct perfrec_gtimer *gt, u64 cval)
{
	u32 ctl = (gt->ctl & ~PERFREC_GT_CTRL_AUTOINC) | PERFREC_GT_CTRL_ENABLE |
		  PERFREC_GT_CTRL_COMP | PERFREC_GT_CTRL_IRQ;

	perfrec_gtimer_set(gt->base, ctl, cval);

	return ctl;
}

/*
 * The comparator and auto-increment as claimed, with the comparator off
 * while they change and no event left, then control @ctl
 */
static void perfrec_gtimer_restore(const struct perfrec_gtimer *gt, u32 ctl)
{
	void __iomem *base = gt->base;

	writel((gt->ctl | PERFREC_GT_CTRL_ENABLE) & ~PERFREC_GT_CTRL_COMP, base + PERFREC_GT_CTRL);
	writel(lower_32_bits(gt->cmp), base + PERFREC_GT_CMP_LO);
	writel(upper_32_bits(gt->cmp), base + PERFREC_GT_CMP_HI);
	writel(gt->inc, base + PERFREC_GT_AUTOINC);
	writel(PERFREC_GT_ISR_EVENT, base + PERFREC_GT_ISR);
	writel(ctl, base + PERFREC_GT_CTRL);
}

void perfrec_gtimer_release(struct perfrec_gtimer *gt)
{
	if (!gt->claimed)
		return;
	/* The enable as it was too: off if the session started it */
	perfrec_gtimer_restore(gt, gt->ctl);
	gt->claimed = false;
}

void perfrec_gtimer_snapshot(struct perfrec_snapshot *snap)
{
	void __iomem *base = perfrec_gtimer_base();

	if (!base)
		return;
	perfrec_snap_add(snap, "GT_CONTROL", -1, readl(base + PERFREC_GT_CTRL));
	perfrec_snap_add(snap, "GT_COMPARATOR", -1, perfrec_gtimer_cmp(base));
	perfrec_snap_add(snap, "GT_AUTOINC", -1, readl(base + PERFREC_GT_AUTOINC));
}

/* Its interrupt: ID 27 at the CPU's GIC, the first the tree has */
static int perfrec_gtimer_find_irq(const struct perfrec_dt *dt, struct perfrec_source_hw *hw,
				   struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	struct perfrec_gtimer own;
	int ret;

	gic->intid = 0;
	if (perfrec_gtimer_find(hw ? &hw->gt : &own)) {
		irq->fault = PERFREC_IRQ_NO_NODE;
		return -ENODEV;
	}
	snprintf(irq->node, sizeof(irq->node), "the Cortex-A9 global timer");
	irq->intid = PERFREC_GT_INTID;
	ret = perfrec_ctlr_find(&dt->gic, gic);
	gic->intid = PERFREC_GT_INTID;
	/* The A9's private timer interrupts are edges */
	gic->edge = true;
	if (ret) {
		perfrec_gic_fault(gic, gic->dt_err, irq);
		return -ENXIO;
	}

	return 0;
}

/* The probe's interrupt: a comparator the count has passed */
static void perfrec_gtimer_raise(struct perfrec_source_hw *hw, union perfrec_source_saved *saved)
{
	perfrec_gtimer_start(&hw->gt, 0);
}

void perfrec_gtimer_stop(const struct perfrec_gtimer *gt)
{
	perfrec_gtimer_restore(gt, gt->ctl | PERFREC_GT_CTRL_ENABLE);
}

static void perfrec_gtimer_lower(struct perfrec_source_hw *hw,
				 const union perfrec_source_saved *saved)
{
	perfrec_gtimer_stop(&hw->gt);
}

static bool perfrec_gtimer_present(void)
{
	return perfrec_gtimer_base();
}

const struct perfrec_source_ops perfrec_gtimer_source = {
	.id		= PERFREC_SRC_TIMER,
	.present	= perfrec_gtimer_present,
	.find		= perfrec_gtimer_find_irq,
	.raise		= perfrec_gtimer_raise,
	.lower		= perfrec_gtimer_lower,
	.snapshot	= perfrec_gtimer_snapshot,
};
