/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * What a session needs of the control device tree, found in one walk
 */

#ifndef __PERFREC_DT_H
#define __PERFREC_DT_H

#include <dm/ofnode.h>
#include <linux/libfdt.h>
#include <linux/types.h>

/* Register blocks kept of an interrupt controller: a GICv3's distributor and 8 regions */
#define PERFREC_DT_MAX_REGS	9
/* Banks of /memory kept for the boot recording's check */
#define PERFREC_DT_MAX_BANKS	8
/* Regions of /reserved-memory kept for the same check */
#define PERFREC_DT_MAX_RESERVED	16

/**
 * struct perfrec_dt_ctlr - An interrupt controller, as a device's parent
 * @node: its node, or ofnode_null() if the device has no interrupt parent
 * @version: 2 or 3 for a GICv2 or v3, PERFREC_GIC_BCM2836 for the BCM2836
 *	local controller (whether this build has it or not), 0 for another
 * @nr_regs: entries in @base and @size: its "reg", translated to CPU
 *	addresses through its ancestors' "ranges" (0 if that failed)
 * @base: each block's address
 * @size: each block's size
 * @rd_regions: a GICv3's "#redistributor-regions" (1 if absent)
 * @rd_stride: a GICv3's "redistributor-stride" (0 if absent)
 */
struct perfrec_dt_ctlr {
	ofnode node;
	uint version;
	uint nr_regs;
	u64 base[PERFREC_DT_MAX_REGS];
	u64 size[PERFREC_DT_MAX_REGS];
	u32 rd_regions;
	u64 rd_stride;
};

/**
 * struct perfrec_dt_dev - A device whose interrupt a session may take
 * @node: the device's node, or ofnode_null() if the tree has none
 * @parent: its interrupt parent (its own "interrupt-parent" or the nearest
 *	ancestor's)
 * @irqs: its "interrupts", or NULL (in the tree: valid while @node is)
 * @irqs_len: the length of @irqs in bytes
 * @path: the node's full path, for messages; for a PMU not found, an empty
 *	PMU node's (no "compatible") if the tree has one, else ""
 */
struct perfrec_dt_dev {
	ofnode node;
	struct perfrec_dt_ctlr parent;
	const fdt32_t *irqs;
	int irqs_len;
	char path[64];
};

/**
 * struct perfrec_dt - The control device tree's facts for one arming
 * @pmu: the PMU: the first enabled node, depth first, whose compatible is
 *	"arm,armv8-pmuv3", else the first that is a core's PMUv3
 *	("arm,cortex-a53-pmu", ...)
 * @timer: the generic timer: the first "arm,armv8-timer" node, else the
 *	first "arm,armv7-timer"
 * @gic: the first GICv2 or v3 the walk met (ofnode_null() if none): the
 *	CPU's, for an interrupt no node names (the Cortex-A9's global timer)
 * @options: /options/u-boot, or ofnode_null() (with CONFIG_PERFREC_BOOT)
 * @reserved_memory: the root has a "reserved-memory" node (with
 *	CONFIG_PERFREC_BOOT)
 * @nr_cpus: the /cpus nodes whose device_type is "cpu"
 * @model: the root's "model", or NULL
 * @blob: the flat tree it was found in (NULL: the live tree)
 * @nr_banks: entries in @bank and @bank_size (with CONFIG_PERFREC_BOOT)
 * @bank: the start of each bank of DRAM in the root's memory nodes
 *	(named "memory", device_type "memory")
 * @bank_size: its size
 * @nr_reserved: regions in @reserved, @reserved_size and @reserved_node (with
 *	CONFIG_PERFREC_BOOT): each "reg" entry of each enabled child of
 *	/reserved-memory, in the cells of /reserved-memory (a child with no
 *	"reg" is placed by the OS, later: it has none yet)
 * @reserved_over: the tree reserves more regions than these
 * @reserved: the start of each
 * @reserved_size: its size
 * @reserved_node: the child it belongs to, for messages
 */
struct perfrec_dt {
	struct perfrec_dt_dev pmu;
	struct perfrec_dt_dev timer;
	struct perfrec_dt_ctlr gic;
	ofnode options;
	bool reserved_memory;
	uint nr_cpus;
	const char *model;
	const void *blob;
	uint nr_banks;
	u64 bank[PERFREC_DT_MAX_BANKS];
	u64 bank_size[PERFREC_DT_MAX_BANKS];
	uint nr_reserved;
	bool reserved_over;
	u64 reserved[PERFREC_DT_MAX_RESERVED];
	u64 reserved_size[PERFREC_DT_MAX_RESERVED];
	ofnode reserved_node[PERFREC_DT_MAX_RESERVED];
};

/**
 * perfrec_dt_scan() - Find a session's devices in the control device tree
 * @dt: returns the PMU, the timer, their interrupt parents and the rest
 *
 * One walk of the tree. On a flat tree it reads the structure block's tags
 * in one pass, without libfdt's per-tag calls: U-Boot checked only the
 * tree's header, so the walk bounds each property's length and name
 * within the blob, and each address's cells to FDT_MAX_NCELLS, itself. On
 * a live tree (OF_LIVE) it follows the nodes. The
 * interrupt parents are resolved among the controllers the walk met (one
 * that perfrec does not know costs one search by phandle, for its name).
 * The nodes are offsets into the flat tree, or pointers into the live one:
 * they stay valid while the tree neither changes nor moves. A flat tree
 * that U-Boot relocates is copied whole, so its offsets still hold; the
 * live tree built after relocation is another tree, and needs another walk.
 */
void perfrec_dt_scan(struct perfrec_dt *dt);

/**
 * perfrec_dt_follow() - Keep a scan's facts valid after the tree moved
 * @dt: from perfrec_dt_scan() before relocation
 *
 * A flat tree is copied whole by relocation: its offsets hold, and what
 * pointed into it points into the copy now. A live tree built since is
 * another tree: it is walked again.
 */
void perfrec_dt_follow(struct perfrec_dt *dt);

#endif /* __PERFREC_DT_H */
