/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Copyright (c) 2026 The perfrec authors
 *
 * perfrec_payload.S - a tiny test "OS" for QEMU virt (AArch64) that reports
 * the PMU, GIC and exception state U-Boot hands it through booti/bootm.
 *
 * It prints one line per register to the PL011 UART:
 *
 *	PAYLOAD <NAME> 0x<hex>
 *
 * then "PAYLOAD END" and spins forever in wfi with DAIF masked. Nothing is
 * written to any register except the UART data register and DAIF (masked
 * after DAIF has been reported), so the values are exactly what was handed over.
 *
 * It is a flat binary with an arm64 Linux Image header so booti takes it. It
 * is position independent (only adr and relative branches), uses no stack,
 * no memory beyond its own text and works with the MMU and caches off.
 * Addresses are those of QEMU's virt machine.
 *
 * Build (see perfrec_payload.py):
 *	aarch64-linux-gnu-gcc -c perfrec_payload.S -o payload.o
 *	aarch64-linux-gnu-ld -Ttext=0 -e _head payload.o -o payload.elf
 *	aarch64-linux-gnu-objcopy -O binary -j .text payload.elf payload.bin
 */

/*
 * Addresses and offsets are assembler symbols, not cpp macros, so that the
 * register names passed to "report" below are not replaced by numbers.
 */
	.equ	UART,		0x09000000	/* PL011 */
	.equ	UARTDR,		0x00
	.equ	UARTFR,		0x18
	.equ	UARTFR_TXFF,	5		/* bit: transmit FIFO full */

	.equ	GICD,		0x08000000	/* distributor (v2 and v3) */
	.equ	GICD_CTLR,	0x000
	.equ	GICD_IGROUPR0,	0x080		/* also GICR_IGROUPR0 (SGI_base) */
	.equ	GICD_ISENABLER,	0x100		/* also GICR_ISENABLER0 (SGI_base) */
	.equ	IPRIORITYR5,	0x414		/* IPRIORITYR + 20: INTIDs 20..23 */
	.equ	GICD_PIDR2,	0xffe8		/* v3/v4; ArchRev in bits [7:4] */
	.equ	GICD_PIDR2_V2,	0xfe8		/* v2 (4 KiB distributor) */
	.equ	GICC,		0x08010000	/* v2 CPU interface */
	.equ	GICC_CTLR,	0x000
	.equ	GICC_PMR,	0x004
	.equ	GICR,		0x080a0000	/* v3 redistributor of CPU0: RD_base */
	.equ	GICR_WAKER,	0x014
	.equ	GICR_SGI,	0x10000		/* SGI_base - RD_base */

/* GICv3 CPU interface system registers, by encoding */
#define SYS_ICC_SRE_EL1		S3_0_C12_C12_5
#define SYS_ICC_SRE_EL2		S3_4_C12_C9_5
#define SYS_ICC_PMR_EL1		S3_0_C4_C6_0
#define SYS_ICC_CTLR_EL1	S3_0_C12_C12_4
#define SYS_ICC_IGRPEN1_EL1	S3_0_C12_C12_7

/*
 * Register use (no stack):
 *	x19	current EL (0..3)
 *	x20	UART base
 *	x21	PMCR_EL0.N, the number of event counters
 *	x22	GICD base, x23 GICC or GICR base
 *	x24	entry DAIF, x25 entry x0 (DTB)
 *	x16, x17 values to branch on (survive report)
 *	x0..x9, x15, x30 scratch (x0 = value to print, x1 = name)
 */

/* report NAME, insn...: run insn (which leaves the value in x0), print it */
.macro report name:req, insn:vararg
	\insn
	adr	x1, .Lname\@
	bl	print_reg
	.pushsection .text, 1		/* the names go after all the code */
.Lname\@:	.asciz "\name"
	.popsection
.endm

/* report_sys REG: report a system register under its own name */
.macro report_sys reg:req
	report	\reg, mrs x0, \reg
.endm

/* report_mmio NAME, base, offset: report a 32-bit MMIO word */
.macro report_mmio name:req, base:req, off:req
	report	\name, ldr w0, [\base, #(\off)]
.endm

/* report_ctr n: report PMEVTYPERn_EL0 and PMEVCNTRn_EL0 if counter n exists */
.macro report_ctr n:req
	cmp	x21, #\n
	b.ls	.Lskip\@			/* N <= n: no such counter */
	report_sys PMEVTYPER\n\()_EL0
	report_sys PMEVCNTR\n\()_EL0
.Lskip\@:
.endm

	.text
	.globl	_head
_head:
	/* arm64 Image header (Documentation/arch/arm64/booting.rst) */
	b	entry			/* code0 */
	.word	0			/* code1 */
	.quad	0			/* text_offset */
	.quad	.Lend - _head		/* image_size */
	.quad	(1 << 3)		/* flags: LE, any 2 MiB aligned base */
	.quad	0			/* res2 */
	.quad	0			/* res3 */
	.quad	0			/* res4 */
	.ascii	"ARM\x64"		/* magic */
	.word	0			/* res5 (no PE header) */

entry:
	mrs	x24, daif		/* before anything can change it */
	mov	x25, x0
	mrs	x19, CurrentEL
	ubfx	x19, x19, #2, #2
	mov	x20, #UART

	adr	x1, .Lbanner
	bl	puts

	report	CurrentEL, mrs x0, CurrentEL
	report	DAIF, mov x0, x24
	report	X0_DTB, mov x0, x25

	/* Exception vectors and, at EL2, the hypervisor's traps */
	cmp	x19, #2
	b.eq	1f
	report_sys VBAR_EL1
	b	2f
1:	report_sys VBAR_EL2
	report_sys HCR_EL2
	report_sys MDCR_EL2
2:

	/* PMU */
	mrs	x0, pmcr_el0
	ubfx	x21, x0, #11, #5	/* PMCR_EL0.N */
	report_sys PMCR_EL0
	report_sys PMCNTENSET_EL0
	report_sys PMINTENSET_EL1
	report_sys PMOVSSET_EL0
	report_sys PMSELR_EL0
	report_sys PMCCFILTR_EL0
	report_sys PMUSERENR_EL0
	report_ctr 0
	report_ctr 1
	report_ctr 2
	report_ctr 3
	report_ctr 4
	report_ctr 5

	/*
	 * GIC: ArchRev (bits [7:4]) of GICD_PIDR2 tells v2 from v3/v4. A v2
	 * distributor is 4 KiB with PIDR2 at 0xfe8 (reading 0xffe8 aborts on
	 * QEMU); on v3 PIDR2 is at 0xffe8 and 0xfe8 is reserved, RAZ. So try
	 * 0xfe8 first and fall back to 0xffe8.
	 */
	mov	x22, #GICD
	ldr	w16, [x22, #GICD_PIDR2_V2]
	ubfx	w17, w16, #4, #4
	cmp	w17, #1			/* v1 or v2 */
	b.eq	1f
	cmp	w17, #2
	b.eq	1f
	add	x16, x22, #(GICD_PIDR2 & ~0xfff)	/* beyond ldr's reach */
	ldr	w16, [x16, #(GICD_PIDR2 & 0xfff)]
	ubfx	w17, w16, #4, #4
1:	report	GICD_PIDR2, mov w0, w16
	cmp	w17, #3
	b.hs	gicv3

gicv2:
	report	GIC_VERSION, mov x0, #2
	mov	x23, #GICC
	report_mmio GICD_CTLR, x22, GICD_CTLR
	report_mmio GICD_ISENABLER0, x22, GICD_ISENABLER+0
	bl	report_spi_enables
	report_mmio GICD_IPRIORITYR5, x22, IPRIORITYR5
	report_mmio GICD_IGROUPR0, x22, GICD_IGROUPR0
	report_mmio GICC_CTLR, x23, GICC_CTLR
	report_mmio GICC_PMR, x23, GICC_PMR
	b	done

gicv3:
	report	GIC_VERSION, mov x0, #3
	mov	x23, #GICR
	report_mmio GICD_CTLR, x22, GICD_CTLR
	report_mmio GICR_WAKER, x23, GICR_WAKER
	add	x23, x23, #GICR_SGI	/* SGI/PPI registers from here on */
	report_mmio GICR_ISENABLER0, x23, GICD_ISENABLER+0
	bl	report_spi_enables
	report_mmio GICR_IPRIORITYR5, x23, IPRIORITYR5
	report_mmio GICR_IGROUPR0, x23, GICD_IGROUPR0

	/* CPU interface: system registers only if enabled at this EL */
	cmp	x19, #2
	b.eq	1f
	mrs	x16, SYS_ICC_SRE_EL1
	report	ICC_SRE_EL1, mov x0, x16
	b	2f
1:	mrs	x16, SYS_ICC_SRE_EL2
	report	ICC_SRE_EL2, mov x0, x16
2:	tbz	x16, #0, done		/* SRE clear: no system register access */
	report	ICC_PMR_EL1, mrs x0, SYS_ICC_PMR_EL1
	report	ICC_CTLR_EL1, mrs x0, SYS_ICC_CTLR_EL1
	report	ICC_IGRPEN1_EL1, mrs x0, SYS_ICC_IGRPEN1_EL1

done:
	adr	x1, .Lend_msg
	bl	puts
	msr	daifset, #0xf		/* interrupts stay masked... */
3:	wfi				/* ...so this is a halt */
	b	3b

/* GICD_ISENABLER1..8 (SPIs 32..287), the same for v2 and v3 */
report_spi_enables:
	mov	x15, x30		/* print_reg clobbers x30 */
	report_mmio GICD_ISENABLER1, x22, GICD_ISENABLER+4
	report_mmio GICD_ISENABLER2, x22, GICD_ISENABLER+8
	report_mmio GICD_ISENABLER3, x22, GICD_ISENABLER+12
	report_mmio GICD_ISENABLER4, x22, GICD_ISENABLER+16
	report_mmio GICD_ISENABLER5, x22, GICD_ISENABLER+20
	report_mmio GICD_ISENABLER6, x22, GICD_ISENABLER+24
	report_mmio GICD_ISENABLER7, x22, GICD_ISENABLER+28
	report_mmio GICD_ISENABLER8, x22, GICD_ISENABLER+32
	ret	x15

/*
 * print_reg: print "PAYLOAD <name> 0x<hex>\r\n"
 * x0 = value, x1 = NUL-terminated name. Clobbers x0..x9, x30.
 */
print_reg:
	mov	x8, x30
	mov	x3, x0
	mov	x4, x1
	adr	x1, .Lprefix
	bl	puts
	mov	x1, x4
	bl	puts
	adr	x1, .Lsep
	bl	puts
	/* hex without leading zeros, at least one digit */
	mov	x5, #60			/* shift of the current nibble */
	mov	x6, #0			/* a digit has been printed */
1:	lsr	x0, x3, x5
	and	x0, x0, #0xf
	orr	x6, x6, x0
	cbz	x5, 2f			/* always print the last digit */
	cbz	x6, 3f			/* skip leading zeros */
2:	cmp	x0, #10
	add	x7, x0, #'0'
	add	x0, x0, #('a' - 10)
	csel	x0, x7, x0, lo
	bl	putc
3:	subs	x5, x5, #4
	b.hs	1b
	adr	x1, .Lcrlf
	mov	x30, x8
	b	puts			/* tail call */

/* puts: print the string at x1. Clobbers x0..x2, x1 left past the NUL. */
puts:
	mov	x2, x30
1:	ldrb	w0, [x1], #1
	cbz	w0, 2f
	bl	putc
	b	1b
2:	ret	x2

/* putc: print w0 when the UART has room. Clobbers w9 only. */
putc:
	ldr	w9, [x20, #UARTFR]
	tbnz	w9, #UARTFR_TXFF, putc
	str	w0, [x20, #UARTDR]
	ret

	.pushsection .text, 1
.Lbanner:	.asciz	"\r\nPAYLOAD BEGIN\r\n"
.Lprefix:	.asciz	"PAYLOAD "
.Lsep:		.asciz	" 0x"
.Lcrlf:		.asciz	"\r\n"
.Lend_msg:	.asciz	"PAYLOAD END\r\n"
	.balign	8
.Lend:
	.popsection
