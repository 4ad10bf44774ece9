#!/usr/bin/env python3
"""Writes a minimal ELF64 image whose string data holds the given kernel
names, the way a cubin's string table does: enough for the fake driver of
unittests/Runtime/FakeCuda to load it and find the kernels."""
import struct
import sys

names = b''.join(b'\0' + n.encode() for n in sys.argv[2:]) + b'\0'
image = bytearray(b'\x7fELF\x02\x01' + bytes(58)) + names
# e_shoff: the end of the image, with no sections.
struct.pack_into('<Q', image, 0x28, len(image))
with open(sys.argv[1], 'wb') as f:
    f.write(image)
