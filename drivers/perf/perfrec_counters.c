// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec counters: give each event of a session a counter, start them, total them
 *
 * The session's counter setup, in command context: which PMU counter (or
 * the generic timer, for cpu-clock) takes each event, the periods and
 * starting values, the IRQ handler's state, and at the end each event's
 * total, taking back what the handler counted ahead.
 */

#include <errno.h>
#include <perfrec.h>
#include <perfrec_period.h>
#include <asm/global_data.h>
#include <asm/sections.h>
#include <asm/system.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_arch.h"
#include "perfrec_counters.h"
#include "perfrec_cpu.h"
#include "perfrec_irq.h"
#include "perfrec_timer.h"
#include "pmuv3.h"

DECLARE_GLOBAL_DATA_PTR;

/* Counting with the timer: how often it folds the PMU's overflows in (10 ms) */
#define PERFREC_STAT_POLL_NS	10000000ULL
/*
 * The workload's time between the timer handler's return and its next
 * interrupt, at least (perfrec_period_timer_next()): 2 us, a fifth of the
 * shortest cpu-clock period (PERFREC_MIN_CLOCK_NS)
 */
#define PERFREC_TIMER_GAP_NS	2000

/* Give each event a counter: cycles the cycle counter if free, others in order */
static int perfrec_assign_counters(struct perfrec_counters *ctr, struct perfrec_irq *st,
				   const struct perfrec_cfg *cfg)
{
	uint i, next_event_counter = 0;

	for (i = 0; i < cfg->nr_events; i++) {
		const struct perfrec_event_cfg *ec = &cfg->events[i];
		struct perfrec_counter *c = &st->counter[i];

		ctr->failed_event = i;
		if (ec->timer) {
			/* cpu-clock: the generic timer, in nanoseconds */
			c->idx = PERFREC_TIMER_IDX;
			c->max_period = U64_MAX;
			c->longest = perfrec_period_max(c->max_period);
			continue;
		}
		if (ec->cycle_counter && !(st->ovf_mask & BIT(PERFREC_CYCLE_COUNTER))) {
			c->idx = PERFREC_CYCLE_COUNTER;
		} else {
			/* Without CONFIG_PERFREC_EVENTS the event counters are not ours */
			if (!IS_ENABLED(CONFIG_PERFREC_EVENTS) ||
			    next_event_counter >= ctr->src.pmu.nr_counters)
				return -E2BIG;
			c->idx = next_event_counter++;
		}
		st->ovf_mask |= BIT(c->idx);
		/*
		 * The cycle counter is 64 bits (PMCR_EL0.LC), the others from
		 * PMUv3p5; on 32-bit Arm all are 32 bits
		 */
		c->max_period = (c->idx == PERFREC_CYCLE_COUNTER && PERFREC_ARCH_LONG_COUNTERS) ||
				ctr->src.pmu.long_events ? U64_MAX : U32_MAX;
		/* With room for a late interrupt's gap (perfrec_period_max()) */
		c->longest = perfrec_period_max(c->max_period);
		if (ec->period > c->longest)
			return -ERANGE;
	}
	ctr->failed_event = -1;
	st->nr_counters = cfg->nr_events;

	return 0;
}

/* A flat sample's header (struct perf_data_sample's), as the word it is stored as */
static u64 perfrec_sample_header(void)
{
	const struct perf_data_event_header h = {
		.type = PERF_DATA_RECORD_SAMPLE,
		.misc = PERF_DATA_MISC_USER,
		.size = sizeof(struct perf_data_sample),
	};
	u64 word;

	memcpy(&word, &h, sizeof(word));

	return word;
}

/* The handler's path: a fast one for one event on the cycle counter, no jitter, a GIC */
static u8 perfrec_irq_path(const struct perfrec_irq *st, const struct perfrec_cfg *cfg,
			   const struct perfrec_gic *gic)
{
	if (st->timer || st->stat || perfrec_gic_bcm2836(gic->version) || st->jitter_pct ||
	    cfg->nr_events != 1 || st->counter[0].idx != PERFREC_CYCLE_COUNTER)
		return PERFREC_IRQ_GENERAL;
	if (IS_ENABLED(CONFIG_PERFREC_CALLCHAIN) && cfg->callchain)
		return PERFREC_IRQ_CHAIN;
	if (perfrec_gic_v2(gic->version))
		return IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && st->gt ? PERFREC_IRQ_GICV2_GT :
		       PERFREC_IRQ_GICV2;

	return gic->group0 ? PERFREC_IRQ_GICV3_G0 : PERFREC_IRQ_GICV3;
}

/* Generic-timer ticks in @ns nanoseconds (at least one), and back */
static u64 perfrec_ns_to_ticks(u64 ns, u64 freq)
{
	u64 ticks = ns / PERFREC_NSEC_PER_SEC * freq +
		    ns % PERFREC_NSEC_PER_SEC * freq / PERFREC_NSEC_PER_SEC;

	return max(ticks, 1ULL);
}

/* The clock's ticks per second: the generic timer's, or a Cortex-A9's global timer's */
static u64 perfrec_clock_rate(const struct perfrec_counters *ctr)
{
	if (IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && ctr->src.gt.base)
		return ctr->src.gt.rate;

	return read_cntfrq();
}

static u64 perfrec_ticks_to_ns(u64 ticks, u64 freq)
{
	return ticks / freq * PERFREC_NSEC_PER_SEC + ticks % freq * PERFREC_NSEC_PER_SEC / freq;
}

/* The IRQ path's clock: which, its ticks to ns, and the timer's least gap */
static void perfrec_counters_clock(const struct perfrec_counters *ctr, struct perfrec_irq *st)
{
	u64 rate = perfrec_clock_rate(ctr);

	st->gt = ctr->src.gt.base;
	st->ns_mult = (PERFREC_NSEC_PER_SEC << 32) / rate;
	st->timer_gap = perfrec_ns_to_ticks(PERFREC_TIMER_GAP_NS, rate);
}

/* Counter @i's period and start (counting: its start only); -ERANGE for a too short cpu-clock */
static int perfrec_counter_period(struct perfrec_counters *ctr, struct perfrec_irq *st,
				  const struct perfrec_cfg *cfg, uint i)
{
	const struct perfrec_event_cfg *ec = &cfg->events[i];
	struct perfrec_counter *c = &st->counter[i];

	if (perfrec_irq_stat(st)) {
		/* Count from 0, or from just before the wrap */
		ctr->start[i] = cfg->preload ? (c->max_period - cfg->preload + 1) &
			      c->max_period : 0;
		return 0;
	}
	if (ec->timer) {
		u64 ns = ec->freq_hz ? PERFREC_NSEC_PER_SEC / ec->freq_hz : ec->period;

		/* Shorter, the handler would leave a slow board no time between samples */
		if (ns < PERFREC_MIN_CLOCK_NS)
			return -ERANGE;
		/* The period the timer can keep: whole ticks, in ns */
		st->timer_ticks = perfrec_ns_to_ticks(ns, perfrec_clock_rate(ctr));
		c->period = perfrec_ticks_to_ns(st->timer_ticks, perfrec_clock_rate(ctr));
		c->base_period = c->period;
		return 0;
	}
	if (ec->freq_hz) {
		u64 ns = PERFREC_NSEC_PER_SEC / ec->freq_hz;

		/* The first period assumes 1 GHz; the adaptation corrects it, in ticks */
		c->target = perfrec_ns_to_ticks(ns, perfrec_clock_rate(ctr));
		c->period = min(ns, c->longest);
	} else {
		c->period = ec->period;
	}
	c->base_period = c->period;
	ctr->start[i] = -c->period & c->max_period;

	return 0;
}

int perfrec_counters_init(struct perfrec_counters *ctr, struct perfrec_irq *st,
			  const struct perfrec_cfg *cfg, const struct perf_data_event *events,
			  const struct perfrec_gic *gic, u64 text_bytes, bool boot)
{
	uint i;
	int ret;

	memset(st, 0, sizeof(*st));
	perfrec_counters_clock(ctr, st);
	st->intid = gic->intid;
	st->gic.version = gic->version;
	st->gic.cpu = gic->cpu;
	st->gic.group0 = gic->group0;
	st->timer = cfg->source == PERFREC_SRC_TIMER;
	st->timer_el = ctr->src.timer.el;
	st->pid = PERFREC_PID;
	st->tid = PERFREC_PID;
	st->stat = IS_ENABLED(CONFIG_PERFREC_STAT) && cfg->mode == PERFREC_STAT;
	st->callchain = cfg->callchain;
	/* The depth exists only with call graphs: no chain is walked without */
	if (IS_ENABLED(CONFIG_PERFREC_CALLCHAIN))
		st->max_depth = CONFIG_IF_ENABLED_INT(PERFREC_CALLCHAIN, PERFREC_CALLCHAIN_DEPTH);
	if (boot) {
		/* Before relocation: where the image runs now, and the initial stack below gd */
		st->text_start = (ulong)__image_copy_start;
		st->stack_top = (ulong)gd;
		st->img_bytes = text_bytes;
	} else {
		st->text_start = gd->relocaddr;
		st->stack_top = gd->start_addr_sp;
	}
	st->text_end = st->text_start + text_bytes;
	st->jitter_pct = cfg->jitter_pct;
	st->rng = perfrec_irq_ticks(st) | 1;
	ret = perfrec_assign_counters(ctr, st, cfg);
	if (ret)
		return ret;
	st->path = perfrec_irq_path(st, cfg, gic);
	if (st->timer && perfrec_irq_stat(st))
		st->timer_ticks = perfrec_ns_to_ticks(PERFREC_STAT_POLL_NS,
						      perfrec_clock_rate(ctr));

	for (i = 0; i < st->nr_counters; i++) {
		st->counter[i].id = events[i].id;
		st->counter[i].header = perfrec_sample_header();
		ret = perfrec_counter_period(ctr, st, cfg, i);
		if (ret)
			return ret;
	}

	return 0;
}

/*
 * A counter's total at disarm. Recording: its finished intervals plus what
 * it counted since the last reload (it started at -period); an overflow
 * whose interrupt had not been taken yet finished an interval without a
 * sample. Counting: the wraps plus the value, less where it started.
 */
static u64 perfrec_total(struct perfrec_counters *ctr, struct perfrec_irq *st, uint i)
{
	struct perfrec_counter *c = &st->counter[i];
	u64 val, ticks, passed, left, ahead;
	bool pending;

	if (c->idx == PERFREC_TIMER_IDX) {
		if (perfrec_irq_stat(st))
			return ctr->end_ns - ctr->start_ns;
		/* Every deadline that passed was sampled or late; one not taken is late */
		ticks = ctr->end_ticks - ctr->start_ticks;
		passed = ticks / st->timer_ticks;
		c->late += passed - c->count / c->period;
		return perfrec_ticks_to_ns(ticks, perfrec_clock_rate(ctr));
	}
	val = pmuv3_read_counter(c->idx) & c->max_period;
	pending = pmuv3_overflowed(c->idx);

	if (perfrec_irq_stat(st)) {
		if (pending)
			c->count += c->max_period + 1;
		return c->count + val - ctr->start[i];
	}
	if (!pending) {
		/*
		 * After a late interrupt the handler may have set the counter
		 * whole periods ahead, counting them late in advance: those
		 * that have not passed yet are taken back.
		 */
		left = -val & c->max_period;
		ahead = left > c->period ? (left - 1) / c->period : 0;
		c->late -= ahead;
		c->count -= ahead * c->period;
		return c->count + (ahead + 1) * c->period - left;
	}
	c->late++;
	c->count += c->period;
	val = perfrec_irq_settle(c, val, c->period);

	return c->count + val;
}

void perfrec_counters_start(struct perfrec_counters *ctr, struct perfrec_irq *st,
			    const struct perfrec_cfg *cfg)
{
	u64 start;
	uint i;

	if (ctr->src.have_pmu) {
		pmuv3_save(&ctr->src.pmu, &ctr->pmu);
		for (i = 0; i < st->nr_counters; i++) {
			if (st->counter[i].idx != PERFREC_TIMER_IDX)
				pmuv3_program(&ctr->src.pmu, st->counter[i].idx,
					      cfg->events[i].pmu_event, ctr->start[i]);
		}
	}
	start = perfrec_irq_ticks(st);
	ctr->start_ns = perfrec_hw_ticks_ns(st, start);
	ctr->id = (u32)(ctr->start_ns ^ ctr->start_ns >> 32);
	for (i = 0; i < st->nr_counters; i++)
		st->counter[i].last = start;
	if (ctr->src.have_pmu && st->ovf_mask)
		pmuv3_start(&ctr->src.pmu, st->ovf_mask,
			    cfg->source == PERFREC_SRC_PMU ? st->ovf_mask : 0);
	if (st->timer) {
		ctr->start_ticks = perfrec_irq_ticks(st);
		st->timer_cval = ctr->start_ticks + st->timer_ticks;
		if (IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && st->gt)
			st->gt_ctl = perfrec_gtimer_start(&ctr->src.gt, st->timer_cval);
		else
			perfrec_timer_start(&ctr->src.timer, st->timer_cval);
	}
}

/*
 * Stop the PMU's counters, then let a pending interrupt in: an overflow in
 * the last events before the stop raises an interrupt the CPU may not have
 * taken yet (QEMU takes one at the end of a block of code). If the
 * workload left interrupts unmasked and no pending overflow is a whole
 * period old, they are unmasked for one context synchronisation, which
 * takes it: the period ended in the stop's own path and is sampled there,
 * not counted late. An overflow a whole period old came late (an event
 * counter whose interrupt never comes): perfrec_total() counts its periods
 * late, as it does one the workload kept masked. Returns with interrupts
 * masked.
 */
static void perfrec_counters_drain(struct perfrec_counters *ctr, struct perfrec_irq *st)
{
	u64 masks = read_irq_masks();
	uint i;

	perfrec_cpu_block();
	if (ctr->src.have_pmu)
		pmuv3_stop(st->ovf_mask);
	for (i = 0; ctr->src.have_pmu && i < st->nr_counters; i++) {
		const struct perfrec_counter *c = &st->counter[i];

		/* A whole period past the overflow: it came late, not in the stop */
		if (c->idx != PERFREC_TIMER_IDX && pmuv3_overflowed(c->idx) &&
		    (pmuv3_read_counter(c->idx) & c->max_period) >= c->period)
			return;
	}
	write_irq_masks(masks);
	isb();	/* a pending interrupt is taken here, if the workload left it unmasked */
	perfrec_cpu_block();
}

void perfrec_counters_stop(struct perfrec_counters *ctr, struct perfrec_irq *st)
{
	uint i;

	perfrec_counters_drain(ctr, st);
	ctr->end_ticks = perfrec_irq_ticks(st);
	if (st->timer && IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && st->gt)
		perfrec_gtimer_stop(&ctr->src.gt);
	else if (st->timer)
		perfrec_timer_restore(&ctr->src.timer);
	ctr->end_ns = perfrec_irq_now_ns(st);
	for (i = 0; i < st->nr_counters; i++)
		ctr->count[i] = perfrec_total(ctr, st, i);
	if (ctr->src.have_pmu)
		pmuv3_restore(&ctr->pmu);
}
