/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec counters: what a session's counters and timer hold, and their calls
 */

#ifndef __PERFREC_COUNTERS_H
#define __PERFREC_COUNTERS_H

#include <perf_data.h>
#include <perfrec.h>
#include <dm/ofnode.h>
#include <linux/types.h>
#include "perfrec_gic.h"
#include "perfrec_irq.h"
#include "perfrec_source_ops.h"
#include "perfrec_timer.h"
#include "pmuv3.h"

/**
 * struct perfrec_counters - A session's counters and timer, and what they counted
 * @src: the PMU and the timer, as the sources found them
 * @pmu: PMU registers before arming
 * @start: each counter's initial value
 * @count: each event's total count, at stop
 * @start_ticks: the counter (CNTPCT_EL0) when the timer was started
 * @end_ticks: and when the counters stopped
 * @start_ns: time the counters started
 * @end_ns: time they stopped
 * @id: the recording's id, from its start time
 * @failed_event: the event perfrec_counters_init() failed on, or -1
 */
struct perfrec_counters {
	struct perfrec_source_hw src;
	struct pmuv3_saved pmu;
	u64 start[PERF_DATA_MAX_EVENTS];
	u64 count[PERF_DATA_MAX_EVENTS];
	u64 start_ticks;
	u64 end_ticks;
	u64 start_ns;
	u64 end_ns;
	u32 id;
	int failed_event;
};

/**
 * perfrec_counters_init() - Give each event a counter and set the IRQ handler's state
 * @ctr: the counters, with @src found
 * @st: the IRQ handler's state, set up here
 * @cfg: the session's configuration
 * @events: the perf.data's events (their sample ids)
 * @gic: the GIC and the interrupt
 * @text_bytes: the bytes of the image's code, from its first instruction
 * @boot: a boot recording before relocation
 * Return: 0 on success, -E2BIG if the events need more counters than the PMU
 * has, -ERANGE if a period does not fit its counter (@ctr->failed_event
 * says which event)
 */
int perfrec_counters_init(struct perfrec_counters *ctr, struct perfrec_irq *st,
			  const struct perfrec_cfg *cfg, const struct perf_data_event *events,
			  const struct perfrec_gic *gic, u64 text_bytes, bool boot);

/**
 * perfrec_counters_start() - Save and program the PMU, then start it and the timer
 * @ctr: the counters, after perfrec_counters_init()
 * @st: the IRQ handler's state
 * @cfg: the session's configuration
 */
void perfrec_counters_start(struct perfrec_counters *ctr, struct perfrec_irq *st,
			    const struct perfrec_cfg *cfg);

/**
 * perfrec_counters_stop() - Stop the counters and the timer, total them, restore the PMU
 * @ctr: the counters, as perfrec_counters_start() left them
 * @st: the IRQ handler's state
 *
 * An overflow in the stop's own path is still sampled (see
 * perfrec_counters_drain()); returns with IRQ and FIQ masked.
 */
void perfrec_counters_stop(struct perfrec_counters *ctr, struct perfrec_irq *st);

#endif /* __PERFREC_COUNTERS_H */
