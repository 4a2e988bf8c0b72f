// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Host driver for perfrec's call-graph walker: one walk over synthetic code and stack
 *
 * Usage: perfrec_unwind_run [-o] [-m <max>] [-T <top>] -t <insns> -s <words> <pc> <fp> <lr> <sp>
 *   -o           the return addresses as offsets in the code (a boot
 *                recording's), printed as the addresses they are offsets of
 *   -t <insns>   the code: 32-bit instruction words in hex, comma-separated
 *   -s <words>   the stack: 64-bit words, comma-separated (an even number);
 *                built with -DPERFREC_UNWIND_A32 (the 32-bit Arm walker),
 *                32-bit words, and code and stack below 4 GiB
 *   -m <max>     room in the chain, default 66
 *   -T <top>     the stack's top the walker is given, default the stack's end
 * Code and stack are separate heap blocks (ASan guards their edges; for the
 * 32-bit walker, blocks below 4 GiB each ending at an inaccessible page); the
 * walker may read the code and, from <sp> up, the stack. A value is a hex
 * number or an address in them: t<i> is instruction i, s<i> stack word i,
 * either with an optional +<n> or -<n> (bytes). The chain is printed one
 * entry a line, in the same notation (t<i>, s<i>, else hex).
 * Exits 0 on success, 1 on bad usage.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "perfrec_unwind.h"

#ifdef PERFREC_UNWIND_A32
typedef __u32 stack_word;
#define STACK_PAIRS	0
#else
typedef __u64 stack_word;
#define STACK_PAIRS	1
#endif

static __u32 *text;
static size_t text_words;
static stack_word *stack;
static size_t stack_words;

#ifdef PERFREC_UNWIND_A32
/*
 * @bytes below 4 GiB (32-bit addresses, as the walker reads them from the
 * stack), ending at an inaccessible page: a read past the end faults
 */
static void *alloc_block(size_t bytes)
{
	size_t page = sysconf(_SC_PAGESIZE), len = (bytes + page - 1) / page * page;
	char *base;

	base = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (base == MAP_FAILED || mprotect(base + len, page, PROT_NONE))
		return NULL;

	return base + len - bytes;
}
#define alloc_text(bytes)	alloc_block(bytes)
#define alloc_stack(bytes)	alloc_block(bytes)
#else
/* Exactly @bytes: ASan guards both ends */
#define alloc_text(bytes)	malloc(bytes)
#define alloc_stack(bytes)	aligned_alloc(16, bytes)
#endif

static void usage(void)
{
	fprintf(stderr, "Usage: perfrec_unwind_run [-o] [-m max] [-T top] -t <insn,...> "
		"-s <word,...> <pc> <fp> <lr> <sp>\n");
	exit(EXIT_FAILURE);
}

/* Parse a value: hex, or t<i>/s<i> with an optional byte offset */
static __u64 parse_value(const char *arg)
{
	unsigned long long val;
	__u64 base = 0;
	char *end;

	if (arg[0] == 't' || arg[0] == 's') {
		val = strtoull(arg + 1, &end, 10);
		if (end == arg + 1)
			usage();
		if (arg[0] == 't')
			base = (__u64)(unsigned long)text + val * sizeof(*text);
		else
			base = (__u64)(unsigned long)stack + val * sizeof(*stack);
		arg = end;
		if (!*arg)
			return base;
		if (*arg != '+' && *arg != '-')
			usage();
	}
	errno = 0;
	val = strtoull(arg, &end, base ? 10 : 16);
	if (*end || end == arg || errno)
		usage();

	return base + val;
}

/* Split the comma-separated @list; return the number of items, @items set to them */
static size_t split(char *list, char ***itemsp)
{
	size_t n = 1, i = 0;
	char **items, *p;

	for (p = list; *p; p++)
		n += *p == ',';
	items = calloc(n, sizeof(*items));
	if (!items)
		exit(EXIT_FAILURE);
	for (p = strtok(list, ","); p; p = strtok(NULL, ","))
		items[i++] = p;
	if (i != n)
		usage();
	*itemsp = items;

	return n;
}

static void print_value(__u64 val)
{
	__u64 t = (__u64)(unsigned long)text, s = (__u64)(unsigned long)stack;

	if (val >= t && val < t + text_words * sizeof(*text) && !((val - t) % sizeof(*text)))
		printf("t%llu\n", (unsigned long long)(val - t) / sizeof(*text));
	else if (val >= s && val < s + stack_words * sizeof(*stack) &&
		 !((val - s) % sizeof(*stack)))
		printf("s%llu\n", (unsigned long long)(val - s) / sizeof(*stack));
	else
		printf("%#llx\n", (unsigned long long)val);
}

int main(int argc, char *argv[])
{
	char **text_args = NULL, **stack_args = NULL, *top = NULL;
	struct perfrec_unwind_area area = { 0 };
	unsigned int max = 66, n, i;
	__u64 *chain;
	int opt;

	while ((opt = getopt(argc, argv, "om:T:t:s:")) != -1) {
		switch (opt) {
		case 'o':
			area.offsets = true;
			break;
		case 'm':
			max = strtoul(optarg, NULL, 0);
			break;
		case 'T':
			top = optarg;
			break;
		case 't':
			text_words = split(optarg, &text_args);
			break;
		case 's':
			stack_words = split(optarg, &stack_args);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 4 || !text_args || !stack_args || (STACK_PAIRS && stack_words % 2) ||
	    max < 2)
		usage();
	text = alloc_text(text_words * sizeof(*text));
	stack = alloc_stack(stack_words * sizeof(*stack));
	chain = malloc(max * sizeof(*chain));
	if (!text || !stack || !chain)
		return EXIT_FAILURE;
	/* Addresses first, so that words may point anywhere in code and stack */
	for (i = 0; i < text_words; i++)
		text[i] = strtoul(text_args[i], NULL, 16);
	for (i = 0; i < stack_words; i++)
		stack[i] = parse_value(stack_args[i]);

	area.text_start = (__u64)(unsigned long)text;
	area.text_end = area.text_start + text_words * sizeof(*text);
	area.stack_low = parse_value(argv[optind + 3]);
	area.stack_top = top ? parse_value(top) :
		(__u64)(unsigned long)stack + stack_words * sizeof(*stack);
	n = perfrec_unwind(&area, parse_value(argv[optind]), parse_value(argv[optind + 1]),
			   parse_value(argv[optind + 2]), chain, max);
	if (n < 1 || n > max) {
		fprintf(stderr, "perfrec_unwind_run: %u entries, room for %u\n", n, max);
		return EXIT_FAILURE;
	}
	for (i = 0; i < n; i++)
		print_value(chain[i] + (area.offsets && i ? area.text_start : 0));
	free(chain);
#ifndef PERFREC_UNWIND_A32
	free(stack);
	free(text);
#endif
	free(stack_args);
	free(text_args);

	return 0;
}
