// SPDX-License-Identifier: MIT
// Reads a session file on a worker thread and emits immutable snapshots; a live session (still being
// written by replayscope-run) is followed by polling `PRAGMA data_version`.
#pragma once

#include "model/SessionError.h"
#include "model/SessionFileChange.h"
#include "model/SessionLoader.h"
#include "model/SessionSnapshot.h"

#include <QObject>
#include <QThread>

namespace rs::app {

class SessionReaderWorker;

class SessionReader : public QObject {
    Q_OBJECT
  public:
    /// `pollMs`: how often a live session is checked for new rows.
    explicit SessionReader(QObject* parent = nullptr, int pollMs = 500);
    ~SessionReader() override;

    /// Starts reading `path` (asynchronous). With `follow`, waits for a file still being created.
    /// `parts`: SessionLoader::Parts::withoutRegions reads no inventory region (a comparison needs none);
    /// the integrity check runs either way once the session is complete.
    void open(const QString& path, bool follow = false,
              SessionLoader::Parts parts = SessionLoader::Parts::all);
    QString path() const { return path_; }
    /// The latest snapshot (null before the first one).
    SessionSnapshot snapshot() const { return snapshot_; }
    /// The last error (kind none when none).
    SessionError error() const { return error_; }
    /// The last fileChanged() value (none after open()).
    SessionFileChange fileChange() const { return fileChange_; }

  signals:
    /// A new picture of the session: first without the restore misses, placements and regions, then with
    /// them, then at every change.
    void snapshotReady(const rs::app::SessionSnapshot& snapshot);
    /// The file cannot be read; the reader stops.
    void failed(const rs::app::SessionError& error);
    /// The path no longer names the file that was opened (replaced by a run with --force, or deleted), or
    /// names it again (none). The snapshots keep showing the file as read: open() again reads the new one.
    /// Checked once a second with stat(2) on the reader's thread, complete sessions included.
    void fileChanged(rs::app::SessionFileChange change);
    /// Spools of the session's run never imported (rs::ipc::leftover_spools: its replayscope-run was killed
    /// while its processes kept spooling); emitted after the first load of a session not being followed.
    void leftoverSpools(const QStringList& spools);

  private:
    QThread thread_;
    SessionReaderWorker* worker_;
    QString path_;
    SessionSnapshot snapshot_;
    SessionError error_;
    SessionFileChange fileChange_ = SessionFileChange::none;
};

} // namespace rs::app
