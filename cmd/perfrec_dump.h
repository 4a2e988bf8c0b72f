/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: getting a recording off the board (perfrec_dump.c)
 */

#ifndef __PERFREC_DUMP_H
#define __PERFREC_DUMP_H

#include <command.h>
#include <linux/types.h>

struct perfrec_frame;

/**
 * perfrec_host_write() - Write a file on the host through semihosting
 * @path: the host file, created or truncated
 * @addr: the bytes to write
 * @size: how many
 * Return: 0 (and a line saying so), -ENOSYS without CONFIG_SEMIHOSTING,
 * -EIO if the host refused; each failure is printed
 */
int perfrec_host_write(const char *path, ulong addr, ulong size);

/**
 * perfrec_dump() - Print data on the console as one framed block
 * @head: the block's kind, id and sequence number, and @data's size
 * @data: the bytes
 * @compress: gzip them first
 * @wirep: if not NULL, returns the bytes printed
 *
 * The format is tools/perfrec/perfrec_frames.py's (include/perfrec_frame.h).
 *
 * Return: 0, -ENOSYS for @compress without CONFIG_GZIP_COMPRESSED, -ENOMEM,
 * -EIO if gzip fails; each failure is printed
 */
int perfrec_dump(const struct perfrec_frame *head, const void *data, bool compress,
		 size_t *wirep);

/**
 * perfrec_dump_stream() - Print what is new in the recording as a pipe-mode chunk
 * @compress: gzip it
 * @max: at most this many bytes of stream (the first chunk holds the whole
 *	header, whatever @max)
 * @wirep: returns the bytes printed
 *
 * After the last chunk, prints the end-of-stream line.
 *
 * Return: 0 (also with nothing new), or a negative error, printed
 */
int perfrec_dump_stream(bool compress, size_t max, size_t *wirep);

/**
 * perfrec_stream_setup() - Set how a new recording streams at command boundaries
 * @rate: bytes a second on the wire, 0 for no streaming
 * @compress: gzip the chunks
 */
void perfrec_stream_setup(ulong rate, bool compress);

/**
 * perfrec_stream_finish() - Print the rest of a streamed recording
 *
 * For 'perfrec stop': whatever the rate, the rest goes out now.
 *
 * Return: 0, or a negative error, printed
 */
int perfrec_stream_finish(void);

/* 'perfrec dump' */
int do_perfrec_dump(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[]);

#endif /* __PERFREC_DUMP_H */
