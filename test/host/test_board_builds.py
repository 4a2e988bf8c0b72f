# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Host tests of perfrec's board builds: make board and make check-board-builds.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_board_builds.py

The committed results (test/boards/) and the table generated from them
(doc/develop/perfrec-boards.rst) must agree. The parts the scripts read are
checked on small real inputs: Debian's targets.mk shape (the Arm sections
only), a Kconfig tree whose option a board's .config cannot have (the
blocking term named) and a link map of two objects linked by the
cross compiler (perfrec's bytes are exactly its object's).
"""

import os
import subprocess
import sys

import pytest

from conftest import CROSS_COMPILE, REPO, run, tool

sys.path.insert(0, os.path.join(REPO, 'scripts'))
# pylint: disable=wrong-import-position,import-error
import perfrec_board as PB  # noqa: E402
import perfrec_board_builds as BB  # noqa: E402
import perfrec_kconfig_deps as KD  # noqa: E402
import perfrec_sd_image as SD  # noqa: E402

RESULTS = os.path.join(REPO, 'test', 'boards')
PAGE = os.path.join(REPO, 'doc', 'develop', 'perfrec-boards.rst')

TARGETS_MK = '''ifeq (${DEB_HOST_ARCH},arm64)
# u-boot-rockchip
  u-boot-rockchip_platforms += rock64-rk3328
  rock64-rk3328_targets := u-boot-rockchip.bin
  u-boot-sitara-binaries_platforms += am62x_evm_r5
else ifeq (${DEB_HOST_ARCH},armel)
  u-boot-mvebu_platforms += dockstar
else ifeq (${DEB_HOST_ARCH},armhf)
  u-boot-sunxi_platforms += orangepi_pc
else ifeq (${DEB_HOST_ARCH},riscv64)
  u-boot-sifive_platforms += sifive_unmatched
endif
'''


def test_table_matches_results():
    """The page's table is the one the committed results give"""
    res = subprocess.run([sys.executable, os.path.join(REPO, 'scripts', 'perfrec_board_builds.py'),
                          'table', '--results', RESULTS, '--check', PAGE],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr


def test_results_are_whole():
    """Each result is of a listed target, names its tree and perfrec's inputs, and
    says why a failure failed; a built one has its verdict"""
    names = {t[0] for t in BB.read_targets(RESULTS)}
    files = {f[:-len('.json')] for f in os.listdir(RESULTS) if f.endswith('.json')}
    assert names and files <= names, files - names
    for row in BB.load(RESULTS):
        assert row['debian_arch'] in ('arm64', 'armhf')
        if row['status'] == 'not built yet':
            assert row['board'] not in files
            continue
        assert row['tree'] and len(row['perfrec_inputs']) == 16
        assert row['status'] in ('built', 'failed', 'board fails')
        if row['status'] == 'built':
            assert 0 < row['perfrec_bytes'] < row['image_bytes']
            assert BB.verdict_cell(row), row
        else:
            assert row['error']


def test_debian_derived_defconfig(tmp_path):
    """A target whose defconfig Debian derives (targets.mk's sed rule) gets it made"""
    (tmp_path / 'debian').mkdir()
    (tmp_path / 'configs').mkdir()
    (tmp_path / 'configs' / 'am335x_evm_defconfig').write_text(
        'CONFIG_ARM=y\nCONFIG_OF_LIST="am335x-evm"\n')
    (tmp_path / 'debian' / 'targets.mk').write_text(
        'ifeq (${DEB_HOST_ARCH},armhf)\n'
        '  u-boot-omap_platforms += am335x_boneblack\n'
        '  configs/am335x_boneblack_defconfig: configs/am335x_evm_defconfig\n'
        "\tsed -e 's,CONFIG_OF_LIST=.*,CONFIG_OF_LIST=\"am335x-boneblack\",g' \\\n"
        '\t\tconfigs/am335x_evm_defconfig > configs/am335x_boneblack_defconfig\n'
        'endif\n')
    BB.debian_defconfig(str(tmp_path), 'am335x_boneblack', 'armhf')
    assert (tmp_path / 'configs' / 'am335x_boneblack_defconfig').read_text() == \
        'CONFIG_ARM=y\nCONFIG_OF_LIST="am335x-boneblack"\n'


def test_no_core_is_not_a_failure(kconfig_tree):
    """A board whose options Kconfig dropped for want of a core perfrec samples is
    'not applicable'; one that lacks OF_CONTROL is perfrec's failure"""
    tree, frag = kconfig_tree
    for cfg, want in (({'CONFIG_CPU_V7R': 'y', 'CONFIG_DM': 'y', 'CONFIG_OF_CONTROL': 'y'},
                       'not applicable'),
                      ({'CONFIG_ARM64': 'y', 'CONFIG_DM': 'y'}, 'failed')):
        why = KD.blocked(str(tree), cfg, [str(frag)])[0]
        row = {'status': 'failed', 'error': 'x_defconfig: ' + why}
        assert BB.status(row) == want, why


def test_targets_are_the_arm_sections(tmp_path):
    """arm64 and armhf targets with their package's family; armel and others left out"""
    (tmp_path / 'debian').mkdir()
    (tmp_path / 'debian' / 'targets.mk').write_text(TARGETS_MK)
    assert BB.targets(str(tmp_path)) == [('rock64-rk3328', 'arm64', 'rockchip'),
                                         ('am62x_evm_r5', 'arm64', 'sitara'),
                                         ('orangepi_pc', 'armhf', 'sunxi')]


def test_stale_table_is_refused(tmp_path):
    """A table that differs from the results by one byte fails the check"""
    page = tmp_path / 'page.rst'
    with open(PAGE, encoding='utf-8') as inf:
        text = inf.read()
    lines = BB.table(BB.load(RESULTS))
    changed = text.replace(lines[0], lines[0].replace('targets', 'target'), 1)
    assert changed != text
    page.write_text(changed)
    assert BB.splice(str(page), lines, True) == 1
    assert BB.splice(str(page), lines, False) == 0
    assert page.read_text() == text


@pytest.fixture(name='kconfig_tree')
def fixture_kconfig_tree(tmp_path):
    """A tree with perfrec's option, its dependencies as drivers/perf/Kconfig has them"""
    (tmp_path / 'drivers').mkdir()
    (tmp_path / 'drivers' / 'Kconfig').write_text(
        'config PERFREC_PMUV3\n\tbool "perfrec"\n\tdepends on (ARM64 || CPU_V7A) && DM && '
        'OF_CONTROL\n\tselect PERF_DATA\n\nconfig CMD_PERFREC\n\tbool "cmd"\n'
        '\tdepends on PERFREC_PMUV3\n\nconfig OTHER\n\tdepends on DM\n')
    frag = tmp_path / 'frag.config'
    frag.write_text('CONFIG_PERFREC_PMUV3=y\nCONFIG_CMD_PERFREC=y\nCONFIG_SYS_MAXARGS=64\n')
    return tmp_path, frag


def test_blocked_option_names_its_dependency(kconfig_tree):
    """A board without OF_CONTROL: both options named, with the term each misses"""
    tree, frag = kconfig_tree
    cfg = {'CONFIG_ARM64': 'y', 'CONFIG_DM': 'y', 'CONFIG_SYS_MAXARGS': '64'}
    lines = KD.blocked(str(tree), cfg, [str(frag)])
    assert len(lines) == 2
    assert lines[0].startswith('CONFIG_PERFREC_PMUV3=y did not stick')
    assert lines[0].endswith('this board has not OF_CONTROL')
    assert lines[1].endswith('this board has not PERFREC_PMUV3')


def test_cortex_r_is_named(kconfig_tree):
    """Neither an AArch64 nor an Armv7-A core: the alternatives are the term named"""
    tree, frag = kconfig_tree
    cfg = {'CONFIG_CPU_V7R': 'y', 'CONFIG_DM': 'y', 'CONFIG_OF_CONTROL': 'y',
           'CONFIG_SYS_MAXARGS': '64'}
    assert KD.blocked(str(tree), cfg, [str(frag)])[0].endswith(
        'this board has not (ARM64 || CPU_V7A)')


def test_options_that_stuck_are_not_named(kconfig_tree):
    """Every option in place: nothing to say"""
    tree, frag = kconfig_tree
    cfg = {'CONFIG_CPU_V7A': 'y', 'CONFIG_DM': 'y', 'CONFIG_OF_CONTROL': 'y',
           'CONFIG_PERFREC_PMUV3': 'y', 'CONFIG_CMD_PERFREC': 'y', 'CONFIG_SYS_MAXARGS': '64'}
    assert not KD.blocked(str(tree), cfg, [str(frag)])
    cfg['CONFIG_SYS_MAXARGS'] = '16'
    assert KD.blocked(str(tree), cfg, [str(frag)]) == [
        'CONFIG_SYS_MAXARGS=64 did not stick: the tree has no such option, or sets it itself']


def test_perfrec_bytes_from_the_link_map(tmp_path):
    """perfrec's bytes are exactly its objects' sections in the image, by the link map"""
    (tmp_path / 'drivers' / 'perf').mkdir(parents=True)
    (tmp_path / 'common').mkdir()
    srcs = {'drivers/perf/pmu.c': 'const char tab[300] = "x";\nint f(int a) { return a * 3; }\n'
            'int g(int a) { return a + tab[a]; }\n',
            'common/main.c': 'int f(int);\nint _start(void) { return f(2); }\n',
            'common/system_map.c': 'const char system_map[] = "00000000 f";\n'}
    objs = []
    for rel, text in srcs.items():
        (tmp_path / rel).write_text(text)
        obj = rel[:-2] + '.o'
        run([tool(CROSS_COMPILE + 'gcc'), '-O2', '-c', '-ffunction-sections', '-o', obj, rel],
            cwd=str(tmp_path))
        objs.append(obj)
    run([tool(CROSS_COMPILE + 'gcc'), '-nostdlib', '-static', '-Wl,-Map=u-boot.map', '-o',
         'u-boot'] + objs, cwd=str(tmp_path))
    sizes = {}
    for obj in ('drivers/perf/pmu.o', 'common/system_map.o'):
        out = subprocess.run([tool(CROSS_COMPILE + 'size'), '-A', obj], cwd=str(tmp_path),
                             capture_output=True, text=True, check=True).stdout
        sizes[obj] = sum(int(line.split()[1]) for line in out.splitlines()
                         if line.startswith(('.text', '.rodata', '.data')))
    assert sizes['drivers/perf/pmu.o'] > 300
    assert PB.perfrec_bytes(str(tmp_path), CROSS_COMPILE) == (sizes['drivers/perf/pmu.o'],
                                                               sizes['common/system_map.o'])


def test_perfrec_bytes_by_symbol_under_lto(tmp_path):
    """With LTO the map names link-time partitions: perfrec's bytes are the
    final ELF's sizes of the symbols perfrec's (LTO) objects define"""
    (tmp_path / 'drivers' / 'perf').mkdir(parents=True)
    (tmp_path / 'drivers' / 'perf' / 'pmu.c').write_text(
        'char tab[300] = "x";\n__attribute__((noinline)) int f(int a) '
        '{ return a * 3 + tab[a]; }\n')
    (tmp_path / 'main.c').write_text('int f(int);\nvolatile int idx;\n'
                                     'int _start(void) { return f(idx); }\n')
    gcc = tool(CROSS_COMPILE + 'gcc')
    run([gcc, '-O2', '-flto', '-c', '-o', 'drivers/perf/pmu.o', 'drivers/perf/pmu.c'],
        cwd=str(tmp_path))
    run([gcc, '-O2', '-flto', '-c', '-o', 'main.o', 'main.c'], cwd=str(tmp_path))
    run([gcc, '-O2', '-flto', '-nostdlib', '-static', '-Wl,-Map=u-boot.map', '-o', 'u-boot',
         'drivers/perf/pmu.o', 'main.o'], cwd=str(tmp_path))
    # The map gives the object nothing: its code is the partition's
    assert PB.perfrec_bytes(str(tmp_path), CROSS_COMPILE) == (0, 0)
    out = subprocess.run([tool(CROSS_COMPILE + 'nm'), '-S', 'u-boot'], cwd=str(tmp_path),
                         capture_output=True, text=True, check=True).stdout
    sizes = {ln.split()[3]: int(ln.split()[1], 16) for ln in out.splitlines()
             if len(ln.split()) == 4}
    assert sizes['tab'] == 300
    assert PB.perfrec_symbols(str(tmp_path), CROSS_COMPILE) == (sizes['tab'] + sizes['f'], 0)


def test_perfrec_bytes_when_binman_replaced_the_map(tmp_path):
    """binman writes <image>.map beside an image named "u-boot" (the STM32MP1's
    FIT) over the linker's u-boot.map: perfrec's bytes are then counted by
    symbol, and the line says so and still parses"""
    (tmp_path / 'drivers' / 'perf').mkdir(parents=True)
    (tmp_path / 'drivers' / 'perf' / 'pmu.c').write_text(
        'char tab[300] = "x";\nint f(int a) { return a * 3 + tab[a]; }\n')
    (tmp_path / 'main.c').write_text('int f(int);\nvolatile int idx;\n'
                                     'int _start(void) { return f(idx); }\n')
    gcc = tool(CROSS_COMPILE + 'gcc')
    for src in ('drivers/perf/pmu.c', 'main.c'):
        run([gcc, '-O2', '-c', '-o', src[:-2] + '.o', src], cwd=str(tmp_path))
    run([gcc, '-nostdlib', '-static', '-Wl,-Map=u-boot.map', '-o', 'u-boot',
         'drivers/perf/pmu.o', 'main.o'], cwd=str(tmp_path))
    (tmp_path / 'u-boot.bin').write_bytes(bytes(4096))
    args = PB.argparse.Namespace(out=str(tmp_path), defconfig='x_defconfig')
    by_map = PB.cost_line(args, 'arm64', CROSS_COMPILE, {})
    assert 'by symbol' not in by_map
    (tmp_path / 'u-boot.map').write_text('ImagePos    Offset      Size  Name\n'
                                         '00000000  00000000  00001000  u-boot\n')
    line = PB.cost_line(args, 'arm64', CROSS_COMPILE, {})
    ours = PB.perfrec_symbols(str(tmp_path), CROSS_COMPILE)[0]
    assert ours >= 300
    assert 'by symbol: binman replaced the link map' in line
    assert BB.parse_line(line)['perfrec_bytes'] == ours
    assert BB.parse_line(by_map)['perfrec_bytes'] > 0


@pytest.mark.parametrize('boot_bytes,card', [(700 * 1024, 32 << 20), (40 << 20, 64 << 20)])
def test_sd_image(tmp_path, boot_bytes, card):
    """An Allwinner build's SD card: its boot file 8 KiB in, zeros around it,
    a power-of-two size that holds it; the same through the command line"""
    boot = os.urandom(boot_bytes)
    (tmp_path / SD.SUNXI_IMAGE).write_bytes(boot)
    proc = run(['/usr/bin/python3', os.path.join(REPO, 'scripts', 'perfrec_sd_image.py'),
                str(tmp_path)])
    assert proc.returncode == 0 and proc.stdout.strip() == str(tmp_path / SD.IMAGE)
    data = (tmp_path / SD.IMAGE).read_bytes()
    assert len(data) == card
    assert data[8192:8192 + boot_bytes] == boot
    assert data[:8192].count(0) == 8192 and not any(data[8192 + boot_bytes:])


def test_sd_image_none(tmp_path):
    """A build with no Allwinner boot file gets no card, and no line"""
    proc = run(['/usr/bin/python3', os.path.join(REPO, 'scripts', 'perfrec_sd_image.py'),
                str(tmp_path)])
    assert proc.returncode == 0 and proc.stdout == ''
    assert SD.write_image(str(tmp_path)) is None and not os.listdir(tmp_path)
