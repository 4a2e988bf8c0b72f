# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""The build-id note's place in the linker scripts of boards that have their own

perfrec finds the build-id note in the image by two symbols a linker script
sets around it. EDITS (perfrec_overlay.py) puts them into Arm's two common
scripts; a board may link with its own (CONFIG_SYS_LDSCRIPT, or
board/<vendor>/<board>/u-boot.lds): Zynq's, in 2023.01 the AM335x's, the
DragonBoard 820c's, in 2026 R-Car's RSIP one. Rather than one edit per board,
which the next release's new script would escape, every such script of the
tree gets the same block at the same kind of place: after the EFI runtime
relocations (their end marker where there is one, as 2023.01's 32-bit script
has), or else just before the end of what relocation copies.
"""

import os
import re

# The block: the note, within the image, between its bounds
BLOCK = ('\t/* perfrec: the build-id note, within the image, found by its bounds */\n'
         '\t.note.gnu.build-id : {\n'
         '\t\t__perfrec_build_id_start = .;\n'
         '\t\tKEEP(*(.note.gnu.build-id))\n'
         '\t\t__perfrec_build_id_end = .;\n'
         '\t}\n\n'
         '\t. = ALIGN(8);\n')

# Why, as the overlay's and the series' tables name the edit
WHY = 'place the build-id note in the image (a board\'s own Arm linker script)'

# Where the note goes, best first: (anchor line, how)
ANCHORS = [('\t.efi_runtime_rel_stop :\n', 'after-block'),
           ('\t.efi_runtime_rel : {\n', 'after-block'),
           ('\t.image_copy_end :\n', 'before'),
           ('\t__image_copy_end = .;\n', 'before')]

# The scripts Arm's common edits already cover
COMMON = ('arch/arm/cpu/u-boot.lds', 'arch/arm/cpu/armv8/u-boot.lds')

# U-Boot proper's script, not SPL's or TPL's, for 32-bit Arm or AArch64
ARM_ARCH = re.compile(r'^OUTPUT_ARCH\((arm|aarch64)\)', re.M)


def candidates(tree):
    """Return the tree's own linker scripts of U-Boot proper on Arm, sorted"""
    found = []
    for top in ('arch/arm', 'board'):
        for root, _, names in os.walk(os.path.join(tree, top)):
            for name in names:
                if (not name.startswith('u-boot') or not name.endswith('.lds') or
                        'spl' in name or 'tpl' in name):
                    continue
                rel = os.path.relpath(os.path.join(root, name), tree)
                if rel not in COMMON:
                    found.append(rel)
    return sorted(found)


def edits(tree):
    """Return the overlay edits that put BLOCK into each board's own Arm script

    A script that is not Arm's, or has no place for the note (it copies
    nothing at relocation), gets none: it cannot link U-Boot proper with
    perfrec anyway, and says so at link time by the missing symbol.
    """
    out = []
    for rel in candidates(tree):
        with open(os.path.join(tree, rel), encoding='utf-8') as inf:
            text = inf.read()
        if not ARM_ARCH.search(text):
            continue
        lines = text.splitlines(keepends=True)
        for anchor, how in ANCHORS:
            if anchor in lines:
                out.append((rel, WHY, anchor, BLOCK, how))
                break
    return out
