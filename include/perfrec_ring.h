/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's sample ring: one producer (the IRQ handler), one consumer (command context)
 *
 * The producer writes a whole record, then publishes it by advancing @head;
 * the consumer copies whole records out, then frees their room by advancing
 * its tail (kept as @limit, the tail plus the ring's size: the one value
 * the producer compares with). Each side writes only its own index, reads
 * the other's once with READ_ONCE(), and orders its data accesses against
 * its own index with a compiler barrier: producer and consumer run on the
 * same CPU (the IRQ interrupts the consumer, never the other way round), so
 * program order is all they need, and no dmb.
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
 * @head and the consumer's tail count bytes since the start, so their
 * difference is the fill. Records are multiples of 8 bytes and may wrap at
 * @size. The producer's fields come first, in the pairs it loads together.
 *
 * @wr: where the next record goes (written by the IRQ only)
 * @end: the first byte after the ring
 * @head: bytes produced (written by the IRQ only)
 * @limit: the consumer's tail + @size: @head may not pass it (written by
 *	command context only)
 * @base: first byte (8-byte aligned), inside the user's buffer
 * @size: bytes, a multiple of 8
 */
struct perfrec_ring {
	u8 *wr;
	u8 *end;
	u64 head;
	u64 limit;
	u64 *base;
	u64 size;
};

/**
 * perfrec_ring_init() - Make an empty ring
 * @ring: the ring
 * @base: its first byte, 8-byte aligned
 * @size: its bytes; rounded down to a multiple of 8
 */
static inline void perfrec_ring_init(struct perfrec_ring *ring, void *base, u64 size)
{
	ring->base = base;
	ring->size = ALIGN_DOWN(size, sizeof(u64));
	ring->wr = base;
	ring->end = (u8 *)base + ring->size;
	ring->head = 0;
	ring->limit = ring->size;
}

/*
 * Producer: whether @bytes more would pass the consumer's tail. Where a
 * ulong is 64 bits, @head + @bytes is the sum the publish stores. On 32-bit
 * Arm the room left (@limit - @head, at most @size) fits a ulong, so the
 * test takes the indices' low words only.
 */
static __always_inline notrace bool perfrec_ring_full(const struct perfrec_ring *ring,
						      u64 head, ulong bytes)
{
	if (sizeof(ulong) == sizeof(head))
		return head + bytes > READ_ONCE(ring->limit);

	return bytes > (ulong)(READ_ONCE(ring->limit) - head);
}

/**
 * perfrec_ring_reserve() - Producer: room for a record in one piece, if there is
 * @ring: the ring
 * @bytes: the record's size, a multiple of 8
 * @dstp: returns where the record goes
 * @headp: returns the ring's head, for perfrec_ring_publish()
 *
 * IRQ context only. The ring's fields are read here, once: the record's
 * stores may alias them. Room, once there, stays: only the consumer changes
 * the ring meanwhile, and it only frees room.
 * Return: true, or false if the ring is full or the record would wrap at
 * its end (perfrec_ring_put() stores it then, or counts it lost)
 */
static __always_inline notrace bool perfrec_ring_reserve(const struct perfrec_ring *ring,
							 ulong bytes, u64 **dstp, u64 *headp)
{
	u8 *wr = ring->wr;
	u8 *end = ring->end;
	u64 head = ring->head;

	/* Both tests, one branch: every field is loaded at once */
	if (perfrec_ring_full(ring, head, bytes) | (wr + bytes >= end))
		return false;
	*dstp = (u64 *)wr;
	*headp = head;

	return true;
}

/**
 * perfrec_ring_publish() - Producer: hand the record reserved to the consumer
 * @ring: the ring
 * @dst: what perfrec_ring_reserve() returned in @dstp
 * @head: what it returned in @headp
 * @bytes: the record's size
 */
static __always_inline notrace void perfrec_ring_publish(struct perfrec_ring *ring, u64 *dst,
							 u64 head, u64 bytes)
{
	ring->wr = (u8 *)dst + bytes;
	barrier();	/* the record is complete before the consumer can see it */
	WRITE_ONCE(ring->head, head + bytes);
}

/**
 * perfrec_ring_put() - Producer: append one record, if there is room
 * @ring: the ring
 * @rec: the record
 * @words: its size in 64-bit words
 *
 * IRQ context, or command context with the IRQ masked.
 * Return: true if stored, false if the ring had no room (the record is lost)
 */
static __always_inline notrace bool perfrec_ring_put(struct perfrec_ring *ring, const u64 *rec,
						     uint words)
{
	ulong bytes = words * sizeof(u64);
	u64 head, wr, size, *dst, *base;
	uint i;

	if (likely(perfrec_ring_reserve(ring, bytes, &dst, &head))) {
		/* Unrolled: -Os would otherwise keep a loop of ~6 instructions a word */
#pragma GCC unroll 16
		for (i = 0; i < words; i++)
			dst[i] = rec[i];
		perfrec_ring_publish(ring, dst, head, bytes);
		return true;
	}
	head = ring->head;
	if (perfrec_ring_full(ring, head, bytes))
		return false;
	/* The record wraps at the ring's end */
	base = ring->base;
	size = ring->size;
	for (wr = ring->wr - (u8 *)base, i = 0; i < words; i++) {
		base[wr / sizeof(u64)] = rec[i];
		wr += sizeof(u64);
		if (wr == size)
			wr = 0;
	}
	ring->wr = (u8 *)base + wr;
	barrier();	/* the record is complete before the consumer can see it */
	WRITE_ONCE(ring->head, head + bytes);

	return true;
}

/**
 * perfrec_ring_tail() - Consumer: bytes consumed
 * @ring: the ring
 * Return: the tail, as perfrec_ring_consume() last left it
 */
static inline u64 perfrec_ring_tail(const struct perfrec_ring *ring)
{
	return ring->limit - ring->size;
}

/**
 * perfrec_ring_used() - Consumer: bytes produced and not yet consumed
 * @ring: the ring
 * Return: head - tail, as the producer has published it
 */
static inline u64 perfrec_ring_used(const struct perfrec_ring *ring)
{
	return READ_ONCE(ring->head) - perfrec_ring_tail(ring);
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
	WRITE_ONCE(ring->limit, tail + ring->size);
}

#endif /* __PERFREC_RING_H */
