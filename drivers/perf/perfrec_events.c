// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec events: perf's names for what the PMU counts, checked against this CPU
 *
 * Besides perf's software cpu-clock (the generic timer: see perfrec_timer.c),
 * three kinds of name: perf's generic hardware events (cycles, instructions,
 * ...: PERF_TYPE_HARDWARE in the perf.data, so perf prints them as it does
 * on Linux), the PMUv3 common events by their Arm ARM mnemonic
 * (l1d_cache_refill: PERF_TYPE_RAW with the event number) and raw numbers
 * (r11). PMCEID0/1_EL0 tell which common events this CPU implements. A
 * Cortex-A8's or A9's PMUv1 has no PMCEID: its manual's list stands in for
 * it, its own events have names too, and perf's generic names count what
 * Linux has them count there (pmuv3_core_*()).
 */

#include <errno.h>
#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_pmu.h>
#include <vsprintf.h>
#include <asm/system.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "pmuv3.h"
#include "pmuv3_events.h"

/* perf's generic hardware events and the common event each one counts */
static const struct {
	const char *name;
	u32 config;
	u32 event;
} perfrec_generic_events[] = {
	{ "cycles", PERF_DATA_COUNT_HW_CPU_CYCLES, PMUV3_EVT_CPU_CYCLES },
	{ "cpu-cycles", PERF_DATA_COUNT_HW_CPU_CYCLES, PMUV3_EVT_CPU_CYCLES },
	{ "instructions", PERF_DATA_COUNT_HW_INSTRUCTIONS, PMUV3_EVT_INST_RETIRED },
	{ "cache-references", PERF_DATA_COUNT_HW_CACHE_REFERENCES, PMUV3_EVT_L1D_CACHE },
	{ "cache-misses", PERF_DATA_COUNT_HW_CACHE_MISSES, PMUV3_EVT_L1D_CACHE_REFILL },
	{ "branch-instructions", PERF_DATA_COUNT_HW_BRANCH_INSTRUCTIONS, PMUV3_EVT_BR_RETIRED },
	{ "branches", PERF_DATA_COUNT_HW_BRANCH_INSTRUCTIONS, PMUV3_EVT_BR_RETIRED },
	{ "branch-misses", PERF_DATA_COUNT_HW_BRANCH_MISSES, PMUV3_EVT_BR_MIS_PRED },
	{ "bus-cycles", PERF_DATA_COUNT_HW_BUS_CYCLES, PMUV3_EVT_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_DATA_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  PMUV3_EVT_STALL_FRONTEND },
	{ "stalled-cycles-backend", PERF_DATA_COUNT_HW_STALLED_CYCLES_BACKEND,
	  PMUV3_EVT_STALL_BACKEND },
};

/* Without CONFIG_PERFREC_EVENTS, perf's cycles only: the table's first two */
#define PERFREC_GENERIC_EVENTS	(IS_ENABLED(CONFIG_PERFREC_EVENTS) ? \
				 ARRAY_SIZE(perfrec_generic_events) : 2)

/* Largest raw event number: PMEVTYPER<n>_EL0.evtCount is 16 bits */
#define PERFREC_RAW_MAX		0xffff

/* Does PMCEID describe @number at all (common-event ranges)? */
static bool perfrec_event_described(uint number)
{
	return (number & ~(PMUV3_EVENT_HIGH | PMUV3_EVENT_ID_MASK)) == 0;
}

/* Parse "r<hex>" into @numberp */
static int perfrec_parse_raw(const char *name, uint *numberp)
{
	const char *p = name + 1;
	char *end;
	ulong val;

	if (name[0] != 'r' || !*p || strlen(p) > 4)
		return -ENOENT;
	val = hextoul(p, &end);
	if (*end || val > PERFREC_RAW_MAX)
		return -ENOENT;
	*numberp = val;

	return 0;
}

/* Does this PMU count event @number? */
static bool perfrec_event_counts(const struct pmuv3_hw *hw, uint number)
{
	if (number == PMUV3_EVT_NONE)
		return false;
	/* PMCEID (or the core's manual) speaks for the events it describes */
	if (perfrec_event_described(number))
		return pmuv3_event_implemented(hw->pmceid0, hw->pmceid1, hw->version, number);

	/* Past them: a core's own events are in its list, others unknown */
	return true;
}

/*
 * An event PMCEID (or the core's manual) does not list: -EOPNOTSUPP, or
 * -EACCES where the event counters stand still while the cycle counter
 * runs (32-bit Secure state without SPNIDEN), the more basic reason, found
 * by running them. A core known by its manual (no PMCEID) keeps its word;
 * at AArch64's EL3 arming lets Secure state count (MDCR_EL3.SPME), which
 * the probe does not.
 */
static int perfrec_event_not_counted(struct pmuv3_hw *hw)
{
	if (hw->core == PMUV3_CORE_ARCH && perfrec_arch_may_be_secure(perfrec_arch_el()))
		pmuv3_probe_counting(hw);

	return hw->still == PMUV3_STILL_EVENTS ? -EACCES : -EOPNOTSUPP;
}

int perfrec_event_lookup(const char *name, struct perfrec_event_cfg *ev)
{
	struct pmuv3_event pe;
	struct pmuv3_hw hw;
	bool have_pmu, core_name = false;
	uint i, number;
	int ret;

	if (strlen(name) >= sizeof(ev->name))
		return -ENOENT;
	ev->cycle_counter = false;
	ev->timer = false;
	/* perf's software cpu-clock: the generic timer, which every CPU has */
	if (!strcmp(name, PERFREC_CPU_CLOCK)) {
		ev->type = PERF_DATA_TYPE_SOFTWARE;
		ev->config = PERF_DATA_COUNT_SW_CPU_CLOCK;
		ev->pmu_event = 0;
		ev->timer = true;
		strlcpy(ev->name, name, sizeof(ev->name));
		return 0;
	}

	for (i = 0; i < PERFREC_GENERIC_EVENTS; i++) {
		if (!strcmp(name, perfrec_generic_events[i].name))
			break;
	}
	if (i == PERFREC_GENERIC_EVENTS && !IS_ENABLED(CONFIG_PERFREC_EVENTS))
		return -ENOSYS;
	if (i < PERFREC_GENERIC_EVENTS) {
		ev->type = PERF_DATA_TYPE_HARDWARE;
		ev->config = perfrec_generic_events[i].config;
		number = perfrec_generic_events[i].event;
		/* Like Linux, perf's cycles go to the dedicated cycle counter */
		ev->cycle_counter = ev->config == PERF_DATA_COUNT_HW_CPU_CYCLES;
	} else {
		if (pmuv3_event_by_name(name, &pe))
			number = pe.number;
		else if (perfrec_parse_raw(name, &number))
			core_name = true;
		ev->type = PERF_DATA_TYPE_RAW;
	}
	ev->pmu_event = number;
	strlcpy(ev->name, name, sizeof(ev->name));

	/*
	 * The cycle counter always counts, and cycles alone need no
	 * CONFIG_PERFREC_EVENTS. Whether the CPU has a PMU at all, arming
	 * says: a recording of the default event falls back to cpu-clock.
	 */
	if (ev->cycle_counter || !IS_ENABLED(CONFIG_PERFREC_EVENTS))
		return 0;
	ret = pmuv3_detect(&hw);
	have_pmu = !ret;
	/* A name of the core's own list: only the core says what it is */
	if (core_name) {
		if (!have_pmu || !pmuv3_core_event_by_name(hw.core, name, &pe))
			return -ENOENT;
		number = pe.number;
	}
	if (ret)
		return ret;
	/* A generic name counts the core's own event where it has one */
	if (ev->type == PERF_DATA_TYPE_HARDWARE)
		number = pmuv3_core_generic(hw.core, number);
	else
		ev->config = number;
	ev->pmu_event = number;
	/* evtCount would drop the bits above this PMU's field and count another event */
	if (number != PMUV3_EVT_NONE && !pmuv3_event_fits(hw.version, number))
		return -EDOM;
	if (!perfrec_event_counts(&hw, number))
		return perfrec_event_not_counted(&hw);

	return 0;
}

uint perfrec_event_bits(void)
{
	struct pmuv3_hw hw;

	if (pmuv3_detect(&hw))
		return 0;

	return pmuv3_event_bits(hw.version);
}

int perfrec_get_pmu_info(struct perfrec_pmu_info *info)
{
	struct pmuv3_hw hw;
	int ret;

	ret = pmuv3_detect(&hw);
	if (ret)
		return ret;
	info->version = hw.version;
	info->nr_counters = hw.nr_counters;
	info->counter_bits = hw.long_events ? 64 : 32;
	info->cycle_bits = PERFREC_ARCH_LONG_COUNTERS ? 64 : 32;
	info->el = perfrec_arch_el();
	info->pmceid0 = hw.pmceid0;
	info->pmceid1 = hw.pmceid1;
	info->high_events = hw.version >= PMUV3_EVENTS_HIGH_VERSION;
	info->core = pmuv3_core_name(hw.core);
	info->cycles_still = false;
	info->events_still = false;

	return 0;
}

int perfrec_pmu_counting(struct perfrec_pmu_info *info)
{
	struct pmuv3_hw hw;
	int ret;

	ret = pmuv3_detect(&hw);
	if (ret)
		return ret;
	pmuv3_probe_counting(&hw);
	info->cycles_still = hw.still & PMUV3_STILL_CYCLES;
	info->events_still = hw.still & PMUV3_STILL_EVENTS;

	return 0;
}

int perfrec_event_at(uint idx, struct perfrec_event_info *info)
{
	struct pmuv3_event pe;
	struct pmuv3_hw hw;
	bool have_pmu = !pmuv3_detect(&hw);

	info->core_event = false;
	if (idx < PERFREC_GENERIC_EVENTS) {
		uint number = perfrec_generic_events[idx].event;

		info->generic = true;
		info->name = perfrec_generic_events[idx].name;
		info->number = have_pmu ? pmuv3_core_generic(hw.core, number) : number;
		if (!pmuv3_event_by_number(info->number, &pe) &&
		    !(have_pmu && pmuv3_core_event_by_number(hw.core, info->number, &pe)))
			pe.desc = "";
		info->desc = pe.desc;
		info->implemented = have_pmu && (number == PMUV3_EVT_CPU_CYCLES ||
						 perfrec_event_counts(&hw, info->number));
		return 0;
	}
	idx -= PERFREC_GENERIC_EVENTS;
	info->generic = false;
	if (!pmuv3_event_at(idx, &pe)) {
		/* Then the core's own events, where it has a list */
		if (!have_pmu || !pmuv3_core_event_at(hw.core, idx - pmuv3_event_count(), &pe))
			return -ENOENT;
		info->core_event = true;
	}
	info->number = pe.number;
	info->name = pe.name;
	info->desc = pe.desc;
	info->implemented = have_pmu && perfrec_event_counts(&hw, pe.number);

	return 0;
}
