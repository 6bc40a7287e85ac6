// SPDX-License-Identifier: MIT
// The fidelity verification of a dirty restore and the store warnings, under `replayscope-run --simulate`
// with workloads/dirty_restore (kernels whose changed bytes are known): a stale chunk hash (a stand-in of
// the chunk-hash kernel listed first in --standins that answers the probe right and every later hash with
// 1) makes every dirty restore miss the chunks the kernel changed, so the verification must find exactly
// those chunks, name them, count them (missed_chunks; their bytes in the restored bytes and their regions
// in regions_restored, not in dirty_chunks: docs/session-schema.md, `restores`) and copy them back so the
// program still sees its results right, also in a region larger than the verification's 8 MiB slice; a
// verification read that fails is reported as not verified; --snapshot-store device without room in the
// device store names the bytes that went to the host store and the reserve.
// HSA headers first: they name parameters `signals`, which Qt defines as a keyword macro.
#include <hsa.h>

#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include "replay_run.h"
#include "session_file.h"

#include <cstdint>
#include <memory>

namespace {

using Region = rs::test::PrintedRegion;

using Run = rs::test::RegionRun;

/// Runs workloads/dirty_restore with program arguments `args` under replayscope-run --simulate with
/// `options` and extra environment `env`.
std::unique_ptr<Run> run(const QStringList& args, const QStringList& options, const QStringList& env = {}) {
    return rs::test::run_printing_regions<Run>("verify", RS_RUNNER_PATH, RS_WORKLOAD_DIR "/dirty_restore",
                                               args, options, env);
}

constexpr quint64 kChunk = 65536;

/// The device-to-host copy of the failed-read case that is the verification's read of the live buffer's
/// first slice before pass 1, counted on the simulator from the program's start: the first is the
/// fidelity check's read of pass 0's output, the second that slice.
constexpr int kFailingD2H = 2;

quint64 chunk_count(const Region& r) {
    return (r.address + r.size - 1) / kChunk - r.address / kChunk + 1;
}

/// The clipped chunk of `r` holding byte `offset`: first address, length.
QPair<quint64, quint64> chunk_of(const Region& r, quint64 offset) {
    const quint64 byte = r.address + offset;
    const quint64 first = qMax(r.address, byte / kChunk * kChunk);
    return {first, qMin(r.address + r.size, (byte / kChunk + 1) * kChunk) - first};
}

/// "0:0,1:70000" → (buffer, offset) pairs.
QList<QPair<int, quint64>> parse_pokes(const QString& pokes) {
    QList<QPair<int, quint64>> out;
    for (const QString& p : pokes.split(',')) {
        out << qMakePair(p.section(':', 0, 0).toInt(), p.section(':', 1, 1).toULongLong());
    }
    return out;
}

} // namespace

class TestRestoreVerification : public QObject {
    Q_OBJECT
  private slots:
    /// A stale chunk hash: no restore finds a dirty chunk, the verification finds each chunk the kernel
    /// changed (restore_misses rows, missed_chunks, the warning names them) and copies it back, so the
    /// program passes. Counting: dirty_chunks 0, missed_chunks the touched chunks, the restored bytes their
    /// clipped sizes (device store: inside the device) and regions_restored the touched buffers. For small
    /// unaligned buffers and for a 20 MiB buffer changed in its first and its third 8 MiB slice.
    void staleHashMissesAreFoundAndCopiedBack_data() {
        QTest::addColumn<QString>("sizes");
        QTest::addColumn<QString>("pokes");
        QTest::newRow("unaligned buffers") << "100000,196731,5000"
                                           << "0:0,0:99999,1:70000,1:196730";
        QTest::newRow("20 MiB buffer, two slices") << "20971520,5000"
                                                   << "0:0,0:20000000";
    }
    void staleHashMissesAreFoundAndCopiedBack() {
        QFETCH(QString, sizes);
        QFETCH(QString, pokes);
        const int passes = 3;
        const auto r = run({"pokes", sizes, pokes}, {"--standins", RS_STALE_HASH_STANDINS, "--fidelity-check",
                                                     "--passes", QString::number(passes)});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->decisions().size(), 1);
        QSet<quint64> starts;
        QSet<int> buffers;
        quint64 bytes = 0;
        QList<QPair<quint64, quint64>> chunks;
        for (const auto& [buffer, offset] : parse_pokes(pokes)) {
            const auto c = chunk_of(r->regions[buffer], offset);
            buffers.insert(buffer);
            if (starts.contains(c.first)) {
                continue;
            }
            starts.insert(c.first);
            bytes += c.second;
            chunks << c;
        }
        std::sort(chunks.begin(), chunks.end());
        quint64 total = 0;
        for (const auto& region : r->regions) {
            total += chunk_count(region);
        }
        QCOMPARE(r->rows("SELECT store FROM snapshots"), (QList<QStringList>{{"device"}}));
        // Every restore (before passes 1, 2 and the final one): nothing found dirty, every touched chunk
        // missed and copied back by the verification.
        QList<QStringList> expected;
        for (int i = 1; i <= passes; ++i) {
            expected << QStringList{QString::number(i),
                                    "0",
                                    QString::number(bytes),
                                    QString::number(buffers.size()),
                                    "0",
                                    QString::number(total),
                                    QString::number(chunks.size())};
        }
        QCOMPARE(r->rows("SELECT pass_index, restored_bytes_host, restored_bytes_device, regions_restored, "
                         "dirty_chunks, total_chunks, missed_chunks FROM restores ORDER BY pass_index"),
                 expected);
        // restore_misses: the touched chunks, for every restore.
        QList<QStringList> misses;
        for (int i = 1; i <= passes; ++i) {
            for (const auto& [first, length] : chunks) {
                misses << QStringList{QString::number(i), QString::number(qint64(first)),
                                      QString::number(length)};
            }
        }
        QCOMPARE(r->rows("SELECT pass_index, address, size FROM restore_misses ORDER BY pass_index, address"),
                 misses);
        // One warning per restore, naming every missed chunk by address and size.
        const QStringList warnings = r->warnings("restore-missed-chunk");
        QCOMPARE(warnings.size(), passes);
        for (const QString& text : warnings) {
            QVERIFY2(text.contains(QStringLiteral(" left %1 chunk(s)").arg(chunks.size())), qPrintable(text));
            for (const auto& [first, length] : chunks) {
                QVERIFY2(text.contains(QStringLiteral("(0x%1, %2 bytes)").arg(first, 0, 16).arg(length)),
                         qPrintable(text));
            }
        }
        QCOMPARE(r->warnings("restore-not-verified"), QStringList{});
        // The copied-back chunks count in the passes view too.
        QCOMPARE(r->value("SELECT sum(missed_chunks) FROM passes WHERE idx > 0"),
                 int((passes - 1) * chunks.size()));
    }

    /// A verification read that fails (the k-th device-to-host copy of the run, HSA_SIM_FAIL_D2H_COPY):
    /// the chunks of that slice are not verified, and one restore-not-verified warning says how many and
    /// names the region; the restore itself was complete and the program passes.
    void failedVerificationReadIsReported() {
        const auto r = run({"chunk-starts", "65536", "20971520"}, {"--fidelity-check", "--passes", "2"},
                           {QStringLiteral("HSA_SIM_FAIL_D2H_COPY=%1").arg(kFailingD2H)});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        const QStringList warnings = r->warnings("restore-not-verified");
        QCOMPARE(warnings.size(), 1);
        // One 8 MiB slice of 64 KiB chunks (the 20 MiB buffer is page-aligned, not chunk-aligned, so its
        // first slice holds the short first chunk and 127 whole ones, or 128 whole ones).
        const QRegularExpression count(R"(could not read back (\d+) chunk\(s\) of 0x([0-9a-f]+):)");
        const auto m = count.match(warnings[0]);
        QVERIFY2(m.hasMatch(), qPrintable(warnings[0]));
        QVERIFY2(m.captured(1).toInt() >= 127 && m.captured(1).toInt() <= 128, qPrintable(warnings[0]));
        QCOMPARE(m.captured(2).toULongLong(nullptr, 16), r->regions[0].address);
        QCOMPARE(r->value("SELECT sum(missed_chunks) FROM restores"), 0);
    }

    /// --snapshot-store device with a reserve as large as the device memory: the snapshot goes to the host
    /// store, and one device-store-short warning names the host-placed bytes and the reserve.
    void deviceStoreShortIsReported() {
        const auto r = run({"chunk-starts", "65536", "1060921,70001"},
                           {"--snapshot-store", "device", "--device-store-reserve", "16G"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->rows("SELECT store, host_bytes, device_bytes FROM snapshots"),
                 (QList<QStringList>{{"host", "1130922", "0"}}));
        const QStringList warnings = r->warnings("device-store-short");
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(
            warnings[0].contains("1130922 of 1130922 snapshot bytes (2 of 2 regions) went to the host store"),
            qPrintable(warnings[0]));
        QVERIFY2(warnings[0].contains("reserve of 17179869184 bytes"), qPrintable(warnings[0]));
        // Mode auto with the same reserve: the host store is the expected place, no warning.
        const auto quiet = run({"chunk-starts", "65536", "1060921,70001"}, {"--device-store-reserve", "16G"});
        RS_VERIFY_RUN_PRINTED_REGIONS(quiet);
        QCOMPARE(quiet->rows("SELECT store FROM snapshots"), (QList<QStringList>{{"host"}}));
        QCOMPARE(quiet->warnings("device-store-short"), QStringList{});
    }
};

QTEST_GUILESS_MAIN(TestRestoreVerification)
#include "tst_restore_verification.moc"
