#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Fetch and unpack Debian's ``u-boot`` source package for one suite.

Usage:
    perfrec_get_uboot.py --suite bookworm --apt-dir build/apt/bookworm \\
        --dest build/uboot/bookworm

The deb-src entries are derived from the machine's own apt sources (the
system's codename replaced by --suite) into a private apt configuration under
--apt-dir; the system's apt files are only read. Downloads are cached in
--apt-dir/dl, the unpacked tree (with Debian's patches applied) goes to --dest,
and a second run with the tree in place does nothing.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

STAMP = '.perfrec-uboot-source'

# Exit code when the suite lists the package but the archive does not serve
# its files (seen for experimental): callers may go on without that release
NOT_SERVED = 3


def os_codename():
    """Return the codename of the running Debian system (e.g. bookworm)"""
    with open('/etc/os-release', encoding='utf-8') as inf:
        for line in inf:
            if line.startswith('VERSION_CODENAME='):
                return line.split('=', 1)[1].strip().strip('"')
    raise SystemExit('perfrec_get_uboot: no VERSION_CODENAME in /etc/os-release')


def read_deb822(path):
    """Yield the stanzas of a deb822 .sources file as dicts"""
    with open(path, encoding='utf-8') as inf:
        text = inf.read()
    for block in re.split(r'\n\s*\n', text):
        stanza, key = {}, None
        for line in block.splitlines():
            if line.startswith('#'):
                continue
            if line[:1].isspace():
                if key:      # a multi-line field: an embedded Signed-By key
                    stanza[key] += '\n' + line.rstrip()
                continue
            if ':' not in line:
                continue
            key, val = line.split(':', 1)
            key = key.strip()
            stanza[key] = val.strip()
        if stanza:
            yield stanza


def read_one_line(path):
    """Yield the 'deb' entries of a one-line-style .list file as dicts"""
    with open(path, encoding='utf-8') as inf:
        for line in inf:
            line = line.split('#', 1)[0].strip()
            match = re.match(r'deb\s+(\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s+(.*)', line)
            if not match:
                continue
            stanza = {'Types': 'deb', 'URIs': match.group(3),
                      'Suites': match.group(4), 'Components': match.group(5)}
            for opt in (match.group(2) or '').split():
                key, _, val = opt.partition('=')
                if key == 'signed-by':
                    stanza['Signed-By'] = val
            yield stanza


def enabled_deb_stanzas():
    """The machine's enabled 'deb' entries, as deb822 dicts: the .sources files
    of /etc/apt/sources.list.d, then sources.list and the .list files"""
    stanzas = []
    paths = sorted(glob.glob('/etc/apt/sources.list.d/*.sources'))
    lists = ['/etc/apt/sources.list'] + sorted(glob.glob('/etc/apt/sources.list.d/*.list'))
    for path in paths:
        stanzas += list(read_deb822(path))
    for path in lists:
        if os.path.exists(path):
            stanzas += list(read_one_line(path))
    return [s for s in stanzas if 'deb' in s.get('Types', '').split() and
            s.get('Enabled', 'yes').lower() != 'no']


def derive_sources(codename, suite):
    """Return deb822 text with a deb-src stanza per Debian 'deb' entry

    Only entries whose suites belong to the running release (codename,
    codename-updates, codename-security) are used; the codename is replaced by
    the wanted suite. Suites that are not releases (sid, unstable,
    experimental) have no -updates or -security archives: for them only the
    plain suite of each entry is kept.
    """
    rolling = suite in ('sid', 'unstable', 'experimental')
    out = []
    for stanza in enabled_deb_stanzas():
        suites = [s for s in stanza.get('Suites', '').split()
                  if s == codename or s.startswith(codename + '-')]
        if not suites:
            continue
        suites = [suite + s[len(codename):] for s in suites]
        if rolling:
            suites = [s for s in suites if s == suite]
            if not suites:
                continue
        lines = ['Types: deb-src', 'URIs: ' + stanza['URIs'],
                 'Suites: ' + ' '.join(suites),
                 'Components: ' + stanza.get('Components', 'main')]
        if 'Signed-By' in stanza:
            key = stanza['Signed-By']
            lines.append('Signed-By:' + (key if key.startswith('\n') else ' ' + key))
        out.append('\n'.join(lines))
    if not out:
        raise SystemExit('perfrec_get_uboot: no Debian "deb" entry for %s in /etc/apt' %
                         codename)
    return '\n\n'.join(out) + '\n'


# The file run() appends its commands' output to (main() sets it under
# --apt-dir): apt and dpkg-source print hundreds of lines a newcomer need not see
LOG = None
LOG_TAIL_LINES = 20


def run(cmd, env=None, cwd=None, check=True):
    """Run a command, its output into LOG (the terminal without one)

    With @check, a failure shows the end of the log and stops.
    """
    if LOG is None:
        print('  ' + ' '.join(cmd), flush=True)
        return subprocess.run(cmd, env=env, cwd=cwd, check=check).returncode
    with open(LOG, 'a', encoding='utf-8') as log:
        log.write('$ ' + ' '.join(cmd) + '\n')
        log.flush()
        ret = subprocess.run(cmd, env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                             check=False).returncode
    if ret and check:
        with open(LOG, encoding='utf-8', errors='replace') as log:
            sys.stderr.write(''.join(log.readlines()[-LOG_TAIL_LINES:]))
        raise SystemExit(f'perfrec_get_uboot: {cmd[0]} failed (exit {ret}); '
                         f'the end of {LOG} is above')
    return ret


def setup_apt(apt_dir, suite):
    """Write the private apt configuration and update its package lists"""
    apt_dir = os.path.abspath(apt_dir)
    for sub in ('sources', 'lists/partial', 'cache/archives/partial', 'dl'):
        os.makedirs(os.path.join(apt_dir, sub), exist_ok=True)
    with open(os.path.join(apt_dir, 'sources', 'perfrec.sources'), 'w',
              encoding='utf-8') as outf:
        outf.write(derive_sources(os_codename(), suite))
    conf = os.path.join(apt_dir, 'apt.conf')
    with open(conf, 'w', encoding='utf-8') as outf:
        outf.write('Dir::Etc::sourcelist "/dev/null";\n'
                   'Dir::Etc::sourceparts "%s/sources";\n'
                   'Dir::State::Lists "%s/lists";\n'
                   'Dir::Cache "%s/cache";\n'
                   'APT::Sandbox::User "root";\n' % (apt_dir, apt_dir, apt_dir))
    env = dict(os.environ, APT_CONFIG=conf)
    run(['apt-get', '-q', 'update'], env=env)
    return env


def listed_version(env):
    """Return the u-boot source version the private apt configuration lists"""
    out = subprocess.run(['apt-cache', 'showsrc', 'u-boot'], env=env, capture_output=True,
                         text=True, check=False).stdout
    versions = re.findall(r'^Version: (\S+)', out, re.M)
    return versions[0] if versions else '(none)'


def unpack_without_dsc(dl_dir, dest):
    """Unpack orig and debian tarballs and apply debian/patches/series"""
    origs = glob.glob(os.path.join(dl_dir, 'u-boot_*.orig.tar.*'))
    debs = glob.glob(os.path.join(dl_dir, 'u-boot_*.debian.tar.*'))
    origs = [o for o in origs if not o.endswith('.asc')]
    if len(origs) != 1 or len(debs) != 1:
        raise SystemExit('perfrec_get_uboot: expected one orig and one debian tarball in %s' %
                         dl_dir)
    os.makedirs(dest)
    run(['tar', '-xf', origs[0], '-C', dest, '--strip-components=1'])
    run(['tar', '-xf', debs[0], '-C', dest])
    series = os.path.join(dest, 'debian', 'patches', 'series')
    if os.path.exists(series):
        with open(series, encoding='utf-8') as inf:
            for line in inf:
                patch = line.split('#', 1)[0].strip()
                if patch:
                    with open(os.path.join(dest, 'debian', 'patches', patch), 'rb') as pin:
                        subprocess.run(['patch', '-p1', '-s', '-N'], cwd=dest, stdin=pin,
                                       check=True)


def main(argv=None):
    """Fetch and unpack; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--suite', required=True, help='Debian suite, e.g. bookworm')
    parser.add_argument('--apt-dir', required=True, help='private apt state directory')
    parser.add_argument('--dest', required=True, help='where to unpack the tree')
    args = parser.parse_args(argv)

    if os.path.exists(os.path.join(args.dest, STAMP)):
        return 0
    global LOG  # pylint: disable=global-statement
    os.makedirs(args.apt_dir, exist_ok=True)
    LOG = os.path.join(os.path.abspath(args.apt_dir), 'perfrec-get-uboot.log')
    print(f'perfrec: fetching Debian {args.suite} source package u-boot (log: {LOG})',
          flush=True)
    env = setup_apt(args.apt_dir, args.suite)
    dl_dir = os.path.join(os.path.abspath(args.apt_dir), 'dl')
    have = glob.glob(os.path.join(dl_dir, 'u-boot_*.orig.tar.*'))
    if not have:
        # A mirror may lack the .dsc; the tarballs alone still unpack below
        run(['apt-get', '-q', 'source', '--download-only', 'u-boot'], env=env, cwd=dl_dir,
            check=False)
        if not glob.glob(os.path.join(dl_dir, 'u-boot_*.orig.tar.*')):
            print('perfrec_get_uboot: Debian %s lists u-boot %s, but its source files could '
                  'not be downloaded (see apt-get in %s)' % (args.suite, listed_version(env),
                                                             LOG),
                  file=sys.stderr)
            return NOT_SERVED
    if os.path.exists(args.dest):
        shutil.rmtree(args.dest)
    dscs = glob.glob(os.path.join(dl_dir, 'u-boot_*.dsc'))
    if dscs:
        os.makedirs(os.path.dirname(os.path.abspath(args.dest)), exist_ok=True)
        run(['dpkg-source', '--no-check', '--no-copy', '-x', dscs[0],
             os.path.abspath(args.dest)],
            cwd=dl_dir)
    else:
        unpack_without_dsc(dl_dir, args.dest)
    version = subprocess.run(['make', '-s', '--no-print-directory', '-C', args.dest,
                              'ubootversion'],
                             capture_output=True, text=True, check=False).stdout.strip()
    with open(os.path.join(args.dest, STAMP), 'w', encoding='utf-8') as outf:
        outf.write('%s %s\n' % (args.suite, version))
    print('perfrec: U-Boot %s (Debian %s) unpacked in %s' % (version, args.suite, args.dest))
    return 0


if __name__ == '__main__':
    sys.exit(main())
