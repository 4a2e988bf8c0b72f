// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Unit tests for what perfrec does without a PMU: the report engine, buffer
 * placement, the streaming rate limiter, the page-table walk and the
 * BCM2836 local controller's routing
 *
 * The report engine (lib/perfrec/perfrec_profile.c) gets synthetic samples
 * and a synthetic symbol table laid out as U-Boot's system_map, and the
 * printed report is read back with console recording. test/py/tests/
 * test_perfrec.py checks the same report on QEMU with real samples.
 */

#include <console.h>
#include <env.h>
#include <perfrec.h>
#include <perfrec_bcm2836.h>
#include <perfrec_compat.h>
#include <perfrec_gic_ctlr.h>
#include <perfrec_mmu.h>
#include <perfrec_period.h>
#include <perfrec_report.h>
#include <perfrec_stream.h>
#include <asm/global_data.h>
#include <asm/u-boot.h>
#include <linux/kernel.h>
#include <linux/libfdt.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <test/lib.h>
#include <test/test.h>
#include <test/ut.h>

DECLARE_GLOBAL_DATA_PTR;

/*
 * The image: linked at 0x1000, running at 0x40001000, 0x400 bytes long.
 * main_loop has an alias with more leading underscores (listed first), warm
 * a shorter alias (listed second): the report shows perf's choice of each.
 * "end" lies outside the image and is never a sample's name.
 */
#define PR_LINK		0x1000UL
#define PR_RELOC_OFF	0x40000000UL
#define PR_RUN(link)	((link) + PR_RELOC_OFF)
#define PR_IMAGE_BYTES	0x400

static const char pr_symbols[] =
	"0000000000001000__main_loop\0"
	"0000000000001000main_loop\0"
	"0000000000001100hot\0"
	"0000000000001200warm_longer\0"
	"0000000000001200warm\0"
	"0000000000001300cold\0"
	"0000000000001400end\0";

static const char *const pr_event_names[] = { "cycles", "instructions" };

/* The samples the next report walks */
static const struct perfrec_sample_view *pr_samples;
static uint pr_nr_samples;

static int pr_walk(perfrec_sample_fn fn, void *ctx)
{
	uint i;
	int ret;

	for (i = 0; i < pr_nr_samples; i++) {
		ret = fn(ctx, &pr_samples[i]);
		if (ret)
			return ret;
	}

	return 0;
}

/**
 * pr_report() - Print the report of some samples, console recording on
 *
 * @samples: the samples
 * @nr_samples: how many
 * @top: functions and call paths to show
 * Return: what perfrec_report_print() returned
 */
static int pr_report(const struct perfrec_sample_view *samples, uint nr_samples, uint top)
{
	const struct perfrec_report_src src = {
		.walk = pr_walk,
		.nr_events = ARRAY_SIZE(pr_event_names),
		.event_names = pr_event_names,
		.symbols = pr_symbols,
		.run_start = PR_RUN(PR_LINK),
		.run_len = PR_IMAGE_BYTES,
		.reloc_off = PR_RELOC_OFF,
	};

	pr_samples = samples;
	pr_nr_samples = nr_samples;
	console_record_reset_enable();

	return perfrec_report_print(&src, top);
}

/*
 * cycles: hot 3 x 100, warm 150, main_loop 100, and 2 x 40 outside the
 * image (below and above it); instructions: cold 7. Of 630 cycles, hot has
 * 47.61%, warm_longer 23.80%, main_loop 15.87%, [unknown] 12.69% although
 * it has more samples than the two before it.
 */
static const struct perfrec_sample_view pr_flat[] = {
	{ .event = 0, .ip = PR_RUN(0x1104), .period = 100 },
	{ .event = 0, .ip = PR_RUN(0x1010), .period = 100 },
	{ .event = 0, .ip = PR_RUN(0x1000) - 0x10, .period = 40 },
	{ .event = 1, .ip = PR_RUN(0x13f0), .period = 7 },
	{ .event = 0, .ip = PR_RUN(0x1100), .period = 100 },
	{ .event = 0, .ip = PR_RUN(0x1280), .period = 150 },
	{ .event = 0, .ip = PR_RUN(0x1400), .period = 40 },
	{ .event = 0, .ip = PR_RUN(0x11fc), .period = 100 },
};

/* Shares, sample counts, order by events, aliases and [unknown], per event */
static int lib_test_perfrec_report_flat(struct unit_test_state *uts)
{
	ut_assertok(pr_report(pr_flat, ARRAY_SIZE(pr_flat), 10));
	ut_assert_nextline("perfrec report: 7 samples of cycles, 630 events");
	ut_assert_nextline("  Overhead  Samples  Symbol");
	ut_assert_nextline("     47.61%%        3  hot");
	ut_assert_nextline("     23.80%%        1  warm_longer");
	ut_assert_nextline("     15.87%%        1  main_loop");
	ut_assert_nextline("     12.69%%        2  [unknown]");
	ut_assert_nextline("perfrec report: 1 samples of instructions, 7 events");
	ut_assert_nextline("  Overhead  Samples  Symbol");
	ut_assert_nextline("    100.00%%        1  cold");
	ut_assert_console_end();

	return 0;
}

LIB_TEST(lib_test_perfrec_report_flat, 0);

/* Only the @top hottest functions are shown */
static int lib_test_perfrec_report_top(struct unit_test_state *uts)
{
	ut_assertok(pr_report(pr_flat, ARRAY_SIZE(pr_flat), 2));
	ut_assert_nextline("perfrec report: 7 samples of cycles, 630 events");
	ut_assert_nextline("  Overhead  Samples  Symbol");
	ut_assert_nextline("     47.61%%        3  hot");
	ut_assert_nextline("     23.80%%        1  warm_longer");
	ut_assert_nextline("perfrec report: 1 samples of instructions, 7 events");
	ut_assert_nextline("  Overhead  Samples  Symbol");
	ut_assert_nextline("    100.00%%        1  cold");
	ut_assert_console_end();

	return 0;
}

LIB_TEST(lib_test_perfrec_report_top, 0);

/* No samples: one line says so */
static int lib_test_perfrec_report_empty(struct unit_test_state *uts)
{
	ut_assertok(pr_report(pr_flat, 0, 10));
	ut_assert_nextline("perfrec report: no samples");
	ut_assert_console_end();

	return 0;
}

LIB_TEST(lib_test_perfrec_report_empty, 0);

/*
 * Return addresses point after their call (bl): the caller is named at the
 * address before. 0x1208 - 4 is in warm (its alias warm_longer), 0x1014 - 4
 * in main_loop; a caller outside the image ends the path.
 */
static const u64 pr_chain_deep[] = { PR_RUN(0x1208), PR_RUN(0x1014) };
static const u64 pr_chain_short[] = { PR_RUN(0x1014) };
static const u64 pr_chain_outside[] = { PR_RUN(0x2004) };

static const struct perfrec_sample_view pr_chains[] = {
	{ .ip = PR_RUN(0x1104), .period = 1, .chain = pr_chain_short, .chain_len = 1 },
	{ .ip = PR_RUN(0x1104), .period = 1, .chain = pr_chain_deep, .chain_len = 2 },
	{ .ip = PR_RUN(0x1300), .period = 1, .chain = pr_chain_outside, .chain_len = 1 },
	{ .ip = PR_RUN(0x1108), .period = 1, .chain = pr_chain_deep, .chain_len = 2 },
	{ .ip = PR_RUN(0x1300), .period = 1 },
};

/* Call paths, callee first, by samples; ties keep the order first seen */
static int lib_test_perfrec_report_paths(struct unit_test_state *uts)
{
	ut_assertok(pr_report(pr_chains, ARRAY_SIZE(pr_chains), 10));
	ut_assert_nextline("perfrec report: 5 samples of cycles, 5 events");
	ut_assert_nextline("  Overhead  Samples  Symbol");
	ut_assert_nextline("     60.00%%        3  hot");
	ut_assert_nextline("     40.00%%        2  cold");
	ut_assert_nextline("perfrec report: 0 samples of instructions, 0 events");
	ut_assert_nextline("  Overhead  Samples  Symbol");
	ut_assert_nextline("  Call paths (callee first)");
	ut_assert_nextline("     40.00%% hot <- warm_longer <- main_loop");
	ut_assert_nextline("     40.00%% cold");
	ut_assert_nextline("     20.00%% hot <- main_loop");
	ut_assert_console_end();

	return 0;
}

LIB_TEST(lib_test_perfrec_report_paths, 0);

/* The stream's budget grows at the rate with time, to one second's worth */
static int lib_test_perfrec_stream_refill(struct unit_test_state *uts)
{
	/* 1000 bytes a second: a byte a millisecond */
	ut_asserteq(0, perfrec_stream_refill(0, 0, 1000));
	ut_asserteq(100, perfrec_stream_refill(0, 100, 1000));
	ut_asserteq(350, perfrec_stream_refill(250, 100, 1000));
	ut_asserteq(1000, perfrec_stream_refill(0, 1000, 1000));
	/* Never more than a second's worth, however long the wait */
	ut_asserteq(1000, perfrec_stream_refill(0, 60000, 1000));
	ut_asserteq(1000, perfrec_stream_refill(900, 500, 1000));
	/* A chunk over budget is paid back by time before the next */
	ut_asserteq(-200, perfrec_stream_refill(-300, 100, 1000));
	ut_asserteq(100, perfrec_stream_refill(-300, 400, 1000));
	/* A fresh stream (budget 0) at a high rate, and a stream that is off */
	ut_asserteq(115200 / 10, perfrec_stream_refill(0, 100, 115200));
	ut_asserteq(0, perfrec_stream_refill(0, 5000, 0));

	return 0;
}

LIB_TEST(lib_test_perfrec_stream_refill, 0);

/*
 * The timer's next deadline: a period on, whole periods more when the
 * interrupt came late, and always the gap's ticks ahead of now, so that a
 * handler slower than its period cannot take the next interrupt at once
 */
static int lib_test_perfrec_timer_next(struct unit_test_state *uts)
{
	u64 missed;

	/* On time: a period on, nothing skipped */
	ut_asserteq_64(1100, perfrec_period_timer_next(1000, 100, 1010, 20, &missed));
	ut_asserteq_64(0, missed);
	/* Late by 2.5 periods: the phase kept, three deadlines skipped */
	ut_asserteq_64(1400, perfrec_period_timer_next(1000, 100, 1350, 20, &missed));
	ut_asserteq_64(3, missed);
	/* The next deadline a tick away: skipped, the workload gets its gap */
	ut_asserteq_64(1200, perfrec_period_timer_next(1000, 100, 1099, 20, &missed));
	ut_asserteq_64(1, missed);
	ut_asserteq_64(1200, perfrec_period_timer_next(1000, 100, 1081, 20, &missed));
	ut_asserteq_64(1, missed);
	ut_asserteq_64(1100, perfrec_period_timer_next(1000, 100, 1080, 20, &missed));
	ut_asserteq_64(0, missed);
	/* A period shorter than the gap: as many as the gap takes */
	ut_asserteq_64(1030, perfrec_period_timer_next(1000, 3, 1010, 20, &missed));
	ut_asserteq_64(9, missed);

	return 0;
}

LIB_TEST(lib_test_perfrec_timer_next, 0);

/*
 * -j: each period drawn within pct percent of the base, either way, and
 * never longer than the counter runs: a 32-bit event counter with a base
 * above 2^32 / 1.5 would otherwise run the drawn period modulo 2^32 while
 * the sample records it whole
 */
static int lib_test_perfrec_jitter(struct unit_test_state *uts)
{
	u64 rng = 1, base = 4000000000ULL, lo = U64_MAX, hi = 0, got;
	uint i;

	for (i = 0; i < 2000; i++) {
		got = perfrec_period_jitter(base, 50, &rng, U32_MAX);
		ut_assert(got >= base / 2 && got <= U32_MAX);
		lo = min(lo, got);
		hi = max(hi, got);
	}
	/* Both ways, and up to the counter's width */
	ut_assert(lo < base / 2 + base / 10);
	ut_asserteq_64(U32_MAX, hi);
	/* Within the width nothing is cut: 10% of 1000 either way */
	lo = U64_MAX;
	hi = 0;
	for (i = 0; i < 2000; i++) {
		got = perfrec_period_jitter(1000, 10, &rng, U32_MAX);
		ut_assert(got >= 900 && got <= 1100);
		lo = min(lo, got);
		hi = max(hi, got);
	}
	ut_asserteq_64(900, lo);
	ut_asserteq_64(1100, hi);
	/* A period too short to vary stays as it is */
	ut_asserteq_64(5, perfrec_period_jitter(5, 10, &rng, U32_MAX));

	return 0;
}

LIB_TEST(lib_test_perfrec_jitter, 0);

/*
 * GICD_CTLR's enable bits by the view perfrec has: in the non-secure view
 * of a GICv2 with Security Extensions bit 1 is reserved and bit 0 enables
 * Group 1 (firmware such as TF-A may leave it clear: no interrupt came)
 */
static int lib_test_perfrec_gicd_ctlr(struct unit_test_state *uts)
{
	/* Both groups ours: a GIC with one security state, or secure access */
	ut_asserteq(BIT(0) | BIT(1), perfrec_gicd_ctlr_enable(2, true));
	ut_asserteq(BIT(0) | BIT(1), perfrec_gicd_ctlr_enable(3, true));
	/* Non-secure: v2's Enable (Group 1) and v3's EnableGrp1A */
	ut_asserteq(BIT(0), perfrec_gicd_ctlr_enable(2, false));
	ut_asserteq(BIT(1), perfrec_gicd_ctlr_enable(3, false));

	return 0;
}

LIB_TEST(lib_test_perfrec_gicd_ctlr, 0);

/*
 * Buffer placement. U-Boot's own memory is what lies from below its stack to
 * the top of RAM: 2025.01's lmb reserves it (lmb_reserve_uboot_region()),
 * 2023.01's is rebuilt from the banks and the device tree at each check, and
 * on sandbox (no arch_lmb_reserve()) reserves nothing. So the tests run
 * with a device tree that marks that memory as /memreserve/, as the board's
 * arch_lmb_reserve() would; 2025.01 ignores it and reserves the same itself.
 */
#define PR_FDT_BYTES	SZ_1K

static u8 pr_fdt[PR_FDT_BYTES] __aligned(8);

/**
 * pr_uboot_start() - Where U-Boot's own memory starts
 *
 * Return: the bottom of its stack, as lmb reserves it
 */
static ulong pr_uboot_start(void)
{
	return gd->start_addr_sp - CONFIG_STACK_SIZE;
}

/* A buffer outside DRAM, one over U-Boot, and a free one */
static int pr_buffer_check(struct unit_test_state *uts)
{
	ulong start = PERFREC_DRAM_BANK(gd, 0).start, bytes = PERFREC_DRAM_BANK(gd, 0).size;
	ulong end = start + bytes;

	/* Past the end of DRAM, across its end, and larger than it */
	ut_asserteq(-ERANGE, perfrec_buffer_check(end + SZ_1M, SZ_64K));
	ut_asserteq(-ERANGE, perfrec_buffer_check(end - SZ_64K, SZ_128K));
	ut_asserteq(-ERANGE, perfrec_buffer_check(start, bytes + SZ_64K));
	/*
	 * Inside U-Boot's own memory, near its bottom and at its top, and from
	 * below its bottom into it (the check reads lmb's reservations: see
	 * perfrec_lmb_range_free() for what 2025.01's lmb_alloc_addr() misses)
	 */
	ut_asserteq(-EADDRINUSE, perfrec_buffer_check(ALIGN(pr_uboot_start(), SZ_64K),
						      SZ_64K));
	ut_asserteq(-EADDRINUSE, perfrec_buffer_check(ALIGN_DOWN(pr_uboot_start(), SZ_64K) -
						      SZ_64K, SZ_128K));
	ut_asserteq(-EADDRINUSE, perfrec_buffer_check(gd->ram_top - SZ_64K, SZ_64K));
	/*
	 * Well below U-Boot, clear of the buffers the QEMU tests record into
	 * (0x50000000 and the top of free DRAM: from 2024.10 lmb keeps the last
	 * one until the next recording)
	 */
	ut_assertok(perfrec_buffer_check(start + bytes / 8, SZ_1M));

	return 0;
}

/*
 * The default buffer: 64 KiB aligned, free, clear of U-Boot (below its
 * stack, or above gd->ram_top where DRAM goes on: master's qemu_arm64 leaves
 * 2 MiB there that lmb hands out); with $loadaddr moved onto it, the next
 * one goes below $loadaddr; one that must miss a range goes below it, and
 * with nothing free clear of the range there is none
 */
static int pr_buffer_default(struct unit_test_state *uts)
{
	const char *area;
	ulong addr, below, top;

	ut_assertok(perfrec_buffer_default(SZ_1M, 0, 0, &addr, &area));
	ut_assertnull(area);
	ut_asserteq(0, addr % SZ_64K);
	ut_assertok(perfrec_buffer_check(addr, SZ_1M));
	ut_assert(addr + SZ_1M <= pr_uboot_start() || addr >= gd->ram_top);
	ut_assertok(env_set_hex("loadaddr", addr));
	ut_assertok(perfrec_buffer_default(SZ_1M, 0, 0, &below, &area));
	ut_assertnull(area);
	ut_asserteq(0, below % SZ_64K);
	ut_assertok(perfrec_buffer_check(below, SZ_1M));
	ut_assert(below + SZ_1M <= addr);
	/* A range to miss (free to lmb) under the buffer's top: one goes below */
	ut_assertok(perfrec_buffer_default(SZ_1M, 0, 0, &top, &area));
	ut_assertok(perfrec_buffer_default(SZ_1M, top + SZ_1M - 1, 2, &below, &area));
	ut_assertok(perfrec_buffer_check(below, SZ_1M));
	ut_assert(below + SZ_1M <= top + SZ_1M - 1);
	/* All of free DRAM to miss: no room */
	ut_asserteq(-ENOMEM, perfrec_buffer_default(SZ_1M, gd->ram_base, ~0UL - gd->ram_base,
						    &below, &area));

	return 0;
}

/**
 * pr_with_fdt() - Run a test with U-Boot's own memory reserved in the device tree
 *
 * @uts: test state
 * @test: the test
 * Return: what @test returned
 */
static int pr_with_fdt(struct unit_test_state *uts,
		       int (*test)(struct unit_test_state *uts))
{
	const void *saved = gd->fdt_blob;
	int ret;

	ut_assertok(fdt_create_empty_tree(pr_fdt, sizeof(pr_fdt)));
	ut_assertok(fdt_add_mem_rsv(pr_fdt, pr_uboot_start(),
				    gd->ram_top - pr_uboot_start()));
	gd->fdt_blob = pr_fdt;
	ret = test(uts);
	gd->fdt_blob = saved;

	return ret;
}

static int lib_test_perfrec_buffer_check(struct unit_test_state *uts)
{
	return pr_with_fdt(uts, pr_buffer_check);
}

LIB_TEST(lib_test_perfrec_buffer_check, 0);

static int lib_test_perfrec_buffer_default(struct unit_test_state *uts)
{
	char *loadaddr = env_get("loadaddr");
	char saved[20] = "";
	int ret;

	if (loadaddr)
		strlcpy(saved, loadaddr, sizeof(saved));
	ret = pr_with_fdt(uts, pr_buffer_default);
	ut_assertok(env_set("loadaddr", loadaddr ? saved : NULL));

	return ret;
}

LIB_TEST(lib_test_perfrec_buffer_default, 0);

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
