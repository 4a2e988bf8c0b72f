// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Host driver for the console-frame encoder: frame standard input as one 'perfrec dump' block
 *
 * Usage: perfrec_frame_run <id> <seq> <kind> <size> <crc32> <enc>
 *   <id>, <crc32>   hex; <seq>, <size> decimal; <kind> file or pipe;
 *   <enc>           b64 (the wire data is the payload) or b64z (it is gzip)
 * The wire data is read from standard input; the begin, payload and end lines
 * perfrec_frame_write() makes of it go to standard output as it writes them.
 * Every line must end in '\n' and fit PERFREC_FRAME_LINE_MAX, and there must
 * be perfrec_frame_lines() payload lines. Exits 0 on success, 1 otherwise.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfrec_frame.h>

static unsigned long lines_seen;

static void usage(void)
{
	fprintf(stderr, "Usage: perfrec_frame_run <id> <seq> <kind> <size> <crc32> b64|b64z"
		" < wire\n");
	exit(EXIT_FAILURE);
}

static unsigned long long parse(const char *arg, int base)
{
	unsigned long long val;
	char *end;

	val = strtoull(arg, &end, base);
	if (!*arg || *end)
		usage();

	return val;
}

static void out_line(void *ctx, const char *line)
{
	size_t len = strlen(line);

	if (ctx != &lines_seen || !len || line[len - 1] != '\n' ||
	    len >= PERFREC_FRAME_LINE_MAX) {
		fprintf(stderr, "perfrec_frame_run: bad line %lu: %s\n", lines_seen, line);
		exit(EXIT_FAILURE);
	}
	fputs(line, stdout);
	lines_seen++;
}

int main(int argc, char *argv[])
{
	struct perfrec_frame frame;
	unsigned char *wire = NULL;
	size_t len = 0, room = 0, n;

	if (argc != 7 || (strcmp(argv[6], "b64") && strcmp(argv[6], "b64z")))
		usage();
	frame.id = parse(argv[1], 16);
	frame.seq = parse(argv[2], 10);
	frame.kind = argv[3];
	frame.size = parse(argv[4], 10);
	frame.crc32 = parse(argv[5], 16);
	frame.compressed = !strcmp(argv[6], "b64z");
	do {
		if (len == room) {
			room = room ? 2 * room : 4096;
			wire = realloc(wire, room);
			if (!wire)
				return EXIT_FAILURE;
		}
		n = fread(wire + len, 1, room - len, stdin);
		len += n;
	} while (n);
	if (ferror(stdin))
		return EXIT_FAILURE;
	frame.wire_len = len;

	perfrec_frame_write(&frame, wire, out_line, &lines_seen);
	free(wire);
	if (lines_seen != perfrec_frame_lines(len) + 2) {
		fprintf(stderr, "perfrec_frame_run: %lu lines, want %zu payload lines + 2\n",
			lines_seen, perfrec_frame_lines(len));
		return EXIT_FAILURE;
	}

	return 0;
}
