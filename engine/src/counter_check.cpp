// SPDX-License-Identifier: MIT
#include "counter_check.h"

#include <replayscope/counters/catalogue.h>

namespace rs::engine {

int8_t CounterCheck::after_pass(uint32_t pass, std::optional<uint64_t> count) {
    if (counts_.size() <= pass) {
        counts_.resize(pass + 1);
    }
    counts_[pass] = count;
    if (!count || !counts_[0]) {
        return -1;
    }
    if (pass == 0 || *count == *counts_[0]) {
        return 1;
    }
    differing_.push_back(pass);
    return 0;
}

std::string CounterCheck::mismatch_text(uint64_t dispatch_id, const std::string& kernel) const {
    if (differing_.empty()) {
        return {};
    }
    const counters::CounterDef* def = counters::counter(counter_);
    std::string text = "counter-mismatch: dispatch " + std::to_string(dispatch_id) + " (" +
                       (kernel.empty() ? std::string("unknown kernel") : kernel) +
                       "): " + std::string(def ? def->name : "counter " + std::to_string(counter_)) +
                       " per pass: ";
    for (size_t i = 0; i < counts_.size(); ++i) {
        if (i > 0) {
            text += ", ";
        }
        text += counts_[i] ? std::to_string(*counts_[i]) : std::string("-");
    }
    text += "; passes differing from pass 0: ";
    for (size_t i = 0; i < differing_.size(); ++i) {
        if (i > 0) {
            text += ", ";
        }
        text += std::to_string(differing_[i]);
    }
    text += "; those passes did not execute the kernel as pass 0 did: they read other inputs (state the "
            "snapshot does not hold) or the kernel is not deterministic";
    return text;
}

} // namespace rs::engine
