// SPDX-License-Identifier: MIT
// Virtual-memory mappings (ROCr 6.x, hsa_amd_vmem_*), which the original design does not track
// (docs/mechanism.md#known-limitations-of-the-original-design). Memory that becomes addressable through
// hsa_amd_vmem_map (how hipMallocAsync's stream-ordered pools work) joins the allocation inventory like an
// allocation of the mapped handle's pool. The owner, pool and granularity come from the handle, never from
// hsa_amd_pointer_info: ROCr 6.1.2 does not know mapped ranges there
// (docs/rocm-behaviour.md#pointer-info-of-vmem-mappings-rocr-612).
#pragma once

#include "synchronized.h"

#include <hsa_api_trace.h>

#include <cstdint>
#include <map>

namespace rs::engine {

struct Engine;

/// The live physical-memory handles and mappings the engine has seen. A handle is remembered when it is
/// made (hsa_amd_vmem_handle_create: its pool, that pool's global flags and owner agent, found by iterating
/// the runtime's agents and their pools; an imported or retained handle: its pool from
/// hsa_amd_vmem_get_alloc_properties_from_handle). A mapping is classified from its handle when it is
/// made (coarse-grained memory of a GPU agent's pool is tracked; kernarg, host and fine-grained pools are
/// excluded; a handle the engine cannot place is unknown-pointer) and reported as an allocation row (api
/// vmem_map, pointer type hsa), but it
/// joins the inventory only once hsa_amd_vmem_set_access succeeded on it: before that neither a kernel nor
/// a host copy may touch the range (HSA runtime: a new mapping has no access), so a snapshot must not
/// read it. Unmapping removes it like a free (a snapshot region of it is then skipped at restore,
/// reason freed). With REPLAYSCOPE_TRACK_VMEM=0 a mapping is never snapshotted and has no allocation row
/// (the original design's behaviour); a mapping of a GPU agent's memory is then only watched by the fidelity
/// check.
class VmemTracker {
  public:
    /// After a successful hsa_amd_vmem_handle_create from `pool` (or an import / retain, pool 0: asked
    /// from the runtime). Counts references: each create, import or retain adds one.
    void handle_created(Engine& e, uint64_t handle, uint64_t pool) noexcept;
    /// After a successful hsa_amd_vmem_handle_release (mappings made from it keep their classification).
    void handle_released(uint64_t handle) noexcept;
    /// After a successful hsa_amd_vmem_map of [va, va + size) backed by `handle`.
    void mapped(Engine& e, void* va, uint64_t size, uint64_t handle) noexcept;
    /// Owner agent handle of the live mapping containing `ptr`, with the mapped pool's global flags in
    /// `pool_flags`; 0 (flags untouched) when `ptr` is in no mapping the engine saw. For callers that
    /// would otherwise ask hsa_amd_pointer_info, which does not know mappings on ROCr 6.1.2.
    uint64_t owner_of(const void* ptr, uint32_t* pool_flags = nullptr) const noexcept;
    /// After a successful hsa_amd_vmem_set_access on the mapping at `va`.
    void access_set(Engine& e, void* va) noexcept;
    /// Before hsa_amd_vmem_unmap of the mapping at `va` (forget first: the range may be mapped again by
    /// another thread as soon as the runtime released it).
    void unmapping(Engine& e, void* va) noexcept;
    /// Forgets every handle and mapping (OnUnload).
    void clear();

  private:
    /// What a handle's pool says about the memory behind it.
    struct HandleInfo {
        uint64_t pool = 0;
        uint64_t agent = 0;      ///< owner of the pool (0: not found)
        uint32_t pool_flags = 0; ///< HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS
        uint32_t references = 0;
    };
    /// The pool's owner and flags: from the cache, else by iterating agents and their pools.
    HandleInfo describe_pool(uint64_t pool);
    struct Mapping {
        uint64_t id = 0;
        uint64_t size = 0;
        uint64_t agent = 0;
        uint32_t pool_flags = 0;
        bool tracked = false; ///< goes to the inventory (else to the watched regions, or nowhere)
        bool watched = false;
        bool reported = false; ///< has an allocation row
        bool active = false;   ///< access was set: in the inventory / watched regions
        /// Host or fine-grained memory: no restore covers it, so a dispatch whose kernarg segment points
        /// into it is declined (Engine::unrestorable, kernarg_scan.h).
        bool unrestorable = false;
    };
    Synchronized<std::map<uintptr_t, Mapping>> mappings_;
    Synchronized<std::map<uint64_t, HandleInfo>> handles_;
    Synchronized<std::map<uint64_t, HandleInfo>> pools_; ///< pool handle -> owner and flags (references 0)
};

/// Stores the hsa_amd_vmem_handle_create / _handle_release / _map / _unmap / _set_access wrappers (and
/// _import_shareable_handle / _retain_alloc_handle when the runtime has them) in the live table (ROCr 6.x
/// headers; a no-op on 5.2.3 headers, whose AmdExtTable has no such entries). Originals must be saved in
/// hsa().
void install_vmem_tracker(AmdExtTable& amd);

} // namespace rs::engine
