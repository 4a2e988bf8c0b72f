/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Where the early and the boot recording read their options for one boot
 */

#ifndef __PERFREC_OPTIONS_H
#define __PERFREC_OPTIONS_H

#include <linux/libfdt.h>

/**
 * perfrec_early_options() - The control device tree's /options/u-boot node
 * @blob: the control device tree (gd->fdt_blob)
 *
 * Its perfrec,<name> properties change the early and boot recording for
 * one boot, without a rebuild: "perfrec,early" (0: no early or boot
 * recording) and "perfrec,until-prompt" (perfrec_early.c), and the boot
 * recording's "perfrec,boot-event", "perfrec,boot-period",
 * "perfrec,boot-callchain", "perfrec,boot-raw-addresses" and
 * "perfrec,boot-size" (perfrec_boot.c).
 * Return: the node's offset in @blob, or a negative libfdt error
 */
static inline int perfrec_early_options(const void *blob)
{
	return fdt_path_offset(blob, "/options/u-boot");
}

#endif /* __PERFREC_OPTIONS_H */
