#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job on the embedded default, from a fresh clone (after packaging/install-deps.sh):
#   1. builds what it needs (preset "default", into build/default);
#   2. replays the demo application (workloads/hip/demo.hip: a two-agent heat-diffusion solver, a real HIP
#      program built by hipcc and linked with Debian's libamdhip64) on the simulated HSA runtime, whose
#      gfx90a interpreter runs the kernels' machine code, recording build/default/demo/demo.rsdb through
#      `replayscope-run --simulate`, with five hardware counters per replayed dispatch (--pmc: waves,
#      vector ALU, scalar ALU and LDS instructions, GPU-busy cycles; the interpreter counts them exactly,
#      docs/sim-fidelity.md; they fit one pass, so the run takes as long as without them);
#   3. opens the session in the inspector, or, with no display, prints its summary on the terminal (with
#      the counters per kernel) and writes its charts as PNG into build/default/demo/charts (with a chart
#      per kernel and counter).
# Environment: REPLAYSCOPE_DEMO_DIR (output directory), HSA_SIM_GPU_AGENTS (simulated GPUs, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/default
out="${REPLAYSCOPE_DEMO_DIR:-$build/demo}"

cmake --preset default
cmake --build --preset default --target replayscope replayscope-run replayscope_engine hsa_sim workload_demo

mkdir -p "$out"
export HSA_SIM_GPU_AGENTS="${HSA_SIM_GPU_AGENTS:-2}"
"$build/bin/replayscope-run" --simulate --force --pmc SQ_WAVES SQ_INSTS_VALU SQ_INSTS_SALU SQ_INSTS_LDS GRBM_GUI_ACTIVE \
    -o "$out/demo.rsdb" -- "$build/workloads/hip/demo"

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    echo "demo.sh: opening $out/demo.rsdb in the inspector"
    exec "$build/bin/replayscope" "$out/demo.rsdb"
fi
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then # Qt asks for one even offscreen; a private directory silences it
    XDG_RUNTIME_DIR="$(mktemp -d)"
    export XDG_RUNTIME_DIR
    trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi
echo
"$build/bin/replayscope" --summary "$out/demo.rsdb"
echo
rm -rf "$out/charts"
echo "demo.sh: no display; charts of $out/demo.rsdb as PNG:"
"$build/bin/replayscope" --export-charts "$out/demo.rsdb" "$out/charts"
echo "demo.sh: open the session later with: $build/bin/replayscope $out/demo.rsdb"
