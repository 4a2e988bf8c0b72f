// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's IRQ handler: the only code of perfrec that runs in interrupt context
 *
 * Rules for this file: no printing, no allocation, no driver model, no
 * timers, no floating point, and no gd (x18 may belong to an EFI payload).
 * It reads the PC, acknowledges the GIC, turns each overflow into one
 * finished PERF_RECORD_SAMPLE in the ring, reloads the counter and ends the
 * interrupt. Every function is static notrace, except the entry point.
 * Call chains (-g) come from perfrec_unwind.c, under the same rules.
 */

#include <perfrec_period.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include "perfrec_arch.h"
#include "perfrec_gic.h"
#include "perfrec_irq.h"
#include "perfrec_timer.h"
#include "perfrec_unwind.h"

struct perfrec_irq perfrec_irq;

/* The word of a sample that holds pid and tid (perf_data_sample), stored at once */
#define PERFREC_IRQ_PID_WORD	(offsetof(struct perf_data_sample, pid) / sizeof(u64))

/* Fewest events between two interrupts after a late one: room for the workload */
#define PERFREC_IRQ_MIN_GAP	4096

/*
 * Frequency mode: the last @period events took @dt_ns; move the period an
 * eighth of the way to the one that would have taken target_ns. The step is
 * rounded away from zero on both sides, so small corrections are never
 * ignored in one direction only.
 */
static __always_inline notrace u64 perfrec_irq_adjust(const struct perfrec_counter *c, u64 dt_ns)
{
	u64 ideal;
	s64 delta;
	u64 period;

	if (!dt_ns)
		return c->period;
	/* period * target_ns stays below 2^64 for periods below 2^32 */
	if (c->period >> 32)
		ideal = c->period / dt_ns * c->target_ns;
	else
		ideal = c->period * c->target_ns / dt_ns;
	delta = (s64)(ideal - c->period);
	delta = delta >= 0 ? (delta + 7) / 8 : (delta - 7) / 8;
	period = c->period + delta;
	if ((s64)period < 1)
		period = 1;

	return min(period, c->max_period);
}

u64 notrace perfrec_irq_settle(struct perfrec_counter *c, u64 since, u64 next)
{
	u64 missed = since / next;

	c->late += missed;
	c->count += missed * next;

	return since - missed * next;
}

/*
 * Restart the counter for its next interval. It has counted the events since
 * it overflowed (the handler's own entry among them): starting the next
 * interval from there, rather than from zero, keeps every interval exactly
 * one period long. The write follows the read at once: only the few events
 * between them are lost to the count.
 */
static __always_inline notrace void perfrec_irq_reload(struct perfrec_counter *c, u64 next)
{
	u64 since;

	/* Without CONFIG_PERFREC_EVENTS, the cycle counter is the only one */
	if (!IS_ENABLED(CONFIG_PERFREC_EVENTS) || c->idx == PMUV3_CYCLE_IDX) {
		since = read_pmccntr_el0();
		write_pmccntr_el0(since - next);
	} else {
		since = read_pmevcntrn_el0(c->idx);
		write_pmevcntrn_el0(c->idx, (since - next) & c->max_period);
	}
	since &= c->max_period;
	if (unlikely(since >= next)) {
		u64 gap;

		/* Whole periods passed before the handler ran: keep the phase */
		gap = next - perfrec_irq_settle(c, since, next);
		/*
		 * A handler that costs more than the period would take the
		 * next interrupt at once, for ever: skip whole periods (late,
		 * and counted) until the workload has room to run.
		 */
		if (gap < PERFREC_IRQ_MIN_GAP) {
			u64 skip = (PERFREC_IRQ_MIN_GAP - gap + next - 1) / next;

			c->late += skip;
			c->count += skip * next;
			gap += skip * next;
		}
		if (!IS_ENABLED(CONFIG_PERFREC_EVENTS) || c->idx == PMUV3_CYCLE_IDX)
			write_pmccntr_el0(-gap);
		else
			write_pmevcntrn_el0(c->idx, -gap & c->max_period);
	}
}

/*
 * Append one record of @words 64-bit words to the ring, or count it lost;
 * return whether it was stored (perfrec_ring.h pairs the ring's barriers)
 */
static __always_inline notrace bool perfrec_irq_put(struct perfrec_irq *st, const u64 *rec,
						    uint words)
{
	if (!perfrec_ring_put(&st->ring, rec, words)) {
		st->lost++;
		return false;
	}
	st->samples++;

	return true;
}

/*
 * A boot recording: @addr as its offset in the image, in whichever place it
 * lies, or tagged raw (PERFREC_BOOT_RAW). Classified now, when it is taken:
 * a chain taken inside relocate_code() holds both places. The place the
 * code runs in is tried first (perfrec_boot_relocated() swaps them).
 */
static __always_inline notrace u64 perfrec_irq_boot_addr(const struct perfrec_irq *st, u64 addr)
{
	if (addr - st->text_start < st->img_bytes)
		return addr - st->text_start;
	if (addr - st->alt_start < st->img_bytes)
		return addr - st->alt_start;

	return addr | PERFREC_BOOT_RAW;
}

static notrace void perfrec_irq_sample_chain(struct perfrec_irq *st, struct perfrec_counter *c,
					     u64 pc, const u64 *regs, u64 now, bool boot)
{
	u64 sp = (u64)regs + PERFREC_IRQ_FRAME_BYTES;	/* the interrupted sp */
	const struct perfrec_unwind_area area = {
		.text_start = st->text_start,
		.text_end = st->text_end,
		.alt_start = st->alt_start,
		.alt_end = st->alt_end,
		.stack_low = sp,
		/* A boot recording's stack moves with the image */
		.stack_top = sp < st->stack_top ? st->stack_top : st->alt_stack_top,
	};
	struct {
		struct perf_data_sample s;
		u64 nr;
		u64 chain[PERFREC_MAX_DEPTH + 2];
	} rec;
	uint nr, words;

	/* The chain: PERF_CONTEXT_USER, then the PC and its callers */
	rec.chain[0] = PERF_DATA_CONTEXT_USER;
	nr = 1 + perfrec_unwind(&area, pc, regs[PERFREC_IRQ_FRAME_X29], regs[PERFREC_IRQ_FRAME_X30],
				rec.chain + 1, st->max_depth + 1);
	words = (sizeof(rec.s) + sizeof(rec.nr)) / sizeof(u64) + nr;
	if (boot) {
		uint i;

		for (i = 1; i < nr; i++)
			rec.chain[i] = perfrec_irq_boot_addr(st, rec.chain[i]);
		pc = rec.chain[1];
	}

	rec.s.header.type = PERF_DATA_RECORD_SAMPLE;
	rec.s.header.misc = PERF_DATA_MISC_USER;
	rec.s.header.size = words * sizeof(u64);
	rec.s.id = c->id;
	rec.s.ip = pc;
	((u64 *)&rec)[PERFREC_IRQ_PID_WORD] = st->pid_tid;
	rec.s.time = now;
	rec.s.period = c->period;
	rec.nr = nr;
	/* Built as a struct, stored as words (U-Boot builds -fno-strict-aliasing) */
	if (perfrec_irq_put(st, (const u64 *)&rec, words))
		st->last_ns = now;
}

static __always_inline notrace void perfrec_irq_sample(struct perfrec_irq *st,
						       struct perfrec_counter *c,
						       u64 pc, u64 now, bool boot)
{
	union {
		struct perf_data_sample s;
		u64 words[sizeof(struct perf_data_sample) / sizeof(u64)];
	} rec = {
		.s.header.type = PERF_DATA_RECORD_SAMPLE,
		.s.header.misc = PERF_DATA_MISC_USER,
		.s.header.size = sizeof(struct perf_data_sample),
		.s.id = c->id,
		.s.ip = boot ? perfrec_irq_boot_addr(st, pc) : pc,
		.s.time = now,
		.s.period = c->period,
	};

	rec.words[PERFREC_IRQ_PID_WORD] = st->pid_tid;
	if (perfrec_irq_put(st, rec.words, ARRAY_SIZE(rec.words)))
		st->last_ns = now;
}

/*
 * The generic timer's interrupt: its deadline has passed. Move it a period
 * on (whole periods more if the interrupt came that late, or the workload
 * would not get PERFREC_TIMER_GAP_NS: they count as late, and the phase is
 * kept), then take a cpu-clock sample or, counting,
 * fold the PMU's overflows into the counts.
 */
static notrace void perfrec_irq_timer(struct perfrec_irq *st, u64 pc, const u64 *regs, bool boot)
{
	struct perfrec_counter *c = &st->counter[0];
	u64 missed, next;
	uint i;

	next = perfrec_period_timer_next(st->timer_cval, st->timer_ticks, read_cntpct_el0(),
					 st->timer_gap, &missed);
	if (missed && !perfrec_irq_stat(st)) {
		c->late += missed;
		c->count += missed * c->period;
	}
	st->timer_cval = next;
	perfrec_timer_set(st->timer_el, next);
	isb();	/* the timer's output drops before the GIC sees the EOI */
	if (perfrec_irq_stat(st)) {
		u64 ovs = read_pmovsclr_el0() & st->ovf_mask;

		write_pmovsclr_el0(ovs);
		for (i = 0; i < st->nr_counters; i++) {
			struct perfrec_counter *ctr = &st->counter[i];

			if (ctr->idx != PERFREC_TIMER_IDX && (ovs & BIT(ctr->idx)))
				ctr->count += ctr->max_period + 1;
		}
		return;
	}
	c->count += c->period;
	if (IS_ENABLED(CONFIG_PERFREC_CALLCHAIN) && st->callchain)
		perfrec_irq_sample_chain(st, c, pc, regs, perfrec_irq_now_ns(st), boot);
	else
		perfrec_irq_sample(st, c, pc, perfrec_irq_now_ns(st), boot);
}

/*
 * The handler's body, inlined twice: the fast path (one event sampled on a
 * PMU counter, flat samples, GICv2 or GICv3 group 1) keeps the code and
 * stack frame it has without the rest; @general (a constant) adds several
 * events, counting, jitter, call chains, the timer, GICv3 group 0 (EL3) and
 * the BCM2836 local controller.
 * @st and @boot (constants too) are a boot recording's, for its own entry.
 */
static __always_inline void perfrec_irq_handle(struct perfrec_irq *st, u64 pc, u64 *regs,
					       bool general, bool boot)
{
	const struct perfrec_gic_cpuif gic = st->gic;	/* a copy: stores cannot alias it */
	u32 iar = perfrec_gic_ack(&gic, general);
	uint intid = perfrec_gic_intid(&gic, iar, general);
	u64 ovs, now;
	uint i;

	if (intid != st->intid) {
		if (intid >= PERFREC_GIC_INTID_SPECIAL) {
			st->spurious++;
			return;
		}
		st->foreign++;
		perfrec_gic_eoi(&gic, iar, general);
		return;
	}
	if (general && st->timer) {
		perfrec_irq_timer(st, pc, regs, boot);
		perfrec_gic_eoi(&gic, iar, general);
		return;
	}

	ovs = read_pmovsclr_el0() & st->ovf_mask;
	write_pmovsclr_el0(ovs);
	if (!ovs)
		st->spurious++;
	now = perfrec_irq_now_ns(st);
	/* The fast path has one sampling counter: no loop, no counting mode, no jitter */
	for (i = 0; general ? i < st->nr_counters : i < 1; i++) {
		struct perfrec_counter *c = &st->counter[i];
		u64 next = c->base_period;

		if (general ? !(ovs & BIT(c->idx)) : !ovs)
			continue;
		if (general && perfrec_irq_stat(st)) {
			/* Counting: the counter wrapped and counts on */
			c->count += c->max_period + 1;
			continue;
		}
		if (c->target_ns) {
			next = perfrec_irq_adjust(c, now - c->last_ns);
			c->last_ns = now;
		}
		if (general && st->jitter_pct)
			next = perfrec_period_jitter(next, st->jitter_pct, &st->rng,
						     c->max_period);
		perfrec_irq_reload(c, next);
		c->count += c->period;
		if (general && IS_ENABLED(CONFIG_PERFREC_CALLCHAIN) && st->callchain)
			perfrec_irq_sample_chain(st, c, pc, regs, now, boot);
		else
			perfrec_irq_sample(st, c, pc, now, boot);
		c->period = next;
	}
	isb();	/* the overflow flags are clear before the GIC sees the EOI */
	perfrec_gic_eoi(&gic, iar, general);
}

static noinline notrace void perfrec_irq_handler_general(u64 pc, u64 *regs)
{
	perfrec_irq_handle(&perfrec_irq, pc, regs, true, false);
}

void notrace perfrec_irq_handler(u64 pc, u64 *regs)
{
	if (unlikely(perfrec_irq.general)) {
		perfrec_irq_handler_general(pc, regs);	/* a tail call */
		return;
	}
	perfrec_irq_handle(&perfrec_irq, pc, regs, false, false);
}

/* The boot recording's (perfrec_boot.c): unused, and dropped, without CONFIG_PERFREC_BOOT */
static noinline notrace void perfrec_irq_boot_handler_general(u64 pc, u64 *regs)
{
	perfrec_irq_handle(PERFREC_BOOT_IRQ, pc, regs, true, true);
}

void notrace perfrec_irq_boot_handler(u64 pc, u64 *regs)
{
	struct perfrec_irq *st = PERFREC_BOOT_IRQ;

	/* The state's address in one register, not rebuilt from the constant at each use */
	asm("" : "+r" (st));
	if (unlikely(st->general)) {
		perfrec_irq_boot_handler_general(pc, regs);	/* a tail call */
		return;
	}
	perfrec_irq_handle(st, pc, regs, false, true);
}
