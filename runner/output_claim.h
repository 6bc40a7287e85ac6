// SPDX-License-Identifier: MIT
// One writer per session file: replayscope-run claims its output for the whole run (creating the session,
// the program's run, the spool import, the exit status) through an flock'ed lock file beside it.
// docs/reliability.md ("One writer per output") describes the protocol.
#pragma once

#include <memory>
#include <string>
#include <utility>

namespace rs::runner {

/// The claim of one run on a session path: `<session>.lock`, held with an exclusive flock(2) on an open
/// file description of this process (not inherited by the program: O_CLOEXEC). The kernel drops the lock
/// when the process dies, however it dies, so a claim is live exactly while its run lives. The file holds
/// "replayscope-run pid N" for the messages of other runs.
class OutputClaim {
  public:
    /// Claims `session` (an absolute path). Another live run holding it: null, with `error` "<session>: in
    /// use by another replayscope-run (pid N); ..." (nothing is created, truncated or removed). A lock file
    /// left by a run that died (present, not locked): taken over, with `note` saying whose claim it was.
    /// Null with `error` set too when the lock file cannot be created or locked, is not a regular file or
    /// belongs to another user.
    static std::unique_ptr<OutputClaim> acquire(const std::string& session, std::string& error,
                                                std::string& note);
    /// Releases the claim: removes the lock file while still holding its lock, then closes it.
    ~OutputClaim();
    OutputClaim(const OutputClaim&) = delete;
    OutputClaim& operator=(const OutputClaim&) = delete;

    /// The lock file, `<session>.lock`.
    const std::string& lock_path() const noexcept { return lock_path_; }

  private:
    OutputClaim(std::string lock_path, int fd) : lock_path_(std::move(lock_path)), fd_(fd) {}
    std::string lock_path_;
    int fd_ = -1;
};

} // namespace rs::runner
