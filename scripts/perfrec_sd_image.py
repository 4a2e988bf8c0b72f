#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Write the SD card image a board's boot ROM boots, from its U-Boot build.

Usage:
    perfrec_sd_image.py BUILD_DIR

An Allwinner board's boot ROM reads SPL from an SD card 8 KiB in, and SPL
then reads U-Boot proper from where U-Boot's build put it in the same file
(u-boot-sunxi-with-spl.bin). BUILD_DIR/perfrec-sd.img is that file at
8 KiB on an otherwise zeroed card, whose size is a power of two (32 MiB
or more), as QEMU's SD card model wants. A build with no such file (not
an Allwinner board) gets no image. Prints the image's path, if written.
"""

import os
import sys

# What the boot ROM reads, and where on the card
SUNXI_IMAGE = 'u-boot-sunxi-with-spl.bin'
SUNXI_OFFSET = 8 * 1024
# The smallest card written (QEMU takes any power of two)
MIN_BYTES = 32 * 1024 * 1024
IMAGE = 'perfrec-sd.img'


def card_bytes(need):
    """The card's size for @need bytes: a power of two, MIN_BYTES or more"""
    size = MIN_BYTES
    while size < need:
        size *= 2
    return size


def write_image(build_dir):
    """Write BUILD_DIR's SD card image; return its path, or None if the
    build has nothing a boot ROM boots from a card"""
    src = os.path.join(build_dir, SUNXI_IMAGE)
    if not os.path.exists(src):
        return None
    with open(src, 'rb') as inf:
        boot = inf.read()
    out = os.path.join(build_dir, IMAGE)
    tmp = out + '.tmp'
    with open(tmp, 'wb') as outf:
        outf.truncate(card_bytes(SUNXI_OFFSET + len(boot)))
        outf.seek(SUNXI_OFFSET)
        outf.write(boot)
    os.replace(tmp, out)
    return out


def main(argv=None):
    """Write the image; return the exit code"""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print(__doc__.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    path = write_image(argv[0])
    if path:
        print(path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
