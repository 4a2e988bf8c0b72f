/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 * perfrec: public API of the sampling profiler, for the command and tests
 */

#ifndef __PERFREC_H
#define __PERFREC_H

#include <perf_data.h>
#include <perfrec_snapshot.h>
#include <linux/types.h>

/* Highest sampling frequency perfrec accepts (-F), in Hz */
#define PERFREC_MAX_FREQ_HZ		100000
/* perf's default sampling frequency */
#define PERFREC_DEFAULT_FREQ_HZ		4000
/*
 * Shortest cpu-clock period, in ns: 10 us, the 100 kHz of -F's limit. Every
 * arming refuses a shorter one (-ERANGE), the boot recording's too
 */
#define PERFREC_MIN_CLOCK_NS		10000
/* The pid of every record, and the tid of all but a boot phase's: U-Boot is one process */
#define PERFREC_PID			1

/**
 * enum perfrec_state - Where the session is
 * @PERFREC_IDLE: nothing recorded since boot
 * @PERFREC_ARMED: sampling; the hardware is borrowed
 * @PERFREC_FINALISED: a complete perf.data is in the buffer
 */
enum perfrec_state {
	PERFREC_IDLE,
	PERFREC_ARMED,
	PERFREC_FINALISED,
};

/* Room for the command line a perf.data records (HEADER_CMDLINE) */
#define PERFREC_CMDLINE_BYTES		512
#define PERFREC_CMDLINE_WORDS		64

/* perf's name of the timer event, which needs no PMU interrupt */
#define PERFREC_CPU_CLOCK		"cpu-clock"

/* Longest event name, with any /terms/ stripped */
#define PERFREC_EVENT_NAME_LEN		32

/**
 * enum perfrec_mode - What a session does with its counters
 * @PERFREC_RECORD: sample on overflow into a perf.data
 * @PERFREC_STAT: count only; overflows extend the counts to 64 bits
 */
enum perfrec_mode {
	PERFREC_RECORD,
	PERFREC_STAT,
};

/**
 * struct perfrec_event_cfg - One event of a session
 * @name: the name the user gave ("cycles", "l1d_cache_refill", "r11")
 * @type: the perf.data attr's type, one of PERF_DATA_TYPE_HARDWARE,
 *	_SOFTWARE and _RAW
 * @config: event number within @type
 * @pmu_event: the PMUv3 event number to count (PMEVTYPER<n>_EL0.evtCount)
 * @cycle_counter: may use the dedicated cycle counter PMCCNTR_EL0
 * @timer: cpu-clock: sampled on the generic timer's interrupt, counted in
 *	nanoseconds; no PMU counter
 * @period: events (nanoseconds for @timer) per sample; 0 with @freq_hz
 *	(and in stat mode)
 * @freq_hz: frequency mode: wanted samples per second; 0 with @period
 */
struct perfrec_event_cfg {
	char name[PERFREC_EVENT_NAME_LEN];
	u32 type;
	u64 config;
	u32 pmu_event;
	bool cycle_counter;
	bool timer;
	u64 period;
	u32 freq_hz;
};

/**
 * enum perfrec_source - The interrupt that drives a session
 * @PERFREC_SRC_PMU: the PMU's overflow interrupt (PMU events)
 * @PERFREC_SRC_TIMER: the generic timer of U-Boot's EL: cpu-clock samples,
 *	or, counting, a periodic check that extends 32-bit counts to 64 bits
 * @PERFREC_SRC_NONE: counting only, with no interrupt: an event counter of
 *	32 bits that wraps twice loses 2^32
 */
enum perfrec_source {
	PERFREC_SRC_PMU,
	PERFREC_SRC_TIMER,
	PERFREC_SRC_NONE,
};

/**
 * enum perfrec_irq_fault - Why a session's interrupt cannot be used
 * @PERFREC_IRQ_OK: it can
 * @PERFREC_IRQ_NO_NODE: no enabled PMU (or timer) node in the device tree
 * @PERFREC_IRQ_NO_PROP: the node has no "interrupts" entry for it
 * @PERFREC_IRQ_NO_CPU: its SPIs (one per CPU) have none for this CPU
 * @PERFREC_IRQ_BAD_SPEC: the entry is not a PPI, or an SPI this GIC has
 * @PERFREC_IRQ_NO_GIC: the node's interrupt parent is not a GICv2/v3, or
 *	it has none (@parent and @compat say which)
 * @PERFREC_IRQ_BAD_GIC: the GIC's "reg" is incomplete, or it has no
 *	redistributor for this CPU
 * @PERFREC_IRQ_UNMAPPED: a GIC register block is not in U-Boot's MMU map
 *	and cannot be mapped for the session (@block, @start, @end, @err)
 * @PERFREC_IRQ_NO_ANSWER: a read from a GIC register block aborts: nothing
 *	answers at the address the device tree gives (@block, @start, @end)
 * @PERFREC_IRQ_SILENT: raised on purpose, it never showed as pending at
 *	the GIC: the device tree names the wrong interrupt, or it is not wired
 * @PERFREC_IRQ_STUCK: a GICv3 register kept a busy bit set while perfrec
 *	waited for a write to take effect (@block, @start, @bit): what answers
 *	there is not a working GIC
 */
enum perfrec_irq_fault {
	PERFREC_IRQ_OK,
	PERFREC_IRQ_NO_NODE,
	PERFREC_IRQ_NO_PROP,
	PERFREC_IRQ_NO_CPU,
	PERFREC_IRQ_BAD_SPEC,
	PERFREC_IRQ_NO_GIC,
	PERFREC_IRQ_BAD_GIC,
	PERFREC_IRQ_UNMAPPED,
	PERFREC_IRQ_NO_ANSWER,
	PERFREC_IRQ_SILENT,
	PERFREC_IRQ_STUCK,
};

/**
 * struct perfrec_irq_report - What the last perfrec_arm() found of its interrupt
 * @fault: whether and why it cannot be used
 * @source: the source it was about
 * @node: the device-tree node it came from (path), or ""
 * @intid: the INTID the node names (0 if none); the source number, for the
 *	BCM2836 local controller
 * @local: the interrupt parent is the BCM2836 local controller, not a GIC
 * @parent: the path of its interrupt parent, or ""
 * @compat: the parent's first compatible string, or ""
 * @block: the GIC register block at fault ("distributor", ...), or NULL
 * @start: its first address
 * @end: its last address
 * @err: why it cannot be mapped: -ERANGE outside the translated VA range,
 *	-EOPNOTSUPP a level-0 hole, a granule other than 4 KiB or no
 *	Device-nGnRnE attribute in MAIR, -ENOSPC more holes than perfrec keeps
 * @bit: the busy bit that stayed set ("GICD_CTLR.RWP"), or NULL
 */
struct perfrec_irq_report {
	enum perfrec_irq_fault fault;
	enum perfrec_source source;
	char node[64];
	uint intid;
	bool local;
	char parent[64];
	char compat[32];
	const char *block;
	u64 start;
	u64 end;
	int err;
	const char *bit;
};

/**
 * struct perfrec_cfg - What one session does
 * @mode: record or stat
 * @nr_events: events in @events
 * @events: the events; each gets its own counter
 * @callchain: record mode: samples carry their call chain (frame records)
 * @jitter_pct: record mode: vary each period randomly by up to this many
 *	percent either way (0: off)
 * @preload: stat mode: start each counter this many events before it wraps
 *	(0: from zero); exercises the 64-bit extension of the counts
 * @source: the interrupt that drives the session
 * @no_probe: arm without checking that the interrupt reaches the GIC
 * @buf: output buffer (already mapped); record mode only
 * @buf_addr: its bus address, as shown to the user
 * @buf_size: its size in bytes
 * @argc: words of the recording command, for the perf.data header
 * @argv: the words (copied by perfrec_arm(), up to PERFREC_CMDLINE_BYTES)
 */
struct perfrec_cfg {
	enum perfrec_mode mode;
	uint nr_events;
	struct perfrec_event_cfg events[PERF_DATA_MAX_EVENTS];
	bool callchain;
	uint jitter_pct;
	u64 preload;
	enum perfrec_source source;
	bool no_probe;
	void *buf;
	ulong buf_addr;
	ulong buf_size;
	int argc;
	const char *const *argv;
};

/**
 * struct perfrec_pmu_info - What this CPU's PMU offers, for 'perfrec list'
 * @version: ID_AA64DFR0_EL1.PMUVer (1: PMUv3, 4: v3p1, 5: v3p4, 6: v3p5, ...)
 * @nr_counters: event counters (PMCR_EL0.N), besides the cycle counter
 * @counter_bits: width of the event counters (32, or 64 from PMUv3p5)
 * @el: the exception level perfrec counts (U-Boot's)
 * @pmceid0: PMCEID0_EL0
 * @pmceid1: PMCEID1_EL0
 */
struct perfrec_pmu_info {
	uint version;
	uint nr_counters;
	uint counter_bits;
	uint el;
	u64 pmceid0;
	u64 pmceid1;
};

/**
 * struct perfrec_event_info - One event perfrec knows by name
 * @generic: one of perf's generic hardware events (cycles, ...)
 * @number: PMUv3 event number (behind a generic event: the one it counts)
 * @name: perf's name for it
 * @desc: what it counts
 * @implemented: this CPU counts it (PMCEID; cycles always)
 */
struct perfrec_event_info {
	bool generic;
	uint number;
	const char *name;
	const char *desc;
	bool implemented;
};

/**
 * struct perfrec_result - What the last (or current) recording produced
 * @state: session state
 * @mode: record or stat
 * @id: the recording's id (names its dumps)
 * @failed_event: the event the last failed perfrec_arm() was about, or -1
 * @addr: buffer address
 * @size: bytes of perf.data once finalised, else the buffer size
 * @streamed: samples were streamed out while recording: no file-mode perf.data
 * @ring_used: bytes of samples in the buffer not yet streamed out
 * @ring_size: bytes the buffer holds for samples
 * @samples: samples stored
 * @lost: samples dropped because the buffer was full
 * @spurious: interrupts that carried no overflow
 * @foreign: interrupts that were not the PMU's
 * @late: periods that passed without a sample because the interrupt came late
 * @nr_events: events recorded
 * @name: each event's name
 * @count: each event's total count over the session
 * @period: each event's last period
 * @counter: each event's PMU counter index (PERFREC_CYCLE_COUNTER: the
 *	cycle counter)
 * @event_late: each event's periods that passed without a sample
 * @elapsed_ns: time from arming to disarming
 * @restore_err: 0, or -EIO if a register differed after the restore
 * @mismatch: the first register that differed, e.g. "VBAR_EL2"
 * @before: its value before the recording
 * @after: its value after the restore
 * @source: the interrupt that drove the session
 * @irq: what the last perfrec_arm() found of its interrupt (also when it failed)
 */
struct perfrec_result {
	enum perfrec_state state;
	enum perfrec_mode mode;
	u32 id;
	int failed_event;
	ulong addr;
	ulong size;
	bool streamed;
	u64 ring_used;
	u64 ring_size;
	u64 samples;
	u64 lost;
	u64 spurious;
	u64 foreign;
	u64 late;
	uint nr_events;
	const char *name[PERF_DATA_MAX_EVENTS];
	u64 count[PERF_DATA_MAX_EVENTS];
	u64 period[PERF_DATA_MAX_EVENTS];
	uint counter[PERF_DATA_MAX_EVENTS];
	u64 event_late[PERF_DATA_MAX_EVENTS];
	u64 elapsed_ns;
	int restore_err;
	char mismatch[24];
	u64 before;
	u64 after;
	enum perfrec_source source;
	struct perfrec_irq_report irq;
};

/**
 * perfrec_event_lookup() - Resolve an event name for this CPU
 * @name: "cycles", "instructions", perf's other generic names, a common
 *	event's name ("l1d_cache_refill") or a raw number ("r11", hex)
 * @ev: returns name, type, config, PMU event number and whether the cycle
 *	counter may count it (period and frequency are left alone)
 * Return: 0 if found, -ENOENT for an unknown name or malformed raw number,
 * -EDOM if the number is wider than this PMU's event field (see
 * perfrec_event_bits()), -EOPNOTSUPP if PMCEID says this CPU does not
 * implement it, -ENODEV if there is no PMUv3
 */
int perfrec_event_lookup(const char *name, struct perfrec_event_cfg *ev);

/**
 * perfrec_event_bits() - Width of this PMU's event number field
 *
 * PMEVTYPER<n>_EL0.evtCount is 10 bits wide before PMUv3p1, 16 bits from it.
 *
 * Return: the width in bits, or 0 if there is no PMUv3
 */
uint perfrec_event_bits(void);

/**
 * perfrec_get_pmu_info() - Describe this CPU's PMU
 * @info: returns the figures
 * Return: 0, or -ENODEV if there is no PMUv3
 */
int perfrec_get_pmu_info(struct perfrec_pmu_info *info);

/**
 * perfrec_event_at() - Walk perf's generic events, then the PMUv3 common events
 * @idx: index from 0
 * @info: returns the event, and whether this CPU implements it
 * Return: 0, or -ENOENT past the end
 */
int perfrec_event_at(uint idx, struct perfrec_event_info *info);

/**
 * perfrec_arm() - Program the counters and start taking samples
 * @cfg: events, periods, buffer and command line; copied
 *
 * Writes the head of a perf.data into the buffer, snapshots every register it
 * will change, takes the PMU interrupt through the GIC and a temporary vector
 * table, and starts the counters.
 * Return: 0 when sampling, -EBUSY if a session is active, -EINVAL for a bad
 * @cfg, -E2BIG if there are more events than counters, -ERANGE if a period
 * does not fit its counter, -ENODEV if the CPU has no PMUv3, -ENOENT if the device tree has no PMU
 * node, -ENXIO if the PMU node has no usable interrupt, -EPROTONOSUPPORT if
 * its interrupt controller is not a GICv2/v3 or the interrupt is not a PPI,
 * -ENOSPC if the buffer cannot hold the header and one sample, -ENOEXEC if the
 * build did not record the image's ELF offset, -ETIMEDOUT if the GIC does not
 * respond. On error nothing is armed and nothing outside the buffer changed.
 */
int perfrec_arm(const struct perfrec_cfg *cfg);

/**
 * perfrec_disarm() - Stop sampling, restore the hardware, finalise the perf.data
 *
 * The exact reverse of perfrec_arm(), then a check of every register against
 * the snapshot taken before arming.
 * Return: 0 on success, -EALREADY if no session is armed, -EIO if a register
 * differs from its snapshot (the perf.data is still complete)
 */
int perfrec_disarm(void);

/**
 * struct perfrec_chunk - One part of a recording streamed as pipe-mode perf.data
 * @len: bytes in it (0: nothing new)
 * @seq: its number in the stream; chunk 0 starts with the pipe header
 * @last: it ends the stream
 */
struct perfrec_chunk {
	size_t len;
	uint seq;
	bool last;
};

/**
 * perfrec_stream_pending() - How many bytes the next stream chunk would hold
 * Return: the bytes perfrec_stream_read() would write with room enough
 */
size_t perfrec_stream_pending(void);

/**
 * perfrec_stream_read() - Take what is new in the recording as pipe-mode perf.data
 * @buf: where to put it
 * @size: room at @buf
 * @chunk: returns its length, number and whether it ends the stream
 *
 * The first chunk holds the pipe header, attrs, features, COMM and MMAP;
 * every chunk then holds the whole sample records not sent before (as many
 * as fit), and the chunk after the recording has ended holds the rest and
 * the LOST_SAMPLES and SAMPLE_TIME records. Concatenated in order, the
 * chunks are a pipe-mode perf.data that perf reads (also when it stops
 * early, at a chunk boundary). Records taken while recording free their
 * room in the buffer, so a recording can go on for as long as it is
 * streamed; it then leaves no file-mode perf.data in memory.
 * Return: 0 (@chunk->len 0 when there is nothing new), -ENODATA if there is
 * no recording or its stream has ended, -ENOSPC if @size cannot hold the
 * next record (or the first chunk's header)
 */
int perfrec_stream_read(void *buf, size_t size, struct perfrec_chunk *chunk);

/**
 * struct perfrec_sample_view - One sample of a finished recording, as stored
 * @event: index of its event in the recording
 * @ip: the sampled PC
 * @period: events it stands for
 * @chain: its call chain (return addresses, innermost first, after the PC), or NULL
 * @chain_len: entries in @chain
 */
struct perfrec_sample_view {
	uint event;
	u64 ip;
	u64 period;
	const u64 *chain;
	uint chain_len;
};

/**
 * struct perfrec_phase - One phase of a boot recording (CONFIG_PERFREC_BOOT)
 * @name: its name, the thread's (a bootstage mark, or "relocation"; the
 *	first, "u-boot", is the time before the board_init_f mark)
 * @tid: its thread id in the perf.data
 * @start_ns: when it started
 * @samples: samples taken in it
 */
struct perfrec_phase {
	char name[PERF_DATA_COMM_LEN];
	u32 tid;
	u64 start_ns;
	u64 samples;
};

/**
 * perfrec_get_phases() - The phases of the last recording, with their samples
 * @phases: returns them, in order
 * @max: room in @phases
 * Return: phases found (0 for a recording that has none: it is one thread),
 * or -ENODATA if no finished, unstreamed recording is there
 */
int perfrec_get_phases(struct perfrec_phase *phases, uint max);

/* Called for each sample by perfrec_walk_samples() */
typedef int (*perfrec_sample_fn)(void *ctx, const struct perfrec_sample_view *s);

/*
 * U-Boot's embedded symbol table (CONFIG_KALLSYMS, common/system_map.c),
 * weak: NULL in a build without it
 */
extern const char system_map[] __weak;

/* Most functions and call paths perfrec_report() shows */
#define PERFREC_REPORT_MAX_TOP	1000

/**
 * perfrec_report() - Print the hottest functions and call paths of the last recording
 *
 * Names the samples of the last finished recording with U-Boot's embedded
 * symbol table (CONFIG_PERFREC_REPORT, which selects KALLSYMS) and prints,
 * per event, the @top functions by their share of its events, as perf
 * report --no-children does; with call chains, the @top call paths too.
 *
 * @top: functions and call paths to show, 1 to PERFREC_REPORT_MAX_TOP
 * Return: 0 (also when there are no samples: it says so), -ENOSYS without
 * an embedded symbol table, -ENOENT if no finished, unstreamed recording is
 * there to report, -ENOMEM if the samples do not fit in the heap
 */
int perfrec_report(uint top);

/* Call-path entries perfrec_report_print() names per sample: the PC and 7 callers */
#define PERFREC_REPORT_DEPTH		8

/**
 * struct perfrec_report_src - The recording perfrec_report_print() reports on
 * @walk: calls its function for each sample, in order (as perfrec_walk_samples())
 * @nr_events: events of the recording
 * @event_names: their names, by the samples' event index
 * @symbols: the symbol table, laid out as system_map: entries of 16 hex digits
 *	(link address) and the name, each ended by '\0', sorted by address, then
 *	an empty string
 * @run_start: where the image runs (U-Boot: gd->relocaddr)
 * @run_len: its size in bytes (gd->mon_len); addresses outside it have no name
 * @reloc_off: run address minus link address (gd->reloc_off)
 */
struct perfrec_report_src {
	int (*walk)(perfrec_sample_fn fn, void *ctx);
	uint nr_events;
	const char *const *event_names;
	const char *symbols;
	ulong run_start;
	ulong run_len;
	ulong reloc_off;
};

/**
 * perfrec_report_print() - Print the hottest functions and call paths of samples
 *
 * The engine of perfrec_report(), for any source of samples: per event, the
 * @top functions by their share of its events (as perf report --no-children),
 * and with call chains the @top call paths by samples. Of several names of one
 * address it shows perf's choice: fewer leading underscores, else the longer.
 *
 * @src: the samples, event names, symbol table and image bounds
 * @top: functions and call paths to show, 1 to PERFREC_REPORT_MAX_TOP
 * Return: 0 (also when there are no samples: it says so), -ENOMEM if the
 * samples do not fit in the heap
 */
int perfrec_report_print(const struct perfrec_report_src *src, uint top);

/**
 * perfrec_walk_samples() - Walk the samples of the finished recording
 * @fn: called for each sample, in order; a non-zero return stops the walk
 * @ctx: passed to @fn
 * Return: 0 when all were walked, -ENODATA if there is no finished,
 * unstreamed recording, or what @fn returned
 */
int perfrec_walk_samples(perfrec_sample_fn fn, void *ctx);

/* The counter index of the cycle counter PMCCNTR_EL0 (PMU counters 0-30 are event counters) */
#define PERFREC_CYCLE_COUNTER		31

/* Most descriptors perfrec writes into U-Boot's page tables in one session */
#define PERFREC_MMU_MAX_CHANGES		32

/**
 * struct perfrec_mmu - The stage 1 translation tables of U-Boot's EL (4 KiB granule)
 * @root: the first table of the walk (TTBR0_ELx's base address)
 * @va_bits: virtual address bits translated (64 - TCR_ELx.T0SZ)
 * @device_attr: the MAIR_ELx index that holds Device-nGnRnE, or -1
 */
struct perfrec_mmu {
	u64 *root;
	uint va_bits;
	int device_attr;
};

/**
 * struct perfrec_mmu_borrow - Descriptors perfrec wrote, and what they held
 * @nr: descriptors in @change
 * @restored: perfrec_mmu_unmap() gave them back; @change still lists them,
 *	so that the caller can check them
 * @change: each descriptor's address and its value before perfrec wrote it
 */
struct perfrec_mmu_borrow {
	uint nr;
	bool restored;
	struct perfrec_mmu_change {
		u64 *desc;
		u64 old;
	} change[PERFREC_MMU_MAX_CHANGES];
};

/**
 * perfrec_mmu_lookup() - Find the descriptor that translates one address
 * @mmu: the tables
 * @va: the address
 * @descp: returns the last descriptor the walk read
 * @levelp: returns its level (0-3)
 * Return: 0 if @va is mapped (a block or page), -ENOENT if the walk ends in
 * an invalid descriptor (@descp points at it), -ERANGE if @va is outside the
 * translated range (no descriptor)
 */
int perfrec_mmu_lookup(const struct perfrec_mmu *mmu, u64 va, u64 **descp, uint *levelp);

/**
 * perfrec_mmu_check() - Is a range of addresses mapped throughout?
 * @mmu: the tables
 * @start: first address
 * @size: bytes
 * @holep: returns the first unmapped address, on -ENOENT and -ERANGE
 * Return: 0 if mapped, -ENOENT if there is a hole, -ERANGE if part of it is
 * outside the translated range, -EINVAL for an empty or wrapping range
 */
int perfrec_mmu_check(const struct perfrec_mmu *mmu, u64 start, u64 size, u64 *holep);

/**
 * perfrec_mmu_map() - Map the holes of a range as device memory
 * @mmu: the tables
 * @start: first address
 * @size: bytes
 * @borrow: the descriptors written, added to (for perfrec_mmu_unmap())
 *
 * Each invalid descriptor at level 1-3 that the range's walk ends in becomes
 * a Device-nGnRnE block or page of the same address, read-write and never
 * executable. Valid descriptors are left alone. The caller cleans the
 * descriptors to memory and invalidates the TLB.
 * Return: descriptors written (0: all was mapped), or -ERANGE if part of the
 * range is outside the translated range, -EOPNOTSUPP if a hole is at level 0
 * or there is no device attribute, -ENOSPC if @borrow is full, -EINVAL for
 * an empty or wrapping range; on error this call has written nothing
 */
int perfrec_mmu_map(const struct perfrec_mmu *mmu, u64 start, u64 size,
		    struct perfrec_mmu_borrow *borrow);

/**
 * perfrec_mmu_unmap() - Give back what perfrec_mmu_map() took
 * @borrow: the descriptors written; each gets its old value back, newest
 *	first, and @borrow->restored is set (the next perfrec_mmu_map() starts
 *	a new list)
 */
void perfrec_mmu_unmap(struct perfrec_mmu_borrow *borrow);

/**
 * perfrec_mmu_get() - The page tables U-Boot's EL translates through now
 * @mmu: returns their root, the VA range and the device attribute index
 * Return: 0, -ENOENT if the MMU is off (every address reaches the bus as
 * it is), -EOPNOTSUPP if the granule is not 4 KiB
 */
int perfrec_mmu_get(struct perfrec_mmu *mmu);

/**
 * perfrec_mmu_sync() - Make descriptors written into the tables in use take effect
 * @borrow: the descriptors: cleaned to memory for the table walk, then the
 *	EL's TLB is invalidated
 */
void perfrec_mmu_sync(const struct perfrec_mmu_borrow *borrow);

/* The BCM2836 local controller: four cores; its sources perfrec can route */
#define PERFREC_BCM2836_CORES		4
#define PERFREC_BCM2836_LAST_TIMER	3	/* sources 0-3: CNTPS, CNTPNS, CNTHP, CNTV */
#define PERFREC_BCM2836_PMU		9

/**
 * struct perfrec_bcm2836 - One source of the BCM2836 local controller, borrowed
 * @base: the controller's registers (brcm,bcm2836-l1-intc)
 * @core: this CPU's core number (MPIDR_EL1.Aff0)
 * @hwirq: the source: its bit in the core's IRQ source register, as the
 *	device tree numbers it
 * @saved: the core's timer and mailbox interrupt control, and its PMU
 *	routing bits (IRQ and FIQ), before perfrec_bcm2836_setup()
 */
struct perfrec_bcm2836 {
	void __iomem *base;
	uint core;
	uint hwirq;
	struct {
		u32 timer_ctl;
		u32 mbox_ctl;
		u32 pmu;
		u32 gpu_route;
	} saved;
};

/**
 * perfrec_bcm2836_check() - Can perfrec route this source to this core?
 * @core: core number
 * @hwirq: source number from the device tree
 * Return: 0 if so, -ENODEV if there is no such core, -EPROTONOSUPPORT for
 * a source other than a timer or the PMU
 */
int perfrec_bcm2836_check(uint core, uint hwirq);

/**
 * perfrec_bcm2836_source() - A core's IRQ source register
 * @base: the controller's registers
 * @core: core number
 * Return: its address: what the IRQ handler reads to learn what is pending
 */
void __iomem *perfrec_bcm2836_source(void __iomem *base, uint core);

/**
 * perfrec_bcm2836_setup() - Route @l1->hwirq, and nothing else, to the core's IRQ
 * @l1: the source; @l1->saved is filled in
 *
 * The core's other timer interrupts, its mailboxes and its FIQs are turned
 * off; the PMU is routed to the core's IRQ if it is the source, else away
 * from the core; so are the GPU's IRQ and FIQ, if routed to the core, to
 * the next core: a level perfrec cannot drop, whose source (8) would come
 * before the PMU's (9), at each return from the handler.
 */
void perfrec_bcm2836_setup(struct perfrec_bcm2836 *l1);

/**
 * perfrec_bcm2836_restore() - Undo perfrec_bcm2836_setup()
 * @l1: the source given to perfrec_bcm2836_setup()
 */
void perfrec_bcm2836_restore(const struct perfrec_bcm2836 *l1);

/**
 * perfrec_bcm2836_pending() - Is @l1->hwirq pending at the core?
 * @l1: the source
 * Return: its bit in the core's IRQ source register
 */
bool perfrec_bcm2836_pending(const struct perfrec_bcm2836 *l1);

/**
 * perfrec_bcm2836_regs() - The registers perfrec_bcm2836_setup() changes, as they are
 * @l1: the source
 * @timer_ctl: returns the core's timer interrupt control
 * @mbox_ctl: returns the core's mailbox interrupt control
 * @pmu: returns the core's PMU routing bits, as the set register reads
 * @gpu_route: returns the GPU's interrupt routing
 */
void perfrec_bcm2836_regs(const struct perfrec_bcm2836 *l1, u32 *timer_ctl, u32 *mbox_ctl,
			  u32 *pmu, u32 *gpu_route);

/**
 * perfrec_buffer_default() - Find room for a recording's buffer
 * @size: bytes wanted
 * @avoid: start of a range the buffer must miss, free in lmb's view or not
 *	(the boot buffer a recording is copied from)
 * @avoid_size: its bytes, or 0 for none
 * @addrp: returns the address: the top of free DRAM (lmb), 64 KiB aligned,
 *	clear of @avoid and of the areas the usual load address variables
 *	point at; if no free region clear of @avoid is clear of those areas
 *	(a small DRAM), the top such region all the same
 * @areap: returns NULL, or in that case the variable whose area the
 *	buffer lies in ("ramdisk_addr_r")
 * Return: 0, or -ENOMEM if no free region is clear of @avoid
 */
int perfrec_buffer_default(ulong size, ulong avoid, ulong avoid_size, ulong *addrp,
			   const char **areap);

/**
 * perfrec_buffer_note_area() - Say that a buffer lies in a load area
 * @addr: the buffer
 * @area: the variable whose area it lies in (perfrec_buffer_default())
 */
void perfrec_buffer_note_area(ulong addr, const char *area);

/**
 * perfrec_buffer_check() - Check a buffer the user gave
 * @addr: its address
 * @size: its size in bytes
 * Return: 0 if it lies in one DRAM bank and clear of all memory U-Boot
 * uses (lmb), -ERANGE if it is not inside DRAM, -EADDRINUSE if it overlaps
 */
int perfrec_buffer_check(ulong addr, ulong size);

/**
 * perfrec_clock_check() - Check a cpu-clock recording and choose its interrupt
 * @cfg: the recording; its source becomes the timer for cpu-clock, else the PMU
 *
 * cpu-clock samples on the generic timer alone (no PMU event beside it),
 * without -j, at a period of at least 10 us.
 *
 * Return: 0, or -EINVAL with the reason printed
 */
int perfrec_clock_check(struct perfrec_cfg *cfg);

/**
 * typedef perfrec_fallback_fn - Choose the next interrupt source to try
 * @cfg: the configuration that failed to arm; change it for the next try
 * @irq: why its interrupt could not be used
 * @ctx: the caller's context
 * Return: true to arm again with @cfg, false to give up
 */
typedef bool (*perfrec_fallback_fn)(struct perfrec_cfg *cfg,
				    const struct perfrec_irq_report *irq, void *ctx);

/**
 * perfrec_arm_fallback() - Arm, falling back through the interrupt sources
 * @cfg: what to arm; @next may change it between tries
 * @next: called when an interrupt is missing or silent (and only then)
 * @ctx: passed to @next
 *
 * 'perfrec record' falls back from the PMU's interrupt to cpu-clock on the
 * timer for its default event, 'perfrec stat' from the PMU's interrupt to
 * the timer and then to none: one loop, the policy in @next.
 *
 * Return: 0 when armed, else perfrec_arm()'s error for the last try
 */
int perfrec_arm_fallback(struct perfrec_cfg *cfg, perfrec_fallback_fn next, void *ctx);

/**
 * perfrec_release_buffer() - Give back the last recording's buffer to lmb
 *
 * From 2024.10 a recording's buffer is kept out of lmb's allocations and
 * loads while it records and after, so that the perf.data survives until it
 * is saved. The next recording gives it back before it places its own.
 */
void perfrec_release_buffer(void);

/* Longest phrase perfrec_irq_reason() writes, NUL included */
#define PERFREC_WHY_LEN		320

/**
 * perfrec_irq_reason() - Why a session's interrupt cannot be used
 * @irq: what perfrec_arm() found (perfrec_get_result())
 * @buf: returns a phrase naming the device-tree node, for a message
 * @size: its size, PERFREC_WHY_LEN or more for the whole phrase
 */
void perfrec_irq_reason(const struct perfrec_irq_report *irq, char *buf, size_t size);

/**
 * struct perfrec_boot_result - What became of the boot recording
 * @from: the boot buffer's address
 * @to: the recording's buffer from then on
 * @area: NULL, or the load area @to lies in (perfrec_buffer_default())
 * @samples: samples in the boot buffer
 * @copied: of these, copied into the recording (the others count as lost)
 */
struct perfrec_boot_result {
	ulong from;
	ulong to;
	const char *area;
	u64 samples;
	u64 copied;
};

/**
 * perfrec_boot_start() - Start the boot recording (CONFIG_PERFREC_BOOT)
 *
 * board_init_f(), right after fdtdec_setup(). Silent: the console is not up.
 * Return: 0, so that the boot goes on whatever happens
 */
int perfrec_boot_start(void);

/**
 * perfrec_boot_report() - Say why the boot recording did not start, if it did not
 *
 * board_init_f(), right after console_init_f().
 * Return: 0
 */
int perfrec_boot_report(void);

/**
 * perfrec_boot_relocating() - Take the image's relocated place into the boot recording
 *
 * board_init_f(), right after setup_reloc(): drops the recording if its
 * buffer overlaps what U-Boot reserved at the top of DRAM.
 * Return: 0
 */
int perfrec_boot_relocating(void);

/**
 * perfrec_boot_relocated() - Go on sampling with the relocated boot vectors
 * @daif: DAIF before crt0_64.S masked IRQs
 *
 * crt0_64.S, right after c_runtime_cpu_setup() pointed VBAR at U-Boot's
 * relocated vectors, with IRQs masked: if the boot recording is live,
 * installs perfrec's relocated boot vectors and unmasks IRQs. Uses no BSS
 * (it is not cleared yet).
 */
void perfrec_boot_relocated(u64 daif);

/**
 * perfrec_boot_mark() - A bootstage mark: a boot phase may start
 * @name: the mark's name (NULL for marks that have none)
 *
 * bootstage_add_record(). The marks board_init_f, board_init_r, main_loop,
 * bootm_start and start_kernel each start a phase of the boot recording.
 */
void perfrec_boot_mark(const char *name);

/**
 * perfrec_boot_adopt() - Make the boot recording the early recording
 * @res: returns what was copied where
 *
 * Once driver model and lmb are up after relocation (perfrec_early.c):
 * the recording goes on in the default buffer, as after 'perfrec start'.
 * Return: 0, -ENOENT if no boot recording is live, else why it was dropped
 */
int perfrec_boot_adopt(struct perfrec_boot_result *res);

/**
 * perfrec_host_write() - Write a file on the host through semihosting
 * @path: the host file, created or truncated
 * @addr: the bytes to write
 * @size: how many
 * Return: 0 (and a line saying so), -ENOSYS without CONFIG_SEMIHOSTING,
 * -EIO if the host refused; each failure is printed
 */
int perfrec_host_write(const char *path, ulong addr, ulong size);

/**
 * perfrec_stat_report() - Print the counts of the finished 'perfrec stat', as perf stat does
 * @cfg: the events that were counted
 * @argc: words of the command that ran
 * @argv: the command
 */
void perfrec_stat_report(const struct perfrec_cfg *cfg, int argc, char *const argv[]);

struct perfrec_frame;

/**
 * perfrec_dump() - Print data on the console as one framed block
 * @head: the block's kind, id and sequence number, and @data's size
 * @data: the bytes
 * @compress: gzip them first
 * @wirep: if not NULL, returns the bytes printed
 *
 * The format is tools/perfrec/perfrec_frames.py's (include/perfrec_frame.h).
 *
 * Return: 0, -ENOSYS for @compress without CONFIG_GZIP_COMPRESSED, -ENOMEM,
 * -EIO if gzip fails; each failure is printed
 */
int perfrec_dump(const struct perfrec_frame *head, const void *data, bool compress,
		 size_t *wirep);

/**
 * perfrec_dump_stream() - Print what is new in the recording as a pipe-mode chunk
 * @compress: gzip it
 * @max: at most this many bytes of stream (the first chunk holds the whole
 *	header, whatever @max)
 * @wirep: returns the bytes printed
 *
 * After the last chunk, prints the end-of-stream line.
 *
 * Return: 0 (also with nothing new), or a negative error, printed
 */
int perfrec_dump_stream(bool compress, size_t max, size_t *wirep);

/**
 * perfrec_stream_setup() - Set how a new recording streams at command boundaries
 * @rate: bytes a second on the wire, 0 for no streaming
 * @compress: gzip the chunks
 */
void perfrec_stream_setup(ulong rate, bool compress);

/**
 * perfrec_stream_finish() - Print the rest of a streamed recording
 *
 * For 'perfrec stop': whatever the rate, the rest goes out now.
 *
 * Return: 0, or a negative error, printed
 */
int perfrec_stream_finish(void);

/**
 * perfrec_stream_refill() - A stream's byte budget after some time (a token bucket)
 *
 * perfrec_command_done() prints at most the budget, then takes what it
 * printed off it; a chunk may end beyond the budget, leaving it negative,
 * and time pays that back before the next one.
 *
 * @budget: bytes the stream had left (negative after a chunk over budget)
 * @elapsed_ms: milliseconds since
 * @rate: bytes a second on the wire
 * Return: @budget plus what @rate carries in @elapsed_ms, at most one
 * second's worth (@rate)
 */
static inline long perfrec_stream_refill(long budget, ulong elapsed_ms, ulong rate)
{
	long refilled = budget + (long)(elapsed_ms * rate / 1000);

	return refilled < (long)rate ? refilled : (long)rate;
}

/**
 * perfrec_command_done() - A shell command has just finished
 *
 * Called by cmd_process() after each command: a recording started with a
 * stream rate (perfrec start -S) prints what is new as the next chunk of its
 * stream, no faster than the rate. Does nothing otherwise.
 */
void perfrec_command_done(void);

/**
 * perfrec_get_result() - Report the last or current recording
 * @res: returns the figures
 */
void perfrec_get_result(struct perfrec_result *res);

/**
 * perfrec_snapshot() - Read every register perfrec may change
 * @snap: returns the registers; the GIC ones only if the device tree names
 *	a usable PMU interrupt and GIC
 */
void perfrec_snapshot(struct perfrec_snapshot *snap);

#endif /* __PERFREC_H */
