/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's recordings on the console: framed dumps and pipe-mode streams
 */

#ifndef __PERFREC_STREAM_H
#define __PERFREC_STREAM_H

#include <linux/types.h>

/**
 * struct perfrec_chunk - One part of a recording streamed as pipe-mode perf.data
 * @len: bytes in it (0: nothing new)
 * @seq: its number in the stream; chunk 0 starts with the pipe header
 * @last: it ends the stream
 */
struct perfrec_chunk {
	size_t len;
	uint seq;
	bool last;
};

/**
 * perfrec_stream_pending() - How many bytes the next stream chunk would hold
 * Return: the bytes perfrec_stream_read() would write with room enough
 */
size_t perfrec_stream_pending(void);

/**
 * perfrec_stream_read() - Take what is new in the recording as pipe-mode perf.data
 * @buf: where to put it
 * @size: room at @buf
 * @chunk: returns its length, number and whether it ends the stream
 *
 * The first chunk holds the pipe header, attrs, features, COMM and MMAP;
 * every chunk then holds the whole sample records not sent before (as many
 * as fit), and the chunk after the recording has ended holds the rest and
 * the LOST_SAMPLES and SAMPLE_TIME records. Concatenated in order, the
 * chunks are a pipe-mode perf.data that perf reads (also when it stops
 * early, at a chunk boundary). Records taken while recording free their
 * room in the buffer, so a recording can go on for as long as it is
 * streamed; it then leaves no file-mode perf.data in memory.
 * Return: 0 (@chunk->len 0 when there is nothing new), -ENODATA if there is
 * no recording or its stream has ended, -ENOSPC if @size cannot hold the
 * next record (or the first chunk's header)
 */
int perfrec_stream_read(void *buf, size_t size, struct perfrec_chunk *chunk);

/**
 * perfrec_stream_refill() - A stream's byte budget after some time (a token bucket)
 *
 * perfrec_command_done() prints at most the budget, then takes what it
 * printed off it; a chunk may end beyond the budget, leaving it negative,
 * and time pays that back before the next one.
 *
 * @budget: bytes the stream had left (negative after a chunk over budget)
 * @elapsed_ms: milliseconds since
 * @rate: bytes a second on the wire
 * Return: @budget plus what @rate carries in @elapsed_ms, at most one
 * second's worth (@rate)
 */
static inline long perfrec_stream_refill(long budget, ulong elapsed_ms, ulong rate)
{
	long refilled = budget + (long)(elapsed_ms * rate / 1000);

	return refilled < (long)rate ? refilled : (long)rate;
}

#endif /* __PERFREC_STREAM_H */
