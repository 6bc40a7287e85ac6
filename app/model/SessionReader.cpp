// SPDX-License-Identifier: MIT
#include "model/SessionReader.h"

#include "model/SessionReaderWorker.h"

namespace rs::app {

SessionReader::SessionReader(QObject* parent, int pollMs)
    : QObject(parent), worker_(new SessionReaderWorker(pollMs)) {
    qRegisterMetaType<rs::app::SessionSnapshot>();
    qRegisterMetaType<rs::app::SessionError>();
    qRegisterMetaType<rs::app::SessionFileChange>();
    worker_->moveToThread(&thread_);
    connect(worker_, &SessionReaderWorker::snapshotReady, this, [this](const SessionSnapshot& s) {
        snapshot_ = s;
        emit snapshotReady(s);
    });
    connect(worker_, &SessionReaderWorker::failed, this, [this](const SessionError& e) {
        error_ = e;
        emit failed(e);
    });
    connect(worker_, &SessionReaderWorker::fileChanged, this, [this](SessionFileChange change) {
        fileChange_ = change;
        emit fileChanged(change);
    });
    connect(worker_, &SessionReaderWorker::leftoverSpools, this, &SessionReader::leftoverSpools);
    thread_.setObjectName(QStringLiteral("session-reader"));
    thread_.start();
}

SessionReader::~SessionReader() {
    QMetaObject::invokeMethod(worker_, &SessionReaderWorker::shutdown, Qt::BlockingQueuedConnection);
    thread_.quit();
    thread_.wait();
    delete worker_;
}

void SessionReader::open(const QString& path, bool follow, SessionLoader::Parts parts) {
    path_ = path;
    error_ = {};
    fileChange_ = SessionFileChange::none;
    QMetaObject::invokeMethod(
        worker_, [w = worker_, path, follow, parts] { w->open(path, follow, parts); }, Qt::QueuedConnection);
}

} // namespace rs::app
