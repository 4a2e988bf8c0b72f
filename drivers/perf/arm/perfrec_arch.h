/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec on 32-bit Arm: the one header through which the rest reaches the CPU
 *
 * The architecture's seam (see drivers/perf/arm64/perfrec_arch.h): the
 * shared code reaches the registers by names neither architecture owns
 * (read_pmcr(), read_irq_masks(), ...), which here are the AArch32
 * registers through cp15 (Arm ARM G8), and the exception level by
 * perfrec_arch_el(): PL1 (SVC) is 1, Hyp mode 2, Monitor mode 3. This
 * directory's own code names the AArch32 registers (HVBAR, HCR, CPSR).
 * perfrec is not built for Monitor mode here (CONFIG_PERFREC_EL3 is
 * AArch64's): of its registers there is only ICC_MCTLR, which the shared
 * GICv3 code names at an EL it never reaches on 32-bit Arm.
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
/* ID_PFR1.Security: the Security Extensions (Secure and Non-secure state) */
#define CPU_ID_PFR1_SECURITY		GENMASK(7, 4)

/* CPSR: the interrupt masks and the mode */
#define CPU_CPSR_A			BIT(8)
#define CPU_CPSR_I			BIT(7)
#define CPU_CPSR_F			BIT(6)
#define CPU_CPSR_AIF			(CPU_CPSR_A | CPU_CPSR_I | CPU_CPSR_F)
#define CPU_CPSR_MODE			GENMASK(4, 0)
#define CPU_CPSR_MODE_MON		0x16
#define CPU_CPSR_MODE_HYP		0x1a

/* The interrupt masks, read_irq_masks(): CPSR's I and F */
#define CPU_MASK_IRQ			CPU_CPSR_I
#define CPU_MASK_FIQ			CPU_CPSR_F

/* HCR: physical IRQs taken to Hyp mode */
#define CPU_HCR_IMO			BIT(4)

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
/* MIDR, MPIDR (U-Boot's read_midr() and read_mpidr() are not everywhere) */
PERFREC_CP15_RO(cpu_midr, 0, c0, c0, 0)
PERFREC_CP15_RO(cpu_mpidr, 0, c0, c0, 5)
/* CBAR: a Cortex-A9 MPCore's PERIPHBASE, its private region (no other core's) */
PERFREC_CP15_RO(cbar, 4, c15, c0, 0)
PERFREC_CP15_RO(cntfrq, 0, c14, c0, 0)
PERFREC_CP15_64_RO(cntpct, 0, c14)

PERFREC_CP15_RW(pmcr, 0, c9, c12, 0)
PERFREC_CP15_RW(pmcntenset, 0, c9, c12, 1)
PERFREC_CP15_RW(pmcntenclr, 0, c9, c12, 2)
PERFREC_CP15_RW(pmovsclr, 0, c9, c12, 3)
PERFREC_CP15_RW(pmswinc, 0, c9, c12, 4)
PERFREC_CP15_RW(pmselr, 0, c9, c12, 5)
PERFREC_CP15_RW(pmccntr, 0, c9, c13, 0)
PERFREC_CP15_RW(pmxevtyper, 0, c9, c13, 1)
PERFREC_CP15_RW(pmxevcntr, 0, c9, c13, 2)
PERFREC_CP15_RW(pmuserenr, 0, c9, c14, 0)
PERFREC_CP15_RW(pmintenset, 0, c9, c14, 1)
PERFREC_CP15_RW(pmintenclr, 0, c9, c14, 2)
PERFREC_CP15_RW(pmovsset, 0, c9, c14, 3)

/* VBAR, HVBAR; HCR; HDCR */
PERFREC_CP15_RW(vbar, 0, c12, c0, 0)
PERFREC_CP15_RW(hvbar, 4, c12, c0, 0)
PERFREC_CP15_RW(hcr, 4, c1, c1, 0)
PERFREC_CP15_RW(hdcr, 4, c1, c1, 1)

/* The timers: PL1 physical (CNTP, the Secure one in Monitor mode), Hyp (CNTHP) */
PERFREC_CP15_RW(cntp_ctl, 0, c14, c2, 1)
PERFREC_CP15_64_RW(cntp_cval, 2, c14)
PERFREC_CP15_RW(cnthp_ctl, 4, c14, c2, 1)
PERFREC_CP15_64_RW(cnthp_cval, 6, c14)

/* GICv3's CPU interface: ICC_SRE, ICC_HSRE and the rest */
PERFREC_CP15_RW(icc_sre, 0, c12, c12, 5)
PERFREC_CP15_RW(icc_hsre, 4, c12, c9, 5)
PERFREC_CP15_RW(icc_igrpen0, 0, c12, c12, 6)
PERFREC_CP15_RW(icc_igrpen1, 0, c12, c12, 7)
PERFREC_CP15_RO(icc_iar0, 0, c12, c8, 0)
PERFREC_CP15_RW(icc_eoir0, 0, c12, c8, 1)
PERFREC_CP15_RO(icc_iar1, 0, c12, c12, 0)
PERFREC_CP15_RW(icc_eoir1, 0, c12, c12, 1)
PERFREC_CP15_RW(icc_pmr, 0, c4, c6, 0)
PERFREC_CP15_RW(icc_ctlr, 0, c12, c12, 4)
PERFREC_CP15_RW(icc_mctlr, 6, c12, c12, 4)

/* The interrupt masks: CPSR's A, I and F; writing them keeps the mode */
static inline u64 read_irq_masks(void)
{
	u32 cpsr;

	asm volatile("mrs %0, cpsr" : "=r" (cpsr) : : "memory");

	return cpsr & CPU_CPSR_AIF;
}

static inline void write_irq_masks(u64 val)
{
	u32 cpsr;

	asm volatile("mrs %0, cpsr" : "=r" (cpsr) : : "memory");
	cpsr = (cpsr & ~CPU_CPSR_AIF) | (val & CPU_CPSR_AIF);
	asm volatile("msr cpsr_cx, %0" : : "r" (cpsr) : "memory");
}

/* ICC_SRE of the mode of EL @el: ICC_HSRE in Hyp mode, else ICC_SRE */
static inline u64 perfrec_arch_icc_sre(uint el)
{
	return el == 2 ? read_icc_hsre() : read_icc_sre();
}

static inline void perfrec_arch_set_icc_sre(uint el, u64 val)
{
	if (el == 2)
		write_icc_hsre(val);
	else
		write_icc_sre(val);
}

/*
 * PMCCFILTR and the event counters through PMSELR (the ARMv7 PMU has no
 * direct encodings). The IRQ path may interrupt a slow path between its
 * PMSELR write and its access, so these put PMSELR back as it was.
 */
static inline u64 perfrec_arch_pmsel_read(uint idx, bool type)
{
	u64 sel = read_pmselr(), val;

	write_pmselr(idx);
	isb();
	val = type ? read_pmxevtyper() : read_pmxevcntr();
	write_pmselr(sel);

	return val;
}

static inline void perfrec_arch_pmsel_write(uint idx, bool type, u64 val)
{
	u64 sel = read_pmselr();

	write_pmselr(idx);
	isb();
	if (type)
		write_pmxevtyper(val);
	else
		write_pmxevcntr(val);
	write_pmselr(sel);
}

static inline u64 read_pmccfiltr(void)
{
	return perfrec_arch_pmsel_read(PERFREC_CYCLE_COUNTER, true);
}

static inline void write_pmccfiltr(u64 val)
{
	perfrec_arch_pmsel_write(PERFREC_CYCLE_COUNTER, true, val);
}

static inline u64 read_pmevcntrn(uint idx)
{
	return perfrec_arch_pmsel_read(idx, false);
}

static inline void write_pmevcntrn(uint idx, u64 val)
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
	return read_cpu_mpidr() & (CPU_MPIDR_AFF2 | CPU_MPIDR_AFF1 | CPU_MPIDR_AFF0);
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
 * Whether U-Boot may run in Secure state at EL @el without knowing it: in
 * SVC on a CPU with the Security Extensions, where no register says which
 * state it is (SCR is undefined in Non-secure state). Monitor mode is
 * always Secure, Hyp never.
 */
static inline bool perfrec_arch_may_be_secure(uint el)
{
	return el == 1 && FIELD_GET(CPU_ID_PFR1_SECURITY, read_id_pfr1());
}

/*
 * The physical timer of EL @el: PL1's CNTP (in Monitor mode the Secure
 * one) or Hyp's CNTHP; its registers' names, for snapshots
 */
static inline u64 perfrec_arch_timer_ctl(uint el)
{
	return el == 2 ? read_cnthp_ctl() : read_cntp_ctl();
}

static inline void perfrec_arch_timer_set_ctl(uint el, u64 val)
{
	if (el == 2)
		write_cnthp_ctl(val);
	else
		write_cntp_ctl(val);
}

static inline u64 perfrec_arch_timer_cval(uint el)
{
	return el == 2 ? read_cnthp_cval() : read_cntp_cval();
}

/* IRQ context: the next deadline */
static inline notrace void perfrec_arch_timer_set_cval(uint el, u64 cval)
{
	if (el == 2)
		write_cnthp_cval(cval);
	else
		write_cntp_cval(cval);
}

static inline const char *perfrec_arch_timer_name(uint el, bool cval)
{
	if (el == 2)
		return cval ? "CNTHP_CVAL" : "CNTHP_CTL";

	return cval ? "CNTP_CVAL" : "CNTP_CTL";
}

#endif /* __PERFREC_ARCH_H */
