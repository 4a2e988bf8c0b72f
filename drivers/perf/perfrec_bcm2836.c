// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the BCM2836 per-core local interrupt controller
 *
 * The Raspberry Pi 2 and 3 (BCM2836, BCM2837) have no GIC: each core's
 * generic-timer and PMU interrupts reach it through the "ARM local"
 * controller (device tree: brcm,bcm2836-l1-intc), whose registers
 * Broadcom's QA7 rev 3.4 describes. A source is routed to a core's IRQ or
 * FIQ; the core's IRQ source register shows what is pending, and a source
 * stays pending until its own device drops it (no acknowledge, no EOI).
 * The number in a device-tree specifier is the source's bit in that
 * register: 0-3 the timers (CNTPS, CNTPNS, CNTHP, CNTV), 4-7 the mailboxes,
 * 8 the GPU, 9 the PMU.
 */

#include <errno.h>
#include <perfrec.h>
#include <asm/io.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include "perfrec_bcm2836.h"

#define PERFREC_BCM2836_GPU_ROUTE	0x0c	/* the GPU's IRQ's core, and its FIQ's */
#define PERFREC_BCM2836_PMU_SET		0x10	/* PMU routing: write-set */
#define PERFREC_BCM2836_PMU_CLR		0x14	/* PMU routing: write-clear */
#define PERFREC_BCM2836_TIMER_CTL(core)	(0x40 + 4 * (core))
#define PERFREC_BCM2836_MBOX_CTL(core)	(0x50 + 4 * (core))
#define PERFREC_BCM2836_IRQ_SRC(core)	(0x60 + 4 * (core))

/* PMU routing: bit n is core n's IRQ, bit n + 4 its FIQ */
#define PERFREC_BCM2836_PMU_IRQ(core)	BIT(core)
#define PERFREC_BCM2836_PMU_FIQ(core)	BIT((core) + 4)
/* GPU routing: the core that gets its IRQ, and the one that gets its FIQ */
#define PERFREC_BCM2836_GPU_IRQ		GENMASK(1, 0)
#define PERFREC_BCM2836_GPU_FIQ		GENMASK(3, 2)

/*
 * The GPU's interrupt routing with this core's share given to the next
 * core (parked, with its interrupts masked, while U-Boot runs)
 */
static u32 perfrec_bcm2836_gpu_away(u32 route, uint core)
{
	uint next = (core + 1) % PERFREC_BCM2836_CORES;

	if (FIELD_GET(PERFREC_BCM2836_GPU_IRQ, route) == core) {
		route &= ~PERFREC_BCM2836_GPU_IRQ;
		route |= FIELD_PREP(PERFREC_BCM2836_GPU_IRQ, next);
	}
	if (FIELD_GET(PERFREC_BCM2836_GPU_FIQ, route) == core) {
		route &= ~PERFREC_BCM2836_GPU_FIQ;
		route |= FIELD_PREP(PERFREC_BCM2836_GPU_FIQ, next);
	}

	return route;
}

int perfrec_bcm2836_check(uint core, uint hwirq)
{
	if (core >= PERFREC_BCM2836_CORES)
		return -ENODEV;
	if (hwirq > PERFREC_BCM2836_LAST_TIMER && hwirq != PERFREC_BCM2836_PMU)
		return -EPROTONOSUPPORT;

	return 0;
}

void __iomem *perfrec_bcm2836_source(void __iomem *base, uint core)
{
	return base + PERFREC_BCM2836_IRQ_SRC(core);
}

void perfrec_bcm2836_setup(struct perfrec_bcm2836 *l1)
{
	u32 own = PERFREC_BCM2836_PMU_IRQ(l1->core) | PERFREC_BCM2836_PMU_FIQ(l1->core);

	l1->saved.timer_ctl = readl(l1->base + PERFREC_BCM2836_TIMER_CTL(l1->core));
	l1->saved.mbox_ctl = readl(l1->base + PERFREC_BCM2836_MBOX_CTL(l1->core));
	l1->saved.pmu = readl(l1->base + PERFREC_BCM2836_PMU_SET) & own;
	l1->saved.gpu_route = readl(l1->base + PERFREC_BCM2836_GPU_ROUTE);

	/* Nothing but our interrupt reaches this core: no FIQ, no mailbox, no GPU */
	writel(perfrec_bcm2836_gpu_away(l1->saved.gpu_route, l1->core),
	       l1->base + PERFREC_BCM2836_GPU_ROUTE);
	writel(0, l1->base + PERFREC_BCM2836_MBOX_CTL(l1->core));
	writel(l1->hwirq <= PERFREC_BCM2836_LAST_TIMER ? BIT(l1->hwirq) : 0,
	       l1->base + PERFREC_BCM2836_TIMER_CTL(l1->core));
	if (l1->hwirq == PERFREC_BCM2836_PMU) {
		writel(PERFREC_BCM2836_PMU_FIQ(l1->core), l1->base + PERFREC_BCM2836_PMU_CLR);
		writel(PERFREC_BCM2836_PMU_IRQ(l1->core), l1->base + PERFREC_BCM2836_PMU_SET);
	} else {
		writel(own, l1->base + PERFREC_BCM2836_PMU_CLR);
	}
}

void perfrec_bcm2836_restore(const struct perfrec_bcm2836 *l1)
{
	u32 own = PERFREC_BCM2836_PMU_IRQ(l1->core) | PERFREC_BCM2836_PMU_FIQ(l1->core);

	writel(own & ~l1->saved.pmu, l1->base + PERFREC_BCM2836_PMU_CLR);
	if (l1->saved.pmu)
		writel(l1->saved.pmu, l1->base + PERFREC_BCM2836_PMU_SET);
	writel(l1->saved.timer_ctl, l1->base + PERFREC_BCM2836_TIMER_CTL(l1->core));
	writel(l1->saved.mbox_ctl, l1->base + PERFREC_BCM2836_MBOX_CTL(l1->core));
	writel(l1->saved.gpu_route, l1->base + PERFREC_BCM2836_GPU_ROUTE);
}

bool perfrec_bcm2836_pending(const struct perfrec_bcm2836 *l1)
{
	return readl(l1->base + PERFREC_BCM2836_IRQ_SRC(l1->core)) & BIT(l1->hwirq);
}

void perfrec_bcm2836_regs(const struct perfrec_bcm2836 *l1, u32 *timer_ctl, u32 *mbox_ctl,
			  u32 *pmu, u32 *gpu_route)
{
	*timer_ctl = readl(l1->base + PERFREC_BCM2836_TIMER_CTL(l1->core));
	*mbox_ctl = readl(l1->base + PERFREC_BCM2836_MBOX_CTL(l1->core));
	*pmu = readl(l1->base + PERFREC_BCM2836_PMU_SET) &
	       (PERFREC_BCM2836_PMU_IRQ(l1->core) | PERFREC_BCM2836_PMU_FIQ(l1->core));
	*gpu_route = readl(l1->base + PERFREC_BCM2836_GPU_ROUTE);
}
