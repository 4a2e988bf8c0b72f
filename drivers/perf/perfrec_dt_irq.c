// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Which interrupt of a device-tree node perfrec takes, under which controller
 *
 * The device tree's rules alone: the PMU's interrupt for a CPU (a PPI, or
 * its own of the SPIs), the generic timer's for an EL, whether the
 * interrupt parent is a controller perfrec drives and its node names the
 * blocks perfrec reaches. No register is read here: what the CPU is comes
 * in as arguments, so that this file builds for the host too (USE_HOSTCC),
 * where tools/perfrec/perfrec_verdict.c runs it over a board's DTB.
 * Reaching the controller's registers is perfrec_gic_dt.c's.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <perfrec.h>
#include <dm/ofnode.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_bcm2836.h"
#include <perfrec_dt.h>
#include "perfrec_dt_irq.h"

/* PPIs: INTIDs 16-31; SPIs: 32-1019 */
#define PERFREC_GIC_PPI_BASE		16
#define PERFREC_GIC_NR_PPI		16
#define PERFREC_GIC_NR_SPI		988

/* Sources of the BCM2836 local controller: 0-11 (the local timer is 11) */
#define PERFREC_BCM2836_NR_SOURCES	12

/* An affinity's Aff0 field: the core within its cluster */
#define PERFREC_DT_MPIDR_AFF0		GENMASK(7, 0)

/* The timer node's "interrupts" entries: Secure physical, physical, virtual, hypervisor */
#define PERFREC_TIMER_IRQ_SECURE	0
#define PERFREC_TIMER_IRQ_PHYS		1
#define PERFREC_TIMER_IRQ_HYP		3

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

int perfrec_gic_dt_check(const struct perfrec_dt_ctlr *ctlr, u64 affinity)
{
	int ret;

	ret = perfrec_gic_parent_check(ctlr->node, ctlr->version);
	if (ret)
		return ret;
	if (!ctlr->nr_regs)
		return -EINVAL;
	if (perfrec_gic_bcm2836(ctlr->version))
		return (affinity & PERFREC_DT_MPIDR_AFF0) < PERFREC_BCM2836_CORES ? 0 : -ENODEV;
	/* A GICv2's CPU interface, a GICv3's first redistributor region */
	return ctlr->nr_regs < 2 ? -EINVAL : 0;
}

int perfrec_gic_dt_intid(uint version, uint core, uint nr_lines, uint intid)
{
	if (perfrec_gic_bcm2836(version))
		return perfrec_bcm2836_check(core, intid) ? -EPROTONOSUPPORT : 0;
	if (nr_lines && intid >= nr_lines)
		return -EPROTONOSUPPORT;

	return intid < PERFREC_GIC_INTID_SPECIAL ? 0 : -EPROTONOSUPPORT;
}

/* Is @cpu (a /cpus node) the CPU of @affinity? Its "reg" holds the MPIDR affinity */
static bool pmuv3_cpu_is(ofnode cpu, u64 affinity)
{
	const fdt32_t *reg;
	int len;

	reg = ofnode_get_property(cpu, "reg", &len);
	if (reg && len == sizeof(u32))
		return fdt32_to_cpu(reg[0]) == affinity;
	if (reg && len == 2 * sizeof(u32))
		return ((u64)fdt32_to_cpu(reg[0]) << 32 | fdt32_to_cpu(reg[1])) == affinity;

	return false;
}

/*
 * Which of the PMU node's @nr interrupts is the CPU of @affinity's: the one
 * "interrupt-affinity" gives, else the one in its place among the /cpus
 * nodes (the binding's default order), else the only one
 */
static int pmuv3_irq_index(ofnode node, u64 affinity, uint nr)
{
	ofnode cpus, cpu;
	uint i, phandle;
	int idx = 0;

	for (i = 0; !ofnode_read_u32_index(node, "interrupt-affinity", i, &phandle); i++) {
		if (pmuv3_cpu_is(ofnode_get_by_phandle(phandle), affinity))
			return i < nr ? i : -ENODEV;
	}
	if (i)
		return -ENODEV;
	if (nr == 1)
		return 0;
	cpus = ofnode_path("/cpus");
	ofnode_for_each_subnode(cpu, cpus) {
		const char *type = ofnode_read_string(cpu, "device_type");

		if (!type || strcmp(type, "cpu"))
			continue;
		if (pmuv3_cpu_is(cpu, affinity))
			return idx < nr ? idx : -ENODEV;
		idx++;
	}

	return -ENODEV;
}

int pmuv3_read_irq(const struct perfrec_dt_dev *pmu, u64 affinity, uint *intidp,
		   uint *flagsp)
{
	uint cells = perfrec_gic_cells(pmu->parent.version);
	int entry = cells * sizeof(u32);
	int size = pmu->irqs ? pmu->irqs_len : -1;
	struct perfrec_dt_irq irq;
	int idx, ret;

	if (size < entry)
		return -ENXIO;
	/* A PPI is every CPU's own; SPIs come one per CPU */
	idx = pmuv3_irq_index(pmu->node, affinity, size / entry);
	if (perfrec_gic_dt_irq(pmu->irqs, pmu->irqs_len, cells, 0, &irq) == -ENXIO)
		return -ENXIO;
	if (irq.type == PERFREC_DT_IRQ_TYPE_PPI)
		idx = 0;
	else if (idx < 0)
		return idx;
	ret = perfrec_gic_dt_irq(pmu->irqs, pmu->irqs_len, cells, idx, &irq);
	if (ret)
		return ret;
	*intidp = irq.intid;
	*flagsp = irq.flags;

	return 0;
}

static uint perfrec_timer_irq_index(uint el)
{
	switch (el) {
	case 3:
		return PERFREC_TIMER_IRQ_SECURE;
	case 2:
		return PERFREC_TIMER_IRQ_HYP;
	default:
		return PERFREC_TIMER_IRQ_PHYS;
	}
}

int perfrec_timer_dt_irq(const struct perfrec_dt_dev *dev, uint el, struct perfrec_dt_irq *irq)
{
	int ret;

	ret = perfrec_gic_dt_irq(dev->irqs, dev->irqs_len, perfrec_gic_cells(dev->parent.version),
				 perfrec_timer_irq_index(el), irq);
	if (ret == -ENXIO)
		return ret;
	if (ret || irq->type != PERFREC_DT_IRQ_TYPE_PPI)
		return -EPROTONOSUPPORT;

	return 0;
}

/*
 * Is @dev's interrupt parent a GIC (or the BCM2836 local controller)? If
 * not, say which controller it is (or that there is none) in @irq
 */
static int perfrec_dt_check_parent(const struct perfrec_dt_dev *dev,
				   struct perfrec_irq_report *irq)
{
	const struct perfrec_dt_ctlr *parent = &dev->parent;
	const char *compat;
	int ret;

	ret = perfrec_gic_parent_check(parent->node, parent->version);
	irq->local = ofnode_valid(parent->node) &&
		     perfrec_gic_cells(parent->version) == PERFREC_DT_IRQ_CELLS_BCM2836;
	if (!ret)
		return 0;
	irq->fault = PERFREC_IRQ_NO_GIC;
	if (ret == -ENOSYS) {
		irq->fault = PERFREC_IRQ_LEFT_OUT;
		irq->block = perfrec_gic_option(parent->version);
	}
	if (ofnode_valid(parent->node)) {
		if (ofnode_get_path(parent->node, irq->parent, sizeof(irq->parent)))
			strlcpy(irq->parent, ofnode_get_name(parent->node), sizeof(irq->parent));
		compat = ofnode_read_string(parent->node, "compatible");
		strlcpy(irq->compat, compat ?: "", sizeof(irq->compat));
	}

	return ret;
}

/* The PMU's interrupt for the CPU of @affinity; say why not in @irq */
static int perfrec_dt_pmu_irq(const struct perfrec_dt_dev *pmu, u64 affinity,
			      struct perfrec_dt_irq *dtirq, struct perfrec_irq_report *irq)
{
	int ret;

	/* An empty PMU node's path, if the tree has one */
	strlcpy(irq->node, pmu->path, sizeof(irq->node));
	if (!ofnode_valid(pmu->node)) {
		irq->fault = PERFREC_IRQ_NO_NODE;
		return -ENOENT;
	}
	/* The specifier's form is the parent's: only a GIC's is known */
	if (perfrec_dt_check_parent(pmu, irq))
		return -ENXIO;
	dtirq->type = PERFREC_DT_IRQ_TYPE_PPI;
	ret = pmuv3_read_irq(pmu, affinity, &dtirq->intid, &dtirq->flags);
	if (ret) {
		irq->fault = ret == -EPROTONOSUPPORT ? PERFREC_IRQ_BAD_SPEC :
			     ret == -ENODEV ? PERFREC_IRQ_NO_CPU : PERFREC_IRQ_NO_PROP;
		return ret == -EPROTONOSUPPORT ? ret : -ENXIO;
	}
	irq->intid = dtirq->intid;

	return 0;
}

/* The generic timer's interrupt for @el; say why not in @irq */
static int perfrec_dt_timer_irq(const struct perfrec_dt_dev *dev, uint el,
				struct perfrec_dt_irq *dtirq, struct perfrec_irq_report *irq)
{
	int ret;

	irq->el = el;
	if (!ofnode_valid(dev->node)) {
		irq->fault = PERFREC_IRQ_NO_NODE;
		return -ENOENT;
	}
	strlcpy(irq->node, dev->path, sizeof(irq->node));
	/* The specifier's form is the parent's: only a GIC's is known */
	if (perfrec_dt_check_parent(dev, irq))
		return -ENXIO;
	ret = perfrec_timer_dt_irq(dev, el, dtirq);
	irq->intid = ret ? 0 : dtirq->intid;
	if (ret == -ENXIO)
		irq->fault = PERFREC_IRQ_NO_PROP;
	else if (ret)
		irq->fault = PERFREC_IRQ_BAD_SPEC;

	return ret;
}

int perfrec_dt_source_irq(const struct perfrec_dt *dt, enum perfrec_source source,
			  u64 affinity, uint el, struct perfrec_dt_irq *dtirq,
			  struct perfrec_irq_report *irq)
{
	if (source == PERFREC_SRC_TIMER)
		return perfrec_dt_timer_irq(&dt->timer, el, dtirq, irq);

	return perfrec_dt_pmu_irq(&dt->pmu, affinity, dtirq, irq);
}
