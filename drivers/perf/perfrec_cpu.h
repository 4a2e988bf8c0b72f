/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the CPU's own state: vectors, interrupt masks and routing per EL
 *
 * Implemented by each architecture (arm64/perfrec_cpu.c, arm/perfrec_cpu.c)
 * over its perfrec_arch.h; what follows from the accessors alone is here.
 */

#ifndef __PERFREC_CPU_H
#define __PERFREC_CPU_H

#include <perfrec_hw.h>
#include <linux/types.h>
#include "perfrec_arch.h"

struct perfrec_snapshot;

/**
 * struct perfrec_cpu - The CPU state a session borrows, as it was before
 * @vbar: VBAR_ELx (on 32-bit Arm VBAR, HVBAR or MVBAR)
 * @masks: the interrupt masks, read_irq_masks() (DAIF; on 32-bit Arm CPSR's
 *	A, I and F)
 * @hcr: HCR_EL2 (at EL2)
 * @scr: SCR_EL3 (at EL3)
 * @mdcr: MDCR_EL3 (at EL3)
 */
struct perfrec_cpu {
	u64 vbar;
	u64 masks;
	u64 hcr;
	u64 scr;
	u64 mdcr;
};

/**
 * perfrec_cpu_el_built() - Is perfrec built for the EL U-Boot runs at?
 *
 * EL2 always; EL1 and EL3 with CONFIG_PERFREC_EL1 and CONFIG_PERFREC_EL3.
 * Nothing reads or writes an EL's registers before this said yes.
 * Return: true if so
 */
static inline bool perfrec_cpu_el_built(void)
{
	uint el = perfrec_arch_el();

	return el == 2 || (el == 1 && IS_ENABLED(CONFIG_PERFREC_EL1)) ||
	       (el == 3 && IS_ENABLED(CONFIG_PERFREC_EL3));
}

/**
 * perfrec_cpu_el() - The EL U-Boot runs at, among those perfrec is built for
 *
 * A build for EL2 alone knows the answer at build time, and drops the
 * other ELs' code. Only after perfrec_cpu_el_built() said yes.
 * Return: 1, 2 or 3
 */
static inline uint perfrec_cpu_el(void)
{
	uint el = perfrec_arch_el();

	if (el == 3 && IS_ENABLED(CONFIG_PERFREC_EL3))
		return 3;
	if (el == 1 && IS_ENABLED(CONFIG_PERFREC_EL1))
		return 1;

	return 2;
}

/* ICC_SRE_ELx of the EL U-Boot runs at: enables the GICv3 system-register interface */
static inline u64 perfrec_cpu_icc_sre(void)
{
	return perfrec_arch_icc_sre(perfrec_cpu_el());
}

static inline void perfrec_cpu_set_icc_sre(u64 val)
{
	perfrec_arch_set_icc_sre(perfrec_cpu_el(), val);
	isb();	/* SRE takes effect before ICC_* are used */
}

/**
 * perfrec_cpu_mask() - Save the interrupt masks, then mask IRQ and FIQ
 * @cpu: returns the masks as they were
 */
static inline void perfrec_cpu_mask(struct perfrec_cpu *cpu)
{
	cpu->masks = read_irq_masks();
	write_irq_masks(cpu->masks | CPU_MASK_IRQ | CPU_MASK_FIQ);
}

/**
 * perfrec_cpu_restore_masks() - Undo perfrec_cpu_mask(): the masks as they were
 * @cpu: the state perfrec_cpu_mask() saved
 */
static inline void perfrec_cpu_restore_masks(const struct perfrec_cpu *cpu)
{
	write_irq_masks(cpu->masks);
}

/**
 * perfrec_cpu_snapshot() - Add the CPU registers perfrec changes to a snapshot
 * @snap: snapshot: VBAR_ELx and the interrupt masks, HCR_EL2 and MDCR_EL2 at EL2, SCR_EL3
 *	and MDCR_EL3 at EL3
 */
void perfrec_cpu_snapshot(struct perfrec_snapshot *snap);

/**
 * perfrec_cpu_take() - Install perfrec's vectors and route interrupts to this EL
 * @cpu: returns VBAR_ELx and the routing registers as they were
 * @boot: install the tables of a boot recording (CONFIG_PERFREC_BOOT), whose
 *	handler finds its state in the boot buffer
 *
 * At EL2 sets HCR_EL2.IMO; at EL3 SCR_EL3.IRQ and FIQ, and MDCR_EL3.SPME so
 * that event counters count in Secure state. Call with interrupts masked.
 */
void perfrec_cpu_take(struct perfrec_cpu *cpu, bool boot);

/* perfrec_cpu_vectors_ours() and perfrec_cpu_switch_vectors(): <perfrec_hw.h> */

/**
 * perfrec_cpu_unmask() - Let the session's interrupt in
 * @fiq: unmask FIQ too (GICv3 group 0 signals as FIQ)
 */
void perfrec_cpu_unmask(bool fiq);

/**
 * perfrec_cpu_block() - Mask IRQ and FIQ, the first step of ending a session
 */
void perfrec_cpu_block(void);

/**
 * perfrec_cpu_give_back() - Undo perfrec_cpu_take(): routing, then VBAR_ELx
 * @cpu: the state perfrec_cpu_take() saved
 */
void perfrec_cpu_give_back(const struct perfrec_cpu *cpu);

/**
 * perfrec_cpu_read_pmceid() - The common events the PMU implements
 * @n: 0 for PMCEID0_EL0's events (0x00-0x3f, and 0x4000-0x401f in its
 *	high half from PMUv3p1 on), 1 for PMCEID1_EL0's
 *
 * On 32-bit Arm, from PMCEID0 to PMCEID3, each read with this EL's vectors
 * catching an undefined instruction (QEMU's Armv7 cores leave them
 * undefined: there, and at an EL this build leaves out, it reads as 0).
 * Return: the register in PMCEID<n>_EL0's layout
 */
u64 perfrec_cpu_read_pmceid(uint n);

/**
 * perfrec_cpu_read_probe() - Read a 32-bit register that may not answer
 * @addr: the register
 * @valp: returns its value
 *
 * A synchronous abort of the read (nothing at the address: an external
 * abort; or a translation fault) is caught by perfrec's vectors, installed
 * for the read, and turned into an error. An SError, which some buses give
 * instead, is not caught. At an EL this build leaves out, whose vectors are
 * not built, nothing is read.
 * Return: 0, -EFAULT if the read aborted, or -EPERM at an EL this build
 * leaves out
 */
int perfrec_cpu_read_probe(const void __iomem *addr, u32 *valp);

#endif /* __PERFREC_CPU_H */
