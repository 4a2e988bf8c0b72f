// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * The second file of diff_fixture.c's image: another static diff_helper
 */

#define DIFF_NOPS(n)	__asm__ volatile(".rept " #n "\n\tnop\n\t.endr")

static void diff_helper(void)
{
	DIFF_NOPS(12);
}

void diff_b_entry(void)
{
	diff_helper();
	DIFF_NOPS(4);
}
