/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: the hardware one session borrows, in the order it is taken
 *
 * The session (lib/perfrec/perfrec_session.c) arms in three steps, each one
 * call here: find (the tree, the PMU, the source and its controller), claim
 * (the counters, the snapshot, the controller, the probe) and start (the
 * vectors, the counters). perfrec_hw_stop() gives everything back and
 * compares it with the snapshot taken at the claim.
 */

#ifndef __PERFREC_HW_H
#define __PERFREC_HW_H

#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <linux/types.h>
#include "perfrec_counters.h"
#include "perfrec_cpu.h"
#include "perfrec_dt.h"
#include "perfrec_gic.h"

struct perfrec_irq;

/**
 * struct perfrec_hw - The hardware of one session
 * @dt: what the last arming found in the control device tree, in one walk;
 *	kept for the session (the boot recording's adoption takes its PMU node)
 * @gic: the interrupt controller and the interrupt
 * @cpu: the vectors, the interrupt masks and the routing before arming
 * @ctr: the counters and the timer, and what they counted
 * @before: snapshot of every register the session borrows, before arming
 */
struct perfrec_hw {
	struct perfrec_dt dt;
	struct perfrec_gic gic;
	struct perfrec_cpu cpu;
	struct perfrec_counters ctr;
	struct perfrec_snapshot before;
};

/**
 * perfrec_hw_find() - Find what a configuration needs, touching nothing
 * @hw: the session's hardware
 * @cfg: what to record
 * @scan: walk the control device tree (else @hw->dt is from an earlier walk)
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
 * Return: 0, perfrec_counters_init()'s error (@hw->ctr.failed_event says
 * which event), or the controller's or the probe's (-ETIMEDOUT)
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
static inline void perfrec_hw_unmask(const struct perfrec_hw *hw)
{
	perfrec_cpu_unmask(hw->gic.group0);
}

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

#endif /* __PERFREC_HW_H */
