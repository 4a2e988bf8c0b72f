/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's use of the GIC (v2 and v3): one interrupt, borrowed for a session;
 * and of the controller that takes a GIC's place on the BCM2836 and BCM2837
 */

#ifndef __PERFREC_GIC_H
#define __PERFREC_GIC_H

#include <perfrec.h>
#include <perfrec_hw.h>
#include <asm/gic.h>
#include <asm/io.h>
#include <dm/ofnode.h>
#include <linux/bitops.h>
#include <linux/types.h>
#include "perfrec_arch.h"
#include "perfrec_bcm2836.h"
#include "perfrec_dt_irq.h"
#include "perfrec_mmu.h"

/* ICC_SRE_ELx, ICC_CTLR_EL1, ICC_IGRPEN1_EL1 */
#define GIC_ICC_SRE_SRE			BIT(0)
#define GIC_ICC_CTLR_EOIMODE		BIT(1)
/* ICC_CTLR_EL3: the EOI mode of what EL3 handles */
#define GIC_ICC_MCTLR_EOIMODE_EL3	BIT(2)
#define GIC_ICC_IGRPEN1_EN		BIT(0)
#define GIC_ICC_IGRPEN0_EN		BIT(0)
#define GIC_ICC_IAR_INTID		GENMASK(23, 0)

struct perfrec_dt_ctlr;
struct perfrec_snapshot;

/* Largest number of 32-line enable registers a GIC has (1020 lines) */
#define PERFREC_GIC_MAX_ENABLE_REGS	32

#define PERFREC_GICV2_IAR_INTID		GENMASK(9, 0)

/**
 * struct perfrec_gic - The GIC as perfrec uses it during one session
 *
 * @version: 2 or 3, or PERFREC_GIC_BCM2836
 * @intid: the interrupt perfrec takes (the PMU's); for the BCM2836 local
 *	controller its source number
 * @dist: distributor (GICD) base; the BCM2836 local controller's registers
 * @cpu: GICv2 CPU interface (GICC) base; the BCM2836 core's IRQ source
 *	register
 * @rdist: GICv3 redistributor (RD_base) of this CPU
 * @sgi: GICv3 redistributor SGI_base of this CPU (@rdist + 64 KiB)
 * @nr_enable_regs: 32-line enable registers the distributor implements
 * @may_set_group: the interrupt's group is ours to set (no security, or
 *	GICD_CTLR.DS, or EL3): otherwise it belongs to the secure firmware
 * @edge: the interrupt is edge-triggered (set up so for an SPI)
 * @group0: v3 at EL3: the interrupt is put in group 0 and arrives as an FIQ
 *	(EL3 takes group 1 as FIQ too, but cannot acknowledge non-secure
 *	group 1 through ICC_IAR1_EL1)
 * @dt_err: what perfrec_ctlr_find() returned
 * @fault: the register block perfrec_ctlr_find() could not reach:
 *	@fault.block names it ("distributor", ...) or is NULL, @fault.start
 *	and @fault.end are its first and last address, @fault.err why it
 *	could not be mapped (see perfrec_mmu_map()); or, after
 *	perfrec_ctlr_setup() timed out, the register that kept @fault.bit set
 *	("GICD_CTLR.RWP") and its block
 * @borrow: page-table descriptors written so that the GIC's blocks are
 *	mapped; given back by perfrec_gic_put()
 * @l1: the BCM2836 local controller's source and saved registers
 * @saved: register values before the session, restored by
 *	perfrec_ctlr_restore()
 */
struct perfrec_gic {
	uint version;
	uint intid;
	void __iomem *dist;
	void __iomem *cpu;
	void __iomem *rdist;
	void __iomem *sgi;
	uint nr_enable_regs;
	bool may_set_group;
	bool edge;
	bool group0;
	int dt_err;
	struct {
		const char *block;
		u64 start;
		u64 end;
		int err;
		const char *bit;
	} fault;
	struct perfrec_mmu_borrow borrow;
	struct perfrec_bcm2836 l1;
	struct {
		u32 enable[PERFREC_GIC_MAX_ENABLE_REGS];
		u32 dist_ctlr;
		u32 priority;
		u32 group;
		u32 grpmod;
		u32 cfg;
		u64 target;
		u32 cpu_ctlr;
		u32 pmr;
		u32 waker;
		u64 icc_sre;
		u64 icc_ctlr;
		u64 icc_mctlr;
		u64 icc_pmr;
		u64 icc_igrpen1;
		u64 icc_igrpen0;
	} saved;
};

/**
 * perfrec_gic_find() - A GIC's find (struct perfrec_ctlr_ops)
 * @ctlr: the GICv2 or GICv3, checked by perfrec_gic_dt_check()
 * @gic: returns its register bases, with @version set
 *
 * Return: 0, -EINVAL if a GICv3's redistributor regions end early, -ENODEV
 * if this CPU's GICv3 redistributor is not found, or perfrec_gic_reach()'s
 * error
 */
int perfrec_gic_find(const struct perfrec_dt_ctlr *ctlr, struct perfrec_gic *gic);

/*
 * A GIC's struct perfrec_ctlr_ops (perfrec_gic_ctlr, perfrec_gic_dt.c):
 * programmed by perfrec_gic.c, as perfrec_ctlr.h describes each call
 */
int perfrec_gic_setup(struct perfrec_gic *gic);
void perfrec_gic_restore(struct perfrec_gic *gic);
bool perfrec_gic_pending(const struct perfrec_gic *gic);
void perfrec_gic_clear_pending(struct perfrec_gic *gic);
void perfrec_gic_snapshot(const struct perfrec_gic *gic, struct perfrec_snapshot *snap);

/**
 * perfrec_gic_reach() - Make one register block of a controller reachable
 * @gic: the controller; on error @gic->fault names the block
 * @block: the block's name, for messages ("distributor", ...)
 * @base: its address
 * @size: its size
 * @probe_off: the register read, with a guard, to see that something answers
 * @regsp: returns the block's registers
 *
 * What U-Boot's MMU map leaves out of the block is mapped as device memory
 * until perfrec_gic_put().
 * Return: 0, -EADDRNOTAVAIL if it is not mapped and cannot be, -EFAULT if
 * nothing answers
 */
int perfrec_gic_reach(struct perfrec_gic *gic, const char *block, fdt_addr_t base,
		      fdt_size_t size, uint probe_off, void __iomem **regsp);

/**
 * perfrec_gic_fault() - Say in @irq why the GIC could not be used
 * @gic: the GIC, whose @fault names the register block
 * @err: perfrec_ctlr_find()'s error (@gic->dt_err), or perfrec_ctlr_setup()'s
 *	-ETIMEDOUT
 * @irq: returns the fault, the block, its range and what failed there
 */
void perfrec_gic_fault(const struct perfrec_gic *gic, int err, struct perfrec_irq_report *irq);

/**
 * perfrec_gic_put() - Give back the mappings perfrec_ctlr_find() made
 * @gic: GIC from perfrec_ctlr_find(); its registers must not be used after
 *
 * The page-table descriptors get their old values and the TLB is
 * invalidated; @gic->borrow still lists them for perfrec_gic_snapshot_tables().
 */
void perfrec_gic_put(struct perfrec_gic *gic);

/**
 * perfrec_gic_check_intid() - Does this GIC have interrupt @intid?
 * @gic: GIC from perfrec_ctlr_find()
 * @intid: an INTID from the device tree
 * Return: 0 if it has, -EPROTONOSUPPORT if not
 */
int perfrec_gic_check_intid(const struct perfrec_gic *gic, uint intid);

/**
 * perfrec_gic_snapshot_tables() - Record the page-table descriptors mapped for the GIC
 * @gic: GIC from perfrec_ctlr_find()
 * @snap: snapshot to add to: each descriptor's value before perfrec wrote
 *	it while the mapping is held, its value now after perfrec_gic_put()
 */
void perfrec_gic_snapshot_tables(const struct perfrec_gic *gic, struct perfrec_snapshot *snap);

/*
 * A GICv3's 64-bit register (GICR_TYPER, GICD_IROUTER<n>). On 32-bit Arm
 * it is two 32-bit accesses, low word first, as Linux's arch_gicv3.h does
 * there: U-Boot's own 32-bit readq() and writeq() with CONFIG_KVM_VIRT_INS
 * (qemu_arm_defconfig after 2025.01) move 32 bits and leave the upper half
 * of what they read undefined.
 */
static inline u64 perfrec_gic_readq(const void __iomem *reg)
{
	if (IS_ENABLED(CONFIG_ARM64))
		return readq(reg);

	return readl(reg) | (u64)readl(reg + 4) << 32;
}

static inline void perfrec_gic_writeq(u64 val, void __iomem *reg)
{
	if (IS_ENABLED(CONFIG_ARM64)) {
		writeq(val, reg);
		return;
	}
	writel((u32)val, reg);
	writel(val >> 32, reg + 4);
}

/*
 * IRQ context: acknowledge the highest-priority pending interrupt. @general
 * (a constant) says whether @cpuif may be the BCM2836 local controller: the
 * fast paths do not, and give @cpuif a constant version. The BCM2836's
 * "acknowledge" is its core's IRQ source register: what is pending,
 * acknowledged by nothing. The GICv2's registers are read and written
 * without readl()'s and writel()'s barriers: perfrec_gic_eoi() orders
 * what it must.
 */
static inline ulong perfrec_gic_ack(const struct perfrec_gic_cpuif *cpuif, bool general)
{
	if (perfrec_gic_v3(cpuif->version))
		return cpuif->group0 ? read_icc_iar0() : read_icc_iar1();
	if (general && perfrec_gic_bcm2836(cpuif->version))
		return readl(cpuif->cpu);

	return __raw_readl(cpuif->cpu + GICC_IAR);
}

/*
 * IRQ context: the INTID of an acknowledge value; on the BCM2836 the
 * lowest pending source (perfrec routes one)
 */
static inline uint perfrec_gic_intid(const struct perfrec_gic_cpuif *cpuif, ulong iar,
				     bool general)
{
	if (perfrec_gic_v3(cpuif->version))
		return iar & GIC_ICC_IAR_INTID;
	if (general && perfrec_gic_bcm2836(cpuif->version))
		return iar ? __ffs(iar) : PERFREC_GIC_INTID_SPECIAL;

	return iar & PERFREC_GICV2_IAR_INTID;
}

/*
 * IRQ context: end the interrupt @iar from perfrec_gic_ack() (nothing to do
 * on the BCM2836: its source drops when the timer or the PMU's flag does).
 * No isb() after a GICv3's EOI: the handler's eret, a context
 * synchronization event, follows before interrupts can be taken again.
 */
static inline void perfrec_gic_eoi(const struct perfrec_gic_cpuif *cpuif, ulong iar,
				   bool general)
{
	if (general && perfrec_gic_bcm2836(cpuif->version))
		return;
	dsb();	/* the sample and the PMU's flag clear complete before the EOI */
	if (perfrec_gic_v3(cpuif->version)) {
		if (cpuif->group0)
			write_icc_eoir0(iar);
		else
			write_icc_eoir1(iar);
		return;
	}
	__raw_writel(iar, cpuif->cpu + GICC_EOIR);
}

#endif /* __PERFREC_GIC_H */
