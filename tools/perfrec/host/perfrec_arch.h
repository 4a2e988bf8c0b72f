/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Host shim of perfrec_arch.h: the EL U-Boot would run at is the tool's to say
 */

#ifndef __PERFREC_ARCH_H
#define __PERFREC_ARCH_H

#include <linux/types.h>

/* The EL whose words perfrec_irq_reason() gives (tools/perfrec/perfrec_verdict.c sets it) */
extern uint perfrec_host_el;

static inline uint perfrec_arch_el(void)
{
	return perfrec_host_el;
}

#endif /* __PERFREC_ARCH_H */
