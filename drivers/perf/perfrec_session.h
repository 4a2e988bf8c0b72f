/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec session state, shared with the layer above it (the stream reader)
 */

#ifndef __PERFREC_SESSION_H
#define __PERFREC_SESSION_H

#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <linux/types.h>
#include "perfrec_cpu.h"
#include "perfrec_gic.h"
#include "perfrec_info.h"
#include "perfrec_timer.h"
#include "pmuv3.h"

/**
 * struct perfrec_session - The one session U-Boot can have
 * @state: where it is
 * @cfg: its configuration
 * @hw: the PMU
 * @gic: the GIC and the interrupt
 * @pmu: PMU registers before arming
 * @cpu: VBAR_ELx, DAIF and the routing registers before arming
 * @have_pmu: the CPU has a PMUv3 (@hw is valid)
 * @timer: the generic timer, when it drives the session
 * @irq: what the last perfrec_arm() found of its interrupt
 * @start_ticks: the counter (CNTPCT_EL0) when the timer was started
 * @end_ticks: and when the session was disarmed
 * @before: snapshot before arming
 * @facts: what the perf.data states (events, image, machine, command line)
 * @writer: perf.data output
 * @layout: where samples go in it
 * @size: bytes of the finalised perf.data
 * @start: stat mode: each counter's initial value
 * @count: each event's total count, at disarm
 * @start_ns: time the counters started
 * @end_ns: time they stopped
 * @id: the recording's id
 * @failed_event: the event a failed perfrec_arm() is about, or -1
 * @restore_err: result of the state check at disarm
 * @mismatch: first register that differed, with its values before and after
 * @streamed: samples were taken out of the ring while recording
 * @stream_seq: number of the next stream chunk
 * @stream_done: the stream's last chunk was taken
 * @first_ns: time of the first sample
 */
struct perfrec_session {
	enum perfrec_state state;
	struct perfrec_cfg cfg;
	struct pmuv3_hw hw;
	struct perfrec_gic gic;
	struct pmuv3_saved pmu;
	struct perfrec_cpu cpu;
	bool have_pmu;
	struct perfrec_timer timer;
	struct perfrec_irq_report irq;
	u64 start_ticks;
	u64 end_ticks;
	struct perfrec_snapshot before;
	struct perfrec_facts facts;
	struct perf_data_writer writer;
	struct perf_data_layout layout;
	size_t size;
	u64 start[PERF_DATA_MAX_EVENTS];
	u64 count[PERF_DATA_MAX_EVENTS];
	u64 start_ns;
	u64 end_ns;
	u32 id;
	int failed_event;
	int restore_err;
	struct perfrec_snap_diff mismatch;
	bool streamed;
	uint stream_seq;
	bool stream_done;
	u64 first_ns;
};

extern struct perfrec_session perfrec_session;

/**
 * perfrec_session_stats() - The statistics the end of a perf.data states
 * @stats: returns lost samples and the first and last sample's time
 */
void perfrec_session_stats(struct perf_data_stats *stats);

/**
 * perfrec_counters_init() - Give each event a counter and set the IRQ handler's state
 * @s: the session, with its configuration and facts in place
 * Return: 0 on success, -E2BIG if the events need more counters than the PMU
 * has, -ERANGE if a period does not fit its counter (@s->failed_event says
 * which event)
 */
int perfrec_counters_init(struct perfrec_session *s);

/**
 * perfrec_counters_start() - Save and program the PMU, then start it and the timer
 * @s: the session, after perfrec_counters_init()
 */
void perfrec_counters_start(struct perfrec_session *s);

/**
 * perfrec_counters_stop() - Stop the counters and the timer, total them, restore the PMU
 * @s: the session, as perfrec_counters_start() left it
 */
void perfrec_counters_stop(struct perfrec_session *s);

#endif /* __PERFREC_SESSION_H */
