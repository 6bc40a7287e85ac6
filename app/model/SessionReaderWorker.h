// SPDX-License-Identifier: MIT
// The session reader's worker: lives on the reader's thread, loads the file, follows a live session by
// polling `PRAGMA data_version`, publishes immutable snapshots, and watches the path for the file being
// replaced or deleted under the open connection.
#pragma once

#include "model/SessionError.h"
#include "model/SessionFileChange.h"
#include "model/SessionLoader.h"
#include "model/SessionSnapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include <memory>
#include <sys/types.h>

class QTimer;

namespace rs::app {

class SessionReaderWorker : public QObject {
    Q_OBJECT
  public:
    explicit SessionReaderWorker(int pollMs);
    ~SessionReaderWorker() override;

  public slots:
    /// Opens `path`; with `follow`, a file that does not exist yet or is still being created is awaited.
    /// `parts`: what each load reads (SessionReader::open).
    void open(const QString& path, bool follow, SessionLoader::Parts parts);
    /// Closes the file (called before the thread ends: the connection belongs to this thread).
    void shutdown();

  signals:
    void snapshotReady(const rs::app::SessionSnapshot& snapshot);
    void failed(const rs::app::SessionError& error);
    /// The path no longer names the file that was opened (SessionFileChange); emitted once per change.
    void fileChanged(rs::app::SessionFileChange change);
    /// Spools of the session's run left in its spool directory and never imported (its replayscope-run
    /// ended without importing them: killed); checked once per open of a session not being followed.
    void leftoverSpools(const QStringList& spools);

  private:
    void poll();
    void reload();
    /// Compares the path's device and inode with those recorded before the open (every kWatchMs).
    void watchFile();

    int poll_ms_;
    QTimer* timer_ = nullptr;
    QTimer* watch_ = nullptr;
    std::unique_ptr<SessionLoader> loader_;
    QString path_;
    bool follow_ = false;
    SessionLoader::Parts parts_ = SessionLoader::Parts::all;
    bool checked_ = false;
    qint64 version_ = -1;
    QElapsedTimer waiting_;
    bool identityKnown_ = false; ///< device_ and inode_ describe the file the loader opened
    dev_t device_ = 0;
    ino_t inode_ = 0;
    SessionFileChange reported_ = SessionFileChange::none;
    bool spoolsChecked_ = false;
};

} // namespace rs::app
