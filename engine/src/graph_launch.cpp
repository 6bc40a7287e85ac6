// SPDX-License-Identifier: MIT
// The hipGraphLaunch interposer, exported as hipGraphLaunch@@hip_4.3 (engine.map) so that an
// LD_PRELOADed engine sits in front of libamdhip64.so.5's definition
// (docs/rocm-behaviour.md#hip-graph-launches).
#include "graph_launch.h"

#include <atomic>
#include <cstdio>
#include <dlfcn.h>

namespace rs::engine {

namespace {

thread_local int t_graph_launch_depth = 0;
std::atomic<bool> g_graph_warned{false};

/// Marks the calling thread as inside hipGraphLaunch for its lifetime (exception-safe).
struct GraphLaunchScope {
    GraphLaunchScope() { ++t_graph_launch_depth; }
    ~GraphLaunchScope() { --t_graph_launch_depth; }
    GraphLaunchScope(const GraphLaunchScope&) = delete;
    GraphLaunchScope& operator=(const GraphLaunchScope&) = delete;
};

using HipGraphLaunchFn = int (*)(void*, void*);

HipGraphLaunchFn next_hip_graph_launch() {
    static const HipGraphLaunchFn kNext = [] {
        void* sym = dlvsym(RTLD_NEXT, "hipGraphLaunch", "hip_4.3");
        if (!sym) {
            sym = dlsym(RTLD_NEXT, "hipGraphLaunch");
        }
        return reinterpret_cast<HipGraphLaunchFn>(sym);
    }();
    return kNext;
}

} // namespace

bool graph_launch_active() noexcept {
    return t_graph_launch_depth > 0;
}

bool first_graph_launch_decline() noexcept {
    return !g_graph_warned.exchange(true, std::memory_order_relaxed);
}

} // namespace rs::engine

namespace rs::engine {

bool graph_launch_interposer_missing() noexcept {
    void* bound = dlvsym(RTLD_DEFAULT, "hipGraphLaunch", "hip_4.3");
    if (!bound) {
        bound = dlsym(RTLD_DEFAULT, "hipGraphLaunch");
    }
    if (!bound) {
        return false; // no HIP in the process
    }
    // Compare the objects, not the addresses: inside the engine, &hipGraphLaunch itself binds to the
    // first definition in the process (symbol interposition), which is libamdhip64's when the engine
    // was not preloaded.
    Dl_info bound_object{}, engine_object{};
    if (!dladdr(bound, &bound_object) ||
        !dladdr(reinterpret_cast<void*>(&graph_launch_active), &engine_object)) {
        return false;
    }
    return bound_object.dli_fbase != engine_object.dli_fbase;
}

} // namespace rs::engine

/// hipGraphLaunch(hipGraphExec_t, hipStream_t): forwards to the next definition with the thread marked.
extern "C" __attribute__((visibility("default"))) int hipGraphLaunch(void* graph_exec, void* stream) {
    const auto next = rs::engine::next_hip_graph_launch();
    if (!next) {
        std::fputs("replayscope: hipGraphLaunch interposer found no libamdhip64 definition to forward to\n",
                   stderr);
        return 1; // hipErrorInvalidValue
    }
    rs::engine::GraphLaunchScope scope;
    return next(graph_exec, stream);
}
