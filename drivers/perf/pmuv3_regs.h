/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * PMUv3's registers as the architecture defines them: the fields perfrec uses
 *
 * The same in AArch64 and AArch32 (PMCR_EL0 is PMCR there, and so on). Names
 * and fields follow the Arm ARM (DDI 0487), so PMUV3_PMCR_E is PMCR_EL0.E.
 * How the registers are reached is the architecture's: perfrec_arch.h.
 */

#ifndef __PERFREC_PMUV3_REGS_H
#define __PERFREC_PMUV3_REGS_H

/* The host build of pmuv3_events.c takes the PMU versions only */
#ifndef USE_HOSTCC
#include <perfrec.h>
#include <linux/bitops.h>
#endif

/* The PMU's version, as ID_AA64DFR0_EL1.PMUVer encodes it (perfrec_arch_pmuver()) */
#define PMUV3_PMUVER_NI			0x0	/* not implemented */
#define PMUV3_PMUVER_V3			0x1
/* Not a PMUVer value: the Armv7 PMU (32-bit Arm's ID_DFR0.PerfMon 2), programmed as PMUv3 */
#define PMUV3_PMUVER_ARMV7		0x2
/*
 * Not a PMUVer value: the PMUv1 of a core known by its MIDR (pmuv3_core_by_midr(),
 * the Cortex-A8 and A9), whose ID_DFR0.PerfMon reads 0. The Armv7 register set
 * without PMCEID, PMOVSSET or mode filters: it counts in every mode.
 */
#define PMUV3_PMUVER_V1			0x3
#define PMUV3_PMUVER_V3P5		0x6
#define PMUV3_PMUVER_IMPDEF		0xf

/* PMCR_EL0 */
#define PMUV3_PMCR_E			BIT(0)	/* enable */
#define PMUV3_PMCR_P			BIT(1)	/* event counter reset */
#define PMUV3_PMCR_C			BIT(2)	/* cycle counter reset */
#define PMUV3_PMCR_D			BIT(3)	/* cycle counter divides by 64 */
#define PMUV3_PMCR_X			BIT(4)	/* export events */
#define PMUV3_PMCR_DP			BIT(5)	/* cycle counter off where events are prohibited */
#define PMUV3_PMCR_LC			BIT(6)	/* cycle counter overflows at 64 bits */
#define PMUV3_PMCR_LP			BIT(7)	/* event counters overflow at 64 bits (v3p5) */
#define PMUV3_PMCR_N			GENMASK(15, 11)
#define PMUV3_PMCR_WRITABLE		GENMASK(7, 0)

/* PMCNTEN*, PMINTEN*, PMOVS*: bit 31, PERFREC_CYCLE_COUNTER (<perfrec.h>), is the cycle counter */
#define PMUV3_MAX_EVENT_COUNTERS	31

/* PMEVTYPER<n>_EL0 and PMCCFILTR_EL0 filter bits */
#define PMUV3_EVTYPE_P			BIT(31)	/* don't count at EL1 */
#define PMUV3_EVTYPE_U			BIT(30)	/* don't count at EL0 */
#define PMUV3_EVTYPE_NSK		BIT(29)
#define PMUV3_EVTYPE_NSU		BIT(28)
#define PMUV3_EVTYPE_NSH		BIT(27)	/* count at EL2 */
#define PMUV3_EVTYPE_M			BIT(26)	/* EL3 filtering, with P */
#define PMUV3_EVTYPE_EVENT		GENMASK(15, 0)

#endif /* __PERFREC_PMUV3_REGS_H */
