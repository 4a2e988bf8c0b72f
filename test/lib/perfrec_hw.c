// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Unit tests for perfrec's hardware code that runs on memory alone: the
 * page-table walk that maps a register block, on synthetic tables, the
 * BCM2836 local controller's routing, on its registers laid out in memory,
 * and the cores whose PMU is known by MIDR, on MIDRs as silicon reads them
 */

#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <test/lib.h>
#include <test/test.h>
#include <test/ut.h>
#include "../../drivers/perf/perfrec_bcm2836.h"
#include "../../drivers/perf/perfrec_mmu.h"
#include "../../drivers/perf/pmuv3_events.h"

/*
 * Page tables with holes, as a board's mem_map leaves them: a 4 KiB granule,
 * 36 VA bits (the walk starts at level 1). The descriptors hold the tables'
 * own (host) addresses, as U-Boot's identity-mapped tables do.
 *
 *   level 1 [0] 0-1 GiB block          [1] table        [2-63] invalid
 *   level 2 [0] 0x40000000 2 MiB block [1] invalid      [2] table  [3-511] invalid
 *   level 3 [0-15] pages 0x40400000-0x4040ffff          [16-511] invalid
 */
#define PR_TT_ENTRIES	512
#define PR_TT_BLOCK	0x401UL		/* valid block, AF */
#define PR_TT_PAGE	0x403UL		/* valid page, AF */
#define PR_TT_TABLE	0x3UL
#define PR_TT_DEVICE	(BIT_ULL(54) | BIT_ULL(53) | 0x400UL)	/* XN, PXN, AF, attr 0 */
#define PR_VA_BITS	36

static u64 pr_l0[PR_TT_ENTRIES] __aligned(SZ_4K);
static u64 pr_l1[PR_TT_ENTRIES] __aligned(SZ_4K);
static u64 pr_l2[PR_TT_ENTRIES] __aligned(SZ_4K);
static u64 pr_l3[PR_TT_ENTRIES] __aligned(SZ_4K);

/* The tables above, laid out anew; @mmu walks them from level 1 */
static void pr_tables(struct perfrec_mmu *mmu)
{
	uint i;

	memset(pr_l0, 0, sizeof(pr_l0));
	memset(pr_l1, 0, sizeof(pr_l1));
	memset(pr_l2, 0, sizeof(pr_l2));
	memset(pr_l3, 0, sizeof(pr_l3));
	pr_l1[0] = 0 | PR_TT_BLOCK;
	pr_l1[1] = (uintptr_t)pr_l2 | PR_TT_TABLE;
	pr_l2[0] = 0x40000000 | PR_TT_BLOCK;
	pr_l2[2] = (uintptr_t)pr_l3 | PR_TT_TABLE;
	for (i = 0; i < 16; i++)
		pr_l3[i] = (0x40400000 + i * SZ_4K) | PR_TT_PAGE;
	mmu->root = pr_l1;
	mmu->va_bits = PR_VA_BITS;
	mmu->device_attr = 0;
}

/* All four tables as they were laid out: nothing written, or all given back */
static int pr_tables_intact(struct unit_test_state *uts)
{
	struct perfrec_mmu fresh;
	static u64 saved[4][PR_TT_ENTRIES];

	memcpy(saved[0], pr_l0, sizeof(pr_l0));
	memcpy(saved[1], pr_l1, sizeof(pr_l1));
	memcpy(saved[2], pr_l2, sizeof(pr_l2));
	memcpy(saved[3], pr_l3, sizeof(pr_l3));
	pr_tables(&fresh);
	ut_asserteq_mem(saved[0], pr_l0, sizeof(pr_l0));
	ut_asserteq_mem(saved[1], pr_l1, sizeof(pr_l1));
	ut_asserteq_mem(saved[2], pr_l2, sizeof(pr_l2));
	ut_asserteq_mem(saved[3], pr_l3, sizeof(pr_l3));

	return 0;
}

/* Each address ends its walk at the level and descriptor the layout says */
static int lib_test_perfrec_mmu_lookup(struct unit_test_state *uts)
{
	struct perfrec_mmu mmu;
	uint level;
	u64 *desc, hole;

	pr_tables(&mmu);
	ut_assertok(perfrec_mmu_lookup(&mmu, 0x1234, &desc, &level));
	ut_asserteq(1, level);
	ut_asserteq_ptr(&pr_l1[0], desc);
	ut_assertok(perfrec_mmu_lookup(&mmu, 0x401fffff, &desc, &level));
	ut_asserteq(2, level);
	ut_asserteq(-ENOENT, perfrec_mmu_lookup(&mmu, 0x40200000, &desc, &level));
	ut_asserteq(2, level);
	ut_asserteq_ptr(&pr_l2[1], desc);
	ut_assertok(perfrec_mmu_lookup(&mmu, 0x4040ffff, &desc, &level));
	ut_asserteq(3, level);
	ut_asserteq_ptr(&pr_l3[15], desc);
	ut_asserteq(-ENOENT, perfrec_mmu_lookup(&mmu, 0x40410000, &desc, &level));
	ut_asserteq_ptr(&pr_l3[16], desc);
	ut_asserteq(-ENOENT, perfrec_mmu_lookup(&mmu, 0x80000000, &desc, &level));
	ut_asserteq(1, level);
	ut_asserteq_ptr(&pr_l1[2], desc);
	ut_asserteq(-ERANGE, perfrec_mmu_lookup(&mmu, 1ULL << PR_VA_BITS, &desc, &level));

	ut_assertok(perfrec_mmu_check(&mmu, 0x40000000, SZ_2M, &hole));
	ut_assertok(perfrec_mmu_check(&mmu, 0x3ffff000, SZ_2M + SZ_4K, &hole));
	ut_assertok(perfrec_mmu_check(&mmu, 0x40400000, SZ_64K, &hole));
	ut_asserteq(-ENOENT, perfrec_mmu_check(&mmu, 0x40000000, SZ_2M + 1, &hole));
	ut_asserteq_64(0x40200000, hole);
	ut_asserteq(-ENOENT, perfrec_mmu_check(&mmu, 0x40408000, SZ_64K, &hole));
	ut_asserteq_64(0x40410000, hole);
	ut_asserteq(-ERANGE, perfrec_mmu_check(&mmu, 1ULL << PR_VA_BITS, SZ_4K, &hole));
	ut_asserteq_64(1ULL << PR_VA_BITS, hole);
	ut_asserteq(-EINVAL, perfrec_mmu_check(&mmu, 0x1000, 0, &hole));
	ut_asserteq(-EINVAL, perfrec_mmu_check(&mmu, ~0ULL - 0xfff, SZ_8K, &hole));

	return pr_tables_intact(uts);
}

LIB_TEST(lib_test_perfrec_mmu_lookup, 0);

/* Holes at levels 3, 2 and 1 become device pages and blocks; unmap gives all back */
static int lib_test_perfrec_mmu_map(struct unit_test_state *uts)
{
	struct perfrec_mmu_borrow borrow = { 0 };
	struct perfrec_mmu mmu;
	u64 hole;

	pr_tables(&mmu);
	mmu.device_attr = 2;
	/* The last mapped page and two of the hole after it */
	ut_asserteq(2, perfrec_mmu_map(&mmu, 0x4040f000, 3 * SZ_4K, &borrow));
	ut_asserteq_64(0x40410000 | PR_TT_PAGE | PR_TT_DEVICE | 2 << 2, pr_l3[16]);
	ut_asserteq_64(0x40411000 | PR_TT_PAGE | PR_TT_DEVICE | 2 << 2, pr_l3[17]);
	ut_asserteq_64(0, pr_l3[18]);
	ut_assertok(perfrec_mmu_check(&mmu, 0x40400000, 0x12000, &hole));
	/* A 2 MiB hole: one block, whatever part of it is asked for */
	ut_asserteq(1, perfrec_mmu_map(&mmu, 0x40201000, 0x10, &borrow));
	ut_asserteq_64(0x40200000 | PR_TT_BLOCK | PR_TT_DEVICE | 2 << 2, pr_l2[1]);
	ut_asserteq(0, perfrec_mmu_map(&mmu, 0x40200000, SZ_2M, &borrow));
	/* A 1 GiB hole */
	ut_asserteq(1, perfrec_mmu_map(&mmu, 0xc0000000, SZ_4K, &borrow));
	ut_asserteq_64(0xc0000000 | PR_TT_BLOCK | PR_TT_DEVICE | 2 << 2, pr_l1[3]);
	ut_asserteq(4, borrow.nr);
	ut_assert(!borrow.restored);

	perfrec_mmu_unmap(&borrow);
	ut_assert(borrow.restored);
	ut_asserteq(4, borrow.nr);	/* still listed, for the state check */
	ut_asserteq_ptr(&pr_l1[3], borrow.change[3].desc);
	ut_assertok(pr_tables_intact(uts));
	perfrec_mmu_unmap(&borrow);	/* twice is once */
	ut_assertok(pr_tables_intact(uts));

	/* The next map starts a new list */
	ut_asserteq(1, perfrec_mmu_map(&mmu, 0x80000000, SZ_4K, &borrow));
	ut_asserteq(1, borrow.nr);
	perfrec_mmu_unmap(&borrow);

	return pr_tables_intact(uts);
}

LIB_TEST(lib_test_perfrec_mmu_map, 0);

/* What cannot be mapped is refused, with the tables left exactly as they were */
static int lib_test_perfrec_mmu_refused(struct unit_test_state *uts)
{
	struct perfrec_mmu_borrow borrow = { 0 };
	struct perfrec_mmu mmu;
	u64 hole;

	pr_tables(&mmu);
	/* A hole, then past the VA range: the hole's block is taken back */
	ut_asserteq(-ERANGE, perfrec_mmu_map(&mmu, (1ULL << PR_VA_BITS) - SZ_4K, SZ_8K,
					     &borrow));
	ut_asserteq(0, borrow.nr);
	ut_assertok(pr_tables_intact(uts));
	/* More holes than the list holds: 33 pages */
	ut_asserteq(-ENOSPC, perfrec_mmu_map(&mmu, 0x40410000,
					     (PERFREC_MMU_MAX_CHANGES + 1) * SZ_4K, &borrow));
	ut_asserteq(0, borrow.nr);
	ut_assertok(pr_tables_intact(uts));
	/* Exactly as many is fine */
	ut_asserteq(PERFREC_MMU_MAX_CHANGES,
		    perfrec_mmu_map(&mmu, 0x40410000, PERFREC_MMU_MAX_CHANGES * SZ_4K, &borrow));
	perfrec_mmu_unmap(&borrow);
	ut_assertok(pr_tables_intact(uts));
	/* No Device-nGnRnE attribute in MAIR */
	mmu.device_attr = -1;
	ut_asserteq(-EOPNOTSUPP, perfrec_mmu_map(&mmu, 0x80000000, SZ_4K, &borrow));
	ut_assertok(pr_tables_intact(uts));

	/* 40 VA bits: the walk starts at level 0, whose hole needs a new table */
	mmu.device_attr = 0;
	mmu.va_bits = 40;
	mmu.root = pr_l0;
	pr_l0[0] = (uintptr_t)pr_l1 | PR_TT_TABLE;
	ut_assertok(perfrec_mmu_check(&mmu, 0x40400000, SZ_64K, &hole));
	ut_asserteq(-EOPNOTSUPP, perfrec_mmu_map(&mmu, 1ULL << 39, SZ_4K, &borrow));
	ut_asserteq(1, perfrec_mmu_map(&mmu, 0x80000000, SZ_4K, &borrow));
	perfrec_mmu_unmap(&borrow);
	ut_asserteq_64((uintptr_t)pr_l1 | PR_TT_TABLE, pr_l0[0]);
	pr_l0[0] = 0;

	return pr_tables_intact(uts);
}

LIB_TEST(lib_test_perfrec_mmu_refused, 0);

/*
 * The BCM2836 local controller's registers, as Broadcom's QA7 rev 3.4 lays
 * them out (Linux's irq-bcm2836.h has the same): written here, not taken
 * from perfrec's own definitions, so that a wrong offset or bit there fails
 */
#define QA7_GPU_INT_ROUTING		(0x0c / 4)	/* 1:0 the IRQ's core, 3:2 the FIQ's */
#define QA7_PM_ROUTING_SET		0x10
#define QA7_PM_ROUTING_CLR		0x14
#define QA7_TIMER_INT_CONTROL(core)	((0x40 + 4 * (core)) / 4)
#define QA7_MAILBOX_INT_CONTROL(core)	((0x50 + 4 * (core)) / 4)
#define QA7_IRQ_PENDING(core)		((0x60 + 4 * (core)) / 4)
#define QA7_CNTHPIRQ			2	/* the EL2 timer's source */
#define QA7_PMU_FAST			9
#define QA7_REGS			(0x100 / 4)

/* The registers as plain memory: a write-set or write-clear register keeps what was written */
static u32 pr_qa7[QA7_REGS];

/* Sandbox's readl() and writel() reach memory only when allowed (asm/test.h) */
#ifdef CONFIG_SANDBOX
#include <asm/test.h>
#define pr_qa7_memio(on)	sandbox_set_enable_memio(on)
#else
#define pr_qa7_memio(on)
#endif

/* The PMU on core 2: routed to the core's IRQ alone, and back; pending read from its source */
static int pr_bcm2836_pmu(struct unit_test_state *uts)
{
	struct perfrec_bcm2836 l1 = { .base = pr_qa7, .core = 2, .hwirq = QA7_PMU_FAST };

	memset(pr_qa7, 0, sizeof(pr_qa7));
	pr_qa7[QA7_TIMER_INT_CONTROL(2)] = 0x5a;	/* timers to IRQ and FIQ */
	pr_qa7[QA7_MAILBOX_INT_CONTROL(2)] = 0x0f;
	pr_qa7[QA7_TIMER_INT_CONTROL(0)] = 0x04;	/* another core's: never touched */
	pr_qa7[QA7_GPU_INT_ROUTING] = 2 | 2 << 2;	/* the GPU's IRQ and FIQ to core 2 */
	perfrec_bcm2836_setup(&l1);
	ut_asserteq(0, pr_qa7[QA7_TIMER_INT_CONTROL(2)]);
	ut_asserteq(0, pr_qa7[QA7_MAILBOX_INT_CONTROL(2)]);
	ut_asserteq(3 | 3 << 2, pr_qa7[QA7_GPU_INT_ROUTING]);	/* both to core 3 */
	ut_asserteq(BIT(2), pr_qa7[QA7_PM_ROUTING_SET / 4]);	/* core 2's IRQ */
	ut_asserteq(BIT(6), pr_qa7[QA7_PM_ROUTING_CLR / 4]);	/* not its FIQ */
	ut_asserteq(0x04, pr_qa7[QA7_TIMER_INT_CONTROL(0)]);

	pr_qa7[QA7_IRQ_PENDING(2)] = BIT(QA7_PMU_FAST);
	ut_assert(perfrec_bcm2836_pending(&l1));
	pr_qa7[QA7_IRQ_PENDING(2)] = BIT(QA7_CNTHPIRQ);
	pr_qa7[QA7_IRQ_PENDING(1)] = BIT(QA7_PMU_FAST);
	ut_assert(!perfrec_bcm2836_pending(&l1));
	ut_asserteq_ptr(&pr_qa7[QA7_IRQ_PENDING(2)], perfrec_bcm2836_source(pr_qa7, 2));

	perfrec_bcm2836_restore(&l1);
	ut_asserteq(0x5a, pr_qa7[QA7_TIMER_INT_CONTROL(2)]);
	ut_asserteq(0x0f, pr_qa7[QA7_MAILBOX_INT_CONTROL(2)]);
	ut_asserteq(2 | 2 << 2, pr_qa7[QA7_GPU_INT_ROUTING]);
	/* It was routed nowhere (the set register read 0): cleared from both */
	ut_asserteq(BIT(2) | BIT(6), pr_qa7[QA7_PM_ROUTING_CLR / 4]);
	ut_asserteq(0x04, pr_qa7[QA7_TIMER_INT_CONTROL(0)]);

	return 0;
}

/*
 * The EL2 timer on core 1, where the PMU was routed to the core's IRQ: the
 * PMU is routed away for the session, and back after
 */
static int pr_bcm2836_timer(struct unit_test_state *uts)
{
	struct perfrec_bcm2836 l1 = { .base = pr_qa7, .core = 1, .hwirq = QA7_CNTHPIRQ };
	u32 timer_ctl, mbox_ctl, pmu, gpu_route;

	memset(pr_qa7, 0, sizeof(pr_qa7));
	pr_qa7[QA7_PM_ROUTING_SET / 4] = BIT(1);
	pr_qa7[QA7_TIMER_INT_CONTROL(1)] = BIT(QA7_CNTHPIRQ + 4) | BIT(3);
	pr_qa7[QA7_GPU_INT_ROUTING] = 1 | 0 << 2;	/* IRQ to core 1, FIQ to core 0 */
	perfrec_bcm2836_regs(&l1, &timer_ctl, &mbox_ctl, &pmu, &gpu_route);
	ut_asserteq(BIT(QA7_CNTHPIRQ + 4) | BIT(3), timer_ctl);
	ut_asserteq(BIT(1), pmu);
	ut_asserteq(1, gpu_route);

	perfrec_bcm2836_setup(&l1);
	ut_asserteq(BIT(QA7_CNTHPIRQ), pr_qa7[QA7_TIMER_INT_CONTROL(1)]);
	ut_asserteq(2 | 0 << 2, pr_qa7[QA7_GPU_INT_ROUTING]);	/* the IRQ away, the FIQ kept */
	ut_asserteq(BIT(1) | BIT(5), pr_qa7[QA7_PM_ROUTING_CLR / 4]);
	pr_qa7[QA7_IRQ_PENDING(1)] = BIT(QA7_CNTHPIRQ) | BIT(8);
	ut_assert(perfrec_bcm2836_pending(&l1));

	perfrec_bcm2836_restore(&l1);
	ut_asserteq(BIT(QA7_CNTHPIRQ + 4) | BIT(3), pr_qa7[QA7_TIMER_INT_CONTROL(1)]);
	ut_asserteq(1, pr_qa7[QA7_GPU_INT_ROUTING]);
	ut_asserteq(BIT(5), pr_qa7[QA7_PM_ROUTING_CLR / 4]);
	ut_asserteq(BIT(1), pr_qa7[QA7_PM_ROUTING_SET / 4]);

	return 0;
}

/* Routing the BCM2836's sources: the timers and the PMU only, on cores 0-3 */
static int lib_test_perfrec_bcm2836(struct unit_test_state *uts)
{
	int ret;

	ut_assertok(perfrec_bcm2836_check(0, 0));
	ut_assertok(perfrec_bcm2836_check(3, QA7_CNTHPIRQ + 1));
	ut_assertok(perfrec_bcm2836_check(1, QA7_PMU_FAST));
	ut_asserteq(-EPROTONOSUPPORT, perfrec_bcm2836_check(0, 4));	/* mailbox 0 */
	ut_asserteq(-EPROTONOSUPPORT, perfrec_bcm2836_check(0, 8));	/* GPU */
	ut_asserteq(-ENODEV, perfrec_bcm2836_check(4, QA7_PMU_FAST));

	pr_qa7_memio(true);
	ret = pr_bcm2836_pmu(uts);
	if (!ret)
		ret = pr_bcm2836_timer(uts);
	pr_qa7_memio(false);

	return ret;
}

LIB_TEST(lib_test_perfrec_bcm2836, 0);

/*
 * The Cortex-A8 and A9 by MIDR, whatever the revision: QEMU's A9 (r0p0), a
 * Zynq-7000's (r3p0) and an i.MX6Q's (r2p10), a BeagleBone's A8 (r3p2);
 * not the A7 (PMUv2, in ID_DFR0), not another implementer's part 0xc09
 */
static int lib_test_perfrec_core_midr(struct unit_test_state *uts)
{
	static const unsigned int a9[] = { 0x410fc090, 0x413fc090, 0x412fc09a };
	uint i;

	for (i = 0; i < ARRAY_SIZE(a9); i++)
		ut_asserteq(PMUV3_CORE_A9, pmuv3_core_by_midr(a9[i]));
	ut_asserteq(PMUV3_CORE_A8, pmuv3_core_by_midr(0x413fc082));
	ut_asserteq(PMUV3_CORE_A8, pmuv3_core_by_midr(0x410fc080));
	ut_asserteq(PMUV3_CORE_ARCH, pmuv3_core_by_midr(0x410fc075));
	ut_asserteq(PMUV3_CORE_ARCH, pmuv3_core_by_midr(0x510fc090));
	ut_asserteq(PMUV3_CORE_ARCH, pmuv3_core_by_midr(0));
	ut_asserteq_str("Cortex-A8", pmuv3_core_name(PMUV3_CORE_A8));
	ut_asserteq_str("Cortex-A9", pmuv3_core_name(PMUV3_CORE_A9));
	ut_assertnull(pmuv3_core_name(PMUV3_CORE_ARCH));

	return 0;
}

LIB_TEST(lib_test_perfrec_core_midr, 0);

/*
 * What perf's generic names count on each: the A9's instructions are its
 * own 0x68 (it has no 0x08), the A8's the common 0x08; neither has a bus
 * cycle event; other cores count the common events
 */
static int lib_test_perfrec_core_events(struct unit_test_state *uts)
{
	ut_asserteq(0x68, pmuv3_core_generic(PMUV3_CORE_A9, PMUV3_EVT_INST_RETIRED));
	ut_asserteq(0x08, pmuv3_core_generic(PMUV3_CORE_A8, PMUV3_EVT_INST_RETIRED));
	ut_asserteq(0x08, pmuv3_core_generic(PMUV3_CORE_ARCH, PMUV3_EVT_INST_RETIRED));
	ut_asserteq(0x0c, pmuv3_core_generic(PMUV3_CORE_A9, PMUV3_EVT_BR_RETIRED));
	ut_asserteq(0x21, pmuv3_core_generic(PMUV3_CORE_ARCH, PMUV3_EVT_BR_RETIRED));
	ut_asserteq(PMUV3_EVT_NONE, pmuv3_core_generic(PMUV3_CORE_A9, PMUV3_EVT_BUS_CYCLES));
	ut_asserteq(PMUV3_EVT_NONE, pmuv3_core_generic(PMUV3_CORE_A8, PMUV3_EVT_STALL_BACKEND));
	ut_asserteq(0x66, pmuv3_core_generic(PMUV3_CORE_A9, PMUV3_EVT_STALL_BACKEND));
	ut_asserteq(0x03, pmuv3_core_generic(PMUV3_CORE_A9, PMUV3_EVT_L1D_CACHE_REFILL));
	/* The A9 counts 0x00-0x12 but 0x08 and 0x0e; the A8 all of them */
	ut_asserteq(0x7beff, pmuv3_core_pmceid(PMUV3_CORE_A9));
	ut_asserteq(0x7ffff, pmuv3_core_pmceid(PMUV3_CORE_A8));
	ut_asserteq(0, pmuv3_core_pmceid(PMUV3_CORE_ARCH));

	return 0;
}

LIB_TEST(lib_test_perfrec_core_events, 0);
