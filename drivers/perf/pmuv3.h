/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * PMUv3 counter policy used by the perfrec session (layer 2 of the driver)
 */

#ifndef __PERFREC_PMUV3_H
#define __PERFREC_PMUV3_H

#include <dm/device.h>
#include <dm/ofnode.h>
#include <linux/types.h>
#include "perfrec_arch.h"

struct perfrec_snapshot;

/* What pmuv3_probe_counting() found standing still */
#define PMUV3_STILL_CYCLES		BIT(0)	/* the cycle counter */
#define PMUV3_STILL_EVENTS		BIT(1)	/* the event counters */

/**
 * struct pmuv3_hw - What this CPU's PMU offers
 * @version: ID_AA64DFR0_EL1.PMUVer, PMUV3_PMUVER_ARMV7 or PMUV3_PMUVER_V1
 * @core: PMUV3_CORE_A8 or _A9 for their PMUv1 (known by MIDR), else
 *	PMUV3_CORE_ARCH
 * @still: PMUV3_STILL_* as pmuv3_probe_counting() found them, else 0
 * @nr_counters: event counters (PMCR_EL0.N)
 * @long_events: event counters can be 64 bits wide (PMUv3p5, PMCR_EL0.LP)
 * @pmceid0: PMCEID0_EL0, the common events implemented
 * @pmceid1: PMCEID1_EL0
 */
struct pmuv3_hw {
	uint version;
	uint core;
	uint still;
	uint nr_counters;
	bool long_events;
	u64 pmceid0;
	u64 pmceid1;
};

/**
 * struct pmuv3_saved - PMU registers as they were before a session
 * @pmcr: PMCR_EL0
 * @pmcntenset: PMCNTENSET_EL0
 * @pmintenset: PMINTENSET_EL1
 * @pmovsset: PMOVSSET_EL0
 * @pmselr: PMSELR_EL0
 * @pmccfiltr: PMCCFILTR_EL0
 * @pmccntr: PMCCNTR_EL0
 * @evtyper: PMEVTYPER<n>_EL0
 * @evcntr: PMEVCNTR<n>_EL0
 * @nr_counters: event counters saved
 * @v1: a PMUv1: no PMCCFILTR, and the flags cannot be set back
 */
struct pmuv3_saved {
	u64 pmcr;
	u64 pmcntenset;
	u64 pmintenset;
	u64 pmovsset;
	u64 pmselr;
	u64 pmccfiltr;
	u64 pmccntr;
	u64 evtyper[PMUV3_MAX_EVENT_COUNTERS];
	u64 evcntr[PMUV3_MAX_EVENT_COUNTERS];
	uint nr_counters;
	bool v1;
};

/**
 * pmuv3_detect() - Check for a PMUv3 and count its counters
 * @hw: returns version and counters
 *
 * At an EL this build leaves out (perfrec_cpu_el_built()) nothing is read.
 * A Cortex-A8's or A9's PMUv1, which ID_DFR0 does not show, is known by
 * MIDR; its event list is its manual's (pmuv3_core_pmceid()).
 * Return: 0 if present, -ENODEV if the CPU has no PMU perfrec drives,
 * -EPERM if U-Boot runs at an EL this build leaves out
 */
int pmuv3_detect(struct pmuv3_hw *hw);

/**
 * pmuv3_probe_counting() - Find which of the PMU's counters stand still
 * @hw: from pmuv3_detect(); @still is set
 *
 * Runs the cycle counter and event counter 0 on a software increment for
 * a few instructions. A counter that stays at 0 does not count here: an
 * emulator that models the registers only (QEMU before 8.2 on the A8 and
 * A9), or event counters in Secure state where the SoC does not allow it
 * (SPNIDEN low). The PMU is as it was afterwards.
 */
void pmuv3_probe_counting(struct pmuv3_hw *hw);

/**
 * pmuv3_save() - Save the PMU registers a session changes
 * @hw: the PMU
 * @saved: returns them
 */
void pmuv3_save(const struct pmuv3_hw *hw, struct pmuv3_saved *saved);

/**
 * pmuv3_restore() - Stop the session's counters and put the PMU back
 * @saved: registers from pmuv3_save()
 */
void pmuv3_restore(const struct pmuv3_saved *saved);

/**
 * pmuv3_program() - Set up one counter, stopped, to count at U-Boot's EL
 * @hw: the PMU (a PMUv1 counts in every mode)
 * @idx: counter index (PERFREC_CYCLE_COUNTER for the cycle counter)
 * @event: PMUv3 event number (ignored for the cycle counter)
 * @start: initial counter value
 */
void pmuv3_program(const struct pmuv3_hw *hw, uint idx, uint event, u64 start);

/**
 * pmuv3_raise_irq() - Assert the PMU's overflow interrupt request, counting nothing
 * @hw: the PMU
 *
 * Sets the cycle counter's overflow flag with its interrupt enabled, as an
 * overflow would: the interrupt must then show as pending at the GIC. A
 * PMUv1, which cannot set the flag, has its cycle counter overflow within
 * a few cycles instead. pmuv3_restore() undoes it.
 */
void pmuv3_raise_irq(const struct pmuv3_hw *hw);

/**
 * pmuv3_start() - Start counters, with the overflow interrupt of some
 * @hw: the PMU
 * @mask: counters to start (bit 31: the cycle counter)
 * @irq_mask: counters whose overflow raises the interrupt
 *
 * The cycle counter is 64 bits wide (PMCR_EL0.LC), event counters too where
 * the PMU allows (PMCR_EL0.LP). Only the counters in @irq_mask may raise the
 * interrupt during the session.
 */
void pmuv3_start(const struct pmuv3_hw *hw, u32 mask, u32 irq_mask);

/**
 * pmuv3_stop() - Stop counters at once, so that their counts cover the same time
 * @mask: counters to stop (bit 31: the cycle counter)
 */
void pmuv3_stop(u32 mask);

/**
 * pmuv3_read_counter() - Read a counter
 * @idx: counter index (PERFREC_CYCLE_COUNTER for the cycle counter)
 * Return: its value
 */
u64 pmuv3_read_counter(uint idx);

/**
 * pmuv3_overflowed() - Has a counter overflowed since its flag was cleared?
 * @idx: counter index (PERFREC_CYCLE_COUNTER for the cycle counter)
 * Return: true if its PMOVSSET_EL0 bit is set
 */
bool pmuv3_overflowed(uint idx);

/**
 * pmuv3_snapshot() - Add every PMU register a session may change
 * @hw: the PMU
 * @snap: snapshot to add to
 */
void pmuv3_snapshot(const struct pmuv3_hw *hw, struct perfrec_snapshot *snap);

#endif /* __PERFREC_PMUV3_H */
