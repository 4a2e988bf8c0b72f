/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's walk of U-Boot's page tables: find, check and map a register block
 */

#ifndef __PERFREC_MMU_H
#define __PERFREC_MMU_H

#include <linux/types.h>

/* Most descriptors perfrec writes into U-Boot's page tables in one session */
#define PERFREC_MMU_MAX_CHANGES		32

/**
 * struct perfrec_mmu - The stage 1 translation tables of U-Boot's EL (4 KiB granule)
 * @root: the first table of the walk (TTBR0_ELx's base address)
 * @va_bits: virtual address bits translated (64 - TCR_ELx.T0SZ)
 * @device_attr: the MAIR_ELx index that holds Device-nGnRnE, or -1
 */
struct perfrec_mmu {
	u64 *root;
	uint va_bits;
	int device_attr;
};

/**
 * struct perfrec_mmu_borrow - Descriptors perfrec wrote, and what they held
 * @nr: descriptors in @change
 * @restored: perfrec_mmu_unmap() gave them back; @change still lists them,
 *	so that the caller can check them
 * @change: each descriptor's address and its value before perfrec wrote it
 */
struct perfrec_mmu_borrow {
	uint nr;
	bool restored;
	struct perfrec_mmu_change {
		u64 *desc;
		u64 old;
	} change[PERFREC_MMU_MAX_CHANGES];
};

/**
 * perfrec_mmu_lookup() - Find the descriptor that translates one address
 * @mmu: the tables
 * @va: the address
 * @descp: returns the last descriptor the walk read
 * @levelp: returns its level (0-3)
 * Return: 0 if @va is mapped (a block or page), -ENOENT if the walk ends in
 * an invalid descriptor (@descp points at it), -ERANGE if @va is outside the
 * translated range (no descriptor)
 */
int perfrec_mmu_lookup(const struct perfrec_mmu *mmu, u64 va, u64 **descp, uint *levelp);

/**
 * perfrec_mmu_check() - Is a range of addresses mapped throughout?
 * @mmu: the tables
 * @start: first address
 * @size: bytes
 * @holep: returns the first unmapped address, on -ENOENT and -ERANGE
 * Return: 0 if mapped, -ENOENT if there is a hole, -ERANGE if part of it is
 * outside the translated range, -EINVAL for an empty or wrapping range
 */
int perfrec_mmu_check(const struct perfrec_mmu *mmu, u64 start, u64 size, u64 *holep);

/**
 * perfrec_mmu_map() - Map the holes of a range as device memory
 * @mmu: the tables
 * @start: first address
 * @size: bytes
 * @borrow: the descriptors written, added to (for perfrec_mmu_unmap())
 *
 * Each invalid descriptor at level 1-3 that the range's walk ends in becomes
 * a Device-nGnRnE block or page of the same address, read-write and never
 * executable. Valid descriptors are left alone. The caller cleans the
 * descriptors to memory and invalidates the TLB.
 * Return: descriptors written (0: all was mapped), or -ERANGE if part of the
 * range is outside the translated range, -EOPNOTSUPP if a hole is at level 0
 * or there is no device attribute, -ENOSPC if @borrow is full, -EINVAL for
 * an empty or wrapping range; on error this call has written nothing
 */
int perfrec_mmu_map(const struct perfrec_mmu *mmu, u64 start, u64 size,
		    struct perfrec_mmu_borrow *borrow);

/**
 * perfrec_mmu_unmap() - Give back what perfrec_mmu_map() took
 * @borrow: the descriptors written; each gets its old value back, newest
 *	first, and @borrow->restored is set (the next perfrec_mmu_map() starts
 *	a new list)
 */
void perfrec_mmu_unmap(struct perfrec_mmu_borrow *borrow);

/**
 * perfrec_mmu_get() - The page tables U-Boot's EL translates through now
 * @mmu: returns their root, the VA range and the device attribute index
 * Return: 0, -ENOENT if the MMU is off (every address reaches the bus as
 * it is), -EOPNOTSUPP if the granule is not 4 KiB
 */
int perfrec_mmu_get(struct perfrec_mmu *mmu);

/**
 * perfrec_mmu_sync() - Make descriptors written into the tables in use take effect
 * @borrow: the descriptors: cleaned to memory for the table walk, then the
 *	EL's TLB is invalidated
 */
void perfrec_mmu_sync(const struct perfrec_mmu_borrow *borrow);

#endif /* __PERFREC_MMU_H */
