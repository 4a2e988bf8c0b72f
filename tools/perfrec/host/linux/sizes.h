/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/sizes.h>
 */

#ifndef __PERFREC_HOST_LINUX_SIZES_H
#define __PERFREC_HOST_LINUX_SIZES_H

#define SZ_256			0x00000100
#define SZ_4K			0x00001000
#define SZ_8K			0x00002000
#define SZ_64K			0x00010000
#define SZ_128K			0x00020000
#define SZ_256K			0x00040000

#endif /* __PERFREC_HOST_LINUX_SIZES_H */
