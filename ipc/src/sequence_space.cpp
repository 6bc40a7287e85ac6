// SPDX-License-Identifier: MIT
#include "sequence_space.h"

#include <algorithm>
#include <iterator>

namespace rs::ipc {

bool SequenceSpace::insert(std::uint64_t sequence) {
    if (!intervals_.empty()) {
        // Fast path: the next number of an in-order stream extends the last interval.
        auto last = std::prev(intervals_.end());
        if (sequence == last->second + 1 && sequence != 0) {
            last->second = sequence;
            ++count_;
            return true;
        }
        if (sequence >= last->first && sequence <= last->second) {
            return false;
        }
    }
    if (contains(sequence)) {
        return false;
    }
    insert_range(sequence, sequence);
    return true;
}

void SequenceSpace::insert_range(std::uint64_t first, std::uint64_t last) {
    if (last < first) {
        return;
    }
    // Merge every interval that overlaps or touches [first, last].
    auto it = intervals_.upper_bound(first);
    if (it != intervals_.begin()) {
        auto before = std::prev(it);
        if (before->second >= first || (first > 0 && before->second == first - 1)) {
            it = before;
        }
    }
    while (it != intervals_.end() && (it->first <= last || (last != UINT64_MAX && it->first == last + 1))) {
        first = std::min(first, it->first);
        count_ -= it->second - it->first + 1;
        last = std::max(last, it->second);
        it = intervals_.erase(it);
    }
    intervals_.emplace_hint(it, first, last);
    count_ += last - first + 1;
}

bool SequenceSpace::erase(std::uint64_t sequence) {
    auto it = intervals_.upper_bound(sequence);
    if (it == intervals_.begin()) {
        return false;
    }
    --it;
    if (sequence > it->second) {
        return false;
    }
    const std::uint64_t first = it->first, last = it->second;
    intervals_.erase(it);
    if (first < sequence) {
        intervals_.emplace(first, sequence - 1);
    }
    if (sequence < last) {
        intervals_.emplace(sequence + 1, last);
    }
    --count_;
    return true;
}

void SequenceSpace::erase_range(std::uint64_t first, std::uint64_t last) {
    if (last < first) {
        return;
    }
    auto it = intervals_.upper_bound(first);
    if (it != intervals_.begin()) {
        --it;
    }
    while (it != intervals_.end() && it->first <= last) {
        const std::uint64_t f = it->first, l = it->second;
        if (l < first) {
            ++it;
            continue;
        }
        it = intervals_.erase(it);
        const std::uint64_t cut_first = std::max(f, first), cut_last = std::min(l, last);
        count_ -= cut_last - cut_first + 1;
        if (f < first) {
            intervals_.emplace(f, first - 1);
        }
        if (l > last) {
            it = intervals_.emplace(last + 1, l).first;
            break;
        }
    }
}

bool SequenceSpace::contains(std::uint64_t sequence) const {
    auto it = intervals_.upper_bound(sequence);
    if (it == intervals_.begin()) {
        return false;
    }
    --it;
    return sequence <= it->second;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> SequenceSpace::gaps(std::uint64_t end) const {
    end = std::max(end, highest());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> result;
    std::uint64_t next = 1; // first number not yet accounted for
    for (const auto& [first, last] : intervals_) {
        if (first > next) {
            result.emplace_back(next, first - 1);
        }
        if (last == UINT64_MAX) {
            return result;
        }
        next = last + 1;
    }
    if (end >= next) {
        result.emplace_back(next, end);
    }
    return result;
}

std::uint64_t SequenceSpace::missing(std::uint64_t end) const noexcept {
    end = std::max(end, highest());
    // Numbers present below 1 (a 0 that slipped in) do not count against [1, end].
    const std::uint64_t zero = !intervals_.empty() && intervals_.begin()->first == 0 ? 1 : 0;
    return end - (count_ - zero);
}

} // namespace rs::ipc
