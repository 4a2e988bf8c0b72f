#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Build perfrec into one board's defconfig and say what it costs there.

Usage:
    perfrec_board.py --src TREE --out DIR --defconfig NAME_defconfig
                     [--fragment FILE]... [--verdict TOOL] [--dtb FILE]

TREE is an overlaid U-Boot tree. The cross compiler follows the defconfig's
architecture (AArch64 or 32-bit Arm). perfrec's fragments are merged onto
the defconfig as the guide's plain-tree steps do (merge_config.sh, then
olddefconfig); an option that did not stick is named with the Kconfig
dependency that blocked it. Then U-Boot's own build, the symfs host perf
reads (DIR/symfs), and one line: the image the board boots, its size,
perfrec's part of it and the margin to the board's size limit. An Allwinner
board's SD card image is written too (scripts/perfrec_sd_image.py). With
--verdict, the DTB verdict tool's lines for the board's device tree (or
--dtb's, for a board whose tree comes from its firmware).

Exit code 0 when built, 1 when not (the line says why), 2 for bad arguments.
"""

import argparse
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
# pylint: disable=wrong-import-position
import perfrec_kconfig_deps
import perfrec_sd_image

CROSS = {'arm64': 'aarch64-linux-gnu-', 'arm': 'arm-linux-gnueabihf-'}

# perfrec's objects, by path in the build: what the image holds of perfrec
PERFREC_OBJS = re.compile(r'^(drivers/perf/|lib/perfrec/|lib/perf_data|cmd/perfrec)')

# Output sections that are not in the image file (or not perfrec's to count)
NOT_IMAGE = re.compile(r'^(\.bss|\.sbss|/DISCARD/|\.debug|\.comment|\.note|\.rela?\.dyn|'
                       r'\.dyn|\.hash|\.gnu|\.interp|\.eh_frame|\.ARM\.attributes|'
                       r'\.stab|\.symtab|\.strtab|\.shstrtab)')


# What a boot image's name ends in (binman also writes keys and config files)
IMAGE_EXTS = ('.bin', '.img', '.itb', '.imx', '.kwb', '.sfp', '.stm32', '.rom', '.elf',
              '.srec', '.fit')


class BoardError(Exception):
    """A step failed; the message is the one line to print"""


def uboot_make(args, cross, *targets, log=None):
    """Run U-Boot's make in the tree for the build directory; return its CompletedProcess"""
    env = dict(os.environ, PATH='/usr/bin:' + os.environ.get('PATH', ''))
    date = subprocess.run([os.path.join(TOP, 'scripts', 'perfrec_source_date.sh'), args.src],
                          capture_output=True, text=True, check=False).stdout.strip()
    if date:
        env['SOURCE_DATE_EPOCH'] = date
    env.pop('MAKEFLAGS', None)
    env.pop('MAKELEVEL', None)
    prefix = '-ffile-prefix-map=%s=. -ffile-prefix-map=%s=.' % (args.src, args.out)
    cmd = ['make', '-C', args.src, 'O=' + args.out, 'cmd_check_local_export=',
           'CROSS_COMPILE=' + cross, 'PYTHON3=/usr/bin/python3', 'KCFLAGS=' + prefix,
           'KAFLAGS=' + prefix] + list(args.uboot_flags) + list(targets)
    if args.ccache:
        env['CCACHE_DIR'] = args.ccache
        env['CCACHE_BASEDIR'] = args.out
        env.setdefault('CCACHE_MAXSIZE', '15G')
        cmd[4:4] = ['CC=ccache %sgcc' % cross, 'HOSTCC=ccache gcc']
    with open(log or os.devnull, 'a', encoding='utf-8') as out:
        return subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, check=False)


def read_config(path):
    """Return {option: value} of a .config (strings keep their quotes)"""
    vals = {}
    with open(path, encoding='utf-8') as inf:
        for line in inf:
            mat = re.match(r'^(CONFIG_\w+)=(.*)$', line)
            if mat:
                vals[mat.group(1)] = mat.group(2)
    return vals


def configured(args):
    """The .config of an earlier run with the same defconfig and fragments, if none of
    them (nor perfrec's Kconfig) changed since: (arch, cross, config), else None"""
    config = os.path.join(args.out, '.config')
    stamp = os.path.join(args.out, '.perfrec-board')
    want = '\n'.join([args.defconfig] + args.fragment)
    inputs = [os.path.join(args.src, 'configs', args.defconfig),
              os.path.join(args.src, 'drivers', 'perf', 'Kconfig')] + args.fragment
    try:
        with open(stamp, encoding='utf-8') as inf:
            if inf.read() != want:
                return None
        if max(os.path.getmtime(f) for f in inputs) > os.path.getmtime(config):
            return None
    except OSError:
        return None
    cfg = read_config(config)
    arch = 'arm64' if cfg.get('CONFIG_ARM64') == 'y' else 'arm'
    return arch, CROSS[arch], cfg


def configure(args, log):
    """defconfig with the right compiler, the fragments merged; return (arch, cross, config)"""
    os.makedirs(args.out, exist_ok=True)
    done = configured(args)
    if done:
        return done
    arch = None
    for guess in ('arm64', 'arm'):
        if uboot_make(args, CROSS[guess], args.defconfig, log=log).returncode:
            raise BoardError('%s: U-Boot\'s make %s failed (see %s)' %
                             (args.defconfig, args.defconfig, log))
        cfg = read_config(os.path.join(args.out, '.config'))
        arch = 'arm64' if cfg.get('CONFIG_ARM64') == 'y' else 'arm'
        if cfg.get('CONFIG_ARM') != 'y':
            raise BoardError('%s is not an Arm board (perfrec samples Arm cores only)' %
                             args.defconfig)
        if arch == guess:
            break
    config = os.path.join(args.out, '.config')
    with open(log, 'a', encoding='utf-8') as out:
        subprocess.run([os.path.join(args.src, 'scripts/kconfig/merge_config.sh'), '-m', '-O',
                        args.out, config] + args.fragment, cwd=args.src, stdout=out,
                       stderr=subprocess.STDOUT, check=True,
                       env=dict(os.environ, PATH='/usr/bin:' + os.environ.get('PATH', '')))
    if uboot_make(args, CROSS[arch], 'olddefconfig', log=log).returncode:
        raise BoardError('%s: make olddefconfig failed (see %s)' % (args.defconfig, log))
    blocked = perfrec_kconfig_deps.blocked(args.src, read_config(config), args.fragment)
    if blocked:
        raise BoardError('%s: %s' % (args.defconfig, blocked[0]))
    with open(os.path.join(args.out, '.perfrec-board'), 'w', encoding='utf-8') as outf:
        outf.write('\n'.join([args.defconfig] + args.fragment))
    return arch, CROSS[arch], read_config(config)


def first_error(log):
    """The first line of a build log that says what went wrong"""
    with open(log, encoding='utf-8', errors='replace') as inf:
        lines = inf.read().splitlines()
    for pat in (r'exceeds file size limit', r'\berror\b', r'undefined reference',
                r'Error \d', r'[Ff]atal'):
        for line in lines:
            if re.search(pat, line):
                return line.strip()
    return lines[-1].strip() if lines else 'no output'


def image_file(out, cfg):
    """The image the board boots: its config's build target, else the largest
    image binman made (the others are its parts: the i.MX8M's DDR firmware
    with SPL inside flash.bin), else u-boot.bin"""
    target = cfg.get('CONFIG_BUILD_TARGET', '""').strip('"')
    if target and os.path.exists(os.path.join(out, target)):
        return target
    def prop(node, name):
        return subprocess.run(['fdtget', dtb, node, name], capture_output=True, text=True,
                              check=False).stdout.strip()

    names = []
    dtb = os.path.join(out, 'u-boot.dtb')
    if os.path.exists(dtb):
        # /binman is the image, or with "multiple-images" each subnode is one
        if subprocess.run(['fdtget', dtb, '/binman', 'multiple-images'], capture_output=True,
                          check=False).returncode:
            names.append(prop('/binman', 'filename') or 'image.bin')
        else:
            res = subprocess.run(['fdtget', '-l', dtb, '/binman'], capture_output=True,
                                 text=True, check=False)
            names += [prop('/binman/' + node, 'filename') or node + '.bin'
                      for node in res.stdout.split()]
    # Not what binman writes beside the images (the TI K3's key templates, custMpk.pem)
    made = [n for n in names if os.path.exists(os.path.join(out, n)) and
            os.path.splitext(n)[1] in IMAGE_EXTS]
    return max(made, key=lambda n: os.path.getsize(os.path.join(out, n))) if made else \
        'u-boot.bin'


def image_sections(out, cross):
    """The output sections of the ELF that u-boot.bin holds (allocated, with contents)"""
    res = subprocess.run([cross + 'readelf', '-SW', os.path.join(out, 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    keep = set()
    for mat in re.finditer(r'^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S*)',
                           res, re.M):
        name, kind, flags = mat.groups()
        if kind == 'PROGBITS' and 'A' in flags and not NOT_IMAGE.match(name):
            keep.add(name)
    return keep


def perfrec_bytes(out, cross):
    """Bytes in the image of perfrec's objects and of the symbol table (perfrec
    report's, common/system_map.o), from the link map (u-boot.map); None if
    u-boot.map is not the linker's (binman writes <image>.map beside each
    image: one named "u-boot", the STM32MP1's FIT, replaces it)"""
    with open(os.path.join(out, 'u-boot.map'), encoding='utf-8', errors='replace') as inf:
        parts = inf.read().split('Linker script and memory map', 1)
    if len(parts) < 2:
        return None
    keep = image_sections(out, cross)
    total, table, section, pending = 0, 0, None, None
    lines = parts[1].splitlines()
    for line in lines:
        if re.match(r'^\S', line):
            section = line.split()[0]
            continue
        fields = line.split()
        if pending and len(fields) == 3 and fields[0].startswith('0x'):
            fields = [pending] + fields
        pending = None
        if len(fields) == 1 and line.startswith(' .') or (len(fields) == 1 and
                                                          line.startswith(' __u_boot')):
            pending = fields[0]
            continue
        if (len(fields) != 4 or section not in keep or not fields[1].startswith('0x') or
                not fields[2].startswith('0x')):
            continue
        if PERFREC_OBJS.match(fields[3]):
            total += int(fields[2], 16)
        elif fields[3] == 'common/system_map.o':
            table += int(fields[2], 16)
    return total, table


def perfrec_symbols(out, cross):
    """perfrec_bytes() where LTO links: the link map then names the link-time
    partitions, not perfrec's objects. The sizes of the ELF's symbols in the
    image that perfrec's objects define (GCC's clones, name.isra.0 and the like,
    by their name; string literals have no symbol: not counted)"""
    names = set()
    for root, _, files in os.walk(out):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), out)
            if name.endswith('.o') and name != 'built-in.o' and PERFREC_OBJS.match(rel):
                res = subprocess.run([cross + 'gcc-nm', '--defined-only', os.path.join(root, name)],
                                     capture_output=True, text=True, check=False)
                names |= {ln.split()[-1].split('.')[0] for ln in res.stdout.splitlines()
                          if ln.strip()}
    res = subprocess.run([cross + 'nm', '-S', '--defined-only', os.path.join(out, 'u-boot')],
                         capture_output=True, text=True, check=True)
    total, table = 0, 0
    for line in res.stdout.splitlines():
        fields = line.split()
        if len(fields) != 4 or fields[2] not in 'tTrRdD':
            continue
        if fields[3] == 'system_map':
            table += int(fields[1], 16)
        elif fields[3].split('.')[0] in names:
            total += int(fields[1], 16)
    return total, table


def size_limit(cfg, out, image):
    """What U-Boot's own size check holds the build to: (file, limit) or None"""
    limit = cfg.get('CONFIG_BOARD_SIZE_LIMIT')
    if limit and cfg.get('CONFIG_HAS_BOARD_SIZE_LIMIT') == 'y':
        # U-Boot checks u-boot-nodtb.bin, u-boot.img and the image with SPL against it
        name = 'u-boot-nodtb.bin' if os.path.exists(os.path.join(out, 'u-boot-nodtb.bin')) \
            else image
        return name, int(limit, 0)
    return None


def default_dtb(out, cfg):
    """The build's DTB of CONFIG_DEFAULT_DEVICE_TREE (arch/arm/dts/ or, with
    OF_UPSTREAM, dts/upstream/src/), where U-Boot made no u-boot.dtb (a tree
    the firmware gives: CONFIG_OF_BOARD); None if there is none"""
    name = os.path.basename(cfg.get('CONFIG_DEFAULT_DEVICE_TREE', '""').strip('"')) + '.dtb'
    for top in ('arch', 'dts'):
        for root, _, files in os.walk(os.path.join(out, top)):
            if name in files:
                return os.path.join(root, name)
    return None


def verdict(args, cfg):
    """The DTB verdict tool's lines for the board's tree (or --dtb's)"""
    dtb = args.dtb
    note = ''
    if not dtb:
        dtb = os.path.join(args.out, 'u-boot.dtb')
        if not os.path.exists(dtb):
            dtb = default_dtb(args.out, cfg) or dtb
        if cfg.get('CONFIG_OF_BOARD') == 'y':
            note = ('(the board\'s tree comes from its firmware at run time: this is the one '
                    'U-Boot built for it; give DTB=<file> for the firmware\'s)')
    if not os.path.exists(dtb):
        return ['verdict: no device tree: %s is not there (give DTB=<file>)' % dtb]
    cmd = [args.verdict]
    addr = cfg.get('CONFIG_PERFREC_BOOT_ADDR')
    if addr and cfg.get('CONFIG_PERFREC_BOOT') == 'y':
        cmd += ['--boot-addr', addr, '--boot-size', cfg.get('CONFIG_PERFREC_BOOT_SIZE', '0')]
    cmd.append(dtb)
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = ['verdict (%s): %s' % (os.path.relpath(dtb, args.out) if not args.dtb else dtb,
                                   note)] if note else []
    return lines + (res.stdout + res.stderr).rstrip('\n').splitlines()


def check_objects(out, cross):
    """The command in U-Boot proper, none of perfrec in its SPL"""
    syms = subprocess.run([cross + 'nm', os.path.join(out, 'u-boot')], capture_output=True,
                          text=True, check=True).stdout
    if not re.search(r' do_perfrec$', syms, re.M):
        raise BoardError('%s/u-boot has no do_perfrec' % out)
    spl = os.path.join(out, 'spl', 'u-boot-spl')
    if os.path.exists(spl):
        syms = subprocess.run([cross + 'nm', spl], capture_output=True, text=True,
                              check=True).stdout
        if re.search(r' (perf_data|perfrec)_', syms):
            raise BoardError('%s has perfrec\'s code' % spl)


def missing_blobs(log):
    """Was the image built without blobs it wants (BL31, SCP, ...)? binman's words, or
    the FIT script's (SPL_FIT_GENERATOR) before binman took over"""
    with open(log, encoding='utf-8', errors='replace') as inf:
        return bool(re.search(r'missing external blobs|is missing external blob|'
                              r'resulting binary is non-functional', inf.read()))


def build(args):
    """Configure, build, write the symfs; return the lines to print"""
    log = os.path.join(args.out, 'build.log')
    os.makedirs(args.out, exist_ok=True)
    with open(log, 'w', encoding='utf-8'):
        pass
    arch, cross, cfg = configure(args, log)
    if uboot_make(args, cross, '-j%d' % args.jobs, '-s', log=log).returncode:
        line = first_error(log)
        hint = (' (perfrec\'s smallest configuration: configs/perfrec-board.config with '
                'bench/variants/smallest.config)' if 'size limit' in line else '')
        raise BoardError('%s: the build failed: %s%s' % (args.defconfig, line, hint))
    if args.fragment:
        check_objects(args.out, cross)
    subprocess.run(['/usr/bin/python3', os.path.join(TOP, 'tools/perfrec/perfrec_symfs.py'),
                    '--objcopy', cross + 'objcopy', os.path.join(args.out, 'u-boot'),
                    os.path.join(args.out, 'symfs')], check=True, capture_output=True)
    lines = [cost_line(args, arch, cross, cfg) +
             ('; not bootable: blobs missing' if missing_blobs(log) else ''),
             'perfrec: for host perf: --symfs %s' % os.path.join(args.out, 'symfs')]
    card = perfrec_sd_image.write_image(args.out)
    if card:
        lines.append('perfrec: SD card image: %s (for QEMU: -drive file=%s,format=raw,if=sd)' %
                     (card, card))
    if args.verdict:
        lines += verdict(args, cfg)
    return lines


def cost_line(args, arch, cross, cfg):
    """The line of what the build costs: image, size, perfrec's part, the size limit"""
    image = image_file(args.out, cfg)
    size = os.path.getsize(os.path.join(args.out, image))
    lto = cfg.get('CONFIG_LTO') == 'y'
    counted = None if lto else perfrec_bytes(args.out, cross)
    by_symbol = ''
    if counted is None:
        by_symbol = ('; LTO: by symbol, its strings not counted' if lto else
                     '; by symbol: binman replaced the link map, its strings not counted')
        counted = perfrec_symbols(args.out, cross)
    ours, table = counted
    limit = size_limit(cfg, args.out, image)
    if limit:
        used = os.path.getsize(os.path.join(args.out, limit[0]))
        margin = 'size limit %d bytes for %s: %d to spare' % (limit[1], limit[0],
                                                               limit[1] - used)
    else:
        margin = 'no size limit in its config'
    return ('perfrec: %s (%s): %s %d bytes, perfrec %d bytes of it (%.1f%%%s)%s, %s' %
            (args.defconfig, arch, os.path.join(args.out, image), size, ours,
             100.0 * ours / size, by_symbol,
             ' and its symbol table %d' % table if table else '', margin))


def main(argv=None):
    """Build and print; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--src', required=True, help='the overlaid U-Boot tree')
    parser.add_argument('--out', required=True, help='the build directory')
    parser.add_argument('--defconfig', required=True, help='the board\'s <name>_defconfig')
    parser.add_argument('--fragment', action='append', default=[],
                        help='a config fragment to merge (perfrec\'s options)')
    parser.add_argument('--jobs', type=int, default=os.cpu_count())
    parser.add_argument('--uboot-flag', dest='uboot_flags', action='append', default=[],
                        help='a VAR=value for U-Boot\'s make (BINMAN_ALLOW_MISSING=1)')
    parser.add_argument('--verdict', help='the DTB verdict tool')
    parser.add_argument('--dtb', help='the board\'s DTB, where its firmware gives it')
    parser.add_argument('--ccache', help='compile through ccache, with this cache directory')
    args = parser.parse_args(argv)
    args.src, args.out = os.path.abspath(args.src), os.path.abspath(args.out)
    args.fragment = [os.path.abspath(f) for f in args.fragment]
    if not re.match(r'^[\w.+-]+_defconfig$', args.defconfig):
        parser.error('BOARD=%s: give a defconfig\'s name, <name>_defconfig' % args.defconfig)
    if not os.path.exists(os.path.join(args.src, 'configs', args.defconfig)):
        print('perfrec: BOARD=%s: no configs/%s in %s' % (args.defconfig, args.defconfig,
                                                          args.src))
        return 1
    try:
        print('\n'.join(build(args)))
    except BoardError as exc:
        print('perfrec: %s' % exc)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
