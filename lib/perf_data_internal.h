/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perf.data writer: what its file mode (perf_data.c) lends its pipe mode
 * (perf_data_pipe.c). Each function writes through perf_data_put(), as in
 * perf_data.c, where each is described.
 */

#ifndef __PERF_DATA_INTERNAL_H
#define __PERF_DATA_INTERNAL_H

#include <perf_data.h>

/* The features a recording may state, in perf's order (HEADER_* numbers) */
extern const int perf_data_features[];
#define PERF_DATA_NR_FEATURES	11

size_t perf_data_align(size_t len, size_t align);
int perf_data_put_padded(struct perf_data_writer *w, const void *src, size_t len,
			 size_t padded);
void perf_data_fill_attr(struct perf_data_attr *attr, const struct perf_data_event *ev);
int perf_data_put_comm(struct perf_data_writer *w, const struct perf_data_info *info);
int perf_data_put_mmap(struct perf_data_writer *w, const struct perf_data_info *info);
int perf_data_put_build_id(struct perf_data_writer *w, const struct perf_data_info *info);
int perf_data_put_feature(struct perf_data_writer *w, int feat,
			  const struct perf_data_info *info,
			  const struct perf_data_stats *stats);
int perf_data_put_lost(struct perf_data_writer *w, const struct perf_data_info *info,
		       const struct perf_data_stats *stats);
size_t perf_data_end_bytes(int (*put_end)(struct perf_data_writer *w,
					  const struct perf_data_info *info,
					  const struct perf_data_stats *stats),
			   const struct perf_data_info *info);
int perf_data_lay_out(const struct perf_data_writer *w, size_t trailer,
		      struct perf_data_layout *lay);
int perf_data_start(struct perf_data_writer *w, void *buf, size_t cap,
		    const struct perf_data_info *info);

#endif /* __PERF_DATA_INTERNAL_H */
