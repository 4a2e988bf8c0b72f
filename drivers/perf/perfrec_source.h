/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's sampler sources: the calls the session makes on them
 *
 * Each source implements perfrec_source_ops.h in its own file, and
 * perfrec_source.c holds the one table of them: the session and the
 * fallback order name a source by its enum perfrec_source only.
 */

#ifndef __PERFREC_SOURCE_H
#define __PERFREC_SOURCE_H

#include <perfrec.h>
#include <perfrec_dt.h>
#include <perfrec_snapshot.h>
#include <dm/ofnode.h>
#include "perfrec_gic.h"
#include "perfrec_source_ops.h"

/**
 * perfrec_source_find() - Find a session's interrupt in the control device tree
 * @source: the interrupt that is to drive the session (its ops' @find)
 * @dt: the tree's facts, from perfrec_dt_scan()
 * @hw: the PMU found; the timer is filled in here
 * @gic: returns the GIC and the interrupt, put with perfrec_gic_put()
 * @irq: says why the interrupt cannot be used, on error
 * Return: 0 (also for PERFREC_SRC_NONE, which needs no interrupt), or an
 * error with @irq saying why
 */
int perfrec_source_find(enum perfrec_source source, const struct perfrec_dt *dt,
			struct perfrec_source_hw *hw, struct perfrec_gic *gic,
			struct perfrec_irq_report *irq);

/**
 * perfrec_source_next() - The interrupt a source may raise instead of the one found
 * @source: the interrupt, one that perfrec_source_find() found and
 *	perfrec_source_probe() found silent
 * @dt: the tree's facts, from perfrec_dt_scan()
 * @hw: the PMU and the timer
 * @gic: the controller (put back with perfrec_ctlr_restore()); its INTID
 *	is set to the other one
 * @irq: set to the other interrupt's node and INTID, its fault cleared
 *
 * The timer in SVC on a CPU with the Security Extensions: the Secure
 * physical timer's interrupt, where U-Boot runs in Secure state.
 * Return: 0, or -ENOENT if the source has no other interrupt
 */
int perfrec_source_next(enum perfrec_source source, const struct perfrec_dt *dt,
			struct perfrec_source_hw *hw, struct perfrec_gic *gic,
			struct perfrec_irq_report *irq);

/**
 * perfrec_source_probe() - Check that a session's interrupt reaches its controller
 * @source: the interrupt, one that perfrec_source_find() found
 * @hw: the PMU and the timer
 * @gic: the controller, set up with perfrec_ctlr_setup()
 * @irq: set to PERFREC_IRQ_SILENT if it never shows
 *
 * Raises the interrupt on purpose (the source's @raise: a PMU overflow
 * flag, or a timer deadline long past) with the CPU's interrupts masked; it
 * must show as pending within a bounded number of looks. Leaves it not
 * pending, and the source as it was.
 * Return: 0, or -ETIMEDOUT if it never showed
 */
int perfrec_source_probe(enum perfrec_source source, struct perfrec_source_hw *hw,
			 struct perfrec_gic *gic, struct perfrec_irq_report *irq);

/**
 * perfrec_source_snapshot() - The hardware's registers that a session borrows
 * @snap: returns the CPU's and each source's registers, and the GIC's for
 *	the interrupt
 * @gic: the GIC and interrupt, or NULL for none
 */
void perfrec_source_snapshot(struct perfrec_snapshot *snap, const struct perfrec_gic *gic);

#endif /* __PERFREC_SOURCE_H */
