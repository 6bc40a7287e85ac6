// SPDX-License-Identifier: MIT
// The terminal summary of a session's snapshots and restores.
#pragma once

#include <string>

namespace rs::ipc {
struct RestoreTotals;
}

namespace rs::runner {

/// The terminal summary of a session's snapshots and restores: the snapshot count, footprint and stores
/// used, then the bytes full restores would have moved (footprint x restores) against the bytes actually
/// moved over the host link and inside the device, dirty/total chunks, missed chunks and the hashing and
/// restore time, then (format 5 and later) how long the windows held their dispatches. Lines without the
/// "replayscope-run: " prefix, each ending in '\n'; empty when the session took no snapshot.
std::string restore_summary(const rs::ipc::RestoreTotals& totals);

} // namespace rs::runner
