#include "model/SessionLoader.h"

#include <QAtomicInt>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QtEndian>

#include <algorithm>

namespace rs::app {

namespace {

QAtomicInt g_connections;

/// Runs `sql` forward-only; false with `error` set on failure.
bool run(QSqlQuery& q, const QString& sql, QString& error) {
    q.setForwardOnly(true);
    if (!q.exec(sql)) {
        error = q.lastError().text();
        return false;
    }
    return true;
}

qint64 i64(const QSqlQuery& q, int column) {
    return q.value(column).toLongLong();
}

} // namespace

SessionLoader::SessionLoader(const QString& path)
    : path_(path), connection_(QStringLiteral("rs-session-%1").arg(g_connections.fetchAndAddRelaxed(1))) {}

SessionLoader::~SessionLoader() {
    if (opened_) {
        {
            QSqlDatabase db = QSqlDatabase::database(connection_, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(connection_);
    }
}

SessionError SessionLoader::fail(SessionError::Kind kind, const QString& message) const {
    return SessionError{kind, path_, message};
}

SessionError SessionLoader::queryError(const QString& what, const QString& driverText) const {
    const QString lower = driverText.toLower();
    if (lower.contains(QLatin1String("malformed")) || lower.contains(QLatin1String("corrupt"))) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file is corrupt: SQLite reports \"%1\" while reading %2.")
                        .arg(driverText.trimmed(), what));
    }
    if (lower.contains(QLatin1String("not a database"))) {
        return fail(
            SessionError::Kind::foreign,
            QStringLiteral("This is not a SQLite database (foreign file), so not a ReplayScope session."));
    }
    return fail(SessionError::Kind::read,
                QStringLiteral("Reading %1 failed: %2").arg(what, driverText.trimmed()));
}

SessionError SessionLoader::checkFile(const QString& path) {
    const QFileInfo fi(path);
    auto err = [&](SessionError::Kind k, const QString& m) { return SessionError{k, path, m}; };
    if (!fi.exists()) {
        return err(SessionError::Kind::missing, QStringLiteral("The file does not exist."));
    }
    if (fi.isDir()) {
        return err(SessionError::Kind::unreadable,
                   QStringLiteral("This is a directory, not a session file."));
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return err(SessionError::Kind::unreadable,
                   QStringLiteral("The file cannot be opened: %1.").arg(f.errorString()));
    }
    const qint64 size = f.size();
    if (size == 0) {
        return err(
            SessionError::Kind::truncated,
            QStringLiteral("The file is empty (0 bytes): the session was never written or was truncated."));
    }
    const QByteArray header = f.read(100);
    if (!header.startsWith(QByteArrayLiteral("SQLite format 3\0"))) {
        return err(
            SessionError::Kind::foreign,
            QStringLiteral("This is not a SQLite database (foreign file), so not a ReplayScope session."));
    }
    if (header.size() < 100) {
        return err(
            SessionError::Kind::truncated,
            QStringLiteral("The file is truncated: only %1 bytes, less than a SQLite header.").arg(size));
    }
    const auto* h = reinterpret_cast<const uchar*>(header.constData());
    qint64 pageSize = qFromBigEndian<quint16>(h + 16);
    if (pageSize == 1) {
        pageSize = 65536;
    }
    const quint32 changeCounter = qFromBigEndian<quint32>(h + 24);
    const quint32 pageCount = qFromBigEndian<quint32>(h + 28);
    const quint32 validFor = qFromBigEndian<quint32>(h + 92);
    if (pageSize >= 512 && validFor == changeCounter && pageCount > 0 &&
        size < pageSize * qint64(pageCount)) {
        return err(
            SessionError::Kind::truncated,
            QStringLiteral("The file is truncated: %1 bytes of the %2 its header announces (%3 pages).")
                .arg(size)
                .arg(pageSize * qint64(pageCount))
                .arg(pageCount));
    }
    return {};
}

SessionError SessionLoader::open() {
    if (SessionError e = checkFile(path_); e.isError()) {
        return e;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection_);
    opened_ = true;
    db.setDatabaseName(path_);
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=2000"));
    if (!db.open()) {
        return queryError(QStringLiteral("the file header"), db.lastError().text());
    }
    QSqlQuery q(db);
    QString error;
    if (!run(q, QStringLiteral("PRAGMA application_id"), error) || !q.next()) {
        return queryError(QStringLiteral("the file header"), error);
    }
    const qint64 appId = q.value(0).toLongLong();
    if (appId != kApplicationId) {
        return fail(SessionError::Kind::foreignSqlite,
                    QStringLiteral("This is a SQLite database of another application (application_id 0x%1, a "
                                   "session file has 0x52534442 \"RSDB\"): foreign SQLite database.")
                        .arg(quint32(appId), 8, 16, QLatin1Char('0')));
    }
    if (!run(q, QStringLiteral("PRAGMA user_version"), error) || !q.next()) {
        return queryError(QStringLiteral("the format version"), error);
    }
    const int version = q.value(0).toInt();
    if (version > kFormatVersion) {
        return fail(SessionError::Kind::newerSchema,
                    QStringLiteral("Session format version %1 is newer than this ReplayScope supports (%2): "
                                   "open it with a newer replayscope.")
                        .arg(version)
                        .arg(kFormatVersion));
    }
    if (version < 1) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file has no format version (user_version 0): it was never "
                                   "completely created."));
    }
    // Format 2 provides dispatches, snapshots and passes as views over compact rows.
    const QStringList tables = db.tables(QSql::Tables) + db.tables(QSql::Views);
    QStringList required{"session",           "strings",     "enum_names",        "agents",     "allocations",
                         "module_variables",  "inventories", "inventory_regions", "dispatches", "snapshots",
                         "snapshot_failures", "passes",      "restore_skips",     "warnings"};
    if (version >= 2) {
        required << QStringLiteral("fidelity_mismatches") << QStringLiteral("async_copies")
                 << QStringLiteral("dispatch_rows") << QStringLiteral("handles")
                 << QStringLiteral("extra_passes");
    }
    for (const QString& t : required) {
        if (!tables.contains(t)) {
            return fail(
                SessionError::Kind::corrupt,
                QStringLiteral("The session file is corrupt or incomplete: it lacks the table \"%1\".")
                    .arg(t));
        }
    }
    return {};
}

qint64 SessionLoader::dataVersion() {
    QSqlQuery q(QSqlDatabase::database(connection_, false));
    QString error;
    if (!run(q, QStringLiteral("PRAGMA data_version"), error) || !q.next()) {
        return -1;
    }
    return q.value(0).toLongLong();
}

SessionError SessionLoader::quickCheck() {
    QSqlQuery q(QSqlDatabase::database(connection_, false));
    QString error;
    if (!run(q, QStringLiteral("PRAGMA quick_check"), error)) {
        return queryError(QStringLiteral("the integrity check"), error);
    }
    if (q.next() && q.value(0).toString() != QLatin1String("ok")) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file is corrupt: the integrity check reports \"%1\".")
                        .arg(q.value(0).toString()));
    }
    return {};
}

SessionError SessionLoader::load(SessionData& out) {
    QSqlDatabase db = QSqlDatabase::database(connection_, false);
    QSqlQuery q(db);
    QString error;
    auto exec = [&](const char* sql) { return run(q, QString::fromLatin1(sql), error); };
    out.info.path = path_;
    // The read transaction gives one consistent picture while the collector keeps writing.
    exec("BEGIN");
    struct Commit {
        QSqlQuery& q;
        ~Commit() { q.exec(QStringLiteral("COMMIT")); }
    } commit{q};
    out.dataVersion = dataVersion();

    if (!exec("SELECT enum, code, name FROM enum_names")) {
        return queryError(QStringLiteral("enum names"), error);
    }
    while (q.next()) {
        out.enumNames[q.value(0).toString()][q.value(1).toInt()] = q.value(2).toString();
    }
    QHash<qint64, QString> strings;
    if (!exec("SELECT id, text FROM strings")) {
        return queryError(QStringLiteral("strings"), error);
    }
    while (q.next()) {
        strings.insert(i64(q, 0), q.value(1).toString());
    }
    auto text = [&](const QVariant& id) { return strings.value(id.toLongLong()); };

    if (!exec("SELECT format_version, created_wall_ns, pid, executable_id, argv_id, hostname_id, "
              "engine_version_id, configuration_id, start_ns, start_wall_ns, end_seq, end_ns, spooled, "
              "complete, "
              "last_sequence, events_stored, end_reason FROM session WHERE id = 1")) {
        return queryError(QStringLiteral("the session row"), error);
    }
    if (!q.next()) {
        return fail(SessionError::Kind::corrupt, QStringLiteral("The session file has no session row."));
    }
    SessionInfo& s = out.info;
    s.formatVersion = q.value(0).toInt();
    s.createdWallNs = i64(q, 1);
    s.pid = i64(q, 2);
    s.executable = text(q.value(3));
    s.argv = text(q.value(4));
    s.hostname = text(q.value(5));
    s.engineVersion = text(q.value(6));
    s.configuration = text(q.value(7));
    s.startNs = i64(q, 8);
    s.startWallNs = i64(q, 9);
    s.ended = !q.value(10).isNull();
    s.endNs = i64(q, 11);
    s.spooled = i64(q, 12);
    s.complete = q.value(13).toInt() != 0;
    s.lastSequence = i64(q, 14);
    s.eventsStored = i64(q, 15);
    s.endReason = q.value(16).toString();
    const bool v2 = s.formatVersion >= 2; // fidelity, async copies, exit status
    if (v2 && exec("SELECT exit_status, exit_signal FROM session WHERE id = 1") && q.next()) {
        s.hasExitStatus = !q.value(0).isNull();
        s.exitStatus = q.value(0).toInt();
        s.exitSignal = q.value(1).toInt();
    }
    // session.internal_errors exists in files of protocol-3 builds only (docs/session-schema.md).
    if (exec("SELECT count(*) FROM pragma_table_info('session') WHERE name = 'internal_errors'") &&
        q.next() && q.value(0).toInt() > 0 && exec("SELECT internal_errors FROM session WHERE id = 1") &&
        q.next() && !q.value(0).isNull()) {
        s.internalErrors = i64(q, 0);
    }
    if (exec("SELECT count(*), coalesce(sum(last_seq - first_seq + 1), 0) FROM sequence_gaps") && q.next()) {
        s.gapRanges = q.value(0).toInt();
        s.missingEvents = i64(q, 1);
    }

    if (!exec("SELECT handle, name_id, isa_id, device_type, node FROM agents ORDER BY seq")) {
        return queryError(QStringLiteral("agents"), error);
    }
    while (q.next()) {
        out.agents.push_back(
            {i64(q, 0), text(q.value(1)), text(q.value(2)), q.value(3).toInt(), q.value(4).toInt()});
    }

    // Dispatches with their snapshots. Format 2: read the compact rows directly (a dispatch, its
    // snapshot and passes 0-1 in one row; handles through `handles`), which is several times faster
    // than joining the documented views; passes 2+ come from `extra_passes`.
    QHash<qint64, qint64> handles;
    if (v2) {
        if (!exec("SELECT ref, handle FROM handles")) {
            return queryError(QStringLiteral("handles"), error);
        }
        while (q.next()) {
            handles.insert(i64(q, 0), i64(q, 1));
        }
    }
    const char* dispatchSql =
        v2 ? "SELECT id, seq, ts_ns, agent_ref, queue_ref, kernel_ref, kernel_name_id, grid_x, grid_y, "
             "grid_z, "
             "workgroup_x, workgroup_y, workgroup_z, decision, s_dseq, generation, regions, bytes, "
             "duration_ns, "
             "ok, failures, "
             "p0_dseq, ts_ns, p0_start, p0_start + p0_ticks, p0_restore_ns, coalesce(p0_bytes, bytes), "
             "coalesce(p0_regions, regions), p0_skips, coalesce(p0_fidelity, -1), "
             "p1_dseq, ts_ns, coalesce(p0_start, 0) + p1_start, coalesce(p0_start, 0) + p1_start + p1_ticks, "
             "p1_restore_ns, coalesce(p1_bytes, bytes), coalesce(p1_regions, regions), p1_skips, "
             "coalesce(p1_fidelity, -1) "
             "FROM dispatch_rows WHERE decision IS NOT NULL ORDER BY id"
           : "SELECT d.id, d.seq, d.ts_ns, d.agent, d.queue, d.kernel_object, d.kernel_name_id, d.grid_x, "
             "d.grid_y, d.grid_z, d.workgroup_x, d.workgroup_y, d.workgroup_z, d.decision, s.dispatch_id, "
             "s.generation, s.regions, s.bytes, s.duration_ns, s.ok, s.failures "
             "FROM dispatches d LEFT JOIN snapshots s ON s.dispatch_id = d.id ORDER BY d.id";
    if (!exec(dispatchSql)) {
        return queryError(QStringLiteral("dispatches"), error);
    }
    std::vector<std::pair<int, PassRow>> passes;
    QHash<qint64, int> kernelIndex; // kernel name id (or -object) -> index
    while (q.next()) {
        DispatchRow d;
        d.id = i64(q, 0);
        d.seq = i64(q, 1);
        d.tsNs = i64(q, 2);
        d.agent = v2 ? handles.value(i64(q, 3)) : i64(q, 3);
        d.queue = v2 ? handles.value(i64(q, 4)) : i64(q, 4);
        d.kernelObject = v2 ? handles.value(i64(q, 5)) : i64(q, 5);
        const qint64 nameId = i64(q, 6);
        const qint64 key = nameId != 0 ? nameId : -d.kernelObject - 1;
        auto k = kernelIndex.constFind(key);
        if (k == kernelIndex.cend()) {
            QString name = nameId != 0 ? strings.value(nameId) : QString();
            if (name.isEmpty()) {
                name = QStringLiteral("kernel@%1").arg(quint64(d.kernelObject), 0, 16);
            }
            k = kernelIndex.insert(key, int(out.kernelNames.size()));
            out.kernelNames.push_back(name);
        }
        d.kernel = *k;
        for (int i = 0; i < 3; ++i) {
            d.grid[i] = q.value(7 + i).toUInt();
            d.workgroup[i] = q.value(10 + i).toUInt();
        }
        d.decision = q.value(13).toInt();
        d.hasSnapshot = !q.value(14).isNull();
        if (d.hasSnapshot) {
            d.generation = i64(q, 15);
            d.snapshotRegions = q.value(16).toInt();
            d.snapshotBytes = i64(q, 17);
            d.snapshotNs = i64(q, 18);
            d.snapshotOk = q.value(19).toInt() != 0;
            d.snapshotFailures = q.value(20).toInt();
        }
        const int row = int(out.dispatches.size());
        if (v2) {
            for (int p = 0; p < 2; ++p) {
                const int c = 21 + 9 * p;
                if (!q.value(c).isNull()) {
                    passes.emplace_back(row, PassRow{d.id, p, 0, i64(q, c + 2), i64(q, c + 3), i64(q, c + 4),
                                                     i64(q, c + 5), q.value(c + 6).toInt(),
                                                     q.value(c + 7).toInt(), q.value(c + 8).toInt()});
                }
            }
        }
        out.dispatchRow.insert(d.id, row);
        out.dispatches.push_back(d);
    }
    const int rows = int(out.dispatches.size());

    // Passes (format 2: only those after the second), grouped by dispatch.
    if (!exec(v2 ? "SELECT dispatch_id, idx, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
                   "bytes_restored, skips, fidelity FROM extra_passes"
                 : "SELECT dispatch_id, idx, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
                   "bytes_restored, skips, -1 FROM passes")) {
        return queryError(QStringLiteral("passes"), error);
    }
    while (q.next()) {
        PassRow p{i64(q, 0), q.value(1).toInt(), i64(q, 2),          i64(q, 3),          i64(q, 4),
                  i64(q, 5), i64(q, 7),          q.value(6).toInt(), q.value(8).toInt(), q.value(9).toInt()};
        const int row = out.dispatchRow.value(p.dispatchId, -1);
        if (row >= 0) {
            passes.emplace_back(row, p);
        }
    }
    std::stable_sort(passes.begin(), passes.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.index < b.second.index;
    });
    out.passBegin.assign(rows + 1, 0);
    out.passes.reserve(passes.size());
    std::vector<qint64> ticks;
    for (std::size_t i = 0; i < passes.size();) {
        const int row = passes[i].first;
        DispatchRow& d = out.dispatches[row];
        ticks.clear();
        for (; i < passes.size() && passes[i].first == row; ++i) {
            const PassRow& p = passes[i].second;
            out.passes.push_back(p);
            ++out.passBegin[row + 1];
            d.restoreNs += p.restoreNs;
            if (p.endTick >= p.startTick && p.endTick > 0) {
                ticks.push_back(p.endTick - p.startTick);
            }
        }
        d.passes = out.passBegin[row + 1];
        if (!ticks.empty()) {
            std::sort(ticks.begin(), ticks.end());
            d.kernelMin = ticks.front();
            d.kernelMax = ticks.back();
            d.kernelMedian = ticks.size() % 2 ? ticks[ticks.size() / 2]
                                              : (ticks[ticks.size() / 2 - 1] + ticks[ticks.size() / 2]) / 2;
        }
    }
    for (int r = 0; r < rows; ++r) {
        out.passBegin[r + 1] += out.passBegin[r];
    }

    // Restore skips (pass >= 0) and snapshot failures (pass -1), grouped by dispatch.
    std::vector<std::pair<int, SkipRow>> skips;
    QHash<qint64, int> skippedByAllocation;
    if (!exec("SELECT dispatch_id, pass_idx, address, size, allocation_id, reason FROM restore_skips")) {
        return queryError(QStringLiteral("restore skips"), error);
    }
    while (q.next()) {
        SkipRow k{i64(q, 0), q.value(1).toInt(), i64(q, 2), i64(q, 3), i64(q, 4), q.value(5).toInt()};
        const int row = out.dispatchRow.value(k.dispatchId, -1);
        if (row >= 0) {
            ++out.dispatches[row].skips;
            skips.emplace_back(row, k);
        }
        if (k.allocationId != 0) {
            ++skippedByAllocation[k.allocationId];
        }
    }
    if (!exec("SELECT dispatch_id, address, size, allocation_id, reason FROM snapshot_failures")) {
        return queryError(QStringLiteral("snapshot failures"), error);
    }
    while (q.next()) {
        SkipRow k{i64(q, 0), -1, i64(q, 1), i64(q, 2), i64(q, 3), q.value(4).toInt()};
        const int row = out.dispatchRow.value(k.dispatchId, -1);
        if (row >= 0) {
            skips.emplace_back(row, k);
        }
    }
    // Regions a restore gave up (protocol 3; absent from files of earlier builds), listed with the skips.
    if (exec("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'restore_failures'") &&
        q.next() && q.value(0).toInt() > 0) {
        if (!exec("SELECT dispatch_id, pass_idx, address, size, allocation_id, kind, attempts FROM "
                  "restore_failures")) {
            return queryError(QStringLiteral("restore failures"), error);
        }
        while (q.next()) {
            SkipRow k{i64(q, 0), q.value(1).toInt(), i64(q, 2), i64(q, 3), i64(q, 4), q.value(5).toInt()};
            k.restoreFailure = true;
            k.attempts = q.value(6).toInt();
            const int row = out.dispatchRow.value(k.dispatchId, -1);
            if (row >= 0) {
                skips.emplace_back(row, k);
            }
        }
    }
    std::stable_sort(skips.begin(), skips.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.pass < b.second.pass;
    });
    out.skipBegin.assign(rows + 1, 0);
    out.skips.reserve(skips.size());
    for (const auto& [row, k] : skips) {
        out.skips.push_back(k);
        ++out.skipBegin[row + 1];
    }
    for (int r = 0; r < rows; ++r) {
        out.skipBegin[r + 1] += out.skipBegin[r];
    }

    // Fidelity mismatches (format 2), grouped by dispatch like the skips.
    std::vector<std::pair<int, SkipRow>> mismatches;
    if (v2) {
        if (!exec("SELECT dispatch_id, pass_idx, address, size, allocation_id FROM fidelity_mismatches")) {
            return queryError(QStringLiteral("fidelity mismatches"), error);
        }
        while (q.next()) {
            SkipRow k{i64(q, 0), q.value(1).toInt(), i64(q, 2), i64(q, 3), i64(q, 4), 0, true};
            const int row = out.dispatchRow.value(k.dispatchId, -1);
            if (row >= 0) {
                mismatches.emplace_back(row, k);
            }
        }
    }
    std::stable_sort(mismatches.begin(), mismatches.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.pass < b.second.pass;
    });
    out.mismatchBegin.assign(rows + 1, 0);
    out.mismatches.reserve(mismatches.size());
    for (const auto& [row, k] : mismatches) {
        out.mismatches.push_back(k);
        ++out.mismatchBegin[row + 1];
    }
    for (int r = 0; r < rows; ++r) {
        out.mismatchBegin[r + 1] += out.mismatchBegin[r];
    }

    if (!exec("SELECT id, alloc_seq, alloc_ns, address, size, agent, api, pool_flags, pointer_type, "
              "classification, free_seq, free_ns FROM allocations ORDER BY id")) {
        return queryError(QStringLiteral("allocations"), error);
    }
    while (q.next()) {
        AllocationRow a;
        a.id = i64(q, 0);
        a.allocSeq = i64(q, 1);
        a.allocNs = i64(q, 2);
        a.address = i64(q, 3);
        a.size = i64(q, 4);
        a.agent = i64(q, 5);
        a.api = q.value(6).toInt();
        a.poolFlags = q.value(7).toUInt();
        a.pointerType = q.value(8).toInt();
        a.classification = q.value(9).toInt();
        a.freeSeq = q.value(10).isNull() ? -1 : i64(q, 10);
        a.freeNs = q.value(11).isNull() ? -1 : i64(q, 11);
        a.skipped = skippedByAllocation.value(a.id);
        out.allocations.push_back(a);
    }

    if (!exec("SELECT seq, ts_ns, executable, agent, address, size, symbol_id, status FROM module_variables "
              "ORDER BY seq")) {
        return queryError(QStringLiteral("module variables"), error);
    }
    while (q.next()) {
        out.moduleVariables.push_back({i64(q, 0), i64(q, 1), i64(q, 2), i64(q, 3), i64(q, 4), i64(q, 5),
                                       text(q.value(6)), q.value(7).toInt()});
    }

    if (!exec("SELECT seq, ts_ns, dispatch_id, code, text_id FROM warnings ORDER BY seq")) {
        return queryError(QStringLiteral("warnings"), error);
    }
    while (q.next()) {
        out.warnings.push_back({i64(q, 0), i64(q, 1), i64(q, 2), q.value(3).toInt(), text(q.value(4))});
    }
    if (v2) {
        if (!exec(
                "SELECT seq, ts_ns, agent, dst, src, size, dispatch_id, waited_ns, outcome FROM async_copies "
                "ORDER BY seq")) {
            return queryError(QStringLiteral("async copies"), error);
        }
        while (q.next()) {
            out.asyncCopies.push_back({i64(q, 0), i64(q, 1), i64(q, 2), i64(q, 3), i64(q, 4), i64(q, 5),
                                       i64(q, 6), i64(q, 7), q.value(8).toInt()});
        }
    }
    return {};
}

SessionError SessionLoader::loadRegions(SessionData& out) {
    QSqlDatabase db = QSqlDatabase::database(connection_, false);
    QSqlQuery q(db);
    QString error;
    RegionColumns r;
    qint64 expected = 0;
    if (run(q, QStringLiteral("SELECT count(*) FROM inventory_regions"), error) && q.next()) {
        expected = i64(q, 0);
    }
    r.agent.reserve(expected);
    r.generation.reserve(expected);
    r.address.reserve(expected);
    r.size.reserve(expected);
    r.allocationId.reserve(expected);
    r.index.reserve(expected);
    r.kind.reserve(expected);
    if (!run(q,
             QStringLiteral("SELECT agent, generation, idx, address, size, allocation_id, kind FROM "
                            "inventory_regions ORDER BY agent, generation, idx"),
             error)) {
        return queryError(QStringLiteral("inventory regions"), error);
    }
    qint64 lastAgent = 0, lastGeneration = -1;
    int first = 0;
    auto close = [&] {
        const int n = int(r.address.size());
        if (n > first) {
            r.ranges.insert({lastAgent, lastGeneration}, {first, n - first});
        }
        first = n;
    };
    while (q.next()) {
        const qint64 agent = i64(q, 0), generation = i64(q, 1);
        if (agent != lastAgent || generation != lastGeneration) {
            close();
            lastAgent = agent;
            lastGeneration = generation;
        }
        r.agent.push_back(agent);
        r.generation.push_back(generation);
        r.index.push_back(q.value(2).toUInt());
        r.address.push_back(i64(q, 3));
        r.size.push_back(i64(q, 4));
        r.allocationId.push_back(i64(q, 5));
        r.kind.push_back(quint8(q.value(6).toUInt()));
    }
    close();
    if (q.lastError().isValid()) {
        return queryError(QStringLiteral("inventory regions"), q.lastError().text());
    }
    // How often each allocation was captured: snapshots per inventory, spread over its regions.
    QHash<QPair<qint64, qint64>, int> snapshotsPerInventory;
    for (const DispatchRow& d : out.dispatches) {
        if (d.hasSnapshot && d.snapshotOk) {
            ++snapshotsPerInventory[{d.agent, d.generation}];
        }
    }
    QHash<qint64, int> allocationRow;
    allocationRow.reserve(int(out.allocations.size()));
    for (int i = 0; i < int(out.allocations.size()); ++i) {
        allocationRow.insert(out.allocations[i].id, i);
        out.allocations[i].captured = 0;
    }
    for (auto it = snapshotsPerInventory.cbegin(); it != snapshotsPerInventory.cend(); ++it) {
        const auto range = r.ranges.value(it.key(), {0, 0});
        for (int i = range.first; i < range.first + range.second; ++i) {
            const int a = allocationRow.value(r.allocationId[i], -1);
            if (a >= 0) {
                out.allocations[a].captured += it.value();
            }
        }
    }
    out.regions = std::move(r);
    out.regionsLoaded = true;
    return {};
}

SessionSnapshot SessionLoader::loadAll(const QString& path, SessionError& error) {
    SessionLoader loader(path);
    error = loader.open();
    if (error.isError()) {
        return {};
    }
    auto* data = new SessionData;
    SessionSnapshot snapshot(data);
    error = loader.load(*data);
    if (!error.isError()) {
        error = loader.loadRegions(*data);
    }
    if (!error.isError()) {
        error = loader.quickCheck();
    }
    return error.isError() ? SessionSnapshot() : snapshot;
}

} // namespace rs::app
