#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Splits recorded spool files into fuzzer seeds (fuzz/README.md).

    make_seeds.py OUT_DIR SPOOL...

Writes into OUT_DIR (named by SHA-1 of their content, as libFuzzer names corpus files):
  - every spool whole (a multi-frame stream, starting with its Hello);
  - every distinct frame alone (per-frame seeds), and each after its spool's Hello;
  - every pair of spools concatenated (two emitter instances in one stream, as a spool file several
    processes appended to).
Frames are read by their 24-byte header (magic "RSFB", version, type, length, checksum, sequence);
a spool's truncated tail is dropped. Minimise the result with `<fuzzer> -merge=1 corpus/<target> OUT_DIR`.
"""
import hashlib
import itertools
import os
import struct
import sys

HEADER = struct.Struct("<IHHIIQ")
MAGIC = 0x42465352


def frames(data):
    at = 0
    while at + HEADER.size <= len(data):
        magic, _version, _type, length, _checksum, _sequence = HEADER.unpack_from(data, at)
        end = at + HEADER.size + length
        if magic != MAGIC or end > len(data):
            return
        yield data[at:end]
        at = end


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = set()
    spools = []
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            spool = list(frames(f.read()))
        if not spool:
            continue
        spools.append(b"".join(spool))
        seeds.add(spools[-1])
        hello = spool[0] if HEADER.unpack_from(spool[0])[2] == 1 else b""
        for frame in spool:
            seeds.add(frame)
            seeds.add(hello + frame)
    for a, b in itertools.combinations(spools, 2):
        seeds.add(a + b)
    for seed in seeds:
        with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as f:
            f.write(seed)
    print(f"{len(seeds)} seeds from {len(spools)} spools in {out}")


if __name__ == "__main__":
    main()
