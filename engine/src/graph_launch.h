// SPDX-License-Identifier: MIT
// HIP graph launches are not replayed (docs/mechanism.md#hip-graphs): dispatches submitted while
// hipGraphLaunch runs on this thread run once on the normal path, with one warning per process.
#pragma once

namespace rs::engine {

/// True while the calling thread is inside hipGraphLaunch (set by the interposer).
bool graph_launch_active() noexcept;
/// True exactly once per process (the caller then emits the warning).
bool first_graph_launch_decline() noexcept;
/// True when libamdhip64 is loaded in the process but its hipGraphLaunch is the one calls bind to, not
/// the engine's interposer: the engine was not LD_PRELOADed (or came after libamdhip64), so graph
/// launches cannot be recognised and their dispatches would be replayed. Asks the dynamic linker
/// (dlsym of RTLD_DEFAULT); false in a process without HIP.
bool graph_launch_interposer_missing() noexcept;

} // namespace rs::engine
