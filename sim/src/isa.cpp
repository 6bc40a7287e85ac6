// SPDX-License-Identifier: MIT
// Code-object/agent ISA compatibility (see isa.h).
#include "isa.h"

#include <string_view>

namespace sim {

namespace {

/// A target feature's setting: unspecified ("any"), on (+) or off (-).
enum class Feature { any, on, off };

struct ParsedIsa {
    std::string_view processor;
    Feature sramecc = Feature::any;
    Feature xnack = Feature::any;
    bool valid = false;
};

ParsedIsa parse(std::string_view name) {
    constexpr std::string_view kPrefix = "amdgcn-amd-amdhsa--";
    if (name.substr(0, kPrefix.size()) == kPrefix) {
        name.remove_prefix(kPrefix.size());
    }
    ParsedIsa out;
    const size_t colon = name.find(':');
    out.processor = name.substr(0, colon);
    if (out.processor.empty() || out.processor.find('-') != std::string_view::npos) {
        return out;
    }
    std::string_view rest = colon == std::string_view::npos ? std::string_view{} : name.substr(colon + 1);
    while (!rest.empty()) {
        const size_t next = rest.find(':');
        std::string_view feature = rest.substr(0, next);
        rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
        if (feature.size() < 2) {
            return out;
        }
        const char sign = feature.back();
        if (sign != '+' && sign != '-') {
            return out;
        }
        const Feature setting = sign == '+' ? Feature::on : Feature::off;
        feature.remove_suffix(1);
        if (feature == "sramecc") {
            out.sramecc = setting;
        } else if (feature == "xnack") {
            out.xnack = setting;
        } else {
            return out;
        }
    }
    out.valid = true;
    return out;
}

bool feature_matches(Feature object, Feature agent) {
    if (object == Feature::any) {
        return true;
    }
    return object == (agent == Feature::any ? Feature::off : agent);
}

} // namespace

bool isa_compatible(const char* object_isa, const char* agent_isa) {
    if (!object_isa) {
        return true;
    }
    if (!agent_isa) {
        return false;
    }
    const ParsedIsa object = parse(object_isa);
    const ParsedIsa agent = parse(agent_isa);
    if (!object.valid || !agent.valid || object.processor != agent.processor) {
        return false;
    }
    return feature_matches(object.sramecc, agent.sramecc) && feature_matches(object.xnack, agent.xnack);
}

} // namespace sim
