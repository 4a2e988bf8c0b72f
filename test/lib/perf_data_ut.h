/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * The perf.data writer's unit tests: what the file-mode tests (perf_data.c)
 * share with the pipe-mode ones (perf_data_pipe.c)
 */

#ifndef __TEST_LIB_PERF_DATA_UT_H
#define __TEST_LIB_PERF_DATA_UT_H

#include <perf_data.h>
#include <linux/types.h>
#include <test/test.h>

/* Room for any recording of these tests */
#define PD_BUF_BYTES		4096

#define PD_SAMPLE_BYTES		sizeof(struct perf_data_sample)
#define PD_LOST_BYTES		sizeof(struct perf_data_lost_samples)

/* The buffer handed to the writer, between two canary areas */
extern u8 *const pd_buf;

/* The facts of a recording of @nr_events (1 or 2) events */
void pd_info(struct perf_data_info *info, unsigned int nr_events);
/* The buffer and its canaries set anew */
void pd_clear(void);
/* Bytes written outside the first @cap bytes of the buffer */
int pd_canaries_hit(size_t cap);
/* The 32-bit and the 64-bit word at @offset in the buffer */
u32 pd_u32(size_t offset);
u64 pd_u64(size_t offset);
/* Whether the sample record at @offset holds these values */
int pd_check_sample(struct unit_test_state *uts, size_t offset, u64 id, u64 ip,
		    u64 time, u64 period);

#endif /* __TEST_LIB_PERF_DATA_UT_H */
