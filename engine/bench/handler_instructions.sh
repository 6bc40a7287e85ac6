#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-packet cost of the engine's intercept handler for a dispatch that is not replayed, in instructions
# executed on the thread that stores the doorbell (the handler runs inside that store, ROCr 5.2.3
# semantics), counted by callgrind: deterministic, unlike wall or CPU time on a shared 2-core machine.
# Each case runs the engine_bench "packets" phase twice (N1 and N2 dispatches) on the simulated runtime;
# the difference of the main thread's instruction counts divided by N2-N1 removes start-up and load.
#   engine/bench/handler_instructions.sh [BUILD_DIR]   (needs valgrind: apt-get install valgrind)
set -euo pipefail
build="${1:-build/default}"
bench="$build/bin/engine_bench"
n1=500
n2=2500
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
count() { # count N ENV... -> instructions of the main thread
    local n="$1"
    shift
    env LD_LIBRARY_PATH="$build/sim/lib" RS_BENCH_PACKETS="$n" "$@" \
        valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.%p" \
        "$bench" --phase packets --code-object-dir "$build/workloads" >/dev/null 2>&1
    # The main thread's file is the one with the lowest thread number: <out>-01.
    local f
    f="$(ls "$tmp"/cg.*-01 | head -n1)"
    awk '/^summary:/ {print $2}' "$f"
    rm -f "$tmp"/cg.*
}
per_packet() {
    local a b
    a="$(count "$n1" "$@")"
    b="$(count "$n2" "$@")"
    echo $(((b - a) / (n2 - n1)))
}
plain="$(per_packet)"
passthrough="$(per_packet HSA_TOOLS_LIB="$build/lib/replayscope/engine_bench_passthrough.so")"
declined="$(per_packet HSA_TOOLS_LIB="$build/lib/replayscope/libreplayscope_engine.so" REPLAYSCOPE_PASSES=2 \
    REPLAYSCOPE_KERNEL_EXCLUDE_REGEX=.)"
nomarker="$(per_packet HSA_TOOLS_LIB="$build/lib/replayscope/libreplayscope_engine.so" REPLAYSCOPE_PASSES=2 \
    REPLAYSCOPE_DISPATCH_COUNT=1)"
# Every dispatch replayed: the handler creates the window's two signals, writes fence, gate, dispatch and
# marker and hands the window to the agent's worker thread (whose work is not on the storing thread).
replayed="$(per_packet HSA_TOOLS_LIB="$build/lib/replayscope/libreplayscope_engine.so" REPLAYSCOPE_PASSES=2)"
echo "instructions per dispatch on the storing thread (callgrind, $n2-$n1 dispatches):"
echo "  plain queue, no tool                                 $plain"
echo "  intercept queue, pass-through handler (baseline)     $passthrough"
echo "  engine handler, declined (filtered), with marker     $declined  (+$((declined - passthrough)) over the baseline)"
echo "  engine handler, dispatch count reached, no marker    $nomarker  (+$((nomarker - passthrough)) over the baseline)"
echo "  engine handler, replayed (window to the worker)      $replayed  (+$((replayed - passthrough)) over the baseline)"
