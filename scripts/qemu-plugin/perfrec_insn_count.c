// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec_insn_count: a QEMU TCG plugin that counts how often each guest
 * instruction executes, the exact truth perfrec's profiles are judged by
 *
 * Under -icount shift=0 a cycle is an instruction, so a recording of
 * 'cycles' should give each function the share of samples that it has of
 * the instructions this plugin counts (scripts/perfrec_exact.py compares).
 *
 * Arguments (-plugin path/libperfrec_insn_count.so,out=FILE,...):
 *   out=FILE      where the counts go at exit (required)
 *   start=0xPC    count from the first execution of PC on (inclusive)
 *   stop=0xPC     until the first execution of PC after the start
 *                 (exclusive); up to PERFREC_MAX_STOPS of them
 *   irq=0xLO-0xHI an interrupt vector range: an instruction executed there
 *                 starts handler mode, which the next ERET ends; handler
 *                 instructions are counted apart (the 'irq' lines), since a
 *                 profiler's interrupt handler cannot sample itself; up to
 *                 PERFREC_MAX_IRQ ranges
 *
 * The output, written once at exit: '#' lines with the totals and the
 * window's state (waiting, counting, done), then one line per instruction
 * executed in the window, sorted by address: "<pc hex> <count>" and, for
 * handler-mode executions, "<pc hex> <count> irq".
 *
 * Counting is per instruction, by an execution callback placed before each
 * instruction, so it stays exact when a block is left early (an exception,
 * an interrupt under -icount). One vCPU only: the counts and the window
 * have no locking (-smp 1).
 *
 * No QEMU header is needed: the few parts of the plugin API used are
 * declared below. PLUGIN_API_VERSION is the API version the plugin
 * announces and whose ABI it uses: 1 for QEMU 7.2 (its only one). Later QEMU
 * take from QEMU_PLUGIN_MIN_VERSION (2 in QEMU 9 on) to their
 * QEMU_PLUGIN_VERSION (qemu-plugin.h); two changes touch
 * what is declared here: from 3 on qemu_plugin_insn_data() copies the bytes
 * into a buffer, from 7 on an atexit callback gets no plugin id.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PLUGIN_API_VERSION
#define PLUGIN_API_VERSION	1
#endif

/* The plugin API (include/qemu/qemu-plugin.h, include/plugins/ in later QEMU) */
#define PERFREC_EXPORT	__attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;	/* read nowhere: opaque is enough */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

#if PLUGIN_API_VERSION >= 7
typedef void (*qemu_plugin_udata_cb_t)(void *userdata);
#else
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
#endif
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
#if PLUGIN_API_VERSION >= 3
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn, void *dest, size_t len);
#else
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
#endif
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);
void qemu_plugin_outs(const char *string);

PERFREC_EXPORT extern int qemu_plugin_version;
PERFREC_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				       int argc, char **argv);

PERFREC_EXPORT int qemu_plugin_version = PLUGIN_API_VERSION;

/* The plugin */
#define PERFREC_MAX_STOPS	8
#define PERFREC_MAX_IRQ		16
#define PERFREC_CHUNK		4096	/* entries per allocation: they never move */

/* Flags of an instruction, fixed when it is translated */
#define PERFREC_F_START		1u
#define PERFREC_F_STOP		2u
#define PERFREC_F_IRQ		4u	/* inside an irq= range */
#define PERFREC_F_ERET		8u	/* ERET, ERETAA, ERETAB */

enum perfrec_state { PERFREC_WAITING, PERFREC_COUNTING, PERFREC_DONE };

static const char *const perfrec_state_names[] = { "waiting", "counting", "done" };

/* One guest instruction (by virtual address) and its counts */
struct perfrec_pc {
	uint64_t pc;
	uint64_t count;		/* executions in the window, outside the handler */
	uint64_t irq_count;	/* executions in the window, in the handler */
	unsigned int flags;
};

struct perfrec_range {
	uint64_t lo, hi;	/* [lo, hi) */
};

static struct {
	const char *out;
	bool have_start;
	uint64_t start;
	uint64_t stop[PERFREC_MAX_STOPS];
	unsigned int nr_stops;
	struct perfrec_range irq[PERFREC_MAX_IRQ];
	unsigned int nr_irq;

	enum perfrec_state state;
	bool in_irq;
	uint64_t total, irq_total;
	uint64_t stopped_at;

	/* Open addressing on pc, of pointers to entries allocated in chunks */
	struct perfrec_pc **slot;
	size_t nr_slots, used;
	struct perfrec_pc *chunk;
	size_t chunk_left;
} pc_count;

/* On stderr: QEMU's log (qemu_plugin_outs()) shows only with -d plugin */
static void perfrec_fail(const char *msg, const char *arg)
{
	fprintf(stderr, "perfrec_insn_count: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
}

static size_t perfrec_hash(uint64_t pc, size_t mask)
{
	return (size_t)((pc >> 2) * 0x9e3779b97f4a7c15ull >> 17) & mask;
}

static bool perfrec_grow(void)
{
	size_t n = pc_count.nr_slots ? pc_count.nr_slots * 2 : 1 << 16, i, j;
	struct perfrec_pc **slot = calloc(n, sizeof(*slot));

	if (!slot)
		return false;
	for (i = 0; i < pc_count.nr_slots; i++) {
		struct perfrec_pc *e = pc_count.slot[i];

		if (!e)
			continue;
		for (j = perfrec_hash(e->pc, n - 1); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = e;
	}
	free(pc_count.slot);
	pc_count.slot = slot;
	pc_count.nr_slots = n;

	return true;
}

/* The entry of @pc, made on its first translation (a retranslation finds it) */
static struct perfrec_pc *perfrec_lookup(uint64_t pc)
{
	struct perfrec_pc *e;
	size_t i, mask;

	if (pc_count.used * 2 >= pc_count.nr_slots && !perfrec_grow())
		return NULL;
	mask = pc_count.nr_slots - 1;
	for (i = perfrec_hash(pc, mask); pc_count.slot[i]; i = (i + 1) & mask) {
		if (pc_count.slot[i]->pc == pc)
			return pc_count.slot[i];
	}
	if (!pc_count.chunk_left) {
		pc_count.chunk = calloc(PERFREC_CHUNK, sizeof(*pc_count.chunk));
		if (!pc_count.chunk)
			return NULL;
		pc_count.chunk_left = PERFREC_CHUNK;
	}
	e = pc_count.chunk++;
	pc_count.chunk_left--;
	e->pc = pc;
	pc_count.slot[i] = e;
	pc_count.used++;

	return e;
}

/* The flags of the instruction at @pc whose bytes are @insn (0 if unknown) */
static unsigned int perfrec_flags(uint64_t pc, uint32_t insn)
{
	unsigned int flags = 0, i;

	if (pc_count.have_start && pc == pc_count.start)
		flags |= PERFREC_F_START;
	for (i = 0; i < pc_count.nr_stops; i++) {
		if (pc == pc_count.stop[i])
			flags |= PERFREC_F_STOP;
	}
	for (i = 0; i < pc_count.nr_irq; i++) {
		if (pc >= pc_count.irq[i].lo && pc < pc_count.irq[i].hi)
			flags |= PERFREC_F_IRQ;
	}
	/* ERET 0xd69f03e0; ERETAA 0xd69f0bff, ERETAB 0xd69f0fff */
	if (insn == 0xd69f03e0 || insn == 0xd69f0bff || insn == 0xd69f0fff)
		flags |= PERFREC_F_ERET;

	return flags;
}

/* An instruction is about to execute */
/* One execution of @e: the handler's, or the program's */
static inline void perfrec_count_one(struct perfrec_pc *e)
{
	if (pc_count.in_irq) {
		e->irq_count++;
		pc_count.irq_total++;
	} else {
		e->count++;
		pc_count.total++;
	}
}

static void perfrec_exec(unsigned int vcpu_index, void *userdata)
{
	struct perfrec_pc *e = userdata;
	unsigned int flags = e->flags;

	(void)vcpu_index;
	if (!flags) {
		if (pc_count.state == PERFREC_COUNTING)
			perfrec_count_one(e);
		return;
	}
	if (pc_count.state == PERFREC_WAITING && flags & PERFREC_F_START)
		pc_count.state = PERFREC_COUNTING;
	if (pc_count.state == PERFREC_COUNTING && flags & PERFREC_F_STOP) {
		pc_count.state = PERFREC_DONE;
		pc_count.stopped_at = e->pc;
	}
	if (flags & PERFREC_F_IRQ)
		pc_count.in_irq = true;
	if (pc_count.state == PERFREC_COUNTING)
		perfrec_count_one(e);
	if (flags & PERFREC_F_ERET)
		pc_count.in_irq = false;
}

static uint32_t perfrec_insn_word(const struct qemu_plugin_insn *insn)
{
	uint32_t word = 0;

	if (qemu_plugin_insn_size(insn) != sizeof(word))
		return 0;
#if PLUGIN_API_VERSION >= 3
	qemu_plugin_insn_data(insn, &word, sizeof(word));
#else
	memcpy(&word, qemu_plugin_insn_data(insn), sizeof(word));
#endif
	return word;	/* the guest and this host are little-endian */
}

static void perfrec_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		struct perfrec_pc *e = perfrec_lookup(pc);

		if (!e) {
			perfrec_fail("out of memory", NULL);
			abort();
		}
		e->flags = perfrec_flags(pc, perfrec_insn_word(insn));
		qemu_plugin_register_vcpu_insn_exec_cb(insn, perfrec_exec, QEMU_PLUGIN_CB_NO_REGS,
						       e);
	}
}

static int perfrec_cmp(const void *a, const void *b)
{
	const struct perfrec_pc *x = *(const struct perfrec_pc *const *)a;
	const struct perfrec_pc *y = *(const struct perfrec_pc *const *)b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

#if PLUGIN_API_VERSION >= 7
static void perfrec_atexit(void *userdata)
#else
static void perfrec_atexit(qemu_plugin_id_t id, void *userdata)
#endif
{
	struct perfrec_pc **list = malloc((pc_count.used + 1) * sizeof(*list));
	size_t i, n = 0;
	char line[256];
	FILE *f;

#if PLUGIN_API_VERSION < 7
	(void)id;
#endif
	(void)userdata;
	f = fopen(pc_count.out, "w");
	if (!f || !list) {
		perfrec_fail("cannot write", pc_count.out);
		if (f)
			fclose(f);
		free(list);
		return;
	}
	for (i = 0; i < pc_count.nr_slots; i++) {
		if (pc_count.slot[i] && (pc_count.slot[i]->count || pc_count.slot[i]->irq_count))
			list[n++] = pc_count.slot[i];
	}
	qsort(list, n, sizeof(*list), perfrec_cmp);
	fprintf(f, "# perfrec_insn_count 1\n");
	fprintf(f, "# state %s\n", perfrec_state_names[pc_count.state]);
	if (pc_count.have_start)
		fprintf(f, "# start 0x%" PRIx64 "\n", pc_count.start);
	for (i = 0; i < pc_count.nr_stops; i++)
		fprintf(f, "# stop 0x%" PRIx64 "\n", pc_count.stop[i]);
	if (pc_count.state == PERFREC_DONE)
		fprintf(f, "# stopped_at 0x%" PRIx64 "\n", pc_count.stopped_at);
	for (i = 0; i < pc_count.nr_irq; i++)
		fprintf(f, "# irq 0x%" PRIx64 "-0x%" PRIx64 "\n", pc_count.irq[i].lo,
			pc_count.irq[i].hi);
	fprintf(f, "# total %" PRIu64 "\n", pc_count.total);
	fprintf(f, "# irq_total %" PRIu64 "\n", pc_count.irq_total);
	fprintf(f, "# pcs %zu\n", pc_count.used);
	for (i = 0; i < n; i++) {
		if (list[i]->count)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", list[i]->pc, list[i]->count);
		if (list[i]->irq_count)
			fprintf(f, "%" PRIx64 " %" PRIu64 " irq\n", list[i]->pc,
				list[i]->irq_count);
	}
	if (fclose(f))
		perfrec_fail("cannot write", pc_count.out);
	free(list);
	snprintf(line, sizeof(line), "perfrec_insn_count: %" PRIu64 " instructions, %" PRIu64
		 " in handlers, window %s, in %s\n", pc_count.total, pc_count.irq_total,
		 perfrec_state_names[pc_count.state], pc_count.out);
	qemu_plugin_outs(line);	/* with -d plugin */
}

/* A number in C syntax (0x... hex, else decimal), all of @s */
static bool perfrec_parse_u64(const char *s, uint64_t *val)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	*val = strtoull(s, &end, 0);

	return !*end;
}

static bool perfrec_parse_range(const char *s, struct perfrec_range *r)
{
	char buf[64], *dash;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (!dash)
		return false;
	*dash = '\0';

	return perfrec_parse_u64(buf, &r->lo) && perfrec_parse_u64(dash + 1, &r->hi) &&
	       r->lo < r->hi;
}

static bool perfrec_parse_arg(const char *arg)
{
	const char *val = strchr(arg, '=');
	size_t len = val ? (size_t)(val - arg) : 0;

	if (!val)
		return false;
	val++;
	if (len == 3 && !strncmp(arg, "out", len)) {
		pc_count.out = val;
		return *val;
	}
	if (len == 5 && !strncmp(arg, "start", len)) {
		pc_count.have_start = true;
		return perfrec_parse_u64(val, &pc_count.start);
	}
	if (len == 4 && !strncmp(arg, "stop", len)) {
		if (pc_count.nr_stops == PERFREC_MAX_STOPS)
			return false;
		return perfrec_parse_u64(val, &pc_count.stop[pc_count.nr_stops++]);
	}
	if (len == 3 && !strncmp(arg, "irq", len)) {
		if (pc_count.nr_irq == PERFREC_MAX_IRQ)
			return false;
		return perfrec_parse_range(val, &pc_count.irq[pc_count.nr_irq++]);
	}

	return false;
}

PERFREC_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				       int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!perfrec_parse_arg(argv[i])) {
			perfrec_fail("bad argument (out=FILE, start=0xPC, stop=0xPC, irq=0xLO-0xHI)",
				     argv[i]);
			return -1;
		}
	}
	if (!pc_count.out) {
		perfrec_fail("out=FILE is required", NULL);
		return -1;
	}
	pc_count.state = pc_count.have_start ? PERFREC_WAITING : PERFREC_COUNTING;
	qemu_plugin_register_vcpu_tb_trans_cb(id, perfrec_tb_trans);
	qemu_plugin_register_atexit_cb(id, perfrec_atexit, NULL);

	return 0;
}
