#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks that the simulated libhsa-runtime64 exports, with version tag ROCR_1, every symbol Debian's
# libamdhip64.so.5 imports from the real libhsa-runtime64.so.1, and that libamdhip64 then binds with
# every symbol resolved (as under LD_BIND_NOW=1). Names each missing symbol.
# usage: check_hip_exports.sh SIM_LIBRARY HIP_LIBRARY REAL_HSA_LIBRARY
set -eu
sim=$1 hip=$2 real=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nm -D --undefined-only "$hip" | awk '{print $2}' | sed 's/@.*//' | sort -u > "$work/hip_imports"
nm -D --defined-only "$real" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$work/real_exports"
comm -12 "$work/hip_imports" "$work/real_exports" > "$work/needed"
[ -s "$work/needed" ] || { echo "check_hip_exports.sh: FAIL: found no symbol HIP takes from $real" >&2; exit 1; }
# Defined dynamic symbols of the simulator as NAME@@ROCR_1 (readelf prints the version tag).
readelf --dyn-syms -W "$sim" | awk '$7 != "UND" && $5 == "GLOBAL" {print $8}' | sort -u > "$work/sim_exports"
missing=0
while read -r name; do
    if ! grep -qx "$name@@ROCR_1" "$work/sim_exports"; then
        echo "missing: $name (not exported with version tag ROCR_1)"
        missing=$((missing + 1))
    fi
done < "$work/needed"
echo "$(wc -l < "$work/needed") symbols needed, $missing missing"
[ "$missing" -eq 0 ] || { echo "check_hip_exports.sh: FAIL" >&2; exit 1; }
# Relocate libamdhip64 against the simulator (ldd -r binds every symbol, as LD_BIND_NOW=1 would).
simdir=$(dirname "$sim")
LD_LIBRARY_PATH="$simdir" ldd -r "$hip" > "$work/ldd" 2>&1 || true
grep -q "libhsa-runtime64.so.1 => $simdir/" "$work/ldd" || {
    cat "$work/ldd"
    echo "check_hip_exports.sh: FAIL: libamdhip64 did not pick the simulator up" >&2
    exit 1
}
if grep "undefined symbol" "$work/ldd" | grep -i "hsa" ; then
    echo "check_hip_exports.sh: FAIL: unresolved HSA symbols when binding libamdhip64" >&2
    exit 1
fi
echo "check_hip_exports.sh: PASS"
