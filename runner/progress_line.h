// SPDX-License-Identifier: MIT
// The run's progress on the terminal.
#pragma once

#include <cstdint>

namespace rs::runner {

/// A single self-overwriting status line on stderr, only when enabled and stderr is a terminal.
class ProgressLine {
  public:
    explicit ProgressLine(bool enabled);
    /// Rewrites the line: seconds since the start, events and dispatches stored so far.
    void update(std::uint64_t events, std::uint64_t dispatches, double seconds);
    /// Erases the line when one is shown.
    void clear();

  private:
    bool enabled_;
    bool shown_ = false;
};

} // namespace rs::runner
