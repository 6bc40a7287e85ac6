// SPDX-License-Identifier: MIT
// Dirty-chunk restore is correct and moves exactly the dirty bytes (docs/mechanism.md, "Restore"),
// shown with raw HSA workloads under `replayscope-run --simulate`: workloads/dirty_restore (kernels
// whose changed bytes are known exactly) and workloads/free_during_kernel. Every case checks the
// program's own results (each changed byte changed once, everything else untouched) and the session's
// byte counts, derived here from the regions' addresses and sizes the program prints and the chunk
// rule (chunks are chunk-size-aligned pieces of the device address space clipped to the region):
// a kernel writing one byte per chunk (every chunk dirty: the whole footprint restored), a kernel
// writing back the same values (nothing restored), regions of odd sizes and offsets (the dirty chunks'
// clipped sizes), a module variable, a region freed during the replay (skipped, never written), the
// host store when the device reserve is exhausted, a mixed snapshot, the device store by default, the
// application's allocation after a window while the device store held memory, and the fidelity check.
// HSA headers first: they name parameters `signals`, which Qt defines as a keyword macro.
#include <hsa.h>

#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include "replay_run.h"
#include "session_file.h"

#include <cstdint>
#include <memory>

namespace {

using Region = rs::test::PrintedRegion;

/// Chunks of [address, address + size) for chunk size `c`.
quint64 chunk_count(quint64 address, quint64 size, quint64 c) {
    return (address + size - 1) / c - address / c + 1;
}

/// The clipped chunk of region `r` holding byte `offset`: its first address and its length.
QPair<quint64, quint64> chunk_of(const Region& r, quint64 offset, quint64 c) {
    const quint64 byte = r.address + offset;
    const quint64 first = qMax(r.address, byte / c * c);
    const quint64 end = qMin(r.address + r.size, (byte / c + 1) * c);
    return {first, end - first};
}

/// A finished run and the regions it printed.
class DirtyRun : public rs::test::RegionRun {
  public:
    quint64 footprint() const {
        quint64 sum = 0;
        for (const auto& r : regions) {
            sum += r.size;
        }
        return sum;
    }
    quint64 total_chunks(quint64 c) const {
        quint64 sum = 0;
        for (const auto& r : regions) {
            sum += chunk_count(r.address, r.size, c);
        }
        return sum;
    }
    /// Every restore of the (only) dispatch in pass order, final restore last: pass_index, final,
    /// restored_bytes_host, restored_bytes_device, regions_restored, dirty_chunks, total_chunks,
    /// missed_chunks.
    QList<QStringList> restores() const {
        return rows("SELECT pass_index, final, restored_bytes_host, restored_bytes_device, regions_restored, "
                    "dirty_chunks, total_chunks, missed_chunks FROM restores ORDER BY process, dispatch, "
                    "final, pass_index");
    }
    /// The `passes` view's restore columns for passes after the first, in order: idx,
    /// restored_bytes_host, restored_bytes_device, dirty_chunks, total_chunks, missed_chunks.
    QList<QStringList> later_passes() const {
        return rows("SELECT idx, restored_bytes_host, restored_bytes_device, dirty_chunks, total_chunks, "
                    "missed_chunks FROM passes WHERE idx > 0 ORDER BY process, dispatch_id, idx");
    }
    /// The snapshot row: store, host_bytes, device_bytes, total_chunks.
    QStringList snapshot() const {
        return rows("SELECT store, host_bytes, device_bytes, total_chunks FROM snapshots").value(0);
    }
};

QString workload(const char* name) {
    return QStringLiteral(RS_WORKLOAD_DIR "/") + name;
}

/// Runs workload `name` with program arguments `args` under replayscope-run --simulate with `options` and
/// extra environment `env` (NAME=VALUE); collects the regions it prints.
std::unique_ptr<DirtyRun> run(const char* name, const QStringList& args, const QStringList& options = {},
                              const QStringList& env = {}) {
    return rs::test::run_printing_regions<DirtyRun>(name, RS_RUNNER_PATH, workload(name), args, options, env);
}

/// Every restore (passes - 1 before a pass, one final) moved `host` bytes over the host link and `device`
/// bytes inside the device, restored `regions` regions and found `dirty` of `total` chunks dirty, none
/// missed; the passes view shows the same for every pass after the first.
#define VERIFY_RESTORES(r, passes, host, device, regions, dirty, total)                                      \
    do {                                                                                                     \
        QList<QStringList> expected_restores;                                                                \
        QList<QStringList> expected_passes;                                                                  \
        for (int i = 1; i <= (passes); ++i) {                                                                \
            const bool final_restore = i == (passes);                                                        \
            expected_restores << QStringList{QString::number(i),       final_restore ? "1" : "0",            \
                                             QString::number(host),    QString::number(device),              \
                                             QString::number(regions), QString::number(dirty),               \
                                             QString::number(total),   "0"};                                 \
            if (!final_restore)                                                                              \
                expected_passes << QStringList{QString::number(i),      QString::number(host),               \
                                               QString::number(device), QString::number(dirty),              \
                                               QString::number(total),  "0"};                                \
        }                                                                                                    \
        QCOMPARE((r)->restores(), expected_restores);                                                        \
        QCOMPARE((r)->later_passes(), expected_passes);                                                      \
    } while (0)

} // namespace

class TestDirtyRestore : public QObject {
    Q_OBJECT
  private slots:
    /// A kernel that changes one byte in every chunk: every chunk is dirty, so every restore moves the
    /// whole footprint (D2D from the device store, nothing over the host link), and the program sees each
    /// changed byte changed once. For 64 KiB (the default), 16 KiB and 4 KiB chunks, one and two buffers.
    void everyChunkDirty_data() {
        QTest::addColumn<quint64>("chunk");
        QTest::addColumn<QString>("sizes");
        QTest::addColumn<int>("passes");
        QTest::newRow("64 KiB, one buffer") << quint64{65536} << "1060921" << 2;
        QTest::newRow("64 KiB, two buffers, 3 passes") << quint64{65536} << "1060921,70001" << 3;
        QTest::newRow("16 KiB, two buffers") << quint64{16384} << "262144,12345" << 2;
        QTest::newRow("4 KiB, one buffer") << quint64{4096} << "100000" << 2;
    }
    void everyChunkDirty() {
        QFETCH(quint64, chunk);
        QFETCH(QString, sizes);
        QFETCH(int, passes);
        QStringList options{"--passes", QString::number(passes)};
        if (chunk != 65536) {
            options << "--restore-chunk-size" << QString::number(chunk);
        }
        const auto r = run("dirty_restore", {"chunk-starts", QString::number(chunk), sizes}, options);
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->regions.size(), int(sizes.count(',') + 1));
        QCOMPARE(r->decisions(), QStringList{"bump_chunk_starts.kd:replayed"});
        QCOMPARE(r->passes(), passes);
        const quint64 total = r->total_chunks(chunk);
        QCOMPARE(r->snapshot(),
                 (QStringList{"device", "0", QString::number(r->footprint()), QString::number(total)}));
        VERIFY_RESTORES(r, passes, 0, r->footprint(), r->regions.size(), total, total);
    }

    /// A kernel that writes every byte back unchanged: no chunk is dirty, no restore moves a byte, and the
    /// buffers are as they were.
    void sameValuesNothingDirty() {
        const auto r = run("dirty_restore", {"same-values", "1060921,5000"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->decisions(), QStringList{"rewrite_same.kd:replayed"});
        const quint64 total = r->total_chunks(65536);
        QCOMPARE(r->snapshot(),
                 (QStringList{"device", "0", QString::number(r->footprint()), QString::number(total)}));
        VERIFY_RESTORES(r, 2, 0, 0, 0, 0, total);
    }

    /// The same two workloads with --restore full: every restore copies the whole footprint, whether
    /// anything changed or not, and the results are still right.
    void fullRestoreMovesTheFootprint_data() {
        QTest::addColumn<QString>("mode");
        QTest::newRow("one byte per chunk") << "chunk-starts";
        QTest::newRow("same values") << "same-values";
    }
    void fullRestoreMovesTheFootprint() {
        QFETCH(QString, mode);
        const QStringList args = mode == "chunk-starts" ? QStringList{mode, "65536", "1060921,5000"}
                                                        : QStringList{mode, "1060921,5000"};
        const auto r = run("dirty_restore", args, {"--restore", "full"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->passes(), 2);
        const auto restores = r->restores();
        QCOMPARE(restores.size(), 2);
        for (const auto& row : restores) {
            QCOMPARE(row[2].toULongLong() + row[3].toULongLong(), r->footprint());
            QCOMPARE(row[4], QStringLiteral("2"));
            QCOMPARE(row[7], QStringLiteral("0"));
        }
    }

    /// Regions that do not start or end on a chunk boundary (odd sizes; page-aligned starts, so not
    /// aligned to 16 or 64 KiB chunks): the kernel changes the first and the last byte of one buffer, two
    /// bytes of another and nothing of a third. Each restore moves exactly the clipped sizes of the chunks
    /// holding those bytes, and the untouched buffer keeps its contents.
    void unalignedRegions_data() {
        QTest::addColumn<quint64>("chunk");
        QTest::newRow("64 KiB") << quint64{65536};
        QTest::newRow("16 KiB") << quint64{16384};
        QTest::newRow("4 KiB") << quint64{4096};
    }
    void unalignedRegions() {
        QFETCH(quint64, chunk);
        QStringList options;
        if (chunk != 65536) {
            options << "--restore-chunk-size" << QString::number(chunk);
        }
        const QList<QPair<int, quint64>> pokes{{0, 0}, {0, 99999}, {1, 70000}, {1, 196730}};
        const auto r =
            run("dirty_restore", {"pokes", "100000,196731,5000", "0:0,0:99999,1:70000,1:196730"}, options);
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->regions.size(), 3);
        QSet<quint64> dirty_starts;
        quint64 dirty_bytes = 0;
        QSet<int> dirty_regions;
        for (const auto& [buffer, offset] : pokes) {
            const auto [first, bytes] = chunk_of(r->regions[buffer], offset, chunk);
            if (!dirty_starts.contains(first)) {
                dirty_bytes += bytes;
            }
            dirty_starts.insert(first);
            dirty_regions.insert(buffer);
        }
        // Four bytes in four different chunks for every chunk size here.
        QCOMPARE(dirty_starts.size(), 4);
        const quint64 total = r->total_chunks(chunk);
        QCOMPARE(r->snapshot(),
                 (QStringList{"device", "0", QString::number(r->footprint()), QString::number(total)}));
        VERIFY_RESTORES(r, 2, 0, dirty_bytes, dirty_regions.size(), dirty_starts.size(), total);
    }

    /// A `__device__` variable the kernel changes one byte of: its chunk is dirty and restored (the program
    /// sees the byte changed once), the rest of the variable is not copied.
    void moduleVariableRestored() {
        const auto r = run("dirty_restore", {"variable", "150000"}, {"--passes", "3"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->regions.size(), 1);
        QCOMPARE(r->regions[0].size, quint64{300000});
        QCOMPARE(r->decisions(), QStringList{"bump_variable.kd:replayed"});
        const quint64 chunk_bytes = chunk_of(r->regions[0], 150000, 65536).second;
        const quint64 total = r->total_chunks(65536);
        QCOMPARE(r->snapshot(), (QStringList{"device", "0", "300000", QString::number(total)}));
        VERIFY_RESTORES(r, 3, 0, chunk_bytes, 1, 1, total);
        // The region is the module variable of the snapshot.
        QCOMPARE(
            r->rows(
                "SELECT e.name, i.size FROM inventory_regions i JOIN snapshots s ON i.agent = s.agent AND "
                "i.generation = s.generation AND i.process = s.process JOIN enum_names e ON e.enum = "
                "'region_kind' AND e.code = i.kind"),
            (QList<QStringList>{{"module-variable", "300000"}}));
    }

    /// free_during_kernel frees one of its two buffers inside the kernel. Every restore skips the freed
    /// region (reason freed) and moves only the other one, whose every chunk the kernel rewrote: exactly
    /// its 8192 bytes, never a byte of the freed block.
    void regionFreedMidReplay() {
        auto r = run("free_during_kernel", {}, {"--passes", "3"});
        QVERIFY2(r->finished && r->exit_code == 0 && r->stdout_text.contains("buffer freed exactly once"),
                 qPrintable(r->describe()));
        const QRegularExpression printed(
            R"(buffer (?:0x)?([0-9a-f]+) \(freed by the kernel\), output (?:0x)?([0-9a-f]+))");
        const auto m = printed.match(r->stdout_text);
        QVERIFY2(m.hasMatch(), qPrintable(r->stdout_text));
        const Region doomed{"doomed", m.captured(1).toULongLong(nullptr, 16), 8192};
        const Region out{"out", m.captured(2).toULongLong(nullptr, 16), 8192};
        QCOMPARE(r->decisions(), QStringList{"free_during_kernel.kd:replayed"});
        QCOMPARE(
            r->rows("SELECT rs.pass_idx, e.name, rs.address, rs.size FROM restore_skips rs JOIN enum_names "
                    "e ON e.enum = 'restore_skip' AND e.code = rs.reason ORDER BY rs.pass_idx"),
            (QList<QStringList>{{"1", "freed", QString::number(qint64(doomed.address)), "8192"},
                                {"2", "freed", QString::number(qint64(doomed.address)), "8192"},
                                {"3", "freed", QString::number(qint64(doomed.address)), "8192"}}));
        const quint64 total =
            chunk_count(doomed.address, 8192, 65536) + chunk_count(out.address, 8192, 65536);
        QCOMPARE(r->snapshot().value(3), QString::number(total));
        const auto restores = r->restores();
        QCOMPARE(restores.size(), 3);
        for (const auto& row : restores) {
            QCOMPARE(row[2].toULongLong() + row[3].toULongLong(), quint64{8192});
            QCOMPARE(row[4], QStringLiteral("1"));
            QCOMPARE(row[5].toULongLong(), chunk_count(out.address, 8192, 65536));
        }
    }

    /// No room for the device store: the device memory is smaller than the reserve, the reserve is larger
    /// than the device memory, or the host store is asked for. Every region goes to the host store, the
    /// restores move the whole footprint over the host link and nothing inside the device, results right.
    void hostStoreWhenReserveExhausted_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QStringList>("env");
        QTest::newRow("8 MiB of device memory, default 1 GiB reserve")
            << QStringList{} << QStringList{"HSA_SIM_DEVICE_MEMORY=8M"};
        QTest::newRow("reserve 100 GiB of 16")
            << QStringList{"--device-store-reserve", "100G"} << QStringList{};
        QTest::newRow("--snapshot-store host") << QStringList{"--snapshot-store", "host"} << QStringList{};
    }
    void hostStoreWhenReserveExhausted() {
        QFETCH(QStringList, options);
        QFETCH(QStringList, env);
        const auto r = run("dirty_restore", {"chunk-starts", "65536", "1060921,70001"}, options, env);
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        const quint64 total = r->total_chunks(65536);
        QCOMPARE(r->snapshot(),
                 (QStringList{"host", QString::number(r->footprint()), "0", QString::number(total)}));
        VERIFY_RESTORES(r, 2, r->footprint(), 0, 2, total, total);
        QCOMPARE(r->value("SELECT count(*) FROM snapshot_placements"), 0);
    }

    /// Room in the device store for one of two 1 MiB buffers: 16 MiB of device memory, 2 MiB of it the
    /// program's, and a reserve leaving 1.5 MiB. One region goes to the device store, the other to the host
    /// store (the snapshot is mixed, both placements recorded), and each restore of the two fully dirty
    /// buffers moves 1 MiB over the host link and 1 MiB inside the device.
    void mixedSnapshot() {
        const quint64 mib = 1048576;
        const quint64 reserve = 14 * mib - 3 * mib / 2;
        const auto r =
            run("dirty_restore", {"chunk-starts", "65536", "1048576,1048576"},
                {"--device-store-reserve", QString::number(reserve)}, {"HSA_SIM_DEVICE_MEMORY=16M"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        const quint64 total = r->total_chunks(65536);
        QCOMPARE(r->snapshot(), (QStringList{"mixed", "1048576", "1048576", QString::number(total)}));
        QCOMPARE(r->rows("SELECT store, size FROM snapshot_placements ORDER BY store"),
                 (QList<QStringList>{{"device", "1048576"}, {"host", "1048576"}}));
        QSet<quint64> placed;
        for (const auto& row : r->rows("SELECT address FROM snapshot_placements")) {
            placed.insert(quint64(row[0].toLongLong()));
        }
        QCOMPARE(placed, (QSet<quint64>{r->regions[0].address, r->regions[1].address}));
        VERIFY_RESTORES(r, 2, mib, mib, 2, total, total);
    }

    /// By default (auto store, 1 GiB reserve of 16 GiB) the snapshot goes to the device store and nothing
    /// is restored over the host link.
    void deviceStoreByDefault() {
        const auto r = run("dirty_restore", {"chunk-starts", "65536", "4194304"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        const quint64 total = r->total_chunks(65536);
        QCOMPARE(r->snapshot(), (QStringList{"device", "0", "4194304", QString::number(total)}));
        VERIFY_RESTORES(r, 2, 0, 4194304, 1, total, total);
        const QString settings =
            r->rows("SELECT s.text FROM session JOIN strings s ON s.id = session.configuration_id")
                .value(0)
                .value(0);
        QVERIFY2(settings.contains("REPLAYSCOPE_SNAPSHOT_STORE=auto") &&
                     settings.contains("REPLAYSCOPE_RESTORE=dirty") &&
                     settings.contains("REPLAYSCOPE_RESTORE_CHUNK_SIZE=65536"),
                 qPrintable(settings));
    }

    /// 8 MiB of device memory, no reserve: the program's 3 MiB buffer is snapshotted into the device store,
    /// which keeps its memory after the window; the program's next allocation of 4 MiB then finds less
    /// than 4 MiB free, the engine gives the store's memory back and the allocation succeeds.
    void allocationAfterWindowReclaimsTheStore() {
        const auto r = run("dirty_restore", {"reclaim", "65536", "3145728", "4194304"},
                           {"--device-store-reserve", "0"}, {"HSA_SIM_DEVICE_MEMORY=8M"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QVERIFY2(r->stdout_text.contains("second allocation of 4194304 bytes: status 0"),
                 qPrintable(r->stdout_text));
        const QStringList snapshot = r->snapshot();
        QCOMPARE(snapshot.value(0), QStringLiteral("device"));
        QCOMPARE(snapshot.value(2), QStringLiteral("3145728"));
        // Where the runtime answers the free-memory query (ROCr 6.x headers), the program saw the store's
        // memory taken when it asked: 8 MiB less its 3 MiB buffer less the store's at least 3 MiB, so less
        // than the 4 MiB it then got.
        const QString free_before =
            QRegularExpression(R"(device memory free before the second allocation: (\d+))")
                .match(r->stdout_text)
                .captured(1);
        if (!free_before.isEmpty()) {
            QVERIFY2(free_before.toULongLong() <= 2 * 1048576, qPrintable(r->stdout_text));
        }
        QCOMPARE(r->decisions(), QStringList{"bump_chunk_starts.kd:replayed"});
    }

    /// --fidelity-check after a dirty restore compares every region with its snapshot copy: in a normal
    /// run it finds no chunk the restore missed, for a fully dirty and for a sparsely dirty snapshot.
    void fidelityCheckFindsNoMiss_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("one byte per chunk") << QStringList{"chunk-starts", "65536", "1060921,70001"};
        QTest::newRow("four bytes") << QStringList{"pokes", "100000,196731,5000",
                                                   "0:0,0:99999,1:70000,1:196730"};
        QTest::newRow("nothing dirty") << QStringList{"same-values", "1060921"};
    }
    void fidelityCheckFindsNoMiss() {
        QFETCH(QStringList, args);
        const auto r = run("dirty_restore", args, {"--fidelity-check", "--passes", "3"});
        RS_VERIFY_RUN_PRINTED_REGIONS(r);
        QCOMPARE(r->passes(), 3);
        QCOMPARE(r->restores().size(), 3);
        QCOMPARE(r->value("SELECT count(*) FROM restore_misses"), 0);
        QCOMPARE(r->value("SELECT sum(missed_chunks) FROM restores"), 0);
        QCOMPARE(r->warnings("restore-missed-chunk"), QStringList{});
        QCOMPARE(r->value("SELECT count(*) FROM passes WHERE fidelity = 0"), 0);
    }
};

QTEST_GUILESS_MAIN(TestDirtyRestore)
#include "tst_dirty_restore.moc"
