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

/*
 * Frequency mode: the last @period events took @dt clock ticks; move the
 * period an eighth of the way to the one that would have taken @target. The step is
 * rounded away from zero on both sides, so small corrections are never
 * ignored in one direction only.
 */
static __always_inline notrace u64 perfrec_irq_adjust(const struct perfrec_counter *c, u64 dt)
{
	u64 ideal;
	s64 delta;
	u64 period;

	if (!dt)
		return c->period;
	/* period * target stays below 2^64 for periods below 2^32 */
	if (c->period >> 32)
		ideal = c->period / dt * c->target;
	else
		ideal = c->period * c->target / dt;
	delta = (s64)(ideal - c->period);
	delta = delta >= 0 ? (delta + 7) / 8 : (delta - 7) / 8;
	period = c->period + delta;
	if ((s64)period < 1)
		period = 1;

	return min(period, c->longest);
}

/*
 * An event counter's reload (perfrec_irq_reload()): out of line, so that
 * the fast paths keep one copy of the switch over the counters' registers.
 * Return: the events it counted since it overflowed
 */
static noinline notrace u64 perfrec_irq_reload_event(const struct perfrec_counter *c, u64 next)
{
	u64 since = read_pmevcntrn(c->idx);

	write_pmevcntrn(c->idx, (since - next) & c->max_period);

	return since & c->max_period;
}

/*
 * Whole periods passed before the handler ran (perfrec_irq_reload()):
 * account for them, keeping the phase, and those skipped so that the
 * workload has room to run (perfrec_period_late_gap()).
 * Return: the events until the counter's next overflow
 */
static __always_inline notrace u64 perfrec_irq_late(struct perfrec_counter *c,
						    u64 since, u64 next)
{
	u64 skip, gap;

	gap = perfrec_period_late_gap(next - perfrec_irq_settle(c, since, next), next, &skip);
	c->late += skip;
	c->count += skip * next;

	return gap;
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
	/* Without CONFIG_PERFREC_EVENTS, the cycle counter is the only one */
	bool cycles = !IS_ENABLED(CONFIG_PERFREC_EVENTS) || c->idx == PERFREC_CYCLE_COUNTER;
	u64 since, gap;

	if (cycles) {
		/* 64 bits wide (PMCR_EL0.LC), or 32 read and written as such: no mask */
		since = read_pmccntr();
		write_pmccntr(since - next);
	} else {
		since = perfrec_irq_reload_event(c, next);
	}
	if (unlikely(since >= next)) {
		gap = perfrec_irq_late(c, since, next);
		if (cycles)
			write_pmccntr(-gap);
		else
			write_pmevcntrn(c->idx, -gap & c->max_period);
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

/*
 * A fast path's sample, at @dst in the ring: from values read before the
 * first store (which may alias the fields they came from)
 */
static __always_inline notrace void perfrec_irq_flat(u64 *dst, u64 header, u64 id, u64 ip,
						     u64 pid_tid, u64 now, u64 period)
{
	dst[0] = header;
	dst[PERFREC_SAMPLE_WORD(id)] = id;
	dst[PERFREC_SAMPLE_WORD(ip)] = ip;
	dst[PERFREC_SAMPLE_WORD(pid)] = pid_tid;
	dst[PERFREC_SAMPLE_WORD(time)] = now;
	dst[PERFREC_SAMPLE_WORD(period)] = period;
}

/*
 * A sample with its call chain, of @period events. It goes straight into
 * the ring when the longest chain would fit there in one piece, else it is
 * built here and copied (wrapping at the ring's end, or lost).
 */
static noinline notrace void perfrec_irq_sample_chain(struct perfrec_irq *st,
						      struct perfrec_counter *c, u64 pc,
						      const ulong *regs, u64 now, u64 period,
						      bool boot)
{
	u64 sp = (ulong)regs + PERFREC_IRQ_FRAME_BYTES;	/* the interrupted sp */
	const struct perfrec_unwind_area area = {
		.text_start = st->text_start,
		.text_end = st->text_end,
		.alt_start = st->alt_start,
		.alt_end = st->alt_end,
		.stack_low = sp,
		/* A boot recording's stack moves with the image */
		.stack_top = sp < st->stack_top ? st->stack_top : st->alt_stack_top,
		/* And its code: its addresses are kept as offsets in the image */
		.offsets = boot,
	};
	/* PERF_CONTEXT_USER, the PC and the callers */
	uint max_words = PERFREC_SAMPLE_CHAIN_OFF + 2 + st->max_depth;
	u64 buf[PERFREC_SAMPLE_MAX_WORDS], *rec, *chain, head;
	union {
		struct perf_data_event_header h;
		u64 word;
	} hdr = { .h.type = PERF_DATA_RECORD_SAMPLE, .h.misc = PERF_DATA_MISC_USER };
	bool direct;
	uint nr;

	direct = perfrec_ring_reserve(&st->ring, max_words * sizeof(u64), &rec, &head);
	if (!direct)
		rec = buf;
	chain = rec + PERFREC_SAMPLE_CHAIN_OFF;
	chain[0] = PERF_DATA_CONTEXT_USER;
	nr = 1 + perfrec_unwind(&area, pc, regs[PERFREC_IRQ_FRAME_FP], regs[PERFREC_IRQ_FRAME_LR],
				chain + 1, st->max_depth + 1);
	if (boot)
		chain[1] = perfrec_irq_boot_addr(st, pc);
	hdr.h.size = (PERFREC_SAMPLE_CHAIN_OFF + nr) * sizeof(u64);
	perfrec_irq_flat(rec, hdr.word, c->id, chain[1], st->pid_tid, now, period);
	rec[PERFREC_SAMPLE_CHAIN_OFF - 1] = nr;
	if (direct) {
		perfrec_ring_publish(&st->ring, rec, head, hdr.h.size);
		st->samples++;
	} else {
		perfrec_irq_put(st, rec, PERFREC_SAMPLE_CHAIN_OFF + nr);
	}
}

/*
 * A flat sample, built whole and then stored: the general path's, and the
 * fast paths' when the ring is full or the sample wraps at its end
 */
static noinline notrace void perfrec_irq_sample(struct perfrec_irq *st, struct perfrec_counter *c,
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

	rec.words[PERFREC_SAMPLE_WORD(pid)] = st->pid_tid;
	perfrec_irq_put(st, rec.words, ARRAY_SIZE(rec.words));
}

/*
 * The timer's interrupt (the generic timer's, or a Cortex-A9's global
 * timer's): its deadline has passed. Move it a period
 * on (whole periods more if the interrupt came that late, or the workload
 * would not get PERFREC_TIMER_GAP_NS: they count as late, and the phase is
 * kept), then take a cpu-clock sample or, counting,
 * fold the PMU's overflows into the counts.
 */
static notrace void perfrec_irq_timer(struct perfrec_irq *st, u64 pc, const ulong *regs, bool boot)
{
	struct perfrec_counter *c = &st->counter[0];
	u64 missed, next;
	uint i;

	next = perfrec_period_timer_next(st->timer_cval, st->timer_ticks, perfrec_irq_ticks(st),
					 st->timer_gap, &missed);
	if (missed && !perfrec_irq_stat(st)) {
		c->late += missed;
		c->count += missed * c->period;
	}
	st->timer_cval = next;
	if (IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && st->gt)
		perfrec_gtimer_set(st->gt, st->gt_ctl, next);
	else
		perfrec_timer_set(st->timer_el, next);
	isb();	/* the timer's output drops before the GIC sees the EOI */
	if (perfrec_irq_stat(st)) {
		u64 ovs = read_pmovsclr() & st->ovf_mask;

		write_pmovsclr(ovs);
		for (i = 0; i < st->nr_counters; i++) {
			struct perfrec_counter *ctr = &st->counter[i];

			if (ctr->idx != PERFREC_TIMER_IDX && (ovs & BIT(ctr->idx)))
				ctr->count += ctr->max_period + 1;
		}
		return;
	}
	c->count += c->period;
	if (IS_ENABLED(CONFIG_PERFREC_CALLCHAIN) && st->callchain)
		perfrec_irq_sample_chain(st, c, pc, regs, perfrec_irq_ticks(st), c->period, boot);
	else
		perfrec_irq_sample(st, c, pc, perfrec_irq_ticks(st), boot);
}

/*
 * The GIC's CPU interface as @path (a constant) sees it: a copy of the
 * session's (stores cannot alias it), with a fast path's version and group
 * as constants
 */
static __always_inline struct perfrec_gic_cpuif
perfrec_irq_cpuif(const struct perfrec_irq *st, uint path)
{
	struct perfrec_gic_cpuif gic = st->gic;

	if (path != PERFREC_IRQ_GENERAL && path != PERFREC_IRQ_CHAIN) {
		gic.version = path == PERFREC_IRQ_GICV2 || path == PERFREC_IRQ_GICV2_GT ? 2 : 3;
		gic.group0 = path == PERFREC_IRQ_GICV3_G0;
	}

	return gic;
}

/*
 * Not the PMU's interrupt: a spurious INTID is counted, another interrupt
 * counted and ended. Out of line: the fast paths need no frame for it.
 */
static noinline notrace void perfrec_irq_not_ours(ulong iar, uint intid, struct perfrec_irq *st)
{
	const struct perfrec_gic_cpuif gic = st->gic;

	if (intid >= PERFREC_GIC_INTID_SPECIAL) {
		st->spurious++;
		return;
	}
	st->foreign++;
	perfrec_gic_eoi(&gic, iar, true);
}

static noinline notrace void perfrec_irq_handler_general(u64 pc, ulong *regs);
static noinline notrace void perfrec_irq_boot_handler_general(u64 pc, ulong *regs);

/*
 * A fast path's frequency mode and late reload: on 32-bit Arm out of line
 * (each is a 64-bit division there), so that the fixed-period path, which
 * needs neither, keeps its values in registers; on AArch64 inline, where
 * a call would cost the path a frame
 */
#if BITS_PER_LONG == 32
#define PERFREC_IRQ_SLOW	noinline
#else
#define PERFREC_IRQ_SLOW	__always_inline
#endif

static PERFREC_IRQ_SLOW notrace u64 perfrec_irq_fast_freq(struct perfrec_counter *c, u64 now)
{
	u64 next = perfrec_irq_adjust(c, now - c->last);

	c->last = now;
	c->period = next;

	return next;
}

static PERFREC_IRQ_SLOW notrace void perfrec_irq_fast_late(struct perfrec_counter *c,
							   u64 since, u64 next)
{
	write_pmccntr(-perfrec_irq_late(c, since, next));
}

/*
 * A fast path: one event sampled on the cycle counter, @path (a constant)
 * says which. A flat one knows its controller, and everything it calls is
 * a tail call, so that it needs no frame: a ring without room for the
 * sample in one piece takes the general path from the start (before the
 * acknowledge: room cannot shrink meanwhile), and another interrupt
 * perfrec_irq_not_ours(). With call chains, the sample is
 * perfrec_irq_sample_chain()'s.
 */
static __always_inline void perfrec_irq_fast(struct perfrec_irq *st, u64 pc, ulong *regs,
					     uint path, bool boot)
{
	const struct perfrec_gic_cpuif gic = perfrec_irq_cpuif(st, path);
	struct perfrec_counter *c = &st->counter[0];
	u64 ovs, now, head, *dst;
	/* A counter's value or period: 64 bits on AArch64, 32 on 32-bit Arm */
	ulong period, next, since;
	uint intid;
	ulong iar;

	if (unlikely(!perfrec_ring_reserve(&st->ring, sizeof(struct perf_data_sample), &dst,
					   &head))) {
		if (boot)
			perfrec_irq_boot_handler_general(pc, regs);
		else
			perfrec_irq_handler_general(pc, regs);
		return;
	}
	/*
	 * A flat sample's PC and time go into the slot as soon as they are
	 * known, so that no register holds them over the rest (the slot is
	 * published only if the sample is taken)
	 */
	if (path != PERFREC_IRQ_CHAIN)
		dst[PERFREC_SAMPLE_WORD(ip)] = boot ? perfrec_irq_boot_addr(st, pc) : pc;
	iar = perfrec_gic_ack(&gic, false);
	intid = perfrec_gic_intid(&gic, iar, false);
	if (unlikely(intid != st->intid)) {
		perfrec_irq_not_ours(iar, intid, st);
		return;
	}
	ovs = read_pmovsclr() & st->ovf_mask;
	write_pmovsclr(ovs);
	if (likely(ovs)) {
		/* The clock a flat path has (the A9's has its own path), else asked */
		if (path == PERFREC_IRQ_CHAIN)
			now = perfrec_irq_ticks(st);
		else if (IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && path == PERFREC_IRQ_GICV2_GT)
			now = perfrec_gtimer_count(st->gt);
		else
			now = read_cntpct();
		if (path != PERFREC_IRQ_CHAIN)
			dst[PERFREC_SAMPLE_WORD(time)] = now;
		/* Without jitter, the period changes only in frequency mode */
		period = c->period;
		next = period;
		if (c->target)
			next = perfrec_irq_fast_freq(c, now);
		/* perfrec_irq_reload() for the cycle counter: 64 bits wide, no mask */
		since = read_pmccntr();
		write_pmccntr(since - next);
		if (unlikely(since >= next))
			perfrec_irq_fast_late(c, since, next);
		c->count += period;
		if (path == PERFREC_IRQ_CHAIN) {
			perfrec_irq_sample_chain(st, c, pc, regs, now, period, boot);
		} else {
			u64 header = c->header, id = c->id, pid_tid = st->pid_tid;

			dst[0] = header;
			dst[PERFREC_SAMPLE_WORD(id)] = id;
			dst[PERFREC_SAMPLE_WORD(pid)] = pid_tid;
			dst[PERFREC_SAMPLE_WORD(period)] = period;
			perfrec_ring_publish(&st->ring, dst, head,
					     sizeof(struct perf_data_sample));
			st->samples++;
		}
	} else {
		st->spurious++;
	}
	isb();	/* the overflow flag is clear before the GIC sees the EOI */
	perfrec_gic_eoi(&gic, iar, false);
}

/*
 * The general path: several events, counting, jitter, call chains, the
 * timer and the BCM2836 local controller. @st and @boot (constants) are a
 * boot recording's, for its own entry.
 */
static __always_inline void perfrec_irq_general(struct perfrec_irq *st, u64 pc, ulong *regs,
						bool boot)
{
	const struct perfrec_gic_cpuif gic = perfrec_irq_cpuif(st, PERFREC_IRQ_GENERAL);
	ulong iar = perfrec_gic_ack(&gic, true);
	uint intid = perfrec_gic_intid(&gic, iar, true);
	u64 ovs, now;
	uint i;

	if (intid != st->intid) {
		perfrec_irq_not_ours(iar, intid, st);
		return;
	}
	if (st->timer) {
		perfrec_irq_timer(st, pc, regs, boot);
		perfrec_gic_eoi(&gic, iar, true);
		return;
	}

	ovs = read_pmovsclr() & st->ovf_mask;
	write_pmovsclr(ovs);
	if (!ovs)
		st->spurious++;
	now = perfrec_irq_ticks(st);
	for (i = 0; i < st->nr_counters; i++) {
		struct perfrec_counter *c = &st->counter[i];
		u64 next = c->base_period;

		if (!(ovs & BIT(c->idx)))
			continue;
		if (perfrec_irq_stat(st)) {
			/* Counting: the counter wrapped and counts on */
			c->count += c->max_period + 1;
			continue;
		}
		if (c->target) {
			next = perfrec_irq_adjust(c, now - c->last);
			c->last = now;
		}
		if (st->jitter_pct)
			next = perfrec_period_jitter(next, st->jitter_pct, &st->rng, c->longest);
		perfrec_irq_reload(c, next);
		c->count += c->period;
		if (IS_ENABLED(CONFIG_PERFREC_CALLCHAIN) && st->callchain)
			perfrec_irq_sample_chain(st, c, pc, regs, now, c->period, boot);
		else
			perfrec_irq_sample(st, c, pc, now, boot);
		c->period = next;
	}
	isb();	/* the overflow flags are clear before the GIC sees the EOI */
	perfrec_gic_eoi(&gic, iar, true);
}

static noinline notrace void perfrec_irq_handler_general(u64 pc, ulong *regs)
{
	perfrec_irq_general(&perfrec_irq, pc, regs, false);
}

/* The boot recording's (perfrec_boot.c): unused, and dropped, without CONFIG_PERFREC_BOOT */
static noinline notrace void perfrec_irq_boot_handler_general(u64 pc, ulong *regs)
{
	perfrec_irq_general(PERFREC_BOOT_IRQ, pc, regs, true);
}

/*
 * The session's path: a fast one, inlined for each controller this build
 * has, or the general one (a tail call). Tested first: GICv3 group 1 on
 * AArch64, GICv2 on 32-bit Arm, whose boards have a GIC-400.
 */
static __always_inline void perfrec_irq_dispatch(struct perfrec_irq *st, u64 pc, ulong *regs,
						 bool boot)
{
	uint path = st->path;

	if (BITS_PER_LONG == 32 && IS_ENABLED(CONFIG_PERFREC_GICV2) && path == PERFREC_IRQ_GICV2)
		perfrec_irq_fast(st, pc, regs, PERFREC_IRQ_GICV2, boot);
	else if (IS_ENABLED(CONFIG_PERFREC_GICV3) && path == PERFREC_IRQ_GICV3)
		perfrec_irq_fast(st, pc, regs, PERFREC_IRQ_GICV3, boot);
	else if (BITS_PER_LONG == 64 && IS_ENABLED(CONFIG_PERFREC_GICV2) &&
		 path == PERFREC_IRQ_GICV2)
		perfrec_irq_fast(st, pc, regs, PERFREC_IRQ_GICV2, boot);
	else if (IS_ENABLED(CONFIG_PERFREC_GICV3) && IS_ENABLED(CONFIG_PERFREC_EL3) &&
		 path == PERFREC_IRQ_GICV3_G0)
		perfrec_irq_fast(st, pc, regs, PERFREC_IRQ_GICV3_G0, boot);
	else if (IS_ENABLED(CONFIG_PERFREC_CALLCHAIN) && path == PERFREC_IRQ_CHAIN)
		perfrec_irq_fast(st, pc, regs, PERFREC_IRQ_CHAIN, boot);
	else if (IS_ENABLED(CONFIG_PERFREC_GICV2) && IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) &&
		 path == PERFREC_IRQ_GICV2_GT)
		perfrec_irq_fast(st, pc, regs, PERFREC_IRQ_GICV2_GT, boot);
	else if (boot)
		perfrec_irq_boot_handler_general(pc, regs);
	else
		perfrec_irq_handler_general(pc, regs);
}

void notrace perfrec_irq_handler(ulong pc, ulong *regs)
{
	perfrec_irq_dispatch(&perfrec_irq, pc, regs, false);
}

void notrace perfrec_irq_boot_handler(ulong pc, ulong *regs)
{
	struct perfrec_irq *st = PERFREC_BOOT_IRQ;

	/* The state's address in one register, not rebuilt from the constant at each use */
	asm("" : "+r" (st));
	perfrec_irq_dispatch(st, pc, regs, true);
}
