// SPDX-License-Identifier: MIT
// rocprofv3's kernel iteration ranges (--kernel-iteration-range, REPLAYSCOPE_KERNEL_ITERATION_RANGE): the
// one reading of their text, used by replayscope-run on its command line and by the engine on the
// variable, so that both accept exactly the same values; the canonical text replayscope-run passes; the
// test of an iteration against them. What the iterations are and how rocprofv3 counts them:
// README.md, "--kernel-iteration-range".
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rs::ipc {

/// One range: the iterations `first` to `last` of a kernel, both included; iterations count from 1 (the
/// kernel's first dispatch is iteration 1). A single number N is the range N-N.
struct IterationRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
};

/// Parses `text` as rocprofv3 reads its ranges: '[', ']', ',' and ' ' separate the items, however nested
/// ("[1-3],[5]", "[1, 3, [8-12]]"); an item is a decimal N or A-B. The ranges are their union, kept in the
/// order given. Stricter than rocprofv3 where it would accept a value that selects nothing or not what it
/// says: an iteration 0 (rocprofv3 counts from 1), a range whose end comes before its start, and a text
/// without any item (rocprofv3 then selects every iteration) are refused. False with `problem` saying
/// which item is wrong and why, `ranges` unchanged.
inline bool parse_iteration_ranges(std::string_view text, std::vector<IterationRange>& ranges,
                                   std::string& problem) {
    constexpr std::string_view kSeparators = "[], ";
    const auto number = [](std::string_view digits, std::uint64_t& value) {
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
            return false;
        }
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        return ec == std::errc() && end == digits.data() + digits.size();
    };
    std::vector<IterationRange> parsed;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t start = text.find_first_not_of(kSeparators, i);
        if (start == std::string_view::npos) {
            break;
        }
        const std::size_t end = std::min(text.find_first_of(kSeparators, start), text.size());
        const std::string_view item = text.substr(start, end - start);
        i = end;
        IterationRange range;
        const std::size_t dash = item.find('-');
        const bool ok = dash == std::string_view::npos
                            ? number(item, range.first) && (range.last = range.first, true)
                            : number(item.substr(0, dash), range.first) &&
                                  number(item.substr(dash + 1), range.last) && range.first <= range.last;
        if (!ok) {
            problem = "'" + std::string(item) +
                      "' is not an iteration N or a range A-B of iterations (A <= B), e.g. \"[1-3],[5]\"";
            return false;
        }
        if (range.first == 0) {
            problem = "'" + std::string(item) +
                      "' names iteration 0: iterations count from 1 (a kernel's first dispatch is 1), as in "
                      "rocprofv3";
            return false;
        }
        parsed.push_back(range);
    }
    if (parsed.empty()) {
        problem = "'" + std::string(text) + "' names no iteration, e.g. \"[1-3],[5]\"";
        return false;
    }
    ranges = std::move(parsed);
    return true;
}

/// The canonical text of `ranges`, which parse_iteration_ranges reads back unchanged: "[1-3],[5]".
inline std::string format_iteration_ranges(const std::vector<IterationRange>& ranges) {
    std::string text;
    for (const IterationRange& r : ranges) {
        text += text.empty() ? "[" : ",[";
        text += std::to_string(r.first);
        if (r.last != r.first) {
            text += "-" + std::to_string(r.last);
        }
        text += "]";
    }
    return text;
}

/// True when `iteration` lies in one of `ranges` (0, an iteration never counted, lies in none).
inline bool in_iteration_ranges(const std::vector<IterationRange>& ranges, std::uint64_t iteration) {
    for (const IterationRange& r : ranges) {
        if (iteration >= r.first && iteration <= r.last) {
            return true;
        }
    }
    return false;
}

} // namespace rs::ipc
