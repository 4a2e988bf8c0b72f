// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's interrupt source: find it in the device tree, check that it arrives
 *
 * A session samples on the PMU's overflow interrupt or the generic timer's.
 * Both are found in the control device tree as it is at arming time (the
 * node, its interrupt, the interrupt parent, which must be a GIC or the
 * BCM2836 local controller), and each refusal says why in the session's
 * interrupt report. Before arming, the interrupt is raised on purpose with
 * the CPU's interrupts masked: it must show as pending. The hardware's
 * registers as one snapshot are gathered here too.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <dm/ofnode.h>
#include <linux/string.h>
#include "perfrec_counters.h"
#include "perfrec_cpu.h"
#include "perfrec_dt.h"
#include "perfrec_dt_irq.h"
#include "perfrec_gic.h"
#include "perfrec_source.h"
#include "perfrec_timer.h"
#include "pmuv3.h"

/*
 * How many times a raised interrupt is looked for at the controller, and
 * its level for having dropped: a count, not a time, so that the bound
 * holds whatever the timer does (and costs a known number of instructions
 * when the interrupt never comes). Each look is a device read, far slower
 * than the few cycles an interrupt takes to reach the controller.
 */
#define PERFREC_PROBE_POLLS	10000

void perfrec_source_gic_fault(const struct perfrec_gic *gic, int err,
			      struct perfrec_irq_report *irq)
{
	switch (err) {
	case -ETIMEDOUT:
		irq->fault = PERFREC_IRQ_STUCK;
		break;
	case -EADDRNOTAVAIL:
		irq->fault = PERFREC_IRQ_UNMAPPED;
		break;
	case -EFAULT:
		irq->fault = PERFREC_IRQ_NO_ANSWER;
		break;
	case -ENOENT:
	case -EPROTONOSUPPORT:
		irq->fault = PERFREC_IRQ_NO_GIC;
		break;
	default:
		irq->fault = PERFREC_IRQ_BAD_GIC;
		break;
	}
	irq->block = gic->fault.block;
	irq->start = gic->fault.start;
	irq->end = gic->fault.end;
	irq->err = gic->fault.err;
	irq->bit = gic->fault.bit;
}

/* The PMU's interrupt and its GIC, from the PMU node; say why not in @irq */
static int perfrec_find_pmu_irq(const struct perfrec_dt *dt, struct perfrec_gic *gic,
				struct perfrec_irq_report *irq)
{
	struct perfrec_dt_irq dtirq;
	int ret;

	ret = perfrec_dt_source_irq(dt, PERFREC_SRC_PMU, perfrec_cpu_affinity(), 0, &dtirq, irq);
	if (ret)
		return ret;
	ret = perfrec_gic_from_dt(&dt->pmu.parent, gic);
	if (ret) {
		perfrec_source_gic_fault(gic, gic->dt_err, irq);
		return -ENXIO;
	}
	if (perfrec_gic_check_intid(gic, dtirq.intid)) {
		perfrec_gic_put(gic);
		irq->fault = PERFREC_IRQ_BAD_SPEC;
		return -EPROTONOSUPPORT;
	}
	gic->intid = dtirq.intid;
	/* Device-tree trigger types: 1 and 2 are edges, 4 and 8 levels */
	gic->edge = dtirq.flags & (BIT(0) | BIT(1));

	return 0;
}

/* The generic timer's interrupt for U-Boot's EL, and its GIC; say why not in @irq */
static int perfrec_find_timer_irq(const struct perfrec_dt *dt, struct perfrec_timer *timer,
				  struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	struct perfrec_dt_irq dtirq;
	int ret;

	timer->node = dt->timer.node;
	timer->el = perfrec_cpu_el();
	gic->intid = 0;
	ret = perfrec_dt_source_irq(dt, PERFREC_SRC_TIMER, 0, timer->el, &dtirq, irq);
	if (ret)
		return ret;
	ret = perfrec_gic_from_dt(&dt->timer.parent, gic);
	gic->intid = dtirq.intid;
	if (ret) {
		perfrec_source_gic_fault(gic, gic->dt_err, irq);
		return -ENXIO;
	}

	return 0;
}

void perfrec_source_snapshot(struct perfrec_snapshot *snap, const struct perfrec_gic *gic)
{
	struct pmuv3_hw hw;

	snap->count = 0;
	if (!perfrec_cpu_el_built())
		return;
	perfrec_cpu_snapshot(snap);
	perfrec_timer_snapshot(snap);
	if (!pmuv3_detect(&hw))
		pmuv3_snapshot(&hw, snap);
	if (gic)
		perfrec_gic_snapshot(gic, snap);
}

void perfrec_snapshot(struct perfrec_snapshot *snap)
{
	struct perfrec_irq_report irq = { 0 };
	struct perfrec_gic gic;
	struct perfrec_dt dt;

	if (perfrec_cpu_el_built())
		perfrec_dt_scan(&dt);
	if (!perfrec_cpu_el_built() || perfrec_find_pmu_irq(&dt, &gic, &irq)) {
		perfrec_source_snapshot(snap, NULL);
		return;
	}
	perfrec_source_snapshot(snap, &gic);
	perfrec_gic_put(&gic);
}

/*
 * Raise the session's interrupt on purpose (a PMU overflow flag, or a timer
 * deadline long past) with the CPU's interrupts masked: it must show as
 * pending at the GIC, or the device tree names the wrong interrupt.
 */
int perfrec_source_probe(enum perfrec_source source, struct perfrec_counters *ctr,
			 struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	struct pmuv3_saved pmu;
	bool seen = false;
	uint polls;

	if (source == PERFREC_SRC_PMU) {
		pmuv3_save(&ctr->hw, &pmu);
		pmuv3_raise_irq();
	} else {
		perfrec_timer_start(&ctr->timer, 0);
	}
	polls = 0;
	do {
		seen = perfrec_gic_pending(gic);
	} while (!seen && ++polls < PERFREC_PROBE_POLLS);
	if (source == PERFREC_SRC_PMU)
		pmuv3_restore(&pmu);
	else
		perfrec_timer_restore(&ctr->timer);
	/* A level interrupt drops with its source; an edge one stays pending */
	polls = 0;
	while (perfrec_gic_pending(gic) && ++polls < PERFREC_PROBE_POLLS)
		;
	if (perfrec_gic_pending(gic))
		perfrec_gic_clear_pending(gic);
	if (!seen) {
		irq->fault = PERFREC_IRQ_SILENT;
		return -ETIMEDOUT;
	}

	return 0;
}

int perfrec_source_find(enum perfrec_source source, const struct perfrec_dt *dt,
			struct perfrec_counters *ctr, struct perfrec_gic *gic,
			struct perfrec_irq_report *irq)
{
	switch (source) {
	case PERFREC_SRC_PMU:
		if (!ctr->have_pmu)
			return -ENODEV;
		return perfrec_find_pmu_irq(dt, gic, irq);
	case PERFREC_SRC_TIMER:
		return perfrec_find_timer_irq(dt, &ctr->timer, gic, irq);
	default:
		return 0;
	}
}
