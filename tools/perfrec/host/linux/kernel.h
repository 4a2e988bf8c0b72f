/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <linux/kernel.h>: the helpers perfrec's device-tree code uses, and snprintf()
 */

#ifndef __PERFREC_HOST_LINUX_KERNEL_H
#define __PERFREC_HOST_LINUX_KERNEL_H

#include <stdio.h>
#include <linux/types.h>

#define U32_MAX			((u32)~0U)
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define min_t(type, a, b)	min((type)(a), (type)(b))
#define max_t(type, a, b)	max((type)(a), (type)(b))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#endif /* __PERFREC_HOST_LINUX_KERNEL_H */
