/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <dm/of.h>: there is no live tree on the host
 */

#ifndef __PERFREC_HOST_DM_OF_H
#define __PERFREC_HOST_DM_OF_H

#include <linux/types.h>

static inline bool of_live_active(void)
{
	return false;
}

#endif /* __PERFREC_HOST_DM_OF_H */
