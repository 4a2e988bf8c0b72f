# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Build and read the perfrec test "OS" payload (perfrec_payload.S).

The payload is a flat arm64 Image (booti-able) for QEMU virt that prints the
PMU, GIC and exception state U-Boot handed it as 'PAYLOAD <NAME> 0x<hex>'
lines between 'PAYLOAD BEGIN' and 'PAYLOAD END', then halts.

    path = build(str(tmp_path))
    cons.run_command(f'load hostfs - $kernel_addr_r {path}')
    cons.run_command('booti $kernel_addr_r - $fdtcontroladdr', wait_for_prompt=False)
    cons.wait_for(END)      # the board then halts: restart U-Boot afterwards
    text = cons.p.before    # console text up to END (u_boot_spawn)
    regs = parse(text)      # {'CurrentEL': 0x8, 'PMCR_EL0': 0x41013000, ...}

parse() takes the console text with or without the final 'PAYLOAD END'.

The payload hard-codes QEMU virt addresses (PL011 at 0x09000000, GIC at
0x08000000). PMEVTYPERn/PMEVCNTRn lines appear only for n < PMCR_EL0.N;
GIC lines depend on the GIC version (GIC_VERSION 2 or 3).
"""

import os
import re
import struct
import subprocess

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'perfrec_payload.S')

BEGIN = 'PAYLOAD BEGIN'
END = 'PAYLOAD END'
LINE = re.compile(r'^PAYLOAD (\w+) 0x([0-9a-f]+)\r?$', re.M)

# arm64 Image header: magic at 0x38
IMAGE_MAGIC = b'ARM\x64'


def build(outdir, cross_compile='aarch64-linux-gnu-'):
    """Assemble and link the payload; return the path of the flat Image"""
    os.makedirs(outdir, exist_ok=True)
    obj = os.path.join(outdir, 'perfrec_payload.o')
    elf = os.path.join(outdir, 'perfrec_payload.elf')
    binary = os.path.join(outdir, 'perfrec_payload.bin')
    for cmd in ([cross_compile + 'gcc', '-c', '-nostdinc', SRC, '-o', obj],
                [cross_compile + 'ld', '-Ttext=0', '-e', '_head', '--build-id=none',
                 obj, '-o', elf],
                [cross_compile + 'objcopy', '-O', 'binary', '-j', '.text', elf, binary]):
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    with open(binary, 'rb') as inf:
        data = inf.read()
    # Check what booti will look at: magic, image_size, flags
    _, text_offset, image_size, flags = struct.unpack_from('<QQQQ', data)
    if (data[0x38:0x3c] != IMAGE_MAGIC or text_offset != 0 or
            image_size < len(data) or not flags & 8):
        raise RuntimeError(f'{binary}: bad arm64 Image header')
    return binary


def parse(console_text):
    """{NAME: value} of the last payload report in @console_text

    Only the lines after the last 'PAYLOAD BEGIN' count, up to the
    'PAYLOAD END' after it if there is one (so text cut at END, as from
    wait_for(END), is fine); all of the text if there is no BEGIN.
    Raises ValueError if the report names a register twice.
    """
    text = console_text.replace('\r\n', '\n')
    begin = text.rfind(BEGIN)
    if begin >= 0:
        text = text[begin + len(BEGIN):]
    end = text.find(END)
    if end >= 0:
        text = text[:end]
    regs = {}
    for match in LINE.finditer(text):
        name = match.group(1)
        if name in regs:
            raise ValueError(f'payload reported {name} twice')
        regs[name] = int(match.group(2), 16)
    return regs
