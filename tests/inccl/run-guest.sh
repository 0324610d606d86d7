#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# inccl's transport nic for real: one QEMU guest (Debian's kernel, TCG)
# loads inceptionn.ko and runs the collectives with marked sockets. The
# guest has no NIC at all: the socket option is the module's and needs no
# device, and on 127.0.0.1 no frame leaves through an inceptionn NIC, so
# the bytes are Q(x) as written (the cluster test, run-cluster.sh, puts
# NICs in the path). In the guest (tests/inccl/guest-nic.sh):
#   - inceptionn.ko is loaded, no inceptionn device exists, and
#     INC_SO_GRADIENT answers (incbench --transport nic starts);
#   - test_inccl -t nic: the whole loopback matrix (2, 3, 4, 7 ranks, ring
#     and wa) with transport nic, every result against the reference model;
#   - incbench --local 4 --transport nic --digest on a real gradient file,
#     the runs of RUNS below, each row checked against the model.
# On this host, the same incbench runs with --transport sw: every row's
# digest must equal the guest's (the transports are bit-identical by
# design; the guest's codec is the scalar one, the host's may be AVX).
#
# usage: tests/inccl/run-guest.sh
# environment: BUILD (default build), TIMEOUT (seconds for the guest,
#   default 900), KO (a built inceptionn.ko instead of building one), GRAD
#   (the float32 file, default ../shared/gradients/charlm-step0150.f32;
#   generated data when it is missing), MEM (guest RAM, default 1024M)
# Output: TAP (the guest's test points through tests/vm/run.sh, then the
# digest comparisons). Logs: $BUILD/vm/inccl-guest/.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
TIMEOUT=${TIMEOUT:-900}
GRAD=${GRAD:-../shared/gradients/charlm-step0150.f32}
MEM=${MEM:-1024M}
OUT=$BUILD/inccl/vm-guest
LOGS=$BUILD/vm/inccl-guest
export BUILD

# NAME ARGS: the incbench runs (the guest adds --transport nic --digest
# and --data; this host --transport sw)
RUNS='ring-sparse allreduce --local 4 --algo ring -k 10 --mode sparse -b 64K -e 1M -f 4 -n 2 -w 1 --timeout 300
wa-paper allreduce --local 4 --algo wa -k 8 --mode paper -b 64K -e 1M -f 4 -n 2 -w 1 --timeout 300
rs-ring reducescatter --local 4 --algo ring -k 12 --mode sparse -b 256K -e 1M -f 4 -n 2 -w 1 --timeout 300'

mkdir -p "$OUT" "$LOGS" || exit 1
rm -f "$LOGS"/*.log
for t in bin/incbench tests/test_inccl; do
	[ -x "$BUILD/$t" ] || make --no-print-directory "$BUILD/$t" >&2 ||
		{ echo "Bail out! $BUILD/$t did not build"; exit 1; }
done
ko=${KO:-}
[ -n "$ko" ] || ko=$(scripts/build-module.sh) || { echo "Bail out! inceptionn.ko did not build"; exit 1; }
printf '%s\n' "$RUNS" >"$OUT/runs"
files=(--file "$OUT/runs:/inccl/runs")
data=()
if [ -r "$GRAD" ]; then
	files+=(--file "$GRAD:/data/grad.f32")
	data=(--data "$GRAD")
fi
# /init loads the module (mkinitrd.sh --module)
tests/vm/mkinitrd.sh "$OUT/guest.cpio.gz" --module "$ko" "${files[@]}" \
	--bin "$BUILD/bin/incbench" --bin "$BUILD/tests/test_inccl" \
	--script tests/inccl/guest-nic.sh || { echo "Bail out! mkinitrd"; exit 1; }

# this host's digests, --transport sw
declare -A want=()
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
host_ok=1
while read -r name args; do
	# shellcheck disable=SC2086
	out=$("$BUILD/bin/incbench" $args --transport sw --digest ${data[@]+"${data[@]}"} 2>&1)
	rc=$?
	rows=$(awk '$1 ~ /^[0-9]+$/ && $(NF - 1) == "ok" { print $1, $NF }' <<<"$out")
	if [ "$rc" -ne 0 ] || [ -z "$rows" ]; then
		echo "# host: incbench $args --transport sw: exit $rc"
		sed 's/^/#   /' <<<"$out"
		host_ok=0
	fi
	while read -r size digest; do
		[ -n "$size" ] && want[$name/$size]=$digest
	done <<<"$rows"
done <<<"$RUNS"

tests/vm/run.sh --timeout "$TIMEOUT" --log-dir "$LOGS" --guest "inccl:$OUT/guest.cpio.gz:$MEM" \
	>"$OUT/run.tap" 2>&1
rc=$?
# run.sh's test points as ours; its plan goes (ours follows)
while IFS= read -r l; do
	if [[ $l =~ ^(ok|not\ ok)\ [0-9]+\ -\ (.*)$ ]]; then
		if [ "${BASH_REMATCH[1]}" = ok ]; then ok "${BASH_REMATCH[2]}"; else nok "${BASH_REMATCH[2]}"; fi
	elif [[ $l == '#'* ]]; then
		echo "$l"
	elif ! [[ $l =~ ^1\.\. ]]; then
		echo "# $l"
	fi
done <"$OUT/run.tap"
[ "$rc" -eq 0 ] || [ "$fails" -gt 0 ] || nok "tests/vm/run.sh exit $rc"

# the digests: guest (nic) against host (sw), row by row
declare -A got=() gchk=()
while read -r _ name size chk digest; do
	got[$name/$size]=$digest gchk[$name/$size]=$chk
done < <(tr -d '\r' <"$LOGS/inccl.log" | grep -a '^INCCL-ROW ')
if [ "$host_ok" != 1 ]; then
	nok "this host's incbench --transport sw runs passed"
fi
while read -r name args; do
	sizes=0 same=0 diff=''
	for key in "${!want[@]}"; do
		[[ $key == "$name"/* ]] || continue
		sizes=$((sizes + 1))
		if [ "${got[$key]:-}" = "${want[$key]}" ] && [ "${gchk[$key]}" = ok ]; then
			same=$((same + 1))
		else
			diff+=" ${key#*/}: guest ${got[$key]:-none} (${gchk[$key]:-no row}), host ${want[$key]};"
		fi
	done
	if [ "$sizes" -gt 0 ] && [ "$same" -eq "$sizes" ]; then
		ok "digests of $name: guest nic = host sw at all $sizes sizes ($(for key in "${!want[@]}"; do [[ $key == "$name"/* ]] && printf '%s ' "${want[$key]}"; done | sed 's/ $//'))"
	else
		nok "digests of $name: $same of $sizes sizes equal;$diff"
	fi
done <<<"$RUNS"
echo "1..$n"
[ "$fails" -eq 0 ]
