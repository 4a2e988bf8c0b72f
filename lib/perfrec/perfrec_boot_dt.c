// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Where the boot recording's buffer may lie, by the device tree alone
 *
 * The checks perfrec_boot_bad_buffer() makes first: the buffer's address,
 * alignment and size, and what the device tree says of memory: it must lie
 * in a bank of /memory and miss what /reserved-memory and /memreserve/
 * reserve. They read nothing but the tree (perfrec_dt_scan()'s facts and
 * its blob), so this file builds for the host too (USE_HOSTCC), where
 * tools/perfrec/perfrec_verdict.c checks a buffer against a board's DTB.
 */

#include <errno.h>
#include <vsprintf.h>
#include <asm/global_data.h>
#include <dm/ofnode.h>
#include <linux/libfdt.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include "perfrec_boot_dt.h"
#include "perfrec_buffer.h"

DECLARE_GLOBAL_DATA_PTR;

/* Does [@base, +@bank_size) hold all of [@start, +@size)? */
static bool perfrec_within(u64 start, u64 size, u64 base, u64 bank_size)
{
	return start >= base && size <= bank_size && start - base <= bank_size - size;
}

bool perfrec_boot_in_memory(ulong start, ulong size, const struct perfrec_dt *dt)
{
	uint i;

	for (i = 0; i < dt->nr_banks; i++) {
		if (perfrec_within(start, size, dt->bank[i], dt->bank_size[i]))
			return true;
	}

	return false;
}

/*
 * What the device tree reserves that the buffer overlaps: a /reserved-memory
 * child's region (@dt found them in its walk) or a /memreserve/ entry. Into
 * @why, and true, if any.
 */
static bool perfrec_boot_reserved(ulong start, ulong size, const struct perfrec_dt *dt,
				  char *why)
{
	const void *blob = gd->fdt_blob;
	u64 addr, len;
	uint i;
	int n;

	if (dt->reserved_over) {
		snprintf(why, PERFREC_BOOT_WHY_LEN,
			 "cannot be checked: the device tree reserves more than %u regions",
			 PERFREC_DT_MAX_RESERVED);
		return true;
	}
	for (i = 0; i < dt->nr_reserved; i++) {
		if (dt->reserved_size[i] &&
		    perfrec_overlaps(start, size, dt->reserved[i], dt->reserved_size[i])) {
			snprintf(why, PERFREC_BOOT_WHY_LEN,
				 "overlaps /reserved-memory/%s (%#llx-%#llx)",
				 ofnode_get_name(dt->reserved_node[i]), dt->reserved[i],
				 dt->reserved[i] + dt->reserved_size[i] - 1);
			return true;
		}
	}
	n = fdt_num_mem_rsv(blob);
	for (i = 0; n > 0 && i < n; i++) {
		if (!fdt_get_mem_rsv(blob, i, &addr, &len) && len &&
		    perfrec_overlaps(start, size, addr, len)) {
			snprintf(why, PERFREC_BOOT_WHY_LEN,
				 "overlaps /memreserve/ %#llx-%#llx of the device tree",
				 addr, addr + len - 1);
			return true;
		}
	}

	return false;
}

bool perfrec_boot_dt_bad(ulong start, ulong size, ulong least, const struct perfrec_dt *dt,
			 char *why)
{
	const char *bad = NULL;

	if (!start)
		bad = "has no address: set CONFIG_PERFREC_BOOT_ADDR (0 is never taken)";
	else if (start % SZ_4K)
		bad = "is not 4 KiB aligned";
	else if (size < least + SZ_4K)
		bad = "has no room for perfrec's state and 4 KiB of samples";
	else if (!perfrec_boot_in_memory(start, size, dt))
		bad = "is not in the device tree's /memory";
	else
		return perfrec_boot_reserved(start, size, dt, why);
	strlcpy(why, bad, PERFREC_BOOT_WHY_LEN);

	return true;
}
