// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec_test command: workloads with known shapes, for perfrec's own tests
 *
 * Not for normal builds (CONFIG_CMD_PERFREC_TEST): each subcommand runs code
 * whose profile is known in advance, so the tests can check what perfrec
 * records against it.
 *
 *   chain <depth> <loops>   perfrec_test_chain1() calls ..._chain2() ... down to
 *                           ..._chain<depth>(), which spins <loops> times
 *   calls <loops>           perfrec_test_caller() calls the small
 *                           perfrec_test_leaf() <loops> times: many samples
 *                           land in prologues and epilogues
 *   trash <loops>           spins with x29 and x30 holding garbage (odd, below
 *                           the stack, zero, huge), then puts them back
 *   pte <addr>              prints the page-table descriptor that translates
 *                           <addr> (hex), its level, and whether it maps it
 *   hole <addr>             makes that descriptor invalid, as a board whose
 *                           MMU map leaves out a block (the Raspberry Pi 4's
 *                           GIC); 'hole' alone puts every one back
 *   cntfrq [<hz>]           prints CNTFRQ_EL0; with <hz> (decimal), sets it
 *                           first, at EL3 only: 0 is the firmware that never
 *                           set it
 *   icc_ctlr_el3 [<val>]    prints ICC_CTLR_EL3; with <val> (hex), sets it
 *                           first (EL3 with a GICv3's system registers):
 *                           EOImode_EL3 set is firmware that splits priority
 *                           drop and deactivation
 *
 * And one fault, for boards whose PMU device cannot probe (a power domain or
 * a clock it waits for): with "perfrec,test-probe-error = <n>" in the control
 * device tree's /options/u-boot, every probe of perfrec's pmuv3 device fails
 * with -n (an event spy on EVT_DM_PRE_PROBE).
 */

#include <command.h>
#include <dm.h>
#include <errno.h>
#include <event.h>
#include <perfrec.h>
#include <perfrec_compat.h>
#include <perfrec_test.h>
#include <stdio.h>
#include <time.h>
#include <vsprintf.h>
#include <asm/system.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "../drivers/perf/perfrec_mmu.h"

#define PERFREC_TEST_MAX_DEPTH	8

/* Keep each level a real call with its own frame record */
#define PERFREC_TEST_LEVEL(n, next)						\
static noinline ulong perfrec_test_chain##n(uint depth, ulong loops)		\
{										\
	ulong ret;								\
										\
	if (depth == (n))							\
		ret = perfrec_test_spin(loops);					\
	else									\
		ret = next(depth, loops);					\
	barrier();	/* no tail call: the frame stays on the stack */	\
										\
	return ret + (n);							\
}

/* A data-dependent loop the compiler cannot fold, @inc its increment */
static __always_inline ulong perfrec_test_lcg(ulong loops, ulong inc)
{
	ulong acc = 1;

	while (loops--) {
		acc = acc * 6364136223846793005UL + inc;
		barrier();
	}

	return acc;
}

/* The leaf's work */
static noinline ulong perfrec_test_spin(ulong loops)
{
	return perfrec_test_lcg(loops, 1442695040888963407UL);
}

static noinline ulong perfrec_test_none(uint depth, ulong loops)
{
	return 0;
}

PERFREC_TEST_LEVEL(8, perfrec_test_none)
PERFREC_TEST_LEVEL(7, perfrec_test_chain8)
PERFREC_TEST_LEVEL(6, perfrec_test_chain7)
PERFREC_TEST_LEVEL(5, perfrec_test_chain6)
PERFREC_TEST_LEVEL(4, perfrec_test_chain5)
PERFREC_TEST_LEVEL(3, perfrec_test_chain4)
PERFREC_TEST_LEVEL(2, perfrec_test_chain3)
PERFREC_TEST_LEVEL(1, perfrec_test_chain2)

static int do_perfrec_test_chain(struct cmd_tbl *cmdtp, int flag, int argc,
				 char *const argv[])
{
	ulong depth, loops;

	if (argc != 3)
		return CMD_RET_USAGE;
	depth = dectoul(argv[1], NULL);
	loops = dectoul(argv[2], NULL);
	if (!depth || depth > PERFREC_TEST_MAX_DEPTH) {
		printf("Invalid depth %lu: 1 to %d\n", depth, PERFREC_TEST_MAX_DEPTH);
		return CMD_RET_FAILURE;
	}
	printf("chain %lu: %#lx\n", depth, perfrec_test_chain1(depth, loops));

	return CMD_RET_SUCCESS;
}

/*
 * The knob of 'perfrec_test knob': the same loop as perfrec_test_spin() with
 * another increment (so that the compiler does not fold the two into one)
 */
static noinline ulong perfrec_test_knob(ulong loops)
{
	return perfrec_test_lcg(loops, 1013904223UL);
}

/*
 * Spin @loops in perfrec_test_spin(), then @extra in perfrec_test_knob().
 * Nothing printed depends on either, so two runs with different @extra
 * differ only in perfrec_test_knob()'s instructions: a known delta.
 */
static int do_perfrec_test_knob(struct cmd_tbl *cmdtp, int flag, int argc,
				char *const argv[])
{
	ulong acc;

	if (argc != 3)
		return CMD_RET_USAGE;
	acc = perfrec_test_spin(dectoul(argv[1], NULL));
	acc += perfrec_test_knob(dectoul(argv[2], NULL));
	barrier_data(&acc);
	printf("knob: done\n");

	return CMD_RET_SUCCESS;
}

/* A small leaf: its prologue and epilogue are much of its time */
static noinline ulong perfrec_test_leaf(ulong x)
{
	barrier();

	return x * 3 + 1;
}

static noinline ulong perfrec_test_caller(ulong loops)
{
	ulong acc = 0;

	while (loops--)
		acc = perfrec_test_leaf(acc);
	barrier();	/* no tail call */

	return acc;
}

static int do_perfrec_test_calls(struct cmd_tbl *cmdtp, int flag, int argc,
				 char *const argv[])
{
	if (argc != 2)
		return CMD_RET_USAGE;
	printf("calls: %#lx\n", perfrec_test_caller(dectoul(argv[1], NULL)));

	return CMD_RET_SUCCESS;
}

/*
 * Spin with frame pointer and link register holding garbage, each value for
 * a quarter of the loops; x29 and x30 are saved on the stack around it.
 */
static noinline void perfrec_test_trash(ulong loops)
{
	static const ulong bad_fp[] = { 0x7, 0x10, 0xfffffffffffffff0UL, 0x0 };
	uint i;

	for (i = 0; i < ARRAY_SIZE(bad_fp); i++) {
		ulong n = loops / ARRAY_SIZE(bad_fp);

		asm volatile("stp	x29, x30, [sp, #-16]!\n"
			     "mov	x29, %1\n"
			     "mov	x30, %1\n"
			     "1:	subs	%0, %0, #1\n"
			     "b.ne	1b\n"
			     "ldp	x29, x30, [sp], #16\n"
			     : "+r" (n) : "r" (bad_fp[i]) : "cc", "memory");
	}
}

static int do_perfrec_test_trash(struct cmd_tbl *cmdtp, int flag, int argc,
				 char *const argv[])
{
	if (argc != 2)
		return CMD_RET_USAGE;
	perfrec_test_trash(dectoul(argv[1], NULL) | 4);
	printf("trash: done\n");

	return CMD_RET_SUCCESS;
}

/*
 * Register integrity: perfrec_test_regs_spin() fills every general register
 * but x17 (its loop counter), x18 (gd), x29 and x30, and all 32 SIMD
 * registers, with patterns; spins @loops times touching only x17; then
 * stores them all to @out. An interrupt that clobbered any of them shows.
 * GPR k of the fill order x0..x15, x19..x28, x16 holds seed + k * step;
 * SIMD register n holds { x(n % 16), x((n + 7) % 16) }.
 */
#define PERFREC_TEST_REGS_GPRS		27
/* The GPRs, a word of padding (q0 sits 16-byte aligned), the SIMD registers */
#define PERFREC_TEST_REGS_QBASE		(PERFREC_TEST_REGS_GPRS + 1)
#define PERFREC_TEST_REGS_WORDS		(PERFREC_TEST_REGS_QBASE + 2 * 32)
#define PERFREC_TEST_REGS_STEP		0x0101010101010101UL

/* The value perfrec_test_regs_spin() put in GPR @k of its fill order */
static u64 perfrec_test_regs_gpr(u64 seed, uint k)
{
	return seed + k * PERFREC_TEST_REGS_STEP;
}

static int do_perfrec_test_regs(struct cmd_tbl *cmdtp, int flag, int argc,
				char *const argv[])
{
	/* Stored order: x0..x15, x16, x19..x28, then q0..q31 (two words each) */
	static const u8 fill_order[PERFREC_TEST_REGS_GPRS] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 26,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	};
	static const u8 gpr_name[PERFREC_TEST_REGS_GPRS] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
	};
	u64 out[PERFREC_TEST_REGS_WORDS];
	ulong loops;
	u64 seed;
	uint i, bad = 0;

	if (argc != 2)
		return CMD_RET_USAGE;
	loops = dectoul(argv[1], NULL);
	if (!loops) {
		printf("Invalid loop count '%s'\n", argv[1]);
		return CMD_RET_FAILURE;
	}
	seed = timer_get_us() * 0x9e3779b97f4a7c15UL;
	perfrec_test_regs_spin(out, loops, seed);
	for (i = 0; i < PERFREC_TEST_REGS_GPRS; i++) {
		u64 want = perfrec_test_regs_gpr(seed, fill_order[i]);

		if (out[i] != want && bad++ < 8)
			printf("regs: x%u is %#llx, not %#llx\n", gpr_name[i], out[i], want);
	}
	for (i = 0; i < 32; i++) {
		u64 lo = perfrec_test_regs_gpr(seed, i % 16);
		u64 hi = perfrec_test_regs_gpr(seed, (i + 7) % 16);
		const u64 *q = &out[PERFREC_TEST_REGS_QBASE + 2 * i];

		if ((q[0] != lo || q[1] != hi) && bad++ < 8)
			printf("regs: q%u is %#llx:%#llx, not %#llx:%#llx\n", i, q[1], q[0],
			       hi, lo);
	}
	if (bad) {
		printf("regs: %u registers changed\n", bad);
		return CMD_RET_FAILURE;
	}
	printf("regs: all %u registers kept\n", PERFREC_TEST_REGS_GPRS + 32);

	return CMD_RET_SUCCESS;
}

/* The descriptor that translates the address in @arg, from the tables in use */
static int perfrec_test_find_pte(const char *arg, ulong *addrp, u64 **descp, uint *levelp)
{
	struct perfrec_mmu mmu;
	char *end;

	*addrp = hextoul(arg, &end);
	if (*end || !*arg) {
		printf("Invalid address '%s'\n", arg);
		return -EINVAL;
	}
	if (perfrec_mmu_get(&mmu)) {
		printf("The MMU is off, or its granule is not 4 KiB\n");
		return -ENOENT;
	}

	return perfrec_mmu_lookup(&mmu, *addrp, descp, levelp);
}

static int do_perfrec_test_pte(struct cmd_tbl *cmdtp, int flag, int argc,
			       char *const argv[])
{
	ulong addr;
	uint level;
	u64 *desc;
	int ret;

	if (argc != 2)
		return CMD_RET_USAGE;
	ret = perfrec_test_find_pte(argv[1], &addr, &desc, &level);
	if (ret == -ERANGE)
		printf("pte %#lx: outside the translated range\n", addr);
	else if (ret == 0 || ret == -ENOENT)
		printf("pte %#lx: level %u, %#llx, %s\n", addr, level, *desc,
		       ret ? "unmapped" : "mapped");
	else
		return CMD_RET_FAILURE;

	return CMD_RET_SUCCESS;
}

/* The descriptors 'perfrec_test hole' cleared, to put back */
static struct perfrec_mmu_borrow perfrec_test_holes;

static int do_perfrec_test_hole(struct cmd_tbl *cmdtp, int flag, int argc,
				char *const argv[])
{
	struct perfrec_mmu_borrow *holes = &perfrec_test_holes;
	struct perfrec_mmu_change *ch;
	ulong addr;
	uint level;
	u64 *desc;

	if (argc == 1) {
		printf("hole: %u descriptors put back\n", holes->nr);
		perfrec_mmu_unmap(holes);
		perfrec_mmu_sync(holes);
		memset(holes, 0, sizeof(*holes));
		return CMD_RET_SUCCESS;
	}
	if (argc != 2)
		return CMD_RET_USAGE;
	if (perfrec_test_find_pte(argv[1], &addr, &desc, &level)) {
		printf("hole %#lx: not mapped\n", addr);
		return CMD_RET_FAILURE;
	}
	if (holes->nr == PERFREC_MMU_MAX_CHANGES) {
		printf("hole: %u holes already\n", holes->nr);
		return CMD_RET_FAILURE;
	}
	ch = &holes->change[holes->nr++];
	ch->desc = desc;
	ch->old = *desc;
	*desc = 0;
	perfrec_mmu_sync(holes);
	printf("hole %#lx: level %u descriptor %#llx cleared\n", addr, level, ch->old);

	return CMD_RET_SUCCESS;
}

static int do_perfrec_test_cntfrq(struct cmd_tbl *cmdtp, int flag, int argc,
				  char *const argv[])
{
	ulong hz;

	if (argc > 2)
		return CMD_RET_USAGE;
	if (argc == 2) {
		if (current_el() != 3) {
			printf("CNTFRQ_EL0 is writable at EL3 only (this is EL%u)\n", current_el());
			return CMD_RET_FAILURE;
		}
		hz = dectoul(argv[1], NULL);
		asm volatile("msr cntfrq_el0, %0" : : "r" ((u64)hz));
		isb();
	}
	asm volatile("mrs %0, cntfrq_el0" : "=r" (hz));
	printf("CNTFRQ_EL0 %lu\n", hz);

	return CMD_RET_SUCCESS;
}

static int do_perfrec_test_icc_ctlr_el3(struct cmd_tbl *cmdtp, int flag, int argc,
					char *const argv[])
{
	u64 pfr0, sre = 0, val;

	if (argc > 2)
		return CMD_RET_USAGE;
	asm volatile("mrs %0, id_aa64pfr0_el1" : "=r" (pfr0));
	if (current_el() == 3 && (pfr0 >> 24) & 0xf)
		asm volatile("mrs %0, icc_sre_el3" : "=r" (sre));
	if (!(sre & 1)) {
		printf("ICC_CTLR_EL3 needs EL3 and a GICv3's system registers (this is EL%u)\n",
		       current_el());
		return CMD_RET_FAILURE;
	}
	if (argc == 2) {
		val = hextoul(argv[1], NULL);
		asm volatile("msr icc_ctlr_el3, %0" : : "r" (val));
		isb();
	}
	asm volatile("mrs %0, icc_ctlr_el3" : "=r" (val));
	printf("ICC_CTLR_EL3 %#llx\n", val);

	return CMD_RET_SUCCESS;
}

U_BOOT_LONGHELP(perfrec_test,
		"chain <depth> <loops> - spin in the <depth>th of nested calls\n"
		"perfrec_test calls <loops> - call a small function <loops> times\n"
		"perfrec_test knob <loops> <extra> - spin <loops>, then <extra> in another function\n"
		"perfrec_test trash <loops> - spin with garbage in x29 and x30\n"
		"perfrec_test regs <loops> - spin with patterns in every register, then check them\n"
		"perfrec_test pte <addr> - print the page-table descriptor that translates <addr>\n"
		"perfrec_test hole [<addr>] - unmap the block or page of <addr>; without it, map all back\n"
		"perfrec_test cntfrq [<hz>] - print CNTFRQ_EL0; with <hz>, set it first (EL3 only)\n"
		"perfrec_test icc_ctlr_el3 [<val>] - print ICC_CTLR_EL3; with <val>, set it first");

/* The fault of the file's comment: "perfrec,test-probe-error" fails the pmuv3 device's probe */
static int perfrec_test_probe_error(void *ctx, struct event *event)
{
	struct udevice *dev = event->data.dm.dev;
	u32 err;

	if (strcmp(dev->driver->name, "pmuv3") ||
	    ofnode_read_u32(ofnode_path("/options/u-boot"), "perfrec,test-probe-error", &err))
		return 0;

	return -(int)err;
}

PERFREC_EVENT_SPY(EVT_DM_PRE_PROBE, perfrec_test_probe_error);

U_BOOT_CMD_WITH_SUBCMDS(perfrec_test, "Workloads with known profiles, for perfrec's tests",
			perfrec_test_help_text,
	U_BOOT_SUBCMD_MKENT(chain, 3, 0, do_perfrec_test_chain),
	U_BOOT_SUBCMD_MKENT(calls, 2, 0, do_perfrec_test_calls),
	U_BOOT_SUBCMD_MKENT(knob, 3, 0, do_perfrec_test_knob),
	U_BOOT_SUBCMD_MKENT(trash, 2, 0, do_perfrec_test_trash),
	U_BOOT_SUBCMD_MKENT(regs, 2, 0, do_perfrec_test_regs),
	U_BOOT_SUBCMD_MKENT(pte, 2, 0, do_perfrec_test_pte),
	U_BOOT_SUBCMD_MKENT(hole, 2, 0, do_perfrec_test_hole),
	U_BOOT_SUBCMD_MKENT(cntfrq, 2, 0, do_perfrec_test_cntfrq),
	U_BOOT_SUBCMD_MKENT(icc_ctlr_el3, 2, 0, do_perfrec_test_icc_ctlr_el3));
