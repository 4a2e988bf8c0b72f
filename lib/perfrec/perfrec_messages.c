// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's messages: why a session cannot arm or its interrupt cannot be
 * used, and what it tried instead. Stateless: the command, the session and
 * the boot recording each call them with what they know.
 */

#include <errno.h>
#include <perfrec.h>
#include <perfrec_period.h>
#include <stdio.h>
#include <vsprintf.h>
#include <asm/system.h>
#include <linux/kconfig.h>
#include "perfrec_arch.h"

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

void perfrec_irq_reason(const struct perfrec_irq_report *irq, char *buf, size_t size)
{
	bool timer = irq->source == PERFREC_SRC_TIMER;
	/* The BCM2836 local controller's words, in a build that has it */
	bool local = IS_ENABLED(CONFIG_PERFREC_BCM2836) && irq->local;
	const char *gic = local ? "local interrupt controller" : "GIC";

	if (perfrec_gic_reason(irq, gic, buf, size))
		return;
	switch (irq->fault) {
	case PERFREC_IRQ_NO_PMU:
		snprintf(buf, size, "this " PERFREC_NO_PMU);
		break;
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
			 "%s has no \"interrupts\" property", irq->node, perfrec_arch_el());
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

void perfrec_print_fallback(const struct perfrec_cfg *cfg, const struct perfrec_irq_report *why)
{
	/* Without CONFIG_PERFREC_STAT every session is a recording */
	bool record = !IS_ENABLED(CONFIG_PERFREC_STAT) || cfg->mode == PERFREC_RECORD;
	const struct perfrec_event_cfg *clock = &cfg->events[0];
	char buf[PERFREC_WHY_LEN];

	perfrec_irq_reason(why, buf, sizeof(buf));
	if (record && clock->freq_hz)
		printf("perfrec: %s; sampling cpu-clock at %u Hz instead\n", buf, clock->freq_hz);
	else if (record)
		printf("perfrec: %s; sampling cpu-clock every %llu ns instead\n", buf,
		       clock->period);
	else if (cfg->source == PERFREC_SRC_TIMER)
		printf("perfrec: %s; the timer extends the counts instead\n", buf);
	else
		printf("perfrec: and %s: 32-bit counts may wrap\n", buf);
}

void perfrec_print_no_pmu(void)
{
	printf("This " PERFREC_NO_PMU "\n");
}

void perfrec_print_el_left_out(void)
{
	/* 32-bit Arm: no option builds Monitor mode in (CONFIG_PERFREC_EL3 is AArch64's) */
	if (!IS_ENABLED(CONFIG_ARM64) && perfrec_arch_el() == 3) {
		printf("U-Boot runs in Monitor mode, where perfrec does not run on 32-bit Arm\n");
		return;
	}
	printf("U-Boot runs at EL%u, which this build leaves out (CONFIG_PERFREC_EL%u)\n",
	       perfrec_arch_el(), perfrec_arch_el());
}

/* @ev's period does not fit its counter, with room for a late interrupt's gap */
static void perfrec_print_too_long(const struct perfrec_event_cfg *ev)
{
	bool narrow = ev->period <= perfrec_period_max(U64_MAX);

	printf("Period %llu of event '%s' is too long for its %u-bit counter: at most %llu%s\n",
	       ev->period, ev->name, narrow ? 32 : 64,
	       perfrec_period_max(narrow ? U32_MAX : U64_MAX),
	       !narrow ? "" : IS_ENABLED(CONFIG_ARM64) ? " (64-bit event counters need PMUv3p5)" :
	       " (every counter is 32 bits on 32-bit Arm)");
}

void perfrec_print_arm_error(int err, const struct perfrec_cfg *cfg,
			     const struct perfrec_result *res)
{
	enum perfrec_irq_fault fault = res->failed_irq.fault;
	struct perfrec_pmu_info pmu;

	/* No PMU: the line of -ENODEV below, as for a count */
	if (fault != PERFREC_IRQ_OK && fault != PERFREC_IRQ_NO_PMU) {
		char why[PERFREC_WHY_LEN];

		perfrec_irq_reason(&res->failed_irq, why, sizeof(why));
		if (res->failed_irq.source == PERFREC_SRC_TIMER)
			printf("perfrec: cpu-clock cannot sample: %s\n", why);
		else
			printf("perfrec: %s: fix the device tree, or sample -e cpu-clock\n", why);
		return;
	}
	switch (err) {
	case -EBUSY:
		printf("perfrec is already recording\n");
		break;
	case -EPERM:
		perfrec_print_el_left_out();
		break;
	case -ETIME:
		if (!perfrec_arch_has_timer())
			printf("This CPU has no generic timer (ID_PFR1.GenTimer), which perfrec's timestamps need\n");
		else
			printf("The generic timer has no frequency (%s is 0): the firmware must set it\n",
			       PERFREC_REGNAME_EL0("CNTFRQ"));
		break;
	case -ENODEV:
		perfrec_print_no_pmu();
		break;
	case -ENOSPC:
		printf("Buffer too small: %#lx bytes cannot hold the perf.data header and a sample\n",
		       cfg->buf_size);
		break;
	case -EOPNOTSUPP:
		if (IS_ENABLED(CONFIG_SYS_THUMB_BUILD))
			printf("Call graphs (-g) need ARM state: Thumb-2 code (CONFIG_SYS_THUMB_BUILD) keeps no frame record a walker finds\n");
		else
			printf("Call graphs (-g) need CONFIG_PERFREC_CALLCHAIN\n");
		break;
	case -ENOEXEC:
		printf("The build did not record the image's ELF offset (perfrec_image_pgoff)\n");
		break;
	case -E2BIG:
		if (!IS_ENABLED(CONFIG_PERFREC_EVENTS)) {
			printf("Too many events: this build has the cycle counter alone (CONFIG_PERFREC_EVENTS)\n");
			break;
		}
		perfrec_get_pmu_info(&pmu);
		printf("Too many events: %u given, this PMU has %u event counters and the cycle counter\n",
		       cfg->nr_events, pmu.nr_counters);
		break;
	case -ERANGE:
		/*
		 * An event counter is 32 bits before PMUv3p5; on 32-bit Arm the
		 * cycle counter too. Each keeps room for a late interrupt's gap.
		 */
		if (res->failed_event >= 0) {
			perfrec_print_too_long(&cfg->events[res->failed_event]);
			break;
		}
		fallthrough;
	default:
		printf("Cannot start (err=%d)\n", err);
		break;
	}
}
