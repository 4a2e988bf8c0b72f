// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the CPU's own state: vectors, interrupt masks and routing per EL
 *
 * Everything that depends on the EL U-Boot runs at is here (perfrec_cpu_el()
 * in perfrec_cpu.h says which, among those perfrec is built for): which
 * VBAR_ELx and vector table, and what routes a physical interrupt to that EL
 * (HCR_EL2.IMO at EL2; SCR_EL3.IRQ/FIQ at EL3, with MDCR_EL3.SPME so that
 * the counters count in Secure state). Every change is saved first and
 * given back by the reverse call.
 */

#include <cpu_func.h>
#include <errno.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <asm/cache.h>
#include <asm/system.h>
#include <linux/bitfield.h>
#include <linux/kernel.h>
#include "perfrec_cpu.h"
#include "perfrec_mmu.h"
#include "perfrec_vectors.h"

static u64 perfrec_read_vbar(void)
{
	switch (perfrec_cpu_el()) {
	case 3:
		return read_vbar_el3();
	case 2:
		return read_vbar_el2();
	default:
		return read_vbar_el1();
	}
}

static void perfrec_write_vbar(u64 val)
{
	switch (perfrec_cpu_el()) {
	case 3:
		write_vbar_el3(val);
		break;
	case 2:
		write_vbar_el2(val);
		break;
	default:
		write_vbar_el1(val);
		break;
	}
	isb();	/* the new table is in use before an exception can be taken */
}

/*
 * A boot recording's tables are built with CONFIG_PERFREC_BOOT only, and an
 * EL's with its option: without them, no reference is left
 */
static char *perfrec_vectors_for_el(bool boot)
{
	boot = IS_ENABLED(CONFIG_PERFREC_BOOT) && boot;
	switch (perfrec_cpu_el()) {
	case 3:
		return boot ? perfrec_boot_vectors_el3 : perfrec_vectors_el3;
	case 2:
		return boot ? perfrec_boot_vectors_el2 : perfrec_vectors_el2;
	default:
		return boot ? perfrec_boot_vectors_el1 : perfrec_vectors_el1;
	}
}

bool perfrec_cpu_vectors_ours(bool boot)
{
	return perfrec_cpu_el_built() &&
	       perfrec_read_vbar() == (ulong)perfrec_vectors_for_el(boot);
}

u64 perfrec_cpu_switch_vectors(bool boot)
{
	u64 old = perfrec_read_vbar();

	perfrec_write_vbar((ulong)perfrec_vectors_for_el(boot));

	return old;
}

void perfrec_cpu_snapshot(struct perfrec_snapshot *snap)
{
	uint el = perfrec_cpu_el();

	perfrec_snap_add(snap, "VBAR_EL%d", el, perfrec_read_vbar());
	perfrec_snap_add(snap, "DAIF", -1, read_daif());
	if (el == 2) {
		perfrec_snap_add(snap, "HCR_EL2", -1, read_hcr_el2());
		perfrec_snap_add(snap, "MDCR_EL2", -1, read_mdcr_el2());
	} else if (el == 3) {
		perfrec_snap_add(snap, "SCR_EL3", -1, read_scr_el3());
		perfrec_snap_add(snap, "MDCR_EL3", -1, read_mdcr_el3());
	}
}

void perfrec_cpu_take(struct perfrec_cpu *cpu, bool boot)
{
	cpu->vbar = perfrec_cpu_switch_vectors(boot);
	if (perfrec_cpu_el() == 2) {
		/* Physical IRQs are taken at EL2 only with HCR_EL2.IMO */
		cpu->hcr = read_hcr_el2();
		write_hcr_el2(cpu->hcr | CPU_HCR_EL2_IMO);
		isb();	/* routing in effect before the interrupt can arrive */
	} else if (perfrec_cpu_el() == 3) {
		/*
		 * EL3 takes physical interrupts only if they are routed to it
		 * (GICv2 signals ours as an IRQ, GICv3 as an FIQ), and event
		 * counters count in Secure state only with MDCR_EL3.SPME
		 */
		cpu->scr = read_scr_el3();
		cpu->mdcr = read_mdcr_el3();
		write_scr_el3(cpu->scr | CPU_SCR_EL3_IRQ | CPU_SCR_EL3_FIQ);
		write_mdcr_el3(cpu->mdcr | CPU_MDCR_EL3_SPME);
		isb();	/* routing and counting in effect before the counters start */
	}
}

void perfrec_cpu_unmask(bool fiq)
{
	if (fiq)
		asm volatile("msr daifclr, #3" : : : "memory");	/* unmask IRQ, FIQ */
	else
		asm volatile("msr daifclr, #2" : : : "memory");	/* unmask IRQ */
}

void perfrec_cpu_block(void)
{
	asm volatile("msr daifset, #3" : : : "memory");	/* mask IRQ, FIQ */
}

void perfrec_cpu_give_back(const struct perfrec_cpu *cpu)
{
	if (perfrec_cpu_el() == 2) {
		write_hcr_el2(cpu->hcr);
		isb();	/* routing restored before the vectors change */
	} else if (perfrec_cpu_el() == 3) {
		write_mdcr_el3(cpu->mdcr);
		write_scr_el3(cpu->scr);
		isb();	/* routing restored before the vectors change */
	}
	perfrec_write_vbar(cpu->vbar);
}

int perfrec_mmu_get(struct perfrec_mmu *mmu)
{
	u64 sctlr, ttbr, tcr, mair;
	uint i;

	switch (perfrec_cpu_el()) {
	case 3:
		sctlr = read_sctlr_el3();
		ttbr = read_ttbr0_el3();
		tcr = read_tcr_el3();
		mair = read_mair_el3();
		break;
	case 2:
		sctlr = read_sctlr_el2();
		ttbr = read_ttbr0_el2();
		tcr = read_tcr_el2();
		mair = read_mair_el2();
		break;
	default:
		sctlr = read_sctlr_el1();
		ttbr = read_ttbr0_el1();
		tcr = read_tcr_el1();
		mair = read_mair_el1();
		break;
	}
	if (!(sctlr & CPU_SCTLR_M))
		return -ENOENT;
	if (FIELD_GET(CPU_TCR_TG0, tcr) != CPU_TCR_TG0_4K)
		return -EOPNOTSUPP;
	mmu->root = (u64 *)(uintptr_t)(ttbr & CPU_TTBR_BADDR);
	mmu->va_bits = 64 - FIELD_GET(CPU_TCR_T0SZ, tcr);
	mmu->device_attr = -1;
	for (i = 0; i < CPU_MAIR_NR_ATTRS && mmu->device_attr < 0; i++) {
		if (FIELD_GET(CPU_MAIR_ATTR, mair >> (8 * i)) == CPU_MAIR_DEVICE_NGNRNE)
			mmu->device_attr = i;
	}

	return 0;
}

void perfrec_mmu_sync(const struct perfrec_mmu_borrow *borrow)
{
	uint i;

	for (i = 0; i < borrow->nr; i++) {
		ulong desc = (ulong)borrow->change[i].desc;

		/* The walk may not look in the data cache */
		flush_dcache_range(ALIGN_DOWN(desc, ARCH_DMA_MINALIGN),
				   ALIGN(desc + sizeof(u64), ARCH_DMA_MINALIGN));
	}
	__asm_invalidate_tlb_all();	/* dsb and isb included */
}

u64 perfrec_cpu_read_pmceid(uint n)
{
	return n ? read_pmceid1() : read_pmceid0();
}

int perfrec_cpu_read_probe(const void __iomem *addr, u32 *valp)
{
	u64 vbar;
	int ret;

	/* An EL this build leaves out has no vectors to install: nothing is read */
	if (!perfrec_cpu_el_built())
		return -EPERM;
	vbar = perfrec_cpu_switch_vectors(false);
	ret = perfrec_probe_read32(addr, valp);
	perfrec_write_vbar(vbar);

	return ret ? -EFAULT : 0;
}
