/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's sampler sources: the interface each implements
 *
 * A sampler source is an interrupt that drives a session: the PMU's
 * overflow (pmuv3.c) or the generic timer's (perfrec_timer.c). Each
 * implements struct perfrec_source_ops in its own file, and
 * perfrec_source.c holds the one table of them (perfrec_sources[]): a new
 * source is a file and a line in that table.
 */

#ifndef __PERFREC_SOURCE_OPS_H
#define __PERFREC_SOURCE_OPS_H

#include <perfrec.h>
#include "perfrec_gtimer.h"
#include "perfrec_timer.h"
#include "pmuv3.h"

struct perfrec_dt;
struct perfrec_gic;
struct perfrec_irq_report;
struct perfrec_snapshot;

/**
 * struct perfrec_source_hw - What the sources know of the CPU, for a session
 * @have_pmu: the CPU has a PMUv3 (@pmu is valid)
 * @pmu: the PMU
 * @timer: the generic timer of U-Boot's EL, when it drives the session
 * @gt: a Cortex-A9's global timer, where there is no generic timer: the
 *	clock, and cpu-clock's interrupt
 */
struct perfrec_source_hw {
	bool have_pmu;
	struct pmuv3_hw pmu;
	struct perfrec_timer timer;
	struct perfrec_gtimer gt;
};

/**
 * union perfrec_source_saved - What a source's @raise changed, for its @lower
 * @pmu: the PMU's registers
 */
union perfrec_source_saved {
	struct pmuv3_saved pmu;
};

/**
 * struct perfrec_source_ops - What a sampler source does for a session
 * @id: which source it is
 * @present: whether this CPU has it, for a source that another of the same
 *	@id stands in for (the A9's global timer for the generic timer), or
 *	NULL
 * @find: find the interrupt for this CPU and EL in the control device tree
 *	(@dt), and reach its controller (@gic, put with perfrec_gic_put());
 *	on error say why in @irq. @hw is the session's (the timer's part is
 *	filled in here), or NULL to find the interrupt whatever the CPU has
 *	(for a snapshot)
 * @raise: make the interrupt pending on purpose, counting nothing, with the
 *	CPU's interrupts masked (the probe before arming); what it changes
 *	goes to @saved
 * @lower: undo @raise
 * @next: after the probe found the interrupt @find gave silent, the one
 *	the source may raise instead (in @gic and @irq, @irq's fault cleared),
 *	or -ENOENT if it has no other; NULL: none
 * @snapshot: add the source's registers a session may change
 */
struct perfrec_source_ops {
	enum perfrec_source id;
	bool (*present)(void);
	int (*find)(const struct perfrec_dt *dt, struct perfrec_source_hw *hw,
		    struct perfrec_gic *gic, struct perfrec_irq_report *irq);
	void (*raise)(struct perfrec_source_hw *hw, union perfrec_source_saved *saved);
	void (*lower)(struct perfrec_source_hw *hw, const union perfrec_source_saved *saved);
	int (*next)(const struct perfrec_dt *dt, struct perfrec_source_hw *hw,
		    struct perfrec_gic *gic, struct perfrec_irq_report *irq);
	void (*snapshot)(struct perfrec_snapshot *snap);
};

/* The sources, each in its own file: the entries of perfrec_source.c's table */
extern const struct perfrec_source_ops pmuv3_source;
extern const struct perfrec_source_ops perfrec_timer_source;
extern const struct perfrec_source_ops perfrec_gtimer_source;

/* The sources this build has: the A9's global timer where it is built */
#if CONFIG_IS_ENABLED(PERFREC_A9_GTIMER)
#define PERFREC_SOURCES		&perfrec_timer_source, &perfrec_gtimer_source, &pmuv3_source
#else
#define PERFREC_SOURCES		&perfrec_timer_source, &pmuv3_source
#endif

#endif /* __PERFREC_SOURCE_OPS_H */
