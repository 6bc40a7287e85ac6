// SPDX-License-Identifier: MIT
// Reads one session file through Qt SQL (QSQLITE, read-only) into a SessionData. Used by the reader's
// worker thread and by the headless commands; one loader per thread (it owns a database connection).
// The loader opens and checks the file and orchestrates the per-table readers of model/reading, which
// run the session format's read queries (replayscope/session/read_queries.h); it names no table itself.
// Formats 1 to rs::session::kFormatVersion are read (1-2 as one process; 4 adds the snapshot stores,
// restores, restore misses and placements, absent = "—" in older files; 5 the windows' fence wait, absent =
// not recorded). A load has two phases: load() for the first paint, loadDetails() for the rest.
#pragma once

#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QString>
#include <QStringList>

#include <initializer_list>
#include <memory>

namespace rs::app {

class ReadContext;

class SessionLoader {
  public:
    explicit SessionLoader(const QString& path);
    ~SessionLoader();
    SessionLoader(const SessionLoader&) = delete;
    SessionLoader& operator=(const SessionLoader&) = delete;

    /// Checks the file (a regular file, SQLite header, size, application_id, user_version, and the schema
    /// objects that version requires with their types and no trigger: rs::session::check_session_schema)
    /// and opens it read-only. A WAL-mode file SQLite cannot open in place (its WAL needs recovery and the
    /// directory is read-only) is copied with its WAL into a temporary directory, checkpointed there and
    /// the copy opened instead (SessionInfo::openedCopy names it; the copy is removed with the loader).
    SessionError open();
    /// The checkpointed copy open() fell back to, empty when the file itself is open.
    QString openedCopy() const;
    /// `PRAGMA data_version`: changes whenever another connection commits; -1 on error.
    qint64 dataVersion();
    /// The first phase, what the first paint, a comparison, a timeline and a trace export need: session,
    /// processes, agents, dispatches with their snapshots, passes, restore records and snapshot stores
    /// (format 4), restore skips, allocations, module variables, warnings, async
    /// copies.
    SessionError load(SessionData& out);
    /// What a job's view reads of each rank's file instead of load(): session, processes, agents, kernel
    /// names, dispatches with their snapshots, passes, restore records, restore skips and fidelity
    /// mismatches, counter values: enough for the rank's totals and per-kernel figures (JobSummary). No
    /// allocations, module variables, warnings or async copies, no implausible-value scan.
    SessionError loadFigures(SessionData& out);
    /// The second phase (after load(), on the data it filled): restore misses and placements (format 4;
    /// sets detailsLoaded), the inventory regions and the per-allocation capture counts (sets
    /// regionsLoaded). On a 100,000-dispatch session the regions are most of the file's rows
    /// (docs/performance.md, "Inspector"). `regions` false leaves the inventory regions out.
    SessionError loadDetails(SessionData& out, bool regions = true);
    /// `PRAGMA quick_check` (corruption inside pages the first load did not touch).
    SessionError quickCheck();

    /// Turns SQLite's memory statistics off (SQLITE_CONFIG_MEMSTATUS): their global mutex serialises every
    /// allocation of every connection, which the reader threads of a job (JobSummary::load) spend much of
    /// their time waiting for. Only effective before SQLite is first used in the process (returns false
    /// after); nothing in the inspector reads those statistics.
    static bool configureSqlite();

    /// Byte-level checks that need no SQLite (the session format's rs::session::check_session_header,
    /// worded for the inspector): missing, not a regular file (FIFO, device, socket: refused from stat(2),
    /// before any open for reading; likewise a non-regular `-wal` beside it), unreadable, empty, not
    /// SQLite, truncated. The size check (header page count versus file size) is skipped when a `-wal`
    /// file is present: SQLite then reads pages from the WAL and judges the file itself. The database
    /// checks of check_session_file (application id, format version) follow in open(), on the connection
    /// the loader reads through; its integrity check is quickCheck(), run after the first paint.
    static SessionError checkFile(const QString& path);
    /// What loadAll reads: everything, or everything but the inventory regions (a comparison, a timeline,
    /// a trace export: they read no region). Both end with the integrity check (quickCheck()), so that
    /// every entry point refuses the same files.
    enum class Parts { all, withoutRegions };
    /// open() + load() + loadDetails() + quickCheck() in the calling thread.
    static SessionSnapshot loadAll(const QString& path, SessionError& error, Parts parts = Parts::all);

  private:
    using Reader = SessionError (*)(ReadContext&, SessionData&);
    /// Whether readAll() probes the file's layout (first phase) or reuses the last one's (second).
    enum class Probe { layout, lastLayout };
    /// Runs `readers` in order inside one read transaction on `context`; the first reader error, else a
    /// scan error a reader met (a page found corrupt mid-scan), else none.
    SessionError readAll(ReadContext& context, SessionData& out, Probe probe,
                         std::initializer_list<Reader> readers);
    SessionError queryError(const QString& what, const QString& driverText) const;
    SessionError fail(SessionError::Kind kind, const QString& message) const;
    /// Opens the connection on `file` read-only and checks header, ids and tables.
    SessionError openDatabase(const QString& file);
    void closeDatabase();

    QString path_;
    struct Private;
    std::unique_ptr<Private> p_;
    int version_ = 0; ///< user_version of the open file
    QString connection_;
    bool opened_ = false;
};

} // namespace rs::app
