#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates docs/images/inspector-*.png from a real recording: the HIP demo (workloads/hip) replayed by
# the engine on the simulated runtime (replayscope-run --simulate, two GPU agents, 3 passes, fidelity check,
# a 2.1 MB host-memory budget so that the larger snapshots (2.25 MiB at the peak) are declined, the hardware
# counters of packaging/demo.sh counted by the interpreter), then every page grabbed offscreen (replayscope
# --screenshots, with the timeline, the Counters page and its chart, the compare page against a 2-pass run
# and the job view of 64 rank files with its Kernels page), and the bytes-moved and pass-spread charts (replayscope
# --export-charts).
#   app/screenshots.sh [--theme light|dark] [BUILD_DIR]
#                                     (default build/default; targets replayscope, replayscope-run,
#                                      replayscope_engine, hsa_sim, workload_demo)
# With --theme dark the pages are drawn with replayscope --theme dark into docs/images/dark/ (the images the
# documents show stay as they are); --theme light is the default.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
theme=light
if [[ "${1:-}" == --theme ]]; then
    theme="${2:?--theme takes light or dark}"
    shift 2
fi
case "$theme" in
light) images="$root/docs/images" ;;
dark) images="$root/docs/images/dark" ;;
*) echo "screenshots.sh: --theme takes light or dark" >&2; exit 2 ;;
esac
build="${1:-$root/build/default}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The interpreter runs the kernels (the default executor), so the counters count their instructions (host
# stand-ins would count waves only; docs/sim-fidelity.md); it takes about 3 s more than the stand-ins.
pmc=(--pmc SQ_WAVES SQ_INSTS_VALU SQ_INSTS_SALU SQ_INSTS_LDS GRBM_GUI_ACTIVE)
HSA_SIM_GPU_AGENTS=2 "$build/bin/replayscope-run" --simulate --no-progress --passes 3 --fidelity-check \
    --host-memory-budget 2200000 "${pmc[@]}" -o "$tmp/demo.rsdb" -- "$build/workloads/hip/demo" --iterations 40
# The baseline of the compare page: the same run with 2 passes. The job view: 64 ranks of the demo, as an
# MPI launcher would start them (the rank in OMPI_COMM_WORLD_RANK, -o run-%r.rsdb), each a few iterations
# long (2 to 6: the ranks differ, as a real job's do).
HSA_SIM_GPU_AGENTS=2 "$build/bin/replayscope-run" --simulate --no-progress --passes 2 --fidelity-check \
    --host-memory-budget 2200000 "${pmc[@]}" -o "$tmp/demo-2-passes.rsdb" -- "$build/workloads/hip/demo" \
    --iterations 40
ranks=()
for rank in $(seq 0 63); do
    OMPI_COMM_WORLD_RANK=$rank HSA_SIM_GPU_AGENTS=2 "$build/bin/replayscope-run" --simulate --no-progress --quiet \
        --passes 3 --standins "$build/workloads/hip/libdemo-standins.so" -o "$tmp/run-%r.rsdb" -- \
        "$build/workloads/hip/demo" --iterations $((2 + rank % 5)) >/dev/null
    ranks+=("$tmp/run-$rank.rsdb")
done
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$tmp/config" "$build/bin/replayscope" --theme "$theme" --screenshots "$tmp/demo.rsdb" \
    "$tmp/demo-2-passes.rsdb" "${ranks[@]}" "$tmp/shots"
# The bytes-moved chart (full restore against what the dirty restores moved) and the pass-to-pass spread of
# kernel time, as --export-charts writes them.
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$tmp/config" "$build/bin/replayscope" --theme "$theme" --export-charts "$tmp/demo.rsdb" "$tmp/charts" >/dev/null
mkdir -p "$images"
for f in "$tmp"/shots/*.png; do
    cp "$f" "$images/inspector-$(basename "$f")"
done
cp "$tmp/charts/7-bytes-moved.png" "$images/inspector-bytes-moved.png"
cp "$tmp/charts/3-pass-spread.png" "$images/inspector-pass-spread.png"
ls "$images"/inspector-*.png
