# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of scripts/perfrec_get_uboot.py, which fetches Debian's u-boot source

"""Host tests of scripts/perfrec_get_uboot.py.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_get_uboot.py

The machine's apt sources are never read: the module's glob.glob is given
files written in tmp_path (deb822 .sources and one-line .list files) and
/etc/apt/sources.list is made to look absent. derive_sources() must turn
the running release's entries into deb-src stanzas for the wanted suite,
with -updates and -security for a release and the plain suite alone for
sid, unstable and experimental. apt-get and apt-cache are never run:
main()'s NOT_SERVED path runs with them replaced.
"""

import glob
import os
import re
import sys
import types

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'scripts'))

# pylint: disable=wrong-import-position
import perfrec_get_uboot as GU  # noqa: E402  # pylint: disable=import-error

ETC_APT = '/etc/apt/'
KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg'

DEBIAN_SOURCES = f'''# Modernized from /etc/apt/sources.list
Types: deb
URIs: http://deb.debian.org/debian/
Suites: bookworm bookworm-updates
Components: main non-free-firmware
Signed-By: {KEYRING}

Types: deb
URIs: http://deb.debian.org/debian-security/
Suites: bookworm-security
Components: main non-free-firmware
Signed-By: {KEYRING}
'''

# Entries derive_sources() must leave out: another distribution's suite, a
# disabled stanza, a deb-src-only stanza
OTHER_SOURCES = '''Types: deb
URIs: https://example.com/apt/
Suites: stable
Components: main

Types: deb
URIs: http://mirror.example.com/debian/
Suites: bookworm
Components: contrib
Enabled: no

Types: deb-src
URIs: http://deb.debian.org/debian/
Suites: bookworm
Components: main
'''

ONE_LINE = f'''# one-line style
deb [arch=arm64 signed-by={KEYRING}] http://ftp.debian.org/debian bookworm main contrib
deb-src http://ftp.debian.org/debian bookworm main
deb http://security.debian.org/debian-security bookworm-security main # security
deb http://example.com/debian stable main
'''


@pytest.fixture(name='apt_files')
def fixture_apt_files(tmp_path, monkeypatch):
    """Give derive_sources() an /etc/apt of files in tmp_path

    The module's glob, os.path.exists and open see tmp_path/etc-apt where
    they are asked for /etc/apt; other paths are left alone.

    Returns:
        function: write(name, text), to add a file (e.g. 'sources.list')
    """
    root = tmp_path / 'etc-apt'
    (root / 'sources.list.d').mkdir(parents=True)
    real_exists = os.path.exists

    def redirect(path):
        path = str(path)
        return str(root / path[len(ETC_APT):]) if path.startswith(ETC_APT) else path

    def fake_glob(pattern):
        assert pattern.startswith(ETC_APT), pattern
        return [ETC_APT + os.path.relpath(path, root) for path in glob.glob(redirect(pattern))]

    def fake_open(path, *args, **kwargs):
        # pylint: disable=consider-using-with,unspecified-encoding
        return open(redirect(path), *args, **kwargs)

    monkeypatch.setattr(GU, 'glob', types.SimpleNamespace(glob=fake_glob))
    monkeypatch.setattr(GU.os.path, 'exists', lambda path: real_exists(redirect(path)))
    monkeypatch.setattr(GU, 'open', fake_open, raising=False)

    def write(name, text):
        (root / name).write_text(text, encoding='utf-8')
    return write


def stanzas(text):
    """Return the deb822 stanzas of @text as dicts"""
    out = []
    for block in text.strip().split('\n\n'):
        out.append(dict(line.split(': ', 1) for line in block.splitlines()))
    return out


def test_release(apt_files):
    """A release gets its own suite, -updates and -security, keys kept"""
    apt_files('sources.list.d/debian.sources', DEBIAN_SOURCES)
    text = GU.derive_sources('bookworm', 'trixie')
    assert text.endswith('\n') and not text.endswith('\n\n')
    assert stanzas(text) == [
        {'Types': 'deb-src', 'URIs': 'http://deb.debian.org/debian/',
         'Suites': 'trixie trixie-updates', 'Components': 'main non-free-firmware',
         'Signed-By': KEYRING},
        {'Types': 'deb-src', 'URIs': 'http://deb.debian.org/debian-security/',
         'Suites': 'trixie-security', 'Components': 'main non-free-firmware',
         'Signed-By': KEYRING},
    ]


def test_same_release(apt_files):
    """The running release itself is derived unchanged but for deb-src"""
    apt_files('sources.list.d/debian.sources', DEBIAN_SOURCES)
    suites = [s['Suites'] for s in stanzas(GU.derive_sources('bookworm', 'bookworm'))]
    assert suites == ['bookworm bookworm-updates', 'bookworm-security']


@pytest.mark.parametrize('suite', ['experimental', 'sid', 'unstable'])
def test_rolling(apt_files, suite):
    """sid, unstable and experimental get the plain suite only, no -security"""
    apt_files('sources.list.d/debian.sources', DEBIAN_SOURCES)
    text = GU.derive_sources('bookworm', suite)
    assert stanzas(text) == [
        {'Types': 'deb-src', 'URIs': 'http://deb.debian.org/debian/', 'Suites': suite,
         'Components': 'main non-free-firmware', 'Signed-By': KEYRING},
    ]
    assert '-security' not in text and '-updates' not in text


def test_other_entries(apt_files):
    """Other distributions, disabled stanzas and deb-src entries are left out"""
    apt_files('sources.list.d/debian.sources', DEBIAN_SOURCES)
    apt_files('sources.list.d/other.sources', OTHER_SOURCES)
    text = GU.derive_sources('bookworm', 'trixie')
    assert len(stanzas(text)) == 2
    assert 'example.com' not in text and 'contrib' not in text


def test_one_line(apt_files):
    """One-line .list entries are read too, signed-by kept, deb-src skipped"""
    apt_files('sources.list', ONE_LINE)
    text = GU.derive_sources('bookworm', 'trixie')
    assert stanzas(text) == [
        {'Types': 'deb-src', 'URIs': 'http://ftp.debian.org/debian', 'Suites': 'trixie',
         'Components': 'main contrib', 'Signed-By': KEYRING},
        {'Types': 'deb-src', 'URIs': 'http://security.debian.org/debian-security',
         'Suites': 'trixie-security', 'Components': 'main'},
    ]
    assert [s['Suites'] for s in stanzas(GU.derive_sources('bookworm', 'sid'))] == ['sid']


def test_embedded_key(apt_files):
    """A key embedded in Signed-By (a multi-line field) is carried over"""
    key = ('\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n mQINBGPL0BUBEADmW5NlOA==\n'
           ' -----END PGP PUBLIC KEY BLOCK-----')
    apt_files('sources.list.d/debian.sources',
              DEBIAN_SOURCES.replace(' ' + KEYRING, key, 1))
    text = GU.derive_sources('bookworm', 'trixie')
    assert 'Signed-By:' + key + '\n' in text


def test_no_entry(apt_files):
    """No entry of the running release is an error naming it"""
    apt_files('sources.list.d/other.sources', OTHER_SOURCES)
    with pytest.raises(SystemExit, match='no Debian "deb" entry for bookworm'):
        GU.derive_sources('bookworm', 'trixie')


def fake_apt_cache(monkeypatch, stdout):
    """Make the module's subprocess.run answer apt-cache with @stdout"""
    calls = []

    def fake_run(cmd, **kwargs):
        calls.append((cmd, kwargs.get('env')))
        assert cmd[:2] == ['apt-cache', 'showsrc'], cmd
        return types.SimpleNamespace(returncode=0, stdout=stdout)

    monkeypatch.setattr(GU.subprocess, 'run', fake_run)
    return calls


def test_listed_version(monkeypatch):
    """listed_version() gives the first Version: of apt-cache showsrc"""
    calls = fake_apt_cache(monkeypatch, 'Package: u-boot\nBinary: u-boot\n'
                           'Version: 2025.01-3\n\nPackage: u-boot\nVersion: 2024.01-1\n')
    assert GU.listed_version({'APT_CONFIG': 'x'}) == '2025.01-3'
    assert calls == [(['apt-cache', 'showsrc', 'u-boot'], {'APT_CONFIG': 'x'})]
    fake_apt_cache(monkeypatch, '')
    assert GU.listed_version({}) == '(none)'


def test_not_served(tmp_path, monkeypatch, capsys):
    """A listed package whose files cannot be downloaded exits NOT_SERVED (3)"""
    assert GU.NOT_SERVED == 3
    monkeypatch.setattr(GU, 'setup_apt', lambda apt_dir, suite: {'APT_CONFIG': 'conf'})
    commands = []
    monkeypatch.setattr(GU, 'run', lambda cmd, **kwargs: commands.append(cmd) or 100)
    fake_apt_cache(monkeypatch, 'Package: u-boot\nVersion: 2026.01+dfsg-1\n')
    (tmp_path / 'apt' / 'dl').mkdir(parents=True)
    dest = tmp_path / 'dest'
    code = GU.main(['--suite', 'experimental', '--apt-dir', str(tmp_path / 'apt'),
                    '--dest', str(dest)])
    assert code == GU.NOT_SERVED
    assert commands == [['apt-get', '-q', 'source', '--download-only', 'u-boot']]
    err = capsys.readouterr().err
    assert re.search(r'Debian experimental lists u-boot 2026\.01\+dfsg-1, but its source '
                     r'files could not be downloaded', err)
    assert not dest.exists()


def test_stamp(tmp_path, monkeypatch):
    """A tree already unpacked is left alone: nothing is fetched"""
    dest = tmp_path / 'dest'
    dest.mkdir()
    (dest / GU.STAMP).write_text('bookworm 2023.01\n', encoding='utf-8')

    def no_apt(*args):
        raise AssertionError(f'apt set up: {args}')
    monkeypatch.setattr(GU, 'setup_apt', no_apt)
    assert GU.main(['--suite', 'bookworm', '--apt-dir', str(tmp_path / 'apt'),
                    '--dest', str(dest)]) == 0
    assert not (tmp_path / 'apt').exists()
