/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Where the boot recording's buffer may lie, by the device tree alone
 */

#ifndef __PERFREC_BOOT_DT_H
#define __PERFREC_BOOT_DT_H

#include <perfrec_dt.h>
#include <linux/types.h>

/* The longest reason perfrec_boot_bad_buffer() gives, NUL included */
#define PERFREC_BOOT_WHY_LEN	128

/**
 * perfrec_boot_in_memory() - Whether a bank of /memory holds all of a buffer
 * @start: the buffer's address
 * @size: its size
 * @dt: the walk that found the banks
 * Return: true if one bank holds it whole
 */
bool perfrec_boot_in_memory(ulong start, ulong size, const struct perfrec_dt *dt);

/**
 * perfrec_boot_dt_bad() - Why a boot buffer cannot be used, by the device tree alone
 * @start: its address (0: none was given, which is never taken)
 * @size: its size
 * @least: the bytes it must hold besides 4 KiB of samples
 * @dt: the arming's walk of the device tree (its blob is gd->fdt_blob)
 * @why: returns the reason, PERFREC_BOOT_WHY_LEN bytes at most
 *
 * The buffer must have an address, be 4 KiB aligned, hold @least and 4 KiB
 * more, lie in one bank of /memory and miss every region of
 * /reserved-memory and every /memreserve/ entry.
 *
 * Return: true if it cannot be used (@why says why), false if it can
 */
bool perfrec_boot_dt_bad(ulong start, ulong size, ulong least, const struct perfrec_dt *dt,
			 char *why);

#endif /* __PERFREC_BOOT_DT_H */
