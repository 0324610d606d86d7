#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The inccodec command line: round trips, stat, stdin/stdout, and that every
# kind of bad input gets a message on stderr and a non-zero exit without
# leaving partial output. TAP output.
set -u
INCCODEC=${INCCODEC:-build/bin/inccodec}
GRAD=${INC_GRADIENTS:-../shared/gradients}/mlp-step0050.f32
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 bad=0

ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		bad=$((bad + 1))
	fi
}

# expect_fail WANT-EXIT STDERR-REGEX DESCRIPTION -- COMMAND...
expect_fail() {
	local want=$1 re=$2 what=$3 rc
	shift 4
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq "$want" ] && grep -qE "$re" "$T/err"
	ok $? "$what (exit $rc, stderr: $(head -c 100 "$T/err" | tr '\n' ' '))"
}

if [ ! -r "$GRAD" ]; then
	head -c 200000 /dev/urandom >"$T/g.f32"	# stand-in when ../shared is absent
	GRAD=$T/g.f32
fi

for mode in paper sparse; do
	for k in 1 10 24; do
		"$INCCODEC" compress -k $k --mode $mode "$GRAD" "$T/c" &&
			"$INCCODEC" decompress "$T/c" "$T/d" &&
			"$INCCODEC" stat --orig "$GRAD" "$T/c" >"$T/stat"
		rc=$?
		grep -q "bound .*: held" "$T/stat" && grep -q "mode $mode, k $k " "$T/stat" &&
			[ "$(stat -c %s "$T/d")" = "$(stat -c %s "$GRAD")" ]
		ok $((rc | $?)) "round trip k=$k mode=$mode: stat reports the bound held, sizes equal"
	done
done

# stdin/stdout give the same bytes as files; odd lengths keep their tail
head -c 10001 "$GRAD" >"$T/odd"
"$INCCODEC" compress -k 8 "$T/odd" "$T/c1" && "$INCCODEC" compress -k 8 - - <"$T/odd" >"$T/c2" &&
	cmp -s "$T/c1" "$T/c2" && "$INCCODEC" decompress - - <"$T/c1" >"$T/d2" &&
	[ "$(stat -c %s "$T/d2")" = 10001 ] && cmp -s <(tail -c 1 "$T/odd") <(tail -c 1 "$T/d2")
ok $? "stdin/stdout: same file as named files, 10001 bytes back with the tail byte exact"

"$INCCODEC" compress -k 10 --chunk 36 "$T/odd" "$T/c3" && "$INCCODEC" stat "$T/c3" | grep -q "of 36 bytes"
ok $? "--chunk 36 is honoured and shown by stat"

# a file that does not meet the bound is reported (exit 3)
"$INCCODEC" compress -k 2 "$GRAD" "$T/c4"
expect_fail 3 "decodes to" "stat --orig with an original of another length (exit 3)" -- \
	"$INCCODEC" stat --orig "$T/odd" "$T/c4"
head -c "$(stat -c %s "$GRAD")" /dev/zero | tr '\0' '\377' >"$T/nan"	# all NaN
"$INCCODEC" stat --orig "$T/nan" "$T/c4" >"$T/out"
[ $? -eq 3 ] && grep -q "NOT HELD" "$T/out"
ok $? "stat --orig: NaN originals that came back different are counted (NOT HELD, exit 3)"

# usage errors: exit 2
expect_fail 2 "usage" "no command" -- "$INCCODEC"
expect_fail 2 "unknown command" "unknown command" -- "$INCCODEC" squash a b
expect_fail 2 "needs -k" "compress without -k" -- "$INCCODEC" compress "$GRAD" "$T/x"
expect_fail 2 "1\.\.24" "k=0" -- "$INCCODEC" compress -k 0 "$GRAD" "$T/x"
expect_fail 2 "1\.\.24" "k=25" -- "$INCCODEC" compress -k 25 "$GRAD" "$T/x"
expect_fail 2 "1\.\.24" "k=ten" -- "$INCCODEC" compress -k ten "$GRAD" "$T/x"
expect_fail 2 "paper, sparse or width" "unknown mode" -- "$INCCODEC" compress -k 5 --mode dense "$GRAD" "$T/x"
expect_fail 2 "multiple of 4" "chunk 9004" -- "$INCCODEC" compress -k 5 --chunk 9004 "$GRAD" "$T/x"
expect_fail 2 "multiple of 4" "chunk 10" -- "$INCCODEC" compress -k 5 --chunk 10 "$GRAD" "$T/x"
expect_fail 2 "needs IN and OUT" "decompress with one argument" -- "$INCCODEC" decompress "$T/c1"
[ ! -e "$T/x" ]
ok $? "no output file left behind by usage errors"

# bad input: exit 1, clear message, no output file
expect_fail 1 "No such file" "missing input" -- "$INCCODEC" compress -k 5 "$T/missing" "$T/x"
expect_fail 1 "Is a directory" "directory as input" -- "$INCCODEC" decompress "$T" "$T/x"
expect_fail 1 "not an inccodec file" "decompress a raw float file" -- "$INCCODEC" decompress "$GRAD" "$T/x"
"$INCCODEC" compress -k 10 "$GRAD" "$T/big"
head -c $(($(stat -c %s "$T/big") / 2)) "$T/big" >"$T/trunc"
expect_fail 1 "truncated" "truncated file" -- "$INCCODEC" decompress "$T/trunc" "$T/x"
cp "$T/c1" "$T/flip"
printf '\x55' | dd of="$T/flip" bs=1 seek=200 conv=notrunc status=none
expect_fail 1 "checksum" "a corrupted byte" -- "$INCCODEC" decompress "$T/flip" "$T/x"
cp "$T/c1" "$T/ver"
printf '\x02' | dd of="$T/ver" bs=1 seek=4 conv=notrunc status=none
expect_fail 1 "unsupported" "a newer format version" -- "$INCCODEC" decompress "$T/ver" "$T/x"
cat "$T/c1" "$T/c1" >"$T/twice"
expect_fail 1 "corrupt" "bytes after the last chunk" -- "$INCCODEC" decompress "$T/twice" "$T/x"
expect_fail 1 "truncated" "stat of a truncated file" -- "$INCCODEC" stat "$T/trunc"
[ ! -e "$T/x" ] && [ -z "$(ls "$T" | grep tmp)" ]
ok $? "no output or temporary file left behind by failed runs"
expect_fail 1 "" "write into a missing directory" -- "$INCCODEC" compress -k 5 "$GRAD" "$T/no/such/dir"

echo "1..$n"
[ "$bad" -eq 0 ]
