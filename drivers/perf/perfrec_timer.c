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

#include <log.h>
#include <perfrec_snapshot.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_cpu.h"
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

	perfrec_snap_add(snap, perfrec_arch_timer_name(el, false), -1,
			 perfrec_arch_timer_ctl(el) & ~TIMER_CNT_CTL_ISTATUS);
	perfrec_snap_add(snap, perfrec_arch_timer_name(el, true), -1,
			 perfrec_arch_timer_cval(el));
}
