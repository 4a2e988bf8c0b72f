/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What perfrec_buffer.c gives the rest of the library besides <perfrec.h>
 */

#ifndef __PERFREC_BUFFER_H
#define __PERFREC_BUFFER_H

#include <linux/types.h>

/**
 * perfrec_overlaps() - Do two ranges share a byte?
 * @start: the first range's address
 * @size: its size, above 0
 * @other: the second range's address
 * @other_size: its size, above 0
 *
 * Either range may end at the top of the address space.
 * Return: true if [@start, +@size) and [@other, +@other_size) overlap
 */
static inline bool perfrec_overlaps(u64 start, u64 size, u64 other, u64 other_size)
{
	return start <= other + (other_size - 1) && other <= start + (size - 1);
}

/**
 * perfrec_buffer_in_dram() - Whether a DRAM bank board code reports holds a buffer
 * @addr: its address
 * @size: its size in bytes
 * Return: 0 if one bank holds it whole, -ERANGE if none does, -ENOENT if
 * board code reports no bank yet (before dram_init_banksize())
 */
int perfrec_buffer_in_dram(ulong addr, ulong size);

#endif /* __PERFREC_BUFFER_H */
