// SPDX-License-Identifier: MIT
/*
 * Fault injection and observation (HSA_SIM_FAIL_D2H_COPY, HSA_SIM_FAIL_H2D_COPY, HSA_SIM_FAIL_ALLOC,
 * HSA_SIM_FAIL_QUEUE_CREATE, HSA_SIM_FAIL_SIGNAL_CREATE, HSA_SIM_REFUSE_SYMBOL_ITERATION,
 * HSA_SIM_KERNEL_TIME_NS, HSA_SIM_DISPATCH_LOG). The variables are read at hsa_init, so each
 * case runs sim_child in a fresh process and checks the statuses and data it reports: exactly the k-th
 * call of the named kind fails (1-based, comma lists), the failed copy copies nothing, other kinds of
 * calls are not counted, and nothing fails without the variable.
 */
#include "child_process.h"

#include <QTemporaryDir>
#include <QTest>

#include <hsa.h>
#include <hsa_ext_amd.h>

using namespace rs_test;

namespace {

const QString ok = QString::number(HSA_STATUS_SUCCESS);
const QString oom = QString::number(HSA_STATUS_ERROR_OUT_OF_RESOURCES);

ChildResult child(const QStringList& args, const QMap<QString, QString>& env = {}) {
    return run_child(QStringLiteral(RS_SIM_CHILD_PATH), args, env);
}

/** "STATUS a,b,c,d" → status. */
QString status_of(const QString& v) {
    return v.section(u' ', 0, 0);
}
QString data_of(const QString& v) {
    return v.section(u' ', 1, 1);
}

} // namespace

class FaultInjectionTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void d2hCopy_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<bool>>("fails"); // d2h1..3
        QTest::newRow("none") << QString() << QList<bool>{false, false, false};
        QTest::newRow("2") << "2" << QList<bool>{false, true, false};
        QTest::newRow("1,3") << "1,3" << QList<bool>{true, false, true};
    }
    void d2hCopy() {
        QFETCH(QString, spec);
        QFETCH(QList<bool>, fails);
        QMap<QString, QString> env;
        if (!spec.isEmpty()) {
            env["HSA_SIM_FAIL_D2H_COPY"] = spec;
        }
        const ChildResult r = child({"d2h"}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(status_of(r.value("h2d")), ok);
        QCOMPARE(status_of(r.value("d2d")), ok);
        const QString expected_data[3] = {"1,2,3,4", "5,6,7,8", "1,2,3,4"};
        const QString untouched = "4294967295,4294967295,4294967295,4294967295";
        for (int i = 0; i < 3; ++i) {
            const QString v = r.value(QStringLiteral("d2h%1").arg(i + 1));
            QVERIFY2(!v.isNull(), qPrintable(r.describe()));
            if (fails[i]) {
                QVERIFY2(status_of(v) != ok, qPrintable(v));
                QCOMPARE(data_of(v), untouched);
            } else {
                QCOMPARE(status_of(v), ok);
                QCOMPARE(data_of(v), expected_data[i]);
            }
        }
    }

    void h2dCopy_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<bool>>("fails"); // h2d1..3
        QTest::addColumn<QString>("variable");
        const QString count = "HSA_SIM_FAIL_H2D_COPY", bytes = "HSA_SIM_FAIL_H2D_COPY_BYTES";
        QTest::newRow("none") << QString() << QList<bool>{false, false, false} << count;
        QTest::newRow("2") << "2" << QList<bool>{false, true, false} << count;
        QTest::newRow("1,3") << "1,3" << QList<bool>{true, false, true} << count;
        QTest::newRow("range 2-3") << "2-3" << QList<bool>{false, true, true} << count;
        // Every copy here is 16 bytes: the first N of that size fail in a row, or all of them.
        QTest::newRow("bytes 16:2") << "16:2" << QList<bool>{true, true, false} << bytes;
        QTest::newRow("bytes 16") << "16" << QList<bool>{true, true, true} << bytes;
        QTest::newRow("bytes 8") << "8" << QList<bool>{false, false, false} << bytes;
    }
    void h2dCopy() {
        QFETCH(QString, spec);
        QFETCH(QList<bool>, fails);
        QFETCH(QString, variable);
        QMap<QString, QString> env;
        if (!spec.isEmpty()) {
            env[variable] = spec;
        }
        const ChildResult r = child({"h2d"}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        const QString values[3] = {"1,2,3,4", "5,6,7,8", "9,10,11,12"};
        QString device = "unset";
        for (int i = 0; i < 3; ++i) {
            const QString copy = r.value(QStringLiteral("h2d%1").arg(i + 1));
            const QString read = r.value(QStringLiteral("read%1").arg(i + 1));
            QVERIFY2(!copy.isNull() && !read.isNull(), qPrintable(r.describe()));
            QCOMPARE(status_of(read), ok); // device-to-host read-backs are never failed
            if (fails[i]) {
                QVERIFY2(status_of(copy) != ok, qPrintable(copy));
            } else {
                QCOMPARE(status_of(copy), ok);
                device = values[i];
            }
            // A failed copy leaves the device memory as it was.
            if (device != "unset") {
                QCOMPARE(data_of(read), device);
            }
        }
        QCOMPARE(status_of(r.value("d2d")), ok);
    }

    void allocation_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<bool>>("fails"); // alloc1..4
        QTest::newRow("none") << QString() << QList<bool>{false, false, false, false};
        QTest::newRow("2") << "2" << QList<bool>{false, true, false, false};
        QTest::newRow("1,4") << "1,4" << QList<bool>{true, false, false, true};
        QTest::newRow("3") << "3" << QList<bool>{false, false, true, false};
    }
    void allocation() {
        QFETCH(QString, spec);
        QFETCH(QList<bool>, fails);
        QMap<QString, QString> env;
        if (!spec.isEmpty()) {
            env["HSA_SIM_FAIL_ALLOC"] = spec;
        }
        const ChildResult r = child({"alloc"}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(r.value("queue"), ok);
        for (int i = 0; i < 4; ++i) {
            const QString v = r.value(QStringLiteral("alloc%1").arg(i + 1));
            QVERIFY2(!v.isNull(), qPrintable(r.describe()));
            if (fails[i]) {
                QCOMPARE(status_of(v), oom);
            } else {
                QCOMPARE(v, ok + " 1");
            }
        }
    }

    void refuseSymbolIteration_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("refused");
        const QString lib = QFileInfo(QStringLiteral(RS_TEST_KERNELS_PATH)).fileName();
        QTest::newRow("file, unset") << "symbols" << QString() << false;
        QTest::newRow("file, own name") << "symbols" << lib << true;
        QTest::newRow("file, star") << "symbols"
                                    << "*" << true;
        QTest::newRow("file, other name") << "symbols"
                                          << "no-such-library" << false;
        QTest::newRow("memory, file name") << "symbols-memory" << lib << false;
        QTest::newRow("memory, memory://") << "symbols-memory"
                                           << "memory://" << true;
        QTest::newRow("memory, star") << "symbols-memory"
                                      << "*" << true;
    }
    void refuseSymbolIteration() {
        QFETCH(QString, mode);
        QFETCH(QString, spec);
        QFETCH(bool, refused);
        QMap<QString, QString> env;
        if (!spec.isNull()) {
            env["HSA_SIM_REFUSE_SYMBOL_ITERATION"] = spec;
        }
        const ChildResult r = child({mode, QStringLiteral(RS_TEST_KERNELS_PATH)}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(r.value("load"), ok);
        const QString iterate = r.value("iterate");
        if (refused) {
            QCOMPARE(status_of(iterate), QString::number(HSA_STATUS_ERROR));
        } else {
            // Two kernels and three variables.
            QCOMPARE(iterate, ok + " 5");
        }
        QCOMPARE(r.value("lookup"), QString("1")); // lookup by name is not affected
    }

    void kernelTime_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<qulonglong>("fill_min");
        QTest::addColumn<qulonglong>("record_min");
        QTest::newRow("unset") << QString() << 0ULL << 0ULL;
        QTest::newRow("fill only") << "rs_fill.kd=80000000" << 80'000'000ULL << 0ULL;
        // The name matches without the descriptor's ".kd" too, as documented (it silently matched nothing).
        QTest::newRow("without .kd") << "rs_fill=80000000" << 80'000'000ULL << 0ULL;
        QTest::newRow("star") << "*=60000000" << 60'000'000ULL << 60'000'000ULL;
        QTest::newRow("list") << "rs_fill.kd=30000000,rs_record.kd=70000000" << 30'000'000ULL
                              << 70'000'000ULL;
    }
    void kernelTime() {
        QFETCH(QString, spec);
        QFETCH(qulonglong, fill_min);
        QFETCH(qulonglong, record_min);
        QMap<QString, QString> env;
        if (!spec.isEmpty()) {
            env["HSA_SIM_KERNEL_TIME_NS"] = spec;
        }
        const ChildResult r = child({"kernel-time", QStringLiteral(RS_TEST_KERNELS_PATH)}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        const QPair<QString, qulonglong> jobs[2] = {{"fill", fill_min}, {"record", record_min}};
        for (const auto& [label, min_ns] : jobs) {
            const QStringList f = r.value(label).split(u' ');
            QVERIFY2(f.size() == 3, qPrintable(r.describe()));
            QCOMPARE(f[0], QString("0")); // completed
            const qulonglong profiled = f[1].toULongLong();
            const qulonglong wall = f[2].toULongLong();
            if (min_ns) {
                QVERIFY2(profiled >= min_ns, qPrintable(label + ": " + r.value(label)));
                QVERIFY2(wall >= min_ns, qPrintable(label + ": " + r.value(label)));
            } else {
                // Unaffected kernels are quick (they do almost nothing).
                QVERIFY2(profiled < 25'000'000, qPrintable(label + ": " + r.value(label)));
            }
        }
    }

    void queueCreate_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<bool>>("fails"); // plain1, intercept, plain2, cooperative
        QTest::newRow("none") << QString() << QList<bool>{false, false, false, false};
        QTest::newRow("2 (intercept)") << "2" << QList<bool>{false, true, false, false};
        QTest::newRow("1,3") << "1,3" << QList<bool>{true, false, true, false};
        QTest::newRow("range 2-4") << "2-4" << QList<bool>{false, true, true, true};
    }
    void queueCreate() {
        QFETCH(QString, spec);
        QFETCH(QList<bool>, fails);
        QMap<QString, QString> env{{"HSA_TOOLS_LIB", RS_TABLE_TOOL}};
        if (!spec.isEmpty()) {
            env["HSA_SIM_FAIL_QUEUE_CREATE"] = spec;
        }
        const ChildResult r = child({"queue-create", RS_TABLE_TOOL}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        // An invalid call is refused for its arguments and not counted.
        QCOMPARE(r.value("invalid"), QString::number(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        const char* labels[4] = {"plain1", "intercept", "plain2", "cooperative"};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(r.value(labels[i]), fails[i] ? oom : ok);
        }
    }

    void signalCreate_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<bool>>("fails");
        QTest::newRow("none") << QString() << QList<bool>{false, false, false};
        QTest::newRow("2 (amd)") << "2" << QList<bool>{false, true, false};
        QTest::newRow("1,3") << "1,3" << QList<bool>{true, false, true};
    }
    void signalCreate() {
        QFETCH(QString, spec);
        QFETCH(QList<bool>, fails);
        QMap<QString, QString> env;
        if (!spec.isEmpty()) {
            env["HSA_SIM_FAIL_SIGNAL_CREATE"] = spec;
        }
        const ChildResult r = child({"signal-create"}, env);
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(r.value(QStringLiteral("signal%1").arg(i + 1)), fails[i] ? oom : ok);
        }
    }

    void dispatchLog() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("dispatch.log");
        const ChildResult r = child({"dispatch-log", RS_TABLE_TOOL, RS_TEST_KERNELS_PATH},
                                    {{"HSA_TOOLS_LIB", RS_TABLE_TOOL}, {"HSA_SIM_DISPATCH_LOG", path}});
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(r.value("set"), QStringList(4, ok).join(u' '));
        // The proxy forwards the mask to its lower queue and reads it back from there.
        QCOMPARE(r.value("proxy-mask"), QString("3,0"));
        const QStringList plain = r.value("plain").split(u' ');
        const QStringList proxy = r.value("proxy").split(u' ');
        QVERIFY2(plain.size() == 3 && proxy.size() == 3, qPrintable(r.describe()));
        QCOMPARE(plain[2], QString("0"));
        QCOMPARE(proxy[2], QString("0"));
        QVERIFY(plain[0] != proxy[0]);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        const QRegularExpression re(
            "^dispatch queue=(\\d+) agent=0 type=multi cu_mask=(\\S+) priority=(\\d) kernel=rs_fill "
            "completion=(\\d+) start_ns=(\\d+) end_ns=(\\d+)$");
        const QRegularExpressionMatch m0 = re.match(lines[0]);
        const QRegularExpressionMatch m1 = re.match(lines[1]);
        QVERIFY2(m0.hasMatch(), qPrintable(lines[0]));
        QVERIFY2(m1.hasMatch(), qPrintable(lines[1]));
        QCOMPARE(m0.captured(1), plain[0]);
        QCOMPARE(m0.captured(2), QString("0000000f,00000000"));
        QCOMPARE(m0.captured(3), QString::number(HSA_AMD_QUEUE_PRIORITY_HIGH));
        QCOMPARE(m0.captured(4), plain[1]);
        QCOMPARE(m1.captured(1), proxy[0]); // the id the application sees, not a hidden lower queue's
        QCOMPARE(m1.captured(2), QString("00000003"));
        QCOMPARE(m1.captured(3), QString::number(HSA_AMD_QUEUE_PRIORITY_LOW));
        QCOMPARE(m1.captured(4), proxy[1]);
        for (const auto& m : {m0, m1}) {
            QVERIFY(m.captured(5).toULongLong() > 0);
            QVERIFY(m.captured(6).toULongLong() >= m.captured(5).toULongLong());
        }
        QVERIFY(m1.captured(5).toULongLong() >= m0.captured(6).toULongLong()); // appended in completion order
    }

    void dispatchLogUnset() {
        const ChildResult r =
            child({"dispatch-log", RS_TABLE_TOOL, RS_TEST_KERNELS_PATH}, {{"HSA_TOOLS_LIB", RS_TABLE_TOOL}});
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(r.value("plain").section(u' ', 2, 2), QString("0"));
    }
};

QTEST_GUILESS_MAIN(FaultInjectionTest)
#include "tst_fault_injection.moc"
