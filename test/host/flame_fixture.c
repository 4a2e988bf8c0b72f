// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Tiny aarch64 image with a call tree, for the flame graph host tests
 *
 * Linked like perf_fixture.c (see build_fixture() in test/host/conftest.py),
 * with -fno-inline so that every function and every call stays. The tests
 * read the call sites with objdump and build callchains whose return
 * addresses are the real ones:
 *
 *   _start -> flame_main -> flame_init -> flame_init_dram
 *                        -> flame_command -> flame_crc32 -> flame_crc32_loop
 *                                         -> flame_copy
 */

#define FLAME_NOPS(n)	__asm__ volatile(".rept " #n "\n\tnop\n\t.endr")

static void flame_main(void);
static void flame_init(void);
static void flame_init_dram(void);
static void flame_command(void);
static void flame_crc32(void);
static void flame_crc32_loop(void);
static void flame_copy(void);

void _start(void)
{
	for (;;)
		flame_main();
}

static void flame_main(void)
{
	flame_init();
	flame_command();
	FLAME_NOPS(4);
}

static void flame_init(void)
{
	flame_init_dram();
	FLAME_NOPS(2);
}

static void flame_init_dram(void)
{
	FLAME_NOPS(8);
}

static void flame_command(void)
{
	flame_crc32();
	flame_copy();
	FLAME_NOPS(2);
}

static void flame_crc32(void)
{
	flame_crc32_loop();
	FLAME_NOPS(2);
}

static void flame_crc32_loop(void)
{
	FLAME_NOPS(16);
}

static void flame_copy(void)
{
	FLAME_NOPS(8);
}
