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
 */

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include "perfrec_gic.h"
#include "perfrec_irq.h"
#include "pmuv3_regs.h"

struct perfrec_irq perfrec_irq;

/*
 * Frequency mode: the last @period events took @dt_ns; move the period an
 * eighth of the way to the one that would have taken target_ns. The step is
 * rounded away from zero on both sides, so small corrections are never
 * ignored in one direction only.
 */
static notrace u64 perfrec_irq_adjust(const struct perfrec_counter *c, u64 dt_ns)
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
static notrace void perfrec_irq_reload(struct perfrec_counter *c, u64 next)
{
	u64 since;

	if (c->idx == PMUV3_CYCLE_IDX) {
		since = read_pmccntr_el0();
		write_pmccntr_el0(since - next);
	} else {
		since = read_pmevcntrn_el0(c->idx);
		write_pmevcntrn_el0(c->idx, (since - next) & c->max_period);
	}
	since &= c->max_period;
	if (unlikely(since >= next)) {
		/* Whole periods passed before the handler ran: keep the phase */
		since = perfrec_irq_settle(c, since, next);
		if (c->idx == PMUV3_CYCLE_IDX)
			write_pmccntr_el0(since - next);
		else
			write_pmevcntrn_el0(c->idx, (since - next) & c->max_period);
	}
}

/*
 * Append one record of @words 64-bit words to the ring, or count it lost;
 * return whether it was stored. The ring's fields are read once: stores into
 * the ring may alias anything.
 */
static notrace bool perfrec_irq_put(struct perfrec_irq *st, const u64 *rec, uint words)
{
	struct perfrec_ring *ring = &st->ring;
	u64 *base = ring->base;
	u64 size = ring->size;
	u64 head = ring->head;
	u64 wr = ring->wr;
	u64 bytes = words * sizeof(u64);
	uint i;

	if (size - (head - READ_ONCE(ring->tail)) < bytes) {
		st->lost++;
		return false;
	}
	if (likely(wr + bytes < size)) {
		u64 *dst = base + wr / sizeof(u64);

		/* Unrolled: -Os would otherwise keep a loop of ~6 instructions a word */
#pragma GCC unroll 16
		for (i = 0; i < words; i++)
			dst[i] = rec[i];
		wr += bytes;
	} else {
		for (i = 0; i < words; i++) {
			base[wr / sizeof(u64)] = rec[i];
			wr += sizeof(u64);
			if (wr == size)
				wr = 0;
		}
	}
	ring->wr = wr;
	barrier();	/* the record is complete before the consumer can see it */
	WRITE_ONCE(ring->head, head + bytes);
	st->samples++;

	return true;
}

static notrace void perfrec_irq_sample(struct perfrec_irq *st, struct perfrec_counter *c,
				       u64 pc, u64 now)
{
	union {
		struct perf_data_sample s;
		u64 words[sizeof(struct perf_data_sample) / sizeof(u64)];
	} rec = {
		.s.header.type = PERF_DATA_RECORD_SAMPLE,
		.s.header.misc = PERF_DATA_MISC_USER,
		.s.header.size = sizeof(struct perf_data_sample),
		.s.id = c->id,
		.s.ip = pc,
		.s.pid = st->pid,
		.s.tid = st->pid,
		.s.time = now,
		.s.period = c->period,
	};

	if (perfrec_irq_put(st, rec.words, ARRAY_SIZE(rec.words)))
		st->last_ns = now;
}

/* A period up to jitter_pct percent away from @period, either way */
static notrace u64 perfrec_irq_jitter(struct perfrec_irq *st, u64 period)
{
	u64 span = period / 100 * st->jitter_pct + period % 100 * st->jitter_pct / 100;
	u64 x = st->rng;

	if (!span)
		return period;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	st->rng = x;

	return period - span + x % (2 * span + 1);
}

void notrace perfrec_irq_handler(u64 pc, u64 *regs)
{
	struct perfrec_irq *st = &perfrec_irq;
	const struct perfrec_gic_cpuif gic = st->gic;	/* a copy: stores cannot alias it */
	u32 iar = perfrec_gic_ack(&gic);
	uint intid = perfrec_gic_intid(&gic, iar);
	u64 ovs, now;
	uint i;

	if (intid != st->intid) {
		if (intid >= PERFREC_GIC_INTID_SPECIAL) {
			st->spurious++;
			return;
		}
		st->foreign++;
		perfrec_gic_eoi(&gic, iar);
		return;
	}

	ovs = read_pmovsclr_el0() & st->ovf_mask;
	write_pmovsclr_el0(ovs);
	if (!ovs)
		st->spurious++;
	now = perfrec_irq_now_ns(st);
	for (i = 0; i < st->nr_counters; i++) {
		struct perfrec_counter *c = &st->counter[i];
		u64 next = c->base_period;

		if (!(ovs & BIT(c->idx)))
			continue;
		if (unlikely(st->stat)) {
			/* Counting: the counter wrapped and counts on */
			c->count += c->max_period + 1;
			continue;
		}
		if (c->target_ns) {
			next = perfrec_irq_adjust(c, now - c->last_ns);
			c->last_ns = now;
		}
		if (unlikely(st->jitter_pct))
			next = perfrec_irq_jitter(st, next);
		perfrec_irq_reload(c, next);
		c->count += c->period;
		perfrec_irq_sample(st, c, pc, now);
		c->period = next;
	}
	isb();	/* the overflow flags are clear before the GIC sees the EOI */
	perfrec_gic_eoi(&gic, iar);
}
