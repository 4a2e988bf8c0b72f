/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's hardware (drivers/perf/), as the recorder uses it
 *
 * The session (lib/perfrec/perfrec_session.c) arms in three steps, each one
 * call here: find (the tree, the PMU, the source and its controller), claim
 * (the counters, the snapshot, the controller, the probe) and start (the
 * vectors, the counters). perfrec_hw_stop() gives everything back and
 * compares it with the snapshot taken at the claim. The IRQ handler's
 * state, which the recorder reads (the ring, the counts) and a boot
 * recording keeps in its buffer, is here too.
 */

#ifndef __PERFREC_HW_H
#define __PERFREC_HW_H

#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_period.h>
#include <perfrec_ring.h>
#include <perfrec_snapshot.h>
#include <linux/bitops.h>
#include <linux/types.h>

struct perfrec_dt;

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
 * @target: frequency mode: wanted clock ticks between samples, else 0
 * @last: frequency mode: the clock's ticks at the previous overflow
 * @count: events of all finished intervals (sum of their periods)
 * @late: periods that passed without a sample because the interrupt came
 *	more than a period after the overflow
 * @max_period: the largest value the counter holds (2^32 - 1 or 2^64 - 1)
 * @longest: the longest period it takes, perfrec_period_max(@max_period)
 * @idx: PMU counter index (PERFREC_CYCLE_COUNTER for PMCCNTR_EL0), or
 *	PERFREC_TIMER_IDX for cpu-clock (the generic timer, no PMU counter)
 */
struct perfrec_counter {
	u64 header;
	u64 id;
	u64 period;
	u64 base_period;
	u64 target;
	u64 last;
	u64 count;
	u64 late;
	u64 max_period;
	u64 longest;
	uint idx;
};

/**
 * struct perfrec_gic_cpuif - What the IRQ handler needs of the GIC
 * @version: 2 or 3, or PERFREC_GIC_BCM2836
 * @cpu: GICv2 CPU interface (GICC) base; unused on v3 (system registers);
 *	the BCM2836 core's IRQ source register
 * @group0: v3: acknowledge and end through the group 0 registers (EL3)
 */
struct perfrec_gic_cpuif {
	uint version;
	void __iomem *cpu;
	bool group0;
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
 * @ns_mult: the clock's ticks to ns: ns = ticks * @ns_mult >> 32. A
 *	sample holds ticks until it is written out (perfrec_hw_ticks_ns())
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
 * @samples: samples stored (this and @lost word-sized: one add each on a
 *	sample's path, and no recording takes 2^32 samples)
 * @lost: samples dropped because the ring was full
 * @spurious: interrupts with no overflow flag set, or no pending INTID
 * @foreign: interrupts other than the PMU's (acknowledged and ended)
 * @gt: a Cortex-A9's global timer (perfrec_gtimer.h), where the CPU has no
 *	generic timer: the clock, and cpu-clock's interrupt; else NULL
 * @gt_ctl: its control value while cpu-clock samples on it
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
	ulong samples;
	ulong lost;
	u64 spurious;
	u64 foreign;
	void __iomem *gt;
	u32 gt_ctl;
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

/* Bytes of one session's hardware state, at least (a build check says) */
#define PERFREC_HW_BYTES		7168

/**
 * struct perfrec_hw - The hardware of one session, the driver's own
 *
 * The tree's facts, the interrupt and its controller, the CPU's state, the
 * counters and the snapshot before arming (struct perfrec_hw_state in
 * drivers/perf/perfrec_hw.c). The recorder holds it by value: before
 * relocation the boot recording's session is in its buffer, with no
 * allocator to give it room.
 *
 * @room: the driver's state
 */
struct perfrec_hw {
	u64 room[PERFREC_HW_BYTES / sizeof(u64)];
};

/**
 * perfrec_hw_find() - Find what a configuration needs, touching nothing
 * @hw: the session's hardware
 * @cfg: what to record
 * @scan: walk the control device tree (else perfrec_hw_dt() holds an earlier
 *	walk's facts)
 * @irq: says why the interrupt cannot be used, on error
 *
 * Refuses an EL this build leaves out and a CPU without a timer frequency
 * before it reads anything else. On error, or if the session goes no
 * further, perfrec_hw_put() gives back what the controller's find mapped.
 * Return: 0, -EPERM (EL), -ETIME (timer), -ENODEV (no PMU for a PMU
 * event: @irq->fault says PERFREC_IRQ_NO_PMU for a recording), or the
 * source's find's error
 */
int perfrec_hw_find(struct perfrec_hw *hw, const struct perfrec_cfg *cfg, bool scan,
		    struct perfrec_irq_report *irq);

/**
 * perfrec_hw_claim() - Take the counters and the interrupt, still masked
 * @hw: the session's hardware, found
 * @st: the IRQ handler's state, set up here
 * @cfg: what to record
 * @events: the perf.data's events (their sample ids)
 * @text_bytes: the bytes of the image's code, from its first instruction
 * @boot: a boot recording before relocation
 * @irq: says why the interrupt cannot be used, on error
 *
 * Gives each event a counter, snapshots every register the session will
 * borrow, sets the controller up and masks the CPU's interrupts, then
 * raises the interrupt once to see it arrive (unless @cfg->no_probe). On
 * error nothing is left claimed.
 * Return: 0, perfrec_counters_init()'s error (perfrec_hw_failed_event()
 * says which event), or the controller's or the probe's (-ETIMEDOUT)
 */
int perfrec_hw_claim(struct perfrec_hw *hw, struct perfrec_irq *st, const struct perfrec_cfg *cfg,
		     const struct perf_data_event *events, u64 text_bytes, bool boot,
		     struct perfrec_irq_report *irq);

/**
 * perfrec_hw_release() - Undo perfrec_hw_claim(): the controller and the masks as they were
 * @hw: the session's hardware, claimed
 * @source: the session's source
 */
void perfrec_hw_release(struct perfrec_hw *hw, enum perfrec_source source);

/**
 * perfrec_hw_start() - Take the vectors and start the counters
 * @hw: the session's hardware, claimed
 * @st: the IRQ handler's state
 * @cfg: what to record
 * @boot: a boot recording before relocation
 *
 * The CPU's interrupts stay masked: perfrec_hw_unmask() lets them in.
 */
void perfrec_hw_start(struct perfrec_hw *hw, struct perfrec_irq *st, const struct perfrec_cfg *cfg,
		      bool boot);

/**
 * perfrec_hw_unmask() - Let the session's interrupt in at the CPU
 * @hw: the session's hardware, started
 */
void perfrec_hw_unmask(const struct perfrec_hw *hw);

/**
 * perfrec_hw_stop() - Stop the counters and give every register back
 * @hw: the session's hardware, started
 * @st: the IRQ handler's state
 * @source: the session's source
 * @mismatch: returns the first register that differs from the snapshot
 *	perfrec_hw_claim() took
 * Return: 0, or -EIO if a register differs
 */
int perfrec_hw_stop(struct perfrec_hw *hw, struct perfrec_irq *st, enum perfrec_source source,
		    struct perfrec_snap_diff *mismatch);

/**
 * perfrec_hw_put() - Give back what the controller's find mapped
 * @hw: the session's hardware
 */
void perfrec_hw_put(struct perfrec_hw *hw);

/**
 * perfrec_hw_relocated() - A boot recording's hardware, once U-Boot has relocated
 * @hw: the boot recording's hardware, started before relocation
 * @vbar: U-Boot's relocated vectors, what any end gives back from now on
 *
 * The snapshot expects @vbar, and its names point into the relocated image.
 */
void perfrec_hw_relocated(struct perfrec_hw *hw, u64 vbar);

/**
 * perfrec_hw_dt() - What the session's walk found in the control device tree
 * @hw: the session's hardware
 * Return: the facts, which perfrec_hw_find() fills when it walks
 */
struct perfrec_dt *perfrec_hw_dt(struct perfrec_hw *hw);

/**
 * perfrec_hw_failed_event() - The event a failed perfrec_hw_claim() is about
 * @hw: the session's hardware
 * Return: its index in the configuration, or -1
 */
int perfrec_hw_failed_event(const struct perfrec_hw *hw);

/**
 * perfrec_hw_id() - The sample id of the session's first event
 * @hw: the session's hardware, claimed
 * Return: the id
 */
u32 perfrec_hw_id(const struct perfrec_hw *hw);

/**
 * perfrec_hw_count() - What an event counted over a stopped session
 * @hw: the session's hardware, stopped
 * @i: the event's index
 * Return: the count
 */
u64 perfrec_hw_count(const struct perfrec_hw *hw, uint i);

/**
 * perfrec_hw_span_ns() - When the counters started, and stopped
 * @hw: the session's hardware, started
 * @endp: returns when they stopped (once stopped), if not NULL
 * Return: when they started, on the IRQ handler's time base
 */
u64 perfrec_hw_span_ns(const struct perfrec_hw *hw, u64 *endp);

/**
 * perfrec_hw_ticks_ns() - The clock's ticks in ns: a sample's time, or now
 * @st: the IRQ handler's state
 * @ticks: the ticks
 *
 * The one place ticks become ns. The handler stores ticks: for a sample the
 * product is paid when the perf.data is written out, not in interrupt
 * context.
 * Return: the ns since the clock started
 */
static inline u64 perfrec_hw_ticks_ns(const struct perfrec_irq *st, u64 ticks)
{
	return perfrec_mul_shr32(ticks, st->ns_mult);
}

/**
 * perfrec_hw_now_ns() - The time now, on the IRQ handler's time base
 * @st: the IRQ handler's state, set up by perfrec_hw_claim()
 * Return: nanoseconds since the generic timer started
 */
u64 perfrec_hw_now_ns(const struct perfrec_irq *st);

/**
 * perfrec_hw_time_ns() - The time now, before any session set a time base
 * Return: nanoseconds since the generic timer started, or 0 if the firmware
 * left its frequency at 0
 */
u64 perfrec_hw_time_ns(void);

/**
 * perfrec_hw_timer_runs() - Whether the generic timer has a frequency and counts
 * @tries: how many reads may return the first value
 * Return: 0, -ETIME if it has no frequency, -EAGAIN if it did not move
 */
int perfrec_hw_timer_runs(uint tries);

/**
 * perfrec_hw_el() - The EL U-Boot runs at (32-bit Arm: SVC 1, Hyp 2, Monitor 3)
 * Return: 0 to 3
 */
uint perfrec_hw_el(void);

/**
 * perfrec_hw_gt_hz() - The rate of a session's clock, if it was not the generic timer
 * @hw: the session's hardware, found
 * @measured: set to the rate measured against U-Boot's timer (0 likewise)
 * @tree: set to the rate of the timer's clock in the tree, 0 if none
 * Return: a Cortex-A9's global timer's ticks per second, @tree if the tree
 * gives one, else @measured; 0 if the clock was the generic timer
 */
u64 perfrec_hw_gt_hz(const struct perfrec_hw *hw, u64 *measured, u64 *tree);

/**
 * perfrec_hw_has_timer() - Whether the CPU has the generic timer
 * Return: true if so (always on AArch64; ID_PFR1.GenTimer on 32-bit Arm)
 */
bool perfrec_hw_has_timer(void);

/**
 * perfrec_hw_midr() - The CPU's main ID register
 * Return: MIDR_EL1 (MIDR on 32-bit Arm)
 */
u64 perfrec_hw_midr(void);

/**
 * perfrec_hw_block() - Mask the CPU's IRQ and FIQ: the IRQ handler stays out
 * Return: the masks as they were, for perfrec_hw_unblock()
 */
u64 perfrec_hw_block(void);

/**
 * perfrec_hw_unblock() - Undo perfrec_hw_block()
 * @masks: what it returned
 */
void perfrec_hw_unblock(u64 masks);

/**
 * perfrec_hw_irq_masked() - Whether a saved set of masks holds IRQ off
 * @masks: the CPU's interrupt masks (DAIF on AArch64, CPSR on 32-bit Arm)
 * Return: true if IRQ is masked in @masks
 */
bool perfrec_hw_irq_masked(u64 masks);

/**
 * perfrec_cpu_vectors_ours() - Does the vector base hold perfrec's vectors?
 * @boot: the boot recording's tables, whose handler finds its state in the
 *	boot buffer
 *
 * The copy in the image that runs this code.
 * Return: true if it points at them
 */
bool perfrec_cpu_vectors_ours(bool boot);

/**
 * perfrec_cpu_switch_vectors() - Point the vector base at perfrec's vectors
 * @boot: the boot recording's tables (see perfrec_cpu_vectors_ours())
 *
 * The tables of the image that runs this code: after relocation, the
 * relocated ones. Call with interrupts masked.
 * Return: the vector base as it was
 */
u64 perfrec_cpu_switch_vectors(bool boot);

#endif /* __PERFREC_HW_H */
