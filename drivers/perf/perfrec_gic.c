// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's GIC policy: borrow one interrupt, give it back
 *
 * U-Boot on arm64 does not initialise the GIC for most boards (qemu_arm64
 * selects neither GICV2 nor GICV3), so perfrec brings up just what it needs
 * for one interrupt and restores every register afterwards. Register names
 * and offsets are those of <asm/gic.h>. GICv2 and GICv3 are one
 * controller to perfrec_ctlr.c (struct perfrec_ctlr_ops): they share the
 * distributor's code, and the functions here tell them apart where they
 * differ. Finding the GIC in the device tree, reaching its registers and
 * the controller's table of operations are perfrec_gic_dt.c's.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <mapmem.h>
#include <perfrec_snapshot.h>
#include <time.h>
#include <asm/gic.h>
#include <asm/io.h>
#include <asm/system.h>
#include <dm/ofnode.h>
#include <linux/bitfield.h>
#include <linux/sizes.h>
#include "perfrec_cpu.h"
#include "perfrec_gic.h"
#include "perfrec_gic_ctlr.h"
#include "perfrec_mmu.h"

/* GICD_CTLR (the enable bits: perfrec_gic_ctlr.h) */
#define PERFREC_GICD_CTLR_RWP		BIT(31)	/* v3: register write pending */

/* GICC_CTLR (v2) */
#define PERFREC_GICC_CTLR_ENABLE_G0	BIT(0)
#define PERFREC_GICC_CTLR_ENABLE_G1	BIT(1)
#define PERFREC_GICC_CTLR_ACKCTL	BIT(2)
#define PERFREC_GICC_CTLR_FIQEN		BIT(3)
#define PERFREC_GICC_CTLR_EOIMODE	(BIT(9) | BIT(10))

/* GICR (v3) */
#define PERFREC_GICR_CTLR_RWP		BIT(3)
#define PERFREC_GICR_WAKER_SLEEP	BIT(1)	/* ProcessorSleep */
#define PERFREC_GICR_WAKER_ASLEEP	BIT(2)	/* ChildrenAsleep */

/* Highest priority; PMR lets through everything but the lowest */
#define PERFREC_GIC_PRIORITY		0x00
#define PERFREC_GIC_PMR			0xff

#define PERFREC_GIC_TIMEOUT_US		10000
/* At most this many looks, too: U-Boot's time stands still without CNTFRQ_EL0 */
#define PERFREC_GIC_TIMEOUT_POLLS	1000000

/* GICD_ICFGR has two bits per interrupt, the upper one "edge" */
static u32 perfrec_gic_cfg_bit(const struct perfrec_gic *gic)
{
	return BIT(2 * (gic->intid % 16) + 1);
}

/*
 * Wait until @mask of the register at @reg reads clear, a bounded time (in
 * polls too: the timer may not run). On timeout @gic->fault names the
 * register (@block, @bit) for the refusal.
 */
static int perfrec_gic_wait_clear(struct perfrec_gic *gic, void __iomem *reg, u32 mask,
				  const char *block, const char *bit)
{
	ulong start = timer_get_us();
	uint polls = 0;

	while (readl(reg) & mask) {
		if (++polls >= PERFREC_GIC_TIMEOUT_POLLS ||
		    timer_get_us() - start > PERFREC_GIC_TIMEOUT_US) {
			if (gic->fault.bit)	/* the first one is the cause */
				return -ETIMEDOUT;
			gic->fault.block = block;
			gic->fault.start = virt_to_phys((void *)reg);
			gic->fault.end = gic->fault.start + 3;
			gic->fault.bit = bit;
			return -ETIMEDOUT;
		}
	}

	return 0;
}

/*
 * Register @i of a 32-interrupts-per-register bank (enable, pending) at
 * @set_off: the redistributor's for SGIs/PPIs on v3 (GICR_ISPENDR0 and
 * friends sit at the same offsets in SGI_base as GICD_* in the distributor)
 */
static void __iomem *perfrec_gic_enable_reg(const struct perfrec_gic *gic, uint set_off,
					    uint i)
{
	if (perfrec_gic_v3(gic->version) && !i)
		return gic->sgi + set_off;

	return gic->dist + set_off + 4 * i;
}

/*
 * Wait until enable/disable writes have taken effect (v3 RWP). Arming
 * stops at a timeout; the way out writes on regardless (the registers are
 * given back whatever the GIC does), and the snapshot check then names any
 * that did not take.
 */
static int perfrec_gic_sync(struct perfrec_gic *gic)
{
	int ret;

	if (!perfrec_gic_v3(gic->version))
		return 0;
	ret = perfrec_gic_wait_clear(gic, gic->dist + GICD_CTLR, PERFREC_GICD_CTLR_RWP,
				     "distributor", "GICD_CTLR.RWP");
	if (!ret)
		ret = perfrec_gic_wait_clear(gic, gic->rdist + GICR_CTLR, PERFREC_GICR_CTLR_RWP,
					     "redistributor", "GICR_CTLR.RWP");

	return ret;
}

/*
 * The frame that holds the interrupt's group, priority and configuration:
 * a GICv3 redistributor's for a PPI, else the distributor (banked per CPU
 * for PPIs on a GICv2)
 */
/* GICD_IROUTER<n> of the session's SPI (GICv3) */
static void __iomem *perfrec_gic_irouter(const struct perfrec_gic *gic)
{
	return gic->dist + GICD_IROUTERn + 8 * gic->intid;
}

static void __iomem *perfrec_gic_irq_frame(const struct perfrec_gic *gic)
{
	return perfrec_gic_v3(gic->version) && gic->intid < PERFREC_GIC_SPI_BASE ? gic->sgi :
									      gic->dist;
}

/* An SPI's route to this CPU: GICv2 CPU-interface mask, GICv3 affinity */
static void perfrec_gic_route(struct perfrec_gic *gic)
{
	u64 aff;

	if (perfrec_gic_v2(gic->version)) {
		/* GICD_ITARGETSR0 reads back this CPU's own interface bit */
		gic->saved.target = readb(gic->dist + GICD_ITARGETSRn + gic->intid);
		writeb(readb(gic->dist + GICD_ITARGETSRn),
		       gic->dist + GICD_ITARGETSRn + gic->intid);
		return;
	}
	aff = perfrec_cpu_affinity();
	gic->saved.target = perfrec_gic_readq(perfrec_gic_irouter(gic));
	perfrec_gic_writeq(aff, perfrec_gic_irouter(gic));
}

static void perfrec_gic_unroute(struct perfrec_gic *gic)
{
	if (perfrec_gic_v2(gic->version))
		writeb(gic->saved.target, gic->dist + GICD_ITARGETSRn + gic->intid);
	else
		perfrec_gic_writeq(gic->saved.target, perfrec_gic_irouter(gic));
}

static int perfrec_gicv3_cpu_setup(struct perfrec_gic *gic)
{
	gic->saved.icc_sre = perfrec_cpu_icc_sre();
	if (!(gic->saved.icc_sre & GIC_ICC_SRE_SRE)) {
		perfrec_cpu_set_icc_sre(gic->saved.icc_sre | GIC_ICC_SRE_SRE);
		if (!(perfrec_cpu_icc_sre() & GIC_ICC_SRE_SRE))
			return -ENODEV;
	}

	gic->saved.icc_pmr = read_icc_pmr();
	gic->saved.icc_ctlr = read_icc_ctlr();
	write_icc_pmr(PERFREC_GIC_PMR);
	write_icc_ctlr(gic->saved.icc_ctlr & ~GIC_ICC_CTLR_EOIMODE);
	if (perfrec_cpu_el() == 3) {
		/* At EL3 the EOI mode is ICC_CTLR_EL3's: one EOI drops and deactivates */
		gic->saved.icc_mctlr = read_icc_mctlr();
		write_icc_mctlr(gic->saved.icc_mctlr & ~GIC_ICC_MCTLR_EOIMODE_EL3);
	}
	if (gic->group0) {
		gic->saved.icc_igrpen0 = read_icc_igrpen0();
		write_icc_igrpen0(GIC_ICC_IGRPEN0_EN);
	} else {
		gic->saved.icc_igrpen1 = read_icc_igrpen1();
		write_icc_igrpen1(GIC_ICC_IGRPEN1_EN);
	}
	isb();	/* the CPU interface is open before the interrupt is enabled */

	return 0;
}

static void perfrec_gicv3_cpu_restore(struct perfrec_gic *gic)
{
	if (perfrec_cpu_icc_sre() & GIC_ICC_SRE_SRE) {
		if (gic->group0)
			write_icc_igrpen0(gic->saved.icc_igrpen0);
		else
			write_icc_igrpen1(gic->saved.icc_igrpen1);
		write_icc_ctlr(gic->saved.icc_ctlr);
		if (perfrec_cpu_el() == 3)
			write_icc_mctlr(gic->saved.icc_mctlr);
		write_icc_pmr(gic->saved.icc_pmr);
		isb();	/* the interface is closed before SRE may be turned off */
	}
	perfrec_cpu_set_icc_sre(gic->saved.icc_sre);
}

static int perfrec_gicv3_wake(struct perfrec_gic *gic)
{
	int ret;

	gic->saved.waker = readl(gic->rdist + GICR_WAKER);
	if (!(gic->saved.waker & PERFREC_GICR_WAKER_SLEEP))
		return 0;
	writel(gic->saved.waker & ~PERFREC_GICR_WAKER_SLEEP, gic->rdist + GICR_WAKER);
	ret = perfrec_gic_wait_clear(gic, gic->rdist + GICR_WAKER, PERFREC_GICR_WAKER_ASLEEP,
				     "redistributor", "GICR_WAKER.ChildrenAsleep");
	if (ret)
		writel(gic->saved.waker, gic->rdist + GICR_WAKER);

	return ret;
}

static void perfrec_gicv3_sleep(struct perfrec_gic *gic)
{
	ulong start = timer_get_us();
	uint polls = 0;

	if (!(gic->saved.waker & PERFREC_GICR_WAKER_SLEEP))
		return;
	writel(gic->saved.waker, gic->rdist + GICR_WAKER);
	while (!(readl(gic->rdist + GICR_WAKER) & PERFREC_GICR_WAKER_ASLEEP) &&
	       ++polls < PERFREC_GIC_TIMEOUT_POLLS &&
	       timer_get_us() - start < PERFREC_GIC_TIMEOUT_US)
		;
}

/*
 * Nothing but our interrupt may be taken during the session: disable every
 * other. If the writes never take effect, the enables and the v3 CPU
 * interface (all that has changed yet) go back.
 */
static int perfrec_gic_quiesce(struct perfrec_gic *gic)
{
	uint i;
	int ret;

	for (i = 0; i < gic->nr_enable_regs; i++)
		writel(gic->saved.enable[i], perfrec_gic_enable_reg(gic, GICD_ICENABLERn, i));
	ret = perfrec_gic_sync(gic);
	if (!ret)
		return 0;
	for (i = 0; i < gic->nr_enable_regs; i++)
		writel(gic->saved.enable[i], perfrec_gic_enable_reg(gic, GICD_ISENABLERn, i));
	if (perfrec_gic_v3(gic->version)) {
		perfrec_gicv3_cpu_restore(gic);
		perfrec_gicv3_sleep(gic);
	}

	return ret;
}

/*
 * Our interrupt's own settings: the highest priority, non-secure group 1
 * (an IRQ at EL1/EL2) or group 0 (an FIQ at EL3) where the group is ours
 * to set, and for an SPI this CPU as its target and the device tree's
 * trigger. @frame, @reg and @bit locate it (perfrec_gic_irq_frame()).
 */
static void perfrec_gic_take_line(struct perfrec_gic *gic, void __iomem *frame, uint reg, u32 bit)
{
	writeb(PERFREC_GIC_PRIORITY, frame + GICD_IPRIORITYRn + gic->intid);
	if (gic->may_set_group && perfrec_gic_v3(gic->version)) {
		writel(gic->group0 ? gic->saved.group & ~bit : gic->saved.group | bit,
		       frame + GICD_IGROUPRn + 4 * reg);
		writel(gic->saved.grpmod & ~bit, frame + GICR_IGROUPMODRn + 4 * reg);
	}
	if (gic->intid >= PERFREC_GIC_SPI_BASE) {
		perfrec_gic_route(gic);
		gic->saved.cfg = readl(gic->dist + GICD_ICFGR + 4 * (gic->intid / 16));
		writel((gic->saved.cfg & ~perfrec_gic_cfg_bit(gic)) |
		       (gic->edge ? perfrec_gic_cfg_bit(gic) : 0),
		       gic->dist + GICD_ICFGR + 4 * (gic->intid / 16));
	}
}

int perfrec_gic_setup(struct perfrec_gic *gic)
{
	void __iomem *frame = perfrec_gic_irq_frame(gic);
	uint reg = gic->intid / 32;
	u32 bit = BIT(gic->intid % 32);
	uint i;
	int ret;

	gic->fault.bit = NULL;
	if (perfrec_gic_v3(gic->version)) {
		ret = perfrec_gicv3_wake(gic);
		if (ret)
			return log_msg_ret("wake", ret);
		ret = perfrec_gicv3_cpu_setup(gic);
		if (ret) {
			perfrec_gicv3_cpu_restore(gic);
			perfrec_gicv3_sleep(gic);
			return log_msg_ret("sre", ret);
		}
	} else {
		gic->saved.cpu_ctlr = readl(gic->cpu + GICC_CTLR);
		gic->saved.pmr = readl(gic->cpu + GICC_PMR);
	}

	/* All that perfrec_gic_restore() gives back, before any of it changes */
	for (i = 0; i < gic->nr_enable_regs; i++)
		gic->saved.enable[i] = readl(perfrec_gic_enable_reg(gic, GICD_ISENABLERn, i));
	gic->saved.dist_ctlr = readl(gic->dist + GICD_CTLR) & ~PERFREC_GICD_CTLR_RWP;
	gic->saved.priority = readl(frame + GICD_IPRIORITYRn + (gic->intid & ~3));
	gic->saved.group = readl(frame + GICD_IGROUPRn + 4 * reg);
	gic->saved.grpmod = perfrec_gic_v3(gic->version) ?
			    readl(frame + GICR_IGROUPMODRn + 4 * reg) : 0;

	ret = perfrec_gic_quiesce(gic);
	if (ret)
		return log_msg_ret("sync", ret);

	perfrec_gic_take_line(gic, frame, reg, bit);
	writel(gic->saved.dist_ctlr | perfrec_gicd_ctlr_enable(gic->version, gic->may_set_group),
	       gic->dist + GICD_CTLR);
	ret = perfrec_gic_sync(gic);
	if (ret)
		goto err;

	if (perfrec_gic_v2(gic->version)) {
		writel(PERFREC_GIC_PMR, gic->cpu + GICC_PMR);
		writel((gic->saved.cpu_ctlr | PERFREC_GICC_CTLR_ENABLE_G0 |
			PERFREC_GICC_CTLR_ENABLE_G1 | PERFREC_GICC_CTLR_ACKCTL) &
		       ~(PERFREC_GICC_CTLR_FIQEN | PERFREC_GICC_CTLR_EOIMODE),
		       gic->cpu + GICC_CTLR);
	}
	writel(bit, perfrec_gic_enable_reg(gic, GICD_ISENABLERn, reg));
	ret = perfrec_gic_sync(gic);
	if (ret)
		goto err;

	return 0;

err:
	/* Everything is saved by now: all of it back */
	perfrec_gic_restore(gic);

	return log_msg_ret("sync", ret);
}

void perfrec_gic_restore(struct perfrec_gic *gic)
{
	void __iomem *frame = perfrec_gic_irq_frame(gic);
	uint reg = gic->intid / 32;
	u32 bit = BIT(gic->intid % 32);
	uint i;

	writel(bit, perfrec_gic_enable_reg(gic, GICD_ICENABLERn, reg));
	perfrec_gic_sync(gic);
	if (perfrec_gic_v2(gic->version)) {
		writel(gic->saved.cpu_ctlr, gic->cpu + GICC_CTLR);
		writel(gic->saved.pmr, gic->cpu + GICC_PMR);
	}
	writel(gic->saved.dist_ctlr, gic->dist + GICD_CTLR);
	perfrec_gic_sync(gic);
	if (gic->may_set_group && perfrec_gic_v3(gic->version)) {
		writel(gic->saved.grpmod, frame + GICR_IGROUPMODRn + 4 * reg);
		writel(gic->saved.group, frame + GICD_IGROUPRn + 4 * reg);
	}
	if (gic->intid >= PERFREC_GIC_SPI_BASE) {
		writel(gic->saved.cfg, gic->dist + GICD_ICFGR + 4 * (gic->intid / 16));
		perfrec_gic_unroute(gic);
	}
	writel(gic->saved.priority, frame + GICD_IPRIORITYRn + (gic->intid & ~3));
	for (i = 0; i < gic->nr_enable_regs; i++)
		writel(gic->saved.enable[i], perfrec_gic_enable_reg(gic, GICD_ISENABLERn, i));
	perfrec_gic_sync(gic);
	if (perfrec_gic_v3(gic->version)) {
		perfrec_gicv3_cpu_restore(gic);
		perfrec_gicv3_sleep(gic);
	}
}

bool perfrec_gic_pending(const struct perfrec_gic *gic)
{
	return readl(perfrec_gic_enable_reg(gic, GICD_ISPENDRn, gic->intid / 32)) &
	       BIT(gic->intid % 32);
}

void perfrec_gic_clear_pending(struct perfrec_gic *gic)
{
	writel(BIT(gic->intid % 32), perfrec_gic_enable_reg(gic, GICD_ICPENDRn, gic->intid / 32));
	perfrec_gic_sync(gic);	/* a disable follows, which waits again */
}

void perfrec_gic_snapshot(const struct perfrec_gic *gic, struct perfrec_snapshot *snap)
{
	void __iomem *frame = perfrec_gic_irq_frame(gic);
	uint i;

	perfrec_snap_add(snap, "GICD_CTLR", -1, readl(gic->dist + GICD_CTLR));
	for (i = 0; i < gic->nr_enable_regs; i++)
		perfrec_snap_add(snap, "GICD_ISENABLER%d", i,
				 readl(perfrec_gic_enable_reg(gic, GICD_ISENABLERn, i)));
	perfrec_snap_add(snap, "GICD_IPRIORITYR%d", gic->intid / 4,
			 readl(frame + GICD_IPRIORITYRn + (gic->intid & ~3)));
	perfrec_snap_add(snap, "GICD_IGROUPR%d", gic->intid / 32,
			 readl(frame + GICD_IGROUPRn + 4 * (gic->intid / 32)));
	if (gic->intid >= PERFREC_GIC_SPI_BASE) {
		perfrec_snap_add(snap, "GICD_ICFGR%d", gic->intid / 16,
				 readl(gic->dist + GICD_ICFGR + 4 * (gic->intid / 16)));
		if (perfrec_gic_v2(gic->version))
			perfrec_snap_add(snap, "GICD_ITARGETSR%d", gic->intid / 4,
					 readl(gic->dist + GICD_ITARGETSRn + (gic->intid & ~3)));
		else
			perfrec_snap_add(snap, "GICD_IROUTER%d", gic->intid,
					 perfrec_gic_readq(perfrec_gic_irouter(gic)));
	}
	if (perfrec_gic_v2(gic->version)) {
		perfrec_snap_add(snap, "GICC_CTLR", -1, readl(gic->cpu + GICC_CTLR));
		perfrec_snap_add(snap, "GICC_PMR", -1, readl(gic->cpu + GICC_PMR));
		return;
	}
	perfrec_snap_add(snap, gic->intid < PERFREC_GIC_SPI_BASE ? "GICR_IGRPMODR%d" :
			 "GICD_IGRPMODR%d", gic->intid / 32,
			 readl(frame + GICR_IGROUPMODRn + 4 * (gic->intid / 32)));
	perfrec_snap_add(snap, "GICR_WAKER", -1, readl(gic->rdist + GICR_WAKER));
	perfrec_snap_add(snap, "ICC_SRE", -1, perfrec_cpu_icc_sre());
	if (!(perfrec_cpu_icc_sre() & GIC_ICC_SRE_SRE))
		return;	/* ICC_* other than SRE are not accessible */
	perfrec_snap_add(snap, PERFREC_REGNAME_EL1("ICC_PMR"), -1, read_icc_pmr());
	perfrec_snap_add(snap, PERFREC_REGNAME_EL1("ICC_CTLR"), -1, read_icc_ctlr());
	if (perfrec_cpu_el() == 3)
		perfrec_snap_add(snap, PERFREC_REGNAME_EL3("ICC_CTLR"), -1, read_icc_mctlr());
	perfrec_snap_add(snap, PERFREC_REGNAME_EL1("ICC_IGRPEN1"), -1, read_icc_igrpen1());
	if (gic->group0)
		perfrec_snap_add(snap, PERFREC_REGNAME_EL1("ICC_IGRPEN0"), -1,
				 read_icc_igrpen0());
}

void perfrec_gic_snapshot_tables(const struct perfrec_gic *gic, struct perfrec_snapshot *snap)
{
	const struct perfrec_mmu_borrow *b = &gic->borrow;
	uint i;

	for (i = 0; i < b->nr; i++)
		perfrec_snap_add(snap, "page table entry %d", i,
				 b->restored ? *b->change[i].desc : b->change[i].old);
}
