// SPDX-License-Identifier: MIT
// The queries of a session's snapshot and restore totals (ipc's read_restore_totals, replayscope-run's
// summary line): one row each, every column a sum or count (NULL-free). The format-4 restore query reads
// the snapshot bytes from the compact dispatch rows (docs/session-schema.md), as the views would but faster.
#pragma once

namespace rs::session {

/// Format 4: snapshots, their bytes, how many are host / device / mixed, how many host ones were pageable.
inline constexpr const char* kSnapshotTotalsQuery =
    "SELECT count(*), coalesce(sum(bytes), 0), coalesce(sum(store = 'host'), 0), "
    "coalesce(sum(store = 'device'), 0), coalesce(sum(store = 'mixed'), 0), "
    "coalesce(sum(host_bytes > 0 AND NOT host_pinned), 0) FROM snapshots";
/// Format 4: restores, the bytes a full restore would have moved, bytes restored from host and device
/// stores, dirty / total / missed chunks, hashing and restore time (ns).
inline constexpr const char* kRestoreTotalsQuery =
    "SELECT count(*), coalesce(sum(r.bytes), 0), coalesce(sum(x.restored_bytes_host), 0), "
    "coalesce(sum(x.restored_bytes_device), 0), coalesce(sum(x.dirty_chunks), 0), "
    "coalesce(sum(x.total_chunks), 0), coalesce(sum(x.missed_chunks), 0), coalesce(sum(x.hash_ns), "
    "0), "
    "coalesce(sum(x.restore_ns), 0) FROM restores x LEFT JOIN dispatch_rows r "
    "ON r.key = (x.process << 40) + x.dispatch AND r.s_dseq IS NOT NULL";
/// Formats 5 and later: windows that took a snapshot, the time they held their dispatches in all and the
/// longest (ns): the `dispatches.window_ns` of format 6, read from the dispatch rows (format 5 stores the
/// same columns).
inline constexpr const char* kWindowTotalsQuery =
    "SELECT count(*), coalesce(sum(duration_ns + coalesce(s_fence_ns, 0) - s_dts), 0), "
    "coalesce(max(duration_ns + coalesce(s_fence_ns, 0) - s_dts), 0) FROM dispatch_rows "
    "WHERE s_dseq IS NOT NULL AND decision IS NOT NULL";
/// Formats 1-3: snapshots and their bytes.
inline constexpr const char* kLegacySnapshotTotalsQuery =
    "SELECT count(*), coalesce(sum(bytes), 0) FROM snapshots";
/// Format 3: the passes after the first (each followed a restore of the whole snapshot): count, snapshot
/// bytes, bytes restored, restore time (ns).
inline constexpr const char* kLegacyRestoreTotalsQuery =
    "SELECT count(*), coalesce(sum(s.bytes), 0), coalesce(sum(p.bytes_restored), 0), "
    "coalesce(sum(p.restore_ns), 0) FROM passes p LEFT JOIN snapshots s "
    "ON s.process = p.process AND s.dispatch_id = p.dispatch_id WHERE p.idx >= 1";
/// Formats 1-2 (one process, no `process` column): the same.
inline constexpr const char* kSingleProcessRestoreTotalsQuery =
    "SELECT count(*), coalesce(sum(s.bytes), 0), coalesce(sum(p.bytes_restored), 0), "
    "coalesce(sum(p.restore_ns), 0) FROM passes p LEFT JOIN snapshots s "
    "ON s.dispatch_id = p.dispatch_id WHERE p.idx >= 1";

} // namespace rs::session
