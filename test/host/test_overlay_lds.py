# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Host tests of scripts/perfrec_overlay_lds.py: the build-id note in boards' own scripts.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_overlay_lds.py

Synthetic trees of linker scripts shaped like U-Boot's: Zynq's (after the
EFI runtime relocations), VSCOM Baltos' in 2023.01 (no EFI block: before
the end of the copy), a PowerPC board's and a TPL script (left alone), and
Arm's common script (EDITS' own).
"""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))
# pylint: disable=wrong-import-position,import-error
import perfrec_overlay as OV  # noqa: E402
import perfrec_overlay_lds as OL  # noqa: E402


def lds_tree(tmp_path, scripts):
    """A tree of linker scripts: {path: text}"""
    for rel, text in scripts.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path)


ZYNQ = ('OUTPUT_ARCH(arm)\nSECTIONS\n{\n\t.efi_runtime_rel : {\n\t\t*(.rel*.efi_runtime)\n'
        '\t}\n\n\t. = ALIGN(8);\n\t__image_copy_end = .;\n}\n')
BALTOS = ('OUTPUT_ARCH(arm)\nSECTIONS\n{\n\t.data : { *(.data*) }\n\n\t.image_copy_end :\n'
          '\t{\n\t\t*(.__image_copy_end)\n\t}\n}\n')


def test_board_scripts_get_the_note(tmp_path):
    """Arm boards' own scripts get the block, at the right place; others none; twice: once"""
    tree = lds_tree(tmp_path, {
        'arch/arm/mach-zynq/u-boot.lds': ZYNQ,
        'board/vscom/baltos/u-boot.lds': BALTOS,
        'board/cssi/mcr3000/u-boot.lds': BALTOS.replace('OUTPUT_ARCH(arm)',
                                                        'OUTPUT_ARCH(powerpc)'),
        'arch/arm/mach-rockchip/u-boot-tpl-v8.lds': ZYNQ,
        'arch/arm/cpu/armv8/u-boot.lds': ZYNQ})
    edits = OL.edits(tree)
    assert [e[0] for e in edits] == ['arch/arm/mach-zynq/u-boot.lds',
                                     'board/vscom/baltos/u-boot.lds']
    zynq = OV.apply_edit(ZYNQ, edits[0])
    assert zynq.index(OL.BLOCK) > zynq.index('*(.rel*.efi_runtime)') and \
        zynq.index(OL.BLOCK) < zynq.index('__image_copy_end = .;')
    baltos = OV.apply_edit(BALTOS, edits[1])
    assert baltos.index(OL.BLOCK) < baltos.index('.image_copy_end :')
    assert OV.apply_edit(baltos, edits[1]) == baltos
