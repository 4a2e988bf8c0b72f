/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * PMUv3 common events: the name table and PMCEID decoding (builds for target and host)
 */

#ifndef __PERFREC_PMUV3_EVENTS_H
#define __PERFREC_PMUV3_EVENTS_H

/* Event numbers PMCEID describes: 0x0000-0x003f, and 0x4000-0x403f (high halves) */
#define PMUV3_EVENT_ID_MASK		0x3f
#define PMUV3_EVENT_HIGH		0x4000
/* ID_AA64DFR0_EL1.PMUVer from which PMCEID's high halves are defined (PMUv3p1) */
#define PMUV3_EVENTS_HIGH_VERSION	4
/*
 * PMEVTYPER<n>_EL0.evtCount: 10 bits wide before PMUv3p1, 16 bits from it
 * on; the Armv7 PMU's PMXEVTYPER.evtCount (PMUV3_PMUVER_ARMV7 and _V1) is 8 bits
 */
#define PMUV3_EVTCOUNT_BITS		10
#define PMUV3_EVTCOUNT_BITS_V3P1	16
#define PMUV3_EVTCOUNT_WIDE_VERSION	4
#define PMUV3_EVTCOUNT_BITS_ARMV7	8

/*
 * Cores whose PMU the ID registers do not describe (PMUv1, PMUV3_PMUVER_V1),
 * known by MIDR's implementer and part number, whatever the revision
 */
#define PMUV3_CORE_ARCH			0	/* described by ID_DFR0 or ID_AA64DFR0 */
#define PMUV3_CORE_A8			1
#define PMUV3_CORE_A9			2
#define PMUV3_MIDR_IMPLEMENTER_SHIFT	24
#define PMUV3_MIDR_PART_SHIFT		4
#define PMUV3_MIDR_PART_MASK		0xfff
#define PMUV3_MIDR_ARM			0x41
#define PMUV3_MIDR_PART_A8		0xc08
#define PMUV3_MIDR_PART_A9		0xc09

/* Not an event (past every 16-bit number): what a core cannot count behind a generic name */
#define PMUV3_EVT_NONE			0x10000

/* Common events behind perf's generic names, and the probe's */
#define PMUV3_EVT_SW_INCR		0x0000
#define PMUV3_EVT_L1D_CACHE_REFILL	0x0003
#define PMUV3_EVT_L1D_CACHE		0x0004
#define PMUV3_EVT_INST_RETIRED		0x0008
#define PMUV3_EVT_PC_WRITE_RETIRED	0x000c
#define PMUV3_EVT_BR_MIS_PRED		0x0010
#define PMUV3_EVT_CPU_CYCLES		0x0011
#define PMUV3_EVT_BUS_CYCLES		0x001d
#define PMUV3_EVT_BR_RETIRED		0x0021
#define PMUV3_EVT_STALL_FRONTEND	0x0023
#define PMUV3_EVT_STALL_BACKEND		0x0024
/* The A8's and A9's own events behind generic names */
#define PMUV3_A8_EVT_STALL_ISIDE	0x0056
#define PMUV3_A9_EVT_STALL_ICACHE	0x0060
#define PMUV3_A9_EVT_STALL_DISPATCH	0x0066
#define PMUV3_A9_EVT_INST_RENAMED	0x0068

/**
 * struct pmuv3_event - One common event
 * @number: event number (PMEVTYPER<n>_EL0.evtCount)
 * @name: the Arm ARM mnemonic in lower case, as perf spells it
 * @desc: one line on what it counts
 */
struct pmuv3_event {
	unsigned int number;
	const char *name;
	const char *desc;
};

/**
 * pmuv3_event_bits() - Width of the event number field this PMU implements
 * @version: ID_AA64DFR0_EL1.PMUVer, or PMUV3_PMUVER_ARMV7
 * Return: PMUV3_EVTCOUNT_BITS before PMUv3p1, PMUV3_EVTCOUNT_BITS_V3P1 from it
 * on, PMUV3_EVTCOUNT_BITS_ARMV7 for the Armv7 PMU
 */
unsigned int pmuv3_event_bits(unsigned int version);

/**
 * pmuv3_event_fits() - Does an event number fit this PMU's event number field?
 * @version: ID_AA64DFR0_EL1.PMUVer, or PMUV3_PMUVER_ARMV7
 * @number: event number
 * Return: 1 if it fits, 0 if it is wider (the PMU would drop the bits above
 * its field and count another event)
 */
int pmuv3_event_fits(unsigned int version, unsigned int number);

/**
 * pmuv3_event_count() - How many events the table holds
 * Return: the number of entries pmuv3_event_at() walks
 */
unsigned int pmuv3_event_count(void);

/**
 * pmuv3_event_at() - Walk the table
 * @idx: index from 0
 * @ev: filled with the event (its strings are the table's)
 * Return: 1, or 0 past the end
 */
int pmuv3_event_at(unsigned int idx, struct pmuv3_event *ev);

/**
 * pmuv3_event_by_name() - Find an event by its name
 * @name: e.g. "l1d_cache_refill"
 * @ev: filled with the event
 * Return: 1 if found, 0 if not
 */
int pmuv3_event_by_name(const char *name, struct pmuv3_event *ev);

/**
 * pmuv3_event_by_number() - Find an event by its number
 * @number: e.g. 0x0003
 * @ev: filled with the event
 * Return: 1 if found, 0 if it is not a common event of the table
 */
int pmuv3_event_by_number(unsigned int number, struct pmuv3_event *ev);

/**
 * pmuv3_event_implemented() - Does PMCEID say the CPU counts this event?
 * @pmceid0: PMCEID0_EL0
 * @pmceid1: PMCEID1_EL0
 * @version: ID_AA64DFR0_EL1.PMUVer
 * @number: event number
 * Return: 1 if implemented, 0 if not (or outside what PMCEID describes)
 */
int pmuv3_event_implemented(unsigned long long pmceid0, unsigned long long pmceid1,
			    unsigned int version, unsigned int number);

/**
 * pmuv3_pmceid_aarch32() - PMCEID0_EL0 or PMCEID1_EL0 from AArch32's two registers
 * @low: PMCEID0 (for PMCEID0_EL0: events 0x0000-0x001f) or PMCEID1 (for
 *	PMCEID1_EL0: 0x0020-0x003f)
 * @high: PMCEID2 (events 0x4000-0x401f) or PMCEID3 (0x4020-0x403f)
 * @version: ID_AA64DFR0_EL1.PMUVer (on 32-bit Arm from ID_DFR0.PerfMon)
 *
 * AArch32 gives each of AArch64's two 64-bit registers as two: PMCEID2 is
 * PMCEID0_EL0[63:32], PMCEID3 PMCEID1_EL0[63:32]. Before PMUv3p1 neither
 * exists, and @high is not used.
 * Return: the AArch64 register, as pmuv3_event_implemented() takes it
 */
unsigned long long pmuv3_pmceid_aarch32(unsigned int low, unsigned int high,
					unsigned int version);

/**
 * pmuv3_core_by_midr() - The core of a PMU that the ID registers do not describe
 * @midr: MIDR (MIDR_EL1)
 * Return: PMUV3_CORE_A8 or PMUV3_CORE_A9 (any revision), else PMUV3_CORE_ARCH
 */
unsigned int pmuv3_core_by_midr(unsigned int midr);

/**
 * pmuv3_core_name() - A core's name, for messages
 * @core: PMUV3_CORE_*
 * Return: "Cortex-A8", "Cortex-A9", or NULL for PMUV3_CORE_ARCH
 */
const char *pmuv3_core_name(unsigned int core);

/**
 * pmuv3_core_pmceid() - The common events a core implements, as PMCEID0_EL0 says them
 * @core: PMUV3_CORE_*
 *
 * A PMUv1 has no PMCEID: its technical reference manual lists which of the
 * common events 0x00-0x1f it counts.
 * Return: the bitmap (0 for PMUV3_CORE_ARCH: read PMCEID instead)
 */
unsigned long long pmuv3_core_pmceid(unsigned int core);

/**
 * pmuv3_core_generic() - The event a core counts for a common one behind a generic name
 * @core: PMUV3_CORE_*
 * @number: the common event behind one of perf's generic names (cycles: the
 *	cycle counter, which needs none)
 * Return: @number where the core counts it, the core's own event where it
 * has one for the same thing (the Cortex-A9's instructions: 0x68, out of the
 * renaming stage), or PMUV3_EVT_NONE
 */
unsigned int pmuv3_core_generic(unsigned int core, unsigned int number);

/**
 * pmuv3_core_event_at() - Walk a core's own events (0x40 and up)
 * @core: PMUV3_CORE_*
 * @idx: index from 0
 * @ev: filled with the event
 * Return: 1, or 0 past the end (at once for PMUV3_CORE_ARCH)
 */
int pmuv3_core_event_at(unsigned int core, unsigned int idx, struct pmuv3_event *ev);

/**
 * pmuv3_core_event_by_name() - Find one of a core's own events by its name
 * @core: PMUV3_CORE_*
 * @name: e.g. "inst_renamed"
 * @ev: filled with the event
 * Return: 1 if found, 0 if not
 */
int pmuv3_core_event_by_name(unsigned int core, const char *name, struct pmuv3_event *ev);

/**
 * pmuv3_core_event_by_number() - Find one of a core's own events by its number
 * @core: PMUV3_CORE_*
 * @number: e.g. 0x68
 * @ev: filled with the event
 * Return: 1 if found, 0 if not
 */
int pmuv3_core_event_by_number(unsigned int core, unsigned int number, struct pmuv3_event *ev);

#endif /* __PERFREC_PMUV3_EVENTS_H */
