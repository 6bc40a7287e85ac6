#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs every Debian package ReplayScope needs to build, test and package itself, then fetches the
# ROCr 6.1.2 headers (packaging/fetch-rocr61-headers.sh). Idempotent; run as root on Debian 12 (bookworm).
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps.sh: run as root (apt-get needs it)" >&2
    exit 1
fi
packages=(
    # toolchain
    build-essential cmake ninja-build pkg-config git python3 clang-format clang-format-19 clang-tidy-19
    # HSA: the real headers and the real runtime (workloads link against it; the tests swap in the simulator)
    libhsa-runtime-dev
    # HIP: Debian's hipcc (clang 15 for gfx90a), HIP runtime and headers, comgr and the device libraries
    # it compiles ROCclr's blit kernels with, rocminfo (run on the simulated runtime by the tests)
    hipcc libamdhip64-dev libamd-comgr2 rocm-device-libs rocminfo
    # ROCm libraries whose kernels the simulator's interpreter runs in the tests: header-only rocPRIM,
    # rocRAND's precompiled generators, rocSPARSE's precompiled sparse kernels (a 94 MB download)
    librocprim-dev librocrand-dev librocsparse-dev
    # the simulator's gfx90a interpreter decodes machine code with LLVM's AMDGPU disassembler
    llvm-19-dev
    # the engine's chunk-hash kernel: real AMDGPU code objects for gfx908 .. gfx1100 (clang 15 stops at
    # gfx940; Debian 12's clang 19 and its lld reach gfx942)
    clang-19 lld-19
    # simulated runtime: AMDGPU ELF code objects (libelf), their metadata note (msgpack), work-items of
    # kernel stand-ins as fibers (Boost.Context)
    libelf-dev libmsgpack-cxx-dev libboost-context-dev
    # Qt 6: inspector (Widgets, Charts, SQL over SQLite) and QtTest for every suite
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev libqt6sql6-sqlite libgl-dev
    # session pipeline: wire format, storage, options, hashing
    libflatbuffers-dev flatbuffers-compiler libsqlite3-dev sqlite3 libcli11-dev libxxhash-dev
    # the inspector's Perfetto trace export (--export-trace FILE.pftrace): protoc compiles Perfetto's trace
    # protos (third_party/perfetto), libprotobuf encodes them
    protobuf-compiler libprotobuf-dev
    # headless GUI runs and screenshots
    xvfb xauth
    # packaging
    dpkg-dev file help2man librsvg2-bin
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps.sh: all ${#packages[@]} packages already installed"
else
    echo "install-deps.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# The second ROCr header generation (preset asan, part of the test command), into third_party/.
"$(dirname "$0")/fetch-rocr61-headers.sh"
