/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What perfrec_buffer.c gives the rest of the library besides <perfrec.h>
 */

#ifndef __PERFREC_BUFFER_H
#define __PERFREC_BUFFER_H

#include <linux/types.h>

/**
 * perfrec_buffer_in_dram() - Whether a DRAM bank board code reports holds a buffer
 * @addr: its address
 * @size: its size in bytes
 * Return: 0 if one bank holds it whole, -ERANGE if none does, -ENOENT if
 * board code reports no bank yet (before dram_init_banksize())
 */
int perfrec_buffer_in_dram(ulong addr, ulong size);

#endif /* __PERFREC_BUFFER_H */
