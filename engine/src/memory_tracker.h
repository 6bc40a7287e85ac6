// SPDX-License-Identifier: MIT
// Wrappers over the four allocate/free entry points (docs/mechanism.md#allocation-tracking).
#pragma once

#include <hsa_api_trace.h>

#include <chrono>
#include <cstdint>

namespace rs::engine {

/// Stores the wrappers in the live table unless they are already there (first instance only: a later
/// instance would chain to its own wrapper and recurse). Originals must already be saved in hsa().
/// Besides the four allocate/free entries: hsa_amd_memory_lock, _lock_to_pool and _unlock (locked host
/// memory, e.g. hipHostRegister: an allocation row, api memory_lock / memory_lock_to_pool, class host,
/// and an unrestorable range until its unlock) and hsa_amd_svm_attributes_set (managed memory, e.g.
/// hipMallocManaged, whose pages ROCclr maps itself: an unrestorable range without a row, kept until an
/// allocation or lock covers its addresses, since ROCclr unmaps it with munmap and no HSA call), and
/// hsa_amd_agents_allow_access (the agents granted access to a tracked allocation besides its owner,
/// which a window of the owner then gates; HIP 5.2.3 calls it for every allocation of a device whose
/// peers enabled peer access, and for the source of hipMemcpyPeer).
void install_memory_tracker(CoreApiTable& core, AmdExtTable& amd);

/// How much longer than REPLAYSCOPE_PASS_TIMEOUT_MS a refused allocation waits for a window to stop
/// after its current pass and give its device snapshot store back: the window's final restore and
/// release (docs/replay-window.md#snapshot-stores).
inline constexpr std::chrono::milliseconds kReclaimSlack{2000};

/// True when `st` is the runtime's refusal (HSA_STATUS_ERROR_OUT_OF_RESOURCES) of `bytes` from memory
/// pool (or, `region` true, region) `handle` and the device snapshot store of the agent owning it gave
/// memory back (AgentDirectory::reclaim_device_store, waiting at most the pass timeout plus
/// kReclaimSlack): the caller retries its allocation once. Stores are engine memory the application
/// never asked for, so an allocation they made fail must get that memory first. Any thread.
bool reclaimed_after(hsa_status_t st, uint64_t handle, bool region, uint64_t bytes) noexcept;

} // namespace rs::engine
