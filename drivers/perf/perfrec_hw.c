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
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <asm/global_data.h>
#include <linux/string.h>
#include "perfrec_arch.h"
#include "perfrec_counters.h"
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include "perfrec_dt.h"
#include "perfrec_gic.h"
#include "perfrec_hw.h"
#include "perfrec_source.h"
#include "pmuv3.h"

DECLARE_GLOBAL_DATA_PTR;

/*
 * The registers a session borrows: the CPU's, the sources', and the
 * interrupt's at its controller; then the page-table descriptors mapped for
 * the controller (what they held before while the session holds them, what
 * they hold after perfrec_gic_put())
 */
static void perfrec_hw_snapshot_regs(const struct perfrec_hw *hw, enum perfrec_source source,
				     struct perfrec_snapshot *snap)
{
	perfrec_source_snapshot(snap, source != PERFREC_SRC_NONE ? &hw->gic : NULL);
}

static void perfrec_hw_snapshot_tables(const struct perfrec_hw *hw, enum perfrec_source source,
				       struct perfrec_snapshot *snap)
{
	if (source != PERFREC_SRC_NONE)
		perfrec_gic_snapshot_tables(&hw->gic, snap);
}

int perfrec_hw_find(struct perfrec_hw *hw, const struct perfrec_cfg *cfg, bool scan,
		    struct perfrec_irq_report *irq)
{
	uint i;
	int ret;

	/* Not one register of an EL this build leaves out is touched */
	if (!perfrec_cpu_el_built())
		return log_msg_ret("el", -EPERM);
	/* Timestamps and cpu-clock count the generic timer: none, or no frequency, no time */
	if (!perfrec_arch_has_timer() || !read_cntfrq())
		return log_msg_ret("cntfrq", -ETIME);
	/*
	 * One walk of the device tree, after the refusals that need none. A
	 * missing PMU comes after it: a recording then tries the timer, found
	 * by the same walk.
	 */
	if (scan)
		perfrec_dt_scan(&hw->dt);
	hw->ctr.src.have_pmu = !pmuv3_detect(&hw->ctr.src.pmu);
	for (i = 0; i < cfg->nr_events; i++) {
		if (cfg->events[i].timer || hw->ctr.src.have_pmu)
			continue;
		/* A recording can sample the timer instead; a count cannot */
		if (cfg->mode == PERFREC_RECORD)
			irq->fault = PERFREC_IRQ_NO_PMU;
		return log_msg_ret("pmu", -ENODEV);
	}
	ret = perfrec_source_find(cfg->source, &hw->dt, &hw->ctr.src, &hw->gic, irq);
	if (ret)
		return log_msg_ret("irq", ret);

	return 0;
}

void perfrec_hw_release(struct perfrec_hw *hw, enum perfrec_source source)
{
	if (source != PERFREC_SRC_NONE)
		perfrec_ctlr_restore(&hw->gic);
	perfrec_cpu_restore_masks(&hw->cpu);
}

/*
 * Enable the interrupt at its controller and mask it at the CPU (it is
 * masked at the prompt; it stays so until all is ready); then check that it
 * arrives
 */
static int perfrec_hw_take_irq(struct perfrec_hw *hw, const struct perfrec_cfg *cfg,
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
			perfrec_hw_release(hw, cfg->source);
			return log_msg_ret("probe", ret);
		}
	}

	return 0;
}

int perfrec_hw_claim(struct perfrec_hw *hw, struct perfrec_irq *st, const struct perfrec_cfg *cfg,
		     const struct perf_data_event *events, u64 text_bytes, bool boot,
		     struct perfrec_irq_report *irq)
{
	int ret;

	ret = perfrec_counters_init(&hw->ctr, st, cfg, events, &hw->gic, text_bytes, boot);
	if (ret)
		return log_msg_ret("counters", ret);
	perfrec_hw_snapshot_regs(hw, cfg->source, &hw->before);
	perfrec_hw_snapshot_tables(hw, cfg->source, &hw->before);

	return perfrec_hw_take_irq(hw, cfg, irq);
}

void perfrec_hw_start(struct perfrec_hw *hw, struct perfrec_irq *st, const struct perfrec_cfg *cfg,
		      bool boot)
{
	perfrec_cpu_take(&hw->cpu, boot);
	perfrec_counters_start(&hw->ctr, st, cfg);
}

void perfrec_hw_put(struct perfrec_hw *hw)
{
	perfrec_gic_put(&hw->gic);
}

int perfrec_hw_stop(struct perfrec_hw *hw, struct perfrec_irq *st, enum perfrec_source source,
		    struct perfrec_snap_diff *mismatch)
{
	struct perfrec_snapshot after;

	perfrec_counters_stop(&hw->ctr, st);
	perfrec_cpu_give_back(&hw->cpu);
	perfrec_hw_release(hw, source);

	perfrec_hw_snapshot_regs(hw, source, &after);
	perfrec_hw_put(hw);
	perfrec_hw_snapshot_tables(hw, source, &after);

	return perfrec_snap_compare(&hw->before, &after, mismatch);
}

void perfrec_hw_relocated(struct perfrec_hw *hw, u64 vbar)
{
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
