// SPDX-License-Identifier: MIT
#include "replayscope/counters/counter_plan.h"

#include <algorithm>
#include <map>
#include <set>

namespace rs::counters {

CounterPlan plan_groups(const CounterRequest& request, const SlotQuery& slots, bool reserve_sq_slot) {
    CounterPlan plan;
    std::set<uint32_t> seen;
    std::map<CounterBlock, uint32_t> capacity;
    const auto capacity_of = [&](CounterBlock block) {
        auto it = capacity.find(block);
        if (it == capacity.end()) {
            uint32_t n = slots ? slots(block) : documented_slots(block);
            if (block == CounterBlock::sq && reserve_sq_slot && n > 0) {
                --n;
            }
            it = capacity.emplace(block, n).first;
        }
        return it->second;
    };
    for (const auto& line : request) {
        const size_t first_group = plan.groups.size();
        // Per group of this line: counters placed per block.
        std::vector<std::map<CounterBlock, uint32_t>> used;
        for (const std::string& name : line) {
            const auto id = find_counter(name);
            if (!id) {
                return {{}, "unknown counter '" + name + "'"};
            }
            if (!seen.insert(*id).second) {
                continue;
            }
            const CounterDef& def = *counter(*id);
            const uint32_t limit = capacity_of(def.block);
            if (limit == 0) {
                return {{},
                        "counter '" + name + "': its block " + std::string(block_name(def.block)) +
                            " has no counter slot on this agent" +
                            (def.block == CounterBlock::sq && reserve_sq_slot
                                 ? " (one SQ slot is kept for --fidelity-check)"
                                 : "")};
            }
            size_t g = 0;
            while (g < used.size() && used[g][def.block] >= limit) {
                ++g;
            }
            if (g == used.size()) {
                used.emplace_back();
                plan.groups.emplace_back();
            }
            ++used[g][def.block];
            plan.groups[first_group + g].counters.push_back(*id);
        }
    }
    return plan;
}

std::string group_text(const CounterGroup& group) {
    std::string out;
    for (uint32_t id : group.counters) {
        if (!out.empty()) {
            out += ' ';
        }
        out += counter(id)->name;
    }
    return out;
}

std::string plan_text(const std::vector<CounterGroup>& groups, uint32_t configured_passes) {
    const size_t passes = std::max<size_t>(groups.size(), configured_passes);
    std::string out = std::to_string(groups.size()) + (groups.size() == 1 ? " group -> " : " groups -> ") +
                      std::to_string(passes) + (passes == 1 ? " pass" : " passes");
    for (size_t i = 0; i < groups.size(); ++i) {
        out += (i == 0 ? ": " : "; ");
        out += "pass " + std::to_string(i) + ": " + group_text(groups[i]);
    }
    return out;
}

std::string encode_request(const CounterRequest& request) {
    std::string out;
    for (const auto& line : request) {
        if (line.empty()) {
            continue;
        }
        if (!out.empty()) {
            out += ';';
        }
        for (size_t i = 0; i < line.size(); ++i) {
            if (i > 0) {
                out += ',';
            }
            out += line[i];
        }
    }
    return out;
}

CounterRequest decode_request(std::string_view text) {
    CounterRequest out;
    std::vector<std::string> line;
    std::string name;
    const auto end_name = [&] {
        if (!name.empty()) {
            line.push_back(std::move(name));
            name.clear();
        }
    };
    const auto end_line = [&] {
        end_name();
        if (!line.empty()) {
            out.push_back(std::move(line));
            line.clear();
        }
    };
    for (char c : text) {
        if (c == ';') {
            end_line();
        } else if (c == ',' || c == ' ') {
            end_name();
        } else {
            name += c;
        }
    }
    end_line();
    return out;
}

} // namespace rs::counters
