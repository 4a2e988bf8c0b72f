#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Unpack a tarball of a U-Boot tree, once, after checking every member.

Usage:
    perfrec_unpack_uboot.py u-boot-2026.07.tar.xz --dest build/uboot/u-boot-2026.07

The tarball (.tar.xz or .tar.gz) must hold one top-level folder with a U-Boot
tree in it: a Makefile with VERSION and PATCHLEVEL, common/board_f.c and
arch/arm/cpu/armv8/start.S. No member may have an absolute path or a '..',
be a link leading out of the tree, or be a device file or FIFO (Python 3.11
as in Debian bookworm has no extraction filter, so the checks are here).
The tree is unpacked beside --dest and renamed into place; the stamp
(.perfrec-uboot-tarball: the file's name and sha256) is written last, so a
half-unpacked tree is never taken as done. Nothing is written beside the
tarball. A second run with the same name and sha256 does nothing; a new
sha256 unpacks again.

On bad input: one line naming the file and the reason on stderr, exit 1,
and no --dest.

--verify compares an unpacked tree with the tarball instead, byte for byte
(files, links, folders; the stamp aside) and says what differs: check-series
diffs the series against that tree, so whatever ran in it (make
ubootversion) must have left it as it came.
"""

import argparse
import hashlib
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zlib

STAMP = '.perfrec-uboot-tarball'
SUFFIXES = ('.tar.xz', '.tar.gz', '.tgz')
# Files that make a folder a U-Boot tree perfrec can overlay
TREE_FILES = ('Makefile', 'common/board_f.c', 'arch/arm/cpu/armv8/start.S')


class BadTarball(Exception):
    """The tarball cannot be used; the message says why"""


def tarball_name(path):
    """The tarball's name without its suffix (u-boot-2026.07), or None"""
    base = os.path.basename(path)
    for suffix in SUFFIXES:
        if base.endswith(suffix) and len(base) > len(suffix):
            return base[:-len(suffix)]
    return None


def sha256(path):
    """The file's sha256, in hex"""
    digest = hashlib.sha256()
    with open(path, 'rb') as inf:
        for block in iter(lambda: inf.read(1 << 20), b''):
            digest.update(block)
    return digest.hexdigest()


def stamp_text(path, digest):
    """What the stamp holds: the tarball's name and its sha256"""
    return f'{os.path.basename(path)} sha256 {digest}\n'


def inside(top, name):
    """True if the normalised archive path @name lies in folder @top"""
    return name == top or name.startswith(top + '/')


def check_member(member, top):
    """Refuse a member that could write outside the tree, or a device file"""
    name = member.name
    parts = name.split('/')
    if name.startswith('/') or os.path.isabs(name):
        raise BadTarball(f'member {name!r} has an absolute path')
    if '..' in parts:
        raise BadTarball(f"member {name!r} has a '..' in its path")
    norm = os.path.normpath(name)
    if not inside(top, norm):
        raise BadTarball(f'more than one top-level folder ({top!r} and {parts[0]!r})')
    if member.ischr() or member.isblk() or member.isfifo():
        raise BadTarball(f'member {name!r} is a device file or FIFO')
    if member.issym():
        if os.path.isabs(member.linkname):
            raise BadTarball(f'link {name!r} leads out of the tree ({member.linkname})')
        target = os.path.normpath(os.path.join(os.path.dirname(norm), member.linkname))
        if not inside(top, target):
            raise BadTarball(f'link {name!r} leads out of the tree ({member.linkname})')
    elif member.islnk():
        if not inside(top, os.path.normpath(member.linkname)):
            raise BadTarball(f'link {name!r} leads out of the tree ({member.linkname})')
    elif not (member.isfile() or member.isdir()):
        raise BadTarball(f'member {name!r} is of an unknown type')


def open_mode(path):
    """tarfile's mode for reading @path, by its suffix"""
    return 'r:xz' if path.endswith('.tar.xz') else 'r:gz'


def corrupt(err):
    """The one line for an archive that cannot be read to its end"""
    first = str(err).splitlines()[0] if str(err) else type(err).__name__
    return BadTarball(f'truncated or corrupt archive ({first})')


def read_members(path):
    """All members of the archive, checked; return (top folder, members)"""
    try:
        with tarfile.open(path, open_mode(path)) as tar:
            members = tar.getmembers()
    except (tarfile.TarError, EOFError, lzma.LZMAError, zlib.error, OSError) as err:
        raise corrupt(err) from err
    if not members:
        raise BadTarball('empty archive')
    top = os.path.normpath(members[0].name).split('/')[0]
    if top in ('', '.', '..'):
        raise BadTarball(f'member {members[0].name!r} is not in a top-level folder')
    for member in members:
        check_member(member, top)
    return top, members


def check_tree(tree):
    """Refuse a folder that is not a U-Boot tree"""
    for rel in TREE_FILES:
        if not os.path.isfile(os.path.join(tree, rel)):
            raise BadTarball(f'not a U-Boot tree: no {rel}')
    with open(os.path.join(tree, 'Makefile'), encoding='utf-8', errors='replace') as inf:
        text = inf.read()
    for var in ('VERSION', 'PATCHLEVEL'):
        if not re.search(rf'^{var}\s*=\s*\S', text, re.M):
            raise BadTarball(f'not a U-Boot tree: its Makefile has no {var}')


def unpack(path, dest):
    """Unpack @path into @dest unless its stamp says it is there; return True if unpacked"""
    digest = sha256(path)
    stamp = os.path.join(dest, STAMP)
    if os.path.isfile(stamp):
        with open(stamp, encoding='utf-8') as inf:
            if inf.read() == stamp_text(path, digest):
                # The same file, touched (copied again): newer than it now,
                # so that make does not hash it again at every run
                os.utime(stamp)
                return False
    top, _ = read_members(path)
    work = dest + '.unpacking'
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(work)
    try:
        # Every member was checked above, so GNU tar may unpack them all
        # (2026.07 in CI: 9 s against tarfile's 17; it writes 320 MB)
        res = subprocess.run(['tar', '-x', '--no-same-owner', '-f', path, '-C', work],
                             capture_output=True, text=True, check=False)
        if res.returncode:
            err = (res.stderr.strip().splitlines() or [f'exit {res.returncode}'])[-1]
            raise BadTarball(f'tar could not unpack it ({err})')
        check_tree(os.path.join(work, top))
        os.rename(os.path.join(work, top), dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(stamp + '.tmp', 'w', encoding='utf-8') as outf:
        outf.write(stamp_text(path, digest))
    os.rename(stamp + '.tmp', stamp)
    return True


def member_bytes(tar, member):
    """The contents of a regular file (or hard link) member"""
    with tar.extractfile(member) as inf:
        return inf.read()


def file_bytes(path):
    """The contents of a file"""
    with open(path, 'rb') as inf:
        return inf.read()


def itself_and_parents(rel):
    """A relative path and each folder above it (a member's folders may be
    implicit in a tarball)"""
    while rel:
        yield rel
        rel = os.path.dirname(rel)


def same_as_member(tar, member, there):
    """Whether the path @there is what the tarball's @member unpacks to"""
    if member.issym():
        return os.path.islink(there) and os.readlink(there) == member.linkname
    if os.path.islink(there):
        return False
    if member.isdir():
        return os.path.isdir(there)
    return (os.path.isfile(there) and os.path.getsize(there) == member.size and
            file_bytes(there) == member_bytes(tar, member))


def differences(path, dest):
    """What differs between the tree in @dest and the tarball: 'name: why' lines"""
    top, members = read_members(path)
    found = []
    known = {STAMP}
    try:
        with tarfile.open(path, open_mode(path)) as tar:
            for member in members:
                rel = os.path.relpath(os.path.normpath(member.name), top)
                if rel == '.':
                    continue
                known.update(itself_and_parents(rel))
                there = os.path.join(dest, rel)
                if not same_as_member(tar, member, there):
                    found.append(f'{rel}: not as in the tarball' if os.path.lexists(there)
                                 else f'{rel}: missing')
    except (tarfile.TarError, EOFError, lzma.LZMAError, zlib.error) as err:
        raise corrupt(err) from err
    for root, dirs, files in os.walk(dest):
        for name in dirs + files:
            rel = os.path.relpath(os.path.join(root, name), dest)
            if rel not in known:
                found.append(f'{rel}: not in the tarball')
    return found


def master_commit(fname):
    """The commit of an upstream master export named u-boot-master-<commit>.tar.xz, or None"""
    match = re.match(r'u-boot-master-([0-9a-f]+)\.', fname)
    return match.group(1) if match else None


def describe(dest, version):
    """Where the tree in @dest came from, for the build's version line:
    'master 6073c36b2c8 (2026.10-rc2) from u-boot-master-6073c36b2c8.tar.xz
    (sha256 ...)' for an upstream master export (its Makefile's version is
    a release candidate's), '@version from <file> (sha256 ...)' otherwise"""
    with open(os.path.join(dest, STAMP), encoding='utf-8') as inf:
        fname, _, digest = inf.read().split()
    commit = master_commit(fname)
    what = f'master {commit} ({version})' if commit else version
    return f'{what} from {fname} (sha256 {digest})'


def verify(path, dest):
    """main() for --verify: say whether @dest is as @path has it; return the exit code"""
    try:
        found = differences(path, dest)
    except BadTarball as err:
        print(f'perfrec: {path}: {err}', file=sys.stderr)
        return 1
    if found:
        more = f' (and {len(found) - 3} more)' if len(found) > 3 else ''
        print(f'perfrec: {dest} is not as {os.path.basename(path)} has it: '
              f'{"; ".join(found[:3])}{more}', file=sys.stderr)
        return 1
    print(f'perfrec: {dest} is byte for byte {os.path.basename(path)}')
    return 0


def main():
    """Unpack, or say in one line why not; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', maxsplit=1)[0])
    parser.add_argument('tarball', help='a .tar.xz or .tar.gz of a U-Boot tree')
    parser.add_argument('--dest', help='where the tree goes (default: '
                        'build/uboot/<name>, the name without its suffix)')
    parser.add_argument('--describe', metavar='VERSION',
                        help='print where the unpacked tree of U-Boot VERSION came from, '
                        'for the build\'s version line')
    parser.add_argument('--verify', action='store_true',
                        help='compare the unpacked tree with the tarball, byte for byte')
    args = parser.parse_args()
    name = tarball_name(args.tarball)
    if not name:
        print(f'perfrec: {args.tarball}: not a .tar.xz or .tar.gz', file=sys.stderr)
        return 1
    dest = args.dest or os.path.join('build', 'uboot', name)
    if args.describe:
        print(describe(dest, args.describe))
        return 0
    if not os.path.isfile(args.tarball):
        print(f'perfrec: {args.tarball}: no such file', file=sys.stderr)
        return 1
    if args.verify:
        return verify(args.tarball, dest)
    try:
        if unpack(args.tarball, dest):
            print(f'perfrec: unpacked {os.path.basename(args.tarball)} into {dest}')
    except BadTarball as err:
        shutil.rmtree(dest, ignore_errors=True)
        print(f'perfrec: {args.tarball}: {err}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
