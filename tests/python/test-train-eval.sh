#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# `make train-eval`, shortened: the digits MLP, one seed, the short list
# of settings (stock, fp16, PowerSGD rank 2, wa k=10, ring k=10 sparse,
# ring k=8 sparse with error feedback, ring k=6 paper), STEPS steps, 4
# ranks on loopback, with its own --check (every run finite, ranks with
# equal weights, accuracy at least 80%, inccl called every step, ring
# k=10 within 3 points of stock, every ring setting under fp16's bytes);
# then the table and the plots it must leave, and its option errors.
# TAP on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
STEPS=${TRAIN_EVAL_STEPS:-200}
PY=/usr/bin/python3
OUT=$BUILD/train-eval-short
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

TE=scripts/train/train-eval.py
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	out=$("$PY" $TE $args --out "$OUT/bad" 2>&1)
	rc=$?
	check "train-eval $args: exit 2, says '$want'" eval '[ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out"'
done <<EOF
--models mlp,resnet|--models: 'resnet': one of mlp, cnn, charlm
--settings ring-k11-sparse|setting 'ring-k11-sparse': one of
--settings stock@nic|an inccl setting
--seeds 1,x|--seeds 1,x: integers
--world 1|--world: 2 to 8
EOF

# the width settings: taken when named, not in "all" (its figures are
# sparse's and paper's); each names its mode, whatever the hook's default
out=$(cd scripts/train && "$PY" -c '
import tasks
n = tasks.parse_settings("ring-k10-width,ring-k8-width-ef@nic", [])
print("named", n == ["ring-k10-width", "ring-k8-width-ef@nic"])
print("all", not any("width" in x for x in tasks.parse_settings("all", [])))
' 2>&1)
check "settings ring-k10-width and ring-k8-width-ef@nic are taken; 'all' has no width setting" \
	eval '[ "$out" = "$(printf "named True\nall True")" ]'

rm -rf "$OUT"
log=$OUT.log
"$PY" $TE --models mlp --seeds 1 --settings short --steps "$STEPS" --eval 50 \
	--out "$OUT" --check >"$log" 2>&1
rc=$?
sed 's/^/# /' "$log"
check "train-eval --check: every run passed (exit 0)" eval '[ "$rc" -eq 0 ] && grep -q "^check: 7 runs, every one passed" "$log"'
check "results.jsonl: 7 records" eval '[ "$(wc -l <"$OUT/results.jsonl")" -eq 7 ]'
rows=$(grep -c '^| mlp | ' "$OUT/table.md" 2>/dev/null)
check "table.md: a row per setting ($rows)" [ "${rows:-0}" -eq 7 ]
for p in train-mlp.png bytes-per-step.png; do
	check "plot $p is a PNG" eval '[ "$(head -c 8 "$OUT/$p" 2>/dev/null | od -An -tx1 | tr -d " ")" = 89504e470d0a1a0a ]'
done
# the compressed settings really moved fewer bytes, and differently from stock
"$PY" - "$OUT/results.jsonl" <<'EOF' >"$OUT/check2.tap"
import json, sys
r = {x["setting"]: x for x in map(json.loads, open(sys.argv[1]))}
s, k10 = r["stock"], r["ring-k10-sparse"]
print("ok" if k10["bytes_per_step_tail"] * 4 < s["bytes_per_step_tail"] else "not ok",
      f"- ring k=10: {s['bytes_per_step_tail'] / k10['bytes_per_step_tail']:.1f}x fewer bytes per step than stock (at least 4x)")
print("ok" if k10["digest"] != s["digest"] else "not ok",
      "- ring k=10's weights differ from stock's (the codec is in the path)")
st = k10["inccl"]
print("ok" if st["tx_float_bytes"] > 3 * st["tx_bytes"] else "not ok",
      f"- inccl's own counters: {st['tx_float_bytes']} float bytes sent as {st['tx_bytes']} socket bytes")
modes = {n: x.get("mode") for n, x in r.items()}
want = {"stock": None, "wa-k10": "sparse", "ring-k10-sparse": "sparse", "ring-k6-paper": "paper"}
print("ok" if all(modes.get(n, "?") == m for n, m in want.items()) else "not ok",
      f"- each record's mode is the one its name says, as inccl resolved it: {modes}")
EOF
while read -r res rest; do
	if [ "$res" = ok ]; then ok "${rest#- }"; else nok "${rest#"ok - "}"; fi
done <"$OUT/check2.tap"
echo "1..$n"
