// Virtual-memory mappings (ROCr 6.x, hsa_amd_vmem_*), which the original design does not track
// (docs/mechanism.md#known-limitations-of-the-original-design). Memory
// that becomes addressable through hsa_amd_vmem_map (how hipMallocAsync's stream-ordered pools work) joins
// the allocation inventory like an allocation of the mapped handle's pool
// (docs/rocm-behaviour.md#pointer-info-of-vmem-mappings-rocr-612).
#pragma once

#include "synchronized.h"

#include <hsa_api_trace.h>

#include <cstdint>
#include <map>

namespace rs::engine {

struct Engine;

/// The live mappings the engine has seen, keyed by base address. A mapping is classified when it is
/// made (hsa_amd_pointer_info of the mapped range, plus the flags of the handle's pool from
/// hsa_amd_vmem_get_alloc_properties_from_handle) and reported as an allocation row (api vmem_map), but it
/// joins the inventory only once hsa_amd_vmem_set_access succeeded on it: before that neither a kernel nor
/// a host copy may touch the range (HSA runtime: a new mapping has no access), so a snapshot must not
/// read it. Unmapping removes it like a free (a snapshot region of it is then skipped at restore,
/// reason freed). With REPLAYSCOPE_TRACK_VMEM=0 a mapping is never snapshotted and has no allocation row
/// (the original design's behaviour); a mapping of a GPU agent's memory is then only watched by the fidelity
/// check.
class VmemTracker {
  public:
    /// After a successful hsa_amd_vmem_map of [va, va + size) backed by `handle`.
    void mapped(Engine& e, void* va, uint64_t size, uint64_t handle) noexcept;
    /// After a successful hsa_amd_vmem_set_access on the mapping at `va`.
    void access_set(Engine& e, void* va) noexcept;
    /// Before hsa_amd_vmem_unmap of the mapping at `va` (forget first: the range may be mapped again by
    /// another thread as soon as the runtime released it).
    void unmapping(Engine& e, void* va) noexcept;
    /// Forgets every mapping (OnUnload).
    void clear();

  private:
    struct Mapping {
        uint64_t id = 0;
        uint64_t size = 0;
        uint64_t agent = 0;
        bool tracked = false; ///< goes to the inventory (else to the watched regions, or nowhere)
        bool watched = false;
        bool reported = false; ///< has an allocation row
        bool active = false;   ///< access was set: in the inventory / watched regions
    };
    Synchronized<std::map<uintptr_t, Mapping>> mappings_;
};

/// Stores the hsa_amd_vmem_map / _unmap / _set_access wrappers in the live table (ROCr 6.x headers; a
/// no-op on 5.2.3 headers, whose AmdExtTable has no such entries). Originals must be saved in hsa().
void install_vmem_tracker(AmdExtTable& amd);

} // namespace rs::engine
