// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perf.data writer, pipe mode: the streamable variant, with perf_data.c's records
 *
 * What file mode keeps in its header and feature sections goes out as
 * records here (HEADER_ATTR, EVENT_UPDATE, HEADER_FEATURE, HEADER_BUILD_ID),
 * nothing is rewritten, and a recording can leave in chunks while it runs.
 * The layout is drawn at the top of perf_data.c.
 */

#ifdef USE_HOSTCC
#include <errno.h>
#include <string.h>
#else
#include <errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#endif
#include <perf_data.h>
#include "perf_data_internal.h"

/* Longest record: perf_event_header.size has 16 bits, and records keep 8-byte alignment */
#define PERF_DATA_RECORD_MAX	0xfff8

/*
 * One pipe-mode PERF_RECORD_HEADER_FEATURE: the feature's payload, padded to 8.
 * A payload too long for one record (a long CMDLINE) is -EINVAL: file mode
 * has no such limit, but here its size would wrap.
 */
static int perf_data_put_feature_record(struct perf_data_writer *w, int feat,
					const struct perf_data_info *info,
					const struct perf_data_stats *stats)
{
	struct {
		struct perf_data_event_header header;
		__u64 feat_id;
	} rec = {
		.header.type = PERF_DATA_RECORD_HEADER_FEATURE,
		.feat_id = feat,
	};
	size_t start = w->pos;
	int ret;

	ret = perf_data_put(w, &rec, sizeof(rec));
	if (!ret)
		ret = perf_data_put_feature(w, feat, info, stats);
	if (!ret)
		ret = perf_data_put(w, NULL, perf_data_align(w->pos - start, 8) - (w->pos - start));
	if (!ret && w->pos - start > PERF_DATA_RECORD_MAX)
		ret = -EINVAL;
	if (!ret && w->buf) {
		rec.header.size = w->pos - start;
		memcpy(w->buf + start, &rec, sizeof(rec));
	}

	return ret;
}

/*
 * Pipe mode: name an event with PERF_RECORD_EVENT_UPDATE. perf applies
 * HEADER_EVENT_DESC names only to events it has not named yet, and in pipe
 * mode it names them ("cycles:u") as soon as their HEADER_ATTR arrives.
 */
static int perf_data_put_event_name(struct perf_data_writer *w,
				    const struct perf_data_event *ev)
{
	struct {
		struct perf_data_event_header header;
		__u64 type;
		__u64 id;
	} rec = {
		.header.type = PERF_DATA_RECORD_EVENT_UPDATE,
		.type = PERF_DATA_EVENT_UPDATE_NAME,
		.id = ev->id,
	};
	size_t len = strlen(ev->name) + 1;
	size_t padded = perf_data_align(len, 8);
	int ret;

	rec.header.size = sizeof(rec) + padded;
	ret = perf_data_put(w, &rec, sizeof(rec));

	return ret ? ret : perf_data_put_padded(w, ev->name, len, padded);
}

int perf_data_pipe_head(struct perf_data_writer *w, void *buf, size_t cap,
			const struct perf_data_info *info)
{
	struct perf_data_stats none = { 0 };
	struct {
		__u64 magic;
		__u64 size;
	} hdr = { .magic = PERF_DATA_MAGIC, .size = sizeof(hdr) };
	struct {
		struct perf_data_event_header header;
		struct perf_data_attr attr;
		__u64 id;
	} attr;
	unsigned int i;
	int ret;

	ret = perf_data_start(w, buf, cap, info);
	if (ret)
		return ret;
	ret = perf_data_put(w, &hdr, sizeof(hdr));
	for (i = 0; !ret && i < info->nr_events; i++) {
		attr.header.type = PERF_DATA_RECORD_HEADER_ATTR;
		attr.header.misc = 0;
		attr.header.size = sizeof(attr);
		perf_data_fill_attr(&attr.attr, &info->events[i]);
		attr.id = info->events[i].id;
		ret = perf_data_put(w, &attr, sizeof(attr));
		if (!ret)
			ret = perf_data_put_event_name(w, &info->events[i]);
	}
	/*
	 * SAMPLE_TIME is known only at the end: perf_data_pipe_tail() sends it.
	 * perf 6.1 reads a BUILD_ID feature record's payload from its standard
	 * input (the stream itself with "-i -"), so the build-id goes as a
	 * PERF_RECORD_HEADER_BUILD_ID record (as "perf inject -b" sends it),
	 * before COMM and MMAP so that a stream cut off early has it too.
	 */
	for (i = 0; !ret && i < PERF_DATA_NR_FEATURES; i++) {
		if (perf_data_features[i] != PERF_DATA_FEAT_SAMPLE_TIME &&
		    perf_data_features[i] != PERF_DATA_FEAT_BUILD_ID)
			ret = perf_data_put_feature_record(w, perf_data_features[i], info, &none);
	}
	if (!ret && info->build_id)
		ret = perf_data_put_build_id(w, info);
	if (!ret)
		ret = perf_data_put_comm(w, info);
	if (!ret)
		ret = perf_data_put_mmap(w, info);

	return ret;
}

int perf_data_pipe_tail(struct perf_data_writer *w, const struct perf_data_info *info,
			const struct perf_data_stats *stats)
{
	int ret;

	ret = perf_data_put_lost(w, info, stats);
	if (!ret)
		ret = perf_data_put_feature_record(w, PERF_DATA_FEAT_SAMPLE_TIME, info, stats);

	return ret;
}

size_t perf_data_pipe_tail_bytes(const struct perf_data_info *info)
{
	return perf_data_end_bytes(perf_data_pipe_tail, info);
}

int perf_data_pipe_begin(struct perf_data_writer *w, void *buf, size_t cap,
			 const struct perf_data_info *info, struct perf_data_layout *lay)
{
	int ret;

	ret = perf_data_pipe_head(w, buf, cap, info);
	if (ret)
		return ret;

	return perf_data_lay_out(w, perf_data_pipe_tail_bytes(info), lay);
}
