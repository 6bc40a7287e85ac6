// SPDX-License-Identifier: MIT
// The failure contract (docs/replay-failures.md#failed-restore, #a-pass-that-fails) with a real HIP
// program, workloads/hip/hip_failure_contract.hip, on the simulated runtime's interpreter, plainly and
// under `replayscope-run --simulate --executor isa`. The simulator's fault injections make the engine's
// restores fail (HSA_SIM_FAIL_H2D_COPY_BYTES, HSA_SIM_FAIL_ASYNC_COPY_BYTES: the counters are the only
// 12288-byte region, and neither the program nor HIP copies 12288 bytes at once) or a kernel fail its queue
// (HSA_SIM_FAIL_KERNEL, every dispatch of it: the application's own as well as the engine's passes). Each
// test checks what the program itself computed or how it ended, and the rows of the session file.
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

#include <memory>

namespace {

constexpr const char* kProgram = "hip_failure_contract";

/// The environment of a run: the test's (the simulator first on LD_LIBRARY_PATH), the interpreter as the
/// executor, no stand-ins, plus `env` (NAME=VALUE).
QProcessEnvironment environment(const QStringList& env) {
    QProcessEnvironment e = rs::test::environment_with(env);
    e.remove("HSA_SIM_STANDINS");
    e.insert("HSA_SIM_EXECUTOR", "isa");
    return e;
}

/// Runs the program under replayscope-run --simulate --executor isa with `options` and `env`, its mode
/// `mode`, and opens the session.
std::unique_ptr<rs::test::SessionRun> replayed(const QString& mode, const QStringList& options,
                                               const QStringList& env) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("failure-%1.rsdb").arg(++counter));
    auto r = std::make_unique<rs::test::SessionRun>();
    rs::test::run_and_open(
        *r, RS_RUNNER_PATH,
        QStringList{"--simulate", "--no-progress", "--executor", "isa", "-o", session} + options +
            QStringList{"--", QStringLiteral(RS_HIP_PROGRAM_DIR "/%1").arg(kProgram), mode},
        environment(env), session, 300000);
    return r;
}

/// A plain run (no engine): exit status (128 + signal when killed by one, as replayscope-run reports it)
/// and both outputs.
struct PlainRun {
    int status = -1;
    QString stdout_text, stderr_text;
};
PlainRun plain(const QString& mode, const QStringList& env) {
    QProcess p;
    p.setProcessEnvironment(environment(env));
    p.start(QStringLiteral(RS_HIP_PROGRAM_DIR "/%1").arg(kProgram), {mode});
    PlainRun r;
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    // QProcess does not say which signal: a crash here is the abort of HIP's queue error callback.
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 128 + 6;
    r.stdout_text = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.stderr_text = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

/// The program's printed address of its counters (as the session stores addresses), 0 when absent.
qint64 counters_address(const QString& out) {
    const auto m =
        QRegularExpression("^alloc counters (-?\\d+) ", QRegularExpression::MultilineOption).match(out);
    return m.hasMatch() ? m.captured(1).toLongLong() : 0;
}

QStringList program_decisions(const rs::test::SessionRun& r) {
    QStringList out;
    for (const QString& d : r.decisions(rs::test::KernelNames::without_kd_suffix)) {
        if (!d.startsWith("__amd_rocclr_")) {
            out << d;
        }
    }
    return out;
}

} // namespace

class TestHipFailureContract : public QObject {
    Q_OBJECT
  private slots:
    /// Every hsa_memory_copy of the counters' restores fails (HSA_SIM_FAIL_H2D_COPY_BYTES=12288, the host
    /// store): each one is written by the other path, hsa_amd_memory_async_copy, so every pass and the
    /// program's own launch start from the counters' inputs. The program sees each of its 20 in-place
    /// increments once (counter 20; it read 40 when a failed restore let its launch run over pass 0's
    /// output), every launch is replayed with its 2 passes, and the session names the region in one
    /// restore-recovered warning per restore (before pass 1 and before the launch's own execution).
    void inPlaceCounterRestoredByTheOtherPath() {
        const auto r = replayed("counter", {"--passes", "2", "--snapshot-store", "host"},
                                {"HSA_SIM_FAIL_H2D_COPY_BYTES=12288"});
        QVERIFY2(r->exit_code == 0 && r->stdout_text.contains("counter 20\n"), qPrintable(r->describe()));
        QVERIFY2(r->complete(), qPrintable(r->describe()));
        QCOMPARE(program_decisions(*r), QStringList(20, "_Z9incrementPii:replayed"));
        QCOMPARE(r->passes(), 40);
        QCOMPARE(r->value("SELECT count(*) FROM restore_failures"), 0);
        const QStringList recovered = r->warnings("restore-recovered");
        QCOMPARE(recovered.size(), 40);
        const qint64 address = counters_address(r->stdout_text);
        QVERIFY(address != 0);
        const QString named = QStringLiteral("0x%1 (12288 bytes, allocation ").arg(address, 0, 16);
        for (const QString& w : recovered) {
            QVERIFY2(w.contains(named) && w.contains("hsa_amd_memory_async_copy wrote them"), qPrintable(w));
        }
        QCOMPARE(r->warnings("restore-failed"), QStringList{});
    }

    /// The other path fails too (HSA_SIM_FAIL_ASYNC_COPY_BYTES=12288): the counters cannot be restored
    /// after pass 0. Each dispatch is declined restore-failed with one restore_failures row (before pass 1,
    /// holding pass 0's output, 4 attempts: 3 hsa_memory_copy, 1 asynchronous copy) naming the region,
    /// and the application is told once on stderr. Its own launch then runs over pass 0's output: the
    /// program reports two executions per launch (counter 40), exactly what the rows say.
    void inPlaceCounterThatCannotBeRestoredIsToldAndRecorded() {
        const auto r = replayed("counter", {"--passes", "2", "--snapshot-store", "host"},
                                {"HSA_SIM_FAIL_H2D_COPY_BYTES=12288", "HSA_SIM_FAIL_ASYNC_COPY_BYTES=12288"});
        QVERIFY2(r->exit_code == 1 && r->stdout_text.contains("counter 40\n"), qPrintable(r->describe()));
        QVERIFY2(r->complete(), qPrintable(r->describe()));
        QCOMPARE(program_decisions(*r), QStringList(20, "_Z9incrementPii:restore-failed"));
        QCOMPARE(r->passes(), 20);
        const QString address = QString::number(counters_address(r->stdout_text));
        QCOMPARE(
            r->rows(
                "SELECT DISTINCT address, size, pass_idx, holds_pass_idx, attempts FROM restore_failures"),
            (QList<QStringList>{{address, "12288", "1", "0", "4"}}));
        QCOMPARE(r->value("SELECT count(*) FROM restore_failures"), 20);
        QCOMPARE(r->warnings("restore-failed").size(), 20);
        QCOMPARE(r->stderr_text.count("replayscope: dispatch "), 1);
        QVERIFY2(r->stderr_text.contains("could not be restored after pass 0"), qPrintable(r->stderr_text));
    }

    /// The kernel faulting_kernel fails its queue wherever it runs (HSA_SIM_FAIL_KERNEL). Plainly, HIP's
    /// queue error callback aborts the program. Under the engine, pass 0 fails on the engine's private
    /// queue: its error callback catches it (before, the queue had none and the runtime aborted the
    /// process there, with no decision recorded for the dispatch), the dispatch is declined pass-failed
    /// with the runtime's status, and the program's own launch then fails on its own queue: HIP aborts,
    /// as plainly, with the same message and status. The session holds every decision made before the
    /// abort: HIP's fill and the replayed increment, then the failed dispatch.
    void failingPassEndsAsPlain() {
        const QStringList env{"HSA_SIM_FAIL_KERNEL=faulting_kernel"};
        const PlainRun p = plain("fault", env);
        const auto r = replayed("fault", {"--passes", "2"}, env);
        static const QRegularExpression hip_abort("callbackQueue aborting[^\n]*");
        const auto plain_abort = hip_abort.match(p.stderr_text);
        QVERIFY2(p.status == 134 && plain_abort.hasMatch(), qPrintable(p.stderr_text));
        QVERIFY2(r->exit_code == p.status, qPrintable(r->describe()));
        QVERIFY2(r->stderr_text.contains(plain_abort.captured(0)), qPrintable(r->describe()));
        QVERIFY2(!r->stderr_text.contains("with no error callback"), qPrintable(r->describe()));
        QVERIFY(r->stdout_text.contains("fault: launching faulting_kernel\n"));
        QCOMPARE(program_decisions(*r),
                 (QStringList{"_Z9incrementPii:replayed", "_Z15faulting_kernelPii:pass-failed"}));
        QVERIFY(r->decisions(rs::test::KernelNames::without_kd_suffix)
                    .contains("__amd_rocclr_fillBufferAligned:runtime-kernel"));
        const QStringList failed = r->warnings("pass-failed");
        QCOMPARE(failed.size(), 1);
        QVERIFY2(
            failed[0].contains("pass 0 failed on the engine's private queue (HSA_STATUS_ERROR_EXCEPTION"),
            qPrintable(failed[0]));
        QCOMPARE(
            r->value("SELECT count(*) FROM passes p JOIN dispatches d ON d.id = p.dispatch_id AND d.process "
                     "= p.process JOIN strings s ON s.process = d.process AND s.id = d.kernel_name_id WHERE "
                     "s.text LIKE '%faulting%'"),
            0);
    }
};

QTEST_GUILESS_MAIN(TestHipFailureContract)
#include "tst_hip_failure_contract.moc"
