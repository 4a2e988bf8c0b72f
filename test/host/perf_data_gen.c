// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * Host driver for the perf.data writer: writes a file from command-line facts
 *
 * Usage: perf_data_gen [options] <out> <sample>...
 *   -m <mode>     file (default) or pipe: a pipe-mode stream, as perfrec streams
 *   -t            pipe mode: omit the tail (LOST_SAMPLES, SAMPLE_TIME), as in a
 *                 stream cut off when the board dies
 *   -b <hex>      image start (run-time base), default 0x7fef7000
 *   -l <hex>      image length, default 0x100000
 *   -p <hex>      image pgoff (ELF PT_LOAD p_offset), default 0x10000
 *   -n <name>     image file name of the MMAP record, default /u-boot
 *   -B <hex>      the image's build-id, e.g. the 40 hex digits of a sha1 one
 *                 ("readelf -n u-boot"); up to 32 bytes are passed on, so that
 *                 the writer's refusal of more than 20 (or of "") can be seen
 *   -c <bytes>    buffer capacity, default 1 MiB
 *   -e <name>     add an event (cycles, instructions or rNNNN); default cycles
 *   -P <n>        sample period, default 10000
 *   -L <n>        lost samples to report
 * A <sample> is <ip-hex>[:<count>[:<event index>]]: count samples at that ip.
 * Samples that do not fit the buffer are counted as lost, in both modes: in
 * pipe mode the head, the sample records and room for the tail share it.
 * Exits 0 on success, 2 on -ENOSPC (buffer too small), 1 on other errors.
 */

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf_data.h>

static void usage(void)
{
	fprintf(stderr, "Usage: perf_data_gen [-m file|pipe] [-t] [-b base] [-l len] [-p pgoff] "
		"[-n name] [-B build-id] [-c cap] [-e event]... [-P period] [-L lost] "
		"<out> <ip[:count[:event]]>...\n");
	exit(EXIT_FAILURE);
}

static void parse_event(struct perf_data_event *ev, const char *name, unsigned int idx)
{
	memset(ev, 0, sizeof(*ev));
	ev->name = name;
	ev->id = idx + 1;
	if (!strcmp(name, "cycles")) {
		ev->type = PERF_DATA_TYPE_HARDWARE;
		ev->config = PERF_DATA_COUNT_HW_CPU_CYCLES;
	} else if (!strcmp(name, "instructions")) {
		ev->type = PERF_DATA_TYPE_HARDWARE;
		ev->config = PERF_DATA_COUNT_HW_INSTRUCTIONS;
	} else if (name[0] == 'r') {
		ev->type = PERF_DATA_TYPE_RAW;
		ev->config = strtoull(name + 1, NULL, 16);
	} else {
		fprintf(stderr, "perf_data_gen: unknown event %s\n", name);
		exit(EXIT_FAILURE);
	}
}

/* Parse the hex string @hex into @buf (@max bytes); return its length in bytes */
static unsigned int parse_build_id(unsigned char *buf, size_t max, const char *hex)
{
	size_t len = strlen(hex), i;
	char byte[3] = { 0 };

	if (len % 2 || len / 2 > max)
		usage();
	for (i = 0; i < len / 2; i++) {
		memcpy(byte, hex + 2 * i, 2);
		if (!isxdigit((unsigned char)byte[0]) || !isxdigit((unsigned char)byte[1]))
			usage();
		buf[i] = strtoul(byte, NULL, 16);
	}

	return len / 2;
}

int main(int argc, char *argv[])
{
	struct perf_data_event events[PERF_DATA_MAX_EVENTS];
	struct perf_data_info info = {
		.events = events, .pid = 1, .tid = 1, .comm = "u-boot",
		.start_time = 1000, .image_start = 0x7fef7000, .image_len = 0x100000,
		.image_pgoff = 0x10000, .image_name = "/u-boot", .hostname = "perf_data_gen",
		.osrelease = "2023.01", .version = "perfrec host test", .arch = "aarch64",
		.cpuid = "0x00000000411fd070", .nr_cpus_avail = 1, .nr_cpus_online = 1,
		.total_mem_kb = 1 << 20,
	};
	struct perf_data_stats stats = { 0 };
	struct perf_data_layout lay;
	struct perf_data_writer w;
	unsigned char build_id[32];
	unsigned long long period = 10000, time = 2000;
	size_t cap = 1 << 20, size;
	unsigned char *buf;
	bool written = false, pipe = false, no_tail = false;
	FILE *out;
	int opt, ret, i;

	while ((opt = getopt(argc, argv, "m:tb:l:p:n:B:c:e:P:L:")) != -1) {
		switch (opt) {
		case 'm':
			if (!strcmp(optarg, "pipe"))
				pipe = true;
			else if (strcmp(optarg, "file"))
				usage();
			break;
		case 't':
			no_tail = true;
			break;
		case 'b':
			info.image_start = strtoull(optarg, NULL, 16);
			break;
		case 'l':
			info.image_len = strtoull(optarg, NULL, 16);
			break;
		case 'p':
			info.image_pgoff = strtoull(optarg, NULL, 16);
			break;
		case 'n':
			info.image_name = optarg;
			break;
		case 'B':
			info.build_id_len = parse_build_id(build_id, sizeof(build_id), optarg);
			info.build_id = build_id;
			break;
		case 'c':
			cap = strtoull(optarg, NULL, 0);
			break;
		case 'e':
			if (info.nr_events == PERF_DATA_MAX_EVENTS)
				usage();
			parse_event(&events[info.nr_events], optarg, info.nr_events);
			info.nr_events++;
			break;
		case 'P':
			period = strtoull(optarg, NULL, 0);
			break;
		case 'L':
			stats.lost = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 1 || (no_tail && !pipe))
		usage();
	if (!info.nr_events) {
		parse_event(&events[0], "cycles", 0);
		info.nr_events = 1;
	}
	for (i = 0; i < (int)info.nr_events; i++)
		events[i].period = period;
	info.argv = (const char *const *)argv;
	info.argc = argc;

	buf = malloc(cap);
	if (!buf)
		return EXIT_FAILURE;
	if (pipe)
		ret = perf_data_pipe_begin(&w, buf, cap, &info, &lay);
	else
		ret = perf_data_begin(&w, buf, cap, &info, &lay);
	if (ret) {
		fprintf(stderr, "perf_data_gen: %s failed (err=%d)\n",
			pipe ? "pipe head" : "begin", ret);
		free(buf);
		return ret == -ENOSPC ? 2 : EXIT_FAILURE;
	}

	for (i = optind + 1; i < argc; i++) {
		unsigned long long ip, count = 1, evt = 0, n;
		char *end;

		ip = strtoull(argv[i], &end, 16);
		if (*end == ':')
			count = strtoull(end + 1, &end, 10);
		if (*end == ':')
			evt = strtoull(end + 1, &end, 10);
		if (*end || evt >= info.nr_events)
			usage();
		for (n = 0; n < count; n++) {
			struct perf_data_sample s = {
				.header.type = PERF_DATA_RECORD_SAMPLE,
				.header.misc = PERF_DATA_MISC_USER,
				.header.size = sizeof(s),
				.id = events[evt].id, .ip = ip, .pid = 1, .tid = 1,
				.time = time, .period = period,
			};

			if (stats.records_bytes + sizeof(s) > lay.ring_bytes) {
				stats.lost++;
				continue;
			}
			memcpy(buf + lay.ring_offset + stats.records_bytes, &s, sizeof(s));
			stats.records_bytes += sizeof(s);
			if (!stats.first_time)
				stats.first_time = time;
			stats.last_time = time;
			time += 1000;
		}
	}

	if (pipe) {
		/* The records follow the head as they are; the tail follows them */
		w.pos = lay.ring_offset + stats.records_bytes;
		ret = no_tail ? 0 : perf_data_pipe_tail(&w, &info, &stats);
		size = w.pos;
	} else {
		ret = perf_data_finish(&w, &info, &lay, &stats, &size);
	}
	if (ret) {
		fprintf(stderr, "perf_data_gen: finish failed (err=%d)\n", ret);
		free(buf);
		return EXIT_FAILURE;
	}
	out = fopen(argv[optind], "wb");
	if (out) {
		written = fwrite(buf, 1, size, out) == size;
		if (fclose(out))
			written = false;
	}
	if (!out || !written) {
		perror(argv[optind]);
		free(buf);
		return EXIT_FAILURE;
	}
	printf("wrote %zu bytes, %llu bytes of samples, %llu lost\n", size,
	       (unsigned long long)stats.records_bytes, (unsigned long long)stats.lost);
	free(buf);

	return 0;
}
