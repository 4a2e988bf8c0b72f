/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the Arm generic timer: the cpu-clock event's interrupt
 */

#ifndef __PERFREC_TIMER_H
#define __PERFREC_TIMER_H

#include <dm/ofnode.h>
#include <linux/types.h>
#include "perfrec_arch.h"

/* CNT*_CTL: the timer's enable, interrupt mask and (read-only) status */
#define TIMER_CNT_CTL_ENABLE		BIT(0)
#define TIMER_CNT_CTL_IMASK		BIT(1)
#define TIMER_CNT_CTL_ISTATUS		BIT(2)

struct perfrec_snapshot;

/**
 * struct perfrec_timer - The timer of U-Boot's EL, as a session borrows it
 * @el: the EL whose timer it is (1: CNTP, 2: CNTHP, 3: CNTPS)
 * @node: the timer's device-tree node
 * @ctl: its CNT*_CTL before the session
 * @cval: its CNT*_CVAL before the session
 */
struct perfrec_timer {
	uint el;
	ofnode node;
	u64 ctl;
	u64 cval;
};

/**
 * perfrec_timer_start() - Save the timer and make it fire at @cval
 * @timer: with @el set
 * @cval: the first deadline, in counter ticks (CNTPCT_EL0)
 */
void perfrec_timer_start(struct perfrec_timer *timer, u64 cval);

/**
 * perfrec_timer_restore() - Put the timer back as perfrec_timer_start() found it
 * @timer: given to perfrec_timer_start()
 */
void perfrec_timer_restore(const struct perfrec_timer *timer);

/**
 * perfrec_timer_snapshot() - Record the current EL's timer registers
 * @snap: snapshot to add to (CTL without its read-only status bit)
 */
void perfrec_timer_snapshot(struct perfrec_snapshot *snap);

/* IRQ context: the next deadline of the timer of EL @el */
static inline notrace void perfrec_timer_set(uint el, u64 cval)
{
	perfrec_arch_timer_set_cval(el, cval);
}

#endif /* __PERFREC_TIMER_H */
