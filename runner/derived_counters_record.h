// SPDX-License-Identifier: MIT
// The derived metrics asked for with --pmc / -i, recorded in the session file for the inspector
// (docs/counters.md, "Derived metrics").
#pragma once

#include <string>
#include <vector>

namespace rs::runner {

/// Adds `names` (derived metric names, rocprofv3's spelling: "VALUInsts") to the `derived_counters` table
/// of the session file `path`, creating the table when the file has none. Nothing to do when `names` is
/// empty. False with `error` naming the path when the file is refused (rs::session::check_session_file)
/// or cannot be written; the file is then unchanged.
bool record_derived_counters(const std::string& path, const std::vector<std::string>& names,
                             std::string& error);

} // namespace rs::runner
