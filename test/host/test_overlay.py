# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of scripts/perfrec_overlay.py, which overlays perfrec onto U-Boot

"""Host tests of scripts/perfrec_overlay.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_overlay.py

No U-Boot tree is needed: every edit of the EDITS table is applied to a
small synthetic text holding its hook, and main() runs on synthetic trees
made of such texts (synthetic_tree(), also used by test_series.py). The
edit modes are checked on texts shaped like U-Boot's (cmd/Makefile with an
ifdef block, the armv8 linker script, doc/usage/index.rst), main()'s
refusals on trees that miss a file or a hook, hashing every file before and
after to prove that nothing changed.
"""

import filecmp
import hashlib
import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_overlay as OV  # noqa: E402  # pylint: disable=import-error

HEAD = '# U-Boot text before the hook\n'
TAIL = '# U-Boot text after the hook\n'

# cmd/Makefile as U-Boot has it around perfrec's place: the alphabetical
# predecessor of CMD_PERFREC (CMD_PCI_MPS) is inside an ifdef block
CMD_MAKEFILE = '''obj-$(CONFIG_CMD_PART) += part.o
obj-$(CONFIG_CMD_PCAP) += pcap.o
ifdef CONFIG_PCI
obj-$(CONFIG_CMD_PCI) += pci.o
obj-$(CONFIG_CMD_PCI_MPS) += pci_mps.o
endif
obj-$(CONFIG_CMD_PINMUX) += pinmux.o
obj-$(CONFIG_CMD_PMC) += pmc.o
'''

PERFREC_CMD_LINES = ('obj-$(CONFIG_CMD_PERFREC) += perfrec.o\n'
                     'obj-$(CONFIG_CMD_PERFREC) += perfrec_dump.o\n'
                     'obj-$(CONFIG_CMD_PERFREC) += perfrec_opts.o\n'
                     'obj-$(CONFIG_CMD_PERFREC) += perfrec_show.o\n'
                     'obj-$(CONFIG_CMD_PERFREC_TEST) += perfrec_test.o\n'
                     'obj-$(CONFIG_CMD_PERFREC_TEST) += perfrec_test_regs.o\n')

# The end of arch/arm/cpu/armv8/u-boot.lds's image (as in Debian bookworm's and trixie's)
LDS = ('\t.efi_runtime : {\n'
       '\t\t__efi_runtime_start = .;\n'
       '\t\t*(.text.efi_runtime*)\n'
       '\t\t__efi_runtime_stop = .;\n'
       '\t}\n'
       '\n'
       '\t.efi_runtime_rel : {\n'
       '                __efi_runtime_rel_start = .;\n'
       '\t\t*(.rel*.efi_runtime)\n'
       '\t\t*(.rel*.efi_runtime.*)\n'
       '                __efi_runtime_rel_stop = .;\n'
       '\t}\n'
       '\n'
       '\t. = ALIGN(8);\n'
       '\t__image_copy_end = .;\n')

USAGE_INDEX = '''Use U-Boot
==========

.. toctree::
   :maxdepth: 1

   cmdline
   semihosting

Shell commands
--------------

.. toctree::
   :maxdepth: 1

%s   cmd/pause
   cmd/pinmux
   cmd/printenv
'''


def edits_of(path):
    """Return the EDITS entries for file @path, in table order"""
    return [edit for edit in OV.EDITS if edit[0] == path]


def apply_all(text, edits):
    """Return @text with every edit of @edits applied in turn"""
    for edit in edits:
        text = OV.apply_edit(text, edit)
    return text


def fragment(edit):
    """Return (text holding the hook of @edit, that text with the edit applied)

    A 'sorted' hook gets a line that sorts before the new line and one that
    sorts after it; a 'replace-in' hook sits in its function, after another
    function holding the same line (which must stay as it is).
    """
    anchor, new, how = edit[2], edit[3], edit[4].rstrip('?')
    if how == 'sorted':
        pred, succ = anchor + '!\n', anchor + '~\n'
        return pred + succ, pred + new + succ
    if how == 'after-block':
        block = anchor + '\t\t*(.rel*.efi_runtime)\n\t}\n'
        return HEAD + block + TAIL, HEAD + block + '\n' + new + TAIL
    if how.startswith('replace-in:'):
        decoy = 'static int decoy(void)\n{\n' + anchor + '\treturn 0;\n}\n\n'
        func = 'static int ' + how.split(':', 1)[1] + '(int pos)\n{\n%s\treturn 0;\n}\n'
        return decoy + func % anchor, decoy + func % new
    if how in ('replace', 'replace-text'):
        return HEAD + anchor + TAIL, HEAD + new + TAIL
    if how == 'before':
        return HEAD + anchor + TAIL, HEAD + new + anchor + TAIL
    assert how == 'after', how
    return HEAD + anchor + TAIL, HEAD + anchor + new + TAIL


def made_by_earlier(edit):
    """Return True if the hook line of @edit is one an earlier edit of its file adds

    (A 'sorted' edit's anchor is only the start of the lines it sorts among.)
    """
    earlier = OV.EDITS[:OV.EDITS.index(edit)]
    return edit[4] != 'sorted' and any(other[0] == edit[0] and edit[2] in other[3]
                                       for other in earlier)


def synthetic_tree(tree, omit=None):
    """Write a tree holding every hook of EDITS (and Kbuild); return it

    Args:
        tree (pathlib.Path): where to write it
        omit (tuple): an EDITS entry whose hook is left out, or None

    Returns:
        pathlib.Path: @tree
    """
    texts = {}
    for edit in OV.EDITS:
        parts = texts.setdefault(edit[0], [])
        hook = fragment(edit)[0]
        if made_by_earlier(edit) or hook in parts:
            continue
        if omit and omit[0] == edit[0] and hook == fragment(omit)[0]:
            continue
        parts.append(hook)
    for path, parts in texts.items():
        full = tree / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text('\n'.join(parts), encoding='utf-8')
    (tree / 'Kbuild').write_text('# Kbuild\n', encoding='utf-8')
    return tree


def hashes(tree):
    """Return {relative path: sha256} of every file under @tree"""
    out = {}
    for root, _, names in os.walk(tree):
        for name in names:
            full = os.path.join(root, name)
            with open(full, 'rb') as inf:
                out[os.path.relpath(full, tree)] = hashlib.sha256(inf.read()).hexdigest()
    return out


def test_sorted_outside_ifdef():
    """The perfrec lines go before their sorted successor, outside the ifdef

    CMD_PCI_MPS, the predecessor, is inside 'ifdef CONFIG_PCI': inserting
    after it would build perfrec only with PCI.
    """
    edits = edits_of('cmd/Makefile')
    assert [edit[4] for edit in edits] == ['sorted'] * 6
    text = apply_all(CMD_MAKEFILE, edits)
    assert text == CMD_MAKEFILE.replace('endif\n', 'endif\n' + PERFREC_CMD_LINES)
    lines = text.splitlines()
    first = lines.index('obj-$(CONFIG_CMD_PERFREC) += perfrec.o')
    assert lines[first - 1] == 'endif'
    assert lines[first + 6] == 'obj-$(CONFIG_CMD_PINMUX) += pinmux.o'


def test_sorted_in_any_order():
    """Applying the cmd/Makefile edits in any order gives the same sorted lines"""
    edits = edits_of('cmd/Makefile')
    want = apply_all(CMD_MAKEFILE, edits)
    assert apply_all(CMD_MAKEFILE, edits[::-1]) == want
    assert apply_all(CMD_MAKEFILE, edits[1:] + edits[:1]) == want


def test_sorted_idempotent():
    """Applying the sorted edits to their own result changes nothing"""
    edits = edits_of('cmd/Makefile')
    once = apply_all(CMD_MAKEFILE, edits)
    assert apply_all(once, edits) == once
    assert once.count('perfrec') == 6


def test_sorted_successor_not_first_greater():
    """In an unsorted list the line goes before its sorted successor

    The first line sorting after the new one (CMD_ZFS, out of place at the
    top) is not its successor: CMD_PINMUX is.
    """
    edit = edits_of('cmd/Makefile')[0]
    text = 'obj-$(CONFIG_CMD_ZFS) += zfs.o\n' + CMD_MAKEFILE
    assert OV.apply_edit(text, edit) == text.replace(
        'obj-$(CONFIG_CMD_PINMUX)', edit[3] + 'obj-$(CONFIG_CMD_PINMUX)')


def test_sorted_no_successor():
    """A list with nothing sorting after the new line is a missing hook"""
    edit = edits_of('cmd/Makefile')[0]
    with pytest.raises(OV.HookMissing, match=r'^cmd/Makefile: no line starting'):
        OV.apply_edit('obj-$(CONFIG_CMD_PART) += part.o\n', edit)


def test_after_block():
    """The build-id section goes after the .efi_runtime_rel block, not in it"""
    (edit,) = edits_of('arch/arm/cpu/armv8/u-boot.lds')
    assert edit[4] == 'after-block'
    text = OV.apply_edit(LDS, edit)
    rel_end = LDS.index('__efi_runtime_rel_stop = .;\n\t}\n') + len(
        '__efi_runtime_rel_stop = .;\n\t}\n')
    assert text == LDS[:rel_end] + '\n' + OV.BUILD_ID_LDS + LDS[rel_end:]
    assert OV.apply_edit(text, edit) == text


def test_after_block_missing():
    """A linker script without the block refuses, naming the file"""
    (edit,) = edits_of('arch/arm/cpu/armv8/u-boot.lds')
    text = LDS.replace('\t.efi_runtime_rel : {\n', '\t.efi_rel : {\n')
    with pytest.raises(OV.HookMissing, match=r'^arch/arm/cpu/armv8/u-boot\.lds: hook line'):
        OV.apply_edit(text, edit)
    with pytest.raises(OV.HookMissing, match=r'^arch/arm/cpu/armv8/u-boot\.lds: block'):
        OV.apply_edit('\t.efi_runtime_rel : {\n\t\t*(.rel*)\n', edit)


def test_unless_glob():
    """An index that globs cmd/* is left as it is"""
    edit = edits_of('doc/usage/index.rst')[0]
    assert edit[5] == '   cmd/*\n'
    text = USAGE_INDEX % '   :glob:\n\n   cmd/*\n'
    assert OV.apply_edit(text, edit) == text


def test_unless_absent():
    """An index that lists its pages gets cmd/perfrec before cmd/pinmux"""
    edit = edits_of('doc/usage/index.rst')[0]
    text = USAGE_INDEX % ''
    new = OV.apply_edit(text, edit)
    assert new == text.replace('   cmd/pinmux\n', '   cmd/perfrec\n   cmd/pinmux\n')
    assert OV.apply_edit(new, edit) == new


def test_guide_listed():
    """The guide goes after semihosting among the pages on using U-Boot,
    once"""
    edit = edits_of('doc/usage/index.rst')[1]
    text = USAGE_INDEX % ''
    new = OV.apply_edit(text, edit)
    assert new == text.replace('   semihosting\n', '   semihosting\n   perfrec\n')
    assert OV.apply_edit(new, edit) == new


@pytest.mark.parametrize('edit', [e for e in OV.EDITS if e[4].endswith('?')],
                         ids=lambda e: e[2].strip()[:30])
def test_optional_edits(edit):
    """A '?' edit is skipped when its hook is missing, applied when present"""
    assert OV.apply_edit(HEAD + TAIL, edit) == HEAD + TAIL
    text, want = fragment(edit)
    assert OV.apply_edit(text, edit) == want
    strict = edit[:4] + (edit[4][:-1],)
    with pytest.raises(OV.HookMissing):
        OV.apply_edit(HEAD + TAIL, strict)


@pytest.mark.parametrize('edit', OV.EDITS, ids=[f'{i}-{e[0]}' for i, e in enumerate(OV.EDITS)])
def test_each_edit(edit):
    """Every edit of the table applies to a text with its hook, exactly once"""
    text, want = fragment(edit)
    new = OV.apply_edit(text, edit)
    assert new == want
    assert OV.apply_edit(new, edit) == new
    if not edit[4].endswith('?'):
        with pytest.raises(OV.HookMissing, match='^' + edit[0] + ': '):
            OV.apply_edit(HEAD + TAIL, edit)


def test_replace_in_other_function():
    """'replace-in' leaves the line alone in every other function"""
    (edit,) = edits_of('fs/semihostingfs.c')
    text = 'static int decoy(void)\n{\n' + edit[2] + '}\n'
    with pytest.raises(OV.HookMissing, match='function smh_fs_write_at'):
        OV.apply_edit(text, edit)


def test_replace_in_prototype_first():
    """'replace-in' finds the definition after a prototype of the function"""
    (edit,) = edits_of('fs/semihostingfs.c')
    text, want = fragment(edit)
    proto = 'static int smh_fs_write_at(int pos);\n\n'
    assert OV.apply_edit(proto + text, edit) == proto + want


def test_plan_edits(tmp_path):
    """plan_edits() gives every file of EDITS with all its edits applied"""
    tree = synthetic_tree(tmp_path)
    texts = OV.plan_edits(str(tree))
    assert sorted(texts) == sorted({edit[0] for edit in OV.EDITS})
    for edit in OV.EDITS:
        assert OV.apply_edit(texts[edit[0]], edit) == texts[edit[0]]
        assert edit[3] in texts[edit[0]]


def test_plan_edits_superseded(tmp_path):
    """An edit an earlier overlay made in its old form is updated, not doubled"""
    tree = synthetic_tree(tmp_path)
    drivers = tree / 'drivers/Makefile'
    old = OV.apply_edit(drivers.read_text(encoding='utf-8'), edits_of('drivers/Makefile')[0])
    drivers.write_text(old.replace('CONFIG_PERF_DATA', 'CONFIG_PERFREC_PMUV3'),
                       encoding='utf-8')
    text = OV.plan_edits(str(tree))['drivers/Makefile']
    assert text == old
    assert 'PERFREC_PMUV3' not in text


def test_main_applies(tmp_path, capsys):
    """main() edits, copies and removes; a second run and --check find nothing to do"""
    tree = synthetic_tree(tmp_path)
    stale = tree / OV.STALE[0]
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_text('old\n', encoding='utf-8')
    assert OV.main(['--check', str(tree)]) == 1
    assert OV.main([str(tree)]) == 0
    assert 'updated' in capsys.readouterr().out
    assert not stale.exists()
    for edit in OV.EDITS:
        assert edit[3] in (tree / edit[0]).read_text(encoding='utf-8')
    for rel in OV.project_files():
        assert filecmp.cmp(os.path.join(REPO, rel), tree / rel, shallow=False), rel
    before = hashes(tree)
    assert OV.main(['--check', str(tree)]) == 0
    assert OV.main([str(tree)]) == 0
    assert capsys.readouterr().out == ''
    assert hashes(tree) == before


def refuse(tree, capsys):
    """Run main() on @tree, which it must refuse; return its one line of stderr"""
    before = hashes(tree)
    assert OV.main([str(tree)]) == 1
    out, err = capsys.readouterr()
    assert out == ''
    assert len(err.splitlines()) == 1
    assert 'nothing was changed' in err
    assert hashes(tree) == before
    return err


@pytest.mark.parametrize('missing', sorted({edit[0] for edit in OV.EDITS}))
def test_main_missing_file(tmp_path, capsys, missing):
    """A tree without a file EDITS changes is refused and left untouched"""
    tree = synthetic_tree(tmp_path)
    (tree / missing).unlink()
    err = refuse(tree, capsys)
    assert f'{missing}: file not found' in err


def has_other_form(edit):
    """True if an optional ('?') edit of @edit's file inserts the same text at
    another hook: the form an older tree has (test_main_missing_both_forms)"""
    return any(other is not edit and other[0] == edit[0] and other[3] == edit[3] and
               other[4].endswith('?') for other in OV.EDITS)


@pytest.mark.parametrize('edit', [e for e in OV.EDITS
                                  if not e[4].endswith('?') and not made_by_earlier(e) and
                                  not has_other_form(e)],
                         ids=lambda e: e[0] + ':' + e[1][:20])
def test_main_missing_hook(tmp_path, capsys, edit):
    """A tree without a hook point is refused, naming its file and reason"""
    tree = synthetic_tree(tmp_path, omit=edit)
    err = refuse(tree, capsys)
    first = [e for e in OV.EDITS if e[0] == edit[0] and fragment(e)[0] == fragment(edit)[0]]
    assert f': {edit[0]}: ' in err
    assert f'({first[0][1]})' in err


@pytest.mark.parametrize('edit', [e for e in OV.EDITS
                                  if not e[4].endswith('?') and has_other_form(e)],
                         ids=lambda e: e[0] + ':' + e[1][:20])
def test_main_missing_both_forms(tmp_path, capsys, edit):
    """A tree with neither form of a hook (an older tree's, optional, nor the
    newer one's) is refused, naming the newer one"""
    tree = synthetic_tree(tmp_path, omit=edit)
    for other in OV.EDITS:
        if other[0] == edit[0] and other[3] == edit[3] and other[4].endswith('?'):
            path = tree / edit[0]
            path.write_text(path.read_text(encoding='utf-8').replace(fragment(other)[0], ''),
                            encoding='utf-8')
    err = refuse(tree, capsys)
    assert f': {edit[0]}: ' in err and f'({edit[1]})' in err


def test_main_foreign_file(tmp_path, capsys):
    """A file of U-Boot's own at the path of a project file is not overwritten"""
    tree = synthetic_tree(tmp_path)
    (tree / 'doc/api/perf.rst').write_text('U-Boot\'s own page\n', encoding='utf-8')
    err = refuse(tree, capsys)
    assert 'doc/api/perf.rst: exists in the tree and is not perfrec\'s' in err


def test_main_not_uboot(tmp_path, capsys):
    """A directory without Kbuild is not taken for a U-Boot tree"""
    (tmp_path / 'Makefile').write_text('all:\n', encoding='utf-8')
    assert OV.main([str(tmp_path)]) == 1
    assert 'is not a U-Boot source tree' in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ['Makefile']


def test_main_list(capsys):
    """--list prints the project files it copies, every one present"""
    assert OV.main(['--list']) == 0
    rels = capsys.readouterr().out.splitlines()
    assert rels == sorted(rels)
    assert set(OV.FILES) | {'cmd/perfrec.c', 'drivers/perf/Kconfig'} <= set(rels)
    for rel in rels:
        assert os.path.isfile(os.path.join(REPO, rel)), rel
        assert '__pycache__' not in rel and 'node_modules' not in rel
