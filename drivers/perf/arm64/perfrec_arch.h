/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec on AArch64: the one header through which the rest reaches the CPU
 *
 * The architecture's seam. Everything perfrec does that depends on AArch64
 * is here or in the files beside it (drivers/perf/arm64/: the vectors and
 * the IRQ entry, the CPU state a session borrows, the page-table walk, the
 * unwinder's A64 decoding). The shared code includes only this header, and
 * reaches the registers by names neither architecture owns (read_pmcr(),
 * read_irq_masks(), ...; as Linux's two arm_pmuv3.h), which this header maps
 * to the AArch64 system registers, and the EL by perfrec_arch_el(), over
 * which perfrec_cpu.h builds what does not depend on the architecture:
 * drivers/perf/arm/ has the same header for 32-bit Arm, mapping the names
 * to the AArch32 registers through cp15, and the Makefiles pick the one to
 * build. Registers only this directory uses keep their AArch64 names.
 */

#ifndef __PERFREC_ARCH_H
#define __PERFREC_ARCH_H

#include <asm/system.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/kconfig.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include "perfrec_irq_frame.h"
#include "pmuv3_regs.h"

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

/*
 * The cycle counter is 64 bits wide (PMCR_EL0.LC), and so are the event
 * counters from PMUv3p5 (PMCR_EL0.LP)
 */
#define PERFREC_ARCH_LONG_COUNTERS	true

/* ID_AA64DFR0_EL1.PMUVer */
#define CPU_ID_AA64DFR0_PMUVER		GENMASK(11, 8)

/* The interrupt masks, read_irq_masks(): DAIF's I and F */
#define CPU_MASK_IRQ			BIT(7)
#define CPU_MASK_FIQ			BIT(6)

/* HCR_EL2 */
#define CPU_HCR_EL2_FMO			BIT(3)
#define CPU_HCR_EL2_IMO			BIT(4)

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

#define PERFREC_SYSREG_RO(name, reg)					\
static inline u64 read_##name(void)					\
{									\
	return read_sysreg(reg);					\
}

#define PERFREC_SYSREG_RW(name, reg)					\
PERFREC_SYSREG_RO(name, reg)						\
static inline void write_##name(u64 val)				\
{									\
	write_sysreg(val, reg);						\
}

PERFREC_SYSREG_RO(id_aa64dfr0_el1, id_aa64dfr0_el1)
/* MIDR_EL1, MPIDR_EL1: U-Boot's read_midr() and read_mpidr() are not everywhere */
PERFREC_SYSREG_RO(cpu_midr, midr_el1)
PERFREC_SYSREG_RO(cpu_mpidr, mpidr_el1)
PERFREC_SYSREG_RO(cntfrq, cntfrq_el0)
PERFREC_SYSREG_RO(cntpct, cntpct_el0)
PERFREC_SYSREG_RO(pmceid0, pmceid0_el0)
PERFREC_SYSREG_RO(pmceid1, pmceid1_el0)

PERFREC_SYSREG_RW(pmcr, pmcr_el0)
PERFREC_SYSREG_RW(pmcntenset, pmcntenset_el0)
PERFREC_SYSREG_RW(pmcntenclr, pmcntenclr_el0)
PERFREC_SYSREG_RW(pmintenset, pmintenset_el1)
PERFREC_SYSREG_RW(pmintenclr, pmintenclr_el1)
PERFREC_SYSREG_RW(pmovsclr, pmovsclr_el0)
PERFREC_SYSREG_RW(pmovsset, pmovsset_el0)
PERFREC_SYSREG_RW(pmselr, pmselr_el0)
PERFREC_SYSREG_RW(pmswinc, pmswinc_el0)
PERFREC_SYSREG_RW(pmxevtyper, pmxevtyper_el0)
PERFREC_SYSREG_RW(pmxevcntr, pmxevcntr_el0)
PERFREC_SYSREG_RW(pmccntr, pmccntr_el0)
PERFREC_SYSREG_RW(pmccfiltr, pmccfiltr_el0)
PERFREC_SYSREG_RW(pmuserenr, pmuserenr_el0)

PERFREC_SYSREG_RW(vbar_el1, vbar_el1)
PERFREC_SYSREG_RW(vbar_el2, vbar_el2)
PERFREC_SYSREG_RW(vbar_el3, vbar_el3)
PERFREC_SYSREG_RW(hcr_el2, hcr_el2)
PERFREC_SYSREG_RW(scr_el3, scr_el3)
PERFREC_SYSREG_RW(mdcr_el3, mdcr_el3)
PERFREC_SYSREG_RW(mdcr_el2, mdcr_el2)
PERFREC_SYSREG_RW(daif, daif)
PERFREC_SYSREG_RW(irq_masks, daif)

/* Stage 1 translation of each EL, read to walk U-Boot's page tables */
PERFREC_SYSREG_RO(sctlr_el1, sctlr_el1)
PERFREC_SYSREG_RO(sctlr_el2, sctlr_el2)
PERFREC_SYSREG_RO(sctlr_el3, sctlr_el3)
PERFREC_SYSREG_RO(ttbr0_el1, ttbr0_el1)
PERFREC_SYSREG_RO(ttbr0_el2, ttbr0_el2)
PERFREC_SYSREG_RO(ttbr0_el3, ttbr0_el3)
PERFREC_SYSREG_RO(tcr_el1, tcr_el1)
PERFREC_SYSREG_RO(tcr_el2, tcr_el2)
PERFREC_SYSREG_RO(tcr_el3, tcr_el3)
PERFREC_SYSREG_RO(mair_el1, mair_el1)
PERFREC_SYSREG_RO(mair_el2, mair_el2)
PERFREC_SYSREG_RO(mair_el3, mair_el3)

/* The generic timer of each EL: EL1 physical, EL2 physical, EL3 secure physical */
PERFREC_SYSREG_RW(cntp_ctl_el0, cntp_ctl_el0)
PERFREC_SYSREG_RW(cntp_cval_el0, cntp_cval_el0)
PERFREC_SYSREG_RW(cnthp_ctl_el2, cnthp_ctl_el2)
PERFREC_SYSREG_RW(cnthp_cval_el2, cnthp_cval_el2)
PERFREC_SYSREG_RW(cntps_ctl_el1, cntps_ctl_el1)
PERFREC_SYSREG_RW(cntps_cval_el1, cntps_cval_el1)

/* GICv3's CPU interface; ICC_SRE_ELx through perfrec_arch_icc_sre() */
PERFREC_SYSREG_RW(icc_sre_el1, ICC_SRE_EL1)
PERFREC_SYSREG_RW(icc_sre_el2, ICC_SRE_EL2)
PERFREC_SYSREG_RW(icc_sre_el3, ICC_SRE_EL3)
PERFREC_SYSREG_RW(icc_igrpen0, ICC_IGRPEN0_EL1)
PERFREC_SYSREG_RO(icc_iar0, ICC_IAR0_EL1)
PERFREC_SYSREG_RW(icc_eoir0, ICC_EOIR0_EL1)
PERFREC_SYSREG_RW(icc_pmr, ICC_PMR_EL1)
PERFREC_SYSREG_RW(icc_ctlr, ICC_CTLR_EL1)
PERFREC_SYSREG_RW(icc_mctlr, ICC_CTLR_EL3)
PERFREC_SYSREG_RW(icc_igrpen1, ICC_IGRPEN1_EL1)
PERFREC_SYSREG_RO(icc_iar1, ICC_IAR1_EL1)
PERFREC_SYSREG_RW(icc_eoir1, ICC_EOIR1_EL1)

/*
 * PMEVCNTR<n>_EL0 are separate registers per counter: a switch (the
 * register name is fixed at build time), for the IRQ path, which must not
 * go through PMSELR_EL0. The slow paths do (pmuv3.c).
 */
#define PERFREC_EVCNTR_CASE(n)	case n: return read_sysreg(pmevcntr##n##_el0)
#define PERFREC_EVCNTR_WCASE(n)	case n: write_sysreg(val, pmevcntr##n##_el0); break

#define PERFREC_EVCASES(c)						\
	c(0); c(1); c(2); c(3); c(4); c(5); c(6); c(7); c(8); c(9);	\
	c(10); c(11); c(12); c(13); c(14); c(15); c(16); c(17); c(18);	\
	c(19); c(20); c(21); c(22); c(23); c(24); c(25); c(26); c(27);	\
	c(28); c(29); c(30)

static inline u64 read_pmevcntrn(uint idx)
{
	switch (idx) {
	PERFREC_EVCASES(PERFREC_EVCNTR_CASE);
	}

	return 0;
}

static inline void write_pmevcntrn(uint idx, u64 val)
{
	switch (idx) {
	PERFREC_EVCASES(PERFREC_EVCNTR_WCASE);
	}
}

/* ICC_SRE_EL<@el>: enables the GICv3 system-register interface at EL @el */
static inline u64 perfrec_arch_icc_sre(uint el)
{
	switch (el) {
	case 3:
		return read_icc_sre_el3();
	case 2:
		return read_icc_sre_el2();
	default:
		return read_icc_sre_el1();
	}
}

static inline void perfrec_arch_set_icc_sre(uint el, u64 val)
{
	switch (el) {
	case 3:
		write_icc_sre_el3(val);
		break;
	case 2:
		write_icc_sre_el2(val);
		break;
	default:
		write_icc_sre_el1(val);
		break;
	}
}

/* The EL U-Boot runs at, whether perfrec is built for it or not */
static inline uint perfrec_arch_el(void)
{
	return current_el();
}

/**
 * perfrec_cpu_affinity() - This CPU's affinity: MPIDR_EL1's Aff3-Aff0 fields in place
 *
 * The form a /cpus node's "reg" and GICD_IROUTER<n> hold it in.
 * Return: MPIDR_EL1 without its flag bits
 */
static inline u64 perfrec_cpu_affinity(void)
{
	return read_cpu_mpidr() & (CPU_MPIDR_AFF3 | CPU_MPIDR_AFF2 | CPU_MPIDR_AFF1 |
				   CPU_MPIDR_AFF0);
}

/* The PMU's version: PMUV3_PMUVER_* (ID_AA64DFR0_EL1.PMUVer) */
static inline uint perfrec_arch_pmuver(void)
{
	return FIELD_GET(CPU_ID_AA64DFR0_PMUVER, read_id_aa64dfr0_el1());
}

/* Whether the CPU has the generic timer: every Armv8-A CPU has */
static inline bool perfrec_arch_has_timer(void)
{
	return true;
}

/* U-Boot knows its security state at every EL: EL3 is Secure, EL1 and EL2 are not */
static inline bool perfrec_arch_may_be_secure(uint el)
{
	return false;
}

/*
 * The physical timer of EL @el: EL1 CNTP_*_EL0, EL2 CNTHP_*_EL2, EL3
 * (Secure) CNTPS_*_EL1; its registers' names, for snapshots
 */
static inline u64 perfrec_arch_timer_ctl(uint el)
{
	switch (el) {
	case 3:
		return read_cntps_ctl_el1();
	case 2:
		return read_cnthp_ctl_el2();
	default:
		return read_cntp_ctl_el0();
	}
}

static inline void perfrec_arch_timer_set_ctl(uint el, u64 val)
{
	switch (el) {
	case 3:
		write_cntps_ctl_el1(val);
		break;
	case 2:
		write_cnthp_ctl_el2(val);
		break;
	default:
		write_cntp_ctl_el0(val);
		break;
	}
}

static inline u64 perfrec_arch_timer_cval(uint el)
{
	switch (el) {
	case 3:
		return read_cntps_cval_el1();
	case 2:
		return read_cnthp_cval_el2();
	default:
		return read_cntp_cval_el0();
	}
}

/* IRQ context: the next deadline */
static inline notrace void perfrec_arch_timer_set_cval(uint el, u64 cval)
{
	switch (el) {
	case 3:
		write_cntps_cval_el1(cval);
		break;
	case 2:
		write_cnthp_cval_el2(cval);
		break;
	default:
		write_cntp_cval_el0(cval);
		break;
	}
}

static inline const char *perfrec_arch_timer_name(uint el, bool cval)
{
	switch (el) {
	case 3:
		return cval ? "CNTPS_CVAL_EL1" : "CNTPS_CTL_EL1";
	case 2:
		return cval ? "CNTHP_CVAL_EL2" : "CNTHP_CTL_EL2";
	default:
		return cval ? "CNTP_CVAL_EL0" : "CNTP_CTL_EL0";
	}
}

#endif /* __PERFREC_ARCH_H */
