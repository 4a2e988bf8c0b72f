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
 */

#include <command.h>
#include <perfrec_compat.h>
#include <stdio.h>
#include <vsprintf.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

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

/* The leaf's work: a data-dependent loop the compiler cannot fold */
static noinline ulong perfrec_test_spin(ulong loops)
{
	ulong acc = 1;

	while (loops--) {
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
		barrier();
	}

	return acc;
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

U_BOOT_LONGHELP(perfrec_test,
		"chain <depth> <loops> - spin in the <depth>th of nested calls\n"
		"perfrec_test calls <loops> - call a small function <loops> times\n"
		"perfrec_test trash <loops> - spin with garbage in x29 and x30");

U_BOOT_CMD_WITH_SUBCMDS(perfrec_test, "Workloads with known profiles, for perfrec's tests",
			perfrec_test_help_text,
	U_BOOT_SUBCMD_MKENT(chain, 3, 0, do_perfrec_test_chain),
	U_BOOT_SUBCMD_MKENT(calls, 2, 0, do_perfrec_test_calls),
	U_BOOT_SUBCMD_MKENT(trash, 2, 0, do_perfrec_test_trash));
