// SPDX-License-Identifier: MIT
// Chunk planning of a dirty restore (docs/mechanism.md#restore): how regions split into chunks on
// chunk-size boundaries of the device address space, and how dirty chunks coalesce into dirty runs.
// Pure functions, no runtime: unit-tested by tests/engine/tst_chunk_plan.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rs::engine {

/// Smallest and largest chunk size REPLAYSCOPE_RESTORE_CHUNK_SIZE accepts (bytes); the default is 64 KiB.
inline constexpr uint64_t kMinChunkSize = 4096;
inline constexpr uint64_t kMaxChunkSize = 1ull << 30;
inline constexpr uint64_t kDefaultChunkSize = 65536;

/// True for a power of two in [kMinChunkSize, kMaxChunkSize].
constexpr bool valid_chunk_size(uint64_t c) noexcept {
    return c >= kMinChunkSize && c <= kMaxChunkSize && (c & (c - 1)) == 0;
}

/// Chunks of the region [address, address + size) for chunk size `c` (a valid_chunk_size): one per
/// multiple k*c the region overlaps. 0 for an empty region.
constexpr uint64_t chunk_count(uint64_t address, uint64_t size, uint64_t c) noexcept {
    if (size == 0) {
        return 0;
    }
    const uint64_t first = address / c;
    const uint64_t last = (address + size - 1) / c;
    return last - first + 1;
}

/// Appends the chunks of [address, address + size) to `out`, in address order:
/// [max(address, k*c), min(address + size, (k+1)*c)) for every k that overlaps (a region not aligned to
/// `c` has a short first and/or last chunk). `Span` is an aggregate {address, bytes} (ChunkSpan).
/// Throws std::bad_alloc like vector::push_back.
template <typename Span>
void split_into_chunks(uint64_t address, uint64_t size, uint64_t c, std::vector<Span>& out) {
    const uint64_t end = address + size;
    uint64_t at = address;
    while (at < end) {
        const uint64_t boundary = (at / c + 1) * c;
        const uint64_t stop = boundary < end ? boundary : end;
        out.push_back(Span{at, stop - at});
        at = stop;
    }
}

/// A maximal sequence of adjacent dirty chunks of one region, restored with one copy: chunks
/// [first, first + count) of the region's chunk list, covering [address, address + bytes).
struct DirtyRun {
    uint32_t first = 0; ///< index of the run's first chunk within the region
    uint32_t count = 0; ///< chunks in the run
    uint64_t address = 0;
    uint64_t bytes = 0;
};

/// Dirty runs of one region whose `count` chunks (consecutive, as split_into_chunks makes them) have
/// the hashes `snapshot` (at snapshot time) and `current` (now). A chunk is dirty when its hashes
/// differ or either is 0 ("not hashed": restored to be safe). Appends to `out` in address order.
template <typename Span>
void dirty_runs(const Span* chunks, const uint64_t* snapshot, const uint64_t* current, size_t count,
                std::vector<DirtyRun>& out) {
    size_t i = 0;
    while (i < count) {
        auto dirty = [&](size_t k) {
            return snapshot[k] == 0 || current[k] == 0 || snapshot[k] != current[k];
        };
        if (!dirty(i)) {
            ++i;
            continue;
        }
        DirtyRun run;
        run.first = static_cast<uint32_t>(i);
        run.address = chunks[i].address;
        while (i < count && dirty(i)) {
            run.bytes += chunks[i].bytes;
            ++run.count;
            ++i;
        }
        out.push_back(run);
    }
}

} // namespace rs::engine
