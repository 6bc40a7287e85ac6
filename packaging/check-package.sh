#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI, after the tests (.ci/run): builds the Debian package in BUILD_DIR (default build/ci), installs it
# with apt (dependencies resolved from the archive), and runs the INSTALLED programs on the HIP demo of
# that build tree (workloads/hip/demo): /usr/bin/replayscope-run --simulate records a session with the
# interpreter and one with the demo's stand-ins (made by the installed replayscope-standins), and
# /usr/bin/replayscope --export-charts writes the first one's charts as PNG with no display. Fails unless both come out non-empty, the
# installed files name no build directory, both programs report the package's version, and the package carries
# packaging/debian/copyright as usr/share/doc/replayscope/copyright.
# Run as root. Leaves the package installed (apt-get remove -y replayscope removes it).
set -euo pipefail
cd "$(dirname "$0")/.."
top="$(pwd)"
build="$(realpath "${1:-build/ci}")"
out=/tmp/rs-ci
fail() {
    echo "check-package.sh: FAIL: $*" >&2
    exit 1
}

rm -rf "$out"
mkdir -p "$out"
mkdir -m 700 "$out/xdg"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$out/xdg}" # Qt wants one, even offscreen; CI has none

rm -f "$build"/replayscope_*_amd64.deb # a stale one of another version
cmake --build "$build" --target package
debs=("$build"/replayscope_*_amd64.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one replayscope_*_amd64.deb in $build"
deb="${debs[0]}"
version="$(dpkg-deb -f "$deb" Version)"
echo "check-package.sh: $deb"
contents="$(dpkg-deb -c "$deb")"
echo "$contents"
dpkg-deb -f "$deb" Depends
for f in ./usr/bin/replayscope ./usr/bin/replayscope-run ./usr/bin/replayscope-standins \
         ./usr/share/man/man1/replayscope-standins.1.gz ./usr/lib/replayscope/libreplayscope_engine.so \
         ./usr/lib/replayscope/libreplayscope_chunk_hash_standins.so \
         ./usr/lib/replayscope/sim/libhsa-runtime64.so.1 ./usr/share/man/man1/replayscope.1.gz \
         ./usr/share/man/man1/replayscope-run.1.gz ./usr/share/applications/replayscope.desktop \
         ./usr/share/icons/hicolor/scalable/apps/replayscope.svg \
         ./usr/share/icons/hicolor/48x48/apps/replayscope.png ./usr/share/doc/replayscope/copyright; do
    grep -q -F -x -e "$f" <<<"$(awk '{ print $6 }' <<<"$contents")" || fail "$f missing from the package"
done

apt-get install -y --reinstall "$deb"

# The Debian copyright file is the repository's, machine-readable (DEP-5), with the project's MIT licence.
copyright=/usr/share/doc/replayscope/copyright
cmp -s "$copyright" "$top/packaging/debian/copyright" || fail "$copyright differs from packaging/debian/copyright"
head -n 1 "$copyright" | grep -q -x -F "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ||
    fail "$copyright is not a DEP-5 copyright file"
grep -q -x -F "Copyright: 2026 The ReplayScope authors" "$copyright" || fail "$copyright names no ReplayScope copyright"

# Installed files: no build or source directory, no RUNPATH (everything is found relative to bin/).
while read -r f; do
    [ -f "$f" ] && [ ! -L "$f" ] || continue
    if grep -q -a -F -e "$build" -e "$top/" "$f"; then
        fail "$f names the build or source tree"
    fi
    if readelf -d "$f" 2>/dev/null | grep -q -E 'RPATH|RUNPATH'; then
        fail "$f has an RPATH/RUNPATH"
    fi
done < <(dpkg -L replayscope)

/usr/bin/replayscope-run --version | grep -q -x "replayscope-run $version" || fail "replayscope-run --version"
/usr/bin/replayscope --version | grep -q -x "replayscope $version" || fail "replayscope --version"

# The installed simulator's interpreter runs the demo's machine code (the default executor) and counts the
# hardware counters packaging/demo.sh collects.
HSA_SIM_GPU_AGENTS=2 /usr/bin/replayscope-run --simulate --no-progress \
    --pmc SQ_WAVES SQ_INSTS_VALU SQ_INSTS_SALU SQ_INSTS_LDS GRBM_GUI_ACTIVE \
    -o "$out/demo.rsdb" -- "$build/workloads/hip/demo"
# The installed stand-in builder, with its installed support files, makes the demo's stand-ins, and the
# installed simulator runs them (the alternative executor).
/usr/bin/replayscope-standins -o "$out/libdemo-standins.so" "$top/workloads/hip/demo.hip"
/usr/bin/replayscope-run --simulate --no-progress --standins "$out/libdemo-standins.so" \
    -o "$out/demo-standins.rsdb" -- "$build/workloads/hip/demo"
env -u DISPLAY -u WAYLAND_DISPLAY /usr/bin/replayscope --summary "$out/demo.rsdb" | tee "$out/summary.txt"
grep -q "^    SQ_INSTS_LDS " "$out/summary.txt" || fail "no counters in the summary of $out/demo.rsdb"
env -u DISPLAY -u WAYLAND_DISPLAY /usr/bin/replayscope --export-charts "$out/demo.rsdb" \
    "$out/charts"

[ -s "$out/demo.rsdb" ] || fail "no session file $out/demo.rsdb"
pngs=("$out"/charts/*.png)
[ -f "${pngs[0]}" ] || fail "no PNG chart in $out/charts"
for png in "${pngs[@]}"; do
    [ -s "$png" ] || fail "empty chart $png"
done
echo "check-package.sh: OK: replayscope $version installed; $out/demo.rsdb and ${#pngs[@]} PNG charts in $out/charts"
