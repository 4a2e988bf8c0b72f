/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's sample ring: one producer (the IRQ handler), one consumer (command context)
 *
 * The producer writes a whole record, then publishes it by advancing @head;
 * the consumer copies whole records out, then frees their room by advancing
 * @tail. Each side writes only its own index, reads the other's once with
 * READ_ONCE(), and orders its data accesses against its own index with a
 * compiler barrier: producer and consumer run on the same CPU (the IRQ
 * interrupts the consumer, never the other way round), so program order is
 * all they need, and no dmb.
 */

#ifndef __PERFREC_RING_H
#define __PERFREC_RING_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * struct perfrec_ring - Single-producer ring of finished perf records
 *
 * @head and @tail count bytes since the start, so head - tail is the fill.
 * Records are multiples of 8 bytes and may wrap at @size.
 *
 * @base: first byte (8-byte aligned), inside the user's buffer
 * @size: bytes, a multiple of 8
 * @head: bytes produced (written by the IRQ only)
 * @tail: bytes consumed (written by command context only)
 * @wr: @head modulo @size (IRQ only)
 */
struct perfrec_ring {
	u64 *base;
	u64 size;
	u64 head;
	u64 tail;
	u64 wr;
};

/**
 * perfrec_ring_put() - Producer: append one record, if there is room
 * @ring: the ring
 * @rec: the record
 * @words: its size in 64-bit words
 *
 * IRQ context only. The ring's fields are read once: stores into the ring
 * may alias anything.
 * Return: true if stored, false if the ring had no room (the record is lost)
 */
static __always_inline notrace bool perfrec_ring_put(struct perfrec_ring *ring, const u64 *rec,
						     uint words)
{
	u64 *base = ring->base;
	u64 size = ring->size;
	u64 head = ring->head;
	u64 wr = ring->wr;
	u64 bytes = words * sizeof(u64);
	uint i;

	if (size - (head - READ_ONCE(ring->tail)) < bytes)
		return false;
	if (likely(wr + bytes < size)) {
		u64 *dst = base + wr / sizeof(u64);

		/* Unrolled: -Os would otherwise keep a loop of ~6 instructions a word */
#pragma GCC unroll 16
		for (i = 0; i < words; i++)
			dst[i] = rec[i];
		wr += bytes;
	} else {
		for (i = 0; i < words; i++) {
			base[wr / sizeof(u64)] = rec[i];
			wr += sizeof(u64);
			if (wr == size)
				wr = 0;
		}
	}
	ring->wr = wr;
	barrier();	/* the record is complete before the consumer can see it */
	WRITE_ONCE(ring->head, head + bytes);

	return true;
}

/**
 * perfrec_ring_used() - Consumer: bytes produced and not yet consumed
 * @ring: the ring
 * Return: head - tail, as the producer has published it
 */
static inline u64 perfrec_ring_used(const struct perfrec_ring *ring)
{
	return READ_ONCE(ring->head) - ring->tail;
}

/**
 * perfrec_ring_head() - Consumer: the producer's head, for reading up to it
 * @ring: the ring
 * Return: bytes produced; every record before this offset is complete
 */
static inline u64 perfrec_ring_head(const struct perfrec_ring *ring)
{
	u64 head = READ_ONCE(ring->head);

	barrier();	/* the records up to head are complete before they are read */

	return head;
}

/**
 * perfrec_ring_copy() - Consumer: copy bytes out of the ring
 * @ring: the ring
 * @from: ring offset (bytes since the start; taken modulo the ring's size)
 * @dst: where to
 * @len: bytes, at most the ring's size
 */
static inline void perfrec_ring_copy(const struct perfrec_ring *ring, u64 from, void *dst,
				     u64 len)
{
	u64 off = from % ring->size;
	u64 first = min(len, ring->size - off);

	memcpy(dst, (u8 *)ring->base + off, first);
	memcpy((u8 *)dst + first, ring->base, len - first);
}

/**
 * perfrec_ring_consume() - Consumer: give back the room up to @tail
 * @ring: the ring
 * @tail: new tail: the records before it have been copied out
 */
static inline void perfrec_ring_consume(struct perfrec_ring *ring, u64 tail)
{
	barrier();	/* copied before the producer may reuse the room */
	WRITE_ONCE(ring->tail, tail);
}

#endif /* __PERFREC_RING_H */
