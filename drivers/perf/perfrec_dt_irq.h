/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * Which interrupt of a device-tree node perfrec takes, under which controller
 *
 * The device tree's rules alone, with no register read: what the CPU is
 * (its affinity, its EL) comes in as arguments. So the same code runs on a
 * board and, built for the host, over a board's DTB
 * (tools/perfrec/perfrec_verdict.c).
 */

#ifndef __PERFREC_DT_IRQ_H
#define __PERFREC_DT_IRQ_H

#include <perfrec.h>
#include <dm/ofnode.h>
#include <linux/types.h>
#include "perfrec_dt_compat.h"

struct perfrec_dt;
struct perfrec_dt_ctlr;
struct perfrec_dt_dev;

/*
 * Is @version this controller? Only those this build has can be
 * (CONFIG_PERFREC_GICV2, CONFIG_PERFREC_GICV3, CONFIG_PERFREC_BCM2836:
 * perfrec_gic_parent_check() refuses the others), so a build with one of
 * them knows the answer at build time and drops the others' code.
 */
#define PERFREC_GIC_ONLY(opt)						\
	(IS_ENABLED(CONFIG_PERFREC_GICV2) + IS_ENABLED(CONFIG_PERFREC_GICV3) +	\
	 IS_ENABLED(CONFIG_PERFREC_BCM2836) == 1 && IS_ENABLED(opt))

static inline bool perfrec_gic_v2(uint version)
{
	return PERFREC_GIC_ONLY(CONFIG_PERFREC_GICV2) ||
	       (IS_ENABLED(CONFIG_PERFREC_GICV2) && version == 2);
}

static inline bool perfrec_gic_v3(uint version)
{
	return PERFREC_GIC_ONLY(CONFIG_PERFREC_GICV3) ||
	       (IS_ENABLED(CONFIG_PERFREC_GICV3) && version == 3);
}

static inline bool perfrec_gic_bcm2836(uint version)
{
	return PERFREC_GIC_ONLY(CONFIG_PERFREC_BCM2836) ||
	       (IS_ENABLED(CONFIG_PERFREC_BCM2836) && version == PERFREC_GIC_BCM2836);
}

/* SPIs: INTIDs from 32; GICD_ICFGR has two bits per interrupt, the upper one "edge" */
#define PERFREC_GIC_SPI_BASE		32

/* GICC_IAR / ICC_IAR1_EL1: INTIDs 1020-1023 are special (no interrupt) */
#define PERFREC_GIC_INTID_SPECIAL	1020

/*
 * The GIC binding's interrupt specifier: <type number flags>; the BCM2836
 * local controller's: <source flags>, each source a core's own, as a PPI is
 */
#define PERFREC_DT_IRQ_CELLS		3
#define PERFREC_DT_IRQ_CELLS_BCM2836	2
#define PERFREC_DT_IRQ_TYPE_SPI		0
#define PERFREC_DT_IRQ_TYPE_PPI		1

/**
 * struct perfrec_dt_irq - One entry of a device node's "interrupts"
 * @type: PERFREC_DT_IRQ_TYPE_SPI or _PPI (or what else the entry said)
 * @intid: the INTID: PPI n is 16 + n, SPI n is 32 + n; the BCM2836 local
 *	controller's source number
 * @flags: trigger type: 1 and 2 are edges, 4 and 8 levels
 */
struct perfrec_dt_irq {
	u32 type;
	uint intid;
	u32 flags;
};

/**
 * perfrec_gic_parent_check() - Can a device's interrupt parent be used?
 * @parent: the interrupt parent (perfrec_dt_scan() found it), or ofnode_null()
 * @version: its version (struct perfrec_dt_ctlr)
 * Return: 0 if it is a GICv2/v3 or the BCM2836 local controller, -ENOENT if
 * there is none, -EPROTONOSUPPORT if it is another controller, -ENOSYS if it
 * is one this build leaves out (see perfrec_gic_option())
 */
int perfrec_gic_parent_check(ofnode parent, uint version);

/**
 * perfrec_gic_option() - The option a build needs for an interrupt controller
 * @version: its version (struct perfrec_dt_ctlr)
 * Return: "CONFIG_PERFREC_GICV2", "CONFIG_PERFREC_GICV3" or
 * "CONFIG_PERFREC_BCM2836" if this build leaves it out, else NULL
 */
const char *perfrec_gic_option(uint version);

/**
 * perfrec_gic_cells() - Cells in each entry of "interrupts" under a controller
 * @version: the interrupt parent's (struct perfrec_dt_ctlr)
 * Return: PERFREC_DT_IRQ_CELLS_BCM2836 for the BCM2836 local controller,
 * else PERFREC_DT_IRQ_CELLS
 */
uint perfrec_gic_cells(uint version);

/**
 * perfrec_gic_dt_irq() - Decode one entry of a device node's "interrupts"
 * @irqs: the property (the PMU's, the timer's), or NULL
 * @len: its length in bytes
 * @cells: cells in each entry, perfrec_gic_cells() of its interrupt parent
 * @idx: which entry, from 0
 * @irq: returns the entry; @irq->type even when the rest is unusable
 *
 * The entry's form is that of @node's interrupt parent: a GIC's, or the
 * BCM2836 local controller's (whose sources are decoded as PPIs).
 * Return: 0 on success, -ENXIO if the node has no such entry,
 * -EPROTONOSUPPORT if it is neither a PPI (0-15) nor an SPI (0-987), nor a
 * source of the BCM2836 local controller (0-11)
 */
int perfrec_gic_dt_irq(const fdt32_t *irqs, int len, uint cells, uint idx,
		       struct perfrec_dt_irq *irq);

/**
 * perfrec_gic_dt_check() - Whether a controller's node gives what perfrec reads
 * @ctlr: the controller, a device's interrupt parent (perfrec_dt_scan())
 * @affinity: the CPU's affinity (perfrec_cpu_affinity())
 *
 * Its "reg" must name the blocks perfrec reaches: a GICv2's distributor and
 * CPU interface, a GICv3's distributor and a redistributor region, the
 * BCM2836 local controller's registers, whose four cores must include this
 * CPU (by Aff0).
 * Return: 0 if it does, perfrec_gic_parent_check()'s error, -EINVAL if its
 * "reg" is incomplete, -ENODEV if this CPU is not a BCM2836 core
 */
int perfrec_gic_dt_check(const struct perfrec_dt_ctlr *ctlr, u64 affinity);

/**
 * perfrec_gic_dt_intid() - Can a controller take an interrupt the tree names?
 * @version: the controller's (struct perfrec_dt_ctlr)
 * @core: the BCM2836 core of this CPU (Aff0), for that controller
 * @nr_lines: the interrupt lines a GIC implements (32 per enable register,
 *	from GICD_TYPER), or 0 where they are not known (a DTB on the host)
 * @intid: the INTID (or BCM2836 source) from perfrec_gic_dt_irq()
 * Return: 0 if it can, -EPROTONOSUPPORT if not: an INTID past the GIC's
 * lines or a special one, a BCM2836 source other than a timer or the PMU
 */
int perfrec_gic_dt_intid(uint version, uint core, uint nr_lines, uint intid);

/**
 * pmuv3_read_irq() - A CPU's PMU interrupt, from the PMU node
 * @pmu: the PMU node, its "interrupts" and interrupt parent (perfrec_dt_scan())
 * @affinity: the CPU's affinity (perfrec_cpu_affinity()), as a /cpus
 *	node's "reg" holds it
 * @intidp: returns its GIC INTID: a PPI's (any number, any flags), or of the
 *	SPIs the node lists one per CPU, this CPU's (by "interrupt-affinity",
 *	else by the order of the /cpus nodes)
 * @flagsp: returns the specifier's flags (trigger type, low 4 bits)
 * Return: 0 on success, -ENXIO if there is no "interrupts" property,
 * -EPROTONOSUPPORT if the interrupt is neither a PPI nor an SPI, -ENODEV if
 * no SPI is this CPU's
 */
int pmuv3_read_irq(const struct perfrec_dt_dev *pmu, u64 affinity, uint *intidp,
		   uint *flagsp);

/**
 * perfrec_timer_dt_irq() - The generic timer's interrupt for an EL
 * @dev: the timer's node as perfrec_dt_scan() found it
 * @el: the EL U-Boot runs at: 1 takes the physical timer's entry, 2 the
 *	hypervisor's, 3 the Secure physical one
 * @irq: returns the entry
 * Return: 0 if it is a PPI, -ENXIO if the node has no entry for @el,
 * -EPROTONOSUPPORT if the entry is not a PPI
 */
int perfrec_timer_dt_irq(const struct perfrec_dt_dev *dev, uint el, struct perfrec_dt_irq *irq);

/**
 * perfrec_dt_source_irq() - A session's interrupt as the device tree gives it
 * @dt: the tree's facts, from perfrec_dt_scan()
 * @source: PERFREC_SRC_PMU or PERFREC_SRC_TIMER
 * @affinity: the CPU's affinity (perfrec_cpu_affinity()), for a PMU's SPIs
 * @el: the EL U-Boot runs at, for the timer's entry
 * @dtirq: returns the interrupt
 * @irq: returns the node and the INTID; on error why it cannot be used
 *
 * The node, its interrupt parent (which must be a GIC or the BCM2836
 * local controller: the specifier's form is the parent's), its entry.
 * The controller's own registers are perfrec_ctlr_find()'s, after this.
 * Return: 0 if found, -ENOENT if there is no node, -ENXIO if its parent or
 * its entry cannot be used, -EPROTONOSUPPORT if the entry is not a PPI or
 * SPI (the timer's: not a PPI)
 */
int perfrec_dt_source_irq(const struct perfrec_dt *dt, enum perfrec_source source,
			  u64 affinity, uint el, struct perfrec_dt_irq *dtirq,
			  struct perfrec_irq_report *irq);

#endif /* __PERFREC_DT_IRQ_H */
