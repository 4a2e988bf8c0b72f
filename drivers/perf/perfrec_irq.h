/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * State shared by the session (command context) and the IRQ handler
 */

#ifndef __PERFREC_IRQ_H
#define __PERFREC_IRQ_H

#include <perf_data.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include "perfrec_arch.h"
#include "perfrec_gic.h"
#include "perfrec_ring.h"

/* The counter index of cpu-clock: outside the PMU's 0-31 */
#define PERFREC_TIMER_IDX		32

/* U-Boot 2023.01 has no NSEC_PER_SEC */
#define PERFREC_NSEC_PER_SEC		1000000000ULL

/**
 * struct perfrec_counter - One sampling counter of a session
 *
 * The fields the fast path reads together are neighbours: one load pair
 * each.
 *
 * @header: the first word of its flat sample (struct perf_data_sample's
 *	header), and next to it:
 * @id: the perf sample id of its event
 * @period: events per sample for the current interval
 * @base_period: fixed-period mode: the period asked for (@period differs
 *	from it only with jitter)
 * @target_ns: frequency mode: wanted nanoseconds between samples, else 0
 * @last_ns: frequency mode: time of the previous overflow
 * @count: events of all finished intervals (sum of their periods)
 * @late: periods that passed without a sample because the interrupt came
 *	more than a period after the overflow
 * @max_period: the largest value the counter holds (2^32 - 1 or 2^64 - 1)
 * @longest: the longest period it takes, perfrec_period_max(@max_period)
 * @idx: PMU counter index (PMUV3_CYCLE_IDX for PMCCNTR_EL0), or
 *	PERFREC_TIMER_IDX for cpu-clock (the generic timer, no PMU counter)
 */
struct perfrec_counter {
	u64 header;
	u64 id;
	u64 period;
	u64 base_period;
	u64 target_ns;
	u64 last_ns;
	u64 count;
	u64 late;
	u64 max_period;
	u64 longest;
	uint idx;
};

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
 * @PERFREC_IRQ_GENERAL: the rest: several events, an event counter,
 *	counting, jitter, the timer, the BCM2836 local controller
 */
enum perfrec_irq_path {
	PERFREC_IRQ_GICV3,
	PERFREC_IRQ_GICV2,
	PERFREC_IRQ_GICV3_G0,
	PERFREC_IRQ_CHAIN,
	PERFREC_IRQ_GENERAL,
};

/**
 * struct perfrec_irq - Everything the IRQ handler reads and writes
 *
 * @ring: where samples go
 * @gic: the GIC's CPU interface, for acknowledge and EOI
 * @intid: the PMU interrupt
 * @pid: pid of every sample
 * @tid: tid of the samples from now on: @pid, or the thread of a boot phase
 * @pid_tid: both, as a sample holds them (one load and one store)
 * @ns_mult: generic-timer ticks to ns: ns = ticks * @ns_mult >> 32
 * @callchain: samples carry a call chain (perf's -g)
 * @path: the handler's body for this session (enum perfrec_irq_path)
 * @timer: the interrupt is the generic timer's: cpu-clock samples (counter
 *	0), or counting, a periodic check of the PMU's overflow flags
 * @timer_el: the EL whose timer it is
 * @timer_ticks: its period in counter ticks
 * @timer_cval: its next deadline
 * @timer_gap: the fewest ticks between the handler's return and the next
 *	deadline (PERFREC_TIMER_GAP_NS)
 * @max_depth: most return addresses in a chain
 * @text_start: run-time address of the image's first instruction (a
 *	boot recording: of the image that runs, before or after relocation)
 * @img_bytes: a boot recording: the bytes from @text_start and from
 *	@alt_start within which an address is stored as an offset (record-time
 *	classification; 0 turns it off). Next to @text_start: one load pair
 * @text_end: the first byte after the image's code
 * @stack_top: the stack's upper end (U-Boot's initial stack pointer)
 * @alt_start: a boot recording: the image's other place (from setup_reloc
 *	on: the relocated one, and from relocation on the old one; else 0),
 *	where its code is also found
 * @alt_end: and the first byte after its code there
 * @alt_stack_top: a boot recording: the upper end of the stack after
 *	relocation (else 0)
 * @stat: counting mode: an overflow adds 2^width to the count, no sample
 * @jitter_pct: vary each period by up to this many percent (0: off)
 * @rng: xorshift64 state for the jitter
 * @ovf_mask: overflow bits of the counters in use
 * @nr_counters: counters in use
 * @counter: the counters
 * @samples: samples stored
 * @lost: samples dropped because the ring was full
 * @spurious: interrupts with no overflow flag set, or no pending INTID
 * @foreign: interrupts other than the PMU's (acknowledged and ended)
 * @last_ns: time of the last sample stored
 */
struct perfrec_irq {
	struct perfrec_ring ring;
	struct perfrec_gic_cpuif gic;
	uint intid;
	union {
		struct {
			u32 pid;
			u32 tid;
		};
		u64 pid_tid;
	};
	u64 ns_mult;
	bool callchain;
	u8 path;
	bool timer;
	uint timer_el;
	u64 timer_ticks;
	u64 timer_cval;
	u64 timer_gap;
	uint max_depth;
	u64 text_start;
	u64 img_bytes;
	u64 text_end;
	u64 stack_top;
	u64 alt_start;
	u64 alt_end;
	u64 alt_stack_top;
	bool stat;
	uint jitter_pct;
	u64 rng;
	u32 ovf_mask;
	uint nr_counters;
	struct perfrec_counter counter[PERF_DATA_MAX_EVENTS];
	u64 samples;
	u64 lost;
	u64 spurious;
	u64 foreign;
	u64 last_ns;
};

/* Counting (perfrec stat), in a build that has it: its code drops out of the others */
static inline bool perfrec_irq_stat(const struct perfrec_irq *st)
{
	return IS_ENABLED(CONFIG_PERFREC_STAT) && st->stat;
}

extern struct perfrec_irq perfrec_irq;

/*
 * A boot recording stores an address in the image, in either place, as its
 * offset from the image's start; any other address with this bit set
 */
#define PERFREC_BOOT_RAW		BIT_ULL(63)

/* The boot recording's IRQ state: the first thing in its buffer */
#define PERFREC_BOOT_IRQ	((struct perfrec_irq *)CONFIG_IF_ENABLED_INT(PERFREC_BOOT, \
									PERFREC_BOOT_ADDR))

/* Longest call chain perf accepts (PERF_MAX_STACK_DEPTH), and ours */
#define PERFREC_MAX_DEPTH		127

/* A sample's word that holds @field (struct perf_data_sample) */
#define PERFREC_SAMPLE_WORD(field)	(offsetof(struct perf_data_sample, field) / sizeof(u64))

/* A sample's words before its chain: the flat fields and nr */
#define PERFREC_SAMPLE_CHAIN_OFF	(sizeof(struct perf_data_sample) / sizeof(u64) + 1)

/* The longest sample: its fields, nr, PERF_CONTEXT_USER, the PC and PERFREC_MAX_DEPTH callers */
#define PERFREC_SAMPLE_MAX_WORDS	(PERFREC_SAMPLE_CHAIN_OFF + 2 + PERFREC_MAX_DEPTH)

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
 * perfrec_irq_now_ns() - The time base of samples
 * @st: IRQ state with @ns_mult set
 * Return: nanoseconds since the generic timer started
 */
static inline notrace u64 perfrec_irq_now_ns(const struct perfrec_irq *st)
{
	return perfrec_mul_shr32(read_cntpct(), st->ns_mult);
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
