// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the Arm generic timer: the cpu-clock event's interrupt
 *
 * Every Armv8 CPU has the generic timer, and its device-tree node names its
 * interrupts: so cpu-clock samples where the PMU's interrupt is missing or
 * mis-wired. Each EL has its own physical timer (perfrec_arch_timer_*()).
 * U-Boot only reads the counter, so the timer is free; its registers are
 * saved and restored all the same. The timer is one of perfrec's sampler
 * sources (perfrec_timer_source, struct perfrec_source_ops): found in the
 * timer node, raised on purpose by a deadline long past.
 */

#include <errno.h>
#include <log.h>
#include <perfrec_snapshot.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include <perfrec_dt.h>
#include "perfrec_dt_irq.h"
#include "perfrec_gic.h"
#include "perfrec_source_ops.h"
#include "perfrec_timer.h"

static void perfrec_timer_write_ctl(uint el, u64 val)
{
	perfrec_arch_timer_set_ctl(el, val);
	isb();	/* the timer's state changes before what follows */
}

void perfrec_timer_start(struct perfrec_timer *timer, u64 cval)
{
	timer->ctl = perfrec_arch_timer_ctl(timer->el);
	timer->cval = perfrec_arch_timer_cval(timer->el);
	perfrec_timer_write_ctl(timer->el, 0);
	perfrec_timer_set(timer->el, cval);
	perfrec_timer_write_ctl(timer->el, TIMER_CNT_CTL_ENABLE);
}

void perfrec_timer_restore(const struct perfrec_timer *timer)
{
	perfrec_timer_write_ctl(timer->el, 0);
	perfrec_timer_set(timer->el, timer->cval);
	perfrec_timer_write_ctl(timer->el, timer->ctl & ~TIMER_CNT_CTL_ISTATUS);
}

void perfrec_timer_snapshot(struct perfrec_snapshot *snap)
{
	uint el = perfrec_cpu_el();

	/* A Cortex-A8 or A9 has none: its registers are undefined instructions */
	if (!perfrec_arch_has_timer())
		return;
	perfrec_snap_add(snap, perfrec_arch_timer_name(el, false), -1,
			 perfrec_arch_timer_ctl(el) & ~TIMER_CNT_CTL_ISTATUS);
	perfrec_snap_add(snap, perfrec_arch_timer_name(el, true), -1,
			 perfrec_arch_timer_cval(el));
}

/* The generic timer's interrupt for U-Boot's EL, and its GIC; say why not in @irq */
static int perfrec_timer_find(const struct perfrec_dt *dt, struct perfrec_source_hw *hw,
			      struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	struct perfrec_timer own, *timer = hw ? &hw->timer : &own;
	struct perfrec_dt_irq dtirq;
	int ret;

	timer->node = dt->timer.node;
	timer->el = perfrec_cpu_el();
	gic->intid = 0;
	ret = perfrec_dt_source_irq(dt, PERFREC_SRC_TIMER, 0, timer->el, &dtirq, irq);
	if (ret)
		return ret;
	ret = perfrec_ctlr_find(&dt->timer.parent, gic);
	gic->intid = dtirq.intid;
	if (ret) {
		perfrec_gic_fault(gic, gic->dt_err, irq);
		return -ENXIO;
	}

	return 0;
}

/* The probe's interrupt: a deadline long past */
static void perfrec_timer_raise(struct perfrec_source_hw *hw, union perfrec_source_saved *saved)
{
	perfrec_timer_start(&hw->timer, 0);
}

static void perfrec_timer_lower(struct perfrec_source_hw *hw,
				const union perfrec_source_saved *saved)
{
	perfrec_timer_restore(&hw->timer);
}

/*
 * The probe found the tree's Non-secure PL1 interrupt silent: in Secure
 * SVC the CNTP_* registers are the Secure physical timer's, whose
 * interrupt is the tree's first entry (PPI 13). SVC cannot read which
 * state it is in (perfrec_arch_may_be_secure()): the probe tells.
 */
static int perfrec_timer_next(const struct perfrec_dt *dt, struct perfrec_source_hw *hw,
			      struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	struct perfrec_irq_report secure = *irq;
	struct perfrec_dt_irq dtirq;

	if (!perfrec_arch_may_be_secure(hw->timer.el))
		return -ENOENT;
	secure.fault = PERFREC_IRQ_OK;
	if (perfrec_dt_source_irq(dt, PERFREC_SRC_TIMER, 0, 3, &dtirq, &secure))
		return -ENOENT;
	*irq = secure;
	gic->intid = dtirq.intid;

	return 0;
}

static bool perfrec_timer_present(void)
{
	return perfrec_arch_has_timer();
}

const struct perfrec_source_ops perfrec_timer_source = {
	.id		= PERFREC_SRC_TIMER,
	.present	= perfrec_timer_present,
	.find		= perfrec_timer_find,
	.raise		= perfrec_timer_raise,
	.lower		= perfrec_timer_lower,
	.next		= perfrec_timer_next,
	.snapshot	= perfrec_timer_snapshot,
};
