/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perf.data on-disk layout and the writer's API (builds for target and host)
 *
 * Field names and numbers follow Linux's include/uapi/linux/perf_event.h and
 * tools/perf/Documentation/perf.data-file-format.txt; every constant carries
 * the PERF_DATA_ prefix so that it cannot clash with a later copy of those
 * headers in U-Boot.
 */

#ifndef __PERFREC_PERF_DATA_H
#define __PERFREC_PERF_DATA_H

#ifdef USE_HOSTCC
#include <stdbool.h>
#include <stddef.h>
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#else
#include <linux/bitops.h>
#endif
#include <linux/types.h>

#define PERF_DATA_MAGIC			0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_DATA_ATTR_SIZE_VER0	64

/* perf_event_attr.type and .config */
#define PERF_DATA_TYPE_HARDWARE		0
#define PERF_DATA_TYPE_SOFTWARE		1
/* PERF_TYPE_SOFTWARE config: cpu-clock (a timer, counted in nanoseconds) */
#define PERF_DATA_COUNT_SW_CPU_CLOCK	0
#define PERF_DATA_TYPE_RAW		4
#define PERF_DATA_COUNT_HW_CPU_CYCLES		0
#define PERF_DATA_COUNT_HW_INSTRUCTIONS		1
#define PERF_DATA_COUNT_HW_CACHE_REFERENCES	2
#define PERF_DATA_COUNT_HW_CACHE_MISSES		3
#define PERF_DATA_COUNT_HW_BRANCH_INSTRUCTIONS	4
#define PERF_DATA_COUNT_HW_BRANCH_MISSES	5
#define PERF_DATA_COUNT_HW_BUS_CYCLES		6
#define PERF_DATA_COUNT_HW_STALLED_CYCLES_FRONTEND	7
#define PERF_DATA_COUNT_HW_STALLED_CYCLES_BACKEND	8

/* perf_event_attr.sample_type */
#define PERF_DATA_SAMPLE_IP		BIT_ULL(0)
#define PERF_DATA_SAMPLE_TID		BIT_ULL(1)
#define PERF_DATA_SAMPLE_TIME		BIT_ULL(2)
#define PERF_DATA_SAMPLE_CALLCHAIN	BIT_ULL(5)
#define PERF_DATA_SAMPLE_ID		BIT_ULL(6)
#define PERF_DATA_SAMPLE_CPU		BIT_ULL(7)
#define PERF_DATA_SAMPLE_PERIOD		BIT_ULL(8)
#define PERF_DATA_SAMPLE_IDENTIFIER	BIT_ULL(16)

/* First entry of a call chain: the addresses that follow are "user" ones */
#define PERF_DATA_CONTEXT_USER		0xfffffffffffffe00ULL

/* The sample layout perfrec writes: struct perf_data_sample below */
#define PERF_DATA_SAMPLE_FLAT		(PERF_DATA_SAMPLE_IDENTIFIER | PERF_DATA_SAMPLE_IP | \
					 PERF_DATA_SAMPLE_TID | PERF_DATA_SAMPLE_TIME | \
					 PERF_DATA_SAMPLE_PERIOD)

/* perf_event_attr flag bits (the bitfield word at offset 40) */
#define PERF_DATA_ATTR_DISABLED		BIT_ULL(0)
#define PERF_DATA_ATTR_EXCLUDE_KERNEL	BIT_ULL(5)
#define PERF_DATA_ATTR_EXCLUDE_HV	BIT_ULL(6)
#define PERF_DATA_ATTR_MMAP		BIT_ULL(8)
#define PERF_DATA_ATTR_COMM		BIT_ULL(9)
#define PERF_DATA_ATTR_FREQ		BIT_ULL(10)
#define PERF_DATA_ATTR_SAMPLE_ID_ALL	BIT_ULL(18)

/* perf_event_header.type */
#define PERF_DATA_RECORD_MMAP		1
#define PERF_DATA_RECORD_COMM		3
#define PERF_DATA_RECORD_FORK		7
#define PERF_DATA_RECORD_SAMPLE		9
#define PERF_DATA_RECORD_LOST_SAMPLES	13
/* Pipe mode only: what file mode keeps in its header */
#define PERF_DATA_RECORD_HEADER_ATTR	64
#define PERF_DATA_RECORD_HEADER_BUILD_ID	67
#define PERF_DATA_RECORD_EVENT_UPDATE	78
#define PERF_DATA_RECORD_HEADER_FEATURE	80
/* PERF_RECORD_EVENT_UPDATE types */
#define PERF_DATA_EVENT_UPDATE_NAME	2

/* perf_event_header.misc: firmware samples are "user" samples (see perf-data notes) */
#define PERF_DATA_MISC_USER		2
/* Build-id records: the id's length is in struct perf_data_build_id.size */
#define PERF_DATA_MISC_BUILD_ID_SIZE	BIT(15)

/*
 * The pid of a build-id record names perf's "machine", not a process: the
 * host's is HOST_KERNEL_ID, -1. Any other makes perf file the image under a
 * guest machine, where no sample finds it.
 */
#define PERF_DATA_BUILD_ID_HOST		((__u32)-1)

/* Longest build-id: sha1 (perf's BUILD_ID_SIZE) */
#define PERF_DATA_BUILD_ID_MAX		20

/* perf reads a HEADER_BUILD_ID file name into a PATH_MAX buffer */
#define PERF_DATA_BUILD_ID_NAME_MAX	4096

/* Feature bits of the file header (tools/perf/util/header.h) */
#define PERF_DATA_FEAT_BUILD_ID		2
#define PERF_DATA_FEAT_HOSTNAME		3
#define PERF_DATA_FEAT_OSRELEASE	4
#define PERF_DATA_FEAT_VERSION		5
#define PERF_DATA_FEAT_ARCH		6
#define PERF_DATA_FEAT_NRCPUS		7
#define PERF_DATA_FEAT_CPUID		9
#define PERF_DATA_FEAT_TOTAL_MEM	10
#define PERF_DATA_FEAT_CMDLINE		11
#define PERF_DATA_FEAT_EVENT_DESC	12
#define PERF_DATA_FEAT_SAMPLE_TIME	21
#define PERF_DATA_FEAT_BITS		256

/* Strings in feature sections are padded to this (perf's NAME_ALIGN) */
#define PERF_DATA_NAME_ALIGN		64

/* Longest COMM or MMAP file name, or event name, the writer accepts */
#define PERF_DATA_MAX_NAME		4095

/* Most events one recording carries; ids are 1..PERF_DATA_MAX_EVENTS */
#define PERF_DATA_MAX_EVENTS		8

struct perf_data_file_section {
	__u64 offset;
	__u64 size;
};

/* File header: 104 bytes at offset 0 */
struct perf_data_file_header {
	__u64 magic;
	__u64 size;
	__u64 attr_size;	/* sizeof(attr) + sizeof(ids section) */
	struct perf_data_file_section attrs;
	struct perf_data_file_section data;
	struct perf_data_file_section event_types;	/* unused: 0, 0 */
	__u64 features[PERF_DATA_FEAT_BITS / 64];
};

/* perf_event_attr up to PERF_ATTR_SIZE_VER0: 64 bytes, readable by every perf */
struct perf_data_attr {
	__u32 type;
	__u32 size;
	__u64 config;
	__u64 sample_period;	/* or sample_freq when PERF_DATA_ATTR_FREQ is set */
	__u64 sample_type;
	__u64 read_format;
	__u64 flags;
	__u32 wakeup_events;
	__u32 bp_type;
	__u64 config1;
};

/* One entry of the attrs section: the attr, then where its ids are */
struct perf_data_file_attr {
	struct perf_data_attr attr;
	struct perf_data_file_section ids;
};

struct perf_data_event_header {
	__u32 type;
	__u16 misc;
	__u16 size;
};

/* Trailer of non-sample records (sample_id_all) for PERF_DATA_SAMPLE_FLAT */
struct perf_data_sample_id {
	__u32 pid;
	__u32 tid;
	__u64 time;
	__u64 id;
};

/*
 * struct perf_record_header_build_id: 36 bytes, then the file name, NUL-padded
 * here so that the record is a multiple of 8 bytes. One such record is the
 * HEADER_BUILD_ID feature in file mode and a PERF_RECORD_HEADER_BUILD_ID
 * record in pipe mode.
 */
struct perf_data_build_id {
	struct perf_data_event_header header;
	__u32 pid;		/* PERF_DATA_BUILD_ID_HOST */
	__u8 data[PERF_DATA_BUILD_ID_MAX];
	__u8 size;		/* bytes of @data used (PERF_DATA_MISC_BUILD_ID_SIZE) */
	__u8 reserved1;
	__u16 reserved2;
};

/*
 * PERF_RECORD_SAMPLE for PERF_DATA_SAMPLE_FLAT: 48 bytes. With
 * PERF_DATA_SAMPLE_CALLCHAIN a u64 count and the chain follow.
 */
struct perf_data_sample {
	struct perf_data_event_header header;
	__u64 id;		/* PERF_SAMPLE_IDENTIFIER */
	__u64 ip;		/* PERF_SAMPLE_IP */
	__u32 pid;		/* PERF_SAMPLE_TID */
	__u32 tid;
	__u64 time;		/* PERF_SAMPLE_TIME, ns */
	__u64 period;		/* PERF_SAMPLE_PERIOD */
};

struct perf_data_lost_samples {
	struct perf_data_event_header header;
	__u64 lost;
	struct perf_data_sample_id sample_id;
};

/**
 * struct perf_data_event - One event of a recording, as the writer needs it
 * @type: one of PERF_DATA_TYPE_HARDWARE, _SOFTWARE and _RAW
 * @config: event number within @type
 * @period: sample period, or frequency in Hz if @freq
 * @freq: true for frequency mode (the attr's freq flag)
 * @callchain: samples carry a call chain (PERF_SAMPLE_CALLCHAIN)
 * @id: the id samples of this event carry (unique, non-zero)
 * @name: name shown by perf (HEADER_EVENT_DESC), e.g. "cycles"
 */
struct perf_data_event {
	__u32 type;
	__u64 config;
	__u64 period;
	bool freq;
	bool callchain;
	__u64 id;
	const char *name;
};

/**
 * struct perf_data_info - The facts one perf.data states
 * @events: the events recorded
 * @nr_events: number of @events, 1..PERF_DATA_MAX_EVENTS
 * @pid: pid of every record
 * @tid: tid of every record
 * @comm: the process name perf shows ("u-boot")
 * @start_time: time (ns) of the COMM and MMAP records, not after the first sample
 * @image_start: run-time address of the image's first byte
 * @image_len: bytes the image spans from @image_start
 * @image_pgoff: file offset of the image's first byte in its ELF: p_offset of the
 *	PT_LOAD segment holding it, plus its distance from the segment's start
 * @image_name: file name perf looks up under --symfs ("/u-boot")
 * @build_id: the build-id of the image's ELF (its NT_GNU_BUILD_ID note), or
 *	NULL for none. Given, perf finds the ELF by it in its build-id cache
 *	("perf buildid-cache --add u-boot"), without --symfs; an ELF that does
 *	not carry this id gives no symbols, under --symfs too
 * @build_id_len: bytes of @build_id, 1..PERF_DATA_BUILD_ID_MAX (20 for sha1);
 *	0 if @build_id is NULL
 * @hostname: HEADER_HOSTNAME, the board
 * @osrelease: HEADER_OSRELEASE, the firmware's version
 * @version: HEADER_VERSION, the recorder's version
 * @arch: HEADER_ARCH, "aarch64"
 * @cpuid: HEADER_CPUID, e.g. "0x00000000411fd070" (MIDR_EL1)
 * @nr_cpus_avail: HEADER_NRCPUS, CPUs present
 * @nr_cpus_online: HEADER_NRCPUS, CPUs running
 * @total_mem_kb: HEADER_TOTAL_MEM, DRAM in KiB
 * @argv: HEADER_CMDLINE, the recording command's words
 * @argc: number of @argv
 */
struct perf_data_info {
	const struct perf_data_event *events;
	unsigned int nr_events;
	__u32 pid;
	__u32 tid;
	const char *comm;
	__u64 start_time;
	__u64 image_start;
	__u64 image_len;
	__u64 image_pgoff;
	const char *image_name;
	const __u8 *build_id;
	unsigned int build_id_len;
	const char *hostname;
	const char *osrelease;
	const char *version;
	const char *arch;
	const char *cpuid;
	__u32 nr_cpus_avail;
	__u32 nr_cpus_online;
	__u64 total_mem_kb;
	const char *const *argv;
	int argc;
};

/**
 * struct perf_data_stats - What the recording produced, for the trailer
 * @records_bytes: bytes of sample records written at the ring offset
 * @lost: samples dropped because the ring was full
 * @first_time: time of the first sample (ns), or 0 if none
 * @last_time: time of the last sample (ns), or 0 if none
 */
struct perf_data_stats {
	__u64 records_bytes;
	__u64 lost;
	__u64 first_time;
	__u64 last_time;
};

/**
 * struct perf_data_writer - Output cursor over a caller-supplied buffer
 * @buf: start of the buffer, or NULL to only count bytes
 * @cap: bytes available at @buf
 * @pos: bytes written (or counted) so far
 */
struct perf_data_writer {
	__u8 *buf;
	size_t cap;
	size_t pos;
};

/* Longest thread name perf keeps (TASK_COMM_LEN, NUL included) */
#define PERF_DATA_COMM_LEN	16

/* PERF_RECORD_COMM as perf_data_thread() writes it: the name in 16 bytes */
struct perf_data_thread_comm {
	struct perf_data_event_header header;
	__u32 pid;
	__u32 tid;
	char comm[PERF_DATA_COMM_LEN];
	struct perf_data_sample_id sid;
};

/* PERF_RECORD_FORK, with the sample_id trailer */
struct perf_data_thread_fork {
	struct perf_data_event_header header;
	__u32 pid;
	__u32 ppid;
	__u32 tid;
	__u32 ptid;
	__u64 time;
	struct perf_data_sample_id sid;
};

/* Bytes of the records perf_data_thread() writes */
#define PERF_DATA_THREAD_BYTES	(sizeof(struct perf_data_thread_fork) + \
				 sizeof(struct perf_data_thread_comm))

/**
 * perf_data_thread() - A new thread of a process: PERF_RECORD_FORK, then PERF_RECORD_COMM
 * @buf: where the records go, 8-byte aligned, PERF_DATA_THREAD_BYTES long
 * @pid: the process (its leader's tid)
 * @tid: the new thread
 * @comm: its name, cut at PERF_DATA_COMM_LEN - 1 bytes
 * @time: when it starts, ns
 * @id: the sample id of the first event (the records' sample_id trailer)
 *
 * perf gives the thread the process's maps, and @comm from @time on.
 * Return: bytes written, a multiple of 8
 */
size_t perf_data_thread(void *buf, __u32 pid, __u32 tid, const char *comm, __u64 time,
			__u64 id);

/**
 * struct perf_data_layout - Where perf_data_begin() put things
 * @ring_offset: offset of the first sample record (after COMM and MMAP)
 * @ring_bytes: bytes available for sample records
 * @trailer_bytes: bytes kept after the ring for perf_data_finish()
 */
struct perf_data_layout {
	size_t ring_offset;
	size_t ring_bytes;
	size_t trailer_bytes;
};

/**
 * perf_data_put() - Append bytes to the output
 * @w: writer
 * @src: bytes to copy, or NULL for zeroes
 * @len: number of bytes
 * Return: 0 if written, -ENOSPC if they do not fit (nothing written)
 */
int perf_data_put(struct perf_data_writer *w, const void *src, size_t len);

/**
 * perf_data_begin() - Write the head of a file-mode perf.data
 * @w: writer; set up here over @buf
 * @buf: output buffer
 * @cap: its size in bytes
 * @info: what the file states
 * @lay: returns where sample records go and how much room they have
 *
 * Writes the file header (sizes completed by perf_data_finish()), the attrs
 * with their ids, and the COMM and MMAP records, and keeps room at the end of
 * the buffer for the trailer (whose features include HEADER_BUILD_ID if
 * @info has a build-id).
 * Return: 0 on success, -EINVAL if @info is inconsistent, -ENOSPC if the
 * buffer cannot hold the head, the trailer and at least one sample
 */
int perf_data_begin(struct perf_data_writer *w, void *buf, size_t cap,
		    const struct perf_data_info *info, struct perf_data_layout *lay);

/**
 * perf_data_finish() - Complete a perf.data after its samples
 * @w: writer used with perf_data_begin()
 * @info: the same facts as given to perf_data_begin()
 * @lay: the layout perf_data_begin() returned
 * @stats: what the recording produced
 * @sizep: returns the total file size in bytes
 *
 * Appends PERF_RECORD_LOST_SAMPLES (if any were lost) and the feature
 * sections, then fills in the header's sizes.
 * Return: 0 on success, -EINVAL if @stats does not fit @lay
 */
int perf_data_finish(struct perf_data_writer *w, const struct perf_data_info *info,
		     const struct perf_data_layout *lay,
		     const struct perf_data_stats *stats, size_t *sizep);

/**
 * perf_data_pipe_head() - Write the start of a pipe-mode perf.data stream
 * @w: writer; set up here over @buf
 * @buf: output buffer, or NULL to only count the bytes
 * @cap: its size in bytes
 * @info: what the stream states
 *
 * Pipe mode (perf's streamable variant, read with "perf report -i" or from
 * stdin) starts with a 16-byte header, then HEADER_ATTR records for the
 * events (each followed by an EVENT_UPDATE naming it) and HEADER_FEATURE
 * records for the features; here followed by a PERF_RECORD_HEADER_BUILD_ID
 * (if @info has a build-id: perf 6.1 reads a BUILD_ID feature record from its
 * standard input, not from the record) and the COMM and MMAP records. Sample
 * records follow as they are, then perf_data_pipe_tail().
 * Return: 0 on success, -EINVAL if @info is inconsistent, -ENOSPC if @cap is
 * too small
 */
int perf_data_pipe_head(struct perf_data_writer *w, void *buf, size_t cap,
			const struct perf_data_info *info);

/**
 * perf_data_pipe_tail() - Write the end of a pipe-mode stream
 * @w: writer, positioned after the last sample record
 * @info: the facts given to perf_data_pipe_head()
 * @stats: what the recording produced (lost samples, sample times)
 *
 * Writes LOST_SAMPLES (if any) and the SAMPLE_TIME feature.
 * Return: 0 on success, -ENOSPC if it does not fit
 */
int perf_data_pipe_tail(struct perf_data_writer *w, const struct perf_data_info *info,
			const struct perf_data_stats *stats);

/**
 * perf_data_pipe_tail_bytes() - Room perf_data_pipe_tail() needs at most
 * @info: the facts of the stream
 *
 * The tail with a LOST_SAMPLES record, which is as long as it gets.
 * Return: bytes, or (size_t)-1 if @info cannot be written
 */
size_t perf_data_pipe_tail_bytes(const struct perf_data_info *info);

/**
 * perf_data_pipe_begin() - Write the head of a pipe-mode stream and lay out the buffer
 * @w: writer; set up here over @buf
 * @buf: output buffer
 * @cap: its size in bytes
 * @info: what the stream states
 * @lay: returns where sample records go and how much room they have
 *
 * perf_data_pipe_head(), then the layout perf_data_begin() gives a file:
 * sample records from @lay->ring_offset, and @lay->trailer_bytes kept after
 * them for perf_data_pipe_tail(), which is to be called with @w->pos at the
 * end of the records.
 * Return: 0 on success, -EINVAL if @info is inconsistent, -ENOSPC if the
 * buffer cannot hold the head, the tail and at least one sample
 */
int perf_data_pipe_begin(struct perf_data_writer *w, void *buf, size_t cap,
			 const struct perf_data_info *info, struct perf_data_layout *lay);

#endif /* __PERFREC_PERF_DATA_H */
