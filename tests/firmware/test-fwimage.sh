#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The firmware image and its checker (firmware/tools/mkfwimage.c): the
# built image passes `mkfwimage --check` with the header the contract
# gives (docs/firmware.md "Firmware image"), and corrupt variants are
# rejected, each with its own message: bad magic, header CRC, header
# version, payload CRC, truncated header, truncated payload, trailing
# bytes, a payload too big for IMEM, a bad entry, an empty file. TAP.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
MK=$BUILD/firmware/host/mkfwimage
IMG=$BUILD/firmware/inceptionn-fw.bin
. tests/lib/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

[ -x "$MK" ] && [ -r "$IMG" ] || { tap 1 "$MK and $IMG built (make firmware)"; tap_done; exit 1; }

out=$("$MK" --check "$IMG" 2>&1)
tap $? "the built image passes --check ($out)"

# the header's fields as the contract says, from the ELF and fw_version.h
python3 - "$IMG" "$BUILD/firmware/inceptionn-fw.payload" firmware/src/fw_version.h >"$T/hdr" 2>&1 <<'PY'
import re, struct, sys, zlib
img = open(sys.argv[1], "rb").read()
raw = open(sys.argv[2], "rb").read()
v = dict(re.findall(r"#define FW_VERSION_(MAJOR|MINOR|PATCH)\s+(\d+)", open(sys.argv[3]).read()))
magic, hv, ver, size, load, entry, pcrc, hcrc = struct.unpack_from("<8I", img)
raw += bytes(-len(raw) % 4)
want = int(v["MAJOR"]) << 16 | int(v["MINOR"]) << 8 | int(v["PATCH"])
errs = []
if magic != 0x57464e49 or img[:4] != b"INFW": errs.append("magic")
if hv != 1: errs.append("header version")
if ver != want: errs.append(f"version {ver:#x} != {want:#x}")
if size != len(raw) or img[32:] != raw: errs.append("payload")
if load != 0 or entry != 0: errs.append("load/entry")
if pcrc != zlib.crc32(raw): errs.append("payload crc")
if hcrc != zlib.crc32(img[:28]): errs.append("header crc")
print("bad: " + ", ".join(errs) if errs else f"{size} payload bytes, version {ver:#08x}")
sys.exit(1 if errs else 0)
PY
tap $? "header fields: magic INFW, version 1, fw_version.h's version, the objcopy payload, load 0, entry 0, zlib CRC-32s ($(cat "$T/hdr"))"

# variant NAME PYTHON-EXPR: write $T/NAME.bin from bytes b (the image),
# with helpers fix() (recompute the header CRC) and fixall() (both CRCs)
variant() {
	python3 - "$IMG" "$T/$1.bin" "$2" <<'PY'
import struct, sys, zlib
b = bytearray(open(sys.argv[1], "rb").read())
def fix(b):
    struct.pack_into("<I", b, 28, zlib.crc32(bytes(b[:28])))
    return b
def fixall(b):
    size = struct.unpack_from("<I", b, 12)[0]
    struct.pack_into("<I", b, 24, zlib.crc32(bytes(b[32:32 + size])))
    return fix(b)
def setw(b, off, v):
    struct.pack_into("<I", b, off, v)
    return b
b = eval(sys.argv[3])
open(sys.argv[2], "wb").write(bytes(b))
PY
}
# reject NAME EXPR MESSAGE: the variant fails --check with MESSAGE
reject() {
	variant "$1" "$2"
	"$MK" --check "$T/$1.bin" >"$T/out" 2>&1
	local rc=$?
	[ $rc -eq 1 ] && grep -q "$3" "$T/out"
	tap $? "$1: rejected (exit $rc): $(head -c 150 "$T/out")"
}
reject bad-magic         'setw(b, 0, 0x57464e48)'                  "bad magic"
reject magic-elf         'bytearray(b"\x7fELF") + b[4:]'           "bad magic"
reject header-crc        'setw(b, 8, 0x00020000)'                  "bad header CRC-32"
reject header-version    'fix(setw(b, 4, 2))'                      "header version 2 not supported"
reject payload-crc       'b[:100] + bytes([b[100] ^ 1]) + b[101:]' "bad payload CRC-32"
reject payload-crc-field 'fix(setw(b, 24, 0x12345678))'            "bad payload CRC-32"
reject short-header      'b[:20]'                                  "truncated: 20 bytes"
reject empty             'b[:0]'                                   "truncated: 0 bytes"
reject short-payload     'b[:-4]'                                  "truncated: the header says"
reject trailing          'b + b"\0\0\0\0"'                         "4 bytes after the payload"
reject odd-size          'fix(setw(b, 12, 4707))'                  "not a positive multiple of 4"
reject too-big           'fixall(setw(b + bytes(16384), 12, len(b) - 32 + 16384))' "too big for IMEM"
reject load-outside      'fix(setw(b, 16, 0x10000000))'            "load address 0x10000000 is not a word in IMEM"
reject entry-outside     'fix(setw(b, 20, 0x3000))'                "entry 0x00003000 is not a word of the payload"

# mkfwimage refuses a payload that does not fit
head -c 16388 /dev/zero >"$T/big.payload"
"$MK" "$T/big.payload" "$T/big.bin" >"$T/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/big.bin" ] && grep -q "do not fit IMEM" "$T/out"
tap $? "mkfwimage refuses a 16388-byte payload (exit $rc: $(head -c 100 "$T/out"))"
# and pads an odd one to a word
printf 'abcde' >"$T/odd.payload"
"$MK" "$T/odd.payload" "$T/odd.bin" && "$MK" --check "$T/odd.bin" >/dev/null &&
	[ "$(stat -c %s "$T/odd.bin")" = 40 ]
tap $? "a 5-byte payload is padded to 8 (a 40-byte image that passes --check)"

tap_done
