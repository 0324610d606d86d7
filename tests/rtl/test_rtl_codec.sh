#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# inc-rtl-codec (files through the RTL engines' models) against inccodec (the
# C library): for any input both must write the same bytes, both ways, and
# reject the same bad files. TAP output.
set -u
BUILD=${BUILD:-build}
RTL=$BUILD/bin/inc-rtl-codec
LIB=$BUILD/bin/inccodec
GRAD=${INC_GRADIENTS:-../shared/gradients}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 bad=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=$((bad + 1)); fi
}

# same_compress LANES K MODE FILE
same() {
	local lanes=$1 k=$2 mode=$3 f=$4
	"$LIB" compress -k "$k" --mode "$mode" "$f" "$T/lib.incg" &&
		"$RTL" --lanes "$lanes" compress -k "$k" --mode "$mode" "$f" "$T/rtl.incg" &&
		cmp -s "$T/lib.incg" "$T/rtl.incg" &&
		"$LIB" decompress "$T/lib.incg" "$T/lib.out" &&
		"$RTL" --lanes "$lanes" decompress "$T/lib.incg" "$T/rtl.out" &&
		cmp -s "$T/lib.out" "$T/rtl.out"
}

files=()
if [ -d "$GRAD" ]; then
	files=("$GRAD"/*.f32)
fi
# odd lengths, raw bit patterns (every class, NaN payloads), all zeros
head -c 123457 /dev/urandom >"$T/random.bin"
head -c 40003 /dev/zero >"$T/zeros.bin"
head -c 5 /dev/urandom >"$T/tiny.bin"
: >"$T/empty.bin"

for f in "${files[@]}"; do
	for mode in paper sparse; do
		same 8 10 "$mode" "$f"
		ok $? "8 lanes, k=10 $mode: $(basename "$f") compresses and decompresses identically"
	done
done
for f in "${files[0]:-$T/random.bin}" "${files[7]:-$T/random.bin}" "$T/random.bin" "$T/zeros.bin" "$T/tiny.bin" "$T/empty.bin"; do
	for k in 1 6 16 24; do
		same 16 "$k" sparse "$f" && same 16 "$k" paper "$f"
		ok $? "16 lanes, k=$k both modes: $(basename "$f") identical"
	done
	same 8 3 sparse "$f"
	ok $? "8 lanes, k=3 sparse: $(basename "$f") identical"
done

# width mode: the 16-lane engines (inc_compressor, inc_width_decompressor)
for f in "${files[@]}"; do
	same 16 10 width "$f"
	ok $? "16 lanes, k=10 width: $(basename "$f") compresses and decompresses identically"
done
for f in "$T/random.bin" "$T/zeros.bin" "$T/tiny.bin" "$T/empty.bin"; do
	same 16 1 width "$f" && same 16 8 width "$f" && same 16 24 width "$f"
	ok $? "16 lanes, k=1, 8, 24 width: $(basename "$f") identical"
done
"$RTL" --lanes 8 compress -k 10 --mode width "$T/random.bin" "$T/x" 2>"$T/e"
[ $? -ne 0 ] && grep -q "16-lane engines only" "$T/e"
ok $? "8 lanes: width mode is refused, saying it needs --lanes 16 ($(head -1 "$T/e"))"
"$LIB" compress -k 10 --mode width "$T/random.bin" "$T/w.incg"
"$RTL" --lanes 8 decompress "$T/w.incg" "$T/x" 2>"$T/e"
[ $? -ne 0 ] && grep -q "16-lane engines only" "$T/e"
ok $? "8 lanes: a width file is refused, saying it needs --lanes 16"

# bad files are rejected by both, with the same message
f=${files[0]:-$T/random.bin}
"$LIB" compress -k 10 "$f" "$T/good.incg"
cp "$T/good.incg" "$T/flip.incg"
printf '\x55' | dd of="$T/flip.incg" bs=1 seek=300 conv=notrunc status=none
head -c 777 "$T/good.incg" >"$T/trunc.incg"
for bf in flip trunc; do
	"$LIB" decompress "$T/$bf.incg" "$T/x" 2>"$T/e1"; r1=$?
	"$RTL" decompress "$T/$bf.incg" "$T/x" 2>"$T/e2"; r2=$?
	[ $r1 -ne 0 ] && [ $r1 -eq $r2 ] && [ "$(sed 's/^[^:]*://' "$T/e1")" = "$(sed 's/^[^:]*://' "$T/e2")" ]
	ok $? "a $bf file: both exit $r1/$r2 with the same message ($(cat "$T/e2"))"
done
"$RTL" --lanes 12 compress -k 1 "$f" "$T/x" 2>"$T/e"
[ $? -eq 2 ] && grep -q "8 or 16" "$T/e"
ok $? "--lanes 12 is refused"

echo "1..$n"
[ "$bad" -eq 0 ]
