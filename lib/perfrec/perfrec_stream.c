// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec stream: read a recording's samples out of the ring, as pipe-mode perf.data
 *
 * The reader above the session: while recording, 'perfrec stream' takes the
 * finished records the IRQ handler appended (perfrec_ring.h is the other
 * half of the ring); after the recording, the sample walker hands the
 * on-target report each sample of a buffer that was not streamed.
 */

#include <errno.h>
#include <perf_data.h>
#include <perfrec.h>
#include <perfrec_hw.h>
#include <perfrec_report.h>
#include <perfrec_stream.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "perfrec_session.h"

size_t perfrec_stream_pending(void)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_irq *st = &perfrec_irq;
	struct perf_data_writer count;
	struct perf_data_stats stats;
	size_t bytes;

	if (s->state == PERFREC_IDLE || s->cfg.mode != PERFREC_RECORD || s->stream_done)
		return 0;
	bytes = perfrec_ring_used(&st->ring);
	if (!s->stream_seq && !perf_data_pipe_head(&count, NULL, SIZE_MAX, &s->facts.info))
		bytes += count.pos;
	if (s->state == PERFREC_FINALISED) {
		perfrec_session_stats(&stats);
		count.buf = NULL;
		count.cap = SIZE_MAX;
		count.pos = 0;
		if (!perf_data_pipe_tail(&count, &s->facts.info, &stats))
			bytes += count.pos;
	}

	return bytes;
}

int perfrec_stream_read(void *buf, size_t size, struct perfrec_chunk *chunk)
{
	struct perfrec_session *s = &perfrec_session;
	struct perfrec_ring *ring = &perfrec_irq.ring;
	struct perf_data_writer w = { .buf = buf, .cap = size };
	struct perf_data_event_header hdr;
	struct perf_data_stats stats;
	u64 head, tail = perfrec_ring_tail(ring);
	int ret;

	memset(chunk, 0, sizeof(*chunk));
	if (s->state == PERFREC_IDLE || s->cfg.mode != PERFREC_RECORD || s->stream_done)
		return -ENODATA;
	if (!s->stream_seq) {
		ret = perf_data_pipe_head(&w, buf, size, &s->facts.info);
		if (ret)
			return ret;
	}

	/* Whole records between the consumer's tail and the producer's head */
	head = perfrec_ring_head(ring);
	while (tail < head) {
		perfrec_ring_copy(ring, tail, &hdr, sizeof(hdr));
		if (head - tail < sizeof(hdr) || !perfrec_record_ok(&hdr, head - tail))
			return -EBADMSG;
		if (hdr.size > w.cap - w.pos)
			break;
		perfrec_ring_copy(ring, tail, w.buf + w.pos, hdr.size);
		if (hdr.type == PERF_DATA_RECORD_SAMPLE && !s->times_ns)
			perfrec_sample_time_ns(s, w.buf + w.pos);
		w.pos += hdr.size;
		tail += hdr.size;
	}
	if (tail < head && !w.pos)
		return -ENOSPC;
	perfrec_ring_consume(ring, tail);

	if (s->state == PERFREC_FINALISED && tail == head) {
		perfrec_session_stats(&stats);
		if (!perf_data_pipe_tail(&w, &s->facts.info, &stats)) {
			chunk->last = true;
			s->stream_done = true;
		}
	}
	if (!w.pos)
		return 0;
	if (s->state == PERFREC_ARMED)
		s->streamed = true;
	chunk->len = w.pos;
	chunk->seq = s->stream_seq++;

	return 0;
}

int perfrec_walk_samples(perfrec_sample_fn fn, void *ctx)
{
	struct perfrec_session *s = &perfrec_session;
	const u8 *rec = (const u8 *)perfrec_irq.ring.base;
	const u8 *end = rec + perfrec_irq.ring.head;
	struct perfrec_sample_view view;
	struct perf_data_sample sample;
	u64 nr;
	int ret;

	if (s->state != PERFREC_FINALISED || s->cfg.mode != PERFREC_RECORD || s->streamed)
		return -ENODATA;
	for (; rec < end; rec += sample.header.size) {
		if (end - rec < sizeof(sample.header))
			return -EBADMSG;
		memcpy(&sample.header, rec, sizeof(sample.header));
		if (!perfrec_record_ok(&sample.header, end - rec))
			return -EBADMSG;
		if (sample.header.type != PERF_DATA_RECORD_SAMPLE)
			continue;
		memcpy(&sample, rec, sizeof(sample));
		view.event = sample.id - 1;
		view.ip = sample.ip;
		view.period = sample.period;
		view.chain = NULL;
		view.chain_len = 0;
		if (s->cfg.callchain) {
			/* nr, then PERF_CONTEXT_USER and the PC, then the callers */
			if (sample.header.size < sizeof(sample) + 3 * sizeof(u64))
				return -EBADMSG;
			memcpy(&nr, rec + sizeof(sample), sizeof(nr));
			/* Its entries within the record */
			if (nr > (sample.header.size - sizeof(sample)) / sizeof(u64) - 1)
				return -EBADMSG;
			if (nr > 2) {
				view.chain = (const u64 *)(rec + sizeof(sample) + 3 * sizeof(u64));
				view.chain_len = nr - 2;
			}
		}
		ret = fn(ctx, &view);
		if (ret)
			return ret;
	}

	return 0;
}

int perfrec_get_phases(struct perfrec_phase *phases, uint max)
{
	struct perfrec_session *s = &perfrec_session;
	const u8 *rec = (const u8 *)perfrec_irq.ring.base;
	const u8 *end = rec + perfrec_irq.ring.head;
	struct perf_data_sample sample;
	uint nr = 0, i;

	if (s->state != PERFREC_FINALISED || s->cfg.mode != PERFREC_RECORD || s->streamed)
		return -ENODATA;
	if (!s->phases || !max)
		return 0;
	/* The time before the first phase: the leader thread, named at the start */
	memset(phases, 0, sizeof(*phases));
	strlcpy(phases[0].name, s->facts.info.comm, sizeof(phases[0].name));
	phases[0].tid = PERFREC_PID;
	phases[0].start_ns = s->facts.info.start_time;
	nr = 1;
	for (; rec < end; rec += sample.header.size) {
		if (end - rec < sizeof(sample.header))
			return -EBADMSG;
		memcpy(&sample, rec, sizeof(sample.header));
		if (!perfrec_record_ok(&sample.header, end - rec) ||
		    (sample.header.type == PERF_DATA_RECORD_COMM &&
		     sample.header.size < sizeof(struct perf_data_thread_comm)))
			return -EBADMSG;
		if (sample.header.type == PERF_DATA_RECORD_COMM && nr < max) {
			struct perf_data_thread_comm comm;	/* perf_data_thread()'s */

			memcpy(&comm, rec, sizeof(comm));
			strlcpy(phases[nr].name, comm.comm, sizeof(phases[nr].name));
			phases[nr].tid = comm.tid;
			phases[nr].start_ns = comm.sid.time;
			phases[nr].samples = 0;
			nr++;
		} else if (sample.header.type == PERF_DATA_RECORD_SAMPLE) {
			memcpy(&sample, rec, sizeof(sample));
			for (i = 0; i < nr && phases[i].tid != sample.tid; i++)
				;
			if (i < nr)
				phases[i].samples++;
		}
	}

	return nr;
}
