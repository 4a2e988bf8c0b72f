// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec and U-Boot's page tables: is a register block mapped, and map it for a session
 *
 * perfrec reads the GIC's registers at the addresses the device tree gives.
 * U-Boot's MMU map (a board's mem_map) lists only what U-Boot itself uses,
 * and the Raspberry Pi 4's leaves out its GIC: a read there is a
 * translation fault. Before perfrec touches a block it walks the stage 1
 * tables in use (4 KiB granule, as U-Boot sets up on arm64), and fills each
 * hole in the block's range with a Device-nGnRnE block or page descriptor,
 * recording what the descriptor held. perfrec_mmu_unmap() writes those values
 * back. Only invalid descriptors are ever written: what U-Boot mapped is
 * never changed, so no break-before-make is needed, and a level-0 hole (which
 * would need a new table) is refused.
 *
 * Pure functions over the tables: the caller reads the registers (TTBR0,
 * TCR, MAIR, see perfrec_cpu.c) and does the cache and TLB maintenance.
 * They build on sandbox for the unit tests, with tables in host memory.
 */

#include <errno.h>
#include <perfrec.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include "perfrec_mmu.h"

/* Stage 1 descriptors, 4 KiB granule (Arm ARM D8.3) */
#define PERFREC_TT_VALID		BIT(0)
#define PERFREC_TT_TABLE		BIT(1)	/* levels 0-2: table; level 3: page */
#define PERFREC_TT_ATTRINDX		GENMASK_ULL(4, 2)
#define PERFREC_TT_AF			BIT_ULL(10)
#define PERFREC_TT_PXN			BIT_ULL(53)
#define PERFREC_TT_UXN			BIT_ULL(54)
#define PERFREC_TT_OA			GENMASK_ULL(47, 12)
#define PERFREC_TT_ENTRIES		512
#define PERFREC_TT_PAGE_SHIFT		12
#define PERFREC_TT_LEVEL_BITS		9

static uint perfrec_mmu_shift(uint level)
{
	return PERFREC_TT_PAGE_SHIFT + PERFREC_TT_LEVEL_BITS * (3 - level);
}

/* The level the walk starts at (Arm ARM: 4 KiB granule, by T0SZ) */
static uint perfrec_mmu_start_level(uint va_bits)
{
	if (va_bits > perfrec_mmu_shift(0))
		return 0;
	if (va_bits > perfrec_mmu_shift(1))
		return 1;

	return 2;
}

int perfrec_mmu_lookup(const struct perfrec_mmu *mmu, u64 va, u64 **descp, uint *levelp)
{
	uint level = perfrec_mmu_start_level(mmu->va_bits);
	u64 *table = mmu->root;

	if (mmu->va_bits < perfrec_mmu_shift(2) || mmu->va_bits > 48 ||
	    va >> mmu->va_bits)
		return -ERANGE;
	for (;; level++) {
		u64 *desc = &table[(va >> perfrec_mmu_shift(level)) & (PERFREC_TT_ENTRIES - 1)];
		bool table_bit = *desc & PERFREC_TT_TABLE;

		*descp = desc;
		*levelp = level;
		if (!(*desc & PERFREC_TT_VALID))
			return -ENOENT;
		/* A page at level 3, a block at 1 and 2; level 0 has no blocks */
		if (level == 3)
			return table_bit ? 0 : -ENOENT;
		if (!table_bit)
			return level ? 0 : -ENOENT;
		table = (u64 *)(uintptr_t)(*desc & PERFREC_TT_OA);
	}
}

/* The end of the block or page that @va is in, at @level; 0 past the top */
static u64 perfrec_mmu_block_end(u64 va, uint level)
{
	u64 size = 1ULL << perfrec_mmu_shift(level);

	return (va & ~(size - 1)) + size;
}

int perfrec_mmu_check(const struct perfrec_mmu *mmu, u64 start, u64 size, u64 *holep)
{
	u64 va = start, end = start + size;
	uint level;
	u64 *desc;
	int ret;

	if (!size || end < start)
		return -EINVAL;
	while (va < end && va >= start) {
		ret = perfrec_mmu_lookup(mmu, va, &desc, &level);
		if (ret) {
			*holep = va;
			return ret;
		}
		va = perfrec_mmu_block_end(va, level);
	}

	return 0;
}

/* Write back the old values of the descriptors from @first on, newest first */
static void perfrec_mmu_undo(struct perfrec_mmu_borrow *borrow, uint first)
{
	uint i;

	for (i = borrow->nr; i > first; i--)
		*borrow->change[i - 1].desc = borrow->change[i - 1].old;
}

void perfrec_mmu_unmap(struct perfrec_mmu_borrow *borrow)
{
	if (borrow->restored)
		return;
	perfrec_mmu_undo(borrow, 0);
	borrow->restored = true;
}

int perfrec_mmu_map(const struct perfrec_mmu *mmu, u64 start, u64 size,
		    struct perfrec_mmu_borrow *borrow)
{
	u64 va = start, end = start + size;
	uint first, level;
	u64 *desc;
	int ret;

	if (!size || end < start)
		return -EINVAL;
	if (mmu->device_attr < 0)
		return -EOPNOTSUPP;
	if (borrow->restored) {
		borrow->nr = 0;
		borrow->restored = false;
	}
	first = borrow->nr;
	for (; va < end && va >= start; va = perfrec_mmu_block_end(va, level)) {
		u64 base;

		ret = perfrec_mmu_lookup(mmu, va, &desc, &level);
		if (!ret)
			continue;
		if (ret == -ENOENT && !level)
			ret = -EOPNOTSUPP;	/* it would need a table of its own */
		else if (ret == -ENOENT && borrow->nr == PERFREC_MMU_MAX_CHANGES)
			ret = -ENOSPC;
		if (ret != -ENOENT)
			goto undo;
		base = va & ~((1ULL << perfrec_mmu_shift(level)) - 1);
		borrow->change[borrow->nr].desc = desc;
		borrow->change[borrow->nr].old = *desc;
		borrow->nr++;
		/* Device memory, read-write at U-Boot's EL, never executed */
		*desc = (base & PERFREC_TT_OA) | PERFREC_TT_VALID |
			(level == 3 ? PERFREC_TT_TABLE : 0) |
			FIELD_PREP(PERFREC_TT_ATTRINDX, mmu->device_attr) | PERFREC_TT_AF |
			PERFREC_TT_PXN | PERFREC_TT_UXN;
	}

	return borrow->nr - first;

undo:
	perfrec_mmu_undo(borrow, first);
	borrow->nr = first;

	return ret;
}
