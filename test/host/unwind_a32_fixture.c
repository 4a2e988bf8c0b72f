// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Tiny 32-bit Arm image with a leaf two calls deep, for the A32 walker's host tests
 *
 * Linked like perf_fixture.c (see build_fixture() in test/host/conftest.py)
 * with arm-linux-gnueabihf-gcc -marm -fno-omit-frame-pointer
 * -fno-optimize-sibling-calls at -Os, -O2 or -Og, as U-Boot's 32-bit build
 * with CONFIG_PERFREC_FRAME_POINTERS. test_perfrec_unwind_a32.py runs the
 * frame instructions GCC emitted to lay out the stack at each instruction
 * of the leaf:
 *
 *   _start -> unwind_top -> unwind_mid -> unwind_leaf
 *
 * At -Os the leaf pushes {fp, lr} as the others do; at -O2 and -Og it keeps
 * LR in its register and saves r11 alone ("str fp, [sp, #-4]!").
 */

/* Linked with -fno-inline; no call has a constant to clone its callee for */
int unwind_leaf(int a, int b)
{
	return a * b + (a ^ b);
}

/* "+ 1" and "* 3": work after each call, so that no call becomes a jump */
int unwind_mid(int a)
{
	return unwind_leaf(a, a + 1) + 1;
}

int unwind_top(int a)
{
	return unwind_mid(a) * 3;
}

void _start(int a)
{
	for (;;)
		a = unwind_top(a);
}
