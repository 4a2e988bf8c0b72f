// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Unit tests for what perfrec does without a PMU: the report engine, buffer
 * placement, the streaming rate limiter, the timer's and the jitter's
 * arithmetic, GICD_CTLR's enable bits (perfrec_hw.c: the page-table walk and
 * the BCM2836 local controller's routing)
 *
 * The report engine (lib/perfrec/perfrec_profile.c) gets synthetic samples
 * and a synthetic symbol table laid out as U-Boot's system_map, and the
 * printed report is read back with console recording. test/py/tests/
 * test_perfrec.py checks the same report on QEMU with real samples.
 */

#include <console.h>
#include <env.h>
#include <perfrec.h>
#include <perfrec_compat.h>
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
#include "../../drivers/perf/perfrec_bcm2836.h"
#include "../../drivers/perf/perfrec_gic_ctlr.h"
#include "../../drivers/perf/perfrec_mmu.h"

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
 * A late interrupt: whole periods skipped until the workload has
 * PERFREC_PERIOD_MIN_GAP events, so the next overflow is up to a period
 * plus PERFREC_PERIOD_MIN_GAP - 1 away. For the longest period a 32-bit
 * counter takes (perfrec_period_max()) that still fits 32 bits; one event
 * longer and it would not, and the counter's start value would lose its
 * top bit.
 */
static int lib_test_perfrec_late_gap(struct unit_test_state *uts)
{
	u64 longest = perfrec_period_max(U32_MAX), skipped;

	ut_asserteq_64(0x100000000ULL - PERFREC_PERIOD_MIN_GAP, longest);
	ut_asserteq_64(U64_MAX - PERFREC_PERIOD_MIN_GAP + 1, perfrec_period_max(U64_MAX));
	/* Room enough: nothing skipped */
	ut_asserteq_64(PERFREC_PERIOD_MIN_GAP,
		       perfrec_period_late_gap(PERFREC_PERIOD_MIN_GAP, longest, &skipped));
	ut_asserteq_64(0, skipped);
	/* One event left of the longest period: one period more, and it fits */
	ut_asserteq_64(longest + 1, perfrec_period_late_gap(1, longest, &skipped));
	ut_asserteq_64(1, skipped);
	ut_asserteq_64(U32_MAX, perfrec_period_late_gap(PERFREC_PERIOD_MIN_GAP - 1, longest,
							&skipped));
	ut_asserteq_64(1, skipped);
	/* A period past the longest would not */
	ut_assert(perfrec_period_late_gap(PERFREC_PERIOD_MIN_GAP - 1, longest + 1, &skipped) >
		  U32_MAX);
	/* A period shorter than the gap: as many as the gap takes */
	ut_asserteq_64(2 + 41 * 100, perfrec_period_late_gap(2, 100, &skipped));
	ut_asserteq_64(41, skipped);

	return 0;
}

LIB_TEST(lib_test_perfrec_late_gap, 0);

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
