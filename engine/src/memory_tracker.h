// Wrappers over the four allocate/free entry points (docs/mechanism.md#allocation-tracking).
#pragma once

#include <hsa_api_trace.h>

namespace rs::engine {

/// Stores the wrappers in the live table unless they are already there (first instance only: a later
/// instance would chain to its own wrapper and recurse). Originals must already be saved in hsa().
void install_memory_tracker(CoreApiTable& core, AmdExtTable& amd);

} // namespace rs::engine
