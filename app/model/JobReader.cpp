// SPDX-License-Identifier: MIT
#include "model/JobReader.h"

namespace rs::app {

JobReader::JobReader(QObject* parent) : QObject(parent), worker_(new QObject) {
    thread_.setObjectName(QStringLiteral("JobReader"));
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
}

JobReader::~JobReader() {
    thread_.quit();
    thread_.wait();
}

// `this` outlives the worker's lambdas: the destructor waits for the thread. Each result goes back as an
// event to `this`, which Qt drops when `this` is deleted before it is delivered.

void JobReader::loadSummary(const QStringList& paths) {
    ++pending_;
    QMetaObject::invokeMethod(
        worker_,
        [this, paths] {
            SessionError error;
            const JobSummary job = JobSummary::load(paths, error);
            QMetaObject::invokeMethod(
                this,
                [this, job, error] {
                    --pending_;
                    if (error.isError()) {
                        emit failed(error);
                    } else {
                        emit summaryLoaded(job);
                    }
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

int JobReader::loadRows(const QStringList& paths) {
    ++pending_;
    const int request = ++requests_;
    QMetaObject::invokeMethod(
        worker_,
        [this, paths, request] {
            SessionError error;
            const MergedSession rows = MergedSession::load(paths, error);
            QMetaObject::invokeMethod(
                this,
                [this, rows, error, request] {
                    --pending_;
                    if (error.isError()) {
                        emit failed(error);
                    } else {
                        emit rowsLoaded(rows, request);
                    }
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return request;
}

} // namespace rs::app
