// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec's report engine: names the samples of a recording and prints the
 * hottest functions and call paths, as perf report --no-children does
 *
 * It reads its samples, event names and symbol table through a struct
 * perfrec_report_src and needs no PMU: perfrec_report() feeds it the last
 * recording, the unit tests (test/lib/perfrec.c) synthetic samples.
 */

#include <errno.h>
#include <malloc.h>
#include <perfrec.h>
#include <perfrec_report.h>
#include <sort.h>
#include <stdio.h>
#include <vsprintf.h>
#include <linux/kernel.h>
#include <linux/string.h>

/*
 * The symbol table is laid out as the one U-Boot embeds with CONFIG_KALLSYMS
 * (system_map): "<hex digits of link address><name>\0" entries sorted by
 * address, then an empty string. The address has nm's width: 16 digits on
 * AArch64, 8 on 32-bit Arm.
 * Addresses are taken in sorted order and merged with the table in one pass.
 */

#define PERFREC_MAP_ADDR_DIGITS	(2 * sizeof(ulong))
#define PERFREC_REPORT_NO_NAME	ULONG_MAX

/* One address to name: a sample's PC (depth 0) or one of its callers */
struct perfrec_report_ip {
	ulong addr;
	u32 sample;
	u16 depth;
};

struct perfrec_report {
	const struct perfrec_report_src *src;
	uint nr_samples;
	uint nr_ips;
	uint max_samples;
	uint max_ips;
	uint depth;
	struct perfrec_report_ip *ips;
	u64 *period;
	u16 *event;
	const char **names;	/* [sample * depth + d]: caller d's name, or NULL */
};

static int perfrec_report_count(void *ctx, const struct perfrec_sample_view *v)
{
	struct perfrec_report *r = ctx;

	r->max_samples++;
	r->max_ips += 1 + min_t(uint, v->chain_len, r->depth - 1);

	return 0;
}

static int perfrec_report_collect(void *ctx, const struct perfrec_sample_view *v)
{
	struct perfrec_report *r = ctx;
	uint i, n = 1 + min_t(uint, v->chain_len, r->depth - 1);

	for (i = 0; i < n; i++) {
		struct perfrec_report_ip *ip = &r->ips[r->nr_ips++];
		/* Return addresses point after their call: name the call */
		ulong addr = i ? v->chain[i - 1] - 4 : v->ip;

		/* Only U-Boot itself has names (as in perf, from its mmap) */
		if (addr - r->src->run_start < r->src->run_len)
			ip->addr = addr - r->src->reloc_off;
		else
			ip->addr = PERFREC_REPORT_NO_NAME;
		ip->sample = r->nr_samples;
		ip->depth = i;
	}
	r->period[r->nr_samples] = v->period;
	r->event[r->nr_samples] = v->event;
	r->nr_samples++;

	return 0;
}

static int perfrec_report_cmp_ip(const void *a, const void *b)
{
	const struct perfrec_report_ip *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Leading underscores of a symbol name */
static uint perfrec_report_underscores(const char *name)
{
	uint n = 0;

	while (name[n] == '_')
		n++;

	return n;
}

/*
 * Of two names for one address, the one perf shows (its choose_best_symbol()
 * among symbols of the same binding): fewer leading underscores, else the
 * longer name
 */
static bool perfrec_report_better(const char *name, const char *other)
{
	uint a = perfrec_report_underscores(name), b = perfrec_report_underscores(other);

	if (a != b)
		return a < b;

	return strlen(name) > strlen(other);
}

/* Name every collected address with one pass over the sorted symbol table */
static void perfrec_report_name(struct perfrec_report *r)
{
	const char *entry = r->src->symbols, *name = NULL;
	ulong name_addr = 0;
	uint i;

	qsort(r->ips, r->nr_ips, sizeof(*r->ips), perfrec_report_cmp_ip);
	for (i = 0; i < r->nr_ips; i++) {
		struct perfrec_report_ip *ip = &r->ips[i];

		if (ip->addr == PERFREC_REPORT_NO_NAME)
			break;	/* sorted last: these stay NULL */
		while (*entry) {
			char digits[PERFREC_MAP_ADDR_DIGITS + 1];
			const char *this = entry + PERFREC_MAP_ADDR_DIGITS;
			ulong addr;

			memcpy(digits, entry, PERFREC_MAP_ADDR_DIGITS);
			digits[PERFREC_MAP_ADDR_DIGITS] = '\0';
			addr = hextoul(digits, NULL);
			if (addr > ip->addr)
				break;
			/* Aliases (one function, several names): as perf chooses */
			if (!name || addr != name_addr || perfrec_report_better(this, name))
				name = this;
			name_addr = addr;
			entry = this + strlen(this) + 1;
		}
		r->names[ip->sample * r->depth + ip->depth] = name;
	}
}

/* Print the @top functions of event @ev by their share of its events */
static void perfrec_report_event(struct perfrec_report *r, const char *evname, uint ev, uint top)
{
	const char **seen = malloc(r->nr_samples * sizeof(*seen));
	u64 *sum = malloc(r->nr_samples * sizeof(*sum));
	uint *hits = malloc(r->nr_samples * sizeof(*hits));
	uint i, j, nr = 0, samples = 0;
	u64 total = 0;

	if (!seen || !sum || !hits)
		goto out;
	for (i = 0; i < r->nr_samples; i++) {
		const char *name = r->names[i * r->depth];

		if (r->event[i] != ev)
			continue;
		for (j = 0; j < nr && seen[j] != name; j++)
			;
		if (j == nr) {
			seen[nr] = name;
			sum[nr] = 0;
			hits[nr++] = 0;
		}
		sum[j] += r->period[i];
		hits[j]++;
		total += r->period[i];
		samples++;
	}
	printf("perfrec report: %u samples of %s, %llu events\n", samples, evname, total);
	printf("  Overhead  Samples  Symbol\n");
	for (; top && total; top--) {
		uint best = nr;

		for (j = 0; j < nr; j++) {
			if (hits[j] && (best == nr || sum[j] > sum[best]))
				best = j;
		}
		if (best == nr)
			break;
		printf("  %5llu.%02llu%% %8u  %s\n", sum[best] * 100 / total,
		       sum[best] * 10000 / total % 100, hits[best],
		       seen[best] ? seen[best] : "[unknown]");
		hits[best] = 0;
	}
out:
	free(seen);
	free(sum);
	free(hits);
}

static int perfrec_report_cmp_path(struct perfrec_report *r, uint a, uint b)
{
	uint d;

	for (d = 0; d < r->depth; d++) {
		const char *x = r->names[a * r->depth + d], *y = r->names[b * r->depth + d];

		if (x != y)
			return x < y ? -1 : 1;
	}

	return 0;
}

/* Print the @top call paths (callee first), by samples */
static void perfrec_report_paths(struct perfrec_report *r, uint top)
{
	uint *best = malloc(top * sizeof(*best));
	uint *count = malloc(top * sizeof(*count));
	uint i, j, k, d, nr = 0;

	if (!best || !count)
		goto out;
	/* Few distinct paths: count each against the ones seen before */
	for (i = 0; i < r->nr_samples; i++) {
		uint n = 0;

		for (j = 0; j < i && perfrec_report_cmp_path(r, i, j); j++)
			;
		if (j < i)
			continue;	/* counted with its first sample */
		for (k = i; k < r->nr_samples; k++)
			n += !perfrec_report_cmp_path(r, i, k);
		for (k = nr; k > 0 && count[k - 1] < n; k--) {
			if (k < top) {
				best[k] = best[k - 1];
				count[k] = count[k - 1];
			}
		}
		if (k < top) {
			best[k] = i;
			count[k] = n;
			nr = min(nr + 1, top);
		}
	}
	printf("  Call paths (callee first)\n");
	for (i = 0; i < nr; i++) {
		printf("  %5u.%02u%% ", count[i] * 100 / r->nr_samples,
		       count[i] * 10000 / r->nr_samples % 100);
		for (d = 0; d < r->depth; d++) {
			const char *name = r->names[best[i] * r->depth + d];

			if (!name && d)
				break;
			printf("%s%s", d ? " <- " : "", name ? name : "[unknown]");
		}
		printf("\n");
	}
out:
	free(best);
	free(count);
}

int perfrec_report_print(const struct perfrec_report_src *src, uint top)
{
	struct perfrec_report r = { .src = src, .depth = PERFREC_REPORT_DEPTH };
	int ret = 0;
	uint ev;

	src->walk(perfrec_report_count, &r);
	if (!r.max_samples) {
		printf("perfrec report: no samples\n");
		return 0;
	}
	/* Without call chains, each sample has just its PC to name */
	if (r.max_ips == r.max_samples)
		r.depth = 1;
	r.ips = malloc(r.max_ips * sizeof(*r.ips));
	r.period = malloc(r.max_samples * sizeof(*r.period));
	r.event = malloc(r.max_samples * sizeof(*r.event));
	r.names = calloc(r.max_samples * r.depth, sizeof(*r.names));
	if (!r.ips || !r.period || !r.event || !r.names) {
		ret = -ENOMEM;
		goto out;
	}
	src->walk(perfrec_report_collect, &r);
	perfrec_report_name(&r);
	for (ev = 0; ev < src->nr_events; ev++)
		perfrec_report_event(&r, src->event_names[ev], ev, top);
	if (r.nr_ips > r.nr_samples)
		perfrec_report_paths(&r, top);
out:
	free(r.ips);
	free(r.period);
	free(r.event);
	free(r.names);

	return ret;
}
