/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec_test: workloads with known profiles, for perfrec's tests
 */

#ifndef __PERFREC_TEST_H
#define __PERFREC_TEST_H

#include <linux/types.h>

/**
 * perfrec_test_regs_spin() - Spin with patterns in every register, then store them
 * @out: receives x0..x15, x16, x19..x28, a word of padding and q0..q31
 *	(92 words)
 * @loops: iterations of the spin (at least 1)
 * @seed: the first pattern (see perfrec_test_regs.S)
 */
void perfrec_test_regs_spin(u64 *out, ulong loops, u64 seed);

#endif /* __PERFREC_TEST_H */
