// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Where the boot recording's buffer may lie: what it must miss, and when
 *
 * Before relocation a buffer that is not perfrec's to write must never be
 * written: the first sample would land there. So it is checked before the
 * arming writes its first byte, against all that is known then: /memory,
 * what the device tree reserves (/reserved-memory, /memreserve/), the tree
 * itself, U-Boot's image, the initial stack, gd and the early malloc area.
 * What board code says of DRAM (its banks, its usable top) and what U-Boot
 * reserves at the top of it are known from setup_reloc() on: the recording
 * is dropped then if its buffer lies outside them or in what was reserved.
 */

#include <errno.h>
#include <fdtdec.h>
#include <init.h>
#include <perfrec_compat.h>
#include <asm/global_data.h>
#include <asm/sections.h>
#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include "perfrec_boot_check.h"
#include "perfrec_buffer.h"

DECLARE_GLOBAL_DATA_PTR;

/* Room kept for a stack below the stack pointer the buffer is checked against */
#define PERFREC_BOOT_STACK_ROOM	SZ_256K

bool perfrec_boot_bad_buffer(ulong start, ulong size, ulong least, const struct perfrec_dt *dt,
			     char *why)
{
	ulong sp = (ulong)&start, top;
	const char *bad = NULL;

	if (perfrec_boot_dt_bad(start, size, least, dt, why))
		return true;
	if (perfrec_overlaps(start, size, (ulong)gd->fdt_blob, fdt_totalsize(gd->fdt_blob)))
		bad = "overlaps the device tree";
	else if (perfrec_overlaps(start, size, (ulong)__image_copy_start,
				  (ulong)__bss_end - (ulong)__image_copy_start))
		bad = "overlaps U-Boot's image";
	if (bad) {
		strlcpy(why, bad, PERFREC_BOOT_WHY_LEN);
		return true;
	}
	/* The initial stack grows down from gd; the early malloc area is above gd */
	top = max((ulong)gd + sizeof(*gd), (ulong)gd->malloc_base + gd->malloc_limit);
	sp = sp > PERFREC_BOOT_STACK_ROOM ? sp - PERFREC_BOOT_STACK_ROOM : 0;
	if (perfrec_overlaps(start, size, sp, top - sp)) {
		strlcpy(why, "overlaps the initial stack, gd or the early malloc area",
			PERFREC_BOOT_WHY_LEN);
		return true;
	}

	return false;
}

const char *perfrec_boot_bad_at_reloc(ulong start, ulong size)
{
	ulong reserved = gd->start_addr_sp - PERFREC_BOOT_STACK_ROOM;
	u64 end = (u64)gd->ram_base + gd->ram_size;

	/* What setup_dest_addr() and the reserve_*() steps took, and the new stack */
	if (perfrec_overlaps(start, size, reserved, gd->ram_top - reserved))
		return "overlaps what U-Boot reserved at the top of DRAM";
	/* What board_get_usable_ram_top() left out, as for secure firmware */
	if (end > gd->ram_top && perfrec_overlaps(start, size, gd->ram_top, end - gd->ram_top))
		return "lies above the top of usable DRAM the board reports (gd->ram_top)";
	/*
	 * A board may cut secure firmware out of its DRAM banks, where no
	 * device tree says so. No bank known yet: nothing to check.
	 */
	if (perfrec_buffer_in_dram(start, size) == -ERANGE)
		return "is not in a DRAM bank the board reports (" PERFREC_DRAM_BANKS_NAME ")";

	return NULL;
}
