#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Memory images of a management-core ELF for $readmemh.

usage: elf2hex.py ELF OUT_PREFIX [IMEM_BYTES] [DMEM_BYTES]

Writes OUT_PREFIX.imem.hex and OUT_PREFIX.dmem.hex (one 32-bit word a line,
little-endian words, from word 0) with every PT_LOAD segment's file bytes
placed by its physical address: IMEM at 0x00000000, DMEM at 0x10000000
(rtl/mgmt/mgmt_soc.v). Prints "IMEM_WORDS DMEM_WORDS" (the words up to the
last one loaded). A segment outside both memories is an error.
"""
import struct
import sys

IMEM_BASE, DMEM_BASE = 0x00000000, 0x10000000


def main():
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__)
    elf, prefix = sys.argv[1], sys.argv[2]
    sizes = [int(sys.argv[3], 0) if len(sys.argv) > 3 else 16384,
             int(sys.argv[4], 0) if len(sys.argv) > 4 else 16384]
    data = open(elf, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        sys.exit(f"{elf}: not a 32-bit little-endian ELF")
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != 243:
        sys.exit(f"{elf}: not RISC-V (e_machine {e_machine})")
    e_phoff, = struct.unpack_from("<I", data, 28)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 42)
    images = [bytearray(), bytearray()]
    for i in range(e_phnum):
        p_type, p_offset, _vaddr, p_paddr, p_filesz, _memsz = struct.unpack_from(
            "<IIIIII", data, e_phoff + i * e_phentsize)
        if p_type != 1 or p_filesz == 0:
            continue
        for m, base in enumerate((IMEM_BASE, DMEM_BASE)):
            if base <= p_paddr and p_paddr + p_filesz <= base + sizes[m]:
                off = p_paddr - base
                img = images[m]
                if len(img) < off + p_filesz:
                    img.extend(bytes(off + p_filesz - len(img)))
                img[off:off + p_filesz] = data[p_offset:p_offset + p_filesz]
                break
        else:
            sys.exit(f"{elf}: segment at 0x{p_paddr:08x} ({p_filesz} bytes) "
                     "is outside IMEM and DMEM")
    counts = []
    for img, name in zip(images, ("imem", "dmem")):
        img.extend(bytes(-len(img) % 4))
        words = struct.unpack(f"<{len(img) // 4}I", bytes(img))
        with open(f"{prefix}.{name}.hex", "w") as f:
            f.write(f"// {name} image of {elf}: {len(words)} words\n")
            for w in words:
                f.write(f"{w:08x}\n")
        counts.append(len(words))
    print(*counts)


if __name__ == "__main__":
    main()
