#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Overlay perfrec onto a U-Boot source tree.

Usage:
    perfrec_overlay.py [--check] <u-boot-tree>
    perfrec_overlay.py --list

Copies the project's files into the tree (see DIRS and FILES), removes what
an earlier overlay copied that is no longer perfrec's (STALE), and applies the
few edits perfrec needs in U-Boot's own files (see EDITS, the complete list
but for the build-id note's place in boards' own linker scripts:
perfrec_overlay_lds.py). Every edit is checked first: if a hook point is missing in the tree the
script names it and changes nothing at all. Running it again is harmless: an
edit already present is left alone, and files are only copied when they differ.
With --check nothing is written; the exit code says whether the tree is ready
(0) or would change (1). --list prints the project files it copies, one a
line, so that make can rerun it exactly when one of them changes.
"""

import argparse
import filecmp
import os
import re
import shutil
import sys

import perfrec_overlay_lds
from perfrec_maintainers import MAINTAINERS_ENTRY, OLD_ENTRIES

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Project directories copied as they are (same relative path in the tree)
DIRS = ['arch', 'cmd', 'doc/usage', 'drivers/perf', 'include', 'lib/perfrec', 'test/py/tests',
        'tools/perfrec']

# Single project files copied to the same path in the tree. Of scripts/ only
# what U-Boot's own build runs (arch/arm/Makefile.postlink runs the pgoff
# script, with tools/perfrec/perfrec_elf.py); the rest is the project's tooling.
FILES = ['doc/api/perf.rst', 'doc/develop/perfrec.rst', 'lib/perf_data.c',
         'lib/perf_data_internal.h', 'lib/perf_data_pipe.c', 'scripts/perfrec_pgoff.py',
         'test/lib/perf_data.c', 'test/lib/perf_data_pipe.c', 'test/lib/perf_data_ut.h',
         'test/lib/perfrec.c', 'test/lib/perfrec_hw.c']

# What earlier overlays copied into the tree that is no longer perfrec's there
# (project tooling and the README's pictures): removed where still present
STALE = ['doc/perfrec-flamegraph.png', 'doc/perfrec-hotspot.png',
         'scripts/perfrec_demo.py', 'scripts/perfrec_hotspot_shot.py',
         'scripts/perfrec_load.sh', 'scripts/perfrec_qemu.py',
         'scripts/perfrec_source_date.sh', 'drivers/perf/perfrec_handoff.h',
         'drivers/perf/perf_data.c', 'lib/perfrec/perfrec_record.c'] + [
             'drivers/perf/' + name for name in (
                 # moved to lib/perfrec/
                 'perfrec_boot.c', 'perfrec_buffer.c', 'perfrec_early.c', 'perfrec_fdt.c',
                 'perfrec_frame.c', 'perfrec_info.c', 'perfrec_info.h', 'perfrec_options.h',
                 'perfrec_profile.c', 'perfrec_record.c', 'perfrec_report.c',
                 'perfrec_session.c', 'perfrec_session.h', 'perfrec_stream.c',
                 # moved to drivers/perf/arm64/
                 'perfrec_cpu.c', 'perfrec_irq_frame.h', 'perfrec_mmu.c', 'perfrec_unwind.c',
                 'perfrec_vectors.S', 'perfrec_vectors.h')] + [
             # moved to drivers/perf/: the driver's own, not public
             'include/perfrec_bcm2836.h', 'include/perfrec_gic_ctlr.h', 'include/perfrec_mmu.h',
             # moved to include/: what the recorder needs of the hardware
             'drivers/perf/perfrec_dt.h', 'drivers/perf/perfrec_hw.h', 'drivers/perf/perfrec_ring.h']

SMH_OPEN_OLD = '\tfd = smh_open(filename, MODE_READ | MODE_BINARY | MODE_PLUS);\n'
SMH_OPEN_NEW = ('\t/* Writing from offset 0 replaces the file, as on other filesystems */\n'
                '\tif (!pos)\n'
                '\t\tfd = smh_open(filename, MODE_WRITE | MODE_BINARY);\n'
                '\telse\n'
                '\t\tfd = smh_open(filename, MODE_READ | MODE_BINARY | MODE_PLUS);\n')

# (32-bit Arm's GCC has no -mno-omit-leaf-frame-pointer: its leaves keep a
# record with -fno-omit-frame-pointer alone, {fp, lr} at -Os but r11 alone
# at -O2 and -Og, LR staying in its register; the walker follows both)
FRAME_POINTERS = ('# perfrec: a frame record in every function, for call graphs\n'
                  'ifdef CONFIG_PERFREC_FRAME_POINTERS\n'
                  'KBUILD_CFLAGS += -fno-omit-frame-pointer \\\n'
                  '\t\t $(call cc-option,-mno-omit-leaf-frame-pointer) \\\n'
                  '\t\t -fno-optimize-sibling-calls\n'
                  'endif\n\n')
FRAME_POINTERS_OLD = FRAME_POINTERS.replace(
    ' \\\n\t\t $(call cc-option,-mno-omit-leaf-frame-pointer) \\\n',
    ' -mno-omit-leaf-frame-pointer \\\n')

BUILD_ID_LDFLAGS = ('# perfrec: a build-id note, by which perf matches recordings with the ELF\n'
                    'ifdef CONFIG_PERFREC_BUILD_ID\n'
                    'LDFLAGS_u-boot += --build-id=sha1\n'
                    'endif\n')
BUILD_ID_LDS = perfrec_overlay_lds.BLOCK
BUILD_ID_OBJCOPY = ('\n# perfrec: u-boot.bin carries the build-id note too\n'
                    'ifdef CONFIG_PERFREC_BUILD_ID\n'
                    'OBJCOPYFLAGS += -j .note.gnu.build-id\n'
                    'endif\n')

# U-Boot passes its whole symbol table to the compiler as one -D argument,
# which Linux caps at 128 KiB (MAX_ARG_STRLEN): 2025.01's table is bigger.
# Write it into a generated C file instead.
SMAP_OLD = ('cmd_smap = \\\n'
            '\tsmap=`$(call SYSTEM_MAP,u-boot) | \\\n'
            '\t\tawk \'$$2 ~ /[tTwW]/ {printf $$1 $$3 "\\\\\\\\000"}\'` ; \\\n'
            '\t$(CC) $(c_flags) -DSYSTEM_MAP="\\"$${smap}\\"" \\\n'
            '\t\t-c $(srctree)/common/system_map.c -o common/system_map.o\n')
SMAP_NEW = ('cmd_smap = \\\n'
            '\t$(call SYSTEM_MAP,u-boot) | \\\n'
            '\t\tawk \'BEGIN { print "const char system_map[] =" } \\\n'
            '\t\t$$2 ~ /[tTwW]/ { print "\\"" $$1 $$3 "\\\\000\\"" } \\\n'
            '\t\tEND { print ";" }\' > common/system_map_gen.c; \\\n'
            '\t$(CC) $(c_flags) -c common/system_map_gen.c -o common/system_map.o\n')

# With KALLSYMS, U-Boot regenerated its symbol table and linked u-boot a second
# time at every make, even when nothing had changed: both now run only when
# the first link does (if_changed's own condition), so a no-op make relinks
# nothing and the table goes to the linker ($(2) of cmd_u-boot__). The
# condition's names: any-prereq and arg-check up to 2026.01, newer-prereqs and
# cmd-check since Kbuild followed Linux 6.1 (2026.04); the others are empty in
# each.
KALLSYMS_OLD = ('\t$(call cmd,smap)\n'
                '\t$(call cmd,u-boot__) common/system_map.o\n')
KALLSYMS_RELINK = ('$(strip $(any-prereq) $(call arg-check,u-boot__) '
                   '$(newer-prereqs) $(call cmd-check,u-boot__))')
KALLSYMS_NEW = ('\t$(if %s,$(call cmd,smap))\n'
                '\t+$(if %s,$(call cmd,u-boot__,common/system_map.o))\n'
                % (KALLSYMS_RELINK, KALLSYMS_RELINK))
KALLSYMS_RELINK_OLD = '$(strip $(any-prereq) $(call arg-check,u-boot__))'

# A boot-recording hook in board_f.c, as an array entry and as an INITCALL
BOOT_HOOK_ARRAY = '#if CONFIG_IS_ENABLED(PERFREC_BOOT)\n\t%s,\n#endif\n'
BOOT_HOOK_INITCALL = '#if CONFIG_IS_ENABLED(PERFREC_BOOT)\n\tINITCALL(%s);\n#endif\n'
# The hooks that must be in, in one shape or the other: (file, function)
BOOT_HOOKS = [('common/board_f.c', 'perfrec_boot_start'),
              ('common/board_f.c', 'perfrec_boot_report'),
              ('common/board_f.c', 'perfrec_boot_relocating')]
CRT0_ANCHOR = '\tbl\tc_runtime_cpu_setup\t\t/* still call old routine */\n'
CRT0_MASK = ('#if CONFIG_IS_ENABLED(PERFREC_BOOT)\n'
             '\tmrs\tx19, daif\t\t\t/* perfrec: IRQs on? (its boot recording) */\n'
             '\tmsr\tdaifset, #3\t\t\t/* no IRQ with U-Boot\'s vectors */\n'
             '#endif\n')
CRT0_VECTORS = ('#if CONFIG_IS_ENABLED(PERFREC_BOOT)\n'
                '\tmov\tx0, x19\n'
                '\tbl\tperfrec_boot_relocated\t\t/* perfrec: its vectors, IRQs on */\n'
                '#endif\n')
# SPL on QEMU virt, a test vehicle (configs/perfrec-spl.config): SPL runs in
# place from the flash at 0 and copies U-Boot proper (u-boot.img, at
# CONFIG_SPL_PAD_TO in the flash) into DRAM. The board lets SPL be enabled,
# boots from NOR, starts SPL's console, and keeps start.S's
# save_boot_params() from storing x0-x3 into .data, which is in the flash
# (2024.01 on, with BLOBLIST). Before either shape of board_fdt_blob_setup()
# (2025.04 changed it); QEMU_SPL_HOOKS checks that one went in.
QEMU_SPL = """#if defined(CONFIG_SPL_BUILD) || defined(CONFIG_XPL_BUILD)
/* SPL, a test vehicle: it runs from the flash at 0 and loads U-Boot from it */
u32 spl_boot_device(void)
{
\treturn BOOT_DEVICE_NOR;
}

void board_init_f(ulong dummy)
{
\tif (spl_early_init())
\t\thang();
\tpreloader_console_init();
}

/* .data is in the flash: save_boot_params() must not store x0-x3 there */
asm(".pushsection .text.save_boot_params, \\"ax\\"\\n"
\t".global save_boot_params\\n"
\t"save_boot_params:\\n"
\t"\\tb\\tsave_boot_params_ret\\n"
\t".popsection\\n");
#endif

"""
# u-boot.img's place in the flash, as CONFIG_SYS_UBOOT_BASE (up to 2023.01)
# or CFG_SYS_UBOOT_BASE (2023.04 on)
QEMU_SPL_BASE = """
/* SPL (a test vehicle): u-boot.img follows SPL, padded, in the flash */
#ifdef CONFIG_SPL
#define %s\t\tCONFIG_SPL_PAD_TO
#endif
"""
QEMU_SPL_HOOKS = [('board/emulation/qemu-arm/qemu-arm.c', 'u32 spl_boot_device(void)\n'),
                  ('include/configs/qemu-arm.h', 'SYS_UBOOT_BASE\t\tCONFIG_SPL_PAD_TO\n')]
BOOTSTAGE_ANCHOR = '\tstruct bootstage_record *rec;\n'
BOOTSTAGE_HOOK = ('\n\tif (CONFIG_IS_ENABLED(PERFREC_BOOT))\n'
                  '\t\tperfrec_boot_mark(name);\n')

# The complete list of edits to U-Boot's own files:
#   (file, why, anchor, text, how[, unless])
# how: 'before' / 'after' inserts text next to the anchor line(s);
#      'after-block' inserts it after the block the anchor line opens (the
#      first line '}' below it: a linker script's section);
#      'sorted' inserts the line in sorted order among the lines that start
#      with the anchor (before its sorted successor: a Makefile's obj- list,
#      an index), so that it does not depend on one neighbour;
#      'replace' swaps the anchor line for the text;
#      'replace-text' swaps the (multi-line) anchor text for the text;
#      'replace-in:<func>' replaces the anchor inside that function only.
# unless: a line that makes the edit unnecessary where the tree has it (an
# index that globs its pages).
EDITS = [
    ('drivers/Kconfig', 'source the perfrec Kconfig menu',
     'source "drivers/phy/Kconfig"\n', 'source "drivers/perf/Kconfig"\n\n', 'before'),
    ('drivers/Makefile', 'build drivers/perf/',
     'obj-$(CONFIG_PCI_ENDPOINT) += pci_endpoint/\n',
     'obj-$(CONFIG_PERFREC_LIB) += perf/\n', 'after'),
    ('lib/Makefile', 'build the perf.data writer (lib/perf_data.c), in U-Boot proper only',
     'obj-$(CONFIG_OPTEE_LIB) += optee/\n',
     'obj-$(CONFIG_PERF_DATA) += perf_data.o\n', 'after'),
    ('lib/Makefile', 'build the perf.data writer\'s pipe mode (lib/perf_data_pipe.c)',
     'obj-$(CONFIG_PERF_DATA) += perf_data.o\n',
     'obj-$(CONFIG_PERF_DATA) += perf_data_pipe.o\n', 'after'),
    ('lib/Makefile', 'build the perfrec library (lib/perfrec/)',
     'obj-$(CONFIG_PERF_DATA) += perf_data_pipe.o\n',
     'obj-$(CONFIG_PERFREC_LIB) += perfrec/\n', 'after'),
    ('test/lib/Makefile', 'build the perf.data writer\'s unit tests (ut lib)',
     'obj-$(CONFIG_UT_LIB_CRYPT) += test_crypt.o\n',
     'obj-$(CONFIG_UT_PERF_DATA) += perf_data.o\n', 'after'),
    ('test/lib/Makefile', 'build the perf.data writer\'s pipe-mode unit tests (ut lib)',
     'obj-$(CONFIG_UT_PERF_DATA) += perf_data.o\n',
     'obj-$(CONFIG_UT_PERF_DATA) += perf_data_pipe.o\n', 'after'),
    ('test/lib/Makefile', 'build the unit tests of perfrec\'s report engine and rate (ut lib)',
     'obj-$(CONFIG_UT_PERF_DATA) += perf_data_pipe.o\n',
     'obj-$(CONFIG_UT_PERFREC) += perfrec.o\n', 'after'),
    ('test/lib/Makefile', 'build the unit tests of perfrec\'s page tables and BCM2836 (ut lib)',
     'obj-$(CONFIG_UT_PERFREC) += perfrec.o\n',
     'obj-$(CONFIG_UT_PERFREC) += perfrec_hw.o\n', 'after'),
    ('cmd/Makefile', 'build the perfrec command',
     'obj-$(CONFIG_CMD_', 'obj-$(CONFIG_CMD_PERFREC) += perfrec.o\n', 'sorted'),
    ('cmd/Makefile', 'build the perfrec command\'s options and event lists',
     'obj-$(CONFIG_CMD_', 'obj-$(CONFIG_CMD_PERFREC) += perfrec_opts.o\n', 'sorted'),
    ('cmd/Makefile', 'build the perfrec command\'s dump and stream',
     'obj-$(CONFIG_CMD_', 'obj-$(CONFIG_CMD_PERFREC) += perfrec_dump.o\n', 'sorted'),
    ('cmd/Makefile', 'build the perfrec command\'s list, report and status',
     'obj-$(CONFIG_CMD_', 'obj-$(CONFIG_CMD_PERFREC) += perfrec_show.o\n', 'sorted'),
    ('cmd/Makefile', 'build the perfrec_test command (test builds only)',
     'obj-$(CONFIG_CMD_', 'obj-$(CONFIG_CMD_PERFREC_TEST) += perfrec_test.o\n', 'sorted'),
    ('cmd/Makefile', 'and its register-integrity workload',
     'obj-$(CONFIG_CMD_', 'obj-$(CONFIG_CMD_PERFREC_TEST) += perfrec_test_regs.o\n',
     'sorted'),
    ('doc/usage/index.rst', 'list the perfrec page (2024.04 on: the index globs cmd/*)',
     '   cmd/', '   cmd/perfrec\n', 'sorted', '   cmd/*\n'),
    ('MAINTAINERS', 'maintainer entry', 'POWER\n', MAINTAINERS_ENTRY, 'before'),
    ('doc/usage/index.rst', 'list the perfrec guide among the pages on using U-Boot',
     '   semihosting\n', '   perfrec\n', 'after'),
    ('doc/api/index.rst', 'list the page of perfrec\'s interfaces', '   ', '   perf\n',
     'sorted'),
    ('doc/develop/index.rst', 'list perfrec\'s developer page among the debugging ones',
     '   trace\n', '   perfrec\n', 'before'),
    ('common/command.c', 'declare perfrec_command_done()',
     '#include <log.h>\n', '#include <perfrec.h>\n', 'after'),
    ('common/command.c', 'let perfrec stream at command boundaries (perfrec start -S)',
     '\t\trc = cmd_call(cmdtp, flag, argc, argv, &newrep);\n',
     '\t\tif (IS_ENABLED(CONFIG_PERFREC_STREAM))\n\t\t\tperfrec_command_done();\n', 'after'),
    ('Makefile', 'frame records in every function, for perfrec -g',
     'KBUILD_CFLAGS += $(KCFLAGS)\n', FRAME_POINTERS, 'before'),
    ('Makefile', 'link with a build-id note (perf matches recordings with the ELF by it)',
     'LDFLAGS_u-boot += --build-id=none\n', BUILD_ID_LDFLAGS, 'after'),
    ('arch/arm/cpu/armv8/u-boot.lds', 'place the build-id note in the image, with bounds',
     '\t.efi_runtime_rel : {\n', BUILD_ID_LDS, 'after-block'),
    # 32-bit Arm: after the EFI runtime relocations' end marker, not between them
    ('arch/arm/cpu/u-boot.lds', 'place the build-id note in the image (32-bit, 2023.01)',
     '\t.efi_runtime_rel_stop :\n', BUILD_ID_LDS, 'after-block?'),
    ('arch/arm/cpu/u-boot.lds', 'place the build-id note in the image (32-bit)',
     '\t.efi_runtime_rel : {\n', BUILD_ID_LDS, 'after-block'),
    ('arch/arm/config.mk', 'keep the build-id note in u-boot.bin',
     'OBJCOPYFLAGS += -j .dtb.init.rodata\n', BUILD_ID_OBJCOPY, 'after'),
    ('Makefile', 'pass the kallsyms table to the linker, not to the post-link step',
     '\t\t$(PLATFORM_LIBS) -Map u-boot.map;\t\t\t\t\\\n',
     '\t\t$(PLATFORM_LIBS) $(2) -Map u-boot.map;\t\t\t\\\n', 'replace'),
    ('Makefile', 'build and link the kallsyms table when u-boot is relinked, not at every make',
     KALLSYMS_OLD, KALLSYMS_NEW, 'replace-text'),
    ('Makefile', 'build the kallsyms table from a file (a -D string is limited to 128 KiB)',
     SMAP_OLD, SMAP_NEW, 'replace-text'),
    ('common/kallsyms.c', 'include what it uses (2025.01 dropped <common.h>)',
     '/* We need the weak marking as this symbol is provided specially */\n',
     '#include <vsprintf.h>\n#include <linux/string.h>\n\n', 'before'),
    # A no-op make must relink nothing (recordings stay valid): fixes that
    # later U-Boot releases have, skipped where they are not needed
    ('Makefile', 'env.txt only when its inputs change (as 2025.01): else every make relinks',
     'include/generated/env.txt: $(wildcard $(ENV_FILE)) FORCE\n',
     'include/generated/env.txt: $(wildcard $(ENV_FILE)) include/generated/autoconf.h\n',
     'replace?'),
    ('Makefile', 'env.in only when env.txt changes (as 2025.01)',
     'include/generated/env.in: include/generated/env.txt FORCE\n',
     'include/generated/env.in: include/generated/env.txt\n', 'replace?'),
    ('Makefile', 'read the saved commands of all top-level targets (2026.04 reads only '
     '$(targets), empty there: every make relinked u-boot)',
     'existing-targets := $(wildcard $(sort $(targets)))\n',
     '# perfrec: the top-level targets with a saved command (u-boot, u-boot.lds, ...)\n'
     'targets += $(patsubst .%.cmd,%,$(wildcard .*.cmd))\n', 'before?'),
    ('lib/efi_loader/Makefile', 'keep dtbdump.o in targets (as 2025.01), or it is rebuilt',
     'always += dtbdump.efi\n', 'targets += dtbdump.o\n', 'after?'),
    ('lib/efi_loader/Makefile', 'keep initrddump.o in targets (as 2025.01), or it is rebuilt',
     'always += initrddump.efi\n', 'targets += initrddump.o\n', 'after?'),
    ('lib/efi_selftest/Makefile', 'keep the miniapps\' objects in targets, or they are rebuilt',
     'efi_selftest_miniapp_return.efi\n',
     'targets += $(foreach f,exception exit return,efi_selftest_miniapp_$(f).o)\n', 'after'),
    # The boot recording's hooks (CONFIG_PERFREC_BOOT): board_f.c lists its
    # steps in an array up to 2025.04, as INITCALL()s from 2025.07; each hook
    # has an edit for each shape, and BOOT_HOOKS checks that one of the two
    # went in
    ('common/board_f.c', 'declare the boot recording\'s hooks (board_f)', '#include <',
     '#include <perfrec.h>\n', 'sorted'),
    ('common/board_f.c', 'start the boot recording after fdtdec_setup (array)',
     '\tfdtdec_setup,\n', BOOT_HOOK_ARRAY % 'perfrec_boot_start', 'after?'),
    ('common/board_f.c', 'start the boot recording after fdtdec_setup (INITCALL)',
     '\tINITCALL(fdtdec_setup);\n', BOOT_HOOK_INITCALL % 'perfrec_boot_start', 'after?'),
    ('common/board_f.c', 'say why the boot recording did not start, after console_init_f (array)',
     '\tconsole_init_f,\t\t/* stage 1 init of console */\n',
     BOOT_HOOK_ARRAY % 'perfrec_boot_report', 'after?'),
    ('common/board_f.c', 'say why the boot recording did not start, after console_init_f '
     '(INITCALL)', '\tINITCALL(console_init_f);\t/* stage 1 init of console */\n',
     BOOT_HOOK_INITCALL % 'perfrec_boot_report', 'after?'),
    ('common/board_f.c', 'give the boot recording the relocated place, after setup_reloc (array)',
     '\tsetup_reloc,\n', BOOT_HOOK_ARRAY % 'perfrec_boot_relocating', 'after?'),
    ('common/board_f.c', 'give the boot recording the relocated place, after setup_reloc '
     '(INITCALL)', '\tINITCALL(setup_reloc);\n', BOOT_HOOK_INITCALL % 'perfrec_boot_relocating',
     'after?'),
    ('arch/arm/lib/crt0_64.S', 'mask IRQs while U-Boot\'s relocated vectors are in place',
     CRT0_ANCHOR, CRT0_MASK, 'before'),
    ('arch/arm/lib/crt0_64.S', 'put the boot recording\'s relocated vectors in, and unmask',
     CRT0_ANCHOR, CRT0_VECTORS, 'after'),
    ('common/bootstage.c', 'declare the boot recording\'s hooks (bootstage)', '#include <',
     '#include <perfrec.h>\n', 'sorted'),
    ('common/bootstage.c', 'start a boot phase of the boot recording at a bootstage mark',
     BOOTSTAGE_ANCHOR, BOOTSTAGE_ANCHOR + BOOTSTAGE_HOOK, 'replace-in:bootstage_add_record'),
    # SPL on QEMU virt, a test vehicle (configs/perfrec-spl.config)
    ('board/emulation/qemu-arm/Kconfig', 'let qemu_arm64 build SPL (a test vehicle)',
     'config BOARD_SPECIFIC_OPTIONS\n', '\tselect SUPPORT_SPL\n', 'after'),
    ('board/emulation/qemu-arm/qemu-arm.c', 'declare SPL\'s hang() (qemu-arm)', '#include <',
     '#include <hang.h>\n', 'sorted'),
    ('board/emulation/qemu-arm/qemu-arm.c', 'declare SPL\'s boot devices (qemu-arm)',
     '#include <', '#include <spl.h>\n', 'sorted'),
    ('board/emulation/qemu-arm/qemu-arm.c', 'boot SPL from the flash (up to 2025.01)',
     'void *board_fdt_blob_setup(int *err)\n', QEMU_SPL, 'before?'),
    ('board/emulation/qemu-arm/qemu-arm.c', 'boot SPL from the flash (2025.04 on)',
     'int board_fdt_blob_setup(void **fdtp)\n', QEMU_SPL, 'before?'),
    ('include/configs/qemu-arm.h', 'find u-boot.img after SPL in the flash',
     '#define CONFIG_SYS_SDRAM_BASE\t\t0x40000000\n', QEMU_SPL_BASE % 'CONFIG_SYS_UBOOT_BASE',
     'after?'),
    ('include/configs/qemu-arm.h', 'find u-boot.img after SPL in the flash (CFG_)',
     '#define CFG_SYS_SDRAM_BASE\t\t0x40000000\n', QEMU_SPL_BASE % 'CFG_SYS_UBOOT_BASE',
     'after?'),
    ('fs/semihostingfs.c', '"save hostfs" creates and truncates the host file',
     SMH_OPEN_OLD, SMH_OPEN_NEW, 'replace-in:smh_fs_write_at'),
]


class HookMissing(Exception):
    """A hook point of EDITS is not in the tree"""


def function_span(text, name):
    """Return (start, end) of the definition of C function @name in @text

    The definition starts at the beginning of a line and its parameter list
    is followed by '{': a prototype, a call or a comment naming the function
    before it is not taken for it.
    """
    match = re.search(r'^\w[^\n;]*\b%s\([^;{]*\)\s*\{' % re.escape(name), text, re.M)
    if not match:
        return None
    end = text.find('\n}\n', match.start())
    return (match.start(), end) if end > 0 else None


def apply_edit(text, edit):
    """Return @text with @edit applied (unchanged if already there)

    A @how ending in '?' marks a fix that newer trees already have: when its
    anchor is missing the edit is skipped rather than refused.
    """
    path, why, anchor, new, how = edit[:5]
    unless = edit[5] if len(edit) > 5 else None
    if unless and unless in text.splitlines(keepends=True):
        return text
    if how.endswith('?'):
        try:
            return apply_edit(text, (path, why, anchor, new, how[:-1]))
        except HookMissing:
            return text
    if how.startswith('replace-in:'):
        span = function_span(text, how.split(':', 1)[1])
        if not span:
            raise HookMissing('%s: function %s() not found (%s)' %
                              (path, how.split(':', 1)[1], why))
        body = text[span[0]:span[1]]
        if new in body:
            return text
        if anchor not in body:
            raise HookMissing('%s: line %r not found in %s (%s)' %
                              (path, anchor.strip(), how.split(':', 1)[1], why))
        body = body.replace(anchor, new, 1)
        return text[:span[0]] + body + text[span[1]:]
    if new in text:
        return text
    if how == 'replace-text':
        if anchor not in text:
            raise HookMissing('%s: text %r not found (%s)' % (path, anchor.split('\n')[0], why))
        return text.replace(anchor, new, 1)
    lines = text.splitlines(keepends=True)
    if how == 'sorted':
        after = [i for i, line in enumerate(lines) if line.startswith(anchor) and line > new]
        if not after:
            raise HookMissing('%s: no line starting %r sorts after %r (%s)' %
                              (path, anchor.strip(), new.strip(), why))
        lines.insert(min(after, key=lambda i: lines[i]), new)
        return ''.join(lines)
    if anchor not in lines:
        raise HookMissing('%s: hook line %r not found (%s)' % (path, anchor.strip(), why))
    idx = lines.index(anchor)
    if how == 'after-block':
        ends = [i for i in range(idx + 1, len(lines)) if lines[i].strip() == '}']
        if not ends:
            raise HookMissing('%s: block %r has no end (%s)' % (path, anchor.strip(), why))
        lines.insert(ends[0] + 1, '\n' + new)
        return ''.join(lines)
    if how == 'replace':
        lines[idx] = new
        return ''.join(lines)
    if how == 'after':
        idx += 1
    lines.insert(idx, new)
    return ''.join(lines)


# What earlier versions of EDITS inserted and the current one changed:
# (file, old text, current text). A tree overlaid before gets the old text
# swapped, rather than the current one inserted beside it.
SUPERSEDED = [
    ('Makefile', FRAME_POINTERS_OLD, FRAME_POINTERS),
    ('Makefile', '\t$(call cmd,smap)\n\t+$(call cmd,u-boot__,common/system_map.o)\n',
     KALLSYMS_NEW),
    ('Makefile', KALLSYMS_NEW.replace(KALLSYMS_RELINK, KALLSYMS_RELINK_OLD), KALLSYMS_NEW),
    ('common/command.c', '\t\tif (IS_ENABLED(CONFIG_CMD_PERFREC))\n\t\t\tperfrec_command_done();\n',
     '\t\tif (IS_ENABLED(CONFIG_PERFREC_STREAM))\n\t\t\tperfrec_command_done();\n'),
    ('drivers/Makefile', 'obj-$(CONFIG_PERFREC_PMUV3) += perf/\n',
     'obj-$(CONFIG_PERFREC_LIB) += perf/\n'),
    ('drivers/Makefile', 'obj-$(CONFIG_PERF_DATA) += perf/\n',
     'obj-$(CONFIG_PERFREC_LIB) += perf/\n'),
] + [('MAINTAINERS', old, MAINTAINERS_ENTRY) for old in OLD_ENTRIES]


def plan_edits(tree):
    """Return {path: new text} for every file EDITS changes; raise if a hook is missing"""
    texts = {}
    for edit in EDITS + perfrec_overlay_lds.edits(tree):
        path = edit[0]
        if path not in texts:
            full = os.path.join(tree, path)
            if not os.path.exists(full):
                raise HookMissing('%s: file not found (%s)' % (path, edit[1]))
            with open(full, encoding='utf-8') as inf:
                texts[path] = inf.read()
            for spath, old, new in SUPERSEDED:
                if spath == path and old in texts[path] and new not in texts[path]:
                    texts[path] = texts[path].replace(old, new, 1)
        texts[path] = apply_edit(texts[path], edit)
    for path, func in BOOT_HOOKS:
        if func + ',' not in texts[path] and 'INITCALL(%s);' % func not in texts[path]:
            raise HookMissing('%s: no hook line for %s() in either shape' % (path, func))
    for path, line in QEMU_SPL_HOOKS:
        if line not in texts[path]:
            raise HookMissing('%s: %r went in in neither shape' % (path, line.strip()))
    return texts


def project_files():
    """Return the project-relative paths of every file the overlay copies"""
    rels = []
    for rel in DIRS:
        for root, dirs, names in os.walk(os.path.join(TOP, rel)):
            dirs[:] = [d for d in dirs if d not in ('node_modules', '__pycache__')]  # npm's
            rels += [os.path.relpath(os.path.join(root, name), TOP) for name in names
                     if not name.endswith('.pyc')]
    return sorted(rels + FILES)


def plan_copies(tree):
    """Return [(src, dst)] for project files whose tree copy is missing or differs"""
    pairs = [(os.path.join(TOP, rel), os.path.join(tree, rel)) for rel in project_files()]
    return [(s, d) for s, d in pairs
            if not os.path.exists(d) or not filecmp.cmp(s, d, shallow=False)]


def plan_removals(tree):
    """Return the tree paths of STALE files still present"""
    return [os.path.join(tree, rel) for rel in STALE if os.path.exists(os.path.join(tree, rel))]


def check_new_files(tree, copies):
    """Refuse to overwrite a tree file of U-Boot's own that perfrec also ships"""
    for src, dst in copies:
        rel = os.path.relpath(dst, tree)
        if os.path.exists(dst) and 'perfrec' not in rel and 'perf_data' not in rel \
                and not rel.startswith(('drivers/perf/', 'lib/perfrec/')):
            with open(dst, encoding='utf-8', errors='replace') as inf:
                if 'perfrec' not in inf.read():
                    raise HookMissing('%s: exists in the tree and is not perfrec\'s' % rel)


def main(argv=None):
    """Overlay and return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--check', action='store_true', help='only report, write nothing')
    parser.add_argument('--list', action='store_true',
                        help='print the project files it copies (for make), nothing else')
    parser.add_argument('tree', nargs='?', help='U-Boot source tree to overlay')
    args = parser.parse_args(argv)

    if args.list:
        print('\n'.join(project_files()))
        return 0
    if not args.tree:
        parser.error('the U-Boot tree is required')

    if not os.path.exists(os.path.join(args.tree, 'Kbuild')):
        print('perfrec_overlay: %s is not a U-Boot source tree' % args.tree, file=sys.stderr)
        return 1
    try:
        texts = plan_edits(args.tree)
        copies = plan_copies(args.tree)
        check_new_files(args.tree, copies)
        removals = plan_removals(args.tree)
    except HookMissing as exc:
        print('perfrec_overlay: cannot apply to %s: %s; nothing was changed. This U-Boot '
              'moved that place: give the edit a hook this tree has in EDITS '
              '(scripts/perfrec_overlay.py), or report the U-Boot version' %
              (args.tree, exc), file=sys.stderr)
        return 1

    changed = []
    for path, text in texts.items():
        full = os.path.join(args.tree, path)
        with open(full, encoding='utf-8') as inf:
            if inf.read() != text:
                changed.append(path)
                if not args.check:
                    with open(full, 'w', encoding='utf-8') as outf:
                        outf.write(text)
    for src, dst in copies:
        changed.append(os.path.relpath(dst, args.tree))
        if not args.check:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            shutil.copymode(src, dst)
    for path in removals:
        changed.append(os.path.relpath(path, args.tree))
        if not args.check:
            os.remove(path)
    if changed:
        print('perfrec_overlay: %s %d file(s) in %s' %
              ('would change' if args.check else 'updated', len(changed), args.tree))
    return 1 if (args.check and changed) else 0


if __name__ == '__main__':
    sys.exit(main())
