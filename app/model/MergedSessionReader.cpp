// SPDX-License-Identifier: MIT
#include "model/MergedSessionReader.h"

namespace rs::app {

MergedSessionReader::MergedSessionReader(QObject* parent) : QObject(parent), worker_(new QObject) {
    thread_.setObjectName(QStringLiteral("MergedSessionReader"));
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
}

MergedSessionReader::~MergedSessionReader() {
    thread_.quit();
    thread_.wait();
}

void MergedSessionReader::load(const QStringList& paths) {
    ++pending_;
    // `this` outlives the worker's lambda: the destructor waits for the thread. The result goes back as
    // an event to `this`, which Qt drops when `this` is deleted before it is delivered.
    QMetaObject::invokeMethod(
        worker_,
        [this, paths] {
            SessionError error;
            const MergedSession merged = MergedSession::load(paths, error);
            QMetaObject::invokeMethod(
                this,
                [this, merged, error] {
                    --pending_;
                    if (error.isError()) {
                        emit failed(error);
                    } else {
                        emit loaded(merged);
                    }
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace rs::app
