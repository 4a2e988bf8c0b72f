/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Where the boot recording's buffer may lie: what it must miss, and when
 */

#ifndef __PERFREC_BOOT_CHECK_H
#define __PERFREC_BOOT_CHECK_H

#include <linux/types.h>
#include "perfrec_boot_dt.h"
#include <perfrec_dt.h>

/**
 * perfrec_boot_bad_buffer() - Why a boot buffer cannot be used, before relocation
 * @start: its address (0: none was given, which is never taken)
 * @size: its size
 * @least: the bytes it must hold besides 4 KiB of samples
 * @dt: the arming's walk of the device tree
 * @why: returns the reason, PERFREC_BOOT_WHY_LEN bytes at most
 *
 * The buffer must pass perfrec_boot_dt_bad(), and miss the tree itself,
 * U-Boot's image, the initial stack, gd and the early malloc area.
 *
 * Return: true if it cannot be used (@why says why), false if it can
 */
bool perfrec_boot_bad_buffer(ulong start, ulong size, ulong least, const struct perfrec_dt *dt,
			     char *why);

/**
 * perfrec_boot_bad_at_reloc() - Why a boot buffer cannot stay, from setup_reloc() on
 * @start: its address
 * @size: its size
 *
 * What U-Boot reserved at the top of DRAM, and the DRAM board code reports
 * (the banks after dram_init_banksize(), gd->ram_top after
 * board_get_usable_ram_top()), are known now.
 *
 * Return: NULL if it may stay, else why not
 */
const char *perfrec_boot_bad_at_reloc(ulong start, ulong size);

#endif /* __PERFREC_BOOT_CHECK_H */
