// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the Arm generic timer: the cpu-clock event's interrupt
 *
 * Every Armv8 CPU has the generic timer, and its device-tree node names its
 * interrupts: so cpu-clock samples where the PMU's interrupt is missing or
 * mis-wired. Each EL has its own physical timer (perfrec_arch_timer_*()).
 * U-Boot only reads the counter, so the timer is free; its registers are
 * saved and restored all the same.
 */

#include <errno.h>
#include <log.h>
#include <perfrec_snapshot.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_cpu.h"
#include "perfrec_dt.h"
#include "perfrec_gic.h"
#include "perfrec_timer.h"

/* The node's "interrupts" entries: Secure physical, physical, virtual, hypervisor */
#define PERFREC_TIMER_IRQ_SECURE	0
#define PERFREC_TIMER_IRQ_PHYS		1
#define PERFREC_TIMER_IRQ_HYP		3

static uint perfrec_timer_irq_index(uint el)
{
	switch (el) {
	case 3:
		return PERFREC_TIMER_IRQ_SECURE;
	case 2:
		return PERFREC_TIMER_IRQ_HYP;
	default:
		return PERFREC_TIMER_IRQ_PHYS;
	}
}

int perfrec_timer_irq(const struct perfrec_timer *timer, const struct perfrec_dt_dev *dev,
		      struct perfrec_gic *gic)
{
	struct perfrec_dt_irq irq;
	int ret;

	gic->intid = 0;
	ret = perfrec_gic_dt_irq(dev->irqs, dev->irqs_len, perfrec_gic_cells(dev->parent.version),
				 perfrec_timer_irq_index(timer->el), &irq);
	if (ret == -ENXIO)
		return log_msg_ret("irq", ret);
	if (ret || irq.type != PERFREC_DT_IRQ_TYPE_PPI)
		return log_msg_ret("ppi", -EPROTONOSUPPORT);
	ret = perfrec_gic_from_dt(&dev->parent, gic);
	gic->intid = irq.intid;
	if (ret)
		return log_msg_ret("gic", -ENOLINK);

	return 0;
}

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

	perfrec_snap_add(snap, perfrec_arch_timer_name(el, false), -1,
			 perfrec_arch_timer_ctl(el) & ~TIMER_CNT_CTL_ISTATUS);
	perfrec_snap_add(snap, perfrec_arch_timer_name(el, true), -1,
			 perfrec_arch_timer_cval(el));
}
