// Reads one session file through Qt SQL (QSQLITE, read-only) into a SessionData. Used by the reader's
// worker thread and by the headless commands; one loader per thread (it owns a database connection).
#pragma once

#include "model/SessionError.h"
#include "model/SessionSnapshot.h"

#include <QString>

namespace rs::app {

class SessionLoader {
  public:
    /// application_id of a session file ("RSDB") and the newest format version this build reads.
    static constexpr qint64 kApplicationId = 0x52534442;
    /// Newest session format read (user_version 1 and 2 are both read).
    static constexpr int kFormatVersion = 2;

    explicit SessionLoader(const QString& path);
    ~SessionLoader();
    SessionLoader(const SessionLoader&) = delete;
    SessionLoader& operator=(const SessionLoader&) = delete;

    /// Checks the file (exists, SQLite header, size, application_id, user_version, tables) and opens it.
    SessionError open();
    /// `PRAGMA data_version`: changes whenever another connection commits; -1 on error.
    qint64 dataVersion();
    /// Everything but the inventory regions (what the first paint needs).
    SessionError load(SessionData& out);
    /// Inventory regions and the per-allocation capture counts (after load()).
    SessionError loadRegions(SessionData& out);
    /// `PRAGMA quick_check` (corruption inside pages the first load did not touch).
    SessionError quickCheck();

    /// Byte-level checks that need no SQLite: missing, unreadable, empty, not SQLite, truncated.
    static SessionError checkFile(const QString& path);
    /// open() + load() + loadRegions() in the calling thread.
    static SessionSnapshot loadAll(const QString& path, SessionError& error);

  private:
    SessionError queryError(const QString& what, const QString& driverText) const;
    SessionError fail(SessionError::Kind kind, const QString& message) const;

    QString path_;
    QString connection_;
    bool opened_ = false;
};

} // namespace rs::app
