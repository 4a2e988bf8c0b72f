/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: the facts a perf.data states about U-Boot, for the writer
 */

#ifndef __PERFREC_INFO_H
#define __PERFREC_INFO_H

#include <perf_data.h>
#include <perfrec.h>
#include <linux/types.h>

/**
 * struct perfrec_facts - What the perf.data says about the image and the machine
 * @events: the events as the perf.data states them
 * @info: facts for the writer, pointing into the rest of this struct
 * @cpuid: HEADER_CPUID text
 * @osrelease: HEADER_OSRELEASE text
 * @argv: the command line's words, pointing into @cmdline
 * @cmdline: the command line's text
 */
struct perfrec_facts {
	struct perf_data_event events[PERF_DATA_MAX_EVENTS];
	struct perf_data_info info;
	char cpuid[24];
	char osrelease[48];
	const char *argv[PERFREC_CMDLINE_WORDS];
	char cmdline[PERFREC_CMDLINE_BYTES];
};

/**
 * perfrec_info_check_image() - Did the build record where the image is in its ELF?
 * Return: 0 if it did, -ENOEXEC if the post-link step did not run
 */
int perfrec_info_check_image(void);

/**
 * perfrec_info_text_bytes() - Bytes from _start to the end of the image's code
 * Return: the size the post-link step recorded
 */
u64 perfrec_info_text_bytes(void);

struct perfrec_dt;

/**
 * perfrec_info_fill() - Gather the facts for a session's perf.data
 * @facts: returns the facts
 * @cfg: the session's configuration; its command line is copied into
 *	@facts, and @cfg->argv and @cfg->argc are pointed at the copy (the
 *	shell's words are gone when 'perfrec start' returns)
 * @dt: the arming's walk of the device tree: the CPUs and the model
 */
void perfrec_info_fill(struct perfrec_facts *facts, struct perfrec_cfg *cfg,
		       const struct perfrec_dt *dt);

#endif /* __PERFREC_INFO_H */
