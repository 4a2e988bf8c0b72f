// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Host driver for the PMUv3 event table: dump it, or decode PMCEID bitmaps
 *
 * Usage: pmuv3_events_dump table
 *        pmuv3_events_dump implemented <pmceid0> <pmceid1> <pmuver> [...]
 *        pmuv3_events_dump aarch32 <pmceid0> <pmceid1> <pmceid2> <pmceid3> <pmuver> [...]
 *        pmuv3_events_dump name <name>
 *        pmuv3_events_dump fits <pmuver> <number> [...]
 * "table" prints "<number> <name>" per event; "implemented" prints the event
 * numbers (0x0000-0x003f, 0x4000-0x403f) the bitmaps say are implemented,
 * then "--", for each triple given (one run for many cases); "aarch32" the
 * same from AArch32's four 32-bit PMCEID registers, joined into AArch64's
 * two as 32-bit Arm's reader joins them, for each five given;
 * "name" prints the number of one event, or exits 1 if it is unknown;
 * "fits" prints, for each pair, the width of that PMU's event number field
 * in bits and 1 if the number fits it, else 0.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmuv3_events.h"

/* Print the events @pmceid0 and @pmceid1 (AArch64's) say are implemented, then "--" */
static void print_implemented(unsigned long long pmceid0, unsigned long long pmceid1,
			      unsigned int version)
{
	unsigned int i, n;

	for (i = 0; i < 2; i++) {
		for (n = 0; n <= 0x3f; n++) {
			unsigned int num = (i ? 0x4000 : 0) | n;

			if (pmuv3_event_implemented(pmceid0, pmceid1, version, num))
				printf("0x%04x\n", num);
		}
	}
	printf("--\n");
}

int main(int argc, char *argv[])
{
	struct pmuv3_event ev, by_name, by_number;
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "table")) {
		for (i = 0; pmuv3_event_at(i, &ev); i++) {
			if (!pmuv3_event_by_name(ev.name, &by_name) ||
			    !pmuv3_event_by_number(ev.number, &by_number) ||
			    by_name.name != ev.name || by_number.name != ev.name ||
			    by_name.number != ev.number || !*ev.desc) {
				fprintf(stderr, "lookup of %s disagrees\n", ev.name);
				return EXIT_FAILURE;
			}
			printf("0x%04x %s\n", ev.number, ev.name);
		}
		return 0;
	}
	if (argc >= 5 && argc % 3 == 2 && !strcmp(argv[1], "implemented")) {
		int arg;

		for (arg = 2; arg < argc; arg += 3) {
			unsigned long long p0 = strtoull(argv[arg], NULL, 0);
			unsigned long long p1 = strtoull(argv[arg + 1], NULL, 0);
			unsigned int ver = strtoul(argv[arg + 2], NULL, 0);

			print_implemented(p0, p1, ver);
		}
		/* Outside the described ranges nothing is ever "implemented" */
		return pmuv3_event_implemented(~0ULL, ~0ULL, 9, 0x40) ||
		       pmuv3_event_implemented(~0ULL, ~0ULL, 9, 0x4040);
	}
	if (argc >= 4 && argc % 2 == 0 && !strcmp(argv[1], "fits")) {
		int arg;

		for (arg = 2; arg < argc; arg += 2) {
			unsigned int ver = strtoul(argv[arg], NULL, 0);
			unsigned int num = strtoul(argv[arg + 1], NULL, 0);

			printf("%u %d\n", pmuv3_event_bits(ver), pmuv3_event_fits(ver, num));
		}
		return 0;
	}
	if (argc >= 7 && argc % 5 == 2 && !strcmp(argv[1], "aarch32")) {
		int arg;

		for (arg = 2; arg < argc; arg += 5) {
			unsigned int reg[4], ver = strtoul(argv[arg + 4], NULL, 0);

			for (i = 0; i < 4; i++)
				reg[i] = strtoul(argv[arg + i], NULL, 0);
			print_implemented(pmuv3_pmceid_aarch32(reg[0], reg[2], ver),
					  pmuv3_pmceid_aarch32(reg[1], reg[3], ver), ver);
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "name")) {
		if (!pmuv3_event_by_name(argv[2], &ev))
			return EXIT_FAILURE;
		printf("0x%04x\n", ev.number);
		return 0;
	}
	fprintf(stderr,
		"Usage: pmuv3_events_dump table | implemented p0 p1 ver | aarch32 p0 p1 p2 p3 ver |"
		" name n | fits ver n\n");

	return EXIT_FAILURE;
}
