/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <fdtdec.h>: fdtdec_get_number()
 */

#ifndef __PERFREC_HOST_FDTDEC_H
#define __PERFREC_HOST_FDTDEC_H

#include <linux/libfdt.h>
#include <linux/types.h>

/* A number of @cells big-endian cells (the low 64 bits of it), as U-Boot's */
static inline u64 fdtdec_get_number(const fdt32_t *ptr, unsigned int cells)
{
	u64 number = 0;

	while (cells--)
		number = (number << 32) | fdt32_to_cpu(*ptr++);

	return number;
}

#endif /* __PERFREC_HOST_FDTDEC_H */
