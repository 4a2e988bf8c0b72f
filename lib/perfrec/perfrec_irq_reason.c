// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's words for why a session's interrupt cannot be used
 *
 * Stateless, as perfrec_messages.c: the session's interrupt report in, one
 * phrase out. It reads no register but the EL (for the timer's entry), so
 * it builds for the host too (USE_HOSTCC): tools/perfrec/perfrec_verdict.c
 * gives a board's DTB the reasons the board would.
 */

#include <errno.h>
#include <perfrec.h>
#include <stdio.h>
#include <vsprintf.h>
#include <linux/kconfig.h>

/* What a CPU without a PMU is told, after "This " or "this " */
#define PERFREC_NO_PMU		"CPU has no PMUv3 (" PERFREC_PMU_ID_FIELD ")"

/* perfrec_irq_reason() for a fault of the interrupt controller itself: false if not one */
static bool perfrec_gic_reason(const struct perfrec_irq_report *irq, const char *gic,
			       char *buf, size_t size)
{
	switch (irq->fault) {
	case PERFREC_IRQ_UNMAPPED:
		snprintf(buf, size,
			 "%s: its %s %s %#llx-%#llx is not in U-Boot's MMU map and cannot be mapped (%s)",
			 irq->node, gic, irq->block, irq->start, irq->end,
			 irq->err == -ERANGE ? "beyond the translated address range" :
			 irq->err == -ENOSPC ? "too many holes" :
			 "a level-0 hole, a granule other than 4 KiB, or no device attribute in MAIR");
		return true;
	case PERFREC_IRQ_NO_ANSWER:
		snprintf(buf, size,
			 "%s: nothing answers at its %s %s %#llx-%#llx (a read there aborts)",
			 irq->node, gic, irq->block, irq->start, irq->end);
		return true;
	case PERFREC_IRQ_SILENT:
		snprintf(buf, size,
			 "%s: interrupt %u (its \"interrupts\") never reached the %s when raised",
			 irq->node, irq->intid, gic);
		return true;
	case PERFREC_IRQ_STUCK:
		snprintf(buf, size,
			 "%s: its %s %s never finished a write (%s at %#llx stayed set)",
			 irq->node, gic, irq->block, irq->bit, irq->start);
		return true;
	default:
		return false;
	}
}

/* perfrec_irq_reason() for a PMU that cannot raise its interrupt: false if not that */
static bool perfrec_pmu_reason(const struct perfrec_irq_report *irq, char *buf, size_t size)
{
	switch (irq->fault) {
	case PERFREC_IRQ_NO_PMU:
		snprintf(buf, size, "this " PERFREC_NO_PMU);
		return true;
	case PERFREC_IRQ_STILL:
		snprintf(buf, size,
			 "the PMU's counters stand still (registers with no counter behind them)");
		return true;
	case PERFREC_IRQ_STILL_EVENTS:
		snprintf(buf, size,
			 "the PMU's event counters stand still here (Secure state, where they count only if the SoC asserts SPNIDEN)");
		return true;
	default:
		return false;
	}
}

void perfrec_irq_reason(const struct perfrec_irq_report *irq, char *buf, size_t size)
{
	bool timer = irq->source == PERFREC_SRC_TIMER;
	/* The BCM2836 local controller's words, in a build that has it */
	bool local = IS_ENABLED(CONFIG_PERFREC_BCM2836) && irq->local;
	const char *gic = local ? "local interrupt controller" : "GIC";

	if (perfrec_gic_reason(irq, gic, buf, size))
		return;
	if (perfrec_pmu_reason(irq, buf, size))
		return;
	switch (irq->fault) {
	case PERFREC_IRQ_NO_NODE:
		if (!timer && *irq->node) {
			snprintf(buf, size,
				 "%s has no \"compatible\": an empty PMU node ('fdt set' can fill it in)",
				 irq->node);
			break;
		}
		snprintf(buf, size, "no %s node (compatible %s) in the device tree",
			 timer ? "timer" : "PMU",
			 timer ? "\"arm,armv8-timer\" or \"arm,armv7-timer\"" :
			 "\"arm,armv8-pmuv3\" or a Cortex PMU's");
		break;
	case PERFREC_IRQ_NO_PROP:
		snprintf(buf, size, timer ? "%s has no \"interrupts\" entry for the EL%u timer" :
			 "%s has no \"interrupts\" property", irq->node, irq->el);
		break;
	case PERFREC_IRQ_NO_CPU:
		snprintf(buf, size,
			 "%s: its \"interrupts\" have none for this CPU (see \"interrupt-affinity\")",
			 irq->node);
		break;
	case PERFREC_IRQ_BAD_SPEC:
		if (local)
			snprintf(buf, size,
				 "%s: its \"interrupts\" entry is not a timer's or the PMU's source of the local interrupt controller",
				 irq->node);
		else
			snprintf(buf, size,
				 "%s: its \"interrupts\" entry is not a PPI or SPI of this GIC",
				 irq->node);
		break;
	case PERFREC_IRQ_NO_GIC:
		if (!*irq->parent)
			snprintf(buf, size, "%s has no interrupt parent (\"interrupt-parent\")",
				 irq->node);
		else
			snprintf(buf, size,
				 "%s: its interrupt parent %s (compatible \"%s\") is not a GICv2/v3 or a BCM2836 local controller, the only controllers perfrec supports",
				 irq->node, irq->parent, irq->compat);
		break;
	case PERFREC_IRQ_BAD_GIC:
		if (local)
			snprintf(buf, size,
				 "%s: its local interrupt controller's \"reg\" is missing, or this CPU is not one of its four cores",
				 irq->node);
		else
			snprintf(buf, size,
				 "%s: its GIC's \"reg\" is incomplete, or has no redistributor for this CPU",
				 irq->node);
		break;
	case PERFREC_IRQ_LEFT_OUT:
		snprintf(buf, size,
			 "%s: its interrupt parent %s (compatible \"%s\") needs %s, which this build leaves out",
			 irq->node, irq->parent, irq->compat, irq->block);
		break;
	default:
		snprintf(buf, size, "its interrupt cannot be used");
		break;
	}
}

void perfrec_print_no_pmu(void)
{
	printf("This " PERFREC_NO_PMU "\n");
}
