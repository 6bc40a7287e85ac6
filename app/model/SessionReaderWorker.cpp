// SPDX-License-Identifier: MIT
#include "model/SessionReaderWorker.h"

#include "model/SessionLoader.h"

#include <replayscope/ipc/spool_importer.h>

#include <QFile>
#include <QTimer>

#include <cerrno>
#include <sys/stat.h>

namespace rs::app {

namespace {
/// How long a followed session may take to appear before the reader reports the file's problem.
constexpr qint64 kFollowPatienceMs = 20000;
/// How often the path is compared with the file that was opened (one stat(2)).
constexpr int kWatchMs = 1000;
} // namespace

SessionReaderWorker::SessionReaderWorker(int pollMs) : poll_ms_(pollMs) {}

SessionReaderWorker::~SessionReaderWorker() = default;

void SessionReaderWorker::shutdown() {
    if (timer_) {
        timer_->stop();
    }
    if (watch_) {
        watch_->stop();
    }
    loader_.reset();
}

void SessionReaderWorker::open(const QString& path, bool follow, SessionLoader::Parts parts) {
    if (!timer_) {
        timer_ = new QTimer(this);
        connect(timer_, &QTimer::timeout, this, &SessionReaderWorker::poll);
        watch_ = new QTimer(this);
        connect(watch_, &QTimer::timeout, this, &SessionReaderWorker::watchFile);
    }
    timer_->stop();
    watch_->stop();
    identityKnown_ = false;
    reported_ = SessionFileChange::none;
    spoolsChecked_ = false;
    loader_.reset();
    path_ = path;
    follow_ = follow;
    parts_ = parts;
    checked_ = false;
    version_ = -1;
    waiting_.start();
    poll();
}

void SessionReaderWorker::poll() {
    if (!loader_) {
        // The identity is taken before the open: if the file is replaced in between, the watch reports a
        // replacement that a reload resolves, rather than missing one.
        struct stat before{};
        const bool known = ::stat(QFile::encodeName(path_).constData(), &before) == 0;
        auto loader = std::make_unique<SessionLoader>(path_);
        const SessionError error = loader->open();
        if (error.isError()) {
            const bool stillCreating =
                error.kind == SessionError::Kind::missing || error.kind == SessionError::Kind::truncated ||
                error.kind == SessionError::Kind::foreignSqlite || error.kind == SessionError::Kind::corrupt;
            if (follow_ && stillCreating && waiting_.elapsed() < kFollowPatienceMs) {
                timer_->start(poll_ms_ / 2);
                return;
            }
            timer_->stop();
            emit failed(error);
            return;
        }
        loader_ = std::move(loader);
        identityKnown_ = known;
        device_ = before.st_dev;
        inode_ = before.st_ino;
        watch_->start(kWatchMs);
    }
    const qint64 version = loader_->dataVersion();
    if (version != version_ || version < 0) {
        version_ = version;
        reload();
    }
}

void SessionReaderWorker::watchFile() {
    if (!loader_ || !identityKnown_) {
        return;
    }
    struct stat now{};
    SessionFileChange change = SessionFileChange::none;
    if (::stat(QFile::encodeName(path_).constData(), &now) != 0) {
        // Only a missing file counts: a transient error (EACCES on a remounted directory) says nothing.
        change = errno == ENOENT || errno == ENOTDIR ? SessionFileChange::deleted : reported_;
    } else if (now.st_dev != device_ || now.st_ino != inode_) {
        change = SessionFileChange::replaced;
    }
    if (change != reported_) {
        reported_ = change;
        emit fileChanged(change);
    }
}

void SessionReaderWorker::reload() {
    auto* data = new SessionData;
    SessionSnapshot snapshot(data);
    SessionError error = loader_->load(*data);
    if (!error.isError()) {
        // First paint: everything but the restore misses, placements and the region inventory.
        emit snapshotReady(snapshot);
        auto* full = new SessionData(*data);
        SessionSnapshot complete(full);
        error = loader_->loadDetails(*full, parts_ == SessionLoader::Parts::all);
        if (!error.isError()) {
            emit snapshotReady(complete);
        }
        version_ = data->dataVersion;
    }
    if (!error.isError() && !spoolsChecked_ && !follow_) {
        // A followed session is being written by a run that imports its own spools at its end.
        spoolsChecked_ = true;
        QStringList spools;
        for (const std::string& s : rs::ipc::leftover_spools(QFile::encodeName(path_).toStdString())) {
            spools << QFile::decodeName(s.c_str());
        }
        if (!spools.isEmpty()) {
            emit leftoverSpools(spools);
        }
    }
    if (!error.isError() && !checked_ && data->info.complete) {
        checked_ = true;
        error = loader_->quickCheck();
    }
    if (error.isError()) {
        timer_->stop();
        watch_->stop();
        loader_.reset();
        emit failed(error);
        return;
    }
    if (data->info.complete || (!follow_ && data->info.ended)) {
        timer_->stop();
    } else if (!timer_->isActive() || timer_->interval() != poll_ms_) {
        timer_->start(poll_ms_);
    }
}

} // namespace rs::app
