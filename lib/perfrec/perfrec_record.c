// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec record: arming with a fallback through the interrupt sources, and
 * the recording as framed console text, also while it runs (streaming at
 * command boundaries); buffer placement is in perfrec_buffer.c
 */

#include <env.h>
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
#include <vsprintf.h>
#include <u-boot/crc.h>
#include <asm/system.h>
#include <linux/kernel.h>

void perfrec_irq_reason(const struct perfrec_irq_report *irq, char *buf, size_t size)
{
	bool timer = irq->source == PERFREC_SRC_TIMER;
	const char *gic = irq->local ? "local interrupt controller" : "GIC";

	switch (irq->fault) {
	case PERFREC_IRQ_NO_NODE:
		snprintf(buf, size, timer ?
			 "no timer node (compatible \"arm,armv8-timer\") in the device tree" :
			 "no PMU node (compatible \"arm,armv8-pmuv3\" or a Cortex PMU's) in the device tree");
		break;
	case PERFREC_IRQ_NO_PROP:
		snprintf(buf, size, timer ? "%s has no \"interrupts\" entry for the EL%u timer" :
			 "%s has no \"interrupts\" property", irq->node, current_el());
		break;
	case PERFREC_IRQ_NO_CPU:
		snprintf(buf, size,
			 "%s: its \"interrupts\" have none for this CPU (see \"interrupt-affinity\")",
			 irq->node);
		break;
	case PERFREC_IRQ_BAD_SPEC:
		if (irq->local)
			snprintf(buf, size,
				 "%s: its \"interrupts\" entry is not a timer's or the PMU's source of the local interrupt controller",
				 irq->node);
		else
			snprintf(buf, size,
				 "%s: its \"interrupts\" entry is not a PPI or SPI of this GIC",
				 irq->node);
		break;
	case PERFREC_IRQ_NO_GIC:
		if (!*irq->parent)
			snprintf(buf, size, "%s has no interrupt parent (\"interrupt-parent\")",
				 irq->node);
		else
			snprintf(buf, size,
				 "%s: its interrupt parent %s (compatible \"%s\") is not a GICv2/v3 or a BCM2836 local controller, the only controllers perfrec supports",
				 irq->node, irq->parent, irq->compat);
		break;
	case PERFREC_IRQ_BAD_GIC:
		if (irq->local)
			snprintf(buf, size,
				 "%s: its local interrupt controller's \"reg\" is missing, or this CPU is not one of its four cores",
				 irq->node);
		else
			snprintf(buf, size,
				 "%s: its GIC's \"reg\" is incomplete, or has no redistributor for this CPU",
				 irq->node);
		break;
	case PERFREC_IRQ_UNMAPPED:
		snprintf(buf, size,
			 "%s: its %s %s %#llx-%#llx is not in U-Boot's MMU map and cannot be mapped (%s)",
			 irq->node, gic, irq->block, irq->start, irq->end,
			 irq->err == -ERANGE ? "beyond the translated address range" :
			 irq->err == -ENOSPC ? "too many holes" :
			 "a level-0 hole, a granule other than 4 KiB, or no device attribute in MAIR");
		break;
	case PERFREC_IRQ_NO_ANSWER:
		snprintf(buf, size,
			 "%s: nothing answers at its %s %s %#llx-%#llx (a read there aborts)",
			 irq->node, gic, irq->block, irq->start, irq->end);
		break;
	case PERFREC_IRQ_SILENT:
		snprintf(buf, size,
			 "%s: interrupt %u (its \"interrupts\") never reached the %s when raised",
			 irq->node, irq->intid, gic);
		break;
	case PERFREC_IRQ_STUCK:
		snprintf(buf, size,
			 "%s: its %s %s never finished a write (%s at %#llx stayed set)",
			 irq->node, gic, irq->block, irq->bit, irq->start);
		break;
	default:
		snprintf(buf, size, "its interrupt cannot be used");
		break;
	}
}

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

/*
 * cpu-clock samples on the generic timer alone (no PMU event beside it), at
 * a steady period of at least PERFREC_MIN_CLOCK_NS; choose the session's
 * interrupt accordingly
 */
int perfrec_clock_check(struct perfrec_cfg *cfg)
{
	const struct perfrec_event_cfg *ev = &cfg->events[0];
	uint i;

	cfg->source = PERFREC_SRC_PMU;
	for (i = 0; i < cfg->nr_events; i++) {
		if (cfg->events[i].timer && cfg->nr_events > 1) {
			printf("cpu-clock samples on the timer's interrupt: record it alone, not with PMU events\n");
			return -EINVAL;
		}
	}
	if (!ev->timer)
		return 0;
	if (cfg->jitter_pct) {
		printf("-j does not apply to cpu-clock: its period is the timer's\n");
		return -EINVAL;
	}
	if (ev->period && ev->period < PERFREC_MIN_CLOCK_NS) {
		printf("Period %llu ns of cpu-clock is below its %u ns minimum\n", ev->period,
		       PERFREC_MIN_CLOCK_NS);
		return -EINVAL;
	}
	cfg->source = PERFREC_SRC_TIMER;

	return 0;
}

int perfrec_arm_fallback(struct perfrec_cfg *cfg, perfrec_fallback_fn next, void *ctx)
{
	struct perfrec_result res;
	int ret;

	for (;;) {
		ret = perfrec_arm(cfg);
		if (!ret)
			return 0;
		perfrec_get_result(&res);
		/* Only a missing or silent interrupt leaves another source to try */
		if (res.irq.fault == PERFREC_IRQ_OK || !next(cfg, &res.irq, ctx))
			return ret;
	}
}
