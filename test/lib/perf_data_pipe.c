// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Unit tests for the perf.data writer's pipe mode (lib/perf_data_pipe.c):
 * the records of a stream, read back as perf reads them
 */

#include <errno.h>
#include <perf_data.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <test/lib.h>
#include <test/test.h>
#include <test/ut.h>
#include "perf_data_ut.h"

/*
 * A pipe-mode recording of one event and two samples, up to @end: the pipe
 * header, then each record in order (attr, event name, features, COMM,
 * MMAP, the samples, LOST_SAMPLES, SAMPLE_TIME), 8-byte aligned
 */
static int pd_check_pipe_records(struct unit_test_state *uts, size_t end)
{
	static const u32 types[] = {
		PERF_DATA_RECORD_HEADER_ATTR, PERF_DATA_RECORD_EVENT_UPDATE,
		PERF_DATA_RECORD_HEADER_FEATURE, PERF_DATA_RECORD_HEADER_FEATURE,
		PERF_DATA_RECORD_HEADER_FEATURE, PERF_DATA_RECORD_HEADER_FEATURE,
		PERF_DATA_RECORD_HEADER_FEATURE, PERF_DATA_RECORD_HEADER_FEATURE,
		PERF_DATA_RECORD_HEADER_FEATURE, PERF_DATA_RECORD_HEADER_FEATURE,
		PERF_DATA_RECORD_HEADER_FEATURE, PERF_DATA_RECORD_COMM,
		PERF_DATA_RECORD_MMAP, PERF_DATA_RECORD_SAMPLE, PERF_DATA_RECORD_SAMPLE,
		PERF_DATA_RECORD_LOST_SAMPLES, PERF_DATA_RECORD_HEADER_FEATURE,
	};
	struct perf_data_event_header eh;
	size_t off;
	unsigned int i;

	ut_asserteq_64(PERF_DATA_MAGIC, pd_u64(0));
	ut_asserteq_64(16, pd_u64(8));
	for (off = 16, i = 0; off < end; off += eh.size, i++) {
		memcpy(&eh, pd_buf + off, sizeof(eh));
		ut_assert(i < ARRAY_SIZE(types));
		ut_asserteq(types[i], eh.type);
		ut_assert(eh.size >= sizeof(eh));
		ut_asserteq(0, eh.size % 8);
		if (i == 0) {
			/* HEADER_ATTR: the attr, then the event's id */
			ut_asserteq(PERF_DATA_ATTR_SIZE_VER0, pd_u32(off + 12));
			ut_asserteq(8 + PERF_DATA_ATTR_SIZE_VER0 + 8, eh.size);
			ut_asserteq_64(1, pd_u64(off + 8 + PERF_DATA_ATTR_SIZE_VER0));
		}
		if (i == 1)
			ut_asserteq_str("cycles", (char *)pd_buf + off + 24);
		if (i == 2)
			ut_asserteq_64(PERF_DATA_FEAT_HOSTNAME, pd_u64(off + 8));
		if (i == 13)
			ut_assertok(pd_check_sample(uts, off, 1, 0x7fef8000, 2000, 10000));
		if (i == 15)
			ut_asserteq_64(3, pd_u64(off + 8));
		if (i == ARRAY_SIZE(types) - 1) {
			ut_asserteq_64(PERF_DATA_FEAT_SAMPLE_TIME, pd_u64(off + 8));
			ut_asserteq_64(2000, pd_u64(off + 16));
			ut_asserteq_64(3000, pd_u64(off + 24));
		}
	}
	ut_asserteq(end, off);
	ut_asserteq(ARRAY_SIZE(types), i);

	return 0;
}

/* Pipe mode: the 16-byte header, then 8-byte aligned records to the end */
static int lib_test_perf_data_pipe(struct unit_test_state *uts)
{
	struct perf_data_stats stats = { .lost = 3, .first_time = 2000, .last_time = 3000 };
	struct perf_data_writer w, count;
	struct perf_data_sample s = {
		.header.type = PERF_DATA_RECORD_SAMPLE,
		.header.misc = PERF_DATA_MISC_USER,
		.header.size = sizeof(s),
		.id = 1, .ip = 0x7fef8000, .pid = 1, .tid = 1, .period = 10000,
	};
	struct perf_data_info info;
	size_t head, cap;
	unsigned int i;

	pd_info(&info, 1);
	pd_clear();
	ut_assertok(perf_data_pipe_head(&w, pd_buf, PD_BUF_BYTES, &info));
	head = w.pos;
	for (i = 0; i < 2; i++) {
		s.time = 2000 + 1000 * i;
		ut_assertok(perf_data_put(&w, &s, sizeof(s)));
	}
	ut_assertok(perf_data_pipe_tail(&w, &info, &stats));
	ut_asserteq(0, pd_canaries_hit(PD_BUF_BYTES));

	ut_assertok(pd_check_pipe_records(uts, w.pos));

	/* Counting with no buffer gives the same head */
	ut_assertok(perf_data_pipe_head(&count, NULL, (size_t)-1, &info));
	ut_asserteq(head, count.pos);

	/* Too small for the head: -ENOSPC, nothing outside the buffer */
	for (cap = 0; cap < head; cap += cap < 24 ? 1 : 37) {
		pd_clear();
		ut_asserteq(-ENOSPC, perf_data_pipe_head(&w, pd_buf, cap, &info));
		ut_asserteq(0, pd_canaries_hit(cap));
	}
	pd_clear();
	ut_asserteq(-ENOSPC, perf_data_pipe_head(&w, pd_buf, head - 1, &info));
	ut_asserteq(0, pd_canaries_hit(head - 1));

	return 0;
}

LIB_TEST(lib_test_perf_data_pipe, 0);

/* Pipe mode in one buffer: the head, the ring, room for the longest tail */
static int lib_test_perf_data_pipe_begin(struct unit_test_state *uts)
{
	struct perf_data_stats stats = { .lost = 2, .first_time = 2000, .last_time = 3000 };
	struct perf_data_writer w, head;
	struct perf_data_layout lay;
	struct perf_data_info info;
	size_t tail, cap;

	pd_info(&info, 1);
	ut_assertok(perf_data_pipe_head(&head, NULL, (size_t)-1, &info));
	tail = perf_data_pipe_tail_bytes(&info);
	/* LOST_SAMPLES, then the SAMPLE_TIME feature record (header, id, two times) */
	ut_asserteq(PD_LOST_BYTES + 32, tail);

	pd_clear();
	ut_assertok(perf_data_pipe_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	ut_asserteq(head.pos, w.pos);
	ut_asserteq(head.pos, lay.ring_offset);
	ut_asserteq(tail, lay.trailer_bytes);
	ut_asserteq(PD_BUF_BYTES - head.pos - tail, lay.ring_bytes);
	/* A full ring leaves room for the tail, which ends the buffer */
	w.pos = lay.ring_offset + lay.ring_bytes;
	ut_assertok(perf_data_pipe_tail(&w, &info, &stats));
	ut_asserteq(PD_BUF_BYTES, w.pos);
	ut_asserteq(0, pd_canaries_hit(PD_BUF_BYTES));

	/* The smallest buffer holds one sample; one byte less is -ENOSPC */
	cap = head.pos + PD_SAMPLE_BYTES + tail;
	ut_assertok(perf_data_pipe_begin(&w, pd_buf, cap, &info, &lay));
	ut_asserteq(PD_SAMPLE_BYTES, lay.ring_bytes);
	ut_asserteq(-ENOSPC, perf_data_pipe_begin(&w, pd_buf, cap - 1, &info, &lay));
	ut_asserteq(-ENOSPC, perf_data_pipe_begin(&w, pd_buf, head.pos, &info, &lay));

	/* Inconsistent facts: refused by the head */
	info.comm = NULL;
	ut_asserteq(-EINVAL, perf_data_pipe_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));

	return 0;
}

LIB_TEST(lib_test_perf_data_pipe_begin, 0);
