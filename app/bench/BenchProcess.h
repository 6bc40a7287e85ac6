// SPDX-License-Identifier: MIT
// What the inspector's benchmarks (inspector_bench, job_bench) measure of their own process, and how they
// let the event loop run until a reader thread's result has arrived.
#pragma once

#include <QApplication>
#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>

namespace rs::app::bench {

/// The process's resident memory (VmRSS of /proc/self/status), MiB; -1 when it cannot be read.
inline double residentMiB() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
        }
    }
    return -1;
}

/// Runs the event loop until `done()` holds or `timeoutMs` have passed; whether `done()` holds.
template <typename Done>
bool waitFor(Done done, int timeoutMs = 600000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) {
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    }
    return done();
}

} // namespace rs::app::bench
