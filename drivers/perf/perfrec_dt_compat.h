/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Which of a device tree node's compatibles name a PMU, a timer or a GIC
 */

#ifndef __PERFREC_DT_COMPAT_H
#define __PERFREC_DT_COMPAT_H

#include <linux/types.h>

/*
 * @version of the BCM2836 local controller (brcm,bcm2836-l1-intc), which
 * takes a GIC's place on the Raspberry Pi 2 and 3 (perfrec_bcm2836.c)
 */
#define PERFREC_GIC_BCM2836		1

/**
 * struct perfrec_dt_kind - What a node's compatible names
 * @pmu: 2 for "arm,armv8-pmuv3", 1 for another PMUv3, 0 for none: the walk
 *	keeps the first node of the highest rank
 * @timer: 2 for "arm,armv8-timer", 1 for "arm,armv7-timer", 0 for neither
 * @ctlr: an interrupt controller's version: 2 or 3 for a GICv2 or v3,
 *	PERFREC_GIC_BCM2836 for the BCM2836 local controller, 0 for none
 */
struct perfrec_dt_kind {
	int pmu;
	int timer;
	uint ctlr;
};

/**
 * perfrec_dt_kind() - What a compatible names, of what perfrec looks for
 * @compat: a "compatible" property's value: NUL-separated strings
 * @len: its length in bytes
 * @kind: returns the PMU's and timer's rank and the controller's version
 */
void perfrec_dt_kind(const char *compat, int len, struct perfrec_dt_kind *kind);

/**
 * perfrec_dt_passthrough() - Does a compatible name a controller that passes
 *	its interrupts to its own parent unchanged?
 * @compat: a "compatible" property's value: NUL-separated strings
 * @len: its length in bytes
 *
 * The i.MX6's GPC: three cells, as its GIC's, each interrupt the GIC's own
 * (it only wakes the SoC from a low-power state on them).
 * Return: true if it does
 */
bool perfrec_dt_passthrough(const char *compat, int len);

#endif /* __PERFREC_DT_COMPAT_H */
