/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of <asm/io.h>: accessors that reach nothing (the host tool calls none)
 */

#ifndef __PERFREC_HOST_ASM_IO_H
#define __PERFREC_HOST_ASM_IO_H

#include <linux/types.h>

#define readl(addr)		((void)(addr), 0U)
#define writel(val, addr)	((void)(val), (void)(addr))

#endif /* __PERFREC_HOST_ASM_IO_H */
