// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: the boot recording becomes U-Boot's session after relocation
 *
 * A boot recording (perfrec_boot.c) runs before relocation from a fixed
 * DRAM buffer, with the boot vectors and an IRQ state of its own. Once U-Boot
 * has relocated, perfrec_session_relocated() points what any end gives back
 * at the relocated image; once driver model and lmb are up,
 * perfrec_session_adopt() writes the perf.data's head into the recording's
 * buffer, copies the boot samples after it (image offsets become run-time
 * addresses), and switches the handler to U-Boot's own session.
 */

#define LOG_CATEGORY	LOGC_ARCH

#include <errno.h>
#include <log.h>
#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_hw.h>
#include <asm/global_data.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_info.h"
#include "perfrec_session.h"

DECLARE_GLOBAL_DATA_PTR;

/*
 * A boot sample's address: a marker as it is, a raw one untagged, an image
 * offset (perfrec_irq_boot_addr()) moved to the image's run-time place
 */
static inline u64 perfrec_boot_to_addr(u64 val, u64 base)
{
	/* An offset, the usual case, is the one with PERFREC_BOOT_RAW (bit 63) clear */
	if (!(val & PERFREC_BOOT_RAW))
		return val + base;
	if (val >= PERF_DATA_CONTEXT_USER)
		return val;

	return val & ~PERFREC_BOOT_RAW;
}

/* A boot sample of @nr words at @src, with run-time addresses, at @dst */
static void perfrec_adopt_sample(u64 *dst, const u64 *src, uint nr, u64 reloc)
{
	/* The fields and nr as they are, but the address; then the chain */
	uint fields = min_t(uint, nr, PERFREC_SAMPLE_CHAIN_OFF), i;

	for (i = 0; i < fields; i++)
		dst[i] = src[i];
	dst[PERFREC_SAMPLE_WORD(ip)] = perfrec_boot_to_addr(dst[PERFREC_SAMPLE_WORD(ip)], reloc);
	for (; i < nr; i++)
		dst[i] = perfrec_boot_to_addr(src[i], reloc);
}

/*
 * Copy the boot ring's records in [@from, @to) (it never wraps: nothing
 * consumes it) into @ring: samples with run-time addresses, the others (a
 * boot phase's FORK and COMM) as they are. Each goes straight into @ring
 * when it fits there in one piece, else through a copy (wrapping at the
 * ring's end). A sample that does not fit counts in @lost.
 * Return: where the copy stopped, @to unless at a broken record
 */
static u64 perfrec_adopt_records(struct perfrec_ring *ring, const struct perfrec_irq *boot,
				 u64 from, u64 to, u64 *copied, u64 *lost)
{
	const u8 *base = (const u8 *)boot->ring.base;
	u64 reloc = gd->relocaddr;

	while (from < to) {
		const struct perf_data_event_header *h = (const void *)(base + from);
		const u64 *src = (const u64 *)h;
		u64 words[PERFREC_SAMPLE_MAX_WORDS], *dst, head;
		uint nr = h->size / sizeof(u64);
		bool sample = h->type == PERF_DATA_RECORD_SAMPLE;
		bool direct;

		/* Only perfrec wrote here: anything else ends the copy */
		if (h->size < sizeof(*h) || h->size > sizeof(words) || h->size % sizeof(u64) ||
		    h->size > to - from || (sample && h->size < sizeof(struct perf_data_sample)))
			break;
		from += h->size;
		direct = perfrec_ring_reserve(ring, h->size, &dst, &head);
		if (!direct)
			dst = words;
		if (sample)
			perfrec_adopt_sample(dst, src, nr, reloc);
		else
			memcpy(dst, src, h->size);
		if (direct) {
			perfrec_ring_publish(ring, dst, head, h->size);
		} else if (!perfrec_ring_put(ring, words, nr)) {
			*lost += sample;
			continue;
		}
		*copied += sample;
	}

	return from;
}

void perfrec_session_relocated(struct perfrec_session *boot, u64 vbar)
{
	perfrec_hw_relocated(&boot->hw, vbar);
}

int perfrec_session_adopt(struct perfrec_session *boot, void *buf, ulong addr, ulong size,
			  u64 *takenp, u64 *copiedp)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	const struct perfrec_irq *bst = boot->st;
	struct perfrec_ring ring;
	u64 copied = 0, lost = 0, done;
	int ret;

	if (s->state == PERFREC_ARMED)
		return -EBUSY;
	/* While the boot recording goes on: all but the switch */
	*s = *boot;
	s->state = PERFREC_IDLE;
	s->st = st;
	s->boot = false;
	s->cfg.buf = buf;
	s->cfg.buf_addr = addr;
	s->cfg.buf_size = size;
	/* The device tree was relocated with U-Boot since the arming's walk */
	perfrec_dt_follow(perfrec_hw_dt(&s->hw));
	perfrec_info_fill(&s->facts, &s->cfg, perfrec_hw_dt(&s->hw));
	/* The leader's COMM and the MMAP: when the counters started */
	s->facts.info.start_time = perfrec_hw_span_ns(&boot->hw, NULL);
	ret = perf_data_begin(&s->writer, buf, size, &s->facts.info, &s->layout);
	if (ret) {
		perfrec_hw_block();
		perfrec_session_disarm(boot);
		return log_msg_ret("head", ret);
	}
	perfrec_ring_init(&ring, buf + s->layout.ring_offset, s->layout.ring_bytes);
	done = perfrec_adopt_records(&ring, bst, 0, perfrec_ring_head(&bst->ring), &copied, &lost);
	perfrec_keep_buffer(s, &s->cfg);

	/* The switch: the records taken since, and the handler's state */
	perfrec_hw_block();
	perfrec_adopt_records(&ring, bst, done, bst->ring.head, &copied, &lost);
	*takenp = bst->samples;
	*copiedp = copied;
	*st = *bst;
	st->ring = ring;
	st->samples = copied;
	st->lost += lost;
	/* From now on, as any recording: run-time addresses of the relocated image */
	st->text_start = gd->relocaddr;
	st->text_end = gd->relocaddr + perfrec_info_text_bytes();
	st->stack_top = gd->start_addr_sp;
	st->alt_start = 0;
	st->alt_end = 0;
	st->alt_stack_top = 0;
	st->img_bytes = 0;
	s->state = PERFREC_ARMED;
	perfrec_cpu_switch_vectors(false);
	perfrec_hw_unmask(&s->hw);
	/*
	 * Now that there is driver model: its removal before an OS boots
	 * disarms. Without it nothing would: the recording ends here, as an
	 * arming refuses on the same error.
	 */
	ret = perfrec_probe_device(perfrec_session_pmu_node(s));
	if (ret) {
		perfrec_session_disarm(s);
		perfrec_release_buffer();
		return log_msg_ret("dev", ret);
	}

	return 0;
}
