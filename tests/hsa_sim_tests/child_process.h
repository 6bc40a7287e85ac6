// SPDX-License-Identifier: MIT
/*
 * Runs the sim_child helper (or any program) in a fresh process with a controlled environment: the
 * simulator's variables inherited from the test's own environment are removed first, then `env` is added.
 */
#ifndef RS_CHILD_PROCESS_H
#define RS_CHILD_PROCESS_H

#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace rs_test {

struct ChildResult {
    bool started = false;
    bool finished = false;
    QProcess::ExitStatus status = QProcess::NormalExit;
    int exit_code = -1;
    QString out;
    QString err;

    /** The rest of the first stdout line that starts with "key ", or a null string. */
    QString value(const QString& key) const {
        for (const QString& line : out.split(u'\n')) {
            if (line.startsWith(key + u' ')) {
                return line.mid(key.size() + 1);
            }
        }
        return {};
    }
    QString describe() const {
        return QStringLiteral("status=%1 exit=%2\nstdout:\n%3\nstderr:\n%4")
            .arg(status == QProcess::NormalExit ? "normal" : "crash")
            .arg(exit_code)
            .arg(out, err);
    }
};

inline ChildResult run_child(const QString& program, const QStringList& args,
                             const QMap<QString, QString>& env, int timeout_ms = 20000) {
    QProcessEnvironment pe = QProcessEnvironment::systemEnvironment();
    for (const QString& key : pe.keys()) {
        if (key.startsWith("HSA_SIM_") || key.startsWith("HSA_TOOLS") || key == "RS_PROBE_LOG") {
            pe.remove(key);
        }
    }
    for (auto it = env.begin(); it != env.end(); ++it) {
        pe.insert(it.key(), it.value());
    }
    QProcess p;
    p.setProcessEnvironment(pe);
    p.start(program, args);
    ChildResult r;
    r.started = p.waitForStarted(5000);
    r.finished = r.started && p.waitForFinished(timeout_ms);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(2000);
    }
    r.status = p.exitStatus();
    r.exit_code = p.exitCode();
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

} // namespace rs_test

#endif // RS_CHILD_PROCESS_H
