// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the CPU's own state on 32-bit Arm: vectors, interrupt masks and routing per mode
 *
 * In SVC mode (PL1, perfrec's EL1) the table is VBAR's and IRQs come as
 * they are. In Hyp mode (EL2), where U-Boot stays when it starts there, it
 * is HVBAR's, and a physical IRQ is taken there only with HCR.IMO. Every
 * change is saved first and given back by the reverse call.
 *
 * U-Boot's 32-bit MMU map covers all 4 GiB (mmu_setup() in
 * arch/arm/lib/cache-cp15.c): perfrec never has a hole to map there, and
 * perfrec_mmu_get() says the walk is not needed.
 */

#include <errno.h>
#include <perfrec.h>
#include <perfrec_snapshot.h>
#include <asm/system.h>
#include <linux/kernel.h>
#include "perfrec_cpu.h"
#include "perfrec_mmu.h"
#include "perfrec_vectors.h"
#include "pmuv3_events.h"

/* PMCEID<n + 2> is PMCEID<n>_EL0[63:32] (PMUv3p1 on) */
#define PERFREC_PMCEID_HIGH	2

/* U-Boot's entries, for perfrec_vectors.S: the replaced table's eight */
ulong perfrec_vectors_uboot[8];

static u64 perfrec_read_vbar(void)
{
	return perfrec_cpu_el() == 2 ? read_hvbar() : read_vbar();
}

static void perfrec_write_vbar(u64 val)
{
	if (perfrec_cpu_el() == 2)
		write_hvbar(val);
	else
		write_vbar(val);
	isb();	/* the new table is in use before an exception can be taken */
}

static char *perfrec_vectors_for_el(void)
{
	return perfrec_cpu_el() == 2 ? perfrec_vectors_hyp : perfrec_vectors_svc;
}

bool perfrec_cpu_vectors_ours(bool boot)
{
	return perfrec_cpu_el_built() && perfrec_read_vbar() == (ulong)perfrec_vectors_for_el();
}

u64 perfrec_cpu_switch_vectors(bool boot)
{
	u64 old = perfrec_read_vbar();
	uint i;

	if (old != (ulong)perfrec_vectors_for_el()) {
		for (i = 0; i < ARRAY_SIZE(perfrec_vectors_uboot); i++)
			perfrec_vectors_uboot[i] = old + 4 * i;
	}
	perfrec_write_vbar((ulong)perfrec_vectors_for_el());

	return old;
}

void perfrec_cpu_snapshot(struct perfrec_snapshot *snap)
{
	if (perfrec_cpu_el() == 2) {
		perfrec_snap_add(snap, "HVBAR", -1, read_hvbar());
		perfrec_snap_add(snap, "CPSR.AIF", -1, read_irq_masks());
		perfrec_snap_add(snap, "HCR", -1, read_hcr());
		perfrec_snap_add(snap, "HDCR", -1, read_hdcr());
	} else {
		perfrec_snap_add(snap, "VBAR", -1, read_vbar());
		perfrec_snap_add(snap, "CPSR.AIF", -1, read_irq_masks());
	}
}

void perfrec_cpu_take(struct perfrec_cpu *cpu, bool boot)
{
	cpu->vbar = perfrec_cpu_switch_vectors(boot);
	if (perfrec_cpu_el() == 2) {
		/* Physical IRQs are taken in Hyp mode only with HCR.IMO */
		cpu->hcr = read_hcr();
		write_hcr(cpu->hcr | CPU_HCR_IMO);
		isb();	/* routing in effect before the interrupt can arrive */
	}
}

void perfrec_cpu_unmask(bool fiq)
{
	if (fiq)
		asm volatile("cpsie if" : : : "memory");
	else
		asm volatile("cpsie i" : : : "memory");
}

void perfrec_cpu_block(void)
{
	asm volatile("cpsid if" : : : "memory");
}

void perfrec_cpu_give_back(const struct perfrec_cpu *cpu)
{
	if (perfrec_cpu_el() == 2) {
		write_hcr(cpu->hcr);
		isb();	/* routing restored before the vectors change */
	}
	perfrec_write_vbar(cpu->vbar);
}

int perfrec_mmu_get(struct perfrec_mmu *mmu)
{
	return -ENOENT;
}

void perfrec_mmu_sync(const struct perfrec_mmu_borrow *borrow)
{
}

/*
 * AArch32's PMCEID0 and PMCEID1 (c9, c12, 6 and 7) and, from PMUv3p1 on,
 * their high halves PMCEID2 and PMCEID3 (c9, c14, 4 and 5: events
 * 0x4000-0x403f), each read with this EL's vectors catching an undefined
 * instruction
 */
u64 perfrec_cpu_read_pmceid(uint n)
{
	u32 low, high = 0;
	uint version;
	u64 vbar;

	/* An EL this build leaves out has no vectors to install: nothing is read */
	if (!perfrec_cpu_el_built())
		return 0;
	version = perfrec_arch_pmuver();
	vbar = perfrec_cpu_switch_vectors(false);
	if (perfrec_probe_pmceid(n, &low))
		low = 0;
	/* PMCEID2 and 3 exist from PMUv3p1 on */
	if (version >= PMUV3_EVENTS_HIGH_VERSION && version != PMUV3_PMUVER_IMPDEF &&
	    perfrec_probe_pmceid(n + PERFREC_PMCEID_HIGH, &high))
		high = 0;
	perfrec_write_vbar(vbar);

	return pmuv3_pmceid_aarch32(low, high, version);
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
