/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Where the early and the boot recording read their options for one boot
 */

#ifndef __PERFREC_OPTIONS_H
#define __PERFREC_OPTIONS_H

#include <dm/ofnode.h>

/**
 * perfrec_early_options() - The control device tree's /options/u-boot node
 *
 * Its perfrec,<name> properties change the early and boot recording for
 * one boot, without a rebuild: "perfrec,early" (0: no early or boot
 * recording) and "perfrec,until-prompt" (perfrec_early.c), and the boot
 * recording's "perfrec,boot-event", "perfrec,boot-period",
 * "perfrec,boot-callchain", "perfrec,boot-raw-addresses" and
 * "perfrec,boot-size" (perfrec_boot.c).
 * Return: the node, or an invalid one if there is none
 */
static inline ofnode perfrec_early_options(void)
{
	return ofnode_path("/options/u-boot");
}

#endif /* __PERFREC_OPTIONS_H */
