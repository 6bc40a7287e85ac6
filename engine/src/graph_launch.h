// HIP graph launches are not replayed (docs/mechanism.md#hip-graphs): dispatches submitted while
// hipGraphLaunch runs on this thread run once on the normal path, with one warning per process.
#pragma once

namespace rs::engine {

/// True while the calling thread is inside hipGraphLaunch (set by the interposer).
bool graph_launch_active() noexcept;
/// True exactly once per process (the caller then emits the warning).
bool first_graph_launch_decline() noexcept;

} // namespace rs::engine
