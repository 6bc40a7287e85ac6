// SPDX-License-Identifier: MIT
#include "svm_ranges.h"

#include <iterator>

namespace sim {

namespace {

constexpr uintptr_t kPage = 4096;

uintptr_t page_down(uintptr_t p) {
    return p & ~(kPage - 1);
}

uintptr_t page_up(uintptr_t p) {
    return (p + kPage - 1) & ~(kPage - 1);
}

} // namespace

std::vector<SvmAttributes*> SvmRanges::cover(uintptr_t ptr, size_t size) {
    const uintptr_t begin = page_down(ptr);
    const uintptr_t end = page_up(ptr + size);
    std::vector<SvmAttributes*> out;
    if (begin >= end) {
        return out;
    }
    // Split a recorded range that straddles `at`.
    auto split = [this](uintptr_t at) {
        auto it = ranges_.upper_bound(at);
        if (it == ranges_.begin()) {
            return;
        }
        --it;
        if (it->first < at && at < it->second.end) {
            Range tail{it->second.end, it->second.attributes};
            it->second.end = at;
            ranges_.emplace(at, std::move(tail));
        }
    };
    split(begin);
    split(end);
    // Walk [begin, end), filling gaps with default ranges.
    uintptr_t cursor = begin;
    auto it = ranges_.lower_bound(begin);
    while (cursor < end) {
        if (it == ranges_.end() || it->first >= end || it->first > cursor) {
            const uintptr_t gap_end = (it == ranges_.end() || it->first >= end) ? end : it->first;
            it = ranges_.emplace_hint(it, cursor, Range{gap_end, SvmAttributes{}});
        }
        out.push_back(&it->second.attributes);
        cursor = it->second.end;
        ++it;
    }
    return out;
}

std::vector<SvmAttributes> SvmRanges::query(uintptr_t ptr, size_t size) const {
    const uintptr_t begin = page_down(ptr);
    const uintptr_t end = page_up(ptr + size);
    std::lock_guard lock(mutex_);
    std::vector<SvmAttributes> out;
    uintptr_t cursor = begin;
    auto it = ranges_.upper_bound(begin);
    if (it != ranges_.begin() && std::prev(it)->second.end > begin) {
        --it;
    }
    while (cursor < end) {
        if (it == ranges_.end() || it->first >= end) {
            out.emplace_back(); // the rest was never recorded
            break;
        }
        if (it->first > cursor) {
            out.emplace_back(); // a gap before the next recorded range
            cursor = it->first;
            continue;
        }
        out.push_back(it->second.attributes);
        cursor = it->second.end;
        ++it;
    }
    return out;
}

void SvmRanges::clear() {
    std::lock_guard lock(mutex_);
    ranges_.clear();
}

} // namespace sim
