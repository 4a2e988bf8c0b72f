/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * PMUv3 counter policy used by the perfrec session (layer 2 of the driver)
 */

#ifndef __PERFREC_PMUV3_H
#define __PERFREC_PMUV3_H

#include <dm/ofnode.h>
#include <linux/types.h>

struct perfrec_snapshot;

/**
 * struct pmuv3_hw - What this CPU's PMU offers
 * @version: ID_AA64DFR0_EL1.PMUVer
 * @nr_counters: event counters (PMCR_EL0.N)
 */
struct pmuv3_hw {
	uint version;
	uint nr_counters;
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
 */
struct pmuv3_saved {
	u64 pmcr;
	u64 pmcntenset;
	u64 pmintenset;
	u64 pmovsset;
	u64 pmselr;
	u64 pmccfiltr;
	u64 pmccntr;
};

/**
 * pmuv3_detect() - Check for a PMUv3 and count its counters
 * @hw: returns version and counters
 * Return: 0 if present, -ENODEV if the CPU has no (architected) PMUv3
 */
int pmuv3_detect(struct pmuv3_hw *hw);

/**
 * pmuv3_find_node() - Find the enabled PMU node in the control device tree
 * @nodep: returns the node
 * Return: 0 if found, -ENOENT if none
 */
int pmuv3_find_node(ofnode *nodep);

/**
 * pmuv3_read_intid() - The GIC INTID of a PMU node's interrupt
 * @node: PMU node
 * @intidp: returns the INTID
 * Return: 0 on success, -ENXIO if there is no "interrupts" property,
 * -EPROTONOSUPPORT if the interrupt is not a PPI
 */
int pmuv3_read_intid(ofnode node, uint *intidp);

/**
 * pmuv3_save() - Save the PMU registers a session changes
 * @saved: returns them
 */
void pmuv3_save(struct pmuv3_saved *saved);

/**
 * pmuv3_restore() - Stop the session's counters and put the PMU back
 * @saved: registers from pmuv3_save()
 */
void pmuv3_restore(const struct pmuv3_saved *saved);

/**
 * pmuv3_start_cycles() - Count cycles at U-Boot's EL and interrupt on overflow
 * @first_period: cycles until the first overflow
 *
 * Takes over the cycle counter (64-bit, PMCR_EL0.LC) and the PMU interrupt
 * enables: no other counter can raise the interrupt during the session.
 */
void pmuv3_start_cycles(u64 first_period);

/**
 * pmuv3_read_cycles() - Read the cycle counter
 * Return: PMCCNTR_EL0
 */
u64 pmuv3_read_cycles(void);

/**
 * pmuv3_overflowed() - Has a counter overflowed since its flag was cleared?
 * @idx: counter index (PMUV3_CYCLE_IDX for the cycle counter)
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
