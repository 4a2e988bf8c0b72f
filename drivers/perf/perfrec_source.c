// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's sampler sources: the table of them, and the calls on them
 *
 * A session samples on one source's interrupt (perfrec_sources[]: each
 * implements struct perfrec_source_ops in its own file). Each is found in
 * the control device tree as it is at arming time (the node, its
 * interrupt, the interrupt parent, which must be a GIC or the BCM2836
 * local controller), and each refusal says why in the session's interrupt
 * report. Before arming, the interrupt is raised on purpose with the CPU's
 * interrupts masked: it must show as pending. The hardware's registers as
 * one snapshot are gathered here too.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <dm/ofnode.h>
#include <linux/kernel.h>
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include <perfrec_dt.h>
#include "perfrec_gic.h"
#include "perfrec_source.h"

/*
 * How many times a raised interrupt is looked for at the controller, and
 * its level for having dropped: a count, not a time, so that the bound
 * holds whatever the timer does (and costs a known number of instructions
 * when the interrupt never comes). Each look is a device read, far slower
 * than the few cycles an interrupt takes to reach the controller.
 */
#define PERFREC_PROBE_POLLS	10000

/* Every sampler source, in the order their registers are snapshotted */
static const struct perfrec_source_ops *const perfrec_sources[] = { PERFREC_SOURCES };

/*
 * The source @id this CPU has (the first whose @present says so), else the
 * first of that @id, which says why it cannot; NULL for PERFREC_SRC_NONE
 */
static const struct perfrec_source_ops *perfrec_source_get(enum perfrec_source id)
{
	const struct perfrec_source_ops *first = NULL;
	uint i;

	for (i = 0; i < ARRAY_SIZE(perfrec_sources); i++) {
		if (perfrec_sources[i]->id != id)
			continue;
		if (!perfrec_sources[i]->present || perfrec_sources[i]->present())
			return perfrec_sources[i];
		first = first ?: perfrec_sources[i];
	}

	return first;
}

void perfrec_source_snapshot(struct perfrec_snapshot *snap, const struct perfrec_gic *gic)
{
	uint i;

	snap->count = 0;
	if (!perfrec_cpu_el_built())
		return;
	perfrec_cpu_snapshot(snap);
	for (i = 0; i < ARRAY_SIZE(perfrec_sources); i++)
		perfrec_sources[i]->snapshot(snap);
	if (gic)
		perfrec_ctlr_snapshot(gic, snap);
}

void perfrec_snapshot(struct perfrec_snapshot *snap)
{
	struct perfrec_irq_report irq = { 0 };
	struct perfrec_gic gic;
	const struct perfrec_source_ops *pmu = perfrec_source_get(PERFREC_SRC_PMU);
	struct perfrec_dt dt;

	if (perfrec_cpu_el_built())
		perfrec_dt_scan(&dt);
	if (!perfrec_cpu_el_built() || pmu->find(&dt, NULL, &gic, &irq)) {
		perfrec_source_snapshot(snap, NULL);
		return;
	}
	perfrec_source_snapshot(snap, &gic);
	perfrec_gic_put(&gic);
}

/*
 * Raise the session's interrupt on purpose with the CPU's interrupts
 * masked: it must show as pending at the GIC, or the device tree names the
 * wrong interrupt.
 */
int perfrec_source_probe(enum perfrec_source source, struct perfrec_source_hw *hw,
			 struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	const struct perfrec_source_ops *ops = perfrec_source_get(source);
	union perfrec_source_saved saved;
	bool seen = false;
	uint polls;

	ops->raise(hw, &saved);
	polls = 0;
	do {
		seen = perfrec_ctlr_pending(gic);
	} while (!seen && ++polls < PERFREC_PROBE_POLLS);
	ops->lower(hw, &saved);
	/* A level interrupt drops with its source; an edge one stays pending */
	polls = 0;
	while (perfrec_ctlr_pending(gic) && ++polls < PERFREC_PROBE_POLLS)
		;
	if (perfrec_ctlr_pending(gic))
		perfrec_ctlr_clear_pending(gic);
	if (!seen) {
		irq->fault = PERFREC_IRQ_SILENT;
		return -ETIMEDOUT;
	}

	return 0;
}

int perfrec_source_next(enum perfrec_source source, const struct perfrec_dt *dt,
			struct perfrec_source_hw *hw, struct perfrec_gic *gic,
			struct perfrec_irq_report *irq)
{
	const struct perfrec_source_ops *ops = perfrec_source_get(source);

	return ops && ops->next ? ops->next(dt, hw, gic, irq) : -ENOENT;
}

int perfrec_source_find(enum perfrec_source source, const struct perfrec_dt *dt,
			struct perfrec_source_hw *hw, struct perfrec_gic *gic,
			struct perfrec_irq_report *irq)
{
	const struct perfrec_source_ops *ops = perfrec_source_get(source);

	return ops ? ops->find(dt, hw, gic, irq) : 0;
}
