/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * The IRQ handler's entry points and its inline helpers (its state, which
 * the recorder reads too, is in <perfrec_hw.h>)
 */

#ifndef __PERFREC_IRQ_H
#define __PERFREC_IRQ_H

#include <perf_data.h>
#include <perfrec_hw.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include "perfrec_arch.h"
#include "perfrec_gic.h"
#include "perfrec_gtimer.h"

/**
 * enum perfrec_irq_path - Which body of the handler a session's interrupts take
 *
 * The fast ones sample one event on the cycle counter, at a fixed period or
 * a frequency, through a GIC; the flat ones know their controller at build
 * time.
 *
 * @PERFREC_IRQ_GICV3: fast, flat, GICv3 group 1
 * @PERFREC_IRQ_GICV2: fast, flat, GICv2
 * @PERFREC_IRQ_GICV3_G0: fast, flat, GICv3 group 0 (EL3)
 * @PERFREC_IRQ_CHAIN: fast, with call chains, any GIC
 * @PERFREC_IRQ_GICV2_GT: fast, flat, GICv2, its clock a Cortex-A9's global
 *	timer (the others read the generic timer without asking)
 * @PERFREC_IRQ_GENERAL: the rest: several events, an event counter,
 *	counting, jitter, the timer, the BCM2836 local controller
 */
enum perfrec_irq_path {
	PERFREC_IRQ_GICV3,
	PERFREC_IRQ_GICV2,
	PERFREC_IRQ_GICV3_G0,
	PERFREC_IRQ_CHAIN,
	PERFREC_IRQ_GICV2_GT,
	PERFREC_IRQ_GENERAL,
};

/**
 * perfrec_irq_handler() - C side of perfrec's IRQ/FIQ vector entries
 * @pc: the interrupted PC (ELR_ELx)
 * @regs: the registers the entry saved (perfrec_irq_frame.h)
 */
void perfrec_irq_handler(ulong pc, ulong *regs);

/**
 * perfrec_irq_boot_handler() - The same, for a boot recording (PERFREC_BOOT_IRQ)
 * @pc: the interrupted PC (ELR_ELx)
 * @regs: the registers the entry saved (perfrec_irq_frame.h)
 */
void perfrec_irq_boot_handler(ulong pc, ulong *regs);

/**
 * perfrec_irq_settle() - Account for the whole periods among events past an overflow
 * @c: the counter
 * @since: events it counted after it overflowed
 * @next: the period starting now
 *
 * Each whole @next period among @since passed without a sample: count it in
 * @c->count and @c->late.
 * Return: the events that belong to the new interval (less than @next)
 */
static inline notrace u64 perfrec_irq_settle(struct perfrec_counter *c, u64 since, u64 next)
{
	u64 missed = since / next;

	c->late += missed;
	c->count += missed * next;

	return since - missed * next;
}

/**
 * perfrec_irq_ticks() - The clock's count
 * @st: IRQ state
 * Return: the generic timer's count, or a Cortex-A9's global timer's
 */
static inline notrace u64 perfrec_irq_ticks(const struct perfrec_irq *st)
{
	if (IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && st->gt)
		return perfrec_gtimer_count(st->gt);

	return read_cntpct();
}

/**
 * perfrec_irq_now_ns() - The time base of samples
 * @st: IRQ state with @ns_mult set
 * Return: nanoseconds since the clock started
 */
static inline notrace u64 perfrec_irq_now_ns(const struct perfrec_irq *st)
{
	return perfrec_hw_ticks_ns(st, perfrec_irq_ticks(st));
}

/**
 * perfrec_now_ns() - perfrec_irq_now_ns() without an IRQ state
 *
 * The same time base, ns_mult computed from CNTFRQ_EL0 as for a session
 * Return: nanoseconds since the generic timer started, or 0 if firmware
 * left CNTFRQ_EL0 at 0 (no arming starts then: perfrec_hw_find())
 */
static inline notrace u64 perfrec_now_ns(void)
{
	u64 freq = read_cntfrq();

	if (!freq)
		return 0;

	return perfrec_mul_shr32(read_cntpct(), (PERFREC_NSEC_PER_SEC << 32) / freq);
}

#endif /* __PERFREC_IRQ_H */
