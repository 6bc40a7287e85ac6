// SPDX-License-Identifier: MIT
// The simulator's dispatch log (HSA_SIM_DISPATCH_LOG=FILE, docs/sim-fidelity.md "Dispatch log"): one line
// per completed kernel-dispatch packet, telling on which queue, with which queue settings and when a
// dispatch really ran. Header-only; used by tests/engine and tests/hip (include directory of
// rs_test_session_file).
#pragma once

#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace rs::test {

/// One line of the dispatch log:
/// `dispatch queue=<id> agent=<i> type=<t> cu_mask=<m> priority=<p> kernel=<k> completion=<h> start_ns=<s>
/// end_ns=<e>`.
struct LoggedDispatch {
    quint64 queue = 0;      ///< hsa_queue_t::id the submitter holds (an intercept proxy's for its queue)
    int agent = -1;         ///< 0-based GPU index
    QString type;           ///< "multi", "single" or "cooperative"
    QString cu_mask;        ///< "all" or the words as "0f0f0f0f,00ff00ff,..."
    int priority = -1;      ///< hsa_amd_queue_priority_t: 0 low, 1 normal, 2 high
    QString kernel;         ///< symbol name without ".kd"
    quint64 completion = 0; ///< completion signal handle, 0 for none
    quint64 start_ns = 0;   ///< CLOCK_MONOTONIC ns, the ticks profiling records on the signal
    quint64 end_ns = 0;     ///< CLOCK_MONOTONIC ns
};

/// Every line of the dispatch log at `path` (empty when the file does not exist); a line that does not
/// parse is skipped with a qWarning(), so the assertions on the result fail.
inline QList<LoggedDispatch> read_dispatch_log(const QString& path) {
    QList<LoggedDispatch> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        return out;
    }
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
        const QStringList fields = line.split(' ', Qt::SkipEmptyParts);
        if (fields.isEmpty() || fields[0] != "dispatch") {
            qWarning("dispatch log: unexpected line '%s'", qPrintable(line));
            continue;
        }
        LoggedDispatch d;
        int seen = 0;
        for (const QString& field : fields.mid(1)) {
            const auto eq = field.indexOf('=');
            const QString key = field.left(eq), value = field.mid(eq + 1);
            ++seen;
            if (key == "queue") {
                d.queue = value.toULongLong();
            } else if (key == "agent") {
                d.agent = value.toInt();
            } else if (key == "type") {
                d.type = value;
            } else if (key == "cu_mask") {
                d.cu_mask = value;
            } else if (key == "priority") {
                d.priority = value.toInt();
            } else if (key == "kernel") {
                d.kernel = value;
            } else if (key == "completion") {
                d.completion = value.toULongLong();
            } else if (key == "start_ns") {
                d.start_ns = value.toULongLong();
            } else if (key == "end_ns") {
                d.end_ns = value.toULongLong();
            } else {
                --seen;
            }
        }
        if (seen != 9) {
            qWarning("dispatch log: line with %d of 9 fields: '%s'", seen, qPrintable(line));
            continue;
        }
        out << d;
    }
    return out;
}

/// The lines of `log` whose kernel is `kernel` (symbol name without ".kd"), in file order.
inline QList<LoggedDispatch> dispatches_of(const QList<LoggedDispatch>& log, const QString& kernel) {
    QList<LoggedDispatch> out;
    for (const LoggedDispatch& d : log) {
        if (d.kernel == kernel) {
            out << d;
        }
    }
    return out;
}

} // namespace rs::test
