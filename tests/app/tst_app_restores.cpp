// SPDX-License-Identifier: MIT
// Session format 4 in the inspector: snapshot stores, bytes moved per restore (host link / inside the
// device) against the footprint, dirty and total chunks, the final restore, restore misses, agent and
// process totals, the bytes-moved chart and the terminal summary. Every model under
// QAbstractItemModelTester; expected values are read from the file itself with SQL (the `restores`,
// `restore_misses` tables and the `snapshots` / `process_totals` views written by the collector's
// SessionStore), so the loader is checked against the schema, not against itself. Older files
// (tests/app/data/format2.rsdb, tests/sessions/data/format3.rsdb) show "—" instead of 0.
#include "app_test_support.h"

#include "model/AgentSummaryModel.h"
#include "model/ChartSeriesBuilder.h"
#include "model/DispatchTableModel.h"
#include "model/Format.h"
#include "model/ModelRoles.h"
#include "model/PassTableModel.h"
#include "model/ProcessTableModel.h"
#include "model/RestoreMissTableModel.h"
#include "model/RestoreSkipTableModel.h"
#include "model/SessionLoader.h"
#include "model/TerminalSummary.h"
#include "ui/AuditPage.h"
#include "ui/DispatchDetailWidget.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTemporaryDir>

using namespace rs::app;

class AppRestoresTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;
    SessionSnapshot s_;

    /// Row of the first replayed dispatch of kernel index `k` (dispatch index i with i % 7 == k).
    int firstReplayed(int k) const {
        for (int r = 0; r < int(s_->dispatches.size()); ++r) {
            const DispatchRow& d = s_->dispatches[std::size_t(r)];
            if (d.decision == 0 && (d.id - 1) % 7 == k && d.restores > 0) {
                return r;
            }
        }
        return -1;
    }
    qint64 sql(const QString& query) const { return test::sqlValue(path_, query).toLongLong(); }

  private slots:
    void initTestCase() {
        SyntheticSession::Options o;
        o.dispatches = 700;
        o.passes = 3;
        path_ = test::synthetic(dir_.path(), QStringLiteral("restores.rsdb"), o);
        QVERIFY(!path_.isEmpty());
        SessionError e;
        s_ = SessionLoader::loadAll(path_, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(s_->info.formatVersion, 7);
        QVERIFY(s_->hasRestoreRecords);
        // Two restores before passes 1 and 2 and the final one, for every replayed dispatch.
        QCOMPARE(qint64(s_->restores.size()), sql(QStringLiteral("SELECT count(*) FROM restores")));
        QVERIFY(s_->restores.size() > 1000);
    }

    /// Footprint, bytes moved over the host link and inside the device, share of a full restore, store.
    void dispatchColumns() {
        DispatchTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(s_);
        QCOMPARE(model.headerData(DispatchTableModel::SnapshotBytes, Qt::Horizontal).toString(),
                 QStringLiteral("Footprint"));
        QCOMPARE(model.headerData(DispatchTableModel::MovedHost, Qt::Horizontal).toString(),
                 QStringLiteral("Moved (host)"));
        QCOMPARE(model.headerData(DispatchTableModel::Store, Qt::Horizontal).toString(),
                 QStringLiteral("Store"));
        for (int k : {0, 1, 2, 3, 4}) {
            const int row = firstReplayed(k);
            QVERIFY2(row >= 0, qPrintable(QString::number(k)));
            const DispatchRow& d = s_->dispatches[std::size_t(row)];
            const QString where =
                QStringLiteral(" FROM restores WHERE process = 1 AND dispatch = %1").arg(d.id);
            const qint64 host = sql(QStringLiteral("SELECT sum(restored_bytes_host)") + where);
            const qint64 device = sql(QStringLiteral("SELECT sum(restored_bytes_device)") + where);
            QCOMPARE(sql(QStringLiteral("SELECT count(*)") + where), 3);
            QCOMPARE(model.index(row, DispatchTableModel::MovedHost).data(SortRole).toLongLong(), host);
            QCOMPARE(model.index(row, DispatchTableModel::MovedDevice).data(SortRole).toLongLong(), device);
            QCOMPARE(model.index(row, DispatchTableModel::MovedHost).data().toString(), format::bytes(host));
            QCOMPARE(model.index(row, DispatchTableModel::SnapshotBytes).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT footprint FROM dispatches WHERE process = 1 AND id = %1")
                             .arg(d.id)));
            const QString store =
                test::sqlValue(
                    path_,
                    QStringLiteral("SELECT store FROM snapshots WHERE process = 1 AND dispatch_id = %1")
                        .arg(d.id))
                    .toString();
            QVERIFY(!store.isEmpty());
            QVERIFY2(model.index(row, DispatchTableModel::Store).data().toString().startsWith(store),
                     qPrintable(store));
            const double share = 100.0 * double(host + device) / double(3 * d.snapshotBytes);
            QCOMPARE(model.index(row, DispatchTableModel::MovedShare).data(SortRole).toDouble(), share);
            switch (k) {
            case 0: // writes every chunk: a dirty restore moves the whole footprint
                QCOMPARE(model.index(row, DispatchTableModel::MovedShare).data().toString(),
                         QStringLiteral("100 %"));
                break;
            case 2: // writes 1 % of the chunks: at most 2 % of the footprint moves
                QVERIFY2(share > 0.4 && share <= 2.0, qPrintable(QString::number(share)));
                break;
            case 4: // writes back the same values: nothing is dirty, nothing moves
                QCOMPARE(host + device, 0);
                QCOMPARE(model.index(row, DispatchTableModel::MovedShare).data().toString(),
                         QStringLiteral("0 %"));
                QCOMPARE(d.dirtyChunks, 0);
                break;
            default:
                break;
            }
        }
        // Agent 0 keeps small snapshots in its device store (nothing over the host link), agent 1 its host
        // store; a host store in pageable memory says so.
        int device = 0, pageable = 0, mixed = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const DispatchRow& d = s_->dispatches[std::size_t(r)];
            const QString text = model.index(r, DispatchTableModel::Store).data().toString();
            if (!d.hasSnapshot) {
                QCOMPARE(text, QString());
                QCOMPARE(model.index(r, DispatchTableModel::MovedHost).data().toString(), QString());
                continue;
            }
            if (d.store == 1) {
                ++device;
                QCOMPARE(text, QStringLiteral("device"));
                QCOMPARE(d.movedHost, 0);
            } else if (d.store == 2) {
                ++mixed;
                QCOMPARE(text, QStringLiteral("mixed"));
                QVERIFY(d.hostBytes > 0 && d.deviceBytes > 0);
                QCOMPARE(d.hostBytes + d.deviceBytes, d.snapshotBytes);
            } else if (d.hostPinned == 0) {
                ++pageable;
                QCOMPARE(text, QStringLiteral("host (pageable)"));
            } else {
                QCOMPARE(text, QStringLiteral("host"));
                QCOMPARE(d.movedDevice, 0);
            }
        }
        QCOMPARE(device, int(sql(QStringLiteral("SELECT count(*) FROM snapshots WHERE store = 'device'"))));
        QCOMPARE(mixed, int(sql(QStringLiteral("SELECT count(*) FROM snapshots WHERE store = 'mixed'"))));
        QCOMPARE(pageable, int(sql(QStringLiteral(
                               "SELECT count(*) FROM snapshots WHERE store = 'host' AND host_pinned = 0"))));
        QVERIFY(device > 0 && mixed > 0 && pageable > 0);
    }

    /// Passes: the restore before each pass (the view `passes`' new columns) and the final restore.
    void passColumns() {
        const int row = firstReplayed(2);
        QVERIFY(row >= 0);
        const DispatchRow& d = s_->dispatches[std::size_t(row)];
        PassTableModel passes;
        QAbstractItemModelTester tester(&passes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        passes.setDispatch(s_, row);
        QCOMPARE(passes.rowCount(), 4); // passes 0, 1, 2 and the restore after the last pass
        QCOMPARE(passes.columnCount(), int(PassTableModel::ColumnCount));
        QVERIFY(passes.isFinalRow(3));
        QCOMPARE(passes.index(3, PassTableModel::Pass).data().toString(), QStringLiteral("final"));
        QCOMPARE(passes.index(3, PassTableModel::Pass).data(SortRole).toInt(), 3);
        QCOMPARE(passes.index(0, PassTableModel::RestoredHost).data().toString(), QStringLiteral("-"));
        QVERIFY(!passes.index(0, PassTableModel::RestoredHost).data(SortRole).isValid());
        for (int p = 1; p <= 2; ++p) {
            const QString where =
                QStringLiteral(" FROM passes WHERE process = 1 AND dispatch_id = %1 AND idx = %2")
                    .arg(d.id)
                    .arg(p);
            QCOMPARE(passes.index(p, PassTableModel::RestoredHost).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT restored_bytes_host") + where));
            QCOMPARE(passes.index(p, PassTableModel::RestoredDevice).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT restored_bytes_device") + where));
            const qint64 dirty = sql(QStringLiteral("SELECT dirty_chunks") + where);
            const qint64 total = sql(QStringLiteral("SELECT total_chunks") + where);
            QVERIFY(dirty > 0 && dirty * 50 <= total); // 1 % written (rounded down, at least one chunk)
            QCOMPARE(passes.index(p, PassTableModel::DirtyChunks).data().toString(),
                     QStringLiteral("%1 / %2").arg(format::count(dirty), format::count(total)));
            QCOMPARE(passes.index(p, PassTableModel::HashMs).data(SortRole).toDouble(),
                     double(sql(QStringLiteral("SELECT hash_ns") + where)) / 1e6);
            QCOMPARE(passes.index(p, PassTableModel::MissedChunks).data(SortRole).toInt(),
                     int(sql(QStringLiteral("SELECT missed_chunks") + where)));
        }
        const QString final =
            QStringLiteral(" FROM restores WHERE process = 1 AND dispatch = %1 AND final = 1").arg(d.id);
        QCOMPARE(sql(QStringLiteral("SELECT pass_index") + final), 3);
        QCOMPARE(passes.index(3, PassTableModel::RestoredDevice).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT restored_bytes_device") + final));
        QCOMPARE(passes.index(3, PassTableModel::Bytes).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT restored_bytes_host + restored_bytes_device") + final));
        QCOMPARE(passes.index(3, PassTableModel::KernelUs).data().toString(), QString());
        // The dispatch's restore time is the sum of its restores, the final one included.
        QCOMPARE(
            d.restoreNs,
            sql(QStringLiteral("SELECT sum(restore_ns) FROM restores WHERE process = 1 AND dispatch = %1")
                    .arg(d.id)));
    }

    /// Agent and process totals: footprint × restores against the bytes moved.
    void agentAndProcessTotals() {
        AgentSummaryModel agents;
        ProcessTableModel processes;
        QAbstractItemModelTester t1(&agents, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&processes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        agents.setSnapshot(s_);
        processes.setSnapshot(s_);
        QCOMPARE(agents.rowCount(), 2);
        for (int r = 0; r < agents.rowCount(); ++r) {
            const qint64 agent = agents.rows()[r].handle;
            const QString join =
                QStringLiteral(" FROM restores x JOIN dispatches d ON d.process = x.process AND "
                               "d.id = x.dispatch WHERE d.agent = %1")
                    .arg(agent);
            QCOMPARE(agents.index(r, AgentSummaryModel::MovedHost).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT sum(x.restored_bytes_host)") + join));
            QCOMPARE(agents.index(r, AgentSummaryModel::MovedDevice).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT sum(x.restored_bytes_device)") + join));
            QCOMPARE(agents.index(r, AgentSummaryModel::FullRestoreBytes).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT sum(d.footprint)") + join));
            QCOMPARE(agents.index(r, AgentSummaryModel::DirtyChunks).data(SortRole).toLongLong(),
                     sql(QStringLiteral("SELECT sum(x.dirty_chunks)") + join));
        }
        QCOMPARE(processes.rowCount(), 1);
        QCOMPARE(processes.index(0, ProcessTableModel::FullRestoreBytes).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT full_restore_bytes FROM process_totals WHERE process = 1")));
        QCOMPARE(processes.index(0, ProcessTableModel::MovedHost).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT restored_bytes_host FROM process_totals WHERE process = 1")));
        QCOMPARE(processes.index(0, ProcessTableModel::MovedDevice).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT restored_bytes_device FROM process_totals WHERE process = 1")));
        QVERIFY(s_->processes[0].movedHost > 0 && s_->processes[0].movedDevice > 0);
        QVERIFY(s_->processes[0].movedHost + s_->processes[0].movedDevice <
                s_->processes[0].fullRestoreBytes);
    }

    /// Chunks a dirty restore missed: the audit's table, the dispatch detail, the dispatch's totals.
    void restoreMisses() {
        RestoreMissTableModel misses;
        QAbstractItemModelTester t1(&misses, QAbstractItemModelTester::FailureReportingMode::QtTest);
        misses.setSnapshot(s_);
        QCOMPARE(qint64(misses.rowCount()), sql(QStringLiteral("SELECT count(*) FROM restore_misses")));
        QCOMPARE(misses.rowCount(), 1); // one per 997 dispatches from index 300 on
        const qint64 id = sql(QStringLiteral("SELECT dispatch FROM restore_misses"));
        QCOMPARE(misses.index(0, RestoreMissTableModel::Dispatch).data(SortRole).toLongLong(), id);
        QCOMPARE(misses.index(0, RestoreMissTableModel::Pass).data().toString(), QStringLiteral("1"));
        QCOMPARE(misses.index(0, RestoreMissTableModel::Address).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT address FROM restore_misses")));
        QCOMPARE(misses.index(0, RestoreMissTableModel::Size).data().toString(), QStringLiteral("64.0 KiB"));
        QCOMPARE(misses.index(0, RestoreMissTableModel::Allocation).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT allocation_id FROM restore_misses")));
        const int row = s_.dispatchRow(1, id);
        QVERIFY(row >= 0);
        QCOMPARE(misses.index(0, RestoreMissTableModel::Kernel).data().toString(),
                 s_->kernelNames.value(s_->dispatches[std::size_t(row)].kernel));
        QCOMPARE(s_->dispatches[std::size_t(row)].missedChunks, 1);

        RestoreSkipTableModel skips;
        QAbstractItemModelTester t2(&skips, QAbstractItemModelTester::FailureReportingMode::QtTest);
        skips.setDispatch(s_, row);
        const int last = skips.rowCount() - 1;
        QVERIFY(last >= 0);
        QVERIFY(
            skips.index(last, 4).data().toString().startsWith(QStringLiteral("missed by the dirty restore")));
        QCOMPARE(skips.index(last, 4).data(CodeRole).toInt(), -3);
        QCOMPARE(skips.index(last, 1).data(SortRole).toLongLong(),
                 sql(QStringLiteral("SELECT address FROM restore_misses")));

        AuditPage audit;
        audit.setSnapshot(s_);
        QCOMPARE(audit.restoreMisses()->rowCount(), 1);
        PassTableModel passes;
        passes.setDispatch(s_, row);
        QCOMPARE(passes.index(1, PassTableModel::MissedChunks).data().toString(), QStringLiteral("1"));
        QCOMPARE(passes.index(2, PassTableModel::MissedChunks).data().toString(), QStringLiteral("0"));
    }

    /// The chart of bytes moved against the footprint, per dispatch.
    void bytesMovedChart() {
        const auto series = ChartSeriesBuilder(s_).bytesMovedVsFootprint();
        QCOMPARE(series.size(), 3);
        int withRestores = 0;
        for (const DispatchRow& d : s_->dispatches) {
            withRestores += d.restores > 0;
        }
        for (const auto& s : series) {
            QCOMPARE(int(s.points.size()), withRestores);
        }
        const int row = firstReplayed(1);
        int x = 0; // position among the dispatches (x = dispatch order)
        for (int i = 0; i < int(series[0].points.size()); ++i) {
            if (int(series[0].points[i].x()) == row) {
                x = i;
            }
        }
        const DispatchRow& d = s_->dispatches[std::size_t(row)];
        constexpr double kMiB = 1024.0 * 1024.0;
        QCOMPARE(series[0].points[x].x(), double(row));
        QCOMPARE(series[0].points[x].y(), double(d.snapshotBytes * 3) / kMiB);
        QCOMPARE(series[1].points[x].y(), double(d.movedHost) / kMiB);
        QCOMPARE(series[2].points[x].y(), double(d.movedDevice) / kMiB);
        QVERIFY(series[1].points[x].y() + series[2].points[x].y() < series[0].points[x].y());
    }

    /// The dispatch detail's title and the terminal summary name the store and the bytes moved.
    void detailAndSummary() {
        const int row = firstReplayed(2);
        DispatchDetailWidget detail;
        detail.setDispatch(s_, row);
        const QString title = detail.findChild<QLabel*>()->text();
        const DispatchRow& d = s_->dispatches[std::size_t(row)];
        QVERIFY2(
            title.contains(QStringLiteral("3 restores moved <b>%1</b>").arg(format::bytes(d.movedBytes()))),
            qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("store <b>%1</b>").arg(DispatchTableModel::storeText(s_, d))),
                 qPrintable(title));
        // Format 5: the window's fence wait, as the file's snapshots view holds it.
        const qint64 fence = sql(QStringLiteral("SELECT fence_wait_ns FROM snapshots WHERE process = %1 AND "
                                                "dispatch_id = %2 AND fence_wait_ns IS NOT NULL")
                                     .arg(d.process)
                                     .arg(d.id));
        QVERIFY(fence > 0);
        QCOMPARE(d.fenceWaitNs, fence);
        QVERIFY2(title.contains(QStringLiteral("after a fence wait of %1 µs").arg(format::us(fence))),
                 qPrintable(title));
        const QString text = TerminalSummary::text(s_);
        qint64 host = 0, device = 0;
        for (const DispatchRow& x : s_->dispatches) {
            host += std::max<qint64>(0, x.movedHost);
            device += std::max<qint64>(0, x.movedDevice);
        }
        QCOMPARE(host, sql(QStringLiteral("SELECT sum(restored_bytes_host) FROM restores")));
        QVERIFY2(
            text.contains(QStringLiteral("restores:    %1 moved %2 of ")
                              .arg(format::count(qint64(s_->restores.size())), format::bytes(host + device))),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("%1 over the host link, %2 inside the device")
                                   .arg(format::bytes(host), format::bytes(device))),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("1 missed")));
    }

    /// The loader's restore records and snapshot stores are the `restores` and `snapshot_stores` views'
    /// rows, every field of every row: on the synthetic session (every restore a `restore_rows` row) and
    /// on the demo recorded by the engine, whose restores fold into the dispatch rows (s_store, r1, rf),
    /// which the loader decodes in its dispatch scan instead of reading the views.
    void restoreRecordsAreTheViews_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("synthetic") << path_;
#ifdef RS_DEMO
        QTest::newRow("demo") << test::demoSession(dir_.path(), QStringLiteral("demo.rsdb"), 2, 6);
#endif
    }
    void restoreRecordsAreTheViews() {
        QFETCH(QString, file);
        QVERIFY(!file.isEmpty());
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(file, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        const bool demo = QTest::currentDataTag() == QByteArray("demo");
        // The kind of file each row stands for: the demo's restores fold, the synthetic ones do not.
        const qint64 folded = test::sqlCount(file, QStringLiteral("SELECT count(r1) FROM dispatch_rows"));
        const qint64 apart = test::sqlCount(file, QStringLiteral("SELECT count(*) FROM restore_rows"));
        QVERIFY2(demo ? folded > 0 : (folded == 0 && apart > 0), qPrintable(QString::number(folded)));
        // In the loader's order: dispatch order (process, id), then the restores before passes by index,
        // the final one last.
        const QVector<QVariantList> restores = test::sqlRows(
            file,
            QStringLiteral("SELECT process, dispatch, pass_index, final, restored_bytes_host, "
                           "restored_bytes_device, hash_ns, restore_ns, regions_restored, dirty_chunks, "
                           "total_chunks, missed_chunks FROM restores ORDER BY process, dispatch, final, "
                           "pass_index"));
        QCOMPARE(qsizetype(s->restores.size()), restores.size());
        QVERIFY(!restores.isEmpty());
        for (qsizetype i = 0; i < restores.size(); ++i) {
            const RestoreRow& r = s->restores[std::size_t(i)];
            const QVariantList& x = restores[i];
            const QList<qint64> loaded{
                r.process,         r.dispatchId,  r.passIndex,   r.finalRestore ? 1 : 0,
                r.bytesHost,       r.bytesDevice, r.hashNs,      r.restoreNs,
                r.regionsRestored, r.dirtyChunks, r.totalChunks, r.missedChunks};
            QList<qint64> stored;
            for (const QVariant& v : x) {
                stored << v.toLongLong();
            }
            QCOMPARE(loaded, stored);
        }
        const QVector<QVariantList> stores = test::sqlRows(
            file,
            QStringLiteral("SELECT process, dispatch_id, host_bytes, device_bytes, hash_ns, total_chunks, "
                           "store, hash_path, host_pinned FROM snapshot_stores"));
        QVERIFY(!stores.isEmpty());
        for (const QVariantList& x : stores) {
            const int row = s->dispatchRow.value({x[0].toInt(), x[1].toLongLong()}, -1);
            QVERIFY(row >= 0);
            const DispatchRow& d = s->dispatches[std::size_t(row)];
            const QList<qint64> loaded{d.hostBytes, d.deviceBytes, d.snapshotHashNs, d.snapshotChunks,
                                       d.store,     d.hashPath,    d.hostPinned};
            QList<qint64> stored;
            for (int c = 2; c < x.size(); ++c) {
                stored << x[c].toLongLong();
            }
            QCOMPARE(loaded, stored);
        }
        // Every dispatch's restore figures are its records' sums, as the `dispatches` view sums them.
        const QVector<QVariantList> moved = test::sqlRows(
            file,
            QStringLiteral("SELECT process, id, restored_bytes_host, restored_bytes_device FROM dispatches "
                           "WHERE restored_bytes_host IS NOT NULL"));
        QVERIFY(!moved.isEmpty());
        for (const QVariantList& x : moved) {
            const DispatchRow& d =
                s->dispatches[std::size_t(s->dispatchRow.value({x[0].toInt(), x[1].toLongLong()}))];
            QCOMPARE(d.movedHost, x[2].toLongLong());
            QCOMPARE(d.movedDevice, x[3].toLongLong());
        }
    }

    void olderFileShowsDash_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format");
        QTest::newRow("format 2") << QStringLiteral(RS_APP_TEST_DATA "/format2.rsdb") << 2;
        // A real file of the format-3 build (accumulate_n on the simulator), kept by tests/sessions.
        QTest::newRow("format 3") << QStringLiteral(RS_APP_TEST_DATA "/../../sessions/data/format3.rsdb")
                                  << 3;
    }

    /// Files of formats 2 and 3 (no stores, no restore records): every new figure is "—", never 0.
    void olderFileShowsDash() {
        QFETCH(QString, path);
        QFETCH(int, format);
        SessionError e;
        const SessionSnapshot old = SessionLoader::loadAll(path, e);
        QVERIFY2(!e.isError(), qPrintable(e.message));
        QCOMPARE(old->info.formatVersion, format);
        QVERIFY(!old->hasRestoreRecords);
        QVERIFY(old->restores.empty());
        int row = -1;
        for (int r = 0; r < int(old->dispatches.size()); ++r) {
            if (old->dispatches[std::size_t(r)].hasSnapshot && old->dispatches[std::size_t(r)].passes > 1) {
                row = r;
                break;
            }
        }
        QVERIFY(row >= 0);
        DispatchTableModel dispatches;
        PassTableModel passes;
        AgentSummaryModel agents;
        ProcessTableModel processes;
        QAbstractItemModelTester t1(&dispatches, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&passes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&agents, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(&processes, QAbstractItemModelTester::FailureReportingMode::QtTest);
        dispatches.setSnapshot(old);
        passes.setDispatch(old, row);
        agents.setSnapshot(old);
        processes.setSnapshot(old);
        const QString dash = QStringLiteral("—");
        for (int c : {int(DispatchTableModel::MovedHost), int(DispatchTableModel::MovedDevice),
                      int(DispatchTableModel::MovedShare), int(DispatchTableModel::Store)}) {
            QCOMPARE(dispatches.index(row, c).data().toString(), dash);
            QVERIFY(!dispatches.index(row, c).data(SortRole).isValid());
        }
        QVERIFY(dispatches.index(row, DispatchTableModel::SnapshotBytes).data(SortRole).toLongLong() > 0);
        QCOMPARE(passes.rowCount(), old->dispatches[std::size_t(row)].passes); // no final-restore row
        QCOMPARE(passes.index(1, PassTableModel::RestoredHost).data().toString(), dash);
        QCOMPARE(passes.index(1, PassTableModel::DirtyChunks).data().toString(), dash);
        QCOMPARE(passes.index(1, PassTableModel::HashMs).data().toString(), dash);
        QCOMPARE(passes.index(0, PassTableModel::RestoredHost).data().toString(), QStringLiteral("-"));
        QVERIFY(agents.rowCount() > 0);
        QCOMPARE(agents.index(0, AgentSummaryModel::MovedHost).data().toString(), dash);
        QCOMPARE(agents.index(0, AgentSummaryModel::FullRestoreBytes).data().toString(), dash);
        QCOMPARE(processes.index(0, ProcessTableModel::MovedDevice).data().toString(), dash);
        QVERIFY(
            TerminalSummary::text(old).contains(QStringLiteral("restores:    — (bytes moved per restore")));
        const auto series = ChartSeriesBuilder(old).bytesMovedVsFootprint();
        QCOMPARE(series.size(), 3);
        QVERIFY(series[0].points.isEmpty());
    }
};

QTEST_MAIN(AppRestoresTest)
#include "tst_app_restores.moc"
