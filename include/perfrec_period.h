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

/*
 * (@a * @b) >> 32, to 64 bits: through a 128-bit product where the compiler
 * has one (AArch64), else in 32-bit halves (exact: only the low halves'
 * product has bits below 2^32)
 */
static inline notrace u64 perfrec_mul_shr32(u64 a, u64 b)
{
#ifdef __SIZEOF_INT128__
	return (u64)(((__uint128_t)a * b) >> 32);
#else
	u64 ah = a >> 32, al = (u32)a, bh = b >> 32, bl = (u32)b;

	return (ah * bh << 32) + ah * bl + al * bh + (al * bl >> 32);
#endif
}

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

/* Fewest events between two interrupts after a late one: room for the workload */
#define PERFREC_PERIOD_MIN_GAP	4096

/**
 * perfrec_period_max() - The longest period a counter runs, a late interrupt included
 *
 * After a late interrupt the counter's next overflow is up to a whole
 * period plus PERFREC_PERIOD_MIN_GAP - 1 events away
 * (perfrec_period_late_gap()): that must fit the counter, or the write of
 * its start value drops the top bits and the interval is miscounted.
 *
 * @max_count: the largest value the counter holds (2^32 - 1 or 2^64 - 1)
 * Return: the longest period, PERFREC_PERIOD_MIN_GAP - 1 below @max_count
 */
static __always_inline notrace u64 perfrec_period_max(u64 max_count)
{
	return max_count - (PERFREC_PERIOD_MIN_GAP - 1);
}

/**
 * perfrec_period_late_gap() - Events to the next overflow after a late interrupt
 *
 * A handler that costs more than the period would take the next interrupt
 * at once, for ever: whole periods are skipped (late, and counted) until
 * the workload has PERFREC_PERIOD_MIN_GAP events to run. The phase is kept.
 *
 * @left: events left of the new period (less than @next)
 * @next: the new period, at most perfrec_period_max() of the counter
 * @skipped: returns how many whole periods were skipped
 * Return: @left plus the skipped periods: at least PERFREC_PERIOD_MIN_GAP,
 * less than @next + PERFREC_PERIOD_MIN_GAP
 */
static __always_inline notrace u64 perfrec_period_late_gap(u64 left, u64 next, u64 *skipped)
{
	*skipped = 0;
	if (left < PERFREC_PERIOD_MIN_GAP) {
		*skipped = (PERFREC_PERIOD_MIN_GAP - left + next - 1) / next;
		left += *skipped * next;
	}

	return left;
}

#endif /* __PERFREC_PERIOD_H */
