// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's messages: why a session cannot arm, and what it tried instead
 * (why its interrupt cannot be used is perfrec_irq_reason.c's). Stateless:
 * the command, the session and the boot recording each call them with what
 * they know.
 */

#include <errno.h>
#include <perfrec.h>
#include <perfrec_pmu.h>
#include <perfrec_hw.h>
#include <perfrec_period.h>
#include <stdio.h>
#include <vsprintf.h>
#include <asm/system.h>
#include <linux/kconfig.h>
#include <linux/string.h>

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

void perfrec_print_el_left_out(void)
{
	/* 32-bit Arm: no option builds Monitor mode in (CONFIG_PERFREC_EL3 is AArch64's) */
	if (!IS_ENABLED(CONFIG_ARM64) && perfrec_hw_el() == 3) {
		printf("U-Boot runs in Monitor mode, where perfrec does not run on 32-bit Arm\n");
		return;
	}
	printf("U-Boot runs at EL%u, which this build leaves out (CONFIG_PERFREC_EL%u)\n",
	       perfrec_hw_el(), perfrec_hw_el());
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
		if (fault == PERFREC_IRQ_STILL || fault == PERFREC_IRQ_STILL_EVENTS)
			printf("perfrec: %s: sample -e cpu-clock%s\n", why,
			       fault == PERFREC_IRQ_STILL_EVENTS ? ", or count cycles" : "");
		else if (res->failed_irq.source == PERFREC_SRC_TIMER)
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
		/* A Cortex-A8 or A9 is named: its PMU is known by MIDR */
		if (perfrec_get_pmu_info(&pmu) || !pmu.core)
			pmu.core = "CPU";
		if (IS_ENABLED(CONFIG_PERFREC_A9_GTIMER) && !strcmp(pmu.core, "Cortex-A9"))
			printf("The Cortex-A9's global timer does not count against U-Boot's timer: perfrec has no clock\n");
		else if (!perfrec_hw_has_timer())
			printf("This %s has no generic timer (ID_PFR1.GenTimer), which perfrec's timestamps need\n",
			       pmu.core);
		else
			printf("The generic timer has no frequency (%s is 0): the firmware must set it\n",
			       IS_ENABLED(CONFIG_ARM64) ? "CNTFRQ_EL0" : "CNTFRQ");
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
