// SPDX-License-Identifier: MIT
// Derived metrics: rocprofv3's metrics of gfx90a whose every input is a counter of the catalogue, each an
// arithmetic expression over counter values (docs/counters.md, "Derived metrics", lists them and their
// source).
#pragma once

#include "counter_plan.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rs::counters {

/// One derived metric.
struct DerivedDef {
    std::string_view name;        ///< rocprofv3's spelling: "VALUInsts"
    std::string_view expression;  ///< over catalogue names, numbers, + - * / and parentheses
    std::string_view unit;        ///< what the value is: "instructions per wave", "percent", ...
    std::string_view description; ///< one sentence, in our words
};

/// The derived metrics of gfx90a (rocprofiler-sdk's counter_defs.yaml), by name. Their values are
/// computed from a dispatch's counter values when a session is read; they are never collected.
std::span<const DerivedDef> gfx90a_derived() noexcept;

/// The derived metric named `name` (exact, case-sensitive, as rocprofv3 spells it); nullptr when there
/// is none (a catalogue counter is not a derived metric).
const DerivedDef* find_derived(std::string_view name) noexcept;

/// The counter names `expression` reads, each once, in the order they first appear
/// ("SQ_INSTS_VALU / SQ_WAVES" -> {"SQ_INSTS_VALU", "SQ_WAVES"}). Empty when it reads none.
std::vector<std::string> expression_inputs(std::string_view expression);

/// A counter's value by name (for a dispatch: the value its passes collected); nullopt when it has none.
using CounterLookup = std::function<std::optional<double>(std::string_view name)>;

/// Evaluates `expression` with the counter values `lookup` gives. nullopt ("no value") when an input has
/// no value, a division has a zero divisor, the result is not finite, or the expression does not parse;
/// never inf or NaN.
std::optional<double> evaluate_expression(std::string_view expression, const CounterLookup& lookup);

/// Replaces every derived metric named in `request` by its inputs, in its own line and at its place, so
/// they are collected in the dispatches (and, packing permitting, the passes) of that line; plan_groups
/// then collects a name given twice once. Returns the derived names found, each once, in request order.
/// Other names (catalogue counters, unknown names) are left as they are.
std::vector<std::string> expand_derived(CounterRequest& request);

/// "VALUInsts = SQ_INSTS_VALU / SQ_WAVES; Wavefronts = SQ_WAVES" for the derived metrics `names`
/// (names that are not derived metrics are left out).
std::string derived_text(const std::vector<std::string>& names);

} // namespace rs::counters
