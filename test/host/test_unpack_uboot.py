# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of scripts/perfrec_unpack_uboot.py, which unpacks a tarball of a U-Boot tree

"""Host tests of scripts/perfrec_unpack_uboot.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_unpack_uboot.py

Each test builds a small tarball in tmp_path (a tree with the files that make
it U-Boot's, and whatever makes it bad) and runs the script as make does.
A good tarball is unpacked once, with its stamp; a new sha256 under the same
name is unpacked again. Every bad one ends with one line on stderr naming
the file and the reason, exit 1, and nothing at --dest or beside it.
"""

import io
import os
import pathlib
import re
import subprocess
import tarfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, 'scripts', 'perfrec_unpack_uboot.py')
STAMP = '.perfrec-uboot-tarball'
TOP = 'u-boot-2026.07'
TREE = {
    'Makefile': 'VERSION = 2026\nPATCHLEVEL = 07\nSUBLEVEL =\nEXTRAVERSION =\n',
    'common/board_f.c': '/* board_f */\n',
    'arch/arm/cpu/armv8/start.S': '/* start */\n',
    'README': 'U-Boot\n',
}


def add_file(tar, name, data):
    """Add a regular file @name holding @data"""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data.encode()))


def add_special(tar, name, kind, linkname=''):
    """Add a member of another type (link, device, FIFO, folder)"""
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    tar.addfile(info)


def make_tarball(path, tree=None, top=TOP, extra=None, mode='w:xz'):
    """Write a tarball of @tree under folder @top, plus @extra(tar) members"""
    tree = TREE if tree is None else tree
    with tarfile.open(path, mode) as tar:
        add_special(tar, top, tarfile.DIRTYPE)
        for name, data in tree.items():
            add_file(tar, f'{top}/{name}', data)
        if extra:
            extra(tar)
    return str(path)


def run(tarball, dest):
    """Run the script as make does; return (exit code, stdout, stderr)"""
    res = subprocess.run(['/usr/bin/python3', SCRIPT, tarball, '--dest', str(dest)],
                         capture_output=True, text=True, check=False)
    return res.returncode, res.stdout, res.stderr


def listing(folder):
    """Every path below @folder, with file contents"""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            out[rel] = pathlib.Path(path).read_bytes() if os.path.isfile(path) else None
    return out


@pytest.mark.parametrize('mode, suffix', [('w:xz', '.tar.xz'), ('w:gz', '.tar.gz')])
def test_unpack_once(tmp_path, mode, suffix):
    """Unpacked with the stamp written last; again: nothing unpacked, the stamp
    touched; a new sha256: unpacked again"""
    src = tmp_path / 'shared'
    src.mkdir()
    tarball = make_tarball(src / (TOP + suffix), mode=mode)
    dest = tmp_path / 'build' / 'uboot' / TOP
    ret, out, err = run(tarball, dest)
    assert ret == 0 and not err, err
    assert f'unpacked {TOP}{suffix}' in out
    got = listing(dest)
    for name, data in TREE.items():
        assert got[name] == data.encode()
    stamp = (dest / STAMP).read_text()
    assert stamp.startswith(f'{TOP}{suffix} sha256 ') and len(stamp.split()[2]) == 64
    assert sorted(os.listdir(src)) == [TOP + suffix]          # nothing beside it
    assert sorted(os.listdir(dest.parent)) == [TOP]           # no work folder left

    # The same bytes copied again (newer than the stamp, so make runs the
    # script): nothing unpacked, and the stamp touched, newer than the file
    (dest / 'README').write_text('changed by a build\n')
    earlier = os.stat(tarball).st_mtime - 100
    os.utime(dest / STAMP, (earlier, earlier))
    ret, out, err = run(tarball, dest)
    assert ret == 0 and not out and not err
    assert os.stat(dest / STAMP).st_mtime >= os.stat(tarball).st_mtime
    assert (dest / 'README').read_text() == 'changed by a build\n'

    newer = dict(TREE, README='U-Boot, newer\n')
    make_tarball(src / (TOP + suffix), tree=newer, mode=mode)
    ret, out, err = run(tarball, dest)
    assert ret == 0 and 'unpacked' in out, err
    assert (dest / 'README').read_text() == 'U-Boot, newer\n'
    assert (dest / STAMP).read_text() != stamp


def truncated(path):
    """Cut the file to half its length"""
    data = pathlib.Path(path).read_bytes()
    pathlib.Path(path).write_bytes(data[:len(data) // 2])


def corrupted(path):
    """Flip bytes in the middle of the compressed stream"""
    data = bytearray(pathlib.Path(path).read_bytes())
    for i in range(len(data) // 2, len(data) // 2 + 16):
        data[i] ^= 0x5a
    pathlib.Path(path).write_bytes(bytes(data))


BAD = [
    ('truncated', None, truncated, r'truncated or corrupt archive \(.+\)'),
    ('corrupt', None, corrupted, r'truncated or corrupt archive \(.+\)'),
    ('two tops', lambda tar: add_file(tar, 'other/file', 'x'), None,
     r"more than one top-level folder \('u-boot-2026.07' and 'other'\)"),
    ('no Makefile', None, None, r'not a U-Boot tree: no Makefile'),
    ('no VERSION', None, None, r'not a U-Boot tree: its Makefile has no VERSION'),
    ('no board_f.c', None, None, r'not a U-Boot tree: no common/board_f.c'),
    ('no start.S', None, None, r'not a U-Boot tree: no arch/arm/cpu/armv8/start.S'),
    ('absolute', lambda tar: add_file(tar, '/tmp/perfrec-evil', 'x'), None,
     r"member '/tmp/perfrec-evil' has an absolute path"),
    ('dotdot', lambda tar: add_file(tar, f'{TOP}/../evil', 'x'), None,
     r"member 'u-boot-2026.07/../evil' has a '..' in its path"),
    ('symlink out', lambda tar: add_special(tar, f'{TOP}/lib/out', tarfile.SYMTYPE,
                                            '../../etc/passwd'), None,
     r"link 'u-boot-2026.07/lib/out' leads out of the tree \(../../etc/passwd\)"),
    ('absolute symlink', lambda tar: add_special(tar, f'{TOP}/abs', tarfile.SYMTYPE,
                                                 '/etc/passwd'), None,
     r"link 'u-boot-2026.07/abs' leads out of the tree \(/etc/passwd\)"),
    ('hard link out', lambda tar: add_special(tar, f'{TOP}/hard', tarfile.LNKTYPE,
                                              'elsewhere/file'), None,
     r"link 'u-boot-2026.07/hard' leads out of the tree \(elsewhere/file\)"),
    ('device', lambda tar: add_special(tar, f'{TOP}/dev', tarfile.CHRTYPE), None,
     r"member 'u-boot-2026.07/dev' is a device file or FIFO"),
    ('fifo', lambda tar: add_special(tar, f'{TOP}/fifo', tarfile.FIFOTYPE), None,
     r"member 'u-boot-2026.07/fifo' is a device file or FIFO"),
]


@pytest.mark.parametrize('case, extra, damage, why', BAD, ids=[b[0] for b in BAD])
def test_unpack_refused(tmp_path, case, extra, damage, why):
    """One line naming the file and the reason, exit 1, nothing unpacked"""
    tree = dict(TREE)
    if case == 'no Makefile':
        del tree['Makefile']
    elif case == 'no VERSION':
        tree['Makefile'] = 'PATCHLEVEL = 07\n'
    elif case == 'no board_f.c':
        del tree['common/board_f.c']
    elif case == 'no start.S':
        del tree['arch/arm/cpu/armv8/start.S']
    src = tmp_path / 'shared'
    src.mkdir()
    tarball = make_tarball(src / f'{TOP}.tar.xz', tree=tree, extra=extra)
    if damage:
        damage(tarball)
    dest = tmp_path / 'build' / 'uboot' / TOP
    ret, out, err = run(tarball, dest)
    lines = err.splitlines()
    assert ret == 1 and not out and len(lines) == 1, (out, err)
    assert lines[0].startswith(f'perfrec: {tarball}: ')
    assert re.fullmatch(why, lines[0][len(f'perfrec: {tarball}: '):]), lines[0]
    assert not dest.exists() and not os.path.exists(str(dest) + '.unpacking')
    assert not dest.parent.exists() or os.listdir(dest.parent) == []
    assert sorted(os.listdir(src)) == [f'{TOP}.tar.xz']
    assert not os.path.exists('/tmp/perfrec-evil')


def test_unpack_bad_replaces_good(tmp_path):
    """A good tree, then a bad tarball of the same name: no tree left for make to take"""
    tarball = make_tarball(tmp_path / f'{TOP}.tar.xz')
    dest = tmp_path / 'uboot' / TOP
    assert run(tarball, dest)[0] == 0
    make_tarball(tmp_path / f'{TOP}.tar.xz',
                 extra=lambda tar: add_special(tar, f'{TOP}/dev', tarfile.BLKTYPE))
    ret, _, err = run(tarball, dest)
    assert ret == 1 and 'device file' in err
    assert not dest.exists()


def test_unpack_not_a_tarball(tmp_path):
    """A name without .tar.xz/.tar.gz, and a missing file: one line each"""
    for path, why in ((str(tmp_path / 'u-boot.zip'), 'not a .tar.xz or .tar.gz'),
                      (str(tmp_path / f'{TOP}.tar.xz'), 'no such file')):
        ret, out, err = run(path, tmp_path / 'dest')
        assert ret == 1 and not out and err == f'perfrec: {path}: {why}\n'
        assert not (tmp_path / 'dest').exists()


def test_describe(tmp_path):
    """The build's version line names master by its commit, a release by its version"""
    for name, version, want in (
            ('u-boot-master-6073c36b2c8', '2026.10-rc2',
             'master 6073c36b2c8 (2026.10-rc2) from u-boot-master-6073c36b2c8.tar.xz'),
            (TOP, '2026.07', '2026.07 from u-boot-2026.07.tar.xz')):
        tarball = make_tarball(tmp_path / f'{name}.tar.xz', top=name)
        dest = tmp_path / name
        assert run(tarball, dest)[0] == 0
        out = subprocess.run(['/usr/bin/python3', SCRIPT, tarball, '--dest', str(dest),
                              '--describe', version], capture_output=True, text=True,
                             check=True).stdout
        sha = (dest / STAMP).read_text().split()[2]
        assert out == f'{want} (sha256 {sha})\n'


def verify(tarball, dest):
    """Run the script's --verify; return (exit code, stdout, stderr)"""
    res = subprocess.run(['/usr/bin/python3', SCRIPT, tarball, '--dest', str(dest), '--verify'],
                         capture_output=True, text=True, check=False)
    return res.returncode, res.stdout, res.stderr


def same_size_edit(path):
    """Change a file's bytes, not its size"""
    data = pathlib.Path(path).read_bytes()
    pathlib.Path(path).write_bytes(data[:-1] + b'?')


@pytest.mark.parametrize('damage, why', [
    (lambda t: same_size_edit(t / 'README'), 'README: not as in the tarball'),
    (lambda t: (t / 'common/board_f.c').unlink(), 'common/board_f.c: missing'),
    (lambda t: (t / 'include/config').mkdir(parents=True), 'include: not in the tarball'),
    (lambda t: (t / 'u-boot.cfg').write_text('x'), 'u-boot.cfg: not in the tarball'),
    (lambda t: ((t / 'dts/link').unlink(), (t / 'dts/link').symlink_to('../Makefile')),
     'dts/link: not as in the tarball'),
    (lambda t: ((t / 'README').unlink(), (t / 'README').symlink_to('Makefile')),
     'README: not as in the tarball'),
])
def test_verify(tmp_path, damage, why):
    """--verify passes the tree as unpacked (make ubootversion's check in
    check-series) and names what differs once anything has changed"""
    tarball = make_tarball(tmp_path / f'{TOP}.tar.xz', extra=lambda tar: (
        add_special(tar, f'{TOP}/dts', tarfile.DIRTYPE),
        add_special(tar, f'{TOP}/dts/link', tarfile.SYMTYPE, '../README')))
    dest = tmp_path / 'tree'
    assert run(tarball, dest)[0] == 0
    ret, out, err = verify(tarball, dest)
    assert (ret, err) == (0, ''), err
    assert out == f'perfrec: {dest} is byte for byte {TOP}.tar.xz\n'
    damage(dest)
    ret, out, err = verify(tarball, dest)
    assert ret == 1 and not out, out
    assert err.startswith(f'perfrec: {dest} is not as {TOP}.tar.xz has it: ') and why in err, err
    assert len(err.splitlines()) == 1, err
