// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec at OS handoff: keep a recording's buffer out of the OS's memory
 *
 * When an OS is booted while perfrec records, the recording is finalised in
 * memory as the PMU device is removed (see pmuv3.c). So that it can still be
 * read once the OS runs, its buffer is added to the OS device tree as a
 * no-map reserved-memory region "perfrec@<addr>" (compatible
 * "perfrec,buffer").
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <event.h>
#include <fdtdec.h>
#include <log.h>
#include <perfrec.h>
#include <perfrec_compat.h>
#include <stdio.h>
#include <dm/ofnode.h>

static int perfrec_fdt_reserve(void *ctx, struct event *event)
{
	const char *compatible = "perfrec,buffer";
	struct perfrec_result res;
	struct fdt_memory mem;
	void *blob;
	int ret;

	perfrec_get_result(&res);
	if (res.state != PERFREC_ARMED || res.mode != PERFREC_RECORD)
		return 0;
	blob = oftree_lookup_fdt(event->data.ft_fixup.tree);
	if (!blob)
		return 0;
	mem.start = res.addr;
	mem.end = res.addr + res.size - 1;
	ret = fdtdec_add_reserved_memory(blob, "perfrec", &mem, &compatible, 1, NULL,
					 FDTDEC_RESERVED_MEMORY_NO_MAP);
	/* The OS boots all the same; it just may overwrite the recording */
	if (ret)
		printf("perfrec: cannot reserve %#lx+%#lx in the OS device tree (err=%d)\n",
		       res.addr, res.size, ret);

	return 0;
}

PERFREC_EVENT_SPY(EVT_FT_FIXUP, perfrec_fdt_reserve);
