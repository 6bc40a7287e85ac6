// SPDX-License-Identifier: MIT
// Dirty-chunk restore of a real HIP program (workloads/hip/partial_write, hipcc for gfx90a, Debian's
// libamdhip64 5.2.3) under `replayscope-run --simulate`: one hipMalloc buffer of which each launch updates
// a given fraction in place. The program checks that every word holds one execution of every launch, and
// prints for each launch the bytes of the chunks it touches; every restore the session records
// (`restores`, docs/session-schema.md) must have moved exactly those bytes (dirty restore) or the whole
// footprint (full restore), over the host link or inside the device as the snapshot's store says.
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "session_file.h"

#include <memory>

namespace {

/// What partial_write printed for one launch.
struct Launch {
    double fraction = 0;
    qint64 written = 0, runs = 0, chunk_runs = 0, chunk_bytes = 0;
};

/// One restore of the session's `restores` table.
struct Restore {
    qint64 pass_index = 0, host = 0, device = 0, dirty = 0, total = 0, missed = 0;
    bool final_restore = false;
};

class DirtyRun : public rs::test::SessionRun {
  public:
    bool finished = false;
    /// "write K fraction F bytes W runs R chunk_runs N chunk_bytes D" lines of the program, in order.
    QList<Launch> launches() const {
        QList<Launch> out;
        const QRegularExpression re(
            R"(^write \d+ fraction (\S+) bytes (\d+) runs (\d+) chunk_runs (\d+) chunk_bytes (\d+)$)",
            QRegularExpression::MultilineOption);
        for (auto it = re.globalMatch(stdout_text); it.hasNext();) {
            const auto m = it.next();
            out << Launch{m.captured(1).toDouble(), m.captured(2).toLongLong(), m.captured(3).toLongLong(),
                          m.captured(4).toLongLong(), m.captured(5).toLongLong()};
        }
        return out;
    }
    /// Ids of the replayed write_part dispatches, in order.
    QList<qint64> replayed() const {
        QList<qint64> out;
        for (const auto& r :
             rows("SELECT d.id FROM dispatches d JOIN strings s ON s.process = d.process AND "
                  "s.id = d.kernel_name_id JOIN enum_names e ON e.enum = 'decision' AND e.code "
                  "= d.decision WHERE s.text LIKE '%write_part%' AND e.name = 'replayed' "
                  "ORDER BY d.process, d.id")) {
            out << r[0].toLongLong();
        }
        return out;
    }
    /// The restores of dispatch `id`, by pass index.
    QList<Restore> restores(qint64 id) const {
        QList<Restore> out;
        for (const auto& r : rows(QStringLiteral("SELECT pass_index, final, restored_bytes_host, "
                                                 "restored_bytes_device, dirty_chunks, total_chunks, "
                                                 "missed_chunks FROM restores WHERE dispatch = %1 ORDER BY "
                                                 "pass_index")
                                      .arg(id))) {
            out << Restore{r[0].toLongLong(), r[2].toLongLong(), r[3].toLongLong(), r[4].toLongLong(),
                           r[5].toLongLong(), r[6].toLongLong(), r[1] == "1"};
        }
        return out;
    }
    /// A column of the snapshot of dispatch `id` as text.
    QString snapshot(qint64 id, const QString& column) const {
        const auto r =
            rows(QStringLiteral("SELECT %1 FROM snapshots WHERE dispatch_id = %2").arg(column).arg(id));
        return r.isEmpty() ? QStringLiteral("<no snapshot>") : r[0][0];
    }
};

/// partial_write under replayscope-run --simulate --standins LIB with `options`, program arguments `args`.
std::unique_ptr<DirtyRun> run(const QStringList& options, const QStringList& args) {
    static QTemporaryDir dir;
    static int counter = 0;
    const QString session = dir.filePath(QStringLiteral("partial_write-%1.rsdb").arg(++counter));
    const QString programs = QStringLiteral(RS_HIP_PROGRAM_DIR);
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove("HSA_SIM_STANDINS"); // only --standins names them
    auto r = std::make_unique<DirtyRun>();
    r->finished = rs::test::run_and_open(*r, RS_RUNNER_PATH,
                                         QStringList{"--simulate", "--no-progress", "--standins",
                                                     programs + "/libpartial_write-standins.so",
                                                     "--kernel-include-regex", "write_part", "-o", session} +
                                             options + QStringList{"--", programs + "/partial_write"} + args,
                                         e, session, 240000);
    return r;
}

#define VERIFY_PASSED(r)                                                                                     \
    do {                                                                                                     \
        QVERIFY2((r)->finished && (r)->exit_code == 0 && (r)->stdout_text.contains("\nPASS"),                \
                 qPrintable((r)->describe()));                                                               \
        QVERIFY2((r)->complete(), qPrintable((r)->describe()));                                              \
    } while (0)

constexpr qint64 kChunk = 65536;

} // namespace

class TestHipDirtyRestore : public QObject {
    Q_OBJECT
  private slots:
    /// Default settings (--restore dirty, --snapshot-store auto, which fits the device store here): every
    /// restore of every launch moves exactly the chunks the kernel touched, inside the device, hashed by
    /// the device kernel; the 16 MiB buffer is one region of 256 chunks (it may start off a chunk
    /// boundary: then 257). At 1%, at most 2% of the footprint plus one chunk per dirty run moved.
    void dirtyRestoreMovesWhatTheKernelWrote_data() {
        QTest::addColumn<QString>("pattern");
        QTest::newRow("slice") << "slice";
        QTest::newRow("scatter") << "scatter";
    }
    void dirtyRestoreMovesWhatTheKernelWrote() {
        QFETCH(QString, pattern);
        const auto r = run({"--passes", "3"}, {"--mib", "16", "--pattern", pattern});
        VERIFY_PASSED(r);
        const auto launches = r->launches();
        const auto ids = r->replayed();
        QCOMPARE(launches.size(), 4);
        QCOMPARE(ids.size(), launches.size());
        for (int l = 0; l < ids.size(); ++l) {
            const Launch& launch = launches[l];
            QCOMPARE(r->snapshot(ids[l], "store"), QString("device"));
            QCOMPARE(r->snapshot(ids[l], "hash_path"), QString("device"));
            const qint64 footprint = r->snapshot(ids[l], "bytes").toLongLong();
            QVERIFY2(footprint >= 16 << 20, qPrintable(QString::number(footprint)));
            const auto restores = r->restores(ids[l]);
            QCOMPARE(restores.size(), 3); // before passes 1 and 2, and after the last
            QVERIFY(restores.back().final_restore);
            for (const Restore& x : restores) {
                const QString what =
                    QStringLiteral("%1 launch %2 (%3), restore before pass %4: host %5 device %6, "
                                   "kernel touched %7 bytes of chunks")
                        .arg(pattern)
                        .arg(l)
                        .arg(launch.fraction)
                        .arg(x.pass_index)
                        .arg(x.host)
                        .arg(x.device)
                        .arg(launch.chunk_bytes);
                QVERIFY2(x.host == 0 && x.device == launch.chunk_bytes, qPrintable(what));
                QVERIFY2(x.total >= 256, qPrintable(what));
                // Each dirty chunk is at most one chunk; together they cover the chunk bytes.
                QVERIFY2(x.dirty * kChunk >= launch.chunk_bytes && x.dirty <= x.total, qPrintable(what));
                QCOMPARE(x.missed, 0);
                if (launch.fraction == 0.01) {
                    QVERIFY2(x.device <= footprint / 50 + kChunk * launch.chunk_runs, qPrintable(what));
                }
            }
        }
    }

    /// A kernel that writes every word back with its own value changes nothing: no chunk is dirty, no byte
    /// moves, yet every chunk was hashed.
    void sameValuesMoveNothing() {
        const auto r = run({}, {"--mib", "16", "--pattern", "same", "--fractions", "1"});
        VERIFY_PASSED(r);
        const auto ids = r->replayed();
        QCOMPARE(ids.size(), 1);
        const auto restores = r->restores(ids[0]);
        QCOMPARE(restores.size(), 2);
        for (const Restore& x : restores) {
            QCOMPARE(x.dirty, 0);
            QCOMPARE(x.host + x.device, 0);
            QVERIFY(x.total >= 256);
        }
    }

    /// --restore full moves the whole footprint every time; --snapshot-store host puts it on the host link.
    void fullRestoreMovesTheFootprint() {
        const auto r =
            run({"--restore", "full", "--snapshot-store", "host"}, {"--mib", "16", "--fractions", "0.01"});
        VERIFY_PASSED(r);
        const auto ids = r->replayed();
        QCOMPARE(ids.size(), 1);
        QCOMPARE(r->snapshot(ids[0], "store"), QString("host"));
        const qint64 footprint = r->snapshot(ids[0], "bytes").toLongLong();
        const auto restores = r->restores(ids[0]);
        QCOMPARE(restores.size(), 2);
        for (const Restore& x : restores) {
            QCOMPARE(x.host, footprint);
            QCOMPARE(x.device, 0);
        }
    }

    /// A dirty restore from the host store moves the touched chunks over the host link; with
    /// --fidelity-check it is verified against the whole snapshot and nothing was missed.
    void dirtyRestoreFromHostStoreVerified() {
        const auto r = run({"--snapshot-store", "host", "--fidelity-check"},
                           {"--mib", "16", "--pattern", "scatter", "--fractions", "0.01,0.001"});
        VERIFY_PASSED(r);
        const auto launches = r->launches();
        const auto ids = r->replayed();
        QCOMPARE(ids.size(), 2);
        for (int l = 0; l < ids.size(); ++l) {
            QCOMPARE(r->snapshot(ids[l], "store"), QString("host"));
            for (const Restore& x : r->restores(ids[l])) {
                QCOMPARE(x.host, launches[l].chunk_bytes);
                QCOMPARE(x.device, 0);
                QCOMPARE(x.missed, 0);
            }
        }
        QCOMPARE(r->value("SELECT count(*) FROM restore_misses"), 0);
    }

    /// --restore-chunk-size 4096: the same exactness at a finer grain (scattered 4 KiB blocks then dirty
    /// one or two chunks each instead of a whole 64 KiB chunk).
    void smallerChunks() {
        const auto r = run({"--restore-chunk-size", "4K"}, {"--mib", "16", "--pattern", "scatter",
                                                            "--fractions", "0.01", "--chunk-size", "4096"});
        VERIFY_PASSED(r);
        const auto launches = r->launches();
        const auto ids = r->replayed();
        QCOMPARE(ids.size(), 1);
        QVERIFY(launches[0].chunk_bytes < 2 * launches[0].written + 2 * 4096 * launches[0].runs);
        for (const Restore& x : r->restores(ids[0])) {
            QCOMPARE(x.host + x.device, launches[0].chunk_bytes);
            QVERIFY(x.total >= 4096);
        }
    }
};

QTEST_GUILESS_MAIN(TestHipDirtyRestore)
#include "tst_hip_dirty_restore.moc"
