/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the BCM2836 local interrupt controller (Raspberry Pi 2 and 3)
 */

#ifndef __PERFREC_BCM2836_H
#define __PERFREC_BCM2836_H

#include <linux/types.h>

/* The BCM2836 local controller: four cores; its sources perfrec can route */
#define PERFREC_BCM2836_CORES		4
#define PERFREC_BCM2836_LAST_TIMER	3	/* sources 0-3: CNTPS, CNTPNS, CNTHP, CNTV */
#define PERFREC_BCM2836_PMU		9

/**
 * struct perfrec_bcm2836 - One source of the BCM2836 local controller, borrowed
 * @base: the controller's registers (brcm,bcm2836-l1-intc)
 * @core: this CPU's core number (MPIDR_EL1.Aff0)
 * @hwirq: the source: its bit in the core's IRQ source register, as the
 *	device tree numbers it
 * @saved: the core's timer and mailbox interrupt control, and its PMU
 *	routing bits (IRQ and FIQ), before perfrec_bcm2836_setup()
 */
struct perfrec_bcm2836 {
	void __iomem *base;
	uint core;
	uint hwirq;
	struct {
		u32 timer_ctl;
		u32 mbox_ctl;
		u32 pmu;
		u32 gpu_route;
	} saved;
};

/**
 * perfrec_bcm2836_check() - Can perfrec route this source to this core?
 * @core: core number
 * @hwirq: source number from the device tree
 * Return: 0 if so, -ENODEV if there is no such core, -EPROTONOSUPPORT for
 * a source other than a timer or the PMU
 */
int perfrec_bcm2836_check(uint core, uint hwirq);

/**
 * perfrec_bcm2836_source() - A core's IRQ source register
 * @base: the controller's registers
 * @core: core number
 * Return: its address: what the IRQ handler reads to learn what is pending
 */
void __iomem *perfrec_bcm2836_source(void __iomem *base, uint core);

/**
 * perfrec_bcm2836_setup() - Route @l1->hwirq, and nothing else, to the core's IRQ
 * @l1: the source; @l1->saved is filled in
 *
 * The core's other timer interrupts, its mailboxes and its FIQs are turned
 * off; the PMU is routed to the core's IRQ if it is the source, else away
 * from the core; so are the GPU's IRQ and FIQ, if routed to the core, to
 * the next core: a level perfrec cannot drop, whose source (8) would come
 * before the PMU's (9), at each return from the handler.
 */
void perfrec_bcm2836_setup(struct perfrec_bcm2836 *l1);

/**
 * perfrec_bcm2836_restore() - Undo perfrec_bcm2836_setup()
 * @l1: the source given to perfrec_bcm2836_setup()
 */
void perfrec_bcm2836_restore(const struct perfrec_bcm2836 *l1);

/**
 * perfrec_bcm2836_pending() - Is @l1->hwirq pending at the core?
 * @l1: the source
 * Return: its bit in the core's IRQ source register
 */
bool perfrec_bcm2836_pending(const struct perfrec_bcm2836 *l1);

/**
 * perfrec_bcm2836_regs() - The registers perfrec_bcm2836_setup() changes, as they are
 * @l1: the source
 * @timer_ctl: returns the core's timer interrupt control
 * @mbox_ctl: returns the core's mailbox interrupt control
 * @pmu: returns the core's PMU routing bits, as the set register reads
 * @gpu_route: returns the GPU's interrupt routing
 */
void perfrec_bcm2836_regs(const struct perfrec_bcm2836 *l1, u32 *timer_ctl, u32 *mbox_ctl,
			  u32 *pmu, u32 *gpu_route);

#endif /* __PERFREC_BCM2836_H */
