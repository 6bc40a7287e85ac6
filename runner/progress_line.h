// SPDX-License-Identifier: MIT
// The run's progress on the terminal.
#pragma once

#include <cstdint>

namespace rs::runner {

/// A single self-overwriting status line on stderr. Drawn only when enabled, stderr is a terminal and
/// stdout is not: the program inherits stdout, and its lines on the same terminal would be written into
/// the status line and overwritten by its next update (with stdout redirected, the terminal is the line's).
class ProgressLine {
  public:
    /// `enabled`: not --no-progress / --quiet. The terminal tests are isatty(2) and isatty(1).
    explicit ProgressLine(bool enabled);
    /// Whether a status line is drawn, given `enabled` and whether stderr and stdout are terminals.
    static bool shown_for(bool enabled, bool stderr_is_terminal, bool stdout_is_terminal) {
        return enabled && stderr_is_terminal && !stdout_is_terminal;
    }
    /// Rewrites the line: seconds since the start, events and dispatches stored so far.
    void update(std::uint64_t events, std::uint64_t dispatches, double seconds);
    /// Erases the line when one is shown.
    void clear();

  private:
    bool enabled_;
    bool shown_ = false;
};

} // namespace rs::runner
