// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's reports on the board: the hottest functions and call paths of the
 * last recording (through the engine in perfrec_profile.c), and the counts of
 * 'perfrec stat' (as bootstage_report() prints bootstage's records)
 */

#include <errno.h>
#include <perfrec.h>
#include <perfrec_report.h>
#include <stdio.h>
#include <asm/global_data.h>
#include <linux/kernel.h>

DECLARE_GLOBAL_DATA_PTR;

/* Phases 'perfrec report' lists: the leader and the boot recording's */
#define PERFREC_REPORT_MAX_PHASES	17

/* A boot recording's phases: their samples and when each started */
static void perfrec_report_phases(u64 total)
{
	struct perfrec_phase phases[PERFREC_REPORT_MAX_PHASES];
	int nr, i;

	nr = perfrec_get_phases(phases, ARRAY_SIZE(phases));
	if (nr <= 0 || !total)
		return;
	printf("%-16s %10s %8s %14s\n", "phase", "samples", "share", "from (ms)");
	for (i = 0; i < nr; i++) {
		u64 permille = phases[i].samples * 1000 / total;

		printf("%-16s %10llu %6llu.%llu%% %10llu.%03llu\n", phases[i].name,
		       phases[i].samples, permille / 10, permille % 10,
		       phases[i].start_ns / 1000000, phases[i].start_ns / 1000 % 1000);
	}
	printf("\n");
}

/* A walk that only checks the records */
static int perfrec_report_none(void *ctx, const struct perfrec_sample_view *s)
{
	return 0;
}

int perfrec_report(uint top)
{
	struct perfrec_result res;
	int ret;
	struct perfrec_report_src src = {
		.walk = perfrec_walk_samples,
		.symbols = system_map,
		.run_start = gd->relocaddr,
		.run_len = gd->mon_len,
		.reloc_off = gd->reloc_off,
	};

	if (!IS_ENABLED(CONFIG_PERFREC_REPORT) || !system_map)
		return -ENOSYS;
	perfrec_get_result(&res);
	if (res.state != PERFREC_FINALISED || res.mode != PERFREC_RECORD || res.streamed)
		return -ENOENT;
	src.nr_events = res.nr_events;
	src.event_names = res.name;
	/* The buffer may have been loaded over since: its records are checked first */
	ret = perfrec_walk_samples(perfrec_report_none, NULL);
	if (ret)
		return ret;
	perfrec_report_phases(res.samples);

	return perfrec_report_print(&src, top);
}

void perfrec_stat_report(const struct perfrec_cfg *cfg, int argc, char *const argv[])
{
	struct perfrec_result res;
	u64 cycles = 0, insns = 0;
	int i;

	perfrec_get_result(&res);
	printf("\n Performance counter stats for '");
	for (i = 0; i < argc; i++)
		printf("%s%s", i ? " " : "", argv[i]);
	printf("':\n\n");
	for (i = 0; i < res.nr_events; i++) {
		const struct perfrec_event_cfg *ev = &cfg->events[i];

		if (ev->type == PERF_DATA_TYPE_HARDWARE &&
		    ev->config == PERF_DATA_COUNT_HW_CPU_CYCLES && !cycles)
			cycles = res.count[i];
		if (ev->type == PERF_DATA_TYPE_HARDWARE &&
		    ev->config == PERF_DATA_COUNT_HW_INSTRUCTIONS && !insns)
			insns = res.count[i];
		if (ev->timer)	/* like perf stat: milliseconds */
			printf("%16llu.%03llu msec %s\n", res.count[i] / 1000000,
			       res.count[i] / 1000 % 1000, res.name[i]);
		else
			printf("%20llu      %s\n", res.count[i], res.name[i]);
	}
	if (cycles && insns)
		printf("%20s      (%llu.%02llu insn per cycle)\n", "",
		       insns / cycles, insns * 100 / cycles % 100);
	printf("\n%10llu.%09llu seconds time elapsed\n\n", res.elapsed_ns / 1000000000,
	       res.elapsed_ns % 1000000000);
}
