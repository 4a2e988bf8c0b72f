/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec on 32-bit Arm: the one header through which the rest reaches the CPU
 *
 * The architecture's seam (see drivers/perf/arm64/perfrec_arch.h): the
 * shared code reaches the registers by their AArch64 names, which here are
 * their AArch32 counterparts through cp15 (Arm ARM G8), and the exception
 * level by perfrec_arch_el(): PL1 (SVC) is 1, Hyp mode 2, Monitor mode 3.
 * The same code serves the ARMv7 PMU (Cortex-A7, A15: ID_DFR0.PerfMon 2)
 * and PMUv3 in AArch32 (an ARMv8 core in AArch32): both have the registers
 * below, in the same places, with the same fields. Neither counter is wider
 * than 32 bits here: the ARMv7 cycle counter is 32 bits, and PMUv3's is
 * used as such (PMCR.LC clear) so that both overflow alike.
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

/*
 * Counters overflow at 32 bits: PMCR.LC and LP are left clear (the event
 * counters are reached through 32-bit PMXEVCNTR)
 */
#define PERFREC_ARCH_LONG_COUNTERS	false

/* ID_DFR0.PerfMon: 2 the ARMv7 PMU (PMUv2), 3 and up PMUv3 */
#define CPU_ID_DFR0_PERFMON		GENMASK(27, 24)
#define CPU_PERFMON_V2			2
#define CPU_PERFMON_V3			3
#define CPU_PERFMON_IMPDEF		0xf

/* ID_PFR1.GenTimer: the generic timer (Cortex-A7, A15 and later; not A8, A9) */
#define CPU_ID_PFR1_GENTIMER		GENMASK(19, 16)

/* CPSR: the interrupt masks (where DAIF has them in AArch64) and the mode */
#define CPU_DAIF_A			BIT(8)
#define CPU_DAIF_I			BIT(7)
#define CPU_DAIF_F			BIT(6)
#define CPU_CPSR_MODE			GENMASK(4, 0)
#define CPU_CPSR_MODE_MON		0x16
#define CPU_CPSR_MODE_HYP		0x1a

/* HCR: physical IRQs and FIQs taken to Hyp mode */
#define CPU_HCR_EL2_FMO			BIT(3)
#define CPU_HCR_EL2_IMO			BIT(4)

/* SCR: physical IRQs and FIQs taken to Monitor mode */
#define CPU_SCR_EL3_IRQ			BIT(1)
#define CPU_SCR_EL3_FIQ			BIT(2)

/* SDCR: event counters count in Secure state */
#define CPU_MDCR_EL3_SPME		BIT(17)

/* MPIDR affinity fields; AArch32 has no Aff3 (an empty field: it reads as 0) */
#define CPU_MPIDR_AFF0			GENMASK(7, 0)
#define CPU_MPIDR_AFF1			GENMASK(15, 8)
#define CPU_MPIDR_AFF2			GENMASK(23, 16)
#define CPU_MPIDR_AFF3			BIT_ULL(63)

/* A 32-bit cp15 register, by its encoding */
#define PERFREC_CP15_RO(name, op1, crn, crm, op2)			\
static inline u64 read_##name(void)					\
{									\
	u32 __val;							\
									\
	asm volatile("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " #op2	\
		     : "=r" (__val) : : "memory");			\
	return __val;							\
}

#define PERFREC_CP15_RW(name, op1, crn, crm, op2)			\
PERFREC_CP15_RO(name, op1, crn, crm, op2)				\
static inline void write_##name(u64 val)				\
{									\
	asm volatile("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " #op2	\
		     : : "r" ((u32)val) : "memory");			\
}

/* A 64-bit cp15 register, by its encoding */
#define PERFREC_CP15_64_RO(name, op1, crm)				\
static inline u64 read_##name(void)					\
{									\
	u64 __val;							\
									\
	asm volatile("mrrc p15, " #op1 ", %Q0, %R0, " #crm		\
		     : "=r" (__val) : : "memory");			\
	return __val;							\
}

#define PERFREC_CP15_64_RW(name, op1, crm)				\
PERFREC_CP15_64_RO(name, op1, crm)					\
static inline void write_##name(u64 val)				\
{									\
	asm volatile("mcrr p15, " #op1 ", %Q0, %R0, " #crm		\
		     : : "r" (val) : "memory");				\
}

PERFREC_CP15_RO(id_pfr1, 0, c0, c1, 1)
PERFREC_CP15_RO(id_dfr0, 0, c0, c1, 2)
PERFREC_CP15_RO(midr_el1, 0, c0, c0, 0)
PERFREC_CP15_RO(mpidr_el1, 0, c0, c0, 5)
PERFREC_CP15_RO(cntfrq_el0, 0, c14, c0, 0)
PERFREC_CP15_64_RO(cntpct_el0, 0, c14)

/*
 * PMCEID0_EL0 and PMCEID1_EL0 through perfrec_cpu.c: AArch32's PMCEID0 and
 * PMCEID1 (c9, c12, 6 and 7) and, from PMUv3p1 on, their high halves
 * PMCEID2 and PMCEID3 (c9, c14, 4 and 5: events 0x4000-0x403f). Each is
 * read with this EL's vectors catching an undefined instruction: QEMU's
 * Armv7 cores leave PMCEID undefined, and there it reads as 0. So it does,
 * unread, at an EL this build leaves out (pmuv3_detect() refuses there
 * first).
 */
u64 perfrec_cpu_read_pmceid(uint n);

static inline u64 read_pmceid0_el0(void)
{
	return perfrec_cpu_read_pmceid(0);
}

static inline u64 read_pmceid1_el0(void)
{
	return perfrec_cpu_read_pmceid(1);
}

PERFREC_CP15_RW(pmcr_el0, 0, c9, c12, 0)
PERFREC_CP15_RW(pmcntenset_el0, 0, c9, c12, 1)
PERFREC_CP15_RW(pmcntenclr_el0, 0, c9, c12, 2)
PERFREC_CP15_RW(pmovsclr_el0, 0, c9, c12, 3)
PERFREC_CP15_RW(pmselr_el0, 0, c9, c12, 5)
PERFREC_CP15_RW(pmccntr_el0, 0, c9, c13, 0)
PERFREC_CP15_RW(pmxevtyper_el0, 0, c9, c13, 1)
PERFREC_CP15_RW(pmxevcntr_el0, 0, c9, c13, 2)
PERFREC_CP15_RW(pmuserenr_el0, 0, c9, c14, 0)
PERFREC_CP15_RW(pmintenset_el1, 0, c9, c14, 1)
PERFREC_CP15_RW(pmintenclr_el1, 0, c9, c14, 2)
PERFREC_CP15_RW(pmovsset_el0, 0, c9, c14, 3)

/* VBAR, HVBAR, MVBAR; HCR; SCR; SDCR (MDCR_EL3's); HDCR (MDCR_EL2's) */
PERFREC_CP15_RW(vbar_el1, 0, c12, c0, 0)
PERFREC_CP15_RW(vbar_el2, 4, c12, c0, 0)
PERFREC_CP15_RW(vbar_el3, 0, c12, c0, 1)
PERFREC_CP15_RW(hcr_el2, 4, c1, c1, 0)
PERFREC_CP15_RW(scr_el3, 0, c1, c1, 0)
PERFREC_CP15_RW(mdcr_el3, 0, c1, c3, 1)
PERFREC_CP15_RW(mdcr_el2, 4, c1, c1, 1)

/* The timers: PL1 physical (CNTP, the Secure one in Monitor mode), Hyp (CNTHP) */
PERFREC_CP15_RW(cntp_ctl_el0, 0, c14, c2, 1)
PERFREC_CP15_64_RW(cntp_cval_el0, 2, c14)
PERFREC_CP15_RW(cnthp_ctl_el2, 4, c14, c2, 1)
PERFREC_CP15_64_RW(cnthp_cval_el2, 6, c14)

/* GICv3's CPU interface: ICC_SRE, ICC_HSRE, ICC_MSRE and the rest */
PERFREC_CP15_RW(icc_sre_el1, 0, c12, c12, 5)
PERFREC_CP15_RW(icc_sre_el2, 4, c12, c9, 5)
PERFREC_CP15_RW(icc_sre_el3, 6, c12, c12, 5)
PERFREC_CP15_RW(icc_igrpen0_el1, 0, c12, c12, 6)
PERFREC_CP15_RW(icc_igrpen1_el1, 0, c12, c12, 7)
PERFREC_CP15_RO(icc_iar0_el1, 0, c12, c8, 0)
PERFREC_CP15_RW(icc_eoir0_el1, 0, c12, c8, 1)
PERFREC_CP15_RO(icc_iar1_el1, 0, c12, c12, 0)
PERFREC_CP15_RW(icc_eoir1_el1, 0, c12, c12, 1)
PERFREC_CP15_RW(icc_pmr_el1, 0, c4, c6, 0)
PERFREC_CP15_RW(icc_ctlr_el1, 0, c12, c12, 4)
PERFREC_CP15_RW(icc_ctlr_el3, 6, c12, c12, 4)

/* The I, F and A masks (CPSR's bits in DAIF's places); the mode is kept */
static inline u64 read_daif(void)
{
	u32 cpsr;

	asm volatile("mrs %0, cpsr" : "=r" (cpsr) : : "memory");

	return cpsr & (CPU_DAIF_A | CPU_DAIF_I | CPU_DAIF_F);
}

static inline void write_daif(u64 val)
{
	u32 cpsr;

	asm volatile("mrs %0, cpsr" : "=r" (cpsr) : : "memory");
	cpsr = (cpsr & ~(CPU_DAIF_A | CPU_DAIF_I | CPU_DAIF_F)) |
	       (val & (CPU_DAIF_A | CPU_DAIF_I | CPU_DAIF_F));
	asm volatile("msr cpsr_cx, %0" : : "r" (cpsr) : "memory");
}

/*
 * PMCCFILTR and the event counters through PMSELR (the ARMv7 PMU has no
 * direct encodings). The IRQ path may interrupt a slow path between its
 * PMSELR write and its access, so these put PMSELR back as it was.
 */
static inline u64 perfrec_arch_pmsel_read(uint idx, bool type)
{
	u64 sel = read_pmselr_el0(), val;

	write_pmselr_el0(idx);
	isb();
	val = type ? read_pmxevtyper_el0() : read_pmxevcntr_el0();
	write_pmselr_el0(sel);

	return val;
}

static inline void perfrec_arch_pmsel_write(uint idx, bool type, u64 val)
{
	u64 sel = read_pmselr_el0();

	write_pmselr_el0(idx);
	isb();
	if (type)
		write_pmxevtyper_el0(val);
	else
		write_pmxevcntr_el0(val);
	write_pmselr_el0(sel);
}

static inline u64 read_pmccfiltr_el0(void)
{
	return perfrec_arch_pmsel_read(PMUV3_CYCLE_IDX, true);
}

static inline void write_pmccfiltr_el0(u64 val)
{
	perfrec_arch_pmsel_write(PMUV3_CYCLE_IDX, true, val);
}

static inline u64 read_pmevcntrn_el0(uint idx)
{
	return perfrec_arch_pmsel_read(idx, false);
}

static inline void write_pmevcntrn_el0(uint idx, u64 val)
{
	perfrec_arch_pmsel_write(idx, false, val);
}

/* The EL U-Boot runs at, from the CPSR's mode: Monitor 3, Hyp 2, else 1 */
static inline uint perfrec_arch_el(void)
{
	u32 cpsr;

	asm volatile("mrs %0, cpsr" : "=r" (cpsr));
	switch (FIELD_GET(CPU_CPSR_MODE, cpsr)) {
	case CPU_CPSR_MODE_MON:
		return 3;
	case CPU_CPSR_MODE_HYP:
		return 2;
	default:
		return 1;
	}
}

/* This CPU's affinity: MPIDR's Aff2-Aff0, the form a /cpus node's "reg" holds */
static inline u64 perfrec_cpu_affinity(void)
{
	return read_mpidr_el1() & (CPU_MPIDR_AFF2 | CPU_MPIDR_AFF1 | CPU_MPIDR_AFF0);
}

/*
 * The PMU's version as ID_AA64DFR0_EL1.PMUVer would give it: PMUv3 and up
 * from ID_DFR0.PerfMon (PMUv3p1 on, the same values); the Armv7 PMU is
 * PMUV3_PMUVER_ARMV7, programmed as PMUv3 (32-bit counters)
 */
static inline uint perfrec_arch_pmuver(void)
{
	uint perfmon = FIELD_GET(CPU_ID_DFR0_PERFMON, read_id_dfr0());

	switch (perfmon) {
	case CPU_PERFMON_IMPDEF:
		return PMUV3_PMUVER_IMPDEF;
	case CPU_PERFMON_V2:
		return PMUV3_PMUVER_ARMV7;
	case CPU_PERFMON_V3:
		return PMUV3_PMUVER_V3;
	default:
		return perfmon > CPU_PERFMON_V3 ? perfmon : PMUV3_PMUVER_NI;
	}
}

/*
 * Whether the CPU has the generic timer, which timestamps and cpu-clock
 * count: where it has not, its registers are undefined
 */
static inline bool perfrec_arch_has_timer(void)
{
	return FIELD_GET(CPU_ID_PFR1_GENTIMER, read_id_pfr1());
}

/*
 * The physical timer of EL @el: PL1's CNTP (in Monitor mode the Secure
 * one) or Hyp's CNTHP; its registers' names, for snapshots
 */
static inline u64 perfrec_arch_timer_ctl(uint el)
{
	return el == 2 ? read_cnthp_ctl_el2() : read_cntp_ctl_el0();
}

static inline void perfrec_arch_timer_set_ctl(uint el, u64 val)
{
	if (el == 2)
		write_cnthp_ctl_el2(val);
	else
		write_cntp_ctl_el0(val);
}

static inline u64 perfrec_arch_timer_cval(uint el)
{
	return el == 2 ? read_cnthp_cval_el2() : read_cntp_cval_el0();
}

/* IRQ context: the next deadline */
static inline notrace void perfrec_arch_timer_set_cval(uint el, u64 cval)
{
	if (el == 2)
		write_cnthp_cval_el2(cval);
	else
		write_cntp_cval_el0(cval);
}

static inline const char *perfrec_arch_timer_name(uint el, bool cval)
{
	if (el == 2)
		return cval ? "CNTHP_CVAL" : "CNTHP_CTL";

	return cval ? "CNTP_CVAL" : "CNTP_CTL";
}

#endif /* __PERFREC_ARCH_H */
