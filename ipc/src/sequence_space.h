// SPDX-License-Identifier: MIT
// The sequence numbers received from one process, as a set of disjoint intervals: memory and time
// proportional to the number of discontinuities, never to the value of a number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace rs::ipc {

/// Set of received sequence numbers (1-based) of one process. Intervals [first, last] are disjoint and
/// never adjacent (adjacent ones are merged). An in-order stream is one interval; each insert is
/// O(1) at the end of the space and O(log n) elsewhere (n = intervals).
class SequenceSpace {
  public:
    /// Adds `sequence`; false (nothing changed) when it is present already.
    bool insert(std::uint64_t sequence);
    /// Adds every number of [first, last] (first <= last), merging with what is present.
    void insert_range(std::uint64_t first, std::uint64_t last);
    /// Removes `sequence` (undo of an insert whose transaction was rolled back); false when absent.
    bool erase(std::uint64_t sequence);
    /// Removes every number of [first, last] (a recorded gap, when rebuilding from a file).
    void erase_range(std::uint64_t first, std::uint64_t last);
    bool contains(std::uint64_t sequence) const;
    /// Highest number present, 0 when empty.
    std::uint64_t highest() const noexcept { return intervals_.empty() ? 0 : intervals_.rbegin()->second; }
    /// How many numbers are present.
    std::uint64_t count() const noexcept { return count_; }
    /// Number of intervals (the memory it takes).
    std::size_t intervals() const noexcept { return intervals_.size(); }
    bool empty() const noexcept { return intervals_.empty(); }
    /// Ranges [first, last] of [1, end] that are absent, in order; `end` below highest() is raised to it.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> gaps(std::uint64_t end) const;
    /// Count of the absent numbers of [1, max(end, highest())]: O(1).
    std::uint64_t missing(std::uint64_t end) const noexcept;
    void clear() noexcept {
        intervals_.clear();
        count_ = 0;
    }

  private:
    std::map<std::uint64_t, std::uint64_t> intervals_; ///< first -> last
    std::uint64_t count_ = 0;
};

} // namespace rs::ipc
