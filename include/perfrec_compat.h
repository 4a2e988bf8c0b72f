/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What differs between the U-Boot releases perfrec builds on (2023.01 .. 2026.10)
 *
 * The one place for such differences: code elsewhere uses these names and
 * never tests the release itself. Each is told apart by a macro the tree
 * defines where U-Boot offers one, by the release number where it does not.
 */

#ifndef __PERFREC_COMPAT_H
#define __PERFREC_COMPAT_H

#include <command.h>
#include <event.h>
#include <lmb.h>
#include <linux/libfdt.h>
#include <version.h>
#include <linux/compiler.h>
#include <linux/types.h>

struct bd_info;

/* Is this U-Boot release @year.@month or later? */
#define PERFREC_UBOOT_AT_LEAST(year, month)				\
	(U_BOOT_VERSION_NUM > (year) ||					\
	 (U_BOOT_VERSION_NUM == (year) && U_BOOT_VERSION_NUM_PATCH >= (month)))

/*
 * 2026.10 moved the DRAM banks from bd->bi_dram[] to gd->dram[] (no macro
 * tells; a tree from that merge window before the move needs the old form);
 * messages name the banks as the release spells them
 */
#if PERFREC_UBOOT_AT_LEAST(2026, 10)
#define PERFREC_DRAM_BANK(gd, i)	((gd)->dram[i])
#define PERFREC_DRAM_BANKS_NAME		"gd->dram"
#else
#define PERFREC_DRAM_BANK(gd, i)	((gd)->bd->bi_dram[i])
#define PERFREC_DRAM_BANKS_NAME		"bd->bi_dram"
#endif

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

/* 2025.04 renamed free_mem to available_mem, with the LMB_NONE flag names */
#ifdef LMB_NONE
#define PERFREC_LMB_AVAILABLE	available_mem
#else
#define PERFREC_LMB_AVAILABLE	free_mem
#endif

/* The global lmb is set up after driver model (initr_lmb) */
static inline bool perfrec_lmb_ready(void)
{
	return lmb_get()->PERFREC_LMB_AVAILABLE.count;
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

/*
 * The highest free @size bytes below @max_addr (0: anywhere), not kept.
 * 2025.10 replaced lmb_alloc_base() by lmb_alloc_mem() and gave lmb_free()
 * the flags (no macro tells). @rsv_nodes: see the local lmb's below.
 */
static inline phys_addr_t perfrec_lmb_alloc_below(struct bd_info *bd, void *fdt,
						  bool rsv_nodes, phys_size_t size,
						  ulong align, phys_addr_t max_addr)
{
#if PERFREC_UBOOT_AT_LEAST(2025, 10)
	phys_addr_t addr = max_addr;

	if (lmb_alloc_mem(LMB_MEM_ALLOC_MAX, align, &addr, size, LMB_NONE))
		return 0;
	lmb_free(addr, size, LMB_NONE);
#else
	phys_addr_t addr = lmb_alloc_base(size, align, max_addr);

	if (addr)
		lmb_free(addr, size);
#endif

	return addr;
}

/*
 * Keep a recording's buffer out of later allocations (the EFI loader's,
 * bootm's) and refuse loads over it (NOOVERWRITE), until it is given back
 */
static inline bool perfrec_lmb_keep(phys_addr_t addr, phys_size_t size)
{
#if PERFREC_UBOOT_AT_LEAST(2025, 10)
	return !lmb_alloc_mem(LMB_MEM_ALLOC_ADDR, 0, &addr, size, LMB_NOOVERWRITE);
#else
	return lmb_alloc_addr_flags(addr, size, LMB_NOOVERWRITE) == addr;
#endif
}

static inline void perfrec_lmb_give_back(phys_addr_t addr, phys_size_t size)
{
#if PERFREC_UBOOT_AT_LEAST(2025, 10)
	lmb_free(addr, size, LMB_NOOVERWRITE);
#else
	lmb_free_flags(addr, size, LMB_NOOVERWRITE);
#endif
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

/*
 * A local lmb from bd and @fdt. @rsv_nodes false: perfrec's walk of the tree
 * found no /reserved-memory node, so only its /memreserve/ entries are
 * read; lmb's own search for the node walks the whole tree each time.
 */
static inline void perfrec_lmb_init(struct lmb *lmb, struct bd_info *bd, void *fdt,
				    bool rsv_nodes)
{
	u64 addr, size;
	int i;

	if (rsv_nodes) {
		lmb_init_and_reserve(lmb, bd, fdt);
		return;
	}
	lmb_init_and_reserve(lmb, bd, NULL);
	for (i = 0; fdt && i < fdt_num_mem_rsv(fdt); i++) {
		if (!fdt_get_mem_rsv(fdt, i, &addr, &size))
			lmb_reserve(lmb, addr, size);
	}
}

static inline phys_addr_t perfrec_lmb_alloc_below(struct bd_info *bd, void *fdt,
						  bool rsv_nodes, phys_size_t size,
						  ulong align, phys_addr_t max_addr)
{
	struct lmb lmb;

	perfrec_lmb_init(&lmb, bd, fdt, rsv_nodes);

	return lmb_alloc_base(&lmb, size, align, max_addr);
}

/*
 * No lasting reservations before 2024.10: each user of lmb builds its own.
 * The EFI loader keeps CONFIG_STACK_SIZE below U-Boot's stack for U-Boot,
 * where a default buffer that fits goes.
 */
static inline bool perfrec_lmb_keep(phys_addr_t addr, phys_size_t size)
{
	return false;
}

static inline void perfrec_lmb_give_back(phys_addr_t addr, phys_size_t size)
{
}

#endif

#endif /* __PERFREC_COMPAT_H */
