// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's GIC in the device tree: reach its registers
 *
 * The interrupt parent of the PMU or timer node must be a GICv2, a GICv3 or
 * the BCM2836 local controller, whose node names the blocks perfrec reads
 * (the rules, without the hardware, are perfrec_dt_irq.c's). Its register
 * blocks come from its "reg",
 * the redistributor of this CPU from the GICv3's frames (by MPIDR
 * affinity), and what U-Boot's MMU map leaves out of them is mapped for the
 * session (perfrec_mmu.c) and given back by perfrec_gic_put(). A block
 * where nothing answers is an error, not an abort. Programming the GIC is
 * perfrec_gic.c's; the table of operations that makes GICv2 and GICv3 one
 * of perfrec's controllers (perfrec_gic_ctlr) is here, as the GIC's find.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <mapmem.h>
#include <asm/gic.h>
#include <asm/io.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/bitfield.h>
#include <linux/sizes.h>
#include "perfrec_cpu.h"
#include "perfrec_ctlr_ops.h"
#include <perfrec_dt.h>
#include "perfrec_dt_irq.h"
#include "perfrec_gic.h"
#include "perfrec_mmu.h"

/* GICD (the security state, the lines), GICR (v3: its frames) */
#define PERFREC_GICD_CTLR_DS		BIT(6)	/* v3: single security state */
#define PERFREC_GICD_TYPER_ITLINES	GENMASK(4, 0)
#define PERFREC_GICR_TYPER_VLPIS	BIT(1)
#define PERFREC_GICR_TYPER_LAST		BIT(4)
#define PERFREC_GICR_TYPER_AFF		GENMASK_ULL(63, 32)
#define PERFREC_GICR_FRAME		SZ_128K	/* RD_base + SGI_base */
#define PERFREC_GICR_MAX_REGIONS	8
#define PERFREC_GICR_MAX_FRAMES		512

/*
 * Make one register block of the GIC reachable: map what U-Boot's MMU map
 * leaves out of it (until perfrec_gic_put()), then read the register at
 * @probe_off with a guard, so that a block where nothing answers is an
 * error and not an abort. @gic->fault names the block on error.
 */
int perfrec_gic_reach(struct perfrec_gic *gic, const char *block, fdt_addr_t base,
		      fdt_size_t size, uint probe_off, void __iomem **regsp)
{
	struct perfrec_mmu mmu;
	u32 val;
	int ret;

	gic->fault.block = block;
	gic->fault.start = base;
	gic->fault.end = base + size - 1;
	ret = perfrec_mmu_get(&mmu);
	if (!ret)
		ret = perfrec_mmu_map(&mmu, base, size, &gic->borrow);
	if (ret > 0) {
		perfrec_mmu_sync(&gic->borrow);
	} else if (ret && ret != -ENOENT) {	/* -ENOENT: the MMU is off */
		gic->fault.err = ret;
		return log_msg_ret("map", -EADDRNOTAVAIL);
	}
	*regsp = map_sysmem(base, size);
	if (perfrec_cpu_read_probe(*regsp + probe_off, &val))
		return log_msg_ret("read", -EFAULT);
	gic->fault.block = NULL;

	return 0;
}

void perfrec_gic_fault(const struct perfrec_gic *gic, int err, struct perfrec_irq_report *irq)
{
	switch (err) {
	case -ETIMEDOUT:
		irq->fault = PERFREC_IRQ_STUCK;
		break;
	case -EADDRNOTAVAIL:
		irq->fault = PERFREC_IRQ_UNMAPPED;
		break;
	case -EFAULT:
		irq->fault = PERFREC_IRQ_NO_ANSWER;
		break;
	case -ENOENT:
	case -EPROTONOSUPPORT:
		irq->fault = PERFREC_IRQ_NO_GIC;
		break;
	default:
		irq->fault = PERFREC_IRQ_BAD_GIC;
		break;
	}
	irq->block = gic->fault.block;
	irq->start = gic->fault.start;
	irq->end = gic->fault.end;
	irq->err = gic->fault.err;
	irq->bit = gic->fault.bit;
}

void perfrec_gic_put(struct perfrec_gic *gic)
{
	if (!gic->borrow.nr || gic->borrow.restored)
		return;
	perfrec_mmu_unmap(&gic->borrow);
	perfrec_mmu_sync(&gic->borrow);
}

/* Find the redistributor whose GICR_TYPER affinity is this CPU's MPIDR */
static int perfrec_gicv3_find_rdist(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic)
{
	u64 mpidr = perfrec_cpu_affinity();
	u64 aff = FIELD_GET(CPU_MPIDR_AFF3, mpidr) << 24 |
		  FIELD_GET(CPU_MPIDR_AFF2, mpidr) << 16 |
		  FIELD_GET(CPU_MPIDR_AFF1, mpidr) << 8 |
		  FIELD_GET(CPU_MPIDR_AFF0, mpidr);
	u32 regions = min_t(u32, ctlr->rd_regions, PERFREC_GICR_MAX_REGIONS);
	uint region;

	for (region = 0; region < regions; region++) {
		fdt_size_t size = ctlr->size[1 + region];
		fdt_addr_t base = ctlr->base[1 + region];
		void __iomem *rd;
		ulong off;
		uint frames;

		if (1 + region >= ctlr->nr_regs)
			return -EINVAL;
		/* Without a size, GICR_TYPER.Last ends the region */
		for (off = 0, frames = 0; (!size || off + PERFREC_GICR_FRAME <= size) &&
		     frames < PERFREC_GICR_MAX_FRAMES; frames++) {
			u64 typer;
			int ret;

			ret = perfrec_gic_reach(gic, "redistributor", base + off,
						PERFREC_GICR_FRAME, GICR_TYPER, &rd);
			if (ret)
				return ret;
			typer = perfrec_gic_readq(rd + GICR_TYPER);
			if (FIELD_GET(PERFREC_GICR_TYPER_AFF, typer) == aff) {
				gic->rdist = rd;
				gic->sgi = rd + SZ_64K;
				return 0;
			}
			if (typer & PERFREC_GICR_TYPER_LAST)
				break;
			if (ctlr->rd_stride)
				off += ctlr->rd_stride;
			else
				off += typer & PERFREC_GICR_TYPER_VLPIS ? 2 * PERFREC_GICR_FRAME :
					PERFREC_GICR_FRAME;
		}
	}
	log_debug("no redistributor for MPIDR %llx\n", mpidr);

	return -ENODEV;
}

int perfrec_gic_check_intid(const struct perfrec_gic *gic, uint intid)
{
	return perfrec_gic_dt_intid(gic->version, gic->l1.core, 32 * gic->nr_enable_regs, intid);
}

/* A GIC's find: the distributor and CPU interface (v2), or the redistributor (v3) */
int perfrec_gic_find(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic)
{
	fdt_addr_t dist = ctlr->base[0], cpu;
	fdt_size_t size = ctlr->size[0];
	int ret;

	ret = perfrec_gic_reach(gic, "distributor", dist,
				size ?: perfrec_gic_v3(gic->version) ? SZ_64K : SZ_4K, GICD_TYPER,
				&gic->dist);
	if (ret)
		return ret;
	gic->nr_enable_regs = FIELD_GET(PERFREC_GICD_TYPER_ITLINES,
					readl(gic->dist + GICD_TYPER)) + 1;

	if (perfrec_gic_v2(gic->version)) {
		cpu = ctlr->base[1];
		size = ctlr->size[1];
		ret = perfrec_gic_reach(gic, "CPU interface", cpu, size ?: SZ_8K, GICC_CTLR,
					&gic->cpu);
		if (ret)
			return ret;
		/* Without Security Extensions (or at EL3) the groups are ours */
		gic->may_set_group = perfrec_cpu_el() == 3 ||
				     !(readl(gic->dist + GICD_TYPER) & BIT(10));
		return 0;
	}

	gic->may_set_group = perfrec_cpu_el() == 3 ||
			     (readl(gic->dist + GICD_CTLR) & PERFREC_GICD_CTLR_DS);
	gic->group0 = perfrec_cpu_el() == 3;

	return perfrec_gicv3_find_rdist(ctlr, gic);
}

/* GICv2 and GICv3: one controller, over the distributor code they share */
const struct perfrec_ctlr_ops perfrec_gic_ctlr = {
	.find		= perfrec_gic_find,
	.setup		= perfrec_gic_setup,
	.restore	= perfrec_gic_restore,
	.pending	= perfrec_gic_pending,
	.clear_pending	= perfrec_gic_clear_pending,
	.snapshot	= perfrec_gic_snapshot,
};
