// SPDX-License-Identifier: MIT
// --pmc and -i: the hardware counters replayscope-run asks the engine to collect per pass (docs/counters.md).
#pragma once

#include "replay_options.h"

#include <string>
#include <vector>

namespace rs::runner {

/// The counter options as given on the command line (empty: not given).
struct CounterOptionText {
    std::vector<std::string> pmc; ///< --pmc NAME [NAME ...]: one request line
    std::string input;            ///< -i FILE: rocprofv3's text input, one request line per `pmc:` line
};

/// Reads `text` into `options.counters` (the input file's lines first, then --pmc as one more line; a
/// derived metric's name is replaced by its inputs in its line and kept in `options.derived_counters`,
/// rs::counters::expand_derived) and
/// plans them into `options.counter_plan` with the catalogue's documented counter slots of gfx90a, one SQ
/// slot kept free when `options.fidelity_check` is set (rs::counters::plan_groups). False with `error`
/// ("--pmc: unknown counter 'X' ...", "-i: FILE: line 2: ...") when a name is not in the catalogue or the
/// file cannot be read; `options` is then unchanged. Nothing given: true, nothing requested.
bool parse_counter_options(const CounterOptionText& text, ReplayOptions& options, std::string& error);

} // namespace rs::runner
