// SPDX-License-Identifier: MIT
// The SQLite session file: schema, validation and the inserts of every event type
// (schema documented in docs/session-schema.md). One SessionStore is used by one thread at a time.
#pragma once

#include "replayscope/ipc/records.h"
#include "replayscope/session/file_check.h"
#include "replayscope/session/format.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rs::ipc {

/// Stores the launched program's exit status (exit code, or 128+signal) and terminating signal (0: none)
/// in the `session` row of a finished version-2 or -3 session file and, in version 3, in the row of the
/// latest process whose pid is `root_pid` (0: session row only). Ends in journal_mode=DELETE. False
/// with `error` set otherwise.
bool record_exit_status(const std::string& path, std::uint32_t root_pid, int exit_status, int exit_signal,
                        std::string& error);
/// Same, session row only (root pid unknown).
bool record_exit_status(const std::string& path, int exit_status, int exit_signal, std::string& error);

/// Stores `rank` (>= 0: the rank of the MPI/Slurm job process that recorded the session, from the
/// launcher's environment) in the `session` row's `job_rank` of a finished session file of any readable
/// format, adding the column to a file created without it. Ends in journal_mode=DELETE. False with
/// `error` set when the file is refused (session::check_session_file), `rank` is negative or the update
/// fails.
bool record_job_rank(const std::string& path, int rank, std::string& error);

/// Stores `command` (the replayscope-run command line that recorded the session, its options whole) in the
/// `session` row's `runner_command`, adding the column to a file created without it. Ends in
/// journal_mode=DELETE. False with `error` set when the file is refused or the update fails.
bool record_runner_command(const std::string& path, const std::string& command, std::string& error);

/// Adds `names` (derived metric names, rocprofv3's spelling: "VALUInsts", asked for with replayscope-run's
/// --pmc / -i) to the `derived_counters` table of the finished session file `path`, creating the table
/// when the file has none (docs/counters.md, "Derived metrics"). Nothing to do when `names` is empty.
/// False with `error` naming the path when the file is refused (rs::session::check_session_file) or
/// cannot be written; the file is then unchanged.
bool record_derived_counters(const std::string& path, const std::vector<std::string>& names,
                             std::string& error);

/// Reads the job rank record_job_rank stored in `path` into `rank` (-1 when the file holds none: recorded
/// outside a job, or by a build before the column existed). Opened read-only (through
/// session::openable_session_copy when its WAL needs recovery). False with `error` set when the file is
/// refused or a query fails.
bool read_job_rank(const std::string& path, int& rank, std::string& error);

/// What the snapshots and restores of a session cost (read_restore_totals): the bytes a full restore would
/// have moved against the bytes actually moved, over the host link and inside the device.
struct RestoreTotals {
    int format_version = 0;
    std::uint64_t snapshots = 0;       ///< snapshots taken
    std::uint64_t footprint_bytes = 0; ///< their bytes (sum of snapshots.bytes)
    /// Restores: format 4, the `restores` rows (before every pass after the first and after the last
    /// pass); formats 1-3, the passes after the first (the restore after the last pass was not recorded).
    std::uint64_t restores = 0;
    std::uint64_t full_restore_bytes = 0;    ///< sum over the restores of their snapshot's bytes
    std::uint64_t restored_bytes_host = 0;   ///< copied back from host stores (formats 1-3: every byte)
    std::uint64_t restored_bytes_device = 0; ///< copied back from device stores (0 before format 4)
    std::uint64_t dirty_chunks = 0, total_chunks = 0, missed_chunks = 0; ///< sums over the restores
    std::uint64_t hash_ns = 0;    ///< hashing time of the restores (ns)
    std::uint64_t restore_ns = 0; ///< time of the restores, hashing included (ns)
    /// Snapshots by store (formats 1-3: every snapshot is a host one), and the host or mixed ones whose
    /// host store was pageable (not page-locked; formats 1-3: all of them).
    std::uint64_t host_snapshots = 0, device_snapshots = 0, mixed_snapshots = 0, pageable_snapshots = 0;
    /// Format 5 and later: windows that took a snapshot and reported their dispatch, how long they held
    /// their dispatches in all and the longest (ns; `dispatches.window_ns`, docs/session-schema.md).
    std::uint64_t windows = 0, window_ns = 0, longest_window_ns = 0;
};

/// Reads the RestoreTotals of the session file `path` (any readable format; opened read-only, through
/// session::openable_session_copy when its WAL needs recovery). False with `error` set when the file is
/// refused (session::check_session_file) or a query fails.
bool read_restore_totals(const std::string& path, RestoreTotals& totals, std::string& error);

/// The events of a session file's processes (read_event_totals): sums of processes.last_sequence,
/// events_stored and missing_events.
struct EventTotals {
    std::uint64_t sent = 0, stored = 0, missing = 0;
};

/// Reads the EventTotals the session file `path` records (any readable format; read-only, through
/// session::openable_session_copy when its WAL needs recovery): what a reader of the file will report,
/// to compare with what the writer counted. False with `error` set when the file is refused or the
/// query fails.
bool read_event_totals(const std::string& path, EventTotals& totals, std::string& error);

/// The texts of the `configuration` warnings of session file `path` (what the engine could not apply of
/// its settings: an invalid value, an --agent entry naming no GPU), in the order recorded, each once.
/// False with `error` set when the file cannot be read.
bool read_configuration_warnings(const std::string& path, std::vector<std::string>& texts,
                                 std::string& error);

/// Identity of one process of a session (one emitter instance, from its Hello record).
struct ProcessIdentity {
    std::uint64_t instance = 0; ///< random per emitter instance, never 0 on protocol 4 (0: legacy/synthetic)
    std::uint32_t pid = 0, parent_pid = 0;
};

/// SessionStore::check_sequence's verdict on a frame's sequence number.
enum class SequenceVerdict {
    fresh,         ///< not stored yet, within the window: insert it
    duplicate,     ///< already stored (spool imported twice, or both sent and spooled): skip it
    out_of_window, ///< 0, or beyond the highest received + kSequenceWindow: a bad frame
};

/// One process of a session (SessionStore::processes()): what the file holds (committed transactions)
/// against what the process sent, so that last_sequence = events_stored + missing exactly, also when
/// commits failed (a full disk).
struct ProcessSummary {
    std::int64_t process = 0; ///< 1-based index in the session
    ProcessIdentity identity;
    std::uint64_t events_stored = 0, dispatches = 0; ///< committed
    /// Sent events not in the file: gaps, and every event read whose transaction did not commit.
    std::uint64_t missing = 0;
    std::uint64_t rejected_frames = 0; ///< bad frames of this process (counted, not stored)
    /// Events sent: the session_end's last sequence (when within the window), else the highest read.
    std::uint64_t last_sequence = 0;
    bool complete = false; ///< session_end committed and nothing missing
    std::string command;   ///< argv of its session_start (spaces between), else ""
};

/// Writer of one session file. Rows go into the current transaction; commit() makes them durable
/// (WAL, synchronous=NORMAL). The `session` row is kept current at every commit, so a file whose
/// writer dies still opens, holds every committed row and reads as incomplete.
class SessionStore {
  public:
    enum class Mode {
        create,    ///< new file; refused if `path` exists and is not empty
        overwrite, ///< replace an existing file (any content)
        append,    ///< existing valid session file (spool import); created when missing
    };
    /// Opens or creates the session file. Returns null with `error` set on refusal or SQLite failure,
    /// and when a new file has no room for its end rows (kWalEndBytes) next to its schema (a full disk).
    static std::unique_ptr<SessionStore> open(const std::string& path, Mode mode, std::string& error);
    ~SessionStore();
    SessionStore(const SessionStore&) = delete;
    SessionStore& operator=(const SessionStore&) = delete;

    /// Index (1-based) of the process `identity.instance`, creating its `processes` row the first time
    /// the instance is seen (indexes in order of first use). pid/parent_pid update a known row when they
    /// were 0. Returns 0 on a SQLite error (lastError()).
    std::int64_t process(const ProcessIdentity& identity);
    /// Checks a frame's sequence number against the sequence space of `process`: out_of_window for 0,
    /// an unknown process or a number above the highest received + kSequenceWindow; duplicate when
    /// stored already; else fresh. O(log discontinuities).
    SequenceVerdict check_sequence(std::int64_t process, std::uint64_t sequence) const;
    /// Inserts the row(s) of one event of `process` (hello is ignored; a duplicate is skipped; an
    /// out-of-window sequence is counted as a rejected frame and not stored). False on a SQLite error
    /// (see lastError()): the open transaction is rolled back, and its events and this one count as
    /// missing (a session_end is kept and stored again by the next transaction); the store stays usable.
    bool insert(std::int64_t process, const Record& record);
    /// Compatibility: inserts into the process with instance 0 (created on first use; its pid comes
    /// from its session_start record). For synthetic sessions, benches and single-process tests.
    bool insert(const Record& record);
    /// Counts a frame refused as bad (decode error, out-of-window sequence) for `process` (0: before
    /// authentication, counted for the session only). Written at the next commit.
    void note_rejected_frame(std::int64_t process);
    /// Commits the open transaction (if any) after updating the session and process rows. False on
    /// error; the transaction is then rolled back and the counts return to the last commit, except that
    /// its sequence numbers stay read: they count as missing (and are stored if they come again, e.g.
    /// from a spool), and a session_end read is stored again by the next transaction.
    bool commit();
    /// Rows inserted since open (events, not counting ignored duplicates), including the open
    /// transaction's.
    std::uint64_t events_stored() const noexcept { return stored_; }
    /// Events of committed transactions only (what the file holds).
    std::uint64_t committed_events() const noexcept { return committed_stored_; }
    /// Every process of the session (in process order): committed counts, and sent/missing as read.
    std::vector<ProcessSummary> processes() const;
    /// Rejected frames of the session (every process and before authentication), including uncommitted.
    std::uint64_t rejected_frames() const noexcept { return rejected_; }
    /// Highest sequence number seen in any process (including earlier runs on this file).
    std::uint64_t last_sequence() const noexcept;
    /// True when every process stored its session_end (and there is at least one).
    bool all_processes_ended() const noexcept;

    /// Ends the session: records per-process sequence gaps, per-type sent/stored counts, completeness
    /// (a process is complete when its session_end was stored and no gap remains; the session when it
    /// has at least one process and all are complete) with `end_reason`, builds the indexes, commits,
    /// checkpoints the WAL and switches to journal_mode=DELETE (one self-contained file). False on error.
    /// When that transaction cannot be committed (a full disk), a smaller one still records every
    /// process's row (sent, stored, missing, complete), its gaps and the session row with `end_reason`,
    /// in the WAL space kept for it (kWalEndBytes); false all the same, last_error() says so.
    bool finish(const std::string& end_reason);
    /// WAL space kept allocated past the last commit's frames (the -wal file is extended to it after
    /// every commit, or as far as the disk allows): the transaction that follows a failed one can use
    /// what the failed one could not. Gone with the WAL at the end.
    static constexpr long long kWalReserveBytes = 1 << 20;
    /// The last part of the allocated -wal file, which only finish()'s end rows may write: the store's
    /// VFS fails (SQLITE_FULL) any other transaction's write past it, so that the end rows (a few pages
    /// per process) find it however full the disk is, provided the disk held it once (after the first
    /// commit).
    static constexpr long long kWalEndBytes = 256 << 10;

    /// Missing sequence ranges [first, last] of `process` (0: of every process, concatenated).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> gaps(std::int64_t process = 0) const;
    const std::string& last_error() const noexcept { return error_; }

  private:
    struct ProcessState;
    SessionStore() = default;
    bool exec(const char* sql);
    /// sqlite3_wal_hook callback after every commit: checkpoints every kCheckpointFrames frames (in place
    /// of wal_autocheckpoint) and keeps kWalReserveBytes allocated after the WAL's last frame.
    static int wal_committed(void* store, sqlite3* db, const char* name, int frames);
    /// Extends the -wal file to kWalReserveBytes past the last commit's frames when it is shorter (as
    /// far as the disk allows; wal_reserve_short_ says whether it fell short), and limits the frames of
    /// the transactions other than the end rows to kWalEndBytes before the end of the file.
    void keep_wal_reserve();
    static constexpr int kCheckpointFrames = 16384;
    /// The finish() that records everything; false (rolled back) when any part fails.
    bool finish_all(const std::string& end_reason);
    /// Writes the end reason of each process of `changed` and the session's completeness and
    /// `end_reason` into the open transaction.
    bool write_end_rows(const std::string& end_reason, const std::vector<ProcessState*>& changed);
    /// exec() of SQL text that need not be NUL-terminated (the schema text).
    bool exec(std::string_view sql);
    bool prepare_all();
    bool load_state();
    /// Opens a transaction when none is open (storing again the session_ends lost to a rolled-back one)
    /// and writes the rows of new processes.
    bool begin();
    /// Rolls back the open transaction and the in-memory state to the last commit.
    void rollback();
    /// Writes the rows of processes created in this transaction or lost to a rolled-back one.
    bool persist_processes();
    /// Upserts the process rows and the session row from the in-memory counts.
    bool update_process_rows();
    /// Rewrites sequence_gaps of every process whose set of gaps changed since the last commit.
    /// Between commits only processes with at most kGapsPerCommit intervals (`all`: every one).
    bool write_gaps(bool all);
    static constexpr std::size_t kGapsPerCommit = 4096;
    ProcessState* state(std::int64_t process) const;
    /// End of the sequence space of `p`: the highest received, raised to its session_end's last_sequence
    /// when that is within kSequenceWindow of it.
    static std::uint64_t space_end(const ProcessState& p);
    /// Marks `sequence` stored in `p` (kept for rollback until the commit).
    void mark_sequence(ProcessState& p, std::uint64_t sequence);
    /// Runs `s` once and resets it; false (lastError() says why) unless it ran to completion.
    bool step(sqlite3_stmt* s);
    /// A dispatch_rows row being assembled: the parts of one dispatch seen since the last flush.
    struct PendingRow {
        std::int64_t process = 0;
        std::uint64_t id = 0;
        bool has_dispatch = false, has_snapshot = false, has_pass[2] = {false, false};
        std::uint64_t dispatch_seq = 0, dispatch_ts = 0, snapshot_seq = 0, snapshot_ts = 0;
        std::uint64_t pass_seq[2] = {0, 0}, pass_ts[2] = {0, 0};
        DispatchRecord dispatch{};
        SnapshotRecord snapshot{};
        PassRecord pass[2]{};
        /// The restore before pass 1 ([0]) and the final restore after pass 1 ([1]): folded into the row
        /// at flush when they are what the row's pass 1 and snapshot imply (else `restore_rows` rows).
        bool has_restore[2] = {false, false};
        std::uint64_t restore_seq[2] = {0, 0}, restore_ts[2] = {0, 0};
        RestoreRecord restore[2]{};
        /// Decided at flush: the snapshot's store columns and the restores go into the row.
        bool fold_store = false, fold_restore[2] = {false, false};
    };
    PendingRow& pending_row(std::int64_t process, std::uint64_t dispatch_id);
    /// The pending row of the dispatch, nullptr when none is buffered (never creates one).
    PendingRow* find_pending_row(std::int64_t process, std::uint64_t dispatch_id);
    /// Decides which parts of `row` fold into its dispatch_rows row and writes the others to the
    /// overflow tables (`snapshot_store_rows`, `restore_rows`). false on an SQLite error.
    bool fold_or_spill(PendingRow& row);
    /// Binds `row` from parameter `first`; `narrow`: the dispatch columns only.
    void bind_row(sqlite3_stmt* s, int first, const PendingRow& row, bool narrow);
    /// Small id of an agent/queue/kernel-object handle (inserted into `handles` when new).
    std::int64_t handle_ref(std::uint64_t handle);
    /// Upserts the pending rows (multi-row statements). Called when the buffer is full (`final` false:
    /// the newest rows stay buffered), at commit and at finish (all), so the file never misses a row
    /// counted as stored.
    bool flush_rows(bool final);
    sqlite3_stmt* statement(EventType type) const { return statements_[static_cast<std::size_t>(type)]; }
    /// The insert statement of `type` with parameter ?1 bound to `process`.
    sqlite3_stmt* row_statement(EventType type, std::int64_t process) const;
    /// Runs the bound statement `s` of an event and marks its sequence stored in `p`; false (after
    /// rollback(), lastError() says why) on an SQLite error.
    bool store_row(ProcessState& p, sqlite3_stmt* s, std::uint64_t sequence);
    /// False (and the frame counted as rejected) for a dispatch id that does not fit dispatch_rows' key.
    bool dispatch_id_fits(std::int64_t process, std::uint64_t id);
    /// Marks a part assembled into a pending row stored, and flushes the rows when the buffer is full;
    /// false (after rollback()) on an SQLite error.
    bool buffer_part(ProcessState& p, std::uint64_t sequence);
    /// One per record type (called by insert() inside the open transaction, after the sequence check): its
    /// row or its part of a pending dispatch row. True when stored or deliberately dropped (a forged
    /// dispatch id); false after rollback() on an SQLite error.
    /// The insert_* function of the record's type.
    bool insert_record(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_session_start(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_string(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_agent(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_allocation(std::int64_t process, ProcessState& p, const Record& r);
    /// Completes the allocation's row, or keeps the free in a placeholder row until its allocation comes.
    bool insert_free(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_executable(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_module_variable(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_dispatch(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_inventory(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_inventory_region(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_snapshot(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_snapshot_failure(std::int64_t process, ProcessState& p, const Record& r);
    /// Passes 0 and 1 join the dispatch's pending row; later passes get their own row.
    bool insert_pass(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_restore_skip(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_warning(std::int64_t process, ProcessState& p, const Record& r);
    /// The process's end columns and the sent counts per event type (written to event_counts at finish()).
    bool insert_session_end(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_fidelity_mismatch(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_async_copy(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_restore_failure(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_snapshot_placement(std::int64_t process, ProcessState& p, const Record& r);
    /// The restore before pass 1 and the final one wait in the dispatch's pending row when it is there;
    /// any other restore gets its own row.
    bool insert_restore(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_restore_miss(std::int64_t process, ProcessState& p, const Record& r);
    bool insert_counter_value(std::int64_t process, ProcessState& p, const Record& r);

    sqlite3* db_ = nullptr;
    std::string path_;               ///< the session file (its -wal is kept with a reserve, wal_committed)
    bool finished_counts_ = false;   ///< finish_all() committed (only its checkpoint may have failed)
    long long wal_frames_ = 0;       ///< frames in the WAL after the last commit
    bool wal_reserve_short_ = false; ///< the WAL reserve could not be made whole after the last commit
    long long wal_room_ = 0;         ///< bytes allocated past the last commit's WAL frames
    /// posix_fallocate failed for another reason than a full disk: no reserve and no limit.
    bool wal_reserve_unsupported_ = false;
    bool end_rows_ = false; ///< finish() is writing the end rows into the reserve
    long long page_size_ = 4096;
    sqlite3_stmt* statements_[kEventTypeSlots] = {};
    sqlite3_stmt* free_update_ = nullptr;
    sqlite3_stmt* session_update_ = nullptr;
    sqlite3_stmt* process_update_ = nullptr;
    sqlite3_stmt* process_insert_ = nullptr;
    sqlite3_stmt* end_counts_ = nullptr;
    /// Rows are upserted kRowBatch at a time (one statement execution instead of 16).
    static constexpr int kRowBatch = 16;
    static constexpr std::size_t kMaxPendingRows = 2048;
    sqlite3_stmt* row_single_ = nullptr;
    sqlite3_stmt* row_batch_ = nullptr;
    sqlite3_stmt* narrow_single_ = nullptr;
    sqlite3_stmt* narrow_batch_ = nullptr;
    sqlite3_stmt* handle_insert_ = nullptr;
    std::vector<PendingRow> pending_;
    std::unordered_map<std::uint64_t, std::int64_t> refs_;
    /// refs_ entries added in the open transaction (removed again on rollback).
    std::vector<std::uint64_t> new_refs_;
    std::vector<std::unique_ptr<ProcessState>> processes_; ///< [i] is process i + 1
    std::vector<ProcessState*> unwritten_; ///< processes whose row is still to be written (persist_processes)
    std::unordered_map<std::uint64_t, std::int64_t> by_instance_;
    bool in_transaction_ = false;
    std::uint64_t stored_ = 0;
    std::uint64_t committed_stored_ = 0;
    std::uint64_t rejected_ = 0;
    std::uint64_t rejected_unauthenticated_ = 0;
    std::string error_;
};

} // namespace rs::ipc
