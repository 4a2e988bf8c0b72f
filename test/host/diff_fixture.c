// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Two builds of a tiny aarch64 image, for the host tests of perfrec_diff.py
 *
 * Linked with diff_fixture_b.c like perf_fixture.c (build_fixture() in
 * test/host/conftest.py). Built twice: without and with -DDIFF_NEW, whose
 * layout differs (a padding function first) and whose compiler clones have
 * other names, as two builds of one source would:
 *
 *   base: diff_scan.isra.0                 new: diff_scan.constprop.3, diff_scan.cold
 *   base: diff_gone                        new: diff_fresh
 *
 * diff_helper is a static function here and in diff_fixture_b.c: the same
 * name in two files, told apart by the ELF's STT_FILE symbols.
 */

#define DIFF_NOPS(n)	__asm__ volatile(".rept " #n "\n\tnop\n\t.endr")

void diff_b_entry(void);

#ifdef DIFF_NEW
void diff_pad(void)
{
	DIFF_NOPS(64);
}

static void diff_scan(void) __asm__("diff_scan.constprop.3");
static void diff_scan_cold(void) __asm__("diff_scan.cold");
static void diff_fresh(void);
#else
static void diff_scan(void) __asm__("diff_scan.isra.0");
static void diff_gone(void);
#endif
static void diff_helper(void);

void _start(void)
{
	for (;;) {
		diff_scan();
		diff_helper();
		diff_b_entry();
#ifdef DIFF_NEW
		diff_fresh();
#else
		diff_gone();
#endif
	}
}

static void diff_scan(void)
{
	DIFF_NOPS(16);
#ifdef DIFF_NEW
	diff_scan_cold();
#endif
}

#ifdef DIFF_NEW
static void diff_scan_cold(void)
{
	DIFF_NOPS(8);
}

static void diff_fresh(void)
{
	DIFF_NOPS(8);
}
#else
static void diff_gone(void)
{
	DIFF_NOPS(8);
}
#endif

static void diff_helper(void)
{
	DIFF_NOPS(8);
}
