// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's buffer placement: is a buffer in DRAM and free (lmb), and where
 * the default buffer goes, clear of U-Boot and of the usual load areas
 */

#include <env.h>
#include <errno.h>
#include <perfrec.h>
#include <perfrec_compat.h>
#include <stdio.h>
#include <asm/global_data.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include "perfrec_buffer.h"

DECLARE_GLOBAL_DATA_PTR;

/* Where the default buffer may not go: the usual load areas and their room */
static const struct {
	const char *var;
	ulong bytes;
} perfrec_load_areas[] = {
	{ "loadaddr", SZ_64M },
	{ "kernel_addr_r", SZ_64M },
	{ "ramdisk_addr_r", SZ_64M },
	{ "fdt_addr_r", SZ_1M },
	{ "fdt_addr", SZ_1M },
	{ "scriptaddr", SZ_1M },
	{ "pxefile_addr_r", SZ_1M },
};

/* The default buffer's alignment, and how many free regions to try */
#define PERFREC_DEFAULT_ALIGN	SZ_64K
#define PERFREC_ALLOC_TRIES	8

int perfrec_buffer_in_dram(ulong addr, ulong size)
{
	int i, ret = -ENOENT;

	for (i = 0; i < CONFIG_NR_DRAM_BANKS; i++) {
		ulong start = PERFREC_DRAM_BANK(gd, i).start;
		ulong bank = PERFREC_DRAM_BANK(gd, i).size;

		if (!bank)
			continue;
		if (addr >= start && size <= bank && addr - start <= bank - size)
			return 0;
		ret = -ERANGE;
	}

	return ret;
}

/*
 * The load area [start, start + bytes) that [addr, addr + size) overlaps, if
 * any: its variable's index, or -1
 */
static int perfrec_overlaps_load_area(ulong addr, ulong size, ulong *startp)
{
	uint i;

	for (i = 0; i < ARRAY_SIZE(perfrec_load_areas); i++) {
		ulong start = env_get_hex(perfrec_load_areas[i].var, 0);

		if (!start)
			continue;
		if (perfrec_overlaps(addr, size, start, perfrec_load_areas[i].bytes)) {
			*startp = start;
			return i;
		}
	}

	return -1;
}

int perfrec_buffer_place(ulong size, ulong avoid, ulong avoid_size, bool rsv_nodes,
			 ulong *addrp, const char **areap)
{
	phys_addr_t max = 0, addr, top = 0;
	ulong start;
	int i, area, top_area = -1;

	*areap = NULL;
	for (i = 0; i < PERFREC_ALLOC_TRIES; i++) {
		/* No room below: lmb would say so with an error line of its own */
		if (max && max - gd->ram_base < size)
			break;
		addr = perfrec_lmb_alloc_below(gd->bd, (void *)gd->fdt_blob, rsv_nodes, size,
					       PERFREC_DEFAULT_ALIGN, max);
		if (!addr)
			break;
		/* Never there, not even as the last resort: look below it */
		if (avoid_size && perfrec_overlaps(addr, size, avoid, avoid_size)) {
			max = avoid;
			continue;
		}
		area = perfrec_overlaps_load_area(addr, size, &start);
		if (area < 0) {
			*addrp = addr;
			return 0;
		}
		if (!top) {
			top = addr;
			top_area = area;
		}
		max = start;
	}
	/* A small DRAM, all of it load areas: the top of free DRAM after all */
	if (!top)
		return -ENOMEM;
	*addrp = top;
	*areap = perfrec_load_areas[top_area].var;

	return 0;
}

int perfrec_buffer_default(ulong size, ulong avoid, ulong avoid_size, ulong *addrp,
			   const char **areap)
{
	return perfrec_buffer_place(size, avoid, avoid_size, true, addrp, areap);
}

void perfrec_buffer_note_area(ulong addr, const char *area)
{
	ulong bytes = 0;
	uint i;

	for (i = 0; i < ARRAY_SIZE(perfrec_load_areas); i++) {
		if (!strcmp(perfrec_load_areas[i].var, area))
			bytes = perfrec_load_areas[i].bytes;
	}
	printf("perfrec: no free DRAM is clear of the load areas: the buffer at %#lx is in the %lu MiB from $%s\n",
	       addr, bytes / SZ_1M, area);
}

int perfrec_buffer_check(ulong addr, ulong size)
{
	/* No bank known counts as outside DRAM here */
	if (perfrec_buffer_in_dram(addr, size))
		return -ERANGE;
	if (!perfrec_lmb_range_free(gd->bd, (void *)gd->fdt_blob, addr, size))
		return -EADDRINUSE;

	return 0;
}
