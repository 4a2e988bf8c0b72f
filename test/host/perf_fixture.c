// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Tiny aarch64 image that the host tests symbolise perf samples against
 *
 * Linked like U-Boot (static, no libc, text at a fixed base, no build-id but
 * for the build-id tests, which link it with a sha1 or md5 one) by
 * test/host/conftest.py, with -fno-inline so that every function stays. As in
 * U-Boot, _start comes first and the image starts there; the tests read every
 * other address and size with nm, so the bodies only need to be distinct.
 * perfrec_image_pgoff and perfrec_image_text_bytes hold the marker that
 * scripts/perfrec_pgoff.py replaces with the image's file offset and code size.
 */

#define FIXTURE_NOPS(n)	__asm__ volatile(".rept " #n "\n\tnop\n\t.endr")

static void fixture_hot(void);
static void fixture_warm(void);
static void fixture_cold(void);

unsigned long long perfrec_image_pgoff = 0x5045524652454331ULL;
unsigned long long perfrec_image_text_bytes = 0x5045524652454331ULL;

void _start(void)
{
	for (;;) {
		fixture_hot();
		fixture_warm();
		fixture_cold();
	}
}

static void fixture_hot(void)
{
	FIXTURE_NOPS(16);
}

static void fixture_warm(void)
{
	FIXTURE_NOPS(8);
}

static void fixture_cold(void)
{
	FIXTURE_NOPS(4);
}
