// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: the hardware one session borrows, taken in three steps
 *
 * Find reads the tree and the PMU's ID registers and maps the interrupt
 * controller; claim writes the counters' state, snapshots every register
 * the session borrows, sets the controller up and probes the interrupt;
 * start takes the vectors and starts the counters. Each step calls the
 * session's source and its controller through their tables
 * (perfrec_source.c, perfrec_ctlr.c). Stop gives everything back in the
 * reverse order and compares it with the snapshot.
 *
 * The recorder holds the state as struct perfrec_hw, room it cannot look
 * into (<perfrec_hw.h>); struct perfrec_hw_state is what the room holds.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <perfrec.h>
#include <perfrec_dt.h>
#include <perfrec_hw.h>
#include <perfrec_snapshot.h>
#include <asm/global_data.h>
#include <linux/string.h>
#include "perfrec_arch.h"
#include "perfrec_counters.h"
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include "perfrec_gic.h"
#include "perfrec_gtimer.h"
#include "perfrec_irq.h"
#include "perfrec_source.h"
#include "pmuv3.h"

DECLARE_GLOBAL_DATA_PTR;

/**
 * struct perfrec_hw_state - The hardware of one session
 * @dt: what the last arming found in the control device tree, in one walk;
 *	kept for the session (the boot recording's adoption takes its PMU node)
 * @gic: the interrupt controller and the interrupt
 * @cpu: the vectors, the interrupt masks and the routing before arming
 * @ctr: the counters and the timer, and what they counted
 * @before: snapshot of every register the session borrows, before arming
 */
struct perfrec_hw_state {
	struct perfrec_dt dt;
	struct perfrec_gic gic;
	struct perfrec_cpu cpu;
	struct perfrec_counters ctr;
	struct perfrec_snapshot before;
};

_Static_assert(sizeof(struct perfrec_hw_state) <= sizeof(struct perfrec_hw),
	       "PERFREC_HW_BYTES must grow");

static struct perfrec_hw_state *perfrec_hw_state(struct perfrec_hw *hw)
{
	return (struct perfrec_hw_state *)hw->room;
}

static const struct perfrec_hw_state *perfrec_hw_cstate(const struct perfrec_hw *hw)
{
	return (const struct perfrec_hw_state *)hw->room;
}

/*
 * The registers a session borrows: the CPU's, the sources', and the
 * interrupt's at its controller; then the page-table descriptors mapped for
 * the controller (what they held before while the session holds them, what
 * they hold after perfrec_gic_put())
 */
static void perfrec_hw_snapshot_regs(const struct perfrec_hw_state *hw, enum perfrec_source source,
				     struct perfrec_snapshot *snap)
{
	perfrec_source_snapshot(snap, source != PERFREC_SRC_NONE ? &hw->gic : NULL);
}

static void perfrec_hw_snapshot_tables(const struct perfrec_hw_state *hw,
				       enum perfrec_source source, struct perfrec_snapshot *snap)
{
	if (source != PERFREC_SRC_NONE)
		perfrec_gic_snapshot_tables(&hw->gic, snap);
}

int perfrec_hw_find(struct perfrec_hw *hwp, const struct perfrec_cfg *cfg, bool scan,
		    struct perfrec_irq_report *irq)
{
	struct perfrec_hw_state *hw = perfrec_hw_state(hwp);
	bool probed = false;
	uint i;
	int ret;

	/* Not one register of an EL this build leaves out is touched */
	if (!perfrec_cpu_el_built())
		return log_msg_ret("el", -EPERM);
	/*
	 * Timestamps and cpu-clock count the generic timer, or where the CPU
	 * has none a Cortex-A9's global timer: neither, or no frequency, no time
	 */
	if (perfrec_gtimer_find(&hw->ctr.src.gt) &&
	    (!perfrec_arch_has_timer() || !read_cntfrq()))
		return log_msg_ret("clock", -ETIME);
	/*
	 * One walk of the device tree, after the refusals that need none. A
	 * missing PMU comes after it: a recording then tries the timer, found
	 * by the same walk.
	 */
	if (scan)
		perfrec_dt_scan(&hw->dt);
	hw->ctr.src.have_pmu = !pmuv3_detect(&hw->ctr.src.pmu);
	for (i = 0; i < cfg->nr_events; i++) {
		const struct perfrec_event_cfg *ev = &cfg->events[i];
		uint still;

		if (ev->timer)
			continue;
		if (!hw->ctr.src.have_pmu) {
			/* A recording can sample the timer instead; a count cannot */
			if (cfg->mode == PERFREC_RECORD)
				irq->fault = PERFREC_IRQ_NO_PMU;
			return log_msg_ret("pmu", -ENODEV);
		}
		/*
		 * A 32-bit core's PMU may be registers alone (QEMU's A8 and A9
		 * before 8.2), or not count in Secure state: a few instructions
		 * tell, once, for the first event that needs the PMU
		 */
		if (!IS_ENABLED(CONFIG_ARM64) && !probed) {
			pmuv3_probe_counting(&hw->ctr.src.pmu);
			probed = true;
		}
		still = hw->ctr.src.pmu.still;
		if (still & (ev->cycle_counter ? PMUV3_STILL_CYCLES : PMUV3_STILL_EVENTS)) {
			irq->fault = still & PMUV3_STILL_CYCLES ? PERFREC_IRQ_STILL :
				     PERFREC_IRQ_STILL_EVENTS;
			return log_msg_ret("still", -ENODEV);
		}
	}
	ret = perfrec_source_find(cfg->source, &hw->dt, &hw->ctr.src, &hw->gic, irq);
	if (ret)
		return log_msg_ret("irq", ret);

	return 0;
}

static void perfrec_hw_give_irq(struct perfrec_hw_state *hw, enum perfrec_source source)
{
	if (source != PERFREC_SRC_NONE)
		perfrec_ctlr_restore(&hw->gic);
	perfrec_cpu_restore_masks(&hw->cpu);
}

void perfrec_hw_release(struct perfrec_hw *hwp, enum perfrec_source source)
{
	struct perfrec_hw_state *hw = perfrec_hw_state(hwp);

	perfrec_hw_give_irq(hw, source);
	perfrec_gtimer_release(&hw->ctr.src.gt);
}

/*
 * Enable the interrupt at its controller and mask it at the CPU (it is
 * masked at the prompt; it stays so until all is ready); then check that it
 * arrives. -ENOMSG: it did not, and all is as before.
 */
static int perfrec_hw_try_irq(struct perfrec_hw_state *hw, const struct perfrec_cfg *cfg,
			      struct perfrec_irq_report *irq)
{
	bool used = cfg->source != PERFREC_SRC_NONE;
	int ret;

	if (used) {
		ret = perfrec_ctlr_setup(&hw->gic);
		if (ret == -ETIMEDOUT)
			perfrec_gic_fault(&hw->gic, ret, irq);
		if (ret)
			return log_msg_ret("gic", ret);
	}
	perfrec_cpu_mask(&hw->cpu);
	if (used && !cfg->no_probe) {
		ret = perfrec_source_probe(cfg->source, &hw->ctr.src, &hw->gic, irq);
		if (ret) {
			perfrec_hw_give_irq(hw, cfg->source);
			return -ENOMSG;
		}
	}

	return 0;
}

/*
 * The interrupt the tree gives, or else the one the source may raise
 * instead (the Secure timer's, in Secure SVC); the first's fault if neither
 * arrives
 */
static int perfrec_hw_take_irq(struct perfrec_hw_state *hw, const struct perfrec_cfg *cfg,
			       struct perfrec_irq_report *irq)
{
	struct perfrec_irq_report first;
	uint intid = hw->gic.intid;
	int ret;

	ret = perfrec_hw_try_irq(hw, cfg, irq);
	if (ret != -ENOMSG)
		return ret;
	first = *irq;
	if (!perfrec_source_next(cfg->source, &hw->dt, &hw->ctr.src, &hw->gic, irq)) {
		ret = perfrec_hw_try_irq(hw, cfg, irq);
		if (ret != -ENOMSG)
			return ret;
		hw->gic.intid = intid;
		*irq = first;
	}

	return log_msg_ret("probe", -ETIMEDOUT);
}

int perfrec_hw_claim(struct perfrec_hw *hwp, struct perfrec_irq *st, const struct perfrec_cfg *cfg,
		     const struct perf_data_event *events, u64 text_bytes, bool boot,
		     struct perfrec_irq_report *irq)
{
	struct perfrec_hw_state *hw = perfrec_hw_state(hwp);
	struct perfrec_gtimer *gt = &hw->ctr.src.gt;
	int ret;

	perfrec_hw_snapshot_regs(hw, cfg->source, &hw->before);
	perfrec_hw_snapshot_tables(hw, cfg->source, &hw->before);
	/* The A9's global timer runs from here: the clock counts at its rate */
	if (gt->base) {
		ret = perfrec_gtimer_claim(gt);
		if (ret)
			return log_msg_ret("gt", ret);
	}
	ret = perfrec_counters_init(&hw->ctr, st, cfg, events, &hw->gic, text_bytes, boot);
	if (!ret)
		ret = perfrec_hw_take_irq(hw, cfg, irq);
	if (ret)
		perfrec_gtimer_release(gt);
	/* The interrupt the probe found (the Secure timer's, in Secure SVC) */
	st->intid = hw->gic.intid;

	return ret;
}

void perfrec_hw_start(struct perfrec_hw *hwp, struct perfrec_irq *st, const struct perfrec_cfg *cfg,
		      bool boot)
{
	struct perfrec_hw_state *hw = perfrec_hw_state(hwp);

	perfrec_cpu_take(&hw->cpu, boot);
	perfrec_counters_start(&hw->ctr, st, cfg);
}

void perfrec_hw_put(struct perfrec_hw *hwp)
{
	perfrec_gic_put(&perfrec_hw_state(hwp)->gic);
}

int perfrec_hw_stop(struct perfrec_hw *hwp, struct perfrec_irq *st, enum perfrec_source source,
		    struct perfrec_snap_diff *mismatch)
{
	struct perfrec_hw_state *hw = perfrec_hw_state(hwp);
	struct perfrec_snapshot after;

	perfrec_counters_stop(&hw->ctr, st);
	perfrec_cpu_give_back(&hw->cpu);
	perfrec_hw_give_irq(hw, source);
	perfrec_gtimer_release(&hw->ctr.src.gt);

	perfrec_hw_snapshot_regs(hw, source, &after);
	perfrec_gic_put(&hw->gic);
	perfrec_hw_snapshot_tables(hw, source, &after);

	return perfrec_snap_compare(&hw->before, &after, mismatch);
}

void perfrec_hw_relocated(struct perfrec_hw *hwp, u64 vbar)
{
	struct perfrec_hw_state *hw = perfrec_hw_state(hwp);
	ulong old = gd->relocaddr - gd->reloc_off;	/* where the image ran before relocation */
	uint i;

	/*
	 * The snapshot's names are the old image's strings: the relocated ones
	 * are what a snapshot taken now holds. The boot recording is
	 * AArch64's: its vectors are VBAR_ELx's.
	 */
	hw->cpu.vbar = vbar;
	for (i = 0; i < hw->before.count; i++) {
		struct perfrec_reg *reg = &hw->before.regs[i];

		if ((ulong)reg->name - old < gd->mon_len)
			reg->name += gd->relocaddr - old;
		if (!strncmp(reg->name, "VBAR_EL", 7))
			reg->val = vbar;
	}
}

void perfrec_hw_unmask(const struct perfrec_hw *hwp)
{
	perfrec_cpu_unmask(perfrec_hw_cstate(hwp)->gic.group0);
}

struct perfrec_dt *perfrec_hw_dt(struct perfrec_hw *hwp)
{
	return &perfrec_hw_state(hwp)->dt;
}

int perfrec_hw_failed_event(const struct perfrec_hw *hwp)
{
	return perfrec_hw_cstate(hwp)->ctr.failed_event;
}

u32 perfrec_hw_id(const struct perfrec_hw *hwp)
{
	return perfrec_hw_cstate(hwp)->ctr.id;
}

u64 perfrec_hw_count(const struct perfrec_hw *hwp, uint i)
{
	return perfrec_hw_cstate(hwp)->ctr.count[i];
}

u64 perfrec_hw_span_ns(const struct perfrec_hw *hwp, u64 *endp)
{
	const struct perfrec_hw_state *hw = perfrec_hw_cstate(hwp);

	if (endp)
		*endp = hw->ctr.end_ns;

	return hw->ctr.start_ns;
}

u64 perfrec_hw_now_ns(const struct perfrec_irq *st)
{
	return perfrec_irq_now_ns(st);
}

u64 perfrec_hw_time_ns(void)
{
	return perfrec_now_ns();
}

int perfrec_hw_timer_runs(uint tries)
{
	u64 first = read_cntpct();
	uint i;

	if (!read_cntfrq())
		return -ETIME;
	for (i = 0; i < tries; i++) {
		if (read_cntpct() != first)
			return 0;
	}

	return -EAGAIN;
}

uint perfrec_hw_el(void)
{
	return perfrec_arch_el();
}

u64 perfrec_hw_gt_hz(const struct perfrec_hw *hwp, u64 *measured, u64 *tree)
{
	const struct perfrec_gtimer *gt = &perfrec_hw_cstate(hwp)->ctr.src.gt;

	*measured = gt->base ? gt->measured : 0;
	*tree = gt->base ? gt->tree_rate : 0;

	return gt->base ? gt->rate : 0;
}

bool perfrec_hw_has_timer(void)
{
	return perfrec_arch_has_timer();
}

u64 perfrec_hw_midr(void)
{
	return read_cpu_midr();
}

u64 perfrec_hw_block(void)
{
	u64 masks = read_irq_masks();

	perfrec_cpu_block();

	return masks;
}

void perfrec_hw_unblock(u64 masks)
{
	write_irq_masks(masks);
}

bool perfrec_hw_irq_masked(u64 masks)
{
	return masks & CPU_MASK_IRQ;
}
