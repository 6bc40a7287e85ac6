// SPDX-License-Identifier: MIT
// Which processes of a run record (replayscope-run --follow-children, docs/session-schema.md "Target
// environment"): with REPLAYSCOPE_FOLLOW_CHILDREN=0 the first engine of the run to load claims the
// session and every later one stays inert.
#pragma once

#include <string>
#include <vector>

namespace rs::engine {

/// What OnLoad does in this process.
enum class SessionClaim {
    record, ///< every process records (follow-children on or unset), or this process is the first
    inert,  ///< follow-children off and another process of the run claimed the session first
};

/**
 * Candidate claim files of the run for the current environment, in the order tried:
 * `<directory of REPLAYSCOPE_SOCKET>/first-process` (when the socket is set), then
 * `<REPLAYSCOPE_SPOOL>.first` (when the spool is set; the path as given, "%p" unexpanded, so that every
 * process of the run names the same file). Empty when REPLAYSCOPE_FOLLOW_CHILDREN is not "0" or there is
 * neither a socket nor a spool path (nothing to record into, nothing to share). Only reads the
 * environment; throws only std::bad_alloc.
 */
std::vector<std::string> session_claim_paths();

/**
 * Decides, once per process (the decision is kept for later OnLoad calls of the same pid), whether this
 * process records. With follow-children off it creates the first candidate of session_claim_paths() it
 * can with O_CREAT|O_EXCL, writing its pid into it: created -> record; already there (EEXIST) -> inert;
 * another error -> the next candidate. When no candidate can be created (the socket directory gone, a
 * read-only directory), the process records: the restriction is given up rather than losing the first
 * process. Never throws.
 */
SessionClaim claim_session() noexcept;

} // namespace rs::engine
