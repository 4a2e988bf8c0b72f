/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * The Cortex-A9 MPCore's global timer: perfrec's clock and cpu-clock where
 * the core has no generic timer
 */

#ifndef __PERFREC_GTIMER_H
#define __PERFREC_GTIMER_H

#include <errno.h>
#include <asm/io.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/types.h>

struct perfrec_dt;
struct perfrec_snapshot;

/* Its registers, in the private region at PERIPHBASE (CBAR) + 0x200 */
#define PERFREC_GT_OFFSET		0x200
#define PERFREC_GT_COUNT_LO		0x00
#define PERFREC_GT_COUNT_HI		0x04
#define PERFREC_GT_CTRL			0x08
#define PERFREC_GT_ISR			0x0c
#define PERFREC_GT_CMP_LO		0x10
#define PERFREC_GT_CMP_HI		0x14
#define PERFREC_GT_AUTOINC		0x18
/* Control: the enable is all cores'; the rest is this core's (banked) */
#define PERFREC_GT_CTRL_ENABLE		BIT(0)
#define PERFREC_GT_CTRL_COMP		BIT(1)
#define PERFREC_GT_CTRL_IRQ		BIT(2)
#define PERFREC_GT_CTRL_AUTOINC		BIT(3)
#define PERFREC_GT_ISR_EVENT		BIT(0)
/* Its interrupt: PPI 11, ID 27 at the A9's GIC, whatever the tree */
#define PERFREC_GT_INTID		27

/**
 * struct perfrec_gtimer - The global timer, as a session borrows it
 * @base: its registers, or NULL where perfrec does not use it (the CPU
 *	has the generic timer, or is no Cortex-A9)
 * @rate: its ticks per second: @tree_rate if the tree gives one, else
 *	@measured
 * @measured: its ticks per second, measured against U-Boot's timer
 * @tree_rate: its ticks per second from its node's clock, or 0
 * @ctl: its control register (this core's view) before the session
 * @cmp: its comparator before the session
 * @inc: its auto-increment before the session
 * @claimed: perfrec_gtimer_claim() saved it (and maybe enabled it)
 */
struct perfrec_gtimer {
	void __iomem *base;
	u64 rate;
	u64 measured;
	u64 tree_rate;
	u32 ctl;
	u64 cmp;
	u32 inc;
	bool claimed;
};

/* IRQ context: the count, read high, low, high until the high word holds */
static inline notrace u64 perfrec_gtimer_count(void __iomem *base)
{
	u32 hi, lo;

	do {
		hi = readl(base + PERFREC_GT_COUNT_HI);
		lo = readl(base + PERFREC_GT_COUNT_LO);
	} while (hi != readl(base + PERFREC_GT_COUNT_HI));

	return (u64)hi << 32 | lo;
}

/*
 * IRQ context: the next deadline. The comparator is off while its two
 * halves change (a half-written one could match at once), then its event
 * is cleared: the interrupt drops until @cval.
 */
static inline notrace void perfrec_gtimer_set(void __iomem *base, u32 ctl, u64 cval)
{
	writel(ctl & ~PERFREC_GT_CTRL_COMP, base + PERFREC_GT_CTRL);
	writel(lower_32_bits(cval), base + PERFREC_GT_CMP_LO);
	writel(upper_32_bits(cval), base + PERFREC_GT_CMP_HI);
	writel(ctl, base + PERFREC_GT_CTRL);
	writel(PERFREC_GT_ISR_EVENT, base + PERFREC_GT_ISR);
}

#if CONFIG_IS_ENABLED(PERFREC_A9_GTIMER)
/**
 * perfrec_gtimer_find() - Find the global timer where perfrec needs it
 * @gt: returns its registers (@base), or NULL
 *
 * Only where the CPU has no generic timer and is a Cortex-A9 (by MIDR):
 * its private region is at CBAR.
 * Return: 0, or -ETIME if there is none
 */
int perfrec_gtimer_find(struct perfrec_gtimer *gt);

/**
 * perfrec_gtimer_claim() - Save the timer's state, start it if it is off, know its rate
 * @gt: found
 *
 * A running timer is never stopped or restarted (its enable is every
 * core's, and U-Boot's own timer on some boards). Its rate is measured
 * against U-Boot's timer once, for as long as the prescaler stays, and
 * read from the clock framework if its node has a clock: that rate is the
 * one used.
 * Return: 0, or -ETIME if it does not count
 */
int perfrec_gtimer_claim(struct perfrec_gtimer *gt);

/**
 * perfrec_gtimer_start() - Raise the interrupt at @cval, and every deadline set after
 * @gt: claimed
 * @cval: the first deadline, in its ticks
 * Return: the control value the IRQ path writes back (perfrec_gtimer_set())
 */
u32 perfrec_gtimer_start(struct perfrec_gtimer *gt, u64 cval);

/**
 * perfrec_gtimer_stop() - No more interrupts: the comparator as claimed, the timer still on
 * @gt: claimed
 */
void perfrec_gtimer_stop(const struct perfrec_gtimer *gt);

/**
 * perfrec_gtimer_release() - Put the timer back as perfrec_gtimer_claim() found it
 * @gt: claimed (nothing is done otherwise)
 */
void perfrec_gtimer_release(struct perfrec_gtimer *gt);

/**
 * perfrec_gtimer_snapshot() - Record the timer's registers a session changes
 * @snap: snapshot to add to (nothing where perfrec does not use the timer)
 */
void perfrec_gtimer_snapshot(struct perfrec_snapshot *snap);
#else
/* Not built (CONFIG_PERFREC_A9_GTIMER): never found, so never claimed */
static inline int perfrec_gtimer_find(struct perfrec_gtimer *gt)
{
	gt->base = NULL;
	gt->claimed = false;

	return -ETIME;
}

static inline int perfrec_gtimer_claim(struct perfrec_gtimer *gt)
{
	return -ETIME;
}

static inline u32 perfrec_gtimer_start(struct perfrec_gtimer *gt, u64 cval)
{
	return 0;
}

static inline void perfrec_gtimer_stop(const struct perfrec_gtimer *gt)
{
}

static inline void perfrec_gtimer_release(struct perfrec_gtimer *gt)
{
}
#endif

#endif /* __PERFREC_GTIMER_H */
