// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Arm PMUv3 for perfrec: the PMU's interrupt and the counter policy
 *
 * The PMU's overflow is one of perfrec's sampler sources (pmuv3_source,
 * struct perfrec_source_ops): found in the PMU node, raised on purpose by
 * an overflow flag.
 *
 * The counter policy below (which bits, in which order, with which barrier)
 * is what the session calls; the registers themselves are reached through
 * perfrec_arch.h, and their fields are in pmuv3_regs.h.
 * The driver-model device that binds to the PMU node is the session's
 * (perfrec_session.c): removed before an OS starts, it ends the recording.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <dm.h>
#include <errno.h>
#include <log.h>
#include <perfrec_snapshot.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/bitfield.h>
#include "perfrec_cpu.h"
#include "perfrec_ctlr.h"
#include <perfrec_dt.h>
#include "perfrec_dt_irq.h"
#include "perfrec_gic.h"
#include "perfrec_source_ops.h"
#include "pmuv3.h"
#include "pmuv3_events.h"

int pmuv3_detect(struct pmuv3_hw *hw)
{
	/* Not at an EL left out: on 32-bit Arm, PMCEID's read needs its vectors */
	if (!perfrec_cpu_el_built())
		return -EPERM;
	hw->version = perfrec_arch_pmuver();
	hw->core = PMUV3_CORE_ARCH;
	hw->still = 0;
	/* A Cortex-A8's or A9's PMUv1 is known by the core alone */
	if (hw->version == PMUV3_PMUVER_NI) {
		hw->core = pmuv3_core_by_midr(read_cpu_midr());
		if (hw->core != PMUV3_CORE_ARCH)
			hw->version = PMUV3_PMUVER_V1;
	}
	if (hw->version == PMUV3_PMUVER_NI || hw->version == PMUV3_PMUVER_IMPDEF)
		return -ENODEV;
	hw->nr_counters = FIELD_GET(PMUV3_PMCR_N, read_pmcr());
	hw->long_events = PERFREC_ARCH_LONG_COUNTERS && hw->version >= PMUV3_PMUVER_V3P5;
	if (hw->core != PMUV3_CORE_ARCH) {
		hw->pmceid0 = pmuv3_core_pmceid(hw->core);
		hw->pmceid1 = 0;
		return 0;
	}
	hw->pmceid0 = perfrec_cpu_read_pmceid(0);
	hw->pmceid1 = perfrec_cpu_read_pmceid(1);

	return 0;
}

/* A PMUv1 has no PMOVSSET, no PMCCFILTR and no mode filters */
static bool pmuv3_v1(const struct pmuv3_hw *hw)
{
	return hw->version == PMUV3_PMUVER_V1;
}

/* Only the writable PMCR_EL0 bits, and never the counter-reset actions */
static void pmuv3_pmcr_write(u64 val)
{
	write_pmcr(val & PMUV3_PMCR_WRITABLE & ~(PMUV3_PMCR_P | PMUV3_PMCR_C));
}

/* Clear overflow flags and return the ones that were set */
static u64 pmuv3_getreset_flags(void)
{
	u64 val = read_pmovsclr();

	write_pmovsclr(val);

	return val;
}

/*
 * Filter bits that count exactly the EL U-Boot runs at (PMCCFILTR/PMEVTYPER).
 * A PMUv1 has none and counts in every mode: U-Boot runs no code at PL0.
 */
static u64 pmuv3_filter_for_el(const struct pmuv3_hw *hw)
{
	if (pmuv3_v1(hw))
		return 0;
	switch (perfrec_cpu_el()) {
	case 3:
		/* P and M equal: count EL3 and Secure EL1; U: not EL0 */
		return PMUV3_EVTYPE_U | PMUV3_EVTYPE_NSK;
	case 2:
		/* Not EL1 or EL0 (of either world); NSH: count EL2 */
		return PMUV3_EVTYPE_P | PMUV3_EVTYPE_U | PMUV3_EVTYPE_NSH;
	default:
		return PMUV3_EVTYPE_U;
	}
}

/*
 * Event counter @idx's type and value through PMSELR_EL0: one instruction
 * each where the registers by name take a switch of 31 cases. Not for the
 * IRQ path, which would change PMSELR_EL0 under the code it interrupted;
 * the session gives PMSELR_EL0 back with the rest (pmuv3_restore()).
 */
static void pmuv3_select(uint idx)
{
	write_pmselr(idx);
	isb();	/* selected before PMXEVTYPER/PMXEVCNTR are accessed */
}

static u64 pmuv3_evtyper_read(uint idx)
{
	pmuv3_select(idx);

	return read_pmxevtyper();
}

static u64 pmuv3_evcntr_read(uint idx)
{
	pmuv3_select(idx);

	return read_pmxevcntr();
}

static void pmuv3_evcounter_write(uint idx, u64 type, u64 val)
{
	pmuv3_select(idx);
	write_pmxevtyper(type);
	write_pmxevcntr(val);
}

void pmuv3_save(const struct pmuv3_hw *hw, struct pmuv3_saved *saved)
{
	uint i;

	saved->v1 = pmuv3_v1(hw);
	saved->pmcr = read_pmcr();
	saved->pmcntenset = read_pmcntenset();
	saved->pmintenset = read_pmintenset();
	/* PMOVSR, PMOVSCLR's read, holds the same flags */
	saved->pmovsset = saved->v1 ? read_pmovsclr() : read_pmovsset();
	saved->pmselr = read_pmselr();
	saved->pmccfiltr = saved->v1 ? 0 : read_pmccfiltr();
	saved->pmccntr = read_pmccntr();
	saved->nr_counters = hw->nr_counters;
	for (i = 0; i < hw->nr_counters; i++) {
		saved->evtyper[i] = pmuv3_evtyper_read(i);
		saved->evcntr[i] = pmuv3_evcntr_read(i);
	}
}

static void pmuv3_stop_counter(uint idx)
{
	write_pmcntenclr(BIT(idx));
	isb();	/* must be stopped before its type or value is rewritten */
}

void pmuv3_program(const struct pmuv3_hw *hw, uint idx, uint event, u64 start)
{
	pmuv3_stop_counter(idx);
	if (!IS_ENABLED(CONFIG_PERFREC_EVENTS) || idx == PERFREC_CYCLE_COUNTER) {
		if (!pmuv3_v1(hw))
			write_pmccfiltr(pmuv3_filter_for_el(hw));
		write_pmccntr(start);
	} else {
		pmuv3_evcounter_write(idx, pmuv3_filter_for_el(hw) |
				      FIELD_PREP(PMUV3_EVTYPE_EVENT, event), start);
	}
}

void pmuv3_start(const struct pmuv3_hw *hw, u32 mask, u32 irq_mask)
{
	u64 pmcr = (read_pmcr() & ~(PMUV3_PMCR_D | PMUV3_PMCR_DP | PMUV3_PMCR_LC |
					PMUV3_PMCR_LP)) | PMUV3_PMCR_E;

	if (PERFREC_ARCH_LONG_COUNTERS)
		pmcr |= PMUV3_PMCR_LC;
	if (hw->long_events)
		pmcr |= PMUV3_PMCR_LP;
	/* Only our counters may raise the interrupt during the session */
	write_pmintenclr(~0U);
	pmuv3_getreset_flags();
	pmuv3_pmcr_write(pmcr);
	write_pmintenset(irq_mask);
	isb();	/* configured before the counters start */
	write_pmcntenset(mask);
	isb();	/* counting from here */
}

/*
 * Cycles the probe's cycle counter runs before it overflows, on a PMUv1 that
 * cannot set the flag: a few hundred instructions of the probe's look
 */
#define PMUV3_PROBE_CYCLES	64

void pmuv3_raise_irq(const struct pmuv3_hw *hw)
{
	/* Enabled first: an emulator may only look at the request on a flag write */
	pmuv3_pmcr_write((read_pmcr() & ~(PMUV3_PMCR_D | PMUV3_PMCR_DP)) | PMUV3_PMCR_E);
	write_pmintenset(BIT(PERFREC_CYCLE_COUNTER));
	isb();	/* enabled before the flag is set */
	if (pmuv3_v1(hw)) {
		/* No PMOVSSET: the cycle counter overflows for real */
		write_pmccntr(U32_MAX - PMUV3_PROBE_CYCLES);
		write_pmcntenset(BIT(PERFREC_CYCLE_COUNTER));
	} else {
		write_pmovsset(BIT(PERFREC_CYCLE_COUNTER));
	}
	isb();	/* the overflow interrupt request is asserted */
}

void pmuv3_stop(u32 mask)
{
	write_pmcntenclr(mask);
	isb();	/* all stopped together before any is read */
}

u64 pmuv3_read_counter(uint idx)
{
	if (!IS_ENABLED(CONFIG_PERFREC_EVENTS) || idx == PERFREC_CYCLE_COUNTER)
		return read_pmccntr();

	return pmuv3_evcntr_read(idx);
}

bool pmuv3_overflowed(uint idx)
{
	/* PMOVSCLR's read: PMUv1 has no PMOVSSET */
	return read_pmovsclr() & BIT(idx);
}

void pmuv3_restore(const struct pmuv3_saved *saved)
{
	uint i;

	write_pmcntenclr(~0U);
	isb();	/* every counter stopped before it is rewritten */
	write_pmintenclr(~0U);
	pmuv3_getreset_flags();
	for (i = 0; i < saved->nr_counters; i++)
		pmuv3_evcounter_write(i, saved->evtyper[i], saved->evcntr[i]);
	write_pmccntr(saved->pmccntr);
	if (!saved->v1)
		write_pmccfiltr(saved->pmccfiltr);
	write_pmselr(saved->pmselr);
	pmuv3_pmcr_write(saved->pmcr);
	/* A PMUv1 cannot set a flag: one set before the session stays cleared */
	if (!saved->v1)
		write_pmovsset(saved->pmovsset);
	write_pmintenset(saved->pmintenset);
	isb();	/* restored before a counter that was running restarts */
	write_pmcntenset(saved->pmcntenset);
	isb();	/* the PMU is as it was */
}

/* Instructions the counting probe runs between start and stop */
#define PMUV3_PROBE_LOOP	100

void pmuv3_probe_counting(struct pmuv3_hw *hw)
{
	bool events = IS_ENABLED(CONFIG_PERFREC_EVENTS) && hw->nr_counters;
	struct pmuv3_saved saved;
	uint i;

	hw->still = 0;
	pmuv3_save(hw, &saved);
	write_pmcntenclr(~0U);
	write_pmintenclr(~0U);
	isb();	/* stopped, and raising nothing, before they are rewritten */
	pmuv3_pmcr_write((read_pmcr() & ~(PMUV3_PMCR_D | PMUV3_PMCR_DP)) | PMUV3_PMCR_E);
	pmuv3_program(hw, PERFREC_CYCLE_COUNTER, 0, 0);
	if (events)
		pmuv3_program(hw, 0, PMUV3_EVT_SW_INCR, 0);
	write_pmcntenset(BIT(PERFREC_CYCLE_COUNTER) | (events ? BIT(0) : 0));
	isb();	/* counting from here */
	write_pmswinc(BIT(0));
	for (i = 0; i < PMUV3_PROBE_LOOP; i++)
		asm volatile("" : : : "memory");
	pmuv3_stop(BIT(PERFREC_CYCLE_COUNTER) | BIT(0));
	if (!read_pmccntr())
		hw->still |= PMUV3_STILL_CYCLES;
	if (events && !pmuv3_evcntr_read(0))
		hw->still |= PMUV3_STILL_EVENTS;
	pmuv3_restore(&saved);
}

void pmuv3_snapshot(const struct pmuv3_hw *hw, struct perfrec_snapshot *snap)
{
	u64 enabled = read_pmcntenset();
	u64 pmselr = read_pmselr();
	uint i;

	perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMCR"), -1, read_pmcr());
	perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMCNTENSET"), -1, enabled);
	perfrec_snap_add(snap, PERFREC_REGNAME_EL1("PMINTENSET"), -1, read_pmintenset());
	if (pmuv3_v1(hw)) {
		perfrec_snap_add(snap, "PMOVSR", -1, read_pmovsclr());
	} else {
		perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMOVSSET"), -1, read_pmovsset());
		perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMCCFILTR"), -1, read_pmccfiltr());
	}
	perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMSELR"), -1, pmselr);
	perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMUSERENR"), -1, read_pmuserenr());
	/* A running counter's value moves by itself: compare only stopped ones */
	if (!(enabled & BIT(PERFREC_CYCLE_COUNTER)))
		perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMCCNTR"), -1, read_pmccntr());
	for (i = 0; i < hw->nr_counters; i++) {
		perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMEVTYPER%d"), i,
				 pmuv3_evtyper_read(i));
		if (!(enabled & BIT(i)))
			perfrec_snap_add(snap, PERFREC_REGNAME_EL0("PMEVCNTR%d"), i,
					 pmuv3_evcntr_read(i));
	}
	write_pmselr(pmselr);	/* read through it: as it was */
}

/* The PMU's interrupt and its GIC, from the PMU node; say why not in @irq */
static int pmuv3_find(const struct perfrec_dt *dt, struct perfrec_source_hw *hw,
		      struct perfrec_gic *gic, struct perfrec_irq_report *irq)
{
	struct perfrec_dt_irq dtirq;
	int ret;

	if (hw && !hw->have_pmu)
		return -ENODEV;
	ret = perfrec_dt_source_irq(dt, PERFREC_SRC_PMU, perfrec_cpu_affinity(), 0, &dtirq, irq);
	if (ret)
		return ret;
	ret = perfrec_ctlr_find(&dt->pmu.parent, gic);
	if (ret) {
		perfrec_gic_fault(gic, gic->dt_err, irq);
		return -ENXIO;
	}
	if (perfrec_gic_check_intid(gic, dtirq.intid)) {
		perfrec_gic_put(gic);
		irq->fault = PERFREC_IRQ_BAD_SPEC;
		return -EPROTONOSUPPORT;
	}
	gic->intid = dtirq.intid;
	/* Device-tree trigger types: 1 and 2 are edges, 4 and 8 levels */
	gic->edge = dtirq.flags & (BIT(0) | BIT(1));

	return 0;
}

/* The probe's interrupt: the cycle counter's overflow flag, counting nothing */
static void pmuv3_raise(struct perfrec_source_hw *hw, union perfrec_source_saved *saved)
{
	pmuv3_save(&hw->pmu, &saved->pmu);
	pmuv3_raise_irq(&hw->pmu);
}

static void pmuv3_lower(struct perfrec_source_hw *hw, const union perfrec_source_saved *saved)
{
	pmuv3_restore(&saved->pmu);
}

static void pmuv3_source_snapshot(struct perfrec_snapshot *snap)
{
	struct pmuv3_hw hw;

	if (!pmuv3_detect(&hw))
		pmuv3_snapshot(&hw, snap);
}

const struct perfrec_source_ops pmuv3_source = {
	.id		= PERFREC_SRC_PMU,
	.find		= pmuv3_find,
	.raise		= pmuv3_raise,
	.lower		= pmuv3_lower,
	.snapshot	= pmuv3_source_snapshot,
};
