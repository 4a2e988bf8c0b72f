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

static const char *const perfrec_gicv2_compat[] = {
	"arm,gic-400", "arm,cortex-a15-gic", "arm,cortex-a9-gic", "arm,cortex-a7-gic",
	"arm,arm11mp-gic", "arm,eb11mp-gic", "arm,pl390", "arm,tc11mp-gic",
	"qcom,msm-qgic2",
};

/*
 * GICv2 or v3 (or the BCM2836 local controller) by compatible, else 0;
 * built or not
 */
static uint perfrec_gic_version(ofnode gic_node)
{
	uint i;

	if (ofnode_device_is_compatible(gic_node, "arm,gic-v3"))
		return 3;
	if (ofnode_device_is_compatible(gic_node, "brcm,bcm2836-l1-intc"))
		return PERFREC_GIC_BCM2836;
	for (i = 0; i < ARRAY_SIZE(perfrec_gicv2_compat); i++) {
		if (ofnode_device_is_compatible(gic_node, perfrec_gicv2_compat[i]))
			return 2;
	}

	return 0;
}

/* The option a controller of @version needs, if this build leaves it out, else NULL */
static const char *perfrec_gic_left_out(uint version)
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

const char *perfrec_gic_option(ofnode gic_node)
{
	return perfrec_gic_left_out(perfrec_gic_version(gic_node));
}

int perfrec_gic_find_parent(ofnode node, ofnode *parentp)
{
	u32 phandle;
	uint version;

	*parentp = ofnode_null();
	for (; ofnode_valid(node); node = ofnode_get_parent(node)) {
		if (!ofnode_read_u32(node, "interrupt-parent", &phandle)) {
			*parentp = ofnode_get_by_phandle(phandle);
			break;
		}
	}
	if (!ofnode_valid(*parentp))
		return -ENOENT;

	version = perfrec_gic_version(*parentp);
	if (!version)
		return -EPROTONOSUPPORT;

	return perfrec_gic_left_out(version) ? -ENOSYS : 0;
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
static int perfrec_gicv3_find_rdist(ofnode gic_node, struct perfrec_gic *gic)
{
	u64 mpidr = perfrec_cpu_affinity();
	u64 aff = FIELD_GET(CPU_MPIDR_AFF3, mpidr) << 24 |
		  FIELD_GET(CPU_MPIDR_AFF2, mpidr) << 16 |
		  FIELD_GET(CPU_MPIDR_AFF1, mpidr) << 8 |
		  FIELD_GET(CPU_MPIDR_AFF0, mpidr);
	u32 regions = ofnode_read_u32_default(gic_node, "#redistributor-regions", 1);
	u64 stride = ofnode_read_u64_default(gic_node, "redistributor-stride", 0);
	uint region;

	regions = min_t(u32, regions, PERFREC_GICR_MAX_REGIONS);
	for (region = 0; region < regions; region++) {
		fdt_addr_t base = ofnode_get_addr_index(gic_node, 1 + region);
		fdt_size_t size = 0;
		void __iomem *rd;
		ulong off;
		uint frames;

		if (base == FDT_ADDR_T_NONE)
			return -EINVAL;
		/* Without a size, GICR_TYPER.Last ends the region */
		ofnode_get_addr_size_index(gic_node, 1 + region, &size);
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
			if (stride)
				off += stride;
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

uint perfrec_gic_dt_cells(ofnode node)
{
	ofnode parent;

	perfrec_gic_find_parent(node, &parent);

	return ofnode_valid(parent) && perfrec_gic_bcm2836(perfrec_gic_version(parent)) ?
	       PERFREC_DT_IRQ_CELLS_BCM2836 : PERFREC_DT_IRQ_CELLS;
}

/* <source flags>: each source is a core's own, as a GIC's PPI */
static int perfrec_bcm2836_dt_irq(ofnode node, uint idx, struct perfrec_dt_irq *irq)
{
	idx *= PERFREC_DT_IRQ_CELLS_BCM2836;
	irq->type = PERFREC_DT_IRQ_TYPE_PPI;
	if (ofnode_read_u32_index(node, "interrupts", idx, &irq->intid) ||
	    ofnode_read_u32_index(node, "interrupts", idx + 1, &irq->flags))
		return -ENXIO;

	return irq->intid < PERFREC_BCM2836_NR_SOURCES ? 0 : -EPROTONOSUPPORT;
}

int perfrec_gic_dt_irq(ofnode node, uint idx, struct perfrec_dt_irq *irq)
{
	u32 num;

	if (perfrec_gic_dt_cells(node) == PERFREC_DT_IRQ_CELLS_BCM2836)
		return perfrec_bcm2836_dt_irq(node, idx, irq);
	idx *= PERFREC_DT_IRQ_CELLS;
	irq->type = U32_MAX;
	if (ofnode_read_u32_index(node, "interrupts", idx, &irq->type) ||
	    ofnode_read_u32_index(node, "interrupts", idx + 1, &num) ||
	    ofnode_read_u32_index(node, "interrupts", idx + 2, &irq->flags))
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
static int perfrec_gic_find(ofnode node, struct perfrec_gic *gic)
{
	fdt_addr_t dist, cpu;
	fdt_size_t size = 0;
	ofnode gic_node;
	int ret;

	ret = perfrec_gic_find_parent(node, &gic_node);
	if (ret)
		return log_msg_ret("parent", ret);
	gic->version = perfrec_gic_version(gic_node);
	dist = ofnode_get_addr_size_index(gic_node, 0, &size);
	if (dist == FDT_ADDR_T_NONE)
		return log_msg_ret("dist", -EINVAL);
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
		size = 0;
		cpu = ofnode_get_addr_size_index(gic_node, 1, &size);
		if (cpu == FDT_ADDR_T_NONE)
			return log_msg_ret("cpu", -EINVAL);
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

	return perfrec_gicv3_find_rdist(gic_node, gic);
}

int perfrec_gic_from_dt(ofnode node, struct perfrec_gic *gic)
{
	memset(gic, 0, sizeof(*gic));
	gic->dt_err = perfrec_gic_find(node, gic);
	if (gic->dt_err)
		perfrec_gic_put(gic);

	return gic->dt_err;
}
