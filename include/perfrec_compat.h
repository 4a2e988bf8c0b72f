/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What differs between the U-Boot releases perfrec builds on (2023.01 .. 2025.01)
 *
 * The one place for such differences: code elsewhere uses these names and
 * never tests the release itself.
 */

#ifndef __PERFREC_COMPAT_H
#define __PERFREC_COMPAT_H

#include <command.h>
#include <event.h>
#include <lmb.h>
#include <linux/compiler.h>
#include <linux/types.h>

struct bd_info;

/* 2025.01 spells the help-text guard as a macro; 2023.01 has #ifdef CONFIG_SYS_LONGHELP */
#ifndef U_BOOT_LONGHELP
#define U_BOOT_LONGHELP(_cmdname, text)					\
	static __maybe_unused char _cmdname##_help_text[] = text
#endif

/*
 * 2023.10 spells event spies with arguments EVENT_SPY_FULL and gives the
 * post-relocation driver-model init its own event; before, EVT_DM_POST_INIT
 * came both before and after relocation (spies check GD_FLG_RELOC).
 */
#ifdef EVENT_SPY_FULL
#define PERFREC_EVENT_SPY		EVENT_SPY_FULL
#define PERFREC_EVT_DM_POST_INIT_R	EVT_DM_POST_INIT_R
#else
#define PERFREC_EVENT_SPY		EVENT_SPY
#define PERFREC_EVT_DM_POST_INIT_R	EVT_DM_POST_INIT
#endif

/*
 * 2024.10 made lmb global (and lmb_alloc_addr() a lasting reservation);
 * 2023.01 builds a local lmb from bd and the FDT for each check.
 */
#ifdef LMB_ALIST_INITIAL_SIZE

/* The global lmb is set up after driver model (initr_lmb) */
static inline bool perfrec_lmb_ready(void)
{
	return lmb_get()->free_mem.count;
}

/*
 * Read the reservations rather than reserve and free: lmb_alloc_addr()
 * accepts a range that starts where a reservation of other flags ends
 * without checking the next one, and the lmb_free() after it could then cut
 * a hole into U-Boot's own reservation.
 */
static inline bool perfrec_lmb_range_free(struct bd_info *bd, void *fdt, phys_addr_t addr,
					  phys_size_t size)
{
	struct lmb *lmb = lmb_get();
	struct lmb_region *rgn = lmb->used_mem.data;
	uint i;

	for (i = 0; i < lmb->used_mem.count; i++) {
		if (addr < rgn[i].base + rgn[i].size && rgn[i].base < addr + size)
			return false;
	}

	return true;
}

static inline phys_addr_t perfrec_lmb_alloc_below(struct bd_info *bd, void *fdt,
						  phys_size_t size, ulong align,
						  phys_addr_t max_addr)
{
	phys_addr_t addr = lmb_alloc_base(size, align, max_addr);

	if (addr)
		lmb_free(addr, size);

	return addr;
}

#else

static inline bool perfrec_lmb_ready(void)
{
	return true;
}

static inline bool perfrec_lmb_range_free(struct bd_info *bd, void *fdt, phys_addr_t addr,
					  phys_size_t size)
{
	struct lmb lmb;

	lmb_init_and_reserve(&lmb, bd, fdt);

	return lmb_alloc_addr(&lmb, addr, size) == addr;
}

static inline phys_addr_t perfrec_lmb_alloc_below(struct bd_info *bd, void *fdt,
						  phys_size_t size, ulong align,
						  phys_addr_t max_addr)
{
	struct lmb lmb;

	lmb_init_and_reserve(&lmb, bd, fdt);

	return lmb_alloc_base(&lmb, size, align, max_addr);
}

#endif

#endif /* __PERFREC_COMPAT_H */
