// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: what it shows of a recording and the PMU: list, report, status
 */

#include <command.h>
#include <console.h>
#include <env.h>
#include <errno.h>
#include <malloc.h>
#include <mapmem.h>
#include <perfrec.h>
#include <perfrec_pmu.h>
#include <perfrec_compat.h>
#include <perfrec_frame.h>
#include <perfrec_report.h>
#include <perfrec_stream.h>
#include <stdio.h>
#include <vsprintf.h>
#include <asm/global_data.h>
#include <asm/system.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_opts.h"
#include "perfrec_show.h"

/*
 * A counter must run this many periods before too few samples mean more
 * than the interrupt's latency at the end of a short recording
 */
#define PERFREC_MISSED_MIN_PERIODS	8
/* A tree's clock and U-Boot's timer agree if within this many percent */
#define PERFREC_CLOCK_AGREE_PCT		2

static const char *const perfrec_state_name[] = {
	[PERFREC_IDLE] = "idle",
	[PERFREC_ARMED] = "recording",
	[PERFREC_FINALISED] = "finalised",
};

/*
 * After a recording: a PMU event whose counter ran whole periods with few
 * or no samples (fewer than half) had its overflow interrupt come late or
 * never (QEMU's event counters under -icount do that). Say so, with what to
 * try.
 */
void perfrec_print_missed(const struct perfrec_result *res)
{
	u64 periods, taken;
	uint i;

	if (res->state != PERFREC_FINALISED || res->mode != PERFREC_RECORD ||
	    res->source != PERFREC_SRC_PMU || res->streamed)
		return;
	for (i = 0; i < res->nr_events; i++) {
		if (!res->period[i])
			continue;
		/* Each period ended in a sample, or passed without one (late) */
		periods = res->count[i] / res->period[i];
		taken = periods > res->event_late[i] ? periods - res->event_late[i] : 0;
		if (periods < PERFREC_MISSED_MIN_PERIODS || 2 * taken >= periods)
			continue;
		printf("perfrec: %s (counter %u) counted %llu periods of %llu but %llu samples were taken: its overflow interrupt %s\n",
		       res->name[i], res->counter[i], periods, res->period[i], taken,
		       taken ? "came late; try a longer period (-c or -F)" :
		       !IS_ENABLED(CONFIG_PERFREC_EVENTS) ||
		       res->counter[i] == PERFREC_CYCLE_COUNTER ?
		       "never came; check the PMU's \"interrupts\" in the device tree" :
		       "never came; try -e cycles, or cycles beside it (see the docs on QEMU's event counters)");
	}
}

static const char *perfrec_pmu_version(uint version)
{
	static const char *const names[] = {
		[1] = "PMUv3", [2] = "Armv7 PMU", [3] = "PMUv1", [4] = "PMUv3p1", [5] = "PMUv3p4",
		[6] = "PMUv3p5", [7] = "PMUv3p7", [8] = "PMUv3p8", [9] = "PMUv3p9",
	};

	return version < ARRAY_SIZE(names) && names[version] ? names[version] : "PMUv3 (newer)";
}

int do_perfrec_list(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_event_info ev;
	struct perfrec_pmu_info pmu;
	struct perfrec_result res;
	bool all = argc == 2 && !strcmp(argv[1], "-a");
	uint i;
	int ret;

	if (argc > 2 || (argc == 2 && !all))
		return CMD_RET_USAGE;
	if (!IS_ENABLED(CONFIG_PERFREC_EVENTS)) {
		printf("perfrec list needs CONFIG_PERFREC_EVENTS: this build samples cycles and cpu-clock\n");
		return CMD_RET_FAILURE;
	}
	ret = perfrec_get_pmu_info(&pmu);
	if (ret == -EPERM) {
		perfrec_print_el_left_out();
		return CMD_RET_FAILURE;
	}
	if (ret) {
		perfrec_print_no_pmu();
		return CMD_RET_FAILURE;
	}
	if (pmu.core)
		printf("PMU: the %s's PMUv1, %u event counters of %u bits, cycle counter of %u bits\n",
		       pmu.core, pmu.nr_counters, pmu.counter_bits, pmu.cycle_bits);
	else
		printf("PMU: %s (PMUVer %u), %u event counters of %u bits, cycle counter of %u bits\n",
		       perfrec_pmu_version(pmu.version), pmu.version, pmu.nr_counters,
		       pmu.counter_bits, pmu.cycle_bits);
	perfrec_get_result(&res);
	/* Run the counters for a moment: not under a session that holds them */
	if (res.state != PERFREC_ARMED && !perfrec_pmu_counting(&pmu)) {
		if (pmu.cycles_still && pmu.events_still)
			printf("Its counters stand still: this PMU does not count (registers without a counter behind them)\n");
		else if (pmu.events_still)
			printf("Its event counters stand still here (Secure state, where they count only if the SoC asserts SPNIDEN): cycles only\n");
		else if (pmu.cycles_still)
			printf("Its cycle counter stands still\n");
	}
	if (pmu.core) {
		printf("Counts in every mode (a PMUv1 filters none); the events are the %s manual's\n\n",
		       pmu.core);
		goto events;
	}
	printf("Counts at EL%u; ", pmu.el);
	/* AArch32 names PMCEID0/1_EL0's high halves PMCEID2 and PMCEID3 */
	if (!IS_ENABLED(CONFIG_ARM64) && pmu.high_events)
		printf("PMCEID0 %#x, PMCEID1 %#x, PMCEID2 %#x, PMCEID3 %#x\n\n",
		       lower_32_bits(pmu.pmceid0), lower_32_bits(pmu.pmceid1),
		       upper_32_bits(pmu.pmceid0), upper_32_bits(pmu.pmceid1));
	else
		printf("%s %#llx, %s %#llx\n\n", PERFREC_REGNAME_EL0("PMCEID0"), pmu.pmceid0,
		       PERFREC_REGNAME_EL0("PMCEID1"), pmu.pmceid1);
events:
	for (i = 0; !perfrec_event_at(i, &ev); i++) {
		if (!ev.implemented && !all)
			continue;
		printf("  %-24s %-9s %#06x  %s%s\n", ev.name,
		       ev.generic ? "[generic]" : ev.core_event ? "[core]" : "[common]",
		       ev.number, ev.desc, ev.implemented ? "" : " (not implemented)");
	}
	printf("\n  r<hex>                   [raw]     any event number, e.g. r11\n");
	printf("  %-24s %-9s         %s\n", PERFREC_CPU_CLOCK, "[software]",
	       "the generic timer: samples without the PMU interrupt, counts in ns");

	return CMD_RET_SUCCESS;
}

int do_perfrec_report(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_result res;
	u64 top = 10;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "-n")) {
		if (perfrec_parse_dec(argv[2], &top) || !top || top > PERFREC_REPORT_MAX_TOP) {
			printf("Invalid count '%s': give 1 to %u\n", argv[2],
			       PERFREC_REPORT_MAX_TOP);
			return CMD_RET_FAILURE;
		}
	} else if (argc != 1) {
		return CMD_RET_USAGE;
	}
	if (!IS_ENABLED(CONFIG_PERFREC_REPORT)) {
		printf("perfrec report needs CONFIG_PERFREC_REPORT (an embedded symbol table)\n");
		return CMD_RET_FAILURE;
	}
	ret = perfrec_report(top);
	switch (ret) {
	case 0:
		perfrec_get_result(&res);
		perfrec_print_missed(&res);
		return CMD_RET_SUCCESS;
	case -ENOSYS:
		printf("perfrec report needs CONFIG_PERFREC_REPORT (an embedded symbol table)\n");
		break;
	case -ENOENT:
		printf("No finished recording to report\n");
		break;
	case -ENOMEM:
		printf("No memory to report the recording's samples (err=%d)\n", ret);
		break;
	case -EBADMSG:
		perfrec_get_result(&res);
		printf("The recording at %#lx was written over: its records are not perfrec's (err=%d)\n",
		       res.addr, ret);
		break;
	default:
		printf("perfrec report failed (err=%d)\n", ret);
		break;
	}

	return CMD_RET_FAILURE;
}

/* A Cortex-A9's clock: its rate, where that came from, and any doubt */
static void perfrec_print_clock(const struct perfrec_result *res)
{
	u64 lo = min(res->gt_tree_hz, res->gt_measured_hz);
	u64 hi = max(res->gt_tree_hz, res->gt_measured_hz);

	if (!res->gt_hz)
		return;
	if (!res->gt_tree_hz) {
		printf("clock: the Cortex-A9 global timer, %llu Hz as measured against U-Boot's timer\n",
		       res->gt_hz);
		return;
	}
	printf("clock: the Cortex-A9 global timer, %llu Hz from its clock in the tree; U-Boot's timer measures %llu Hz\n",
	       res->gt_hz, res->gt_measured_hz);
	if ((hi - lo) * 100 > lo * PERFREC_CLOCK_AGREE_PCT)
		printf("clock: the two differ by more than %u%%: timestamps follow the tree, not U-Boot's seconds\n",
		       PERFREC_CLOCK_AGREE_PCT);
}

int do_perfrec_status(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_snapshot *snap;
	struct perfrec_result res;
	char name[32];
	uint i;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-v")))
		return CMD_RET_USAGE;

	perfrec_get_result(&res);
	printf("state: %s\n", perfrec_state_name[res.state]);
	if (res.state != PERFREC_IDLE) {
		if (res.mode == PERFREC_RECORD && res.state == PERFREC_FINALISED)
			printf("buffer: %#lx, %lu bytes of perf.data\n", res.addr, res.size);
		else if (res.mode == PERFREC_RECORD)
			printf("buffer: %#lx, %lu bytes, samples use %llu of %llu (%llu%%)\n",
			       res.addr, res.size, res.ring_used, res.ring_size,
			       res.ring_used * 100 / res.ring_size);
		printf("samples: %llu, lost: %llu, spurious: %llu, foreign: %llu, late: %llu\n",
		       res.samples, res.lost, res.spurious, res.foreign, res.late);
		if (res.source == PERFREC_SRC_NONE)
			printf("interrupt: none\n");
		else
			printf("interrupt: %s, %s %u from %s\n",
			       res.source == PERFREC_SRC_TIMER ? "timer" : "PMU",
			       res.irq.local ? "local source" : "INTID", res.irq.intid,
			       res.irq.node);
		perfrec_print_clock(&res);
		/* Counter 31 is the cycle counter, 32 the generic timer (cpu-clock) */
		for (i = 0; i < res.nr_events; i++)
			printf("event %s: %llu counted, period %llu, late %llu, counter %u\n",
			       res.name[i], res.count[i], res.period[i], res.event_late[i],
			       res.counter[i]);
		perfrec_print_missed(&res);
	}
	if (argc < 2)
		return CMD_RET_SUCCESS;

	snap = malloc(sizeof(*snap));
	if (!snap) {
		printf("Out of memory for the register snapshot\n");
		return CMD_RET_FAILURE;
	}
	perfrec_snapshot(snap);
	for (i = 0; i < snap->count; i++) {
		perfrec_reg_name(&snap->regs[i], name, sizeof(name));
		printf("reg %s = %#llx\n", name, snap->regs[i].val);
	}
	free(snap);

	return CMD_RET_SUCCESS;
}
