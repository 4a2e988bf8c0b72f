/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's interrupt source: find it in the device tree, check that it arrives
 */

#ifndef __PERFREC_SOURCE_H
#define __PERFREC_SOURCE_H

#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <dm/ofnode.h>
#include "perfrec_counters.h"
#include "perfrec_dt.h"
#include "perfrec_gic.h"

/**
 * perfrec_source_gic_fault() - Say in @irq why the GIC could not be used
 * @gic: the GIC, whose @fault names the register block
 * @err: perfrec_gic_from_dt()'s error (@gic->dt_err), or perfrec_gic_setup()'s
 *	-ETIMEDOUT
 * @irq: returns the fault, the block, its range and what failed there
 */
void perfrec_source_gic_fault(const struct perfrec_gic *gic, int err,
			      struct perfrec_irq_report *irq);

/**
 * perfrec_source_find() - Find a session's interrupt in the control device tree
 * @source: the interrupt that is to drive the session
 * @dt: the tree's facts, from perfrec_dt_scan()
 * @ctr: the counters: the PMU found; the timer is filled in here
 * @gic: returns the GIC and the interrupt, put with perfrec_gic_put()
 * @irq: says why the interrupt cannot be used, on error
 * Return: 0 (also for PERFREC_SRC_NONE, which needs no interrupt), or an
 * error with @irq saying why
 */
int perfrec_source_find(enum perfrec_source source, const struct perfrec_dt *dt,
			struct perfrec_counters *ctr, struct perfrec_gic *gic,
			struct perfrec_irq_report *irq);

/**
 * perfrec_source_probe() - Check that a session's interrupt reaches its controller
 * @source: the interrupt, PERFREC_SRC_PMU or PERFREC_SRC_TIMER
 * @ctr: the counters (the PMU and the timer)
 * @gic: the controller, set up with perfrec_gic_setup()
 * @irq: set to PERFREC_IRQ_SILENT if it never shows
 *
 * Raises the interrupt on purpose (a PMU overflow flag, or a timer deadline
 * long past) with the CPU's interrupts masked; it must show as pending
 * within a bounded number of looks. Leaves it not pending, and the PMU and timer as
 * they were.
 * Return: 0, or -ETIMEDOUT if it never showed
 */
int perfrec_source_probe(enum perfrec_source source, struct perfrec_counters *ctr,
			 struct perfrec_gic *gic, struct perfrec_irq_report *irq);

/**
 * perfrec_source_snapshot() - The hardware's registers that a session borrows
 * @snap: returns the CPU's, the timer's and the PMU's registers, and the
 *	GIC's for the interrupt
 * @gic: the GIC and interrupt, or NULL for none
 */
void perfrec_source_snapshot(struct perfrec_snapshot *snap, const struct perfrec_gic *gic);

#endif /* __PERFREC_SOURCE_H */
