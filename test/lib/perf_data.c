// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Unit tests for the perf.data writer (lib/perf_data.c)
 *
 * Each test writes a recording into a buffer that sits between two canary
 * areas, then reads it back as perf would: the file header, the attrs and
 * their ids, the records of the data section and the feature sections, or
 * the records of a pipe-mode stream. test/host/ checks the same files with
 * the real perf; these tests need nothing but U-Boot's sandbox.
 */

#include <errno.h>
#include <perf_data.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <test/lib.h>
#include <test/test.h>
#include <test/ut.h>
#include "perf_data_ut.h"

/* Bytes of canary on each side of the buffer handed to the writer */
#define PD_CANARY_BYTES		64
#define PD_CANARY		0xa5
/* COMM "u-boot" and MMAP "/u-boot", each with its sample_id trailer */
#define PD_COMM_BYTES		48
#define PD_MMAP_BYTES		72
/* Features written without a build-id: HOSTNAME..SAMPLE_TIME */
#define PD_NR_FEATURES		10

static u8 pd_area[PD_CANARY_BYTES + PD_BUF_BYTES + PD_CANARY_BYTES] __aligned(8);
u8 *const pd_buf = pd_area + PD_CANARY_BYTES;

static const struct perf_data_event pd_events[] = {
	{ .type = PERF_DATA_TYPE_HARDWARE, .config = PERF_DATA_COUNT_HW_CPU_CYCLES,
	  .period = 10000, .id = 1, .name = "cycles" },
	{ .type = PERF_DATA_TYPE_HARDWARE, .config = PERF_DATA_COUNT_HW_INSTRUCTIONS,
	  .period = 4000, .freq = true, .callchain = true, .id = 2,
	  .name = "instructions" },
};

static const char *const pd_argv[] = { "perfrec", "record", "sleep", "1" };

static const u8 pd_build_id[PERF_DATA_BUILD_ID_MAX] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x10, 0x32,
	0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0x11, 0x22, 0x33, 0x44,
};

/**
 * pd_info() - Set up the facts of a recording of @nr_events events
 *
 * @info: returns the facts
 * @nr_events: number of events, from pd_events[]
 */
void pd_info(struct perf_data_info *info, unsigned int nr_events)
{
	memset(info, 0, sizeof(*info));
	info->events = pd_events;
	info->nr_events = nr_events;
	info->pid = 1;
	info->tid = 1;
	info->comm = "u-boot";
	info->start_time = 1000;
	info->image_start = 0x7fef7000;
	info->image_len = 0x100000;
	info->image_pgoff = 0x10000;
	info->image_name = "/u-boot";
	info->hostname = "sandbox";
	info->osrelease = "2023.01";
	info->version = "perfrec ut";
	info->arch = "aarch64";
	info->cpuid = "0x00000000411fd070";
	info->nr_cpus_avail = 4;
	info->nr_cpus_online = 1;
	info->total_mem_kb = 1 << 20;
	info->argv = pd_argv;
	info->argc = ARRAY_SIZE(pd_argv);
}

/* Fill the buffer and both canary areas with the canary byte */
void pd_clear(void)
{
	memset(pd_area, PD_CANARY, sizeof(pd_area));
}

/**
 * pd_canaries_hit() - Count bytes written outside the writer's buffer
 *
 * @cap: bytes of the buffer the writer was given
 * Return: number of bytes before the buffer or after @cap bytes of it that no
 * longer hold the canary
 */
int pd_canaries_hit(size_t cap)
{
	int hit = 0;
	size_t i;

	for (i = 0; i < sizeof(pd_area); i++) {
		if ((i < PD_CANARY_BYTES || i >= PD_CANARY_BYTES + cap) &&
		    pd_area[i] != PD_CANARY)
			hit++;
	}

	return hit;
}

/* Read a u32 or u64 at @offset in the buffer, whatever its alignment */
u32 pd_u32(size_t offset)
{
	u32 val;

	memcpy(&val, pd_buf + offset, sizeof(val));

	return val;
}

u64 pd_u64(size_t offset)
{
	u64 val;

	memcpy(&val, pd_buf + offset, sizeof(val));

	return val;
}

/**
 * pd_add_sample() - Store a sample record at the end of the ring, as the IRQ does
 *
 * @lay: layout from perf_data_begin()
 * @stats: recording so far; updated
 * @ev: event of the sample
 * @ip: sampled address
 * @time: time stamp (ns)
 * Return: true if stored, false if the ring is full (counted as lost)
 */
static bool pd_add_sample(const struct perf_data_layout *lay, struct perf_data_stats *stats,
			  const struct perf_data_event *ev, u64 ip, u64 time)
{
	struct perf_data_sample s = {
		.header.type = PERF_DATA_RECORD_SAMPLE,
		.header.misc = PERF_DATA_MISC_USER,
		.header.size = sizeof(s),
		.id = ev->id, .ip = ip, .pid = 1, .tid = 1, .time = time,
		.period = ev->period,
	};

	if (stats->records_bytes + sizeof(s) > lay->ring_bytes) {
		stats->lost++;
		return false;
	}
	memcpy(pd_buf + lay->ring_offset + stats->records_bytes, &s, sizeof(s));
	stats->records_bytes += sizeof(s);
	if (!stats->first_time)
		stats->first_time = time;
	stats->last_time = time;

	return true;
}

/**
 * pd_check_sample() - Check the sample record at @offset
 *
 * @uts: test state
 * @offset: offset of the record in the buffer
 * @id: event id expected
 * @ip: address expected
 * @time: time stamp expected
 * @period: period expected
 * Return: 0 if it holds these values, else CMD_RET_FAILURE
 */
int pd_check_sample(struct unit_test_state *uts, size_t offset, u64 id, u64 ip,
		    u64 time, u64 period)
{
	struct perf_data_sample s;

	memcpy(&s, pd_buf + offset, sizeof(s));
	ut_asserteq(PERF_DATA_RECORD_SAMPLE, s.header.type);
	ut_asserteq(PERF_DATA_MISC_USER, s.header.misc);
	ut_asserteq(sizeof(s), s.header.size);
	ut_asserteq_64(id, s.id);
	ut_asserteq_64(ip, s.ip);
	ut_asserteq(1, s.pid);
	ut_asserteq(1, s.tid);
	ut_asserteq_64(time, s.time);
	ut_asserteq_64(period, s.period);

	return 0;
}

/**
 * pd_check_string() - Check a feature-section string at @offset
 *
 * @uts: test state
 * @offset: offset of the u32 length in the buffer
 * @str: string expected, NUL-padded to PERF_DATA_NAME_ALIGN
 * Return: 0 if it matches, else CMD_RET_FAILURE
 */
static int pd_check_string(struct unit_test_state *uts, size_t offset, const char *str)
{
	ut_asserteq(PERF_DATA_NAME_ALIGN, pd_u32(offset));
	ut_asserteq_str(str, (char *)pd_buf + offset + 4);
	ut_asserteq(0, pd_buf[offset + 4 + PERF_DATA_NAME_ALIGN - 1]);

	return 0;
}

/* Number of feature bits set in a file header */
static int pd_nr_features(const struct perf_data_file_header *hdr)
{
	int i, n = 0;

	for (i = 0; i < PERF_DATA_FEAT_BITS; i++)
		n += (hdr->features[i / 64] >> (i % 64)) & 1;

	return n;
}

/* A finished file's header, attrs, ids, records and feature sections agree */
/* The file header of a two-event recording of two samples */
static int pd_check_file_header(struct unit_test_state *uts,
				const struct perf_data_file_header *hdr,
				const struct perf_data_layout *lay, size_t data_offset)
{
	ut_asserteq_64(PERF_DATA_MAGIC, hdr->magic);
	ut_asserteq_mem("PERFILE2", pd_buf, 8);
	ut_asserteq(104, hdr->size);
	ut_asserteq(sizeof(struct perf_data_file_attr), hdr->attr_size);
	ut_asserteq(104, hdr->attrs.offset);
	ut_asserteq(2 * sizeof(struct perf_data_file_attr), hdr->attrs.size);
	ut_asserteq(data_offset, hdr->data.offset);
	ut_asserteq(lay->ring_offset + 2 * PD_SAMPLE_BYTES - data_offset, hdr->data.size);
	ut_asserteq(0, hdr->event_types.offset);
	ut_asserteq(0, hdr->event_types.size);

	return 0;
}

/* Its attrs, each pointing at its id */
static int pd_check_file_attrs(struct unit_test_state *uts, const struct perf_data_file_header *hdr)
{
	struct perf_data_file_attr fattr;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		memcpy(&fattr, pd_buf + hdr->attrs.offset + i * sizeof(fattr), sizeof(fattr));
		ut_asserteq(pd_events[i].type, fattr.attr.type);
		ut_asserteq(PERF_DATA_ATTR_SIZE_VER0, fattr.attr.size);
		ut_asserteq_64(pd_events[i].config, fattr.attr.config);
		ut_asserteq_64(pd_events[i].period, fattr.attr.sample_period);
		ut_asserteq_64(PERF_DATA_SAMPLE_FLAT |
			       (i ? PERF_DATA_SAMPLE_CALLCHAIN : 0), fattr.attr.sample_type);
		ut_asserteq(i ? 1 : 0, !!(fattr.attr.flags & PERF_DATA_ATTR_FREQ));
		ut_assert(fattr.attr.flags & PERF_DATA_ATTR_SAMPLE_ID_ALL);
		ut_asserteq(sizeof(u64), fattr.ids.size);
		ut_assert(fattr.ids.offset >= hdr->attrs.offset + hdr->attrs.size);
		ut_assert(fattr.ids.offset + fattr.ids.size <= hdr->data.offset);
		ut_asserteq_64(pd_events[i].id, pd_u64(fattr.ids.offset));
	}

	return 0;
}

/* Its data section: COMM, MMAP, the two samples, ending exactly at its size */
static int pd_check_file_data(struct unit_test_state *uts, const struct perf_data_file_header *hdr,
			      const struct perf_data_layout *lay,
			      const struct perf_data_info *info)
{
	struct perf_data_event_header eh;
	size_t off = hdr->data.offset, end;
	unsigned int i;

	memcpy(&eh, pd_buf + off, sizeof(eh));
	ut_asserteq(PERF_DATA_RECORD_COMM, eh.type);
	ut_asserteq(PD_COMM_BYTES, eh.size);
	ut_asserteq_str("u-boot", (char *)pd_buf + off + 16);
	off += eh.size;
	memcpy(&eh, pd_buf + off, sizeof(eh));
	ut_asserteq(PERF_DATA_RECORD_MMAP, eh.type);
	ut_asserteq(PD_MMAP_BYTES, eh.size);
	ut_asserteq_64(info->image_start, pd_u64(off + 16));
	ut_asserteq_64(info->image_len, pd_u64(off + 24));
	ut_asserteq_64(info->image_pgoff, pd_u64(off + 32));
	ut_asserteq_str("/u-boot", (char *)pd_buf + off + 40);
	off += eh.size;
	ut_asserteq(lay->ring_offset, off);
	for (end = hdr->data.offset + hdr->data.size, i = 0; off < end; off += eh.size, i++) {
		memcpy(&eh, pd_buf + off, sizeof(eh));
		ut_asserteq(PERF_DATA_RECORD_SAMPLE, eh.type);
	}
	ut_asserteq(end, off);
	ut_asserteq(2, i);

	return 0;
}

/*
 * Its feature table, right after the data, with sections back to back up
 * to the end (@size), and some payloads in feature-bit order: HOSTNAME
 * first, SAMPLE_TIME last
 */
static int pd_check_file_features(struct unit_test_state *uts,
				  const struct perf_data_file_header *hdr, size_t size)
{
	struct perf_data_file_section sec[PD_NR_FEATURES];
	size_t end = hdr->data.offset + hdr->data.size, off;
	unsigned int i;

	ut_asserteq(PD_NR_FEATURES, pd_nr_features(hdr));
	ut_assert(!(hdr->features[0] & BIT_ULL(PERF_DATA_FEAT_BUILD_ID)));
	ut_assert(hdr->features[0] & BIT_ULL(PERF_DATA_FEAT_HOSTNAME));
	ut_assert(hdr->features[0] & BIT_ULL(PERF_DATA_FEAT_EVENT_DESC));
	ut_assert(hdr->features[0] & BIT_ULL(PERF_DATA_FEAT_SAMPLE_TIME));
	memcpy(sec, pd_buf + end, sizeof(sec));
	off = end + sizeof(sec);
	for (i = 0; i < PD_NR_FEATURES; i++) {
		ut_asserteq(off, sec[i].offset);
		ut_assert(sec[i].size > 0);
		off += sec[i].size;
	}
	ut_asserteq(size, off);

	ut_assertok(pd_check_string(uts, sec[0].offset, "sandbox"));
	ut_asserteq(4 + PERF_DATA_NAME_ALIGN, sec[0].size);
	ut_assertok(pd_check_string(uts, sec[3].offset, "aarch64"));
	ut_asserteq(8, sec[4].size);			/* NRCPUS */
	ut_asserteq(4, pd_u32(sec[4].offset));
	ut_asserteq(1, pd_u32(sec[4].offset + 4));
	ut_asserteq_64(1 << 20, pd_u64(sec[6].offset));	/* TOTAL_MEM */
	ut_asserteq(ARRAY_SIZE(pd_argv), pd_u32(sec[7].offset));	/* CMDLINE */
	ut_asserteq(2, pd_u32(sec[8].offset));		/* EVENT_DESC */
	ut_asserteq(16, sec[9].size);			/* SAMPLE_TIME */
	ut_asserteq_64(2000, pd_u64(sec[9].offset));
	ut_asserteq_64(3000, pd_u64(sec[9].offset + 8));

	return 0;
}

static int lib_test_perf_data_file(struct unit_test_state *uts)
{
	struct perf_data_file_header hdr;
	struct perf_data_stats stats = { 0 };
	struct perf_data_layout lay;
	struct perf_data_info info;
	struct perf_data_writer w;
	size_t size, data_offset;

	pd_info(&info, 2);
	pd_clear();
	ut_assertok(perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	data_offset = sizeof(hdr) + 2 * (sizeof(struct perf_data_file_attr) + sizeof(u64));
	ut_asserteq(data_offset + PD_COMM_BYTES + PD_MMAP_BYTES, lay.ring_offset);
	ut_asserteq(PD_BUF_BYTES, lay.ring_offset + lay.ring_bytes + lay.trailer_bytes);
	ut_assert(pd_add_sample(&lay, &stats, &pd_events[0], 0x7fef8000, 2000));
	ut_assert(pd_add_sample(&lay, &stats, &pd_events[1], 0x7fef8100, 3000));
	ut_assertok(perf_data_finish(&w, &info, &lay, &stats, &size));
	ut_asserteq(0, pd_canaries_hit(PD_BUF_BYTES));

	memcpy(&hdr, pd_buf, sizeof(hdr));
	ut_assertok(pd_check_file_header(uts, &hdr, &lay, data_offset));
	ut_assertok(pd_check_file_attrs(uts, &hdr));
	ut_assertok(pd_check_file_data(uts, &hdr, &lay, &info));
	ut_assertok(pd_check_file_features(uts, &hdr, size));

	return 0;
}

LIB_TEST(lib_test_perf_data_file, 0);

/* Samples appear in the data section with the values given, in order */
static int lib_test_perf_data_samples(struct unit_test_state *uts)
{
	struct perf_data_stats stats = { 0 };
	struct perf_data_file_header hdr;
	struct perf_data_layout lay;
	struct perf_data_info info;
	struct perf_data_writer w;
	size_t size;
	int i;

	pd_info(&info, 2);
	pd_clear();
	ut_assertok(perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	for (i = 0; i < 5; i++)
		ut_assert(pd_add_sample(&lay, &stats, &pd_events[i % 2], 0x7fef8000 + 4 * i,
					2000 + 1000 * i));
	ut_assertok(perf_data_finish(&w, &info, &lay, &stats, &size));
	ut_asserteq(0, pd_canaries_hit(PD_BUF_BYTES));

	memcpy(&hdr, pd_buf, sizeof(hdr));
	ut_asserteq(lay.ring_offset + 5 * PD_SAMPLE_BYTES,
		    hdr.data.offset + hdr.data.size);
	for (i = 0; i < 5; i++)
		ut_assertok(pd_check_sample(uts, lay.ring_offset + i * PD_SAMPLE_BYTES,
					    pd_events[i % 2].id, 0x7fef8000 + 4 * i,
					    2000 + 1000 * i, pd_events[i % 2].period));

	/* Records that are not samples carry the start time and the first id */
	ut_asserteq_64(info.start_time, pd_u64(lay.ring_offset - 16));
	ut_asserteq_64(pd_events[0].id, pd_u64(lay.ring_offset - 8));

	/* A misaligned or oversized sample area is refused */
	stats.records_bytes = 5 * PD_SAMPLE_BYTES + 4;
	ut_asserteq(-EINVAL, perf_data_finish(&w, &info, &lay, &stats, &size));
	stats.records_bytes = lay.ring_bytes + 8;
	ut_asserteq(-EINVAL, perf_data_finish(&w, &info, &lay, &stats, &size));

	return 0;
}

LIB_TEST(lib_test_perf_data_samples, 0);

/* A buffer too small: -ENOSPC or lost samples, never a byte outside it */
static int lib_test_perf_data_full(struct unit_test_state *uts)
{
	struct perf_data_stats stats = { .lost = 4 };
	struct perf_data_lost_samples lost;
	struct perf_data_file_header hdr;
	struct perf_data_layout lay;
	struct perf_data_info info;
	struct perf_data_writer w;
	size_t min, cap, size;
	int i;

	/* The smallest buffer holds the head, one sample and the trailer */
	pd_info(&info, 1);
	ut_assertok(perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	min = lay.ring_offset + PD_SAMPLE_BYTES + lay.trailer_bytes;

	for (cap = 0; cap < min; cap++) {
		pd_clear();
		ut_asserteq(-ENOSPC, perf_data_begin(&w, pd_buf, cap, &info, &lay));
		ut_asserteq(0, pd_canaries_hit(cap));
	}

	/* At the smallest size, one of three samples is kept, two are lost */
	pd_clear();
	ut_assertok(perf_data_begin(&w, pd_buf, min, &info, &lay));
	ut_asserteq(PD_SAMPLE_BYTES, lay.ring_bytes);
	ut_assert(pd_add_sample(&lay, &stats, &pd_events[0], 0x7fef8000, 2000));
	for (i = 0; i < 2; i++)
		ut_assert(!pd_add_sample(&lay, &stats, &pd_events[0], 0x7fef8000, 3000));
	ut_assertok(perf_data_finish(&w, &info, &lay, &stats, &size));
	ut_asserteq(min, size);
	ut_asserteq(0, pd_canaries_hit(min));

	/* LOST_SAMPLES closes the data section, stamped with the last sample */
	memcpy(&hdr, pd_buf, sizeof(hdr));
	ut_asserteq(lay.ring_offset + PD_SAMPLE_BYTES + PD_LOST_BYTES,
		    hdr.data.offset + hdr.data.size);
	memcpy(&lost, pd_buf + lay.ring_offset + PD_SAMPLE_BYTES, sizeof(lost));
	ut_asserteq(PERF_DATA_RECORD_LOST_SAMPLES, lost.header.type);
	ut_asserteq(PD_LOST_BYTES, lost.header.size);
	ut_asserteq_64(6, lost.lost);
	ut_asserteq_64(2000, lost.sample_id.time);
	ut_asserteq_64(pd_events[0].id, lost.sample_id.id);

	/* perf_data_put() refuses what does not fit, and writes none of it */
	pd_clear();
	w.buf = pd_buf;
	w.cap = 16;
	w.pos = 8;
	ut_asserteq(-ENOSPC, perf_data_put(&w, pd_area, 9));
	ut_asserteq(8, w.pos);
	ut_asserteq(-ENOSPC, perf_data_put(&w, NULL, (size_t)-1));
	ut_assertok(perf_data_put(&w, NULL, 8));
	ut_asserteq(16, w.pos);
	ut_asserteq(0, pd_buf[15]);
	ut_asserteq(PD_CANARY, pd_buf[7]);
	ut_asserteq(0, pd_canaries_hit(16));

	return 0;
}

LIB_TEST(lib_test_perf_data_full, 0);

/* With a build-id, the BUILD_ID feature comes first and holds it */
static int lib_test_perf_data_build_id(struct unit_test_state *uts)
{
	struct perf_data_stats stats = { 0 };
	struct perf_data_file_section sec;
	struct perf_data_file_header hdr;
	struct perf_data_build_id bid;
	struct perf_data_layout lay;
	struct perf_data_info info;
	struct perf_data_writer w;
	size_t size;

	pd_info(&info, 1);
	info.build_id = pd_build_id;
	info.build_id_len = sizeof(pd_build_id);
	pd_clear();
	ut_assertok(perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	ut_assert(pd_add_sample(&lay, &stats, &pd_events[0], 0x7fef8000, 2000));
	ut_assertok(perf_data_finish(&w, &info, &lay, &stats, &size));
	ut_asserteq(0, pd_canaries_hit(PD_BUF_BYTES));

	memcpy(&hdr, pd_buf, sizeof(hdr));
	ut_asserteq(PD_NR_FEATURES + 1, pd_nr_features(&hdr));
	ut_assert(hdr.features[0] & BIT_ULL(PERF_DATA_FEAT_BUILD_ID));
	memcpy(&sec, pd_buf + hdr.data.offset + hdr.data.size, sizeof(sec));
	ut_asserteq(hdr.data.offset + hdr.data.size + (PD_NR_FEATURES + 1) * sizeof(sec),
		    sec.offset);
	memcpy(&bid, pd_buf + sec.offset, sizeof(bid));
	ut_asserteq(sec.size, bid.header.size);
	ut_asserteq(0, bid.header.size % 8);
	ut_asserteq(PERF_DATA_RECORD_HEADER_BUILD_ID, bid.header.type);
	ut_assert(bid.header.misc & PERF_DATA_MISC_BUILD_ID_SIZE);
	ut_asserteq(PERF_DATA_BUILD_ID_HOST, bid.pid);
	ut_asserteq(sizeof(pd_build_id), bid.size);
	ut_asserteq_mem(pd_build_id, bid.data, sizeof(pd_build_id));
	ut_asserteq_str("/u-boot", (char *)pd_buf + sec.offset + sizeof(bid));

	/* An id longer than sha1's, or a length without an id, is refused */
	info.build_id_len = PERF_DATA_BUILD_ID_MAX + 1;
	ut_asserteq(-EINVAL, perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	info.build_id = NULL;
	info.build_id_len = 1;
	ut_asserteq(-EINVAL, perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));

	return 0;
}

LIB_TEST(lib_test_perf_data_build_id, 0);

/* Inconsistent facts are refused before anything is written */
static int lib_test_perf_data_einval(struct unit_test_state *uts)
{
	struct perf_data_event many[PERF_DATA_MAX_EVENTS + 1];
	struct perf_data_layout lay;
	struct perf_data_info info;
	struct perf_data_writer w;
	unsigned int i;

	pd_clear();
	pd_info(&info, 0);
	ut_asserteq(-EINVAL, perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	ut_asserteq(-EINVAL, perf_data_pipe_head(&w, pd_buf, PD_BUF_BYTES, &info));

	for (i = 0; i < ARRAY_SIZE(many); i++) {
		many[i] = pd_events[0];
		many[i].id = i + 1;
	}
	pd_info(&info, PERF_DATA_MAX_EVENTS);
	info.events = many;
	ut_assertok(perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	pd_clear();
	info.nr_events++;
	ut_asserteq(-EINVAL, perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));

	pd_info(&info, 1);
	info.hostname = NULL;
	ut_asserteq(-EINVAL, perf_data_begin(&w, pd_buf, PD_BUF_BYTES, &info, &lay));
	ut_asserteq(0, pd_canaries_hit(0));

	return 0;
}

LIB_TEST(lib_test_perf_data_einval, 0);
