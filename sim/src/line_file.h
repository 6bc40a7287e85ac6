// SPDX-License-Identifier: MIT
// A text file the simulator appends whole lines to from any thread (HSA_SIM_DISPATCH_LOG,
// HSA_SIM_DISPATCH_DIGEST).
#pragma once

#include <mutex>
#include <string>

namespace sim {

/// Appends lines to the file a variable names, opening it (O_APPEND, created 0644) at the first line and
/// again when the path changes. Each line is one write(2), so lines from several threads and processes
/// never interleave within a line. An open failure or a short write is reported once on stderr, naming
/// `variable`, and later lines are dropped silently. Thread-safe.
class LineFile {
  public:
    /// `variable`: the environment variable named in messages, e.g. "HSA_SIM_DISPATCH_LOG".
    explicit LineFile(const char* variable) : variable_(variable) {}
    LineFile(const LineFile&) = delete;
    LineFile& operator=(const LineFile&) = delete;
    ~LineFile() = default; // no close: other threads may still append while static objects are destroyed

    /// Appends `line` (with its own newline) to the file at `path`.
    void append(const std::string& path, const std::string& line);
    /// Closes the file; the next append opens it again and may report a failure again (hsa_shut_down).
    void close();

  private:
    const char* variable_;
    std::mutex mutex_;
    int fd_ = -1;
    std::string path_;
    bool error_reported_ = false;
};

} // namespace sim
