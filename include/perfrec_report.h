/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's report on the board: the samples of a recording, named by U-Boot's symbol table
 */

#ifndef __PERFREC_REPORT_H
#define __PERFREC_REPORT_H

#include <perf_data.h>
#include <linux/compiler.h>
#include <linux/types.h>

/**
 * struct perfrec_sample_view - One sample of a finished recording, as stored
 * @event: index of its event in the recording
 * @ip: the sampled PC
 * @period: events it stands for
 * @chain: its call chain (return addresses, innermost first, after the PC), or NULL
 * @chain_len: entries in @chain
 */
struct perfrec_sample_view {
	uint event;
	u64 ip;
	u64 period;
	const u64 *chain;
	uint chain_len;
};

/**
 * struct perfrec_phase - One phase of a boot recording (CONFIG_PERFREC_BOOT)
 * @name: its name, the thread's (a bootstage mark, or "relocation"; the
 *	first, "u-boot", is the time before the board_init_f mark)
 * @tid: its thread id in the perf.data
 * @start_ns: when it started
 * @samples: samples taken in it
 */
struct perfrec_phase {
	char name[PERF_DATA_COMM_LEN];
	u32 tid;
	u64 start_ns;
	u64 samples;
};

/**
 * perfrec_get_phases() - The phases of the last recording, with their samples
 * @phases: returns them, in order
 * @max: room in @phases
 * Return: phases found (0 for a recording that has none: it is one thread),
 * -ENODATA if no finished, unstreamed recording is there, or -EBADMSG if a
 * record in its buffer is not perfrec's (the buffer was written over)
 */
int perfrec_get_phases(struct perfrec_phase *phases, uint max);

/* Called for each sample by perfrec_walk_samples() */
typedef int (*perfrec_sample_fn)(void *ctx, const struct perfrec_sample_view *s);

/*
 * U-Boot's embedded symbol table (CONFIG_KALLSYMS, common/system_map.c),
 * weak: NULL in a build without it
 */
extern const char system_map[] __weak;

/* Most functions and call paths perfrec_report() shows */
#define PERFREC_REPORT_MAX_TOP	1000

/**
 * perfrec_report() - Print the hottest functions and call paths of the last recording
 *
 * Names the samples of the last finished recording with U-Boot's embedded
 * symbol table (CONFIG_PERFREC_REPORT, which selects KALLSYMS) and prints,
 * per event, the @top functions by their share of its events, as perf
 * report --no-children does; with call chains, the @top call paths too.
 *
 * @top: functions and call paths to show, 1 to PERFREC_REPORT_MAX_TOP
 * Return: 0 (also when there are no samples: it says so), -ENOSYS without
 * an embedded symbol table, -ENOENT if no finished, unstreamed recording is
 * there to report, -ENOMEM if the samples do not fit in the heap, -EBADMSG
 * if its buffer was written over since (perfrec_walk_samples())
 */
int perfrec_report(uint top);

/* Call-path entries perfrec_report_print() names per sample: the PC and 7 callers */
#define PERFREC_REPORT_DEPTH		8

/**
 * struct perfrec_report_src - The recording perfrec_report_print() reports on
 * @walk: calls its function for each sample, in order (as perfrec_walk_samples())
 * @nr_events: events of the recording
 * @event_names: their names, by the samples' event index
 * @symbols: the symbol table, laid out as system_map: entries of 16 hex digits
 *	(link address) and the name, each ended by '\0', sorted by address, then
 *	an empty string
 * @run_start: where the image runs (U-Boot: gd->relocaddr)
 * @run_len: its size in bytes (gd->mon_len); addresses outside it have no name
 * @reloc_off: run address minus link address (gd->reloc_off)
 */
struct perfrec_report_src {
	int (*walk)(perfrec_sample_fn fn, void *ctx);
	uint nr_events;
	const char *const *event_names;
	const char *symbols;
	ulong run_start;
	ulong run_len;
	ulong reloc_off;
};

/**
 * perfrec_report_print() - Print the hottest functions and call paths of samples
 *
 * The engine of perfrec_report(), for any source of samples: per event, the
 * @top functions by their share of its events (as perf report --no-children),
 * and with call chains the @top call paths by samples. Of several names of one
 * address it shows perf's choice: fewer leading underscores, else the longer.
 *
 * @src: the samples, event names, symbol table and image bounds
 * @top: functions and call paths to show, 1 to PERFREC_REPORT_MAX_TOP
 * Return: 0 (also when there are no samples: it says so), -ENOMEM if the
 * samples do not fit in the heap
 */
int perfrec_report_print(const struct perfrec_report_src *src, uint top);

/**
 * perfrec_walk_samples() - Walk the samples of the finished recording
 * @fn: called for each sample, in order; a non-zero return stops the walk
 * @ctx: passed to @fn
 * Return: 0 when all were walked, -ENODATA if there is no finished,
 * unstreamed recording, -EBADMSG if a record in its buffer is not
 * perfrec's (the buffer was written over), or what @fn returned
 */
int perfrec_walk_samples(perfrec_sample_fn fn, void *ctx);

#endif /* __PERFREC_REPORT_H */
