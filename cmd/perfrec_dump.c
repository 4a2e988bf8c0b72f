// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec command: getting a recording off the board: the framed console
 * dump, the stream in pipe-mode chunks (when asked, or after each command),
 * and the host file through semihosting
 */

#include <command.h>
#include <errno.h>
#include <gzip.h>
#include <malloc.h>
#include <mapmem.h>
#include <perfrec.h>
#include <perfrec_frame.h>
#include <perfrec_stream.h>
#include <semihosting.h>
#include <stdio.h>
#include <time.h>
#include <u-boot/crc.h>
#include <linux/kernel.h>
#include "perfrec_dump.h"
#include "perfrec_opts.h"

int perfrec_host_write(const char *path, ulong addr, ulong size)
{
	ulong written = 0;
	long fd, ret;
	void *buf;

	if (!IS_ENABLED(CONFIG_SEMIHOSTING)) {
		printf("Writing host file '%s' needs CONFIG_SEMIHOSTING\n", path);
		return -ENOSYS;
	}
	fd = smh_open(path, MODE_WRITE | MODE_BINARY);
	if (fd < 0) {
		printf("Cannot create host file '%s' (err=%ld)\n", path, fd);
		return -EIO;
	}
	buf = map_sysmem(addr, size);
	ret = smh_write(fd, buf, size, &written);
	unmap_sysmem(buf);
	smh_close(fd);
	if (ret || written != size) {
		printf("Cannot write host file '%s': %lu of %lu bytes written (err=%ld)\n", path,
		       written, size, ret);
		return -EIO;
	}
	printf("perfrec: %lu bytes written to host file %s\n", size, path);

	return 0;
}

static void perfrec_dump_line(void *ctx, const char *line)
{
	puts(line);
}

int perfrec_dump(const struct perfrec_frame *head, const void *data, bool compress,
		 size_t *wirep)
{
	struct perfrec_frame frame = *head;
	unsigned long wire_len = frame.size + frame.size / 100 + 1024;
	const void *wire = data;
	void *zbuf = NULL;

	frame.crc32 = crc32(0, data, frame.size);
	frame.wire_len = frame.size;
	if (compress) {
		if (!IS_ENABLED(CONFIG_GZIP_COMPRESSED)) {
			printf("Compressing needs CONFIG_GZIP_COMPRESSED\n");
			return -ENOSYS;
		}
		zbuf = malloc(wire_len);
		if (!zbuf) {
			printf("No memory to compress %zu bytes: dump without -z\n", frame.size);
			return -ENOMEM;
		}
		if (gzip(zbuf, &wire_len, (unsigned char *)data, frame.size)) {
			printf("Cannot compress the recording: dump without -z\n");
			free(zbuf);
			return -EIO;
		}
		frame.compressed = true;
		frame.wire_len = wire_len;
		wire = zbuf;
	}
	perfrec_frame_write(&frame, wire, perfrec_dump_line, NULL);
	free(zbuf);
	if (wirep)
		*wirep = perfrec_frame_lines(frame.wire_len) * PERFREC_FRAME_WIRE_PER_LINE;

	return 0;
}

int perfrec_dump_stream(bool compress, size_t max, size_t *wirep)
{
	struct perfrec_frame frame = { .kind = "pipe" };
	struct perfrec_result res;
	struct perfrec_chunk chunk;
	size_t size = perfrec_stream_pending();
	void *buf;
	int ret;

	*wirep = 0;
	perfrec_get_result(&res);
	if (!size)
		return 0;
	buf = malloc(size);
	if (!buf) {
		printf("No memory for %zu bytes of stream\n", size);
		return -ENOMEM;
	}
	ret = perfrec_stream_read(buf, min(size, max), &chunk);
	if (ret == -ENOSPC)
		ret = perfrec_stream_read(buf, size, &chunk);
	if (ret) {
		printf("Cannot stream the recording (err=%d)\n", ret);
		free(buf);
		return ret;
	}
	if (chunk.len) {
		frame.id = res.id;
		frame.seq = chunk.seq;
		frame.size = chunk.len;
		ret = perfrec_dump(&frame, buf, compress, wirep);
	}
	free(buf);
	if (chunk.last)
		printf("perfrec: end of stream %08x (%u chunks)\n", res.id, chunk.seq + 1);

	return ret;
}

/* Streaming at command boundaries: wire bytes a second (0: off), gzip or not */
static ulong perfrec_stream_rate;
static bool perfrec_stream_compress;
static ulong perfrec_stream_ms;
static long perfrec_stream_budget;

void perfrec_command_done(void)
{
	struct perfrec_result res;
	ulong now, elapsed;
	size_t wire;

	if (!perfrec_stream_rate)
		return;
	perfrec_get_result(&res);
	if (res.state != PERFREC_ARMED || res.mode != PERFREC_RECORD)
		return;
	now = get_timer(0);
	elapsed = now - perfrec_stream_ms;
	perfrec_stream_ms = now;
	perfrec_stream_budget = perfrec_stream_refill(perfrec_stream_budget, elapsed,
						      perfrec_stream_rate);
	if (perfrec_stream_budget <= 0)
		return;
	perfrec_dump_stream(perfrec_stream_compress, perfrec_stream_budget *
			    PERFREC_FRAME_LINE_BYTES / PERFREC_FRAME_WIRE_PER_LINE, &wire);
	perfrec_stream_budget -= wire;
}

void perfrec_stream_setup(ulong rate, bool compress)
{
	perfrec_stream_rate = rate;
	perfrec_stream_compress = compress;
	perfrec_stream_ms = get_timer(0);
	perfrec_stream_budget = 0;
}

int perfrec_stream_finish(void)
{
	size_t wire;

	perfrec_stream_rate = 0;
	/* The rest of the stream, whatever the rate: the user asked to stop */
	return perfrec_dump_stream(perfrec_stream_compress, SIZE_MAX, &wire);
}

int do_perfrec_dump(struct cmd_tbl *cmdtp, int flag, int argc, char *const argv[])
{
	struct perfrec_frame frame = { .kind = "file" };
	struct perfrec_result res;
	struct perfrec_opts o = { };
	bool stream = false;
	size_t wire;
	void *data;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1] || argv[i][2] || !strchr("ziH", argv[i][1])) {
			printf("Unknown option '%s'\n", argv[i]);
			return CMD_RET_USAGE;
		}
		if (argv[i][1] == 'z') {
			o.compress = true;
			continue;
		}
		if (argv[i][1] == 'i') {
			if (!IS_ENABLED(CONFIG_PERFREC_DUMP_STREAM)) {
				printf("perfrec dump -i needs CONFIG_PERFREC_DUMP_STREAM\n");
				return CMD_RET_FAILURE;
			}
			stream = true;
			continue;
		}
		if (++i == argc) {
			printf("Option -H needs a value\n");
			return CMD_RET_USAGE;
		}
		ret = perfrec_parse_value('H', argv[i], &o);
		if (ret)
			return ret;
	}
	perfrec_get_result(&res);
	if (stream) {
		if (o.host_path)
			return CMD_RET_USAGE;
		if (res.state == PERFREC_IDLE || res.mode != PERFREC_RECORD) {
			printf("No recording to stream\n");
			return CMD_RET_FAILURE;
		}
		if (!perfrec_stream_pending()) {
			printf("perfrec: nothing new to stream\n");
			return CMD_RET_SUCCESS;
		}
		return perfrec_dump_stream(o.compress, SIZE_MAX, &wire) ?
			CMD_RET_FAILURE : CMD_RET_SUCCESS;
	}
	if (res.state != PERFREC_FINALISED || res.mode != PERFREC_RECORD) {
		printf("No finished recording to dump\n");
		return CMD_RET_FAILURE;
	}
	if (res.streamed) {
		printf("The recording was streamed: 'perfrec dump -i' sends what is left\n");
		return CMD_RET_FAILURE;
	}
	if (o.host_path)
		return perfrec_host_write(o.host_path, res.addr, res.size) ?
			CMD_RET_FAILURE : CMD_RET_SUCCESS;

	frame.id = res.id;
	frame.size = res.size;
	data = map_sysmem(res.addr, res.size);
	ret = perfrec_dump(&frame, data, o.compress, NULL);
	unmap_sysmem(data);

	return ret ? CMD_RET_FAILURE : CMD_RET_SUCCESS;
}
