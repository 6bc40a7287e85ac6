#include "model/SessionLoader.h"

#include <replayscope/ipc/session_store.hpp>

#include <QAtomicInt>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QtEndian>

#include <algorithm>
#include <functional>
#include <tuple>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

/// What a non-regular file is, for the refusal ("a FIFO (named pipe)").
QString fileTypeName(mode_t mode) {
    if (S_ISFIFO(mode)) {
        return QStringLiteral("a FIFO (named pipe)");
    }
    if (S_ISCHR(mode)) {
        return QStringLiteral("a character device");
    }
    if (S_ISBLK(mode)) {
        return QStringLiteral("a block device");
    }
    if (S_ISSOCK(mode)) {
        return QStringLiteral("a socket");
    }
    return QStringLiteral("not a regular file");
}

/// Default names of the format-4 enums, for a file whose `enum_names` lacks them.
void addDefaultNames(QHash<QString, QHash<int, QString>>& names) {
    if (!names.contains(QStringLiteral("snapshot_store"))) {
        names[QStringLiteral("snapshot_store")] = {
            {0, QStringLiteral("host")}, {1, QStringLiteral("device")}, {2, QStringLiteral("mixed")}};
    }
    if (!names.contains(QStringLiteral("chunk_hash_path"))) {
        names[QStringLiteral("chunk_hash_path")] = {
            {0, QStringLiteral("none")}, {1, QStringLiteral("device")}, {2, QStringLiteral("host")}};
    }
}

/// Code of a value stored either as the enum's code or as its name (the views' TEXT columns); -1 for
/// NULL or a name the file's `enum_names` does not list.
int codeOf(const QVariant& v, const QHash<int, QString>& names) {
    if (v.isNull() || !v.isValid()) {
        return -1;
    }
    const QString t = v.toString();
    bool number = false;
    const int n = t.toInt(&number);
    if (number) {
        return n;
    }
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (it.value() == t) {
            return it.key();
        }
    }
    return -1;
}

} // namespace

struct SessionLoader::Private {
    std::string nativePath; ///< path_ as given to openableSessionCopy (when a copy was made)
    QString copyPath;       ///< the checkpointed copy opened instead of path_, empty when none
    ~Private() {
        if (!copyPath.isEmpty()) {
            rs::ipc::removeSessionCopy(nativePath, QFile::encodeName(copyPath).toStdString());
        }
    }
};

SessionLoader::SessionLoader(const QString& path)
    : path_(path), p_(std::make_unique<Private>()),
      connection_(QStringLiteral("rs-session-%1").arg(g_connections.fetchAndAddRelaxed(1))) {}

SessionLoader::~SessionLoader() {
    closeDatabase(); // before Private removes a copy the connection still has open
}

void SessionLoader::closeDatabase() {
    if (opened_) {
        {
            QSqlDatabase db = QSqlDatabase::database(connection_, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(connection_);
        opened_ = false;
    }
}

QString SessionLoader::openedCopy() const {
    return p_->copyPath;
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
    auto err = [&](SessionError::Kind k, const QString& m) { return SessionError{k, path, m}; };
    const QByteArray native = QFile::encodeName(path);
    // stat(2) first: a FIFO or device must be refused before anything opens it (an open for reading
    // blocks on a FIFO without a writer, and reads from a device never end).
    struct stat st {};
    if (::stat(native.constData(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return err(SessionError::Kind::missing, QStringLiteral("The file does not exist."));
        }
        return err(
            SessionError::Kind::unreadable,
            QStringLiteral("The file cannot be examined: %1.").arg(QString::fromLocal8Bit(strerror(errno))));
    }
    if (S_ISDIR(st.st_mode)) {
        return err(SessionError::Kind::unreadable,
                   QStringLiteral("This is a directory, not a session file."));
    }
    if (!S_ISREG(st.st_mode)) {
        return err(SessionError::Kind::notRegular,
                   QStringLiteral("This is %1, not a session file; it was not opened.")
                       .arg(fileTypeName(st.st_mode)));
    }
    // SQLite opens the -wal beside the file too: it must be a regular file as well.
    struct stat wal {};
    bool hasWal = false;
    if (::stat((native + "-wal").constData(), &wal) == 0) {
        if (!S_ISREG(wal.st_mode)) {
            return err(SessionError::Kind::notRegular,
                       QStringLiteral("Its write-ahead log %1-wal is %2, not a regular file; the session was "
                                      "not opened.")
                           .arg(QFileInfo(path).fileName(), fileTypeName(wal.st_mode)));
        }
        hasWal = wal.st_size > 0;
    }
    // O_NONBLOCK and fstat: a file swapped for a FIFO after the stat above still cannot block the open.
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        return err(
            SessionError::Kind::unreadable,
            QStringLiteral("The file cannot be opened: %1.").arg(QString::fromLocal8Bit(strerror(errno))));
    }
    struct Close {
        int fd;
        ~Close() { ::close(fd); }
    } closeFd{fd};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        return err(SessionError::Kind::notRegular,
                   QStringLiteral("This is %1, not a session file.").arg(fileTypeName(st.st_mode)));
    }
    const qint64 size = st.st_size;
    if (size == 0) {
        return err(
            SessionError::Kind::truncated,
            QStringLiteral("The file is empty (0 bytes): the session was never written or was truncated."));
    }
    QByteArray header(100, '\0');
    qint64 got = 0;
    while (got < 100) {
        const ssize_t n = ::read(fd, header.data() + got, size_t(100 - got));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += n;
    }
    header.truncate(int(got));
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
    // With a WAL beside the file the header's page count may already describe pages that are still
    // in the WAL only (a checkpoint stopped by a full disk): SQLite judges such a file, not its size.
    if (!hasWal && pageSize >= 512 && validFor == changeCounter && pageCount > 0 &&
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
    // A WAL that needs recovery in a directory this reader cannot write (no -shm can be created) cannot
    // be read in place: the session writer's library then hands over a checkpointed temporary copy,
    // which holds the same committed rows (one implementation for the runner and the inspector).
    const std::string native = QFile::encodeName(path_).toStdString();
    std::string why;
    const std::string target = rs::ipc::openableSessionCopy(native, why);
    if (target.empty()) {
        return fail(SessionError::Kind::unreadable,
                    QStringLiteral("The session cannot be opened: %1").arg(QString::fromStdString(why)));
    }
    if (target != native) {
        p_->nativePath = native;
        p_->copyPath = QFile::decodeName(target.c_str());
    }
    return openDatabase(p_->copyPath.isEmpty() ? path_ : p_->copyPath);
}

SessionError SessionLoader::openDatabase(const QString& file) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection_);
    opened_ = true;
    db.setDatabaseName(file);
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
    version_ = version;
    if (version > kFormatVersion) {
        return fail(SessionError::Kind::newerSchema,
                    QStringLiteral("Session format version %1 is newer than this ReplayScope supports (%2): "
                                   "open it with a newer replayscope.")
                        .arg(version)
                        .arg(kFormatVersion));
    }
    if (version < 1) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file has no valid format version (user_version %1): it was "
                                   "never completely created.")
                        .arg(version));
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
    if (version >= 3) {
        required << QStringLiteral("processes");
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
    // Format 3 keys every row by its process; formats 1-2 read as process 1. "{p}" in a query is the
    // row's process: the column, or the constant 1.
    const bool v3 = version_ >= 3;
    const QString processColumn = v3 ? QStringLiteral("process") : QStringLiteral("1");
    // dispatch_rows order (process, id): in format 3 its rowid `key` = process << 40 | id
    // (docs/session-schema.md), so ordering by it needs no sort; format 2: the rowid `id`.
    const QString dispatchOrder = v3 ? QStringLiteral("key") : QStringLiteral("id");
    auto exec = [&](const char* sql) {
        return run(q,
                   QString::fromLatin1(sql)
                       .replace(QLatin1String("{p}"), processColumn)
                       .replace(QLatin1String("{order}"), dispatchOrder),
                   error);
    };
    out.info.path = path_;
    out.info.openedCopy = p_->copyPath;
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
    QHash<ProcessKey, QString> strings; // (process, id) -> text: ids are per process in format 3
    if (!exec("SELECT {p}, id, text FROM strings")) {
        return queryError(QStringLiteral("strings"), error);
    }
    while (q.next()) {
        strings.insert({q.value(0).toInt(), i64(q, 1)}, q.value(2).toString());
    }
    auto text = [&](int process, const QVariant& id) { return strings.value({process, id.toLongLong()}); };

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
    s.executable = text(1, q.value(3));
    s.argv = text(1, q.value(4));
    s.hostname = text(1, q.value(5));
    s.engineVersion = text(1, q.value(6));
    s.configuration = text(1, q.value(7));
    s.startNs = i64(q, 8);
    s.startWallNs = i64(q, 9);
    s.ended = !q.value(10).isNull();
    s.endNs = i64(q, 11);
    s.spooled = i64(q, 12);
    s.complete = q.value(13).toInt() != 0;
    s.lastSequence = i64(q, 14);
    s.eventsStored = i64(q, 15);
    s.endReason = q.value(16).toString();
    const bool v2 = s.formatVersion >= 2 || version_ >= 2; // fidelity, async copies, exit status
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
    QHash<int, QPair<int, qint64>> gapsByProcess; // process -> (ranges, missing numbers)
    if (exec("SELECT {p}, count(*), coalesce(sum(last_seq - first_seq + 1), 0) FROM sequence_gaps GROUP BY "
             "1")) {
        while (q.next()) {
            const int process = q.value(0).toInt();
            gapsByProcess.insert(process, {q.value(1).toInt(), i64(q, 2)});
            s.gapRanges += q.value(1).toInt();
            s.missingEvents += i64(q, 2);
        }
    }

    // Processes: the `processes` table (format 3), else the session row as process 1.
    if (v3) {
        if (exec("SELECT process_count, rejected_frames, missing_events FROM session WHERE id = 1") &&
            q.next()) {
            s.processCount = q.value(0).toInt();
            s.rejectedFrames = i64(q, 1);
            s.missingEvents = std::max(s.missingEvents, i64(q, 2));
        }
        if (!exec("SELECT process, instance, pid, parent_pid, executable_id, argv_id, hostname_id, "
                  "engine_version_id, configuration_id, start_ns, start_wall_ns, end_seq, end_ns, spooled, "
                  "internal_errors, exit_status, exit_signal, last_sequence, events_stored, missing_events, "
                  "rejected_frames, complete, end_reason FROM processes ORDER BY process")) {
            return queryError(QStringLiteral("processes"), error);
        }
        while (q.next()) {
            const int process = q.value(0).toInt();
            if (process < 1 || process > (1 << 20)) {
                continue; // not a process index this reader can place
            }
            while (out.processes.size() < process) {
                ProcessInfo placeholder;
                placeholder.process = int(out.processes.size()) + 1;
                out.processes.push_back(placeholder);
            }
            ProcessInfo& p = out.processes[process - 1];
            p.instance = q.value(1).toULongLong();
            p.pid = i64(q, 2);
            p.parentPid = i64(q, 3);
            p.executable = text(process, q.value(4));
            p.argv = text(process, q.value(5));
            p.hostname = text(process, q.value(6));
            p.engineVersion = text(process, q.value(7));
            p.configuration = text(process, q.value(8));
            p.startNs = i64(q, 9);
            p.startWallNs = i64(q, 10);
            p.ended = !q.value(11).isNull();
            p.endNs = i64(q, 12);
            p.spooled = i64(q, 13);
            p.internalErrors = q.value(14).isNull() ? -1 : i64(q, 14);
            p.hasExitStatus = !q.value(15).isNull();
            p.exitStatus = p.hasExitStatus ? q.value(15).toInt() : -1;
            p.exitSignal = q.value(16).toInt();
            p.lastSequence = i64(q, 17);
            p.eventsStored = i64(q, 18);
            p.missingEvents = std::max(i64(q, 19), gapsByProcess.value(process).second);
            p.rejectedFrames = i64(q, 20);
            p.complete = q.value(21).toInt() != 0;
            p.endReason = q.value(22).toString();
        }
        // Process 1 describes the session when the session row's own texts are absent.
        if (!out.processes.isEmpty()) {
            const ProcessInfo& first = out.processes.front();
            if (s.executable.isEmpty() && s.argv.isEmpty()) {
                s.executable = first.executable;
                s.argv = first.argv;
            }
            if (s.hostname.isEmpty()) {
                s.hostname = first.hostname;
            }
            if (s.engineVersion.isEmpty()) {
                s.engineVersion = first.engineVersion;
            }
            if (s.configuration.isEmpty()) {
                s.configuration = first.configuration;
            }
            if (s.pid == 0) {
                s.pid = first.pid;
            }
        }
        s.processCount = std::max(s.processCount, int(out.processes.size()));
    } else {
        ProcessInfo p;
        p.pid = s.pid;
        p.executable = s.executable;
        p.argv = s.argv;
        p.hostname = s.hostname;
        p.engineVersion = s.engineVersion;
        p.configuration = s.configuration;
        p.startNs = s.startNs;
        p.startWallNs = s.startWallNs;
        p.ended = s.ended;
        p.endNs = s.endNs;
        p.spooled = s.spooled;
        p.internalErrors = s.internalErrors;
        p.hasExitStatus = s.hasExitStatus;
        p.exitStatus = s.hasExitStatus ? s.exitStatus : -1;
        p.exitSignal = s.exitSignal;
        p.lastSequence = s.lastSequence;
        p.eventsStored = s.eventsStored;
        p.missingEvents = s.missingEvents;
        p.complete = s.complete;
        p.endReason = s.endReason;
        out.processes.push_back(p);
        s.processCount = 1;
    }
    // A row of a process the table does not list (a writer stopped between the two) still gets one.
    auto ensureProcess = [&](int process) {
        if (process < 1 || process > (1 << 20)) {
            return 1;
        }
        while (out.processes.size() < process) {
            ProcessInfo placeholder;
            placeholder.process = int(out.processes.size()) + 1;
            out.processes.push_back(placeholder);
        }
        return process;
    };

    if (!exec("SELECT {p}, handle, name_id, isa_id, device_type, node FROM agents ORDER BY {p}, seq")) {
        return queryError(QStringLiteral("agents"), error);
    }
    // One entry per handle: processes of one run see the same agents (a handle repeats across processes).
    QSet<qint64> agentHandles;
    while (q.next()) {
        const int process = q.value(0).toInt();
        const qint64 handle = i64(q, 1);
        if (agentHandles.contains(handle)) {
            continue;
        }
        agentHandles.insert(handle);
        out.agents.push_back({process, handle, text(process, q.value(2)), text(process, q.value(3)),
                              q.value(4).toInt(), q.value(5).toInt()});
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
             "coalesce(p1_fidelity, -1), {p} "
             "FROM dispatch_rows WHERE decision IS NOT NULL ORDER BY {order}"
           : "SELECT d.id, d.seq, d.ts_ns, d.agent, d.queue, d.kernel_object, d.kernel_name_id, d.grid_x, "
             "d.grid_y, d.grid_z, d.workgroup_x, d.workgroup_y, d.workgroup_z, d.decision, s.dispatch_id, "
             "s.generation, s.regions, s.bytes, s.duration_ns, s.ok, s.failures, 1 "
             "FROM dispatches d LEFT JOIN snapshots s ON s.dispatch_id = d.id ORDER BY d.id";
    const int processAt = v2 ? 39 : 21;
    if (!exec(dispatchSql)) {
        return queryError(QStringLiteral("dispatches"), error);
    }
    std::vector<std::pair<int, PassRow>> passes;
    QHash<ProcessKey, int> kernelIndex; // (process, kernel name id or -object) -> index
    QHash<QString, int> kernelByName;   // one entry per kernel name across processes
    out.dispatchRow.reserve(1024);
    while (q.next()) {
        DispatchRow d;
        d.process = ensureProcess(q.value(processAt).toInt());
        d.id = i64(q, 0);
        d.seq = i64(q, 1);
        d.tsNs = i64(q, 2);
        d.agent = v2 ? handles.value(i64(q, 3)) : i64(q, 3);
        d.queue = v2 ? handles.value(i64(q, 4)) : i64(q, 4);
        d.kernelObject = v2 ? handles.value(i64(q, 5)) : i64(q, 5);
        const qint64 nameId = i64(q, 6);
        const ProcessKey key{d.process, nameId != 0 ? nameId : -d.kernelObject - 1};
        auto k = kernelIndex.constFind(key);
        if (k == kernelIndex.cend()) {
            QString name = nameId != 0 ? strings.value({d.process, nameId}) : QString();
            if (name.isEmpty()) {
                name = QStringLiteral("kernel@%1").arg(quint64(d.kernelObject), 0, 16);
            }
            auto byName = kernelByName.constFind(name);
            if (byName == kernelByName.cend()) {
                byName = kernelByName.insert(name, int(out.kernelNames.size()));
                out.kernelNames.push_back(name);
            }
            k = kernelIndex.insert(key, *byName);
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
                    PassRow pass{d.process,
                                 d.id,
                                 p,
                                 0,
                                 i64(q, c + 2),
                                 i64(q, c + 3),
                                 i64(q, c + 4),
                                 i64(q, c + 5),
                                 q.value(c + 6).toInt(),
                                 q.value(c + 7).toInt(),
                                 q.value(c + 8).toInt()};
                    passes.emplace_back(row, pass);
                }
            }
        }
        out.dispatchRow.insert({d.process, d.id}, row);
        ProcessInfo& owner = out.processes[d.process - 1];
        ++owner.dispatches;
        ++(d.decision == 0 ? owner.replayed : owner.declined);
        out.dispatches.push_back(d);
    }
    const int rows = int(out.dispatches.size());
    auto rowOf = [&](int process, qint64 dispatchId) {
        return out.dispatchRow.value({process, dispatchId}, -1);
    };

    // Passes (format 2: only those after the second), grouped by dispatch.
    if (!exec(v2 ? "SELECT {p}, dispatch_id, idx, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
                   "bytes_restored, skips, fidelity FROM extra_passes"
                 : "SELECT {p}, dispatch_id, idx, ts_ns, start_tick, end_tick, restore_ns, regions_restored, "
                   "bytes_restored, skips, -1 FROM passes")) {
        return queryError(QStringLiteral("passes"), error);
    }
    while (q.next()) {
        PassRow p{q.value(0).toInt(), i64(q, 1),          q.value(2).toInt(), i64(q, 3),
                  i64(q, 4),          i64(q, 5),          i64(q, 6),          i64(q, 8),
                  q.value(7).toInt(), q.value(9).toInt(), q.value(10).toInt()};
        const int row = rowOf(p.process, p.dispatchId);
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
    QHash<ProcessKey, int> skippedByAllocation;
    if (!exec("SELECT {p}, dispatch_id, pass_idx, address, size, allocation_id, reason FROM restore_skips")) {
        return queryError(QStringLiteral("restore skips"), error);
    }
    while (q.next()) {
        SkipRow k{q.value(0).toInt(), i64(q, 1), q.value(2).toInt(), i64(q, 3),
                  i64(q, 4),          i64(q, 5), q.value(6).toInt()};
        const int row = rowOf(k.process, k.dispatchId);
        if (row >= 0) {
            ++out.dispatches[row].skips;
            skips.emplace_back(row, k);
        }
        if (k.allocationId != 0) {
            ++skippedByAllocation[{k.process, k.allocationId}];
        }
    }
    if (!exec("SELECT {p}, dispatch_id, address, size, allocation_id, reason FROM snapshot_failures")) {
        return queryError(QStringLiteral("snapshot failures"), error);
    }
    while (q.next()) {
        SkipRow k{q.value(0).toInt(), i64(q, 1), -1, i64(q, 2), i64(q, 3), i64(q, 4), q.value(5).toInt()};
        const int row = rowOf(k.process, k.dispatchId);
        if (row >= 0) {
            skips.emplace_back(row, k);
        }
    }
    // Regions a restore gave up (protocol 3; absent from files of earlier builds), listed with the skips.
    if (exec("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'restore_failures'") &&
        q.next() && q.value(0).toInt() > 0) {
        if (!exec("SELECT {p}, dispatch_id, pass_idx, address, size, allocation_id, kind, attempts FROM "
                  "restore_failures")) {
            return queryError(QStringLiteral("restore failures"), error);
        }
        while (q.next()) {
            SkipRow k{q.value(0).toInt(), i64(q, 1), q.value(2).toInt(), i64(q, 3),
                      i64(q, 4),          i64(q, 5), q.value(6).toInt()};
            k.restoreFailure = true;
            k.attempts = q.value(7).toInt();
            const int row = rowOf(k.process, k.dispatchId);
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
        if (!exec(
                "SELECT {p}, dispatch_id, pass_idx, address, size, allocation_id FROM fidelity_mismatches")) {
            return queryError(QStringLiteral("fidelity mismatches"), error);
        }
        while (q.next()) {
            SkipRow k{
                q.value(0).toInt(), i64(q, 1), q.value(2).toInt(), i64(q, 3), i64(q, 4), i64(q, 5), 0, true};
            const int row = rowOf(k.process, k.dispatchId);
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

    if (SessionError e = loadStoresAndRestores(out, rowOf); e.isError()) {
        return e;
    }

    if (!exec("SELECT {p}, id, alloc_seq, alloc_ns, address, size, agent, api, pool_flags, pointer_type, "
              "classification, free_seq, free_ns FROM allocations ORDER BY {p}, id")) {
        return queryError(QStringLiteral("allocations"), error);
    }
    while (q.next()) {
        AllocationRow a;
        a.process = ensureProcess(q.value(0).toInt());
        a.id = i64(q, 1);
        a.allocSeq = i64(q, 2);
        a.allocNs = i64(q, 3);
        a.address = i64(q, 4);
        a.size = i64(q, 5);
        a.agent = i64(q, 6);
        a.api = q.value(7).toInt();
        a.poolFlags = q.value(8).toUInt();
        a.pointerType = q.value(9).toInt();
        a.classification = q.value(10).toInt();
        a.freeSeq = q.value(11).isNull() ? -1 : i64(q, 11);
        a.freeNs = q.value(12).isNull() ? -1 : i64(q, 12);
        a.skipped = skippedByAllocation.value({a.process, a.id});
        out.allocations.push_back(a);
    }

    if (!exec("SELECT {p}, seq, ts_ns, executable, agent, address, size, symbol_id, status FROM "
              "module_variables ORDER BY {p}, seq")) {
        return queryError(QStringLiteral("module variables"), error);
    }
    while (q.next()) {
        const int process = ensureProcess(q.value(0).toInt());
        out.moduleVariables.push_back({process, i64(q, 1), i64(q, 2), i64(q, 3), i64(q, 4), i64(q, 5),
                                       i64(q, 6), text(process, q.value(7)), q.value(8).toInt()});
    }

    if (!exec("SELECT {p}, seq, ts_ns, dispatch_id, code, text_id FROM warnings ORDER BY {p}, seq")) {
        return queryError(QStringLiteral("warnings"), error);
    }
    while (q.next()) {
        const int process = ensureProcess(q.value(0).toInt());
        out.warnings.push_back(
            {process, i64(q, 1), i64(q, 2), i64(q, 3), q.value(4).toInt(), text(process, q.value(5))});
    }
    if (v2) {
        if (!exec("SELECT {p}, seq, ts_ns, agent, dst, src, size, dispatch_id, waited_ns, outcome FROM "
                  "async_copies ORDER BY {p}, seq")) {
            return queryError(QStringLiteral("async copies"), error);
        }
        while (q.next()) {
            out.asyncCopies.push_back({ensureProcess(q.value(0).toInt()), i64(q, 1), i64(q, 2), i64(q, 3),
                                       i64(q, 4), i64(q, 5), i64(q, 6), i64(q, 7), i64(q, 8),
                                       q.value(9).toInt()});
        }
    }
    return {};
}

QStringList SessionLoader::columns(const QString& table) {
    QSqlQuery q(QSqlDatabase::database(connection_, false));
    QString error;
    QStringList out;
    if (run(q, QStringLiteral("SELECT name FROM pragma_table_info('%1')").arg(table), error)) {
        while (q.next()) {
            out << q.value(0).toString();
        }
    }
    return out;
}

SessionError SessionLoader::loadStoresAndRestores(SessionData& out,
                                                  const std::function<int(int, qint64)>& rowOf) {
    // Format 4 (docs/session-schema.md): the snapshot's stores and chunks in the `snapshots` view, one
    // `restores` row per restore, `restore_misses` and `snapshot_placements`. Found by their columns,
    // so that a file without them (formats 1-3) reads as before and shows "—".
    QSqlQuery q(QSqlDatabase::database(connection_, false));
    q.setForwardOnly(true);
    QString error;
    const bool v3 = version_ >= 3;
    const QString p = v3 ? QStringLiteral("process") : QStringLiteral("1");
    addDefaultNames(out.enumNames);
    const QHash<int, QString> storeNames = out.enumNames.value(QStringLiteral("snapshot_store"));
    const QHash<int, QString> pathNames = out.enumNames.value(QStringLiteral("chunk_hash_path"));
    // The dispatch column is `dispatch_id` as in every other table (`dispatch` accepted too).
    auto dispatchColumn = [](const QStringList& c) {
        return c.contains(QLatin1String("dispatch_id")) ? QStringLiteral("dispatch_id")
                                                        : QStringLiteral("dispatch");
    };
    // The physical `snapshot_stores` rows (codes) when the file has them, else the `snapshots` view (names).
    const QStringList stores = columns(QStringLiteral("snapshot_stores"));
    const QStringList snap = stores.isEmpty() ? columns(QStringLiteral("snapshots")) : stores;
    if (snap.contains(QLatin1String("store")) && snap.contains(QLatin1String("host_bytes"))) {
        const QString sql =
            QStringLiteral("SELECT %1, %2, host_bytes, device_bytes, hash_ns, total_chunks, store, "
                           "hash_path, host_pinned FROM %3")
                .arg(p, dispatchColumn(snap),
                     stores.isEmpty() ? QStringLiteral("snapshots") : QStringLiteral("snapshot_stores"));
        if (!run(q, sql, error)) {
            return queryError(QStringLiteral("snapshot stores"), error);
        }
        auto orMinus = [&](int c) { return q.value(c).isNull() ? qint64(-1) : q.value(c).toLongLong(); };
        while (q.next()) {
            const int row = rowOf(q.value(0).toInt(), q.value(1).toLongLong());
            if (row < 0) {
                continue;
            }
            DispatchRow& d = out.dispatches[std::size_t(row)];
            d.hostBytes = orMinus(2);
            d.deviceBytes = orMinus(3);
            d.snapshotHashNs = orMinus(4);
            d.snapshotChunks = orMinus(5);
            d.store = codeOf(q.value(6), storeNames);
            d.hashPath = codeOf(q.value(7), pathNames);
            d.hostPinned = q.value(8).isNull() ? -1 : (q.value(8).toInt() != 0);
        }
    }
    const int rows = int(out.dispatches.size());
    out.restoreBegin.assign(std::size_t(rows) + 1, 0);
    const QStringList rest = columns(QStringLiteral("restores"));
    out.hasRestoreRecords = !rest.isEmpty();
    std::vector<std::pair<int, RestoreRow>> restores;
    if (out.hasRestoreRecords) {
        const QString finalColumn = rest.contains(QLatin1String("final")) ? QStringLiteral("\"final\"")
                                                                          : QStringLiteral("final_restore");
        const QString sql =
            QStringLiteral(
                "SELECT %1, %2, pass_index, %3, restored_bytes_host, restored_bytes_device, hash_ns, "
                "restore_ns, regions_restored, dirty_chunks, total_chunks, missed_chunks FROM restores")
                .arg(p, dispatchColumn(rest), finalColumn);
        if (!run(q, sql, error)) {
            return queryError(QStringLiteral("restores"), error);
        }
        while (q.next()) {
            RestoreRow r;
            r.process = q.value(0).toInt();
            r.dispatchId = q.value(1).toLongLong();
            r.passIndex = q.value(2).toInt();
            r.finalRestore = q.value(3).toInt() != 0;
            r.bytesHost = q.value(4).toLongLong();
            r.bytesDevice = q.value(5).toLongLong();
            r.hashNs = q.value(6).toLongLong();
            r.restoreNs = q.value(7).toLongLong();
            r.regionsRestored = q.value(8).toInt();
            r.dirtyChunks = q.value(9).toInt();
            r.totalChunks = q.value(10).toInt();
            r.missedChunks = q.value(11).toInt();
            const int row = rowOf(r.process, r.dispatchId);
            if (row >= 0) {
                restores.emplace_back(row, r);
            }
        }
    }
    std::stable_sort(restores.begin(), restores.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first, a.second.finalRestore, a.second.passIndex) <
               std::tie(b.first, b.second.finalRestore, b.second.passIndex);
    });
    out.restores.reserve(restores.size());
    for (const auto& [row, r] : restores) {
        DispatchRow& d = out.dispatches[std::size_t(row)];
        if (d.restores++ == 0) {
            d.movedHost = d.movedDevice = d.dirtyChunks = d.comparedChunks = d.missedChunks =
                d.restoreHashNs = 0;
            d.restoreNs = 0; // the restore records (the final restore included) replace the passes' sum
        }
        d.restoreNs += r.restoreNs;
        d.movedHost += r.bytesHost;
        d.movedDevice += r.bytesDevice;
        d.dirtyChunks += r.dirtyChunks;
        d.comparedChunks += r.totalChunks;
        d.missedChunks += r.missedChunks;
        d.restoreHashNs += r.hashNs;
        if (!r.finalRestore) { // the restore before pass passIndex
            for (int i = out.passBegin[std::size_t(row)]; i < out.passBegin[std::size_t(row) + 1]; ++i) {
                if (out.passes[std::size_t(i)].index == r.passIndex) {
                    out.passes[std::size_t(i)].restore = int(out.restores.size());
                }
            }
        }
        out.restores.push_back(r);
        ++out.restoreBegin[std::size_t(row) + 1];
    }
    for (int r = 0; r < rows; ++r) {
        out.restoreBegin[std::size_t(r) + 1] += out.restoreBegin[std::size_t(r)];
    }
    for (const DispatchRow& d : out.dispatches) {
        if (d.restores == 0 || d.process < 1 || d.process > out.processes.size()) {
            continue;
        }
        ProcessInfo& owner = out.processes[d.process - 1];
        if (owner.restores == 0) {
            owner.fullRestoreBytes = owner.movedHost = owner.movedDevice = 0;
        }
        owner.restores += d.restores;
        owner.fullRestoreBytes += d.fullRestoreBytes();
        owner.movedHost += d.movedHost;
        owner.movedDevice += d.movedDevice;
    }

    const QStringList misses = columns(QStringLiteral("restore_misses"));
    if (!misses.isEmpty()) {
        const QString sql = QStringLiteral("SELECT %1, %2, pass_index, address, size, allocation_id FROM "
                                           "restore_misses ORDER BY 1, 2, 3, 4")
                                .arg(p, dispatchColumn(misses));
        if (!run(q, sql, error)) {
            return queryError(QStringLiteral("restore misses"), error);
        }
        while (q.next()) {
            out.restoreMisses.push_back({q.value(0).toInt(), q.value(1).toLongLong(), q.value(2).toInt(),
                                         q.value(3).toLongLong(), q.value(4).toLongLong(),
                                         q.value(5).toLongLong()});
        }
    }
    const QStringList placements = columns(QStringLiteral("snapshot_placements"));
    if (!placements.isEmpty()) {
        const QString sql =
            QStringLiteral("SELECT %1, %2, address, size, store FROM snapshot_placements ORDER BY "
                           "1, 2, 3")
                .arg(p, dispatchColumn(placements));
        if (!run(q, sql, error)) {
            return queryError(QStringLiteral("snapshot placements"), error);
        }
        while (q.next()) {
            out.placements.push_back({q.value(0).toInt(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                                      q.value(3).toLongLong(), codeOf(q.value(4), storeNames)});
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
    r.process.reserve(expected);
    r.agent.reserve(expected);
    r.generation.reserve(expected);
    r.address.reserve(expected);
    r.size.reserve(expected);
    r.allocationId.reserve(expected);
    r.index.reserve(expected);
    r.kind.reserve(expected);
    // The process column only when there are several: a million rows each fetch one value fewer.
    const bool perProcess = version_ >= 3 && out.processes.size() > 1;
    const QString order = version_ >= 3 ? QStringLiteral("process, agent, generation, idx")
                                        : QStringLiteral("agent, generation, idx");
    const QString sql =
        QStringLiteral("SELECT %1agent, generation, idx, address, size, allocation_id, kind FROM "
                       "inventory_regions ORDER BY %2")
            .arg(perProcess ? QStringLiteral("process, ") : QString(), order);
    if (!run(q, sql, error)) {
        return queryError(QStringLiteral("inventory regions"), error);
    }
    const int c = perProcess ? 1 : 0;
    InventoryKey last{0, 0, -1};
    int first = 0;
    auto close = [&] {
        const int n = int(r.address.size());
        if (n > first) {
            r.ranges.insert(last, {first, n - first});
        }
        first = n;
    };
    while (q.next()) {
        const InventoryKey key{perProcess ? q.value(0).toInt() : 1, i64(q, c), i64(q, c + 1)};
        if (!(key == last)) {
            close();
            last = key;
        }
        r.process.push_back(key.process);
        r.agent.push_back(key.agent);
        r.generation.push_back(key.generation);
        r.index.push_back(q.value(c + 2).toUInt());
        r.address.push_back(i64(q, c + 3));
        r.size.push_back(i64(q, c + 4));
        r.allocationId.push_back(i64(q, c + 5));
        r.kind.push_back(quint8(q.value(c + 6).toUInt()));
    }
    close();
    if (q.lastError().isValid()) {
        return queryError(QStringLiteral("inventory regions"), q.lastError().text());
    }
    // How often each allocation was captured: snapshots per inventory, spread over its regions.
    QHash<InventoryKey, int> snapshotsPerInventory;
    for (const DispatchRow& d : out.dispatches) {
        if (d.hasSnapshot && d.snapshotOk) {
            ++snapshotsPerInventory[{d.process, d.agent, d.generation}];
        }
    }
    QHash<ProcessKey, int> allocationRow;
    allocationRow.reserve(int(out.allocations.size()));
    for (int i = 0; i < int(out.allocations.size()); ++i) {
        allocationRow.insert({out.allocations[i].process, out.allocations[i].id}, i);
        out.allocations[i].captured = 0;
    }
    for (auto it = snapshotsPerInventory.cbegin(); it != snapshotsPerInventory.cend(); ++it) {
        const auto range = r.ranges.value(it.key(), {0, 0});
        for (int i = range.first; i < range.first + range.second; ++i) {
            const int a = allocationRow.value({r.process[i], r.allocationId[i]}, -1);
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
