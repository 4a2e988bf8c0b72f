/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's period arithmetic: the IRQ path's, PMU-free, for its unit tests too
 */

#ifndef __PERFREC_PERIOD_H
#define __PERFREC_PERIOD_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>

/**
 * perfrec_period_jitter() - A period up to @pct percent away from @period, either way
 *
 * @period: the period
 * @pct: how far, in percent (the command allows up to 50)
 * @rng: xorshift64 state (never 0), advanced at each draw
 * @max: the longest period the counter can run
 * Return: the period drawn, at most @max
 */
static __always_inline notrace u64 perfrec_period_jitter(u64 period, uint pct,
							 u64 *rng, u64 max)
{
	u64 span = period / 100 * pct + period % 100 * pct / 100;
	u64 x = *rng;

	if (!span)
		return period;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*rng = x;

	/* Drawn after any clamp of the base: clamped again, or the counter wraps it */
	return min(period - span + x % (2 * span + 1), max);
}

/**
 * perfrec_period_timer_next() - The timer's next deadline, its last one passed
 *
 * A handler that costs more than the period would take the next interrupt
 * at once, for ever: whole periods are skipped (late, and counted) until
 * the workload has @gap ticks to run. The phase is kept.
 *
 * @cval: the deadline that passed
 * @period: ticks from one deadline to the next
 * @now: the counter's ticks now
 * @gap: the fewest ticks the workload gets before the next deadline
 * @missed: returns how many deadlines were skipped
 * Return: @cval plus whole periods, at least @gap ticks after @now
 */
static __always_inline notrace u64 perfrec_period_timer_next(u64 cval, u64 period, u64 now,
							     u64 gap, u64 *missed)
{
	u64 next = cval + period;

	*missed = 0;
	if (unlikely(next < now + gap)) {
		*missed = (now + gap - next + period - 1) / period;
		next += *missed * period;
	}

	return next;
}

#endif /* __PERFREC_PERIOD_H */
