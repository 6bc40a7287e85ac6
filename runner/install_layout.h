// SPDX-License-Identifier: MIT
// Where the engine and the simulated runtime are, relative to the replayscope-run binary.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rs::runner {

/// Locations relative to the replayscope-run binary (never a compile-time path):
/// engine `<exe_dir>/../lib/replayscope/libreplayscope_engine.so`; simulated runtime
/// `<exe_dir>/../lib/replayscope/sim` (installed) or `<exe_dir>/../sim/lib` (build tree).
class InstallLayout {
  public:
    /// From /proc/self/exe ("." when it cannot be read).
    static InstallLayout from_running_binary();
    explicit InstallLayout(std::string exe_dir) : exe_dir_(std::move(exe_dir)) {}
    /// The engine library's default path (it need not exist).
    std::string default_engine_path() const;
    /// First candidate directory holding libhsa-runtime64.so.1 (realpath'd); empty when none does.
    std::string simulator_directory() const;
    /// The inspector beside this binary, `<exe_dir>/replayscope` (it need not exist): what writes the
    /// --output-format files.
    std::string inspector_path() const { return exe_dir_ + "/replayscope"; }
    /// The candidates searched by simulator_directory(), for error messages.
    std::vector<std::string> simulator_candidates() const;

  private:
    std::string exe_dir_;
};

} // namespace rs::runner
