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

#endif /* __PERFREC_PERIOD_H */
