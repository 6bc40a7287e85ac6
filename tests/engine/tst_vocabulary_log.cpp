// SPDX-License-Identifier: MIT
// The engine speaks the one vocabulary (session/include/replayscope/session/vocabulary.h): its log names
// every enum value as the session file does, its last log line and the session-end record carry the
// count of engine-internal errors, and a session file written by a real run names exactly the listed
// values (docs/replay-failures.md, "Event log format"; docs/session-schema.md).
#include <replayscope/ipc/records.h>

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

namespace {

/// Names of one enum's list.
template <typename E>
QSet<QString> names() {
    QSet<QString> out;
    for (const rs::ipc::EnumName& n : rs::ipc::EnumVocabulary<E>::names) {
        out.insert(QString::fromLatin1(n.name.data(), static_cast<int>(n.name.size())));
    }
    return out;
}

/// Every value of `key=VALUE` on the log lines of `kind` ("replayscope: <kind> ...").
QStringList values(const QString& log, const QString& kind, const QString& key) {
    QStringList out;
    const QRegularExpression line(QStringLiteral("^replayscope: %1 .*\\b%2=([^ \\n]+)").arg(kind, key),
                                  QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(log); it.hasNext();) {
        out << it.next().captured(1);
    }
    return out;
}

} // namespace

class VocabularyLogTest : public QObject {
    Q_OBJECT
  private slots:
    /// The engine loaded directly (no launcher, no collector) with REPLAYSCOPE_LOG=1: every enum value
    /// on its log lines is a name of the list, and the last line reports the internal errors (none).
    void logUsesTheListNames() {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert("HSA_TOOLS_LIB", RS_ENGINE_PATH);
        e.insert("REPLAYSCOPE_LOG", "1");
        e.insert("REPLAYSCOPE_PASSES", "2");
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(RS_WORKLOAD_DIR "/accumulate"), {});
        QVERIFY(p.waitForFinished(120000));
        const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
        const QString log = QString::fromLocal8Bit(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0 && out.contains("PASS"), qPrintable(out + log));

        const QStringList decisions = values(log, "dispatch", "decision");
        QVERIFY2(!decisions.isEmpty(), qPrintable(log));
        QVERIFY(decisions.contains("replayed"));
        const QSet<QString> decision_names = names<rs::ipc::DispatchDecision>();
        for (const QString& d : decisions) {
            QVERIFY2(decision_names.contains(d), qPrintable(d));
        }

        const QStringList classes = values(log, "allocation", "class");
        QVERIFY2(classes.contains("tracked"), qPrintable(log));
        const QSet<QString> class_names = names<rs::ipc::AllocationClass>();
        for (const QString& c : classes) {
            QVERIFY2(class_names.contains(c), qPrintable(c));
        }
        const QSet<QString> api_names = names<rs::ipc::AllocationApi>();
        for (const QString& a : values(log, "allocation", "api")) {
            QVERIFY2(api_names.contains(a), qPrintable(a));
        }
        const QSet<QString> device_names = names<rs::ipc::DeviceType>();
        const QStringList devices = values(log, "agent", "device_type");
        QVERIFY(devices.contains("gpu") && devices.contains("cpu"));
        for (const QString& d : devices) {
            QVERIFY2(device_names.contains(d), qPrintable(d));
        }
        // Snapshots name their store and hash path from the lists; every restore (before pass 1 and after
        // the last pass) has its line.
        const QStringList stores = values(log, "snapshot", "store");
        QVERIFY2(!stores.isEmpty(), qPrintable(log));
        for (const QString& s : stores) {
            QVERIFY2(names<rs::ipc::SnapshotStore>().contains(s), qPrintable(s));
        }
        for (const QString& h : values(log, "snapshot", "hash")) {
            QVERIFY2(names<rs::ipc::ChunkHashPath>().contains(h), qPrintable(h));
        }
        QCOMPARE(values(log, "restore", "pass"), (QStringList{"1", "2"}));
        QCOMPARE(values(log, "restore", "final"), (QStringList{"0", "1"}));
        for (const QString& s : values(log, "snapshot_placement", "store")) {
            QVERIFY2(s == "host" || s == "device", qPrintable(s));
        }
        const QSet<QString> warning_names = names<rs::ipc::WarningCode>();
        for (const QString& w : values(log, "warning", "code")) {
            QVERIFY2(warning_names.contains(w) && w != "general", qPrintable(w));
        }

        const QStringList lines = log.split('\n', Qt::SkipEmptyParts);
        QVERIFY(!lines.isEmpty());
        // accumulate returns 0 from main: the exit status is known when the session ends (on_exit hook).
        QCOMPARE(lines.last(), QStringLiteral("replayscope: session_end internal_errors=0 exit_status=0"));
    }

    /// A run under replayscope-run: the session row holds the session end's internal_errors (0, not
    /// NULL), and the file's enum_names are the lists of vocabulary.h, row for row.
    void sessionFileOfARealRun() {
        QTemporaryDir dir;
        const QString session = dir.filePath("run.rsdb");
        QProcess p;
        p.start(RS_RUNNER_PATH, {"--simulate", "--no-progress", "--passes", "3", "-o", session, "--",
                                 QStringLiteral(RS_WORKLOAD_DIR "/accumulate")});
        QVERIFY(p.waitForFinished(240000));
        rs::test::SessionRun r;
        r.exit_code = p.exitCode();
        r.stdout_text = QString::fromLocal8Bit(p.readAllStandardOutput());
        r.stderr_text = QString::fromLocal8Bit(p.readAllStandardError());
        QVERIFY(r.open(session));
        QVERIFY2(r.exit_code == 0 && r.complete(), qPrintable(r.describe()));
        QCOMPARE(r.rows("SELECT internal_errors FROM session"), QList<QStringList>{{"0"}});
        QVERIFY(r.decisions().contains("accumulate.kd:replayed"));

        QSet<QString> expected;
        for (const rs::ipc::EnumTable& t : rs::ipc::kEnumTables) {
            for (std::size_t i = 0; i < t.count; ++i) {
                expected.insert(
                    QStringLiteral("%1|%2|%3")
                        .arg(QString::fromLatin1(t.table.data(), static_cast<int>(t.table.size())))
                        .arg(t.names[i].code)
                        .arg(QString::fromLatin1(t.names[i].name.data(),
                                                 static_cast<int>(t.names[i].name.size()))));
            }
        }
        QSet<QString> stored;
        for (const QStringList& row : r.rows("SELECT enum, code, name FROM enum_names")) {
            stored.insert(row.join('|'));
        }
        QCOMPARE(stored.size(), expected.size());
        QVERIFY(stored == expected);
        QVERIFY(stored.contains("decision|10|pass-timeout"));
        QVERIFY(stored.contains("warning|14|internal-error"));
        QVERIFY(stored.contains("snapshot_store|2|mixed"));
        QVERIFY(stored.contains("chunk_hash_path|1|device"));
        // Format 4: the snapshot names its store; three passes mean restores before passes 1 and 2 and
        // the final one after pass 2.
        QCOMPARE(r.rows("SELECT count(*) FROM snapshots WHERE store IN ('host', 'device', 'mixed')"),
                 QList<QStringList>{{"1"}});
        QCOMPARE(r.rows("SELECT pass_index, final FROM restores ORDER BY pass_index"),
                 (QList<QStringList>{{"1", "0"}, {"2", "0"}, {"3", "1"}}));
        QVERIFY2(
            r.stderr_text.contains(QRegularExpression("replayscope-run: restores: 3, footprint x restores ")),
            qPrintable(r.stderr_text));
    }
};

QTEST_GUILESS_MAIN(VocabularyLogTest)
#include "tst_vocabulary_log.moc"
