/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: what this CPU's PMU offers, for 'perfrec list' and messages
 */

#ifndef __PERFREC_PMU_H
#define __PERFREC_PMU_H

#include <linux/types.h>

/**
 * struct perfrec_pmu_info - What this CPU's PMU offers, for 'perfrec list'
 * @version: ID_AA64DFR0_EL1.PMUVer (1: PMUv3, 4: v3p1, 5: v3p4, 6: v3p5, ...)
 * @nr_counters: event counters (PMCR_EL0.N), besides the cycle counter
 * @counter_bits: width of the event counters (32, or 64 from PMUv3p5)
 * @cycle_bits: width of the cycle counter (64, or 32 on 32-bit Arm)
 * @el: the exception level perfrec counts (U-Boot's)
 * @pmceid0: PMCEID0_EL0
 * @pmceid1: PMCEID1_EL0
 * @high_events: @pmceid0's and @pmceid1's high halves describe events
 *	0x4000-0x403f (PMUv3p1 on); on 32-bit Arm they are PMCEID2 and PMCEID3
 * @core: the core whose PMUv1 it is, known by MIDR ("Cortex-A9"; its
 *	manual's list stands in for PMCEID), or NULL
 * @cycles_still: perfrec_pmu_counting() saw the cycle counter stand still
 * @events_still: and the event counters
 */
struct perfrec_pmu_info {
	uint version;
	uint nr_counters;
	uint counter_bits;
	uint cycle_bits;
	uint el;
	u64 pmceid0;
	u64 pmceid1;
	bool high_events;
	const char *core;
	bool cycles_still;
	bool events_still;
};

/**
 * struct perfrec_event_info - One event perfrec knows by name
 * @generic: one of perf's generic hardware events (cycles, ...)
 * @number: PMUv3 event number (behind a generic event: the one it counts)
 * @name: perf's name for it
 * @desc: what it counts
 * @implemented: this CPU counts it (PMCEID; cycles always)
 * @core_event: one of the core's own events (a Cortex-A8's or A9's)
 */
struct perfrec_event_info {
	bool generic;
	bool core_event;
	uint number;
	const char *name;
	const char *desc;
	bool implemented;
};

/**
 * perfrec_get_pmu_info() - Describe this CPU's PMU
 * @info: returns the figures
 * Return: 0, -ENODEV if there is no PMUv3, or -EPERM if U-Boot runs at an
 * EL this build leaves out (no PMU register is read there)
 */
int perfrec_get_pmu_info(struct perfrec_pmu_info *info);

/**
 * perfrec_pmu_counting() - Check that the PMU's counters count
 * @info: from perfrec_get_pmu_info(); @cycles_still and @events_still set
 *
 * Runs the counters for a few instructions and puts the PMU back: not while
 * a session holds it.
 * Return: 0, or perfrec_get_pmu_info()'s error
 */
int perfrec_pmu_counting(struct perfrec_pmu_info *info);

/**
 * perfrec_event_at() - Walk perf's generic events, then the PMUv3 common events
 * @idx: index from 0
 * @info: returns the event, and whether this CPU implements it
 * Return: 0, or -ENOENT past the end
 */
int perfrec_event_at(uint idx, struct perfrec_event_info *info);

#endif /* __PERFREC_PMU_H */
