// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perf.data writer: file and pipe mode, freestanding, built for the target and the host
 *
 * The main variant is perf's seekable "file mode" (PERFILE2), readable by
 * every perf since 3.x with "perf report -i"; attrs are PERF_ATTR_SIZE_VER0
 * (64 bytes) so that old and new perf alike accept them. A recording looks
 * like:
 *
 *   0     +---------------------------------+
 *         | perf_data_file_header (104)     |  sizes filled in by _finish()
 *   104   +---------------------------------+
 *         | perf_data_file_attr x nr (80)   |  attr + {offset,size} of its ids
 *         | u64 id x nr                     |
 *  data:  +---------------------------------+
 *         | PERF_RECORD_COMM "u-boot"       |  + sample_id trailer
 *         | PERF_RECORD_MMAP "/u-boot"      |  start, len, pgoff (+ trailer)
 *  ring:  | PERF_RECORD_SAMPLE ...          |  48 bytes each, written in IRQ
 *         | PERF_RECORD_LOST_SAMPLES        |  only if the ring filled
 *         +---------------------------------+
 *         | feature table {offset,size} x n |  one per set feature bit
 *         | feature payloads                |  BUILD_ID (if given), HOSTNAME, ...
 *         +---------------------------------+
 *
 * "Pipe mode" is perf's streamable variant (read with "-i", or before perf
 * 5.8 only from standard input): nothing is rewritten, so a recording can go
 * out in chunks while it runs, and what file mode keeps in its header and
 * features are records. perf_data_pipe_begin() lays out a buffer as
 * perf_data_begin() does: head, ring, room for the tail.
 *
 *   0     +---------------------------------+
 *         | magic, size (16)                |  perf_data_pipe_head() ...
 *   16    +---------------------------------+
 *         | HEADER_ATTR + EVENT_UPDATE x nr |  attr and id; the event's name
 *         | HEADER_FEATURE x n              |  HOSTNAME ... EVENT_DESC
 *         | HEADER_BUILD_ID                 |  only if given
 *         | PERF_RECORD_COMM, _MMAP         |  as in file mode
 *  ring:  | PERF_RECORD_SAMPLE ...          |  as they are
 *         +---------------------------------+
 *         | PERF_RECORD_LOST_SAMPLES        |  perf_data_pipe_tail(): only if
 *         | HEADER_FEATURE SAMPLE_TIME      |  the ring filled; then the times
 *         +---------------------------------+
 *
 * The spec is tools/perf/Documentation/perf.data-file-format.txt in Linux;
 * record layouts are in include/uapi/linux/perf_event.h. To see what perf makes
 * of a file: "perf script -D -i perf.data" dumps every record with offsets.
 *
 * All bytes go through perf_data_put(); with a NULL buffer it only counts,
 * which is how the trailer's size is known before the recording starts. The
 * writer knows nothing of PMUs or U-Boot: the caller hands it the facts.
 */

#ifdef USE_HOSTCC
#include <assert.h>
#include <errno.h>
#include <string.h>
#define ARRAY_SIZE(x)		(sizeof(x) / sizeof((x)[0]))
#else
#include <errno.h>
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/string.h>
#endif
#include <perf_data.h>
#include "perf_data_internal.h"

static_assert(sizeof(struct perf_data_file_header) == 104, "perf file header");
static_assert(sizeof(struct perf_data_attr) == PERF_DATA_ATTR_SIZE_VER0, "attr VER0");
static_assert(sizeof(struct perf_data_file_attr) == 80, "file attr");
static_assert(sizeof(struct perf_data_event_header) == 8, "event header");
static_assert(sizeof(struct perf_data_sample_id) == 24, "sample_id trailer");
static_assert(sizeof(struct perf_data_sample) == 48, "flat sample");
static_assert(__builtin_offsetof(struct perf_data_sample, time) == 32, "sample time");
static_assert(sizeof(struct perf_data_lost_samples) == 40, "lost samples");
static_assert(sizeof(struct perf_data_build_id) == 36, "build-id record");
static_assert(__builtin_offsetof(struct perf_data_build_id, size) == 32, "build-id size");

/* Round @len up to a multiple of @align (a power of two) */
size_t perf_data_align(size_t len, size_t align)
{
	return (len + align - 1) & ~(align - 1);
}

int perf_data_put(struct perf_data_writer *w, const void *src, size_t len)
{
	if (len > w->cap - w->pos)
		return -ENOSPC;
	if (w->buf) {
		if (src)
			memcpy(w->buf + w->pos, src, len);
		else
			memset(w->buf + w->pos, 0, len);
	}
	w->pos += len;

	return 0;
}

/* Write @len bytes of @src, then zeroes up to @padded bytes */
int perf_data_put_padded(struct perf_data_writer *w, const void *src, size_t len,
			 size_t padded)
{
	int ret;

	ret = perf_data_put(w, src, len);
	if (!ret && padded > len)
		ret = perf_data_put(w, NULL, padded - len);

	return ret;
}

static int perf_data_put_u32(struct perf_data_writer *w, __u32 val)
{
	return perf_data_put(w, &val, sizeof(val));
}

static int perf_data_put_u64(struct perf_data_writer *w, __u64 val)
{
	return perf_data_put(w, &val, sizeof(val));
}

/* A feature-section string: u32 length (NUL included, padded to 64), then bytes */
static int perf_data_put_string(struct perf_data_writer *w, const char *str)
{
	size_t len = strlen(str) + 1;
	size_t padded = perf_data_align(len, PERF_DATA_NAME_ALIGN);
	int ret;

	ret = perf_data_put_u32(w, padded);
	if (!ret)
		ret = perf_data_put_padded(w, str, len, padded);

	return ret;
}

void perf_data_fill_attr(struct perf_data_attr *attr, const struct perf_data_event *ev)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = ev->type;
	attr->size = sizeof(*attr);
	attr->config = ev->config;
	attr->sample_period = ev->period;
	attr->sample_type = PERF_DATA_SAMPLE_FLAT;
	if (ev->callchain)
		attr->sample_type |= PERF_DATA_SAMPLE_CALLCHAIN;
	/*
	 * Samples are "user" samples of one process (the firmware): excluding
	 * kernel and hypervisor keeps perf from warning about kernel maps.
	 */
	attr->flags = PERF_DATA_ATTR_DISABLED | PERF_DATA_ATTR_EXCLUDE_KERNEL |
		      PERF_DATA_ATTR_EXCLUDE_HV | PERF_DATA_ATTR_MMAP |
		      PERF_DATA_ATTR_COMM | PERF_DATA_ATTR_SAMPLE_ID_ALL;
	if (ev->freq)
		attr->flags |= PERF_DATA_ATTR_FREQ;
}

static void perf_data_fill_sample_id(struct perf_data_sample_id *sid,
				     const struct perf_data_info *info)
{
	sid->pid = info->pid;
	sid->tid = info->tid;
	sid->time = info->start_time;
	sid->id = info->events[0].id;
}

int perf_data_put_comm(struct perf_data_writer *w, const struct perf_data_info *info)
{
	struct {
		struct perf_data_event_header header;
		__u32 pid;
		__u32 tid;
	} rec;
	struct perf_data_sample_id sid;
	size_t len = strlen(info->comm) + 1;
	size_t padded = perf_data_align(len, 8);
	int ret;

	rec.header.type = PERF_DATA_RECORD_COMM;
	rec.header.misc = PERF_DATA_MISC_USER;
	rec.header.size = sizeof(rec) + padded + sizeof(sid);
	rec.pid = info->pid;
	rec.tid = info->tid;
	perf_data_fill_sample_id(&sid, info);

	ret = perf_data_put(w, &rec, sizeof(rec));
	if (!ret)
		ret = perf_data_put_padded(w, info->comm, len, padded);
	if (!ret)
		ret = perf_data_put(w, &sid, sizeof(sid));

	return ret;
}

size_t perf_data_thread(void *buf, __u32 pid, __u32 tid, const char *comm, __u64 time,
			__u64 id)
{
	struct perf_data_thread_fork fork = {
		.header = { PERF_DATA_RECORD_FORK, PERF_DATA_MISC_USER, sizeof(fork) },
		.pid = pid, .ppid = pid, .tid = tid, .ptid = pid, .time = time,
		.sid = { pid, tid, time, id },
	};
	struct perf_data_thread_comm name = {
		.header = { PERF_DATA_RECORD_COMM, PERF_DATA_MISC_USER, sizeof(name) },
		.pid = pid, .tid = tid,
		.sid = { pid, tid, time, id },
	};

	memcpy(name.comm, comm, strnlen(comm, sizeof(name.comm) - 1));
	memcpy(buf, &fork, sizeof(fork));
	memcpy((char *)buf + sizeof(fork), &name, sizeof(name));

	return sizeof(fork) + sizeof(name);
}

int perf_data_put_mmap(struct perf_data_writer *w, const struct perf_data_info *info)
{
	struct {
		struct perf_data_event_header header;
		__u32 pid;
		__u32 tid;
		__u64 start;
		__u64 len;
		__u64 pgoff;
	} rec;
	struct perf_data_sample_id sid;
	size_t len = strlen(info->image_name) + 1;
	size_t padded = perf_data_align(len, 8);
	int ret;

	rec.header.type = PERF_DATA_RECORD_MMAP;
	rec.header.misc = PERF_DATA_MISC_USER;
	rec.header.size = sizeof(rec) + padded + sizeof(sid);
	rec.pid = info->pid;
	rec.tid = info->tid;
	rec.start = info->image_start;
	rec.len = info->image_len;
	rec.pgoff = info->image_pgoff;
	perf_data_fill_sample_id(&sid, info);

	ret = perf_data_put(w, &rec, sizeof(rec));
	if (!ret)
		ret = perf_data_put_padded(w, info->image_name, len, padded);
	if (!ret)
		ret = perf_data_put(w, &sid, sizeof(sid));

	return ret;
}

/*
 * The build-id record (struct perf_record_header_build_id) of the image: the
 * HEADER_BUILD_ID feature's payload in file mode, a record of its own in pipe
 * mode; the same bytes in both. perf itself pads the name to 64 bytes, which
 * makes a 100-byte record; here the padding keeps records a multiple of 8
 * bytes, as pipe mode wants, and perf reads them the same.
 */
static size_t perf_data_build_id_name_bytes(const struct perf_data_info *info)
{
	size_t head = sizeof(struct perf_data_build_id);

	return perf_data_align(head + strlen(info->image_name) + 1, 8) - head;
}

int perf_data_put_build_id(struct perf_data_writer *w, const struct perf_data_info *info)
{
	struct perf_data_build_id rec;
	size_t padded = perf_data_build_id_name_bytes(info);
	int ret;

	memset(&rec, 0, sizeof(rec));
	rec.header.type = PERF_DATA_RECORD_HEADER_BUILD_ID;
	rec.header.misc = PERF_DATA_MISC_USER | PERF_DATA_MISC_BUILD_ID_SIZE;
	rec.header.size = sizeof(rec) + padded;
	rec.pid = PERF_DATA_BUILD_ID_HOST;
	memcpy(rec.data, info->build_id, info->build_id_len);
	rec.size = info->build_id_len;

	ret = perf_data_put(w, &rec, sizeof(rec));
	if (!ret)
		ret = perf_data_put_padded(w, info->image_name, strlen(info->image_name) + 1,
					   padded);

	return ret;
}

static int perf_data_put_event_desc(struct perf_data_writer *w,
				    const struct perf_data_info *info)
{
	struct perf_data_attr attr;
	unsigned int i;
	int ret;

	ret = perf_data_put_u32(w, info->nr_events);
	if (!ret)
		ret = perf_data_put_u32(w, sizeof(attr));
	for (i = 0; !ret && i < info->nr_events; i++) {
		perf_data_fill_attr(&attr, &info->events[i]);
		ret = perf_data_put(w, &attr, sizeof(attr));
		if (!ret)
			ret = perf_data_put_u32(w, 1);
		if (!ret)
			ret = perf_data_put_string(w, info->events[i].name);
		if (!ret)
			ret = perf_data_put_u64(w, info->events[i].id);
	}

	return ret;
}

static int perf_data_put_cmdline(struct perf_data_writer *w, const struct perf_data_info *info)
{
	int i, ret;

	ret = perf_data_put_u32(w, info->argc);
	for (i = 0; !ret && i < info->argc; i++)
		ret = perf_data_put_string(w, info->argv[i]);

	return ret;
}

/* Write the payload of feature @feat */
int perf_data_put_feature(struct perf_data_writer *w, int feat,
			  const struct perf_data_info *info,
			  const struct perf_data_stats *stats)
{
	int ret;

	switch (feat) {
	case PERF_DATA_FEAT_BUILD_ID:
		return perf_data_put_build_id(w, info);
	case PERF_DATA_FEAT_HOSTNAME:
		return perf_data_put_string(w, info->hostname);
	case PERF_DATA_FEAT_OSRELEASE:
		return perf_data_put_string(w, info->osrelease);
	case PERF_DATA_FEAT_VERSION:
		return perf_data_put_string(w, info->version);
	case PERF_DATA_FEAT_ARCH:
		return perf_data_put_string(w, info->arch);
	case PERF_DATA_FEAT_NRCPUS:
		ret = perf_data_put_u32(w, info->nr_cpus_avail);
		return ret ? ret : perf_data_put_u32(w, info->nr_cpus_online);
	case PERF_DATA_FEAT_CPUID:
		return perf_data_put_string(w, info->cpuid);
	case PERF_DATA_FEAT_TOTAL_MEM:
		return perf_data_put_u64(w, info->total_mem_kb);
	case PERF_DATA_FEAT_CMDLINE:
		return perf_data_put_cmdline(w, info);
	case PERF_DATA_FEAT_EVENT_DESC:
		return perf_data_put_event_desc(w, info);
	case PERF_DATA_FEAT_SAMPLE_TIME:
		ret = perf_data_put_u64(w, stats->first_time);
		return ret ? ret : perf_data_put_u64(w, stats->last_time);
	}

	return -EINVAL;
}

/* The features written, in file order (ascending bit number) */
const int perf_data_features[] = {
	PERF_DATA_FEAT_BUILD_ID, PERF_DATA_FEAT_HOSTNAME, PERF_DATA_FEAT_OSRELEASE,
	PERF_DATA_FEAT_VERSION, PERF_DATA_FEAT_ARCH, PERF_DATA_FEAT_NRCPUS,
	PERF_DATA_FEAT_CPUID, PERF_DATA_FEAT_TOTAL_MEM, PERF_DATA_FEAT_CMDLINE,
	PERF_DATA_FEAT_EVENT_DESC, PERF_DATA_FEAT_SAMPLE_TIME,
};

static_assert(ARRAY_SIZE(perf_data_features) == PERF_DATA_NR_FEATURES, "feature count");

/* Whether @info states feature @feat: all do but BUILD_ID, which is optional */
static bool perf_data_has_feature(const struct perf_data_info *info, int feat)
{
	return feat != PERF_DATA_FEAT_BUILD_ID || info->build_id;
}

/* PERF_RECORD_LOST_SAMPLES, if samples were lost */
int perf_data_put_lost(struct perf_data_writer *w, const struct perf_data_info *info,
		       const struct perf_data_stats *stats)
{
	struct perf_data_lost_samples rec = {
		.header.type = PERF_DATA_RECORD_LOST_SAMPLES,
		.header.misc = PERF_DATA_MISC_USER,
		.header.size = sizeof(rec),
		.lost = stats->lost,
	};

	if (!stats->lost)
		return 0;
	perf_data_fill_sample_id(&rec.sample_id, info);
	/* Never before COMM/MMAP, even when no sample was stored */
	if (stats->last_time > info->start_time)
		rec.sample_id.time = stats->last_time;

	return perf_data_put(w, &rec, sizeof(rec));
}

/*
 * Write LOST_SAMPLES (if @stats->lost), the feature table and the payloads at
 * @w->pos, which is where the data section ends. The table's entries are
 * filled in once each payload's offset and size are known.
 */
static int perf_data_put_trailer(struct perf_data_writer *w,
				 const struct perf_data_info *info,
				 const struct perf_data_stats *stats)
{
	struct perf_data_file_section sec[PERF_DATA_NR_FEATURES];
	size_t table;
	unsigned int i, n = 0;
	int ret = 0;

	ret = perf_data_put_lost(w, info, stats);
	if (ret)
		return ret;

	for (i = 0; i < PERF_DATA_NR_FEATURES; i++)
		n += perf_data_has_feature(info, perf_data_features[i]);
	table = w->pos;
	ret = perf_data_put(w, NULL, n * sizeof(sec[0]));
	for (i = 0, n = 0; !ret && i < PERF_DATA_NR_FEATURES; i++) {
		if (!perf_data_has_feature(info, perf_data_features[i]))
			continue;
		sec[n].offset = w->pos;
		ret = perf_data_put_feature(w, perf_data_features[i], info, stats);
		sec[n].size = w->pos - sec[n].offset;
		n++;
	}
	if (!ret && w->buf)
		memcpy(w->buf + table, sec, n * sizeof(sec[0]));

	return ret;
}

/*
 * Bytes @put_end (perf_data_put_trailer() or perf_data_pipe_tail()) writes at
 * most: with a LOST_SAMPLES record. (size_t)-1 if it fails.
 */
size_t perf_data_end_bytes(int (*put_end)(struct perf_data_writer *w,
					  const struct perf_data_info *info,
					  const struct perf_data_stats *stats),
			   const struct perf_data_info *info)
{
	struct perf_data_writer count = { .buf = NULL, .cap = (size_t)-1, .pos = 0 };
	struct perf_data_stats stats = { .lost = 1 };

	if (put_end(&count, info, &stats))
		return (size_t)-1;

	return count.pos;
}

/*
 * Lay out the rest of the buffer after the head at @w->pos: the ring, then
 * @trailer bytes kept for the end. -ENOSPC unless one sample fits.
 */
int perf_data_lay_out(const struct perf_data_writer *w, size_t trailer,
		      struct perf_data_layout *lay)
{
	if (trailer > w->cap - w->pos ||
	    w->cap - w->pos - trailer < sizeof(struct perf_data_sample))
		return -ENOSPC;
	lay->ring_offset = w->pos;
	lay->trailer_bytes = trailer;
	lay->ring_bytes = w->cap - w->pos - trailer;

	return 0;
}

/* Is @info whole and within the records' limits? */
static int perf_data_check_info(const struct perf_data_info *info)
{
	unsigned int i;

	if (!info->nr_events || info->nr_events > PERF_DATA_MAX_EVENTS)
		return -EINVAL;
	for (i = 0; i < info->nr_events; i++) {
		if (!info->events[i].id || !info->events[i].name ||
		    strlen(info->events[i].name) > PERF_DATA_MAX_NAME)
			return -EINVAL;
	}
	if (!info->comm || !info->image_name || !info->hostname || !info->osrelease ||
	    !info->version || !info->arch || !info->cpuid || (info->argc && !info->argv))
		return -EINVAL;
	/* Records carry their size in 16 bits */
	if (strlen(info->comm) > PERF_DATA_MAX_NAME ||
	    strlen(info->image_name) > PERF_DATA_MAX_NAME)
		return -EINVAL;
	if (info->build_id) {
		if (!info->build_id_len || info->build_id_len > PERF_DATA_BUILD_ID_MAX ||
		    perf_data_build_id_name_bytes(info) > PERF_DATA_BUILD_ID_NAME_MAX)
			return -EINVAL;
	} else if (info->build_id_len) {
		return -EINVAL;
	}

	return 0;
}

/* Start writing into @buf: the start of perf_data_begin() and perf_data_pipe_head() */
int perf_data_start(struct perf_data_writer *w, void *buf, size_t cap,
		    const struct perf_data_info *info)
{
	int ret;

	ret = perf_data_check_info(info);
	if (ret)
		return ret;
	w->buf = buf;
	w->cap = cap;
	w->pos = 0;

	return 0;
}

int perf_data_begin(struct perf_data_writer *w, void *buf, size_t cap,
		    const struct perf_data_info *info, struct perf_data_layout *lay)
{
	struct perf_data_file_header hdr;
	struct perf_data_file_attr fattr;
	size_t ids_offset;
	unsigned int i;
	int ret;

	ret = perf_data_start(w, buf, cap, info);
	if (ret)
		return ret;

	/* Sizes of the data section and features are filled in by _finish() */
	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = PERF_DATA_MAGIC;
	hdr.size = sizeof(hdr);
	hdr.attr_size = sizeof(fattr);
	hdr.attrs.offset = sizeof(hdr);
	hdr.attrs.size = info->nr_events * sizeof(fattr);
	ret = perf_data_put(w, &hdr, sizeof(hdr));

	ids_offset = sizeof(hdr) + hdr.attrs.size;
	for (i = 0; !ret && i < info->nr_events; i++) {
		perf_data_fill_attr(&fattr.attr, &info->events[i]);
		fattr.ids.offset = ids_offset + i * sizeof(__u64);
		fattr.ids.size = sizeof(__u64);
		ret = perf_data_put(w, &fattr, sizeof(fattr));
	}
	for (i = 0; !ret && i < info->nr_events; i++)
		ret = perf_data_put_u64(w, info->events[i].id);
	if (!ret)
		ret = perf_data_put_comm(w, info);
	if (!ret)
		ret = perf_data_put_mmap(w, info);
	if (ret)
		return ret;

	return perf_data_lay_out(w, perf_data_end_bytes(perf_data_put_trailer, info), lay);
}

int perf_data_finish(struct perf_data_writer *w, const struct perf_data_info *info,
		     const struct perf_data_layout *lay,
		     const struct perf_data_stats *stats, size_t *sizep)
{
	struct perf_data_file_header hdr;
	size_t data_offset;
	unsigned int i;
	int ret;

	if (stats->records_bytes > lay->ring_bytes || stats->records_bytes % 8)
		return -EINVAL;
	data_offset = sizeof(hdr) + info->nr_events * (sizeof(struct perf_data_file_attr) +
						      sizeof(__u64));
	w->pos = lay->ring_offset + stats->records_bytes;
	ret = perf_data_put_trailer(w, info, stats);
	if (ret)
		return ret;

	memcpy(&hdr, w->buf, sizeof(hdr));
	hdr.data.offset = data_offset;
	hdr.data.size = lay->ring_offset + stats->records_bytes - data_offset;
	if (stats->lost)
		hdr.data.size += sizeof(struct perf_data_lost_samples);
	for (i = 0; i < PERF_DATA_NR_FEATURES; i++) {
		if (perf_data_has_feature(info, perf_data_features[i]))
			hdr.features[perf_data_features[i] / 64] |=
				1ULL << (perf_data_features[i] % 64);
	}
	memcpy(w->buf, &hdr, sizeof(hdr));
	*sizep = w->pos;

	return 0;
}
