// The SQLite session file: schema, validation and the inserts of every event type
// (schema documented in docs/session-schema.md). One SessionStore is used by one thread at a time.
#pragma once

#include "replayscope/ipc/records.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rs::ipc {

/// `PRAGMA application_id` of a session file ("RSDB").
inline constexpr std::int32_t kSessionApplicationId = 0x52534442;
/// `PRAGMA user_version`: the session schema version this build writes and reads.
/// Version 2: compact dispatch rows (docs/session-schema.md), fidelity, async copies, exit status.
inline constexpr std::int32_t kSessionFormatVersion = 2;
/// Oldest `user_version` that checkSessionFile accepts (readers handle 1 and 2; writers append only to 2).
inline constexpr std::int32_t kOldestReadableFormatVersion = 1;

/// Result of checking an existing file before use.
struct SessionFileCheck {
    bool ok = false;
    std::string message;    ///< why the file is refused (empty when ok)
    int format_version = 0; ///< user_version when ok
};

/// Checks that `path` is a ReplayScope session file this build can read: a SQLite database (else
/// "not a SQLite database (foreign file)"), not corrupt (quick_check), whose application_id is RSDB
/// (else "foreign SQLite database") and whose user_version is not newer than kSessionFormatVersion.
/// Opens read-only; never modifies the file.
SessionFileCheck checkSessionFile(const std::string& path);

/// Stores the program's exit status (exit code, or 128+signal) and terminating signal (0: none) in the
/// `session` row of a finished version-2 session file. False with `error` set otherwise.
bool recordExitStatus(const std::string& path, int exit_status, int exit_signal, std::string& error);

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
    /// Opens or creates the session file. Returns null with `error` set on refusal or SQLite failure.
    static std::unique_ptr<SessionStore> open(const std::string& path, Mode mode, std::string& error);
    ~SessionStore();
    SessionStore(const SessionStore&) = delete;
    SessionStore& operator=(const SessionStore&) = delete;

    /// Inserts the row(s) of one event (hello is ignored). Duplicate events (same sequence, e.g. a spool
    /// imported twice) are ignored. False on a SQLite error (see lastError()).
    bool insert(const Record& record);
    /// Commits the open transaction (if any) after updating the session row. False on error.
    bool commit();
    /// Rows inserted since open (events, not counting ignored duplicates).
    std::uint64_t eventsStored() const noexcept { return stored_; }
    /// Highest sequence number seen (including earlier runs on this file).
    std::uint64_t lastSequence() const noexcept { return last_sequence_; }
    bool sawSessionEnd() const noexcept { return saw_end_; }

    /// Ends the session: records sequence gaps, per-type sent/stored counts, completeness (complete
    /// when a session_end was stored and no gap remains) with `end_reason`, builds the indexes,
    /// commits and checkpoints the WAL. False on error.
    bool finish(const std::string& end_reason);

    /// Missing sequence ranges [first, last] below lastSequence().
    std::vector<std::pair<std::uint64_t, std::uint64_t>> gaps() const;
    const std::string& lastError() const noexcept { return error_; }
    sqlite3* database() const noexcept { return db_; }

  private:
    SessionStore() = default;
    bool exec(const char* sql);
    bool prepareAll();
    bool loadState();
    bool begin();
    void markSequence(std::uint64_t sequence);
    /// Runs `s` once and resets it; false (lastError() says why) unless it ran to completion.
    bool step(sqlite3_stmt* s);
    /// A dispatch_rows row being assembled: the parts of one dispatch seen since the last flush.
    struct PendingRow {
        std::uint64_t id = 0;
        bool has_dispatch = false, has_snapshot = false, has_pass[2] = {false, false};
        std::uint64_t dispatch_seq = 0, dispatch_ts = 0, snapshot_seq = 0, snapshot_ts = 0;
        std::uint64_t pass_seq[2] = {0, 0}, pass_ts[2] = {0, 0};
        DispatchRecord dispatch{};
        SnapshotRecord snapshot{};
        PassRecord pass[2]{};
    };
    PendingRow& pendingRow(std::uint64_t dispatch_id);
    /// Binds `row` from parameter `first`; `narrow`: the dispatch columns only.
    void bindRow(sqlite3_stmt* s, int first, const PendingRow& row, bool narrow);
    /// Small id of an agent/queue/kernel-object handle (inserted into `handles` when new).
    std::int64_t handleRef(std::uint64_t handle);
    /// Upserts the pending rows (multi-row statements). Called when the buffer is full (`final` false:
    /// the newest rows stay buffered), at commit and at finish (all), so the file never misses a row
    /// counted as stored.
    bool flushRows(bool final);
    sqlite3_stmt* statement(EventType type) const { return statements_[static_cast<std::size_t>(type)]; }

    sqlite3* db_ = nullptr;
    sqlite3_stmt* statements_[kEventTypeSlots] = {};
    sqlite3_stmt* free_update_ = nullptr;
    sqlite3_stmt* session_update_ = nullptr;
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
    bool in_transaction_ = false;
    bool saw_end_ = false;
    std::uint64_t stored_ = 0;
    std::uint64_t committed_stored_ = 0;
    std::uint64_t last_sequence_ = 0;
    std::vector<std::uint64_t> seen_; ///< bitmap of stored sequence numbers
    std::string error_;
};

} // namespace rs::ipc
