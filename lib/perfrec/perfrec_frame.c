// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec frames: a recording as printable text for the serial console (builds for the host too)
 *
 * Format version 1, one block per dump:
 *
 *   perfrec-begin 1 <id> <seq> <kind> <size> <crc32> <enc> <wire> <lines>
 *   <n>:<base64 of up to 57 bytes>:<crc16>
 *   ...
 *   perfrec-end <id> <seq>
 *
 * <id> (8 hex digits) names the recording, <seq> counts the chunks of a
 * stream (0 for a whole file), <kind> is "file" (a file-mode perf.data) or
 * "pipe" (one chunk of a pipe-mode stream), <size> and <crc32> describe the
 * payload, <enc> is "b64" (the wire data is the payload) or "b64z" (it is a
 * gzip stream of the payload), <wire> counts the wire bytes and <lines> the
 * payload lines. Each payload line carries its index (hex), 57 bytes of wire
 * data in base64 (76 characters) and the CRC-16/XMODEM of those bytes, so the
 * host tool (tools/perfrec/perfrec_extract.py) can name the line where a
 * transfer broke. 57 bytes become 86 characters with CRLF: 1.51 bytes on the
 * wire per byte of data.
 */

#ifdef USE_HOSTCC
#include <stdio.h>
#include <string.h>
#else
#include <stdio.h>	/* snprintf() from 2025.01 */
#include <vsprintf.h>	/* snprintf() in 2023.01 */
#include <linux/string.h>
#endif
#include <perfrec_frame.h>

static const char perfrec_b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* CRC-16/XMODEM (polynomial 0x1021, initial value 0, no reflection) */
static unsigned int perfrec_frame_crc16(const unsigned char *buf, size_t len)
{
	unsigned int crc = 0;
	int bit;

	while (len--) {
		crc ^= (unsigned int)*buf++ << 8;
		for (bit = 0; bit < 8; bit++)
			crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
	}

	return crc & 0xffff;
}

/* Append the base64 of @len (1..57) bytes at @src to @out; return its length */
static size_t perfrec_frame_b64(char *out, const unsigned char *src, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i += 3) {
		unsigned long v = (unsigned long)src[i] << 16;

		if (i + 1 < len)
			v |= (unsigned long)src[i + 1] << 8;
		if (i + 2 < len)
			v |= src[i + 2];
		out[n++] = perfrec_b64[v >> 18 & 63];
		out[n++] = perfrec_b64[v >> 12 & 63];
		out[n++] = i + 1 < len ? perfrec_b64[v >> 6 & 63] : '=';
		out[n++] = i + 2 < len ? perfrec_b64[v & 63] : '=';
	}

	return n;
}

size_t perfrec_frame_lines(size_t wire_len)
{
	return (wire_len + PERFREC_FRAME_LINE_BYTES - 1) / PERFREC_FRAME_LINE_BYTES;
}

void perfrec_frame_write(const struct perfrec_frame *frame, const void *wire,
			 void (*out)(void *ctx, const char *line), void *ctx)
{
	const unsigned char *p = wire;
	char line[PERFREC_FRAME_LINE_MAX];
	size_t i, lines = perfrec_frame_lines(frame->wire_len);

	snprintf(line, sizeof(line), "perfrec-begin %d %08x %u %s %lu %08x %s %lu %lu\n",
		 PERFREC_FRAME_VERSION, frame->id, frame->seq, frame->kind,
		 (unsigned long)frame->size, frame->crc32, frame->compressed ? "b64z" : "b64",
		 (unsigned long)frame->wire_len, (unsigned long)lines);
	out(ctx, line);
	for (i = 0; i < lines; i++) {
		size_t off = i * PERFREC_FRAME_LINE_BYTES;
		size_t len = frame->wire_len - off;
		size_t n;

		if (len > PERFREC_FRAME_LINE_BYTES)
			len = PERFREC_FRAME_LINE_BYTES;
		n = snprintf(line, sizeof(line), "%lx:", (unsigned long)i);
		n += perfrec_frame_b64(line + n, p + off, len);
		snprintf(line + n, sizeof(line) - n, ":%04x\n", perfrec_frame_crc16(p + off, len));
		out(ctx, line);
	}
	snprintf(line, sizeof(line), "perfrec-end %08x %u\n", frame->id, frame->seq);
	out(ctx, line);
}
