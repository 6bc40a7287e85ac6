// SPDX-License-Identifier: MIT
// The session reader's worker: lives on the reader's thread, loads the file, follows a live session by
// polling `PRAGMA data_version`, and publishes immutable snapshots.
#pragma once

#include "model/SessionError.h"
#include "model/SessionLoader.h"
#include "model/SessionSnapshot.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>

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

  private:
    void poll();
    void reload();

    int poll_ms_;
    QTimer* timer_ = nullptr;
    std::unique_ptr<SessionLoader> loader_;
    QString path_;
    bool follow_ = false;
    SessionLoader::Parts parts_ = SessionLoader::Parts::all;
    bool checked_ = false;
    qint64 version_ = -1;
    QElapsedTimer waiting_;
};

} // namespace rs::app
