/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec frames: a recording as printable text for the serial console
 */

#ifndef __PERFREC_FRAME_H
#define __PERFREC_FRAME_H

#include <stddef.h>

#define PERFREC_FRAME_VERSION		1
/* Wire bytes per payload line: 76 base64 characters */
#define PERFREC_FRAME_LINE_BYTES	57
/* Characters a full payload line takes on the wire, CR LF included */
#define PERFREC_FRAME_WIRE_PER_LINE	86
/* Longest line, NUL included: the begin line or a payload line */
#define PERFREC_FRAME_LINE_MAX		128

/**
 * struct perfrec_frame - One block's header facts
 * @id: the recording's id
 * @seq: chunk number within a stream; 0 for a whole file
 * @kind: "file" or "pipe"
 * @size: payload bytes
 * @crc32: CRC-32 (as zlib computes it) of the payload
 * @compressed: the wire data is a gzip stream of the payload
 * @wire_len: wire bytes
 */
struct perfrec_frame {
	unsigned int id;
	unsigned int seq;
	const char *kind;
	size_t size;
	unsigned int crc32;
	int compressed;
	size_t wire_len;
};

/**
 * perfrec_frame_lines() - How many payload lines a block has
 * @wire_len: wire bytes
 * Return: the number of payload lines
 */
size_t perfrec_frame_lines(size_t wire_len);

/**
 * perfrec_frame_write() - Write one block, a line at a time
 * @frame: the block's facts
 * @wire: @frame->wire_len bytes of wire data
 * @out: called with each line (ending in '\n')
 * @ctx: passed to @out
 */
void perfrec_frame_write(const struct perfrec_frame *frame, const void *wire,
			 void (*out)(void *ctx, const char *line), void *ctx);

#endif /* __PERFREC_FRAME_H */
