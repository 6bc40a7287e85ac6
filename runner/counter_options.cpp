// SPDX-License-Identifier: MIT
#include "counter_options.h"

#include <replayscope/counters/catalogue.h>
#include <replayscope/counters/derived.h>
#include <replayscope/counters/input_file.h>

namespace rs::runner {

namespace {

/// "SQ_WAVES, SQ_INSTS_VALU, ..." (every catalogue name), then "; derived metrics: VALUInsts, ..." (every
/// derived metric).
std::string known_names() {
    std::string out;
    for (const auto& def : rs::counters::gfx90a_counters()) {
        out += (out.empty() ? "" : ", ") + std::string(def.name);
    }
    std::string derived;
    for (const auto& def : rs::counters::gfx90a_derived()) {
        derived += (derived.empty() ? "" : ", ") + std::string(def.name);
    }
    out += "; derived metrics: " + derived;
    return out;
}

} // namespace

bool parse_counter_options(const CounterOptionText& text, ReplayOptions& options, std::string& error) {
    rs::counters::CounterRequest request;
    if (!text.input.empty() && !rs::counters::read_input_file(text.input, request, error)) {
        error = "-i: " + error;
        return false;
    }
    if (!text.pmc.empty()) {
        // rocprofv3 takes the names comma or space separated ("--pmc A,B C"): one group either way.
        std::vector<std::string> names;
        for (const std::string& value : text.pmc) {
            std::size_t start = 0;
            for (std::size_t comma = value.find(',');; comma = value.find(',', start)) {
                const std::string name =
                    value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                if (!name.empty()) {
                    names.push_back(name);
                }
                if (comma == std::string::npos) {
                    break;
                }
                start = comma + 1;
            }
        }
        request.push_back(names);
    }
    if (request.empty()) {
        return true;
    }
    // A derived metric is collected as its inputs, in its own line (the same dispatches, and passes as
    // packing permits); its value is computed when the session is read.
    std::vector<std::string> derived = rs::counters::expand_derived(request);
    for (const auto& line : request) {
        for (const std::string& name : line) {
            if (!rs::counters::find_counter(name)) {
                error = std::string(text.input.empty() ? "--pmc" : "--pmc/-i") + ": unknown counter '" +
                        name + "' (gfx90a counters: " + known_names() + ")";
                return false;
            }
        }
    }
    rs::counters::CounterPlan plan = rs::counters::plan_groups(request, nullptr, options.fidelity_check);
    if (!plan.error.empty()) {
        error = "--pmc: " + plan.error;
        return false;
    }
    options.counters = std::move(request);
    options.counter_plan = std::move(plan.groups);
    options.derived_counters = std::move(derived);
    return true;
}

} // namespace rs::runner
