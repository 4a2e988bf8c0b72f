/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * System-register accessors and field masks for perfrec: PMUv3, CPU, GICv3 CPU interface
 *
 * Layer 1 of the driver: one static inline per register, no policy. Names
 * and fields follow the Arm ARM (DDI 0487), so PMUV3_PMCR_E is PMCR_EL0.E.
 * Fields carry their owner's prefix: PMUV3_ for the PMU, CPU_ for the
 * CPU's own registers, TIMER_ for the generic timer, GIC_ for the GIC's CPU
 * interface.
 */

#ifndef __PERFREC_PMUV3_REGS_H
#define __PERFREC_PMUV3_REGS_H

#include <asm/gic.h>
#include <linux/bitops.h>
#include <linux/stringify.h>
#include <linux/types.h>

#ifndef read_sysreg
#define read_sysreg(reg) ({						\
	u64 __val;							\
	asm volatile("mrs %0, " __stringify(reg) : "=r" (__val) : : "memory"); \
	__val;								\
})
#endif

#ifndef write_sysreg
#define write_sysreg(val, reg) do {					\
	u64 __val = (u64)(val);						\
	asm volatile("msr " __stringify(reg) ", %x0" : : "rZ" (__val) : "memory"); \
} while (0)
#endif

/* ID_AA64DFR0_EL1 */
#define PMUV3_ID_AA64DFR0_PMUVER	GENMASK(11, 8)
#define PMUV3_PMUVER_NI			0x0	/* not implemented */
#define PMUV3_PMUVER_V3			0x1
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

/* PMCNTEN*, PMINTEN*, PMOVS*: bit 31 is the cycle counter */
#define PMUV3_CYCLE_IDX			31
#define PMUV3_MAX_EVENT_COUNTERS	31

/* PMEVTYPER<n>_EL0 and PMCCFILTR_EL0 filter bits */
#define PMUV3_EVTYPE_P			BIT(31)	/* don't count at EL1 */
#define PMUV3_EVTYPE_U			BIT(30)	/* don't count at EL0 */
#define PMUV3_EVTYPE_NSK		BIT(29)
#define PMUV3_EVTYPE_NSU		BIT(28)
#define PMUV3_EVTYPE_NSH		BIT(27)	/* count at EL2 */
#define PMUV3_EVTYPE_M			BIT(26)	/* EL3 filtering, with P */
#define PMUV3_EVTYPE_EVENT		GENMASK(15, 0)

/* DAIF */
#define CPU_DAIF_I			BIT(7)
#define CPU_DAIF_F			BIT(6)

/* HCR_EL2 */
#define CPU_HCR_EL2_FMO			BIT(3)
#define CPU_HCR_EL2_IMO			BIT(4)

/* CNT*_CTL: the timer's enable, interrupt mask and (read-only) status */
#define TIMER_CNT_CTL_ENABLE		BIT(0)
#define TIMER_CNT_CTL_IMASK		BIT(1)
#define TIMER_CNT_CTL_ISTATUS		BIT(2)

/* SCR_EL3: physical IRQs and FIQs taken to EL3 */
#define CPU_SCR_EL3_IRQ			BIT(1)
#define CPU_SCR_EL3_FIQ			BIT(2)

/* MDCR_EL3: event counters count in Secure state */
#define CPU_MDCR_EL3_SPME		BIT(17)

/* SCTLR_ELx, TCR_ELx, TTBR0_ELx: stage 1 translation of the EL's own accesses */
#define CPU_SCTLR_M			BIT(0)	/* MMU on */
#define CPU_TCR_T0SZ			GENMASK(5, 0)
#define CPU_TCR_TG0			GENMASK(15, 14)
#define CPU_TCR_TG0_4K			0
#define CPU_TTBR_BADDR			GENMASK_ULL(47, 1)
#define CPU_MAIR_ATTR			GENMASK(7, 0)
#define CPU_MAIR_DEVICE_NGNRNE		0x00
#define CPU_MAIR_NR_ATTRS		8

/* MPIDR_EL1 affinity fields */
#define CPU_MPIDR_AFF0			GENMASK(7, 0)
#define CPU_MPIDR_AFF1			GENMASK(15, 8)
#define CPU_MPIDR_AFF2			GENMASK(23, 16)
#define CPU_MPIDR_AFF3			GENMASK_ULL(39, 32)

/* ICC_SRE_ELx, ICC_CTLR_EL1, ICC_IGRPEN1_EL1 */
#define GIC_ICC_SRE_SRE			BIT(0)
#define GIC_ICC_CTLR_EOIMODE		BIT(1)
/* ICC_CTLR_EL3: the EOI mode of what EL3 handles */
#define GIC_ICC_CTLR_EL3_EOIMODE_EL3	BIT(2)
#define GIC_ICC_IGRPEN1_EN		BIT(0)
#define GIC_ICC_IGRPEN0_EN		BIT(0)
#define GIC_ICC_IAR_INTID		GENMASK(23, 0)

#define PMUV3_SYSREG_RO(name, reg)					\
static inline u64 read_##name(void)					\
{									\
	return read_sysreg(reg);					\
}

#define PMUV3_SYSREG_RW(name, reg)					\
PMUV3_SYSREG_RO(name, reg)						\
static inline void write_##name(u64 val)				\
{									\
	write_sysreg(val, reg);						\
}

PMUV3_SYSREG_RO(id_aa64dfr0_el1, id_aa64dfr0_el1)
PMUV3_SYSREG_RO(midr_el1, midr_el1)
PMUV3_SYSREG_RO(mpidr_el1, mpidr_el1)
PMUV3_SYSREG_RO(cntfrq_el0, cntfrq_el0)
PMUV3_SYSREG_RO(cntpct_el0, cntpct_el0)
PMUV3_SYSREG_RO(pmceid0_el0, pmceid0_el0)
PMUV3_SYSREG_RO(pmceid1_el0, pmceid1_el0)

PMUV3_SYSREG_RW(pmcr_el0, pmcr_el0)
PMUV3_SYSREG_RW(pmcntenset_el0, pmcntenset_el0)
PMUV3_SYSREG_RW(pmcntenclr_el0, pmcntenclr_el0)
PMUV3_SYSREG_RW(pmintenset_el1, pmintenset_el1)
PMUV3_SYSREG_RW(pmintenclr_el1, pmintenclr_el1)
PMUV3_SYSREG_RW(pmovsclr_el0, pmovsclr_el0)
PMUV3_SYSREG_RW(pmovsset_el0, pmovsset_el0)
PMUV3_SYSREG_RW(pmselr_el0, pmselr_el0)
PMUV3_SYSREG_RW(pmxevtyper_el0, pmxevtyper_el0)
PMUV3_SYSREG_RW(pmxevcntr_el0, pmxevcntr_el0)
PMUV3_SYSREG_RW(pmccntr_el0, pmccntr_el0)
PMUV3_SYSREG_RW(pmccfiltr_el0, pmccfiltr_el0)
PMUV3_SYSREG_RW(pmuserenr_el0, pmuserenr_el0)

PMUV3_SYSREG_RW(vbar_el1, vbar_el1)
PMUV3_SYSREG_RW(vbar_el2, vbar_el2)
PMUV3_SYSREG_RW(vbar_el3, vbar_el3)
PMUV3_SYSREG_RW(hcr_el2, hcr_el2)
PMUV3_SYSREG_RW(scr_el3, scr_el3)
PMUV3_SYSREG_RW(mdcr_el3, mdcr_el3)
PMUV3_SYSREG_RW(mdcr_el2, mdcr_el2)
PMUV3_SYSREG_RW(daif, daif)

/* Stage 1 translation of each EL, read to walk U-Boot's page tables */
PMUV3_SYSREG_RO(sctlr_el1, sctlr_el1)
PMUV3_SYSREG_RO(sctlr_el2, sctlr_el2)
PMUV3_SYSREG_RO(sctlr_el3, sctlr_el3)
PMUV3_SYSREG_RO(ttbr0_el1, ttbr0_el1)
PMUV3_SYSREG_RO(ttbr0_el2, ttbr0_el2)
PMUV3_SYSREG_RO(ttbr0_el3, ttbr0_el3)
PMUV3_SYSREG_RO(tcr_el1, tcr_el1)
PMUV3_SYSREG_RO(tcr_el2, tcr_el2)
PMUV3_SYSREG_RO(tcr_el3, tcr_el3)
PMUV3_SYSREG_RO(mair_el1, mair_el1)
PMUV3_SYSREG_RO(mair_el2, mair_el2)
PMUV3_SYSREG_RO(mair_el3, mair_el3)

/* The generic timer of each EL: EL1 physical, EL2 physical, EL3 secure physical */
PMUV3_SYSREG_RW(cntp_ctl_el0, cntp_ctl_el0)
PMUV3_SYSREG_RW(cntp_cval_el0, cntp_cval_el0)
PMUV3_SYSREG_RW(cnthp_ctl_el2, cnthp_ctl_el2)
PMUV3_SYSREG_RW(cnthp_cval_el2, cnthp_cval_el2)
PMUV3_SYSREG_RW(cntps_ctl_el1, cntps_ctl_el1)
PMUV3_SYSREG_RW(cntps_cval_el1, cntps_cval_el1)

PMUV3_SYSREG_RW(icc_sre_el1, ICC_SRE_EL1)
PMUV3_SYSREG_RW(icc_sre_el2, ICC_SRE_EL2)
PMUV3_SYSREG_RW(icc_sre_el3, ICC_SRE_EL3)
PMUV3_SYSREG_RW(icc_igrpen0_el1, ICC_IGRPEN0_EL1)
PMUV3_SYSREG_RO(icc_iar0_el1, ICC_IAR0_EL1)
PMUV3_SYSREG_RW(icc_eoir0_el1, ICC_EOIR0_EL1)
PMUV3_SYSREG_RW(icc_pmr_el1, ICC_PMR_EL1)
PMUV3_SYSREG_RW(icc_ctlr_el1, ICC_CTLR_EL1)
PMUV3_SYSREG_RW(icc_ctlr_el3, ICC_CTLR_EL3)
PMUV3_SYSREG_RW(icc_igrpen1_el1, ICC_IGRPEN1_EL1)
PMUV3_SYSREG_RO(icc_iar1_el1, ICC_IAR1_EL1)
PMUV3_SYSREG_RW(icc_eoir1_el1, ICC_EOIR1_EL1)

/*
 * PMEVCNTR<n>_EL0 are separate registers per counter: a switch (the
 * register name is fixed at build time), for the IRQ path, which must not
 * go through PMSELR_EL0. The slow paths do (pmuv3.c).
 */
#define PMUV3_EVCNTR_CASE(n)	case n: return read_sysreg(pmevcntr##n##_el0)
#define PMUV3_EVCNTR_WCASE(n)	case n: write_sysreg(val, pmevcntr##n##_el0); break

#define PMUV3_EVCASES(c)						\
	c(0); c(1); c(2); c(3); c(4); c(5); c(6); c(7); c(8); c(9);	\
	c(10); c(11); c(12); c(13); c(14); c(15); c(16); c(17); c(18);	\
	c(19); c(20); c(21); c(22); c(23); c(24); c(25); c(26); c(27);	\
	c(28); c(29); c(30)

static inline u64 read_pmevcntrn_el0(uint idx)
{
	switch (idx) {
	PMUV3_EVCASES(PMUV3_EVCNTR_CASE);
	}

	return 0;
}

static inline void write_pmevcntrn_el0(uint idx, u64 val)
{
	switch (idx) {
	PMUV3_EVCASES(PMUV3_EVCNTR_WCASE);
	}
}

#endif /* __PERFREC_PMUV3_REGS_H */
