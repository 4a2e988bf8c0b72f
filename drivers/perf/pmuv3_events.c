// SPDX-License-Identifier: GPL-2.0+
/*
 * Copyright (c) 2026 The perfrec authors
 * The Armv8 PMUv3 common events by name, and which ones a CPU implements (PMCEID)
 *
 * Names are the Arm ARM's mnemonics in lower case, as Linux's perf spells
 * them (l1d_cache_refill). Event numbers 0x0000-0x003f are the common
 * architectural and microarchitectural events that PMCEID0_EL0[31:0] and
 * PMCEID1_EL0[31:0] describe; 0x4000-0x403f are described by their high
 * halves from PMUv3p1 on (on 32-bit Arm by PMCEID2 and 3, joined as
 * pmuv3_pmceid_aarch32() says). The Cortex-A8's and A9's PMUv1 has no
 * PMCEID and events of its own: their technical reference manuals' lists
 * are below, by core (pmuv3_core_*()). Freestanding: builds for the host too
 * (USE_HOSTCC), where tests check the table against the Arm ARM's list.
 */

#ifdef USE_HOSTCC
#include <stddef.h>
#include <string.h>
#define ARRAY_SIZE(x)		(sizeof(x) / sizeof((x)[0]))
#else
#include <linux/kernel.h>
#include <linux/string.h>
#endif
#include "pmuv3_events.h"
#include "pmuv3_regs.h"

/*
 * The table as one list: the numbers go to one array and the names and
 * descriptions to one string, "name\0desc\0" after each other, so that it
 * holds no pointers (each would cost a relocation entry in u-boot.bin)
 */
#if defined(USE_HOSTCC) || defined(CONFIG_PERFREC_EVENTS)
#define PMUV3_EVENTS(e)			\
	e(0x0000, sw_incr, "Instruction architecturally executed, software increment")		\
	e(0x0001, l1i_cache_refill, "Level 1 instruction cache refill")				\
	e(0x0002, l1i_tlb_refill, "Level 1 instruction TLB refill")				\
	e(0x0003, l1d_cache_refill, "Level 1 data cache refill")				\
	e(0x0004, l1d_cache, "Level 1 data cache access")					\
	e(0x0005, l1d_tlb_refill, "Level 1 data TLB refill")					\
	e(0x0006, ld_retired, "Instruction architecturally executed, load")			\
	e(0x0007, st_retired, "Instruction architecturally executed, store")			\
	e(0x0008, inst_retired, "Instruction architecturally executed")				\
	e(0x0009, exc_taken, "Exception taken")							\
	e(0x000a, exc_return, "Instruction architecturally executed, exception return")		\
	e(0x000b, cid_write_retired, "Instruction architecturally executed, CONTEXTIDR write")	\
	e(0x000c, pc_write_retired,								\
	  "Instruction architecturally executed, software change of the PC")			\
	e(0x000d, br_immed_retired, "Instruction architecturally executed, immediate branch")	\
	e(0x000e, br_return_retired, "Instruction architecturally executed, procedure return")	\
	e(0x000f, unaligned_ldst_retired,							\
	  "Instruction architecturally executed, unaligned load or store")			\
	e(0x0010, br_mis_pred, "Branch mispredicted or not predicted")				\
	e(0x0011, cpu_cycles, "Cycle")								\
	e(0x0012, br_pred, "Predictable branch speculatively executed")				\
	e(0x0013, mem_access, "Data memory access")						\
	e(0x0014, l1i_cache, "Level 1 instruction cache access")				\
	e(0x0015, l1d_cache_wb, "Level 1 data cache write-back")				\
	e(0x0016, l2d_cache, "Level 2 data cache access")					\
	e(0x0017, l2d_cache_refill, "Level 2 data cache refill")				\
	e(0x0018, l2d_cache_wb, "Level 2 data cache write-back")				\
	e(0x0019, bus_access, "Bus access")							\
	e(0x001a, memory_error, "Local memory error")						\
	e(0x001b, inst_spec, "Operation speculatively executed")				\
	e(0x001c, ttbr_write_retired, "Instruction architecturally executed, TTBR write")	\
	e(0x001d, bus_cycles, "Bus cycle")							\
	e(0x001e, chain, "For an odd-numbered counter, increment on overflow of the one below")	\
	e(0x001f, l1d_cache_allocate, "Level 1 data cache allocation without refill")		\
	e(0x0020, l2d_cache_allocate, "Level 2 data cache allocation without refill")		\
	e(0x0021, br_retired, "Instruction architecturally executed, branch")			\
	e(0x0022, br_mis_pred_retired,								\
	  "Instruction architecturally executed, mispredicted branch")				\
	e(0x0023, stall_frontend, "No operation sent for execution, frontend")			\
	e(0x0024, stall_backend, "No operation sent for execution, backend")			\
	e(0x0025, l1d_tlb, "Level 1 data TLB access")						\
	e(0x0026, l1i_tlb, "Level 1 instruction TLB access")					\
	e(0x0027, l2i_cache, "Level 2 instruction cache access")				\
	e(0x0028, l2i_cache_refill, "Level 2 instruction cache refill")				\
	e(0x0029, l3d_cache_allocate, "Level 3 data cache allocation without refill")		\
	e(0x002a, l3d_cache_refill, "Level 3 data cache refill")				\
	e(0x002b, l3d_cache, "Level 3 data cache access")					\
	e(0x002c, l3d_cache_wb, "Level 3 data cache write-back")				\
	e(0x002d, l2d_tlb_refill, "Level 2 data TLB refill")					\
	e(0x002e, l2i_tlb_refill, "Level 2 instruction TLB refill")				\
	e(0x002f, l2d_tlb, "Level 2 data TLB access")						\
	e(0x0030, l2i_tlb, "Level 2 instruction TLB access")					\
	e(0x0031, remote_access, "Access to another socket in a multi-socket system")		\
	e(0x0032, ll_cache, "Last level cache access")						\
	e(0x0033, ll_cache_miss, "Last level cache miss")					\
	e(0x0034, dtlb_walk, "Data TLB access with at least one translation table walk")	\
	e(0x0035, itlb_walk, "Instruction TLB access with at least one translation table walk")	\
	e(0x0036, ll_cache_rd, "Last level cache access, read")					\
	e(0x0037, ll_cache_miss_rd, "Last level cache miss, read")				\
	e(0x0038, remote_access_rd, "Access to another socket, read")				\
	e(0x0039, l1d_cache_lmiss_rd, "Level 1 data cache long-latency read miss")		\
	e(0x003a, op_retired, "Micro-operation architecturally executed")			\
	e(0x003b, op_spec, "Micro-operation speculatively executed")				\
	e(0x003c, stall, "No operation sent for execution")					\
	e(0x003d, stall_slot_backend, "No operation sent for execution on a slot, backend")	\
	e(0x003e, stall_slot_frontend, "No operation sent for execution on a slot, frontend")	\
	e(0x003f, stall_slot, "No operation sent for execution on a slot")			\
	e(0x4000, sample_pop, "Statistical profiling sample population")			\
	e(0x4001, sample_feed, "Statistical profiling sample taken")				\
	e(0x4002, sample_filtrate, "Statistical profiling sample taken and not removed")	\
	e(0x4003, sample_collision, "Statistical profiling sample collided with previous")	\
	e(0x4004, cnt_cycles, "Constant frequency cycles")					\
	e(0x4005, stall_backend_mem, "Memory stall cycles")					\
	e(0x4006, l1i_cache_lmiss, "Level 1 instruction cache long-latency miss")		\
	e(0x4009, l2d_cache_lmiss_rd, "Level 2 data cache long-latency read miss")		\
	e(0x400a, l2i_cache_lmiss, "Level 2 instruction cache long-latency miss")		\
	e(0x400b, l3d_cache_lmiss_rd, "Level 3 data cache long-latency read miss")		\
	e(0x400c, trb_wrap, "Trace buffer current write pointer wrapped")			\
	e(0x400e, trb_trig, "Trace buffer trigger event")					\
	e(0x4010, trcextout0, "Trace unit external output 0")					\
	e(0x4011, trcextout1, "Trace unit external output 1")					\
	e(0x4012, trcextout2, "Trace unit external output 2")					\
	e(0x4013, trcextout3, "Trace unit external output 3")					\
	e(0x4018, cti_trigout4, "Cross-trigger interface output trigger 4")			\
	e(0x4019, cti_trigout5, "Cross-trigger interface output trigger 5")			\
	e(0x401a, cti_trigout6, "Cross-trigger interface output trigger 6")			\
	e(0x401b, cti_trigout7, "Cross-trigger interface output trigger 7")			\
	e(0x4020, ldst_align_lat, "Access with additional latency from alignment")		\
	e(0x4021, ld_align_lat, "Load with additional latency from alignment")			\
	e(0x4022, st_align_lat, "Store with additional latency from alignment")			\
	e(0x4024, mem_access_checked, "Checked data memory access")				\
	e(0x4025, mem_access_checked_rd, "Checked data memory access, read")			\
	e(0x4026, mem_access_checked_wr, "Checked data memory access, write")
#else
/* Cycles only (perfrec_events.c) */
#define PMUV3_EVENTS(e)
#endif

#define PMUV3_EVENT_NUMBER(number, name, desc)	number,
#define PMUV3_EVENT_STRINGS(number, name, desc)	#name "\0" desc "\0"

static const unsigned short pmuv3_event_numbers[] = { PMUV3_EVENTS(PMUV3_EVENT_NUMBER) };
static const char pmuv3_event_strings[] = "" PMUV3_EVENTS(PMUV3_EVENT_STRINGS);

/* Fill @ev with @number and the strings at @p; return where the next entry's start */
static const char *pmuv3_event_fill(unsigned int number, const char *p, struct pmuv3_event *ev)
{
	ev->number = number;
	ev->name = p;
	ev->desc = p + strlen(p) + 1;

	return ev->desc + strlen(ev->desc) + 1;
}

unsigned int pmuv3_event_count(void)
{
	return ARRAY_SIZE(pmuv3_event_numbers);
}

int pmuv3_event_at(unsigned int idx, struct pmuv3_event *ev)
{
	const char *p = pmuv3_event_strings;
	unsigned int i;

	if (idx >= ARRAY_SIZE(pmuv3_event_numbers))
		return 0;
	for (i = 0; i <= idx; i++)
		p = pmuv3_event_fill(pmuv3_event_numbers[i], p, ev);

	return 1;
}

/* Find the event named @name, or if @name is NULL the one numbered @number */
static int pmuv3_event_find(const char *name, unsigned int number, struct pmuv3_event *ev)
{
	const char *p = pmuv3_event_strings;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pmuv3_event_numbers); i++) {
		p = pmuv3_event_fill(pmuv3_event_numbers[i], p, ev);
		if (name ? !strcmp(ev->name, name) : ev->number == number)
			return 1;
	}

	return 0;
}

int pmuv3_event_by_name(const char *name, struct pmuv3_event *ev)
{
	return pmuv3_event_find(name, 0, ev);
}

int pmuv3_event_by_number(unsigned int number, struct pmuv3_event *ev)
{
	return pmuv3_event_find(NULL, number, ev);
}

unsigned int pmuv3_event_bits(unsigned int version)
{
	if (version == PMUV3_PMUVER_ARMV7 || version == PMUV3_PMUVER_V1)
		return PMUV3_EVTCOUNT_BITS_ARMV7;

	return version >= PMUV3_EVTCOUNT_WIDE_VERSION ? PMUV3_EVTCOUNT_BITS_V3P1 :
							PMUV3_EVTCOUNT_BITS;
}

int pmuv3_event_fits(unsigned int version, unsigned int number)
{
	return !(number >> pmuv3_event_bits(version));
}

int pmuv3_event_implemented(unsigned long long pmceid0, unsigned long long pmceid1,
			    unsigned int version, unsigned int number)
{
	unsigned int bit = number & PMUV3_EVENT_ID_MASK;
	unsigned long long word;

	if (number & ~(PMUV3_EVENT_HIGH | PMUV3_EVENT_ID_MASK))
		return 0;
	/* The high halves describe 0x4000-0x403f only from PMUv3p1 on */
	if ((number & PMUV3_EVENT_HIGH) && version < PMUV3_EVENTS_HIGH_VERSION)
		return 0;
	word = bit < 32 ? pmceid0 : pmceid1;
	if (number & PMUV3_EVENT_HIGH)
		word >>= 32;

	return (word >> (bit % 32)) & 1;
}

unsigned long long pmuv3_pmceid_aarch32(unsigned int low, unsigned int high,
					unsigned int version)
{
	if (version < PMUV3_EVENTS_HIGH_VERSION)
		high = 0;

	return (unsigned long long)high << 32 | low;
}

unsigned int pmuv3_core_by_midr(unsigned int midr)
{
	unsigned int part = (midr >> PMUV3_MIDR_PART_SHIFT) & PMUV3_MIDR_PART_MASK;

	if (midr >> PMUV3_MIDR_IMPLEMENTER_SHIFT != PMUV3_MIDR_ARM)
		return PMUV3_CORE_ARCH;
	if (part == PMUV3_MIDR_PART_A8)
		return PMUV3_CORE_A8;
	if (part == PMUV3_MIDR_PART_A9)
		return PMUV3_CORE_A9;

	return PMUV3_CORE_ARCH;
}

const char *pmuv3_core_name(unsigned int core)
{
	switch (core) {
	case PMUV3_CORE_A8:
		return "Cortex-A8";
	case PMUV3_CORE_A9:
		return "Cortex-A9";
	default:
		return NULL;
	}
}

/*
 * The common events each counts (its TRM's "implemented architectural
 * events"): the Cortex-A8 all of 0x00-0x12; the A9 those but 0x08 and 0x0e,
 * whose work its own 0x68 and 0x6e count
 */
#define PMUV3_A8_PMCEID			0x7ffffULL
#define PMUV3_A9_PMCEID			(0x7ffffULL & ~(1ULL << 0x08 | 1ULL << 0x0e))

unsigned long long pmuv3_core_pmceid(unsigned int core)
{
	switch (core) {
	case PMUV3_CORE_A8:
		return PMUV3_A8_PMCEID;
	case PMUV3_CORE_A9:
		return PMUV3_A9_PMCEID;
	default:
		return 0;
	}
}

/* The A8's and A9's own events: core, number, name, description */
#if defined(USE_HOSTCC) || defined(CONFIG_PERFREC_EVENTS)
#define PMUV3_CORE_EVENTS(e) \
	e(PMUV3_CORE_A8, 0x43, l2_cache_access, "Level 2 cache access") \
	e(PMUV3_CORE_A8, 0x44, l2_cache_refill, "Level 2 cache refill") \
	e(PMUV3_CORE_A8, 0x50, l1i_cache_access, "Level 1 instruction cache access") \
	e(PMUV3_CORE_A8, 0x56, stall_iside, "Cycles the instruction side cannot deliver") \
	e(PMUV3_CORE_A9, 0x40, java_bytecode, "Java bytecodes decoded, speculative ones too") \
	e(PMUV3_CORE_A9, 0x41, java_sw_bytecode, "Software Java bytecodes decoded") \
	e(PMUV3_CORE_A9, 0x42, jazelle_backward_branch, "Jazelle taken branches executed") \
	e(PMUV3_CORE_A9, 0x50, coherent_linefill_miss, "Coherent linefill missing in every core") \
	e(PMUV3_CORE_A9, 0x51, coherent_linefill_hit, "Coherent linefill hitting in another core") \
	e(PMUV3_CORE_A9, 0x60, stall_icache, "Cycles waiting for an instruction cache linefill") \
	e(PMUV3_CORE_A9, 0x61, stall_dcache, "Cycles waiting for a data cache linefill") \
	e(PMUV3_CORE_A9, 0x62, stall_main_tlb, "Cycles waiting for a main TLB table walk") \
	e(PMUV3_CORE_A9, 0x66, stall_dispatch, "Cycles the issue stage dispatches nothing") \
	e(PMUV3_CORE_A9, 0x68, inst_renamed, "Instructions out of the core's renaming stage") \
	e(PMUV3_CORE_A9, 0x6e, predictable_func_return, "Predictable function return")
#else
#define PMUV3_CORE_EVENTS(e)
#endif

#define PMUV3_CORE_EVENT_CORE(core, number, name, desc)		core,
#define PMUV3_CORE_EVENT_NUMBER(core, number, name, desc)	number,
#define PMUV3_CORE_EVENT_STRINGS(core, number, name, desc)	#name "\0" desc "\0"

static const unsigned char pmuv3_core_event_cores[] = { PMUV3_CORE_EVENTS(PMUV3_CORE_EVENT_CORE) };

static const unsigned char pmuv3_core_event_numbers[] = {
	PMUV3_CORE_EVENTS(PMUV3_CORE_EVENT_NUMBER)
};

static const char pmuv3_core_event_strings[] = "" PMUV3_CORE_EVENTS(PMUV3_CORE_EVENT_STRINGS);

/* The @idx-th of @core's events, or by @name if it is not NULL */
static int pmuv3_core_event_find(unsigned int core, unsigned int idx, const char *name,
				 struct pmuv3_event *ev)
{
	const char *p = pmuv3_core_event_strings;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(pmuv3_core_event_numbers); i++) {
		p = pmuv3_event_fill(pmuv3_core_event_numbers[i], p, ev);
		if (pmuv3_core_event_cores[i] != core)
			continue;
		if (name ? !strcmp(ev->name, name) : n == idx)
			return 1;
		n++;
	}

	return 0;
}

int pmuv3_core_event_at(unsigned int core, unsigned int idx, struct pmuv3_event *ev)
{
	return pmuv3_core_event_find(core, idx, NULL, ev);
}

int pmuv3_core_event_by_name(unsigned int core, const char *name, struct pmuv3_event *ev)
{
	return pmuv3_core_event_find(core, 0, name, ev);
}

int pmuv3_core_event_by_number(unsigned int core, unsigned int number, struct pmuv3_event *ev)
{
	unsigned int i;

	for (i = 0; pmuv3_core_event_at(core, i, ev); i++) {
		if (ev->number == number)
			return 1;
	}

	return 0;
}

unsigned int pmuv3_core_generic(unsigned int core, unsigned int number)
{
	/* Linux's maps for the two (arm_v7_pmu.c) */
	switch (number) {
	case PMUV3_EVT_INST_RETIRED:
		return core == PMUV3_CORE_A9 ? PMUV3_A9_EVT_INST_RENAMED : number;
	case PMUV3_EVT_BR_RETIRED:
		/* Software changes of the PC: taken branches and PC writes */
		return core ? PMUV3_EVT_PC_WRITE_RETIRED : number;
	case PMUV3_EVT_STALL_FRONTEND:
		if (core == PMUV3_CORE_A8)
			return PMUV3_A8_EVT_STALL_ISIDE;
		return core == PMUV3_CORE_A9 ? PMUV3_A9_EVT_STALL_ICACHE : number;
	case PMUV3_EVT_STALL_BACKEND:
		if (core == PMUV3_CORE_A8)
			return PMUV3_EVT_NONE;
		return core == PMUV3_CORE_A9 ? PMUV3_A9_EVT_STALL_DISPATCH : number;
	case PMUV3_EVT_BUS_CYCLES:
		return core ? PMUV3_EVT_NONE : number;
	default:
		return number;
	}
}
