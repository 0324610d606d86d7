#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""codec-width-study.py: compressed sizes of candidate layouts for the codec's
per-group bit-width mode (issue 15), on raw float32 files, beside the
existing paper and sparse modes and the i.i.d. entropy of the quantized
values. A study, not an implementation: it counts bits, it does not encode.

    /usr/bin/python3 scripts/codec-width-study.py [-k K[,K...]] FILE|DIR...

Quantizer: docs/codec.md section 2, bit-level form (q of every value, RAW
for |q| > 32767, Inf and NaN). Chunks: 2250 values (a 9000-byte chunk),
each chunk's body rounded up to whole bytes plus its 8-byte chunk header
(docs/codec.md section 6; the same for every mode). Ratio = input bytes /
(headers + bodies). The entropy column: the i.i.d. entropy of the chunks'
quantized values (RAW values at 32 bits), no header.

Layouts (G = values per group; w = bits of the largest |q| of the group's
non-RAW values, 0 when all are zero):
  paper, sparse       the existing modes (docs/codec.md sections 4, 5)
  w16-bit             the issue's sketch: per group of 16 a 1-bit "zero
                      group" flag; otherwise a 5-bit width, a 16-bit mask
                      of nonzero values, sign + w bits per nonzero value;
                      bit-aligned. RAW values: width code 31 then a 16-bit
                      RAW mask, RAW values 32 bits, the others at w.
  w16-byte            the same, each group padded to whole bytes
  w16-dense           w16-bit, but a group chooses (1 more bit) between
                      the mask form and a dense form with no mask: every
                      value sign + w bits (a zero is +0)
  w8-bit, w32-bit     w16-bit with groups of 8 (an 8-bit mask) or 32
  w16-seg             w16-dense, with the zero-group flags of 4 groups
                      (64 values) first, like sparse mode's segments
  w16-spec            a byte layout for hardware (docs/codec.md section
                      11): segments of 8 groups of 16 values, a mask byte
                      of the groups present; a present group is a bit
                      string padded to whole bytes: 4-bit width, a dense
                      bit, a RAW bit, a 16-bit mask of its nonzero values
                      unless dense, a 16-bit RAW mask if it has RAW values,
                      sign + w bits per coded value; then its RAW values,
                      4 bytes each
  w16-spec8           the same with a whole header byte and 2-byte masks
                      (every field byte-aligned)
"""

import os
import sys

import numpy as np

CHUNK = 2250


def quantize(f, k):
    """(mag, raw) per value: |q| and whether it is RAW (docs/codec.md 2)."""
    bits = f.view(np.uint32).astype(np.int64)
    e = (bits >> 23) & 0xFF
    m = (bits & 0x7FFFFF) | 0x800000
    sh = 151 - k - e
    raw = (e + k) >= 143
    mag = np.zeros_like(bits)
    ok = (~raw) & (sh < 32)
    s = sh[ok]
    mag[ok] = (m[ok] + (np.int64(1) << (s - 1))) >> s
    raw = raw | (mag > 32767)
    mag[raw] = 0
    return mag, raw


def width(x):
    """bits of x (0 for 0)."""
    w = np.zeros_like(x)
    v = x.copy()
    while np.any(v):
        nz = v != 0
        w[nz] += 1
        v >>= 1
    return w


def chunked_bits(per_value_groups, n, fn):
    """sum over chunks of ceil(bits(chunk) / 8) bytes."""
    total = 0
    for c0 in range(0, n, CHUNK):
        total += 8 + (fn(c0, min(n, c0 + CHUNK)) + 7) // 8
    return total


def group_view(a, g, n0, n1):
    seg = a[n0:n1]
    pad = (-len(seg)) % g
    if pad:
        seg = np.concatenate([seg, np.zeros(pad, dtype=seg.dtype)])
    return seg.reshape(-1, g)


def paper_bits(mag, raw, n0, n1, sparse):
    mg = group_view(mag, 8, n0, n1)
    rw = group_view(raw.astype(np.int64), 8, n0, n1)
    size = np.where(rw == 1, 32, np.where(mg == 0, 0, np.where(mg <= 127, 8, 16)))
    gbits = 16 + size.sum(axis=1)
    if not sparse:
        return int(gbits.sum())
    present = (mg.sum(axis=1) + rw.sum(axis=1)) != 0
    ngroups = mg.shape[0]
    return int(gbits[present].sum()) + 8 * ((ngroups + 7) // 8)


def group_stats(mag, raw, n0, n1, g):
    """per group of g values in [n0, n1): nonzero values, RAW values, the
    width of the largest |q|, whether it is all ZERO; and the group count"""
    mg = group_view(mag, g, n0, n1)
    rw = group_view(raw.astype(np.int64), g, n0, n1)
    nz = (mg != 0).sum(axis=1)
    nraw = rw.sum(axis=1)
    return nz, nraw, width(mg.max(axis=1)), (nz == 0) & (nraw == 0), mg.shape[0]


def width_bits(mag, raw, n0, n1, g, dense=False, byte=False, seg=0):
    nz, nraw, w, empty, ngroups = group_stats(mag, raw, n0, n1, g)
    # mask form: width, mask, sign + w per nonzero; RAW: escape + RAW mask
    body_mask = 5 + g + nz * (1 + w)
    body_raw = 5 + g + g + nraw * 32 + nz * (1 + 15)
    body = np.where(nraw > 0, body_raw, body_mask)
    if dense:
        body_dense = 5 + g * (1 + w)
        body = np.where(nraw > 0, body_raw, np.minimum(body_mask, body_dense)) + 1
    flag = 0 if seg else 1
    gb = np.where(empty, flag, flag + body)
    if byte:
        gb = np.where(empty, gb, (gb + 7) // 8 * 8)
    extra = 0
    if seg:
        extra = ((ngroups + seg - 1) // seg) * seg  # the flags, up front
    return int(gb.sum()) + extra


def spec_bits(mag, raw, n0, n1, aligned=False):
    g = 16
    nz, nraw, w, empty, ngroups = group_stats(mag, raw, n0, n1, g)
    rawmask = np.where(nraw > 0, 16, 0)
    if aligned:
        # header byte, masks in bytes, the values' bits padded to a byte
        mask_form = 16 + 8 * ((nz * (1 + w) + 7) // 8)
        dense_form = 8 * (((g - nraw) * (1 + w) + 7) // 8)
        bits = 8 + rawmask + np.minimum(mask_form, dense_form)
    else:
        mask_form = 16 + nz * (1 + w)
        dense_form = (g - nraw) * (1 + w)
        bits = 6 + rawmask + np.minimum(mask_form, dense_form)
        bits = 8 * ((bits + 7) // 8)
    body = bits + 32 * nraw
    return int(body[~empty].sum()) + 8 * ((ngroups + 7) // 8)


def entropy_bytes(mag, raw, sign):
    q = np.where(sign, -mag, mag)
    q = q[~raw]
    vals, counts = np.unique(q, return_counts=True)
    p = counts / counts.sum()
    h = -(p * np.log2(p)).sum() * counts.sum()
    return h / 8 + raw.sum() * 4


LAYOUTS = [
    ("paper", lambda m, r, a, b: paper_bits(m, r, a, b, False)),
    ("sparse", lambda m, r, a, b: paper_bits(m, r, a, b, True)),
    ("w16-bit", lambda m, r, a, b: width_bits(m, r, a, b, 16)),
    ("w16-byte", lambda m, r, a, b: width_bits(m, r, a, b, 16, byte=True)),
    ("w16-dense", lambda m, r, a, b: width_bits(m, r, a, b, 16, dense=True)),
    ("w8-bit", lambda m, r, a, b: width_bits(m, r, a, b, 8)),
    ("w32-bit", lambda m, r, a, b: width_bits(m, r, a, b, 32)),
    ("w16-seg", lambda m, r, a, b: width_bits(m, r, a, b, 16, dense=True, seg=4)),
    ("w16-spec", spec_bits),
    ("w16-spec8", lambda m, r, a, b: spec_bits(m, r, a, b, True)),
]


def study(path, k):
    f = np.fromfile(path, dtype="<f4")
    n = len(f)
    mag, raw = quantize(f, k)
    sign = (f.view(np.uint32) >> 31) == 1
    row = {}
    for name, fn in LAYOUTS:
        row[name] = chunked_bits(None, n, lambda a, b: fn(mag, raw, a, b))
    row["entropy"] = entropy_bytes(mag, raw, sign)
    return 4 * n, row


def main(argv):
    ks = [10]
    if len(argv) >= 2 and argv[0] == "-k":
        ks = [int(x) for x in argv[1].split(",")]
        argv = argv[2:]
    files = []
    for a in argv:
        if os.path.isdir(a):
            files += sorted(os.path.join(a, x) for x in os.listdir(a) if x.endswith(".f32"))
        else:
            files.append(a)
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    names = [x[0] for x in LAYOUTS] + ["entropy"]
    for k in ks:
        print(f"\nk = {k}: ratio (input bytes / body bytes)\n")
        print("| file | " + " | ".join(names) + " |")
        print("|---|" + "---:|" * len(names))
        tot_in = 0
        tot = dict.fromkeys(names, 0)
        models = {}
        for p in files:
            nin, row = study(p, k)
            tot_in += nin
            model = os.path.basename(p).split("-")[0]
            mi = models.setdefault(model, [0, dict.fromkeys(names, 0)])
            mi[0] += nin
            for x in names:
                tot[x] += row[x]
                mi[1][x] += row[x]
            print(f"| {os.path.basename(p)} | " +
                  " | ".join(f"{nin / row[x]:.1f}" if row[x] else "-" for x in names) + " |")
        for model, (nin, t) in sorted(models.items()):
            print(f"| all {model} | " + " | ".join(f"{nin / t[x]:.1f}" for x in names) + " |")
        print("| all | " + " | ".join(f"{tot_in / tot[x]:.1f}" for x in names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
