// SPDX-License-Identifier: MIT
#include "unrestorable_check.h"

#include "hsa_api.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace rs::engine {

namespace {

/// Largest piece of a range read at once (bytes): the check's host memory is one buffer of this size.
constexpr uint64_t kSlice = uint64_t{8} << 20;

const char* kind_name(UnrestorableKind k) {
    switch (k) {
    case UnrestorableKind::host:
        return "host";
    case UnrestorableKind::locked:
        return "locked host";
    case UnrestorableKind::fine_grained:
        return "fine-grained";
    case UnrestorableKind::managed:
        return "managed";
    }
    return "host";
}

/// Copies `size` bytes at `address` of this process into `out` (process_vm_readv, Linux 3.2: an unmapped
/// page fails the call with EFAULT instead of faulting the engine). Where the call is refused (ENOSYS,
/// EPERM under a seccomp filter) and `mapped_for_sure`, copies directly. True when every byte was read.
bool read_host(uintptr_t address, uint64_t size, std::byte* out, bool mapped_for_sure) {
    iovec local{out, static_cast<size_t>(size)};
    iovec remote{reinterpret_cast<void*>(address), static_cast<size_t>(size)};
    const ssize_t n = ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
    if (n >= 0) {
        return static_cast<uint64_t>(n) == size;
    }
    if ((errno == ENOSYS || errno == EPERM) && mapped_for_sure) {
        std::memcpy(out, reinterpret_cast<const void*>(address), static_cast<size_t>(size));
        return true;
    }
    return false;
}

} // namespace

std::string describe(const UnrestorableRange& r) {
    std::string text = hex(r.address) + " (" + std::to_string(r.size) + " bytes, " + kind_name(r.kind);
    if (r.kind == UnrestorableKind::managed) {
        text += " range)";
    } else {
        text += " allocation " + std::to_string(r.id) + ")";
    }
    return text;
}

UnrestorableCheck::UnrestorableCheck(const AllocationInventory& unrestorable,
                                     const std::vector<uintptr_t>& aliases,
                                     const std::vector<uintptr_t>& locked, uint64_t budget,
                                     bool (*owned_by_gpu)(uint64_t agent)) noexcept
    : inventory_(unrestorable) {
    std::vector<TrackedAllocation> entries;
    try {
        entries = unrestorable.rlock([](const AllocationInventory::Map& m) {
            std::vector<TrackedAllocation> out;
            out.reserve(m.size());
            for (const auto& [address, a] : m) {
                out.push_back(a);
            }
            return out;
        });
    } catch (...) {
        return; // nothing listed (no host memory, or the lock failed): nothing checked
    }
    uint64_t largest = 0;
    for (const TrackedAllocation& a : entries) {
        if (a.size == 0 || (a.id == 0 && !a.managed) ||
            std::find(aliases.begin(), aliases.end(), a.address) != aliases.end()) {
            continue; // a module variable over the cap, or the agents' address of a locked range
        }
        Listed l;
        l.range.id = a.id;
        l.range.address = a.address;
        l.range.size = a.size;
        l.agent = a.agent;
        l.device = !a.managed && owned_by_gpu(a.agent);
        l.range.kind = a.managed  ? UnrestorableKind::managed
                       : l.device ? UnrestorableKind::fine_grained
                       : std::find(locked.begin(), locked.end(), a.address) != locked.end()
                           ? UnrestorableKind::locked
                           : UnrestorableKind::host;
        try {
            if (a.size > budget - bytes_) {
                unchecked_.push_back({l.range, true});
                continue;
            }
            ranges_.push_back(l);
        } catch (const std::bad_alloc&) {
            continue;
        }
        bytes_ += a.size;
        largest = std::max(largest, a.size);
    }
    try {
        scratch_.resize(static_cast<size_t>(std::min(largest, kSlice)));
    } catch (const std::bad_alloc&) {
        scratch_.clear(); // every range then reads as unreadable
    }
    for (Listed& l : ranges_) {
        bool readable = true;
        l.range.hash = hash(l, readable);
        if (!readable) {
            try {
                unchecked_.push_back({l.range, false});
            } catch (const std::bad_alloc&) {
                // not reported: the engine's own host memory ran out
            }
        }
    }
}

uint64_t UnrestorableCheck::hash(const Listed& r, bool& readable) noexcept {
    readable = !scratch_.empty();
    if (!readable) {
        return 0;
    }
    XXH3_state_t state;
    if (XXH3_64bits_reset(&state) != XXH_OK) {
        return 0;
    }
    // Under the read lock: a free or unlock of this range waits until it has been read, and a range
    // freed (or handed out again) since it was listed is not read.
    const auto read_under_lock = [&](const AllocationInventory::Map& m) {
        auto it = m.find(r.range.address);
        if (it == m.end() || it->second.id != r.range.id || it->second.size != r.range.size ||
            it->second.managed != (r.range.kind == UnrestorableKind::managed)) {
            return false;
        }
        for (uint64_t offset = 0; offset < r.range.size; offset += kSlice) {
            const uint64_t n = std::min(kSlice, r.range.size - offset);
            const uintptr_t from = r.range.address + offset;
            const bool ok =
                r.device ? hsa().core.hsa_memory_copy_fn(scratch_.data(), reinterpret_cast<const void*>(from),
                                                         static_cast<size_t>(n)) == HSA_STATUS_SUCCESS
                         : read_host(from, n, scratch_.data(), r.range.kind != UnrestorableKind::managed);
            if (!ok || XXH3_64bits_update(&state, scratch_.data(), static_cast<size_t>(n)) != XXH_OK) {
                readable = false;
                return false;
            }
        }
        return true;
    };
    bool read = false;
    try {
        read = inventory_.rlock(read_under_lock);
    } catch (...) {
        readable = false; // the lock failed
    }
    if (!read) {
        return 0;
    }
    const uint64_t h = XXH3_64bits_digest(&state);
    return h == 0 ? 1 : h;
}

std::vector<UnrestorableRange> UnrestorableCheck::changed() noexcept {
    std::vector<UnrestorableRange> out;
    for (const Listed& l : ranges_) {
        if (l.range.hash == 0) {
            continue; // not read when the check was made (gone, or unchecked already)
        }
        bool readable = true;
        const uint64_t now = hash(l, readable);
        try {
            if (!readable) {
                unchecked_.push_back({l.range, false});
            } else if (now != 0 && now != l.range.hash) {
                out.push_back(l.range);
            }
        } catch (const std::bad_alloc&) {
            // not reported: the engine's own host memory ran out
        }
    }
    return out;
}

} // namespace rs::engine
