// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: the facts a perf.data states about U-Boot, for the writer
 *
 * The writer knows nothing of U-Boot: this file hands it the image's place
 * (address, size, ELF file offset and build-id), the machine (model, MIDR,
 * CPUs, memory), the events and the command line.
 */

#include <errno.h>
#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_dt.h>
#include <perfrec_hw.h>
#include <stdio.h>
#include <version.h>
#include <vsprintf.h>
#include <asm/global_data.h>
#include <dm/ofnode.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_info.h"

DECLARE_GLOBAL_DATA_PTR;

#define PERFREC_VERSION		"perfrec 0.1"

/* Marks perfrec_image_pgoff as not yet set by the build */
#define PERFREC_PGOFF_UNSET	0x5045524652454331ULL	/* "1CERFREP" */

/*
 * File offset of the image's first byte in the u-boot ELF (the p_offset of
 * its PT_LOAD segment). The image cannot read its ELF, so the build writes it
 * here after linking (scripts/perfrec_pgoff.py, run from
 * arch/arm/Makefile.postlink). perf needs it to map sampled addresses to
 * symbols: a wrong value gives wrong symbols without any warning.
 */
u64 perfrec_image_pgoff __section(".data") = PERFREC_PGOFF_UNSET;

/*
 * Bytes from _start to the end of the image's code, written by the same
 * post-link step: call-graph return addresses must fall in there.
 */
u64 perfrec_image_text_bytes __section(".data") = PERFREC_PGOFF_UNSET;

int perfrec_info_check_image(void)
{
	if (READ_ONCE(perfrec_image_pgoff) == PERFREC_PGOFF_UNSET ||
	    READ_ONCE(perfrec_image_text_bytes) == PERFREC_PGOFF_UNSET)
		return -ENOEXEC;

	return 0;
}

u64 perfrec_info_text_bytes(void)
{
	return READ_ONCE(perfrec_image_text_bytes);
}

/* Keep the command line: the shell's words are gone when 'perfrec start' returns */
static void perfrec_copy_cmdline(struct perfrec_facts *f, struct perfrec_cfg *cfg)
{
	size_t used = 0, len;
	int i, argc = 0;

	for (i = 0; i < cfg->argc && i < PERFREC_CMDLINE_WORDS; i++) {
		len = strlen(cfg->argv[i]) + 1;
		if (used + len > sizeof(f->cmdline))
			break;
		memcpy(f->cmdline + used, cfg->argv[i], len);
		f->argv[argc++] = f->cmdline + used;
		used += len;
	}
	cfg->argc = argc;
	cfg->argv = f->argv;
}

/* The image's GNU build-id note (placed by the linker script), if any */
extern const u8 __perfrec_build_id_start[], __perfrec_build_id_end[];

#define PERFREC_NT_GNU_BUILD_ID		3

static void perfrec_find_build_id(struct perf_data_info *info)
{
	const u8 *note = __perfrec_build_id_start;
	u32 namesz, descsz, type;

	if (!IS_ENABLED(CONFIG_PERFREC_BUILD_ID) || __perfrec_build_id_end - note < 16)
		return;
	memcpy(&namesz, note, sizeof(namesz));
	memcpy(&descsz, note + 4, sizeof(descsz));
	memcpy(&type, note + 8, sizeof(type));
	if (type != PERFREC_NT_GNU_BUILD_ID || namesz != 4 || memcmp(note + 12, "GNU", 4) ||
	    !descsz || descsz > PERF_DATA_BUILD_ID_MAX ||
	    note + 16 + descsz > __perfrec_build_id_end)
		return;
	info->build_id = note + 16;
	info->build_id_len = descsz;
}

void perfrec_info_fill(struct perfrec_facts *f, struct perfrec_cfg *cfg,
		       const struct perfrec_dt *dt)
{
	struct perf_data_info *info = &f->info;
	uint i;

	perfrec_copy_cmdline(f, cfg);
	for (i = 0; i < cfg->nr_events; i++) {
		const struct perfrec_event_cfg *ec = &cfg->events[i];

		f->events[i].type = ec->type;
		f->events[i].config = ec->config;
		f->events[i].freq = !!ec->freq_hz;
		f->events[i].period = ec->freq_hz ? ec->freq_hz : ec->period;
		f->events[i].id = i + 1;
		f->events[i].name = ec->name;
		f->events[i].callchain = cfg->callchain;
	}

	snprintf(f->cpuid, sizeof(f->cpuid), "0x%016llx", perfrec_hw_midr());
	snprintf(f->osrelease, sizeof(f->osrelease), "U-Boot %s", PLAIN_VERSION);

	memset(info, 0, sizeof(*info));
	info->events = f->events;
	info->nr_events = cfg->nr_events;
	info->pid = PERFREC_PID;
	info->tid = PERFREC_PID;
	info->comm = "u-boot";
	info->image_start = gd->relocaddr;
	info->image_len = gd->mon_len;
	info->image_pgoff = READ_ONCE(perfrec_image_pgoff);
	info->image_name = "/u-boot";
	/* Not CONFIG_SYS_BOARD: a board with no board/ directory has none */
	info->hostname = dt->model ? dt->model : "u-boot";
	info->osrelease = f->osrelease;
	info->version = PERFREC_VERSION;
	/* uname -m's name; perf reads any "arm..." as arch arm */
	info->arch = IS_ENABLED(CONFIG_ARM64) ? "aarch64" : "armv7l";
	info->cpuid = f->cpuid;
	info->nr_cpus_avail = max(dt->nr_cpus, 1U);
	info->nr_cpus_online = 1;
	info->total_mem_kb = gd->ram_size / 1024;
	info->argv = f->argv;
	info->argc = cfg->argc;
	perfrec_find_build_id(info);
}
