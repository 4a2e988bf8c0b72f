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

/* Most sources a session falls back to after its first (timer, then none) */
#define PERFREC_MAX_FALLBACK		2

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
 * @PERFREC_IRQ_LEFT_OUT: the interrupt parent is a controller this build
 *	leaves out (@parent, @compat; @block names the option it needs)
 * @PERFREC_IRQ_NO_PMU: the CPU has no PMU perfrec drives, so no PMU
 *	interrupt either (a recording only: one falls back to cpu-clock)
 * @PERFREC_IRQ_STILL: the PMU's counters stand still (registers with no
 *	counter behind them: QEMU's Cortex-A8 and A9 before 8.2), so nothing
 *	overflows
 * @PERFREC_IRQ_STILL_EVENTS: its event counters stand still here (Secure
 *	state, where the SoC does not allow counting), the cycle counter runs
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
	PERFREC_IRQ_LEFT_OUT,
	PERFREC_IRQ_NO_PMU,
	PERFREC_IRQ_STILL,
	PERFREC_IRQ_STILL_EVENTS,
};

/**
 * struct perfrec_irq_report - What the last perfrec_arm() found of its interrupt
 * @fault: whether and why it cannot be used
 * @source: the source it was about
 * @node: the device-tree node it came from (path), or ""
 * @el: the generic timer's: the EL whose timer interrupt was looked for
 * @intid: the INTID the node names (0 if none); the BCM2836 local controller's source number
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
	uint el;
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
 * @source: the interrupt that drives the session, tried first
 * @fallback: the sources to try next, in this order, while the one before
 *	fails for its interrupt alone (missing or silent): 'perfrec record'
 *	falls back to the timer for its default event, 'perfrec stat' to the
 *	timer and then to none. A recording on the timer samples @clock.
 * @nr_fallback: entries in @fallback
 * @clock: a recording's cpu-clock event, for a fallback to the timer
 * @quiet: print nothing while arming (the boot recording: no console yet);
 *	otherwise each fallback taken is said in one line
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
	enum perfrec_source fallback[PERFREC_MAX_FALLBACK];
	uint nr_fallback;
	struct perfrec_event_cfg clock;
	bool quiet;
	bool no_probe;
	void *buf;
	ulong buf_addr;
	ulong buf_size;
	int argc;
	const char *const *argv;
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
 * @gt_hz: the clock was a Cortex-A9's global timer, this many ticks per
 *	second (the tree's clock's rate, or @gt_measured_hz); 0: the
 *	generic timer
 * @gt_measured_hz: the global timer's rate as measured against U-Boot's
 *	timer
 * @gt_tree_hz: the global timer's rate from its clock in the tree, 0 if
 *	the tree gives none (then @gt_hz is @gt_measured_hz)
 * @restore_err: 0, or -EIO if a register differed after the restore
 * @mismatch: the first register that differed, e.g. "VBAR_EL2"
 * @before: its value before the recording
 * @after: its value after the restore
 * @source: the interrupt that drove the session
 * @irq: what the session's arming found of its interrupt
 * @failed_irq: what the last failed perfrec_arm() found of its interrupt
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
	u64 gt_hz;
	u64 gt_measured_hz;
	u64 gt_tree_hz;
	int restore_err;
	char mismatch[24];
	u64 before;
	u64 after;
	enum perfrec_source source;
	struct perfrec_irq_report irq;
	struct perfrec_irq_report failed_irq;
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
 * implement it, -EACCES if it does not and the event counters stand still
 * here (Secure state), -ENODEV if there is no PMUv3, -EPERM if U-Boot runs at an
 * EL this build leaves out (no PMU register is read there)
 */
int perfrec_event_lookup(const char *name, struct perfrec_event_cfg *ev);

/**
 * perfrec_event_bits() - Width of this PMU's event number field
 *
 * PMEVTYPER<n>_EL0.evtCount is 10 bits wide before PMUv3p1, 16 bits from it;
 * the Armv7 PMU's PMXEVTYPER.evtCount is 8 bits wide.
 *
 * Return: the width in bits, or 0 if there is no PMUv3
 */
uint perfrec_event_bits(void);

/**
 * perfrec_arm() - Program the counters and start taking samples
 * @cfg: events, periods, buffer and command line; copied
 *
 * Writes the head of a perf.data into the buffer, snapshots every register it
 * will change, takes the PMU interrupt through the GIC and a temporary vector
 * table, and starts the counters. Where the interrupt is missing or silent,
 * tries @cfg->fallback in order.
 * Return: 0 when sampling, -EBUSY if a session is active, -EINVAL for a bad
 * @cfg, -E2BIG if there are more events than counters, -ERANGE if a period
 * does not fit its counter, -ENODEV if the CPU has no PMUv3, -ENOENT if the device tree has no PMU
 * node, -ENXIO if the PMU node has no usable interrupt, -EPROTONOSUPPORT if
 * its interrupt controller is not a GICv2/v3 or the interrupt is not a PPI,
 * -ENOSPC if the buffer cannot hold the header and one sample, -ENOEXEC if the
 * build did not record the image's ELF offset, -ETIMEDOUT if the GIC does not
 * respond, -EPERM if U-Boot runs at an EL this build leaves out. On error
 * nothing is armed and nothing outside the buffer changed.
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

/* The cycle counter PMCCNTR_EL0: its index (0-30 are event counters), its bit in PMOVS* */
#define PERFREC_CYCLE_COUNTER		31

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
 * perfrec_buffer_place() - perfrec_buffer_default() for a tree already walked
 * @size: as perfrec_buffer_default()
 * @avoid: as perfrec_buffer_default()
 * @avoid_size: as perfrec_buffer_default()
 * @rsv_nodes: false if the control device tree has no /reserved-memory
 *	node (a walk of it said so): before 2024.10, U-Boot's lmb then needs
 *	no search of the tree for it
 * @addrp: as perfrec_buffer_default()
 * @areap: as perfrec_buffer_default()
 * Return: as perfrec_buffer_default()
 */
int perfrec_buffer_place(ulong size, ulong avoid, ulong avoid_size, bool rsv_nodes,
			 ulong *addrp, const char **areap);

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
 * perfrec_print_fallback() - Say in one line what a session falls back to, and why
 * @cfg: the session, with the source (and for a recording the cpu-clock
 *	event) it falls back to
 * @why: why the interrupt it tried could not be used
 */
void perfrec_print_fallback(const struct perfrec_cfg *cfg, const struct perfrec_irq_report *why);

/**
 * perfrec_print_no_pmu() - Say in one line that the CPU has no PMU perfrec drives
 *
 * For perfrec_arm() and perfrec_get_pmu_info() returning -ENODEV
 */
void perfrec_print_no_pmu(void);

/**
 * perfrec_print_el_left_out() - Say in one line that this build leaves out U-Boot's EL
 *
 * For perfrec_arm(), perfrec_event_lookup() and perfrec_get_pmu_info()
 * returning -EPERM
 */
void perfrec_print_el_left_out(void);

/**
 * perfrec_print_arm_error() - Say in one line why perfrec_arm() failed
 * @err: its error
 * @cfg: what it was given
 * @res: perfrec_get_result() right after
 */
void perfrec_print_arm_error(int err, const struct perfrec_cfg *cfg,
			     const struct perfrec_result *res);

/**
 * struct perfrec_boot_result - What became of the boot recording
 * @from: the boot buffer's address
 * @to: the recording's buffer from then on
 * @area: NULL, or the load area @to lies in (perfrec_buffer_default())
 * @samples: samples in the boot buffer
 * @copied: of these, copied into the recording (the others count as lost)
 * @why: why the recording was dropped, if it was
 */
struct perfrec_boot_result {
	ulong from;
	ulong to;
	const char *area;
	u64 samples;
	u64 copied;
	const char *why;
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
 * Return: 0, -ENOENT if no boot recording is live, else the error it was
 * dropped on (@res->why says why)
 */
int perfrec_boot_adopt(struct perfrec_boot_result *res);

/**
 * perfrec_stat_report() - Print the counts of the finished 'perfrec stat', as perf stat does
 * @cfg: the events that were counted
 * @argc: words of the command that ran
 * @argv: the command
 */
void perfrec_stat_report(const struct perfrec_cfg *cfg, int argc, char *const argv[]);

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
