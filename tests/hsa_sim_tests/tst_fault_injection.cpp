/*
 * Fault injection (HSA_SIM_FAIL_D2H_COPY, HSA_SIM_FAIL_H2D_COPY, HSA_SIM_FAIL_ALLOC,
 * HSA_SIM_REFUSE_SYMBOL_ITERATION, HSA_SIM_KERNEL_TIME_NS). The variables are read at hsa_init, so each
 * case runs sim_child in a fresh process and checks the statuses and data it reports: exactly the k-th
 * call of the named kind fails (1-based, comma lists), the failed copy copies nothing, other kinds of
 * calls are not counted, and nothing fails without the variable.
 */
#include "child_process.h"

#include <QtTest>

#include <hsa.h>

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
        QTest::newRow("none") << QString() << QList<bool>{false, false, false};
        QTest::newRow("2") << "2" << QList<bool>{false, true, false};
        QTest::newRow("1,3") << "1,3" << QList<bool>{true, false, true};
    }
    void h2dCopy() {
        QFETCH(QString, spec);
        QFETCH(QList<bool>, fails);
        QMap<QString, QString> env;
        if (!spec.isEmpty()) {
            env["HSA_SIM_FAIL_H2D_COPY"] = spec;
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
};

QTEST_GUILESS_MAIN(FaultInjectionTest)
#include "tst_fault_injection.moc"
