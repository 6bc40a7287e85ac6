// SPDX-License-Identifier: MIT
// The SVM attributes hsa_amd_svm_attributes_set records on ranges of host memory (ROCr hands them to
// KFD's SVM ioctl; the simulator keeps them so that hsa_amd_svm_attributes_get answers them).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace sim {

/// What one page range carries. Defaults are those of a range KFD has never been told about (ROCr 5.2.3
/// runtime.cpp GetSvmAttrib over KFD's defaults): fine grained (coherent), writable, not hive-local,
/// migration granularity 9 (2^9 pages), no preferred or prefetch location, no GPU access.
struct SvmAttributes {
    uint64_t global_flag = 0; // HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED
    bool read_only = false;
    bool hive_local = false;
    bool read_mostly = false;
    uint64_t granularity = 9;
    uint64_t preferred_location = 0; // an agent handle, 0 for none
    uint64_t prefetch_location = 0;  // an agent handle, 0 for none
    /// Agent handle -> HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE / _IN_PLACE / _NO_ACCESS.
    std::map<uint64_t, uint64_t> access;

    bool operator==(const SvmAttributes&) const = default;
};

/// Page-granular map of [begin, end) ranges to attributes; thread-safe. Addresses are widened to whole
/// 4 KiB pages (as ROCr does before its ioctl).
class SvmRanges {
  public:
    /// Applies `change` to the attributes of every page of [ptr, ptr + size), splitting recorded ranges
    /// at the edges; pages never recorded start from the defaults.
    template <typename Change>
    void update(uintptr_t ptr, size_t size, Change change) {
        std::lock_guard lock(mutex_);
        for (SvmAttributes* a : cover(ptr, size)) {
            change(*a);
        }
    }
    /// The attributes of each distinct range covering [ptr, ptr + size) in address order (defaults for
    /// pages never recorded); never empty for size > 0.
    std::vector<SvmAttributes> query(uintptr_t ptr, size_t size) const;
    /// Forgets everything (hsa_shut_down).
    void clear();

  private:
    struct Range {
        uintptr_t end;
        SvmAttributes attributes;
    };
    /// Splits and fills so that [ptr, ptr + size) is exactly a run of recorded ranges; returns them.
    std::vector<SvmAttributes*> cover(uintptr_t ptr, size_t size);

    mutable std::mutex mutex_;
    std::map<uintptr_t, Range> ranges_; // keyed by begin; non-overlapping
};

} // namespace sim
