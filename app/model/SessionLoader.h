// SPDX-License-Identifier: MIT
// Reads one session file through Qt SQL (QSQLITE, read-only) into a SessionData. Used by the reader's
// worker thread and by the headless commands; one loader per thread (it owns a database connection).
// The loader opens and checks the file and orchestrates the per-table readers of model/reading, which
// run the session format's read queries (replayscope/session/read_queries.h); it names no table itself.
// Formats 1 to rs::session::kFormatVersion are read (1-2 as one process; 4 adds the snapshot stores,
// restores, restore misses and placements, absent = "—" in older files; 5 the windows' fence wait, absent =
// not recorded).
#pragma once

#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace rs::app {

class SessionLoader {
  public:
    explicit SessionLoader(const QString& path);
    ~SessionLoader();
    SessionLoader(const SessionLoader&) = delete;
    SessionLoader& operator=(const SessionLoader&) = delete;

    /// Checks the file (a regular file, SQLite header, size, application_id, user_version, tables) and
    /// opens it read-only. A WAL-mode file SQLite cannot open in place (its WAL needs recovery and the
    /// directory is read-only) is copied with its WAL into a temporary directory, checkpointed there and
    /// the copy opened instead (SessionInfo::openedCopy names it; the copy is removed with the loader).
    SessionError open();
    /// The checkpointed copy open() fell back to, empty when the file itself is open.
    QString openedCopy() const;
    /// `PRAGMA data_version`: changes whenever another connection commits; -1 on error.
    qint64 dataVersion();
    /// Everything but the inventory regions (what the first paint needs).
    SessionError load(SessionData& out);
    /// Inventory regions and the per-allocation capture counts (after load()).
    SessionError loadRegions(SessionData& out);
    /// `PRAGMA quick_check` (corruption inside pages the first load did not touch).
    SessionError quickCheck();

    /// Byte-level checks that need no SQLite (the session format's rs::session::check_session_header,
    /// worded for the inspector): missing, not a regular file (FIFO, device, socket: refused from stat(2),
    /// before any open for reading; likewise a non-regular `-wal` beside it), unreadable, empty, not
    /// SQLite, truncated. The size check (header page count versus file size) is skipped when a `-wal`
    /// file is present: SQLite then reads pages from the WAL and judges the file itself. The database
    /// checks of check_session_file (application id, format version) follow in open(), on the connection
    /// the loader reads through; its integrity check is quickCheck(), run after the first paint.
    static SessionError checkFile(const QString& path);
    /// open() + load() + loadRegions() in the calling thread.
    static SessionSnapshot loadAll(const QString& path, SessionError& error);

  private:
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
