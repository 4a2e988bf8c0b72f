# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""The trixie chroot (scripts/perfrec_lab_host.py, made by make lab-host as
PERFREC_LAB_HOST): the tools it promises, and nothing left mounted under it
or under build/ after a run or a bootstrap is stopped with SIGINT."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, 'scripts/perfrec_lab_host.py')


@pytest.fixture(name='lab')
def fixture_lab():
    """The chroot make lab-host made (never a skip: make check-real-boards sets it)"""
    root = os.path.abspath(os.environ.get('PERFREC_LAB_HOST', ''))
    assert os.path.exists(os.path.join(root, '.perfrec-lab-host')), \
        'PERFREC_LAB_HOST=%r: not made' % root
    return root


def mounts_under(path):
    """findmnt's mount points under @path"""
    out = subprocess.run(['findmnt', '-rn', '-o', 'TARGET'], capture_output=True, text=True,
                         check=True).stdout
    return [line for line in out.splitlines() if line.startswith(path + '/')]


def interrupted(cmd, after):
    """Run @cmd, SIGINT it after @after seconds; return (exit code, stderr)"""
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True) as proc:
        time.sleep(after)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def test_lab_host_tools(lab):
    """QEMU 11 with the machines the boards need, perf 7, labgrid 26; the
    stamp lists the exact versions"""
    with open(os.path.join(lab, '.perfrec-lab-host'), encoding='utf-8') as inf:
        versions = dict(line.split('\t') for line in inf.read().splitlines())
    assert versions['qemu-system-arm'].startswith('1:11.'), versions
    assert versions['linux-perf'].startswith('7.'), versions
    assert versions['labgrid-client'].startswith('26.'), versions
    out = subprocess.run([SCRIPT, '--dest', lab, 'run', '--', 'sh', '-c',
                          'chroot "$PERFREC_LAB_ROOT" qemu-system-aarch64 -machine help; '
                          'chroot "$PERFREC_LAB_ROOT" perf --version'],
                         capture_output=True, text=True, check=True).stdout
    for machine in ('raspi3b', 'raspi4b', 'xlnx-versal-virt', 'imx8mp-evk'):
        assert '\n' + machine + ' ' in out, machine
    assert 'perf version 7.' in out
    assert not mounts_under(lab)


def test_lab_host_run_interrupted(lab):
    """SIGINT during a run: the run says so, and nothing stays mounted"""
    build = os.path.dirname(lab)
    ret, err = interrupted([SCRIPT, '--dest', lab, 'run', '--bind', build, '--', 'sleep', '60'],
                           3)
    assert ret == 130 and 'the chroot is unmounted' in err, err
    assert not mounts_under(lab) and not mounts_under(build)


def test_lab_host_bootstrap_interrupted(lab, tmp_path):
    """SIGINT during the bootstrap: nothing stays mounted, and with no stamp
    the next make starts from nothing"""
    root = os.path.join(os.path.dirname(lab), 'lab-host-interrupted')
    subprocess.run(['rm', '-rf', root], check=True)
    try:
        ret, err = interrupted([SCRIPT, '--dest', root, '--log', str(tmp_path / 'log'),
                                'make'], 25)
        assert ret == 130 and 'nothing is mounted under' in err, err
        assert not mounts_under(root)
        assert not os.path.exists(os.path.join(root, '.perfrec-lab-host'))
        out = subprocess.run([SCRIPT, '--dest', root, 'run', '--', 'true'],
                             capture_output=True, text=True, check=False)
        assert out.returncode == 2 and 'is not made: run make lab-host first' in out.stderr
    finally:
        assert not mounts_under(root)
        subprocess.run(['rm', '-rf', root], check=True)


def test_lab_host_not_permitted():
    """Where chroot and mount are not permitted (here: not root), one line, exit 2,
    nothing made

    The script runs as nobody, from a copy in a directory every user can
    read: the checkout may sit under one that only its owner can (a clone in
    /root or in mktemp -d), and so may pytest's own tmp_path (0700).
    """
    where = tempfile.mkdtemp(prefix='perfrec-lab-host-')
    try:
        os.chmod(where, 0o755)
        for name in ('perfrec_lab_host.py', 'perfrec_get_uboot.py'):
            shutil.copy(os.path.join(TOP, 'scripts', name), where)
        root = os.path.join(where, 'lab')
        proc = subprocess.run(['runuser', '-u', 'nobody', '--', '/usr/bin/python3',
                               os.path.join(where, 'perfrec_lab_host.py'), '--dest', root,
                               'make'], cwd='/', capture_output=True, text=True, check=False)
        assert proc.returncode == 2, proc
        uid = int(subprocess.run(['id', '-u', 'nobody'], capture_output=True, text=True,
                                 check=True).stdout)
        assert proc.stderr.splitlines() == [
            f'perfrec_lab_host: chroot and mount need root (this is uid {uid})'], proc.stderr
        assert not os.path.exists(root)
    finally:
        shutil.rmtree(where)
