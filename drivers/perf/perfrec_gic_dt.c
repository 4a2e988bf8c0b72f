// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's GIC in the device tree: find it, decode its interrupts, reach its registers
 *
 * The interrupt parent of the PMU or timer node must be a GICv2, a GICv3 or
 * the BCM2836 local controller. Its register blocks come from its "reg",
 * the redistributor of this CPU from the GICv3's frames (by MPIDR
 * affinity), and what U-Boot's MMU map leaves out of them is mapped for the
 * session (perfrec_mmu.c) and given back by perfrec_gic_put(). A block
 * where nothing answers is an error, not an abort. Programming the GIC is
 * perfrec_gic.c's.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <mapmem.h>
#include <perfrec_bcm2836.h>
#include <perfrec_mmu.h>
#include <asm/gic.h>
#include <asm/io.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/bitfield.h>
#include <linux/sizes.h>
#include "perfrec_cpu.h"
#include "perfrec_dt.h"
#include "perfrec_gic.h"

/* GICD (the security state, the lines), GICR (v3: its frames) */
#define PERFREC_GICD_CTLR_DS		BIT(6)	/* v3: single security state */
#define PERFREC_GICD_TYPER_ITLINES	GENMASK(4, 0)
#define PERFREC_GICR_TYPER_VLPIS	BIT(1)
#define PERFREC_GICR_TYPER_LAST		BIT(4)
#define PERFREC_GICR_TYPER_AFF		GENMASK_ULL(63, 32)
#define PERFREC_GICR_FRAME		SZ_128K	/* RD_base + SGI_base */
#define PERFREC_GICR_MAX_REGIONS	8
#define PERFREC_GICR_MAX_FRAMES		512

const char *perfrec_gic_option(uint version)
{
	switch (version) {
	case 2:
		return IS_ENABLED(CONFIG_PERFREC_GICV2) ? NULL : "CONFIG_PERFREC_GICV2";
	case 3:
		return IS_ENABLED(CONFIG_PERFREC_GICV3) ? NULL : "CONFIG_PERFREC_GICV3";
	case PERFREC_GIC_BCM2836:
		return IS_ENABLED(CONFIG_PERFREC_BCM2836) ? NULL : "CONFIG_PERFREC_BCM2836";
	default:
		return NULL;
	}
}

int perfrec_gic_parent_check(ofnode parent, uint version)
{
	if (!ofnode_valid(parent))
		return -ENOENT;
	if (!version)
		return -EPROTONOSUPPORT;

	return perfrec_gic_option(version) ? -ENOSYS : 0;
}

/*
 * Make one register block of the GIC reachable: map what U-Boot's MMU map
 * leaves out of it (until perfrec_gic_put()), then read the register at
 * @probe_off with a guard, so that a block where nothing answers is an
 * error and not an abort. @gic->fault names the block on error.
 */
static int perfrec_gic_reach(struct perfrec_gic *gic, const char *block, fdt_addr_t base,
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
			typer = readq(rd + GICR_TYPER);
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

/* PPIs: INTIDs 16-31; SPIs: 32-1019 */
#define PERFREC_GIC_PPI_BASE		16
#define PERFREC_GIC_NR_PPI		16
#define PERFREC_GIC_NR_SPI		988

/* Sources of the BCM2836 local controller: 0-11 (the local timer is 11) */
#define PERFREC_BCM2836_NR_SOURCES	12

uint perfrec_gic_cells(uint version)
{
	return perfrec_gic_bcm2836(version) ? PERFREC_DT_IRQ_CELLS_BCM2836 : PERFREC_DT_IRQ_CELLS;
}

/* Cell @idx of an "interrupts" property of @len bytes, into @val; false if there is none */
static bool perfrec_dt_cell(const fdt32_t *irqs, int len, uint idx, u32 *val)
{
	if (!irqs || (idx + 1) * sizeof(*irqs) > len)
		return false;
	*val = fdt32_to_cpu(irqs[idx]);

	return true;
}

/* <source flags>: each source is a core's own, as a GIC's PPI */
static int perfrec_bcm2836_dt_irq(const fdt32_t *irqs, int len, uint idx,
				  struct perfrec_dt_irq *irq)
{
	idx *= PERFREC_DT_IRQ_CELLS_BCM2836;
	irq->type = PERFREC_DT_IRQ_TYPE_PPI;
	if (!perfrec_dt_cell(irqs, len, idx, &irq->intid) ||
	    !perfrec_dt_cell(irqs, len, idx + 1, &irq->flags))
		return -ENXIO;

	return irq->intid < PERFREC_BCM2836_NR_SOURCES ? 0 : -EPROTONOSUPPORT;
}

int perfrec_gic_dt_irq(const fdt32_t *irqs, int len, uint cells, uint idx,
		       struct perfrec_dt_irq *irq)
{
	u32 num;

	if (cells == PERFREC_DT_IRQ_CELLS_BCM2836)
		return perfrec_bcm2836_dt_irq(irqs, len, idx, irq);
	idx *= PERFREC_DT_IRQ_CELLS;
	irq->type = U32_MAX;
	if (!perfrec_dt_cell(irqs, len, idx, &irq->type) ||
	    !perfrec_dt_cell(irqs, len, idx + 1, &num) ||
	    !perfrec_dt_cell(irqs, len, idx + 2, &irq->flags))
		return -ENXIO;
	if (irq->type == PERFREC_DT_IRQ_TYPE_PPI && num < PERFREC_GIC_NR_PPI)
		irq->intid = PERFREC_GIC_PPI_BASE + num;
	else if (irq->type == PERFREC_DT_IRQ_TYPE_SPI && num < PERFREC_GIC_NR_SPI)
		irq->intid = PERFREC_GIC_SPI_BASE + num;
	else
		return -EPROTONOSUPPORT;

	return 0;
}

int perfrec_gic_check_intid(const struct perfrec_gic *gic, uint intid)
{
	if (perfrec_gic_bcm2836(gic->version))
		return perfrec_bcm2836_check(gic->l1.core, intid) ? -EPROTONOSUPPORT : 0;

	return intid < 32 * gic->nr_enable_regs && intid < PERFREC_GIC_INTID_SPECIAL ? 0 :
	       -EPROTONOSUPPORT;
}

/* The distributor and CPU interface (v2), or the redistributor (v3), found and reachable */
static int perfrec_gic_find(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic)
{
	fdt_addr_t dist, cpu;
	fdt_size_t size;
	int ret;

	ret = perfrec_gic_parent_check(ctlr->node, ctlr->version);
	if (ret)
		return log_msg_ret("parent", ret);
	gic->version = ctlr->version;
	if (!ctlr->nr_regs)
		return log_msg_ret("dist", -EINVAL);
	dist = ctlr->base[0];
	size = ctlr->size[0];
	if (perfrec_gic_bcm2836(gic->version)) {
		gic->l1.core = FIELD_GET(CPU_MPIDR_AFF0, perfrec_cpu_affinity());
		if (gic->l1.core >= PERFREC_BCM2836_CORES)
			return log_msg_ret("core", -ENODEV);
		ret = perfrec_gic_reach(gic, "registers", dist, size ?: SZ_256, 0,
					&gic->dist);
		if (ret)
			return ret;
		gic->l1.base = gic->dist;
		gic->cpu = perfrec_bcm2836_source(gic->dist, gic->l1.core);
		return 0;
	}
	ret = perfrec_gic_reach(gic, "distributor", dist,
				size ?: perfrec_gic_v3(gic->version) ? SZ_64K : SZ_4K, GICD_TYPER,
				&gic->dist);
	if (ret)
		return ret;
	gic->nr_enable_regs = FIELD_GET(PERFREC_GICD_TYPER_ITLINES,
					readl(gic->dist + GICD_TYPER)) + 1;

	if (perfrec_gic_v2(gic->version)) {
		if (ctlr->nr_regs < 2)
			return log_msg_ret("cpu", -EINVAL);
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

int perfrec_gic_from_dt(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic)
{
	memset(gic, 0, sizeof(*gic));
	gic->dt_err = perfrec_gic_find(ctlr, gic);
	if (gic->dt_err)
		perfrec_gic_put(gic);

	return gic->dt_err;
}
