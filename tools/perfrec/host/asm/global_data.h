/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <asm/global_data.h>: gd is a global whose fdt_blob is the DTB read
 */

#ifndef __PERFREC_HOST_ASM_GLOBAL_DATA_H
#define __PERFREC_HOST_ASM_GLOBAL_DATA_H

/**
 * struct global_data - What perfrec's device-tree code reads of U-Boot's gd
 * @fdt_blob: the control device tree (the DTB the tool read)
 */
struct global_data {
	const void *fdt_blob;
};

extern struct global_data *gd;

#define DECLARE_GLOBAL_DATA_PTR

#endif /* __PERFREC_HOST_ASM_GLOBAL_DATA_H */
