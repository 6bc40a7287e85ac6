// SPDX-License-Identifier: MIT
#include "model/SessionLoader.h"

#include "model/ImplausibleValues.h"
#include "model/reading/ReadContext.h"
#include "model/reading/Readers.h"
#include "model/reading/RowCursor.h"

#include <replayscope/session/file_check.h>
#include <replayscope/session/format.h>
#include <replayscope/session/read_queries.h>
#include <replayscope/session/schema_check.h>

#include <QAtomicInt>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

#include <sqlite3.h>

#include <chrono>
#include <string_view>

#include <cstring>

namespace rs::app {

namespace {

QAtomicInt g_connections;

/// Runs `sql` forward-only; false with `error` set on failure.
bool run(QSqlQuery& q, std::string_view sql, QString& error) {
    q.setForwardOnly(true);
    if (!q.exec(QString::fromLatin1(sql.data(), qsizetype(sql.size())))) {
        error = q.lastError().text();
        return false;
    }
    return true;
}

} // namespace

struct SessionLoader::Private {
    /// Qt SQL's connection gets the readers' time budget too (RowCursor::Budget): a progress handler
    /// interrupts its statements once an entry point (open, load, dataVersion, quickCheck) has run longer,
    /// so a hostile file (a view in a table's place, a huge integrity check) cannot hold the reader.
    qint64 budgetMs = RowCursor::readBudget().milliseconds;
    qint64 armedMs = 0; ///< steady-clock ms at the start of the current entry point; 0: none
    bool interrupted = false;
    static qint64 nowMs() {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    void arm() {
        armedMs = nowMs();
        interrupted = false;
    }
    static int progress(void* self) {
        auto* p = static_cast<Private*>(self);
        if (p->armedMs > 0 && nowMs() - p->armedMs > p->budgetMs) {
            p->interrupted = true;
            return 1;
        }
        return 0;
    }
    std::string nativePath;         ///< path_ as given to openable_session_copy (when a copy was made)
    QString copyPath;               ///< the checkpointed copy opened instead of path_, empty when none
    rs::session::FileLayout layout; ///< what the last load() found (loadDetails() reads with it)
    sqlite3* rows = nullptr;        ///< the readers' connection to the same file (model/reading/RowCursor.h)
    void closeRows() {
        if (rows != nullptr) {
            sqlite3_close_v2(rows);
            rows = nullptr;
        }
    }
    ~Private() {
        closeRows();
        if (!copyPath.isEmpty()) {
            rs::session::remove_session_copy(nativePath, QFile::encodeName(copyPath).toStdString());
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
    p_->closeRows();
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
    return readError(path_, what, driverText);
}

SessionError SessionLoader::checkFile(const QString& path) {
    // The session format's one file check (its SQLite-free half: the database checks follow in
    // openDatabase() on the connection the loader reads through), worded for the inspector.
    const rs::session::FileCheck c = rs::session::check_session_header(QFile::encodeName(path).toStdString());
    auto err = [&](SessionError::Kind k, const QString& m) { return SessionError{k, path, m}; };
    const QString kind = QString::fromStdString(c.file_kind);
    const QString why = QString::fromLocal8Bit(strerror(c.error_number));
    using K = rs::session::FileCheckKind;
    switch (c.kind) {
    case K::ok:
        return {};
    case K::missing:
        return err(SessionError::Kind::missing, QStringLiteral("The file does not exist."));
    case K::directory:
        return err(SessionError::Kind::unreadable,
                   QStringLiteral("This is a directory, not a session file."));
    case K::not_regular:
        if (c.wal_refused) {
            return err(SessionError::Kind::notRegular,
                       QStringLiteral("Its write-ahead log %1-wal is %2, not a regular file; the session was "
                                      "not opened.")
                           .arg(QFileInfo(path).fileName(), kind));
        }
        return err(SessionError::Kind::notRegular,
                   QStringLiteral("This is %1, not a session file; it was not opened.").arg(kind));
    case K::empty:
        return err(
            SessionError::Kind::truncated,
            QStringLiteral("The file is empty (0 bytes): the session was never written or was truncated."));
    case K::foreign_file:
        return err(
            SessionError::Kind::foreign,
            QStringLiteral("This is not a SQLite database (foreign file), so not a ReplayScope session."));
    case K::truncated:
        if (c.announced_bytes == 0) {
            return err(SessionError::Kind::truncated,
                       QStringLiteral("The file is truncated: only %1 bytes, less than a SQLite header.")
                           .arg(c.file_size));
        }
        return err(
            SessionError::Kind::truncated,
            QStringLiteral("The file is truncated: %1 bytes of the %2 its header announces (%3 pages).")
                .arg(c.file_size)
                .arg(c.announced_bytes)
                .arg(c.announced_pages));
    case K::unreadable:
    default:
        return err(
            SessionError::Kind::unreadable,
            c.error_number != 0
                ? QStringLiteral("The file cannot be opened: %1.").arg(why)
                : QStringLiteral("The file cannot be opened: %1").arg(QString::fromStdString(c.message)));
    }
}

SessionError SessionLoader::open() {
    p_->arm();
    if (SessionError e = checkFile(path_); e.isError()) {
        return e;
    }
    // A WAL that needs recovery in a directory this reader cannot write (no -shm can be created) cannot
    // be read in place: the session writer's library then hands over a checkpointed temporary copy,
    // which holds the same committed rows (one implementation for the runner and the inspector).
    const std::string native = QFile::encodeName(path_).toStdString();
    std::string why;
    const std::string target = rs::session::openable_session_copy(native, why);
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
    if (const QVariant handle = db.driver()->handle();
        handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0) {
        if (sqlite3* h = *static_cast<sqlite3* const*>(handle.constData())) {
            sqlite3_progress_handler(h, 10000, &Private::progress, p_.get());
        }
    }
    QSqlQuery q(db);
    QString error;
    if (!run(q, rs::session::application_id_query(), error) || !q.next()) {
        return queryError(QStringLiteral("the file header"), error);
    }
    const qint64 appId = q.value(0).toLongLong();
    if (appId != rs::session::kApplicationId) {
        return fail(SessionError::Kind::foreignSqlite,
                    QStringLiteral("This is a SQLite database of another application (application_id 0x%1, a "
                                   "session file has 0x52534442 \"RSDB\"): foreign SQLite database.")
                        .arg(quint32(appId), 8, 16, QLatin1Char('0')));
    }
    if (!run(q, rs::session::user_version_query(), error) || !q.next()) {
        return queryError(QStringLiteral("the format version"), error);
    }
    const int version = q.value(0).toInt();
    version_ = version;
    p_->layout.format_version = version;
    if (version > rs::session::kFormatVersion) {
        return fail(SessionError::Kind::newerSchema,
                    QStringLiteral("Session format version %1 is newer than this ReplayScope supports (%2): "
                                   "open it with a newer replayscope.")
                        .arg(version)
                        .arg(rs::session::kFormatVersion));
    }
    if (version < 1) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file has no valid format version (user_version %1): it was "
                                   "never completely created.")
                        .arg(version));
    }
    // The rows come through SQLite's C API on a second read-only connection with the same options (Qt
    // SQL's per-value QVariant conversion cost more than the queries themselves). NOMUTEX: the connection is
    // this loader's, used by its thread only, so SQLite's lock around every sqlite3_column_* call is left
    // out.
    const int rc = sqlite3_open_v2(QFile::encodeName(file).constData(), &p_->rows,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const QString why = p_->rows != nullptr ? QString::fromUtf8(sqlite3_errmsg(p_->rows))
                                                : QString::fromUtf8(sqlite3_errstr(rc));
        p_->closeRows();
        return queryError(QStringLiteral("the file header"), why);
    }
    sqlite3_busy_timeout(p_->rows, 2000);
    // The schema part of the session file check (the same as check_session_file's): every object the
    // declared format requires, of its type (a view or trigger in a table's place could make a read run
    // forever), before any row is read.
    const rs::session::SchemaCheck schema = rs::session::check_session_schema(p_->rows, version);
    if (!schema.ok) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file is corrupt or incomplete: %1.")
                        .arg(QString::fromStdString(schema.message)));
    }
    return {};
}

qint64 SessionLoader::dataVersion() {
    p_->arm();
    QSqlQuery q(QSqlDatabase::database(connection_, false));
    QString error;
    if (!run(q, rs::session::data_version_query(), error) || !q.next()) {
        return -1;
    }
    return q.value(0).toLongLong();
}

SessionError SessionLoader::quickCheck() {
    p_->arm();
    QSqlQuery q(QSqlDatabase::database(connection_, false));
    QString error;
    if (!run(q, rs::session::quick_check_query(), error)) {
        if (p_->interrupted) {
            error = QStringLiteral("the read budget of %1 ms was exceeded (REPLAYSCOPE_READ_BUDGET_MS)")
                        .arg(p_->budgetMs);
        }
        return queryError(QStringLiteral("the integrity check"), error);
    }
    if (q.next() && q.value(0).toString() != QLatin1String("ok")) {
        return fail(SessionError::Kind::corrupt,
                    QStringLiteral("The session file is corrupt: the integrity check reports \"%1\".")
                        .arg(q.value(0).toString()));
    }
    return {};
}

SessionError SessionLoader::readAll(ReadContext& context, SessionData& out, Probe probe,
                                    std::initializer_list<Reader> readers) {
    // The read transaction gives one consistent picture while the collector keeps writing.
    context.run(rs::session::begin_read());
    struct Commit {
        ReadContext& context;
        ~Commit() { context.run(rs::session::end_read()); }
    } commit{context};
    if (probe == Probe::layout) {
        out.dataVersion = dataVersion();
        context.detectLayout(version_);
        p_->layout = context.layout();
        // Never read a file as an older format than it declares.
        if (const std::string missing = rs::session::layout_mismatch(p_->layout); !missing.empty()) {
            return context.fail(SessionError::Kind::corrupt,
                                QStringLiteral("The session file is corrupt or incomplete: %1.")
                                    .arg(QString::fromStdString(missing)));
        }
        out.hasRestoreRecords = !rs::session::restores_query(p_->layout).empty();
    } else {
        context.setLayout(p_->layout);
    }
    for (Reader read : readers) {
        if (SessionError e = read(context, out); e.isError()) {
            return e;
        }
    }
    // A reader stops at a failing step as at the end of its rows: a page found corrupt mid-scan fails the
    // load here instead of leaving it short.
    if (!context.query().scanError().isEmpty()) {
        return context.queryError(QStringLiteral("the session"), context.query().scanError());
    }
    return {};
}

SessionError SessionLoader::load(SessionData& out) {
    p_->arm();
    ReadContext context(QSqlDatabase::database(connection_, false), p_->rows, path_);
    out.info.path = path_;
    out.info.openedCopy = p_->copyPath;
    // The readers in the order they depend on each other (model/reading/Readers.h).
    const SessionError error =
        readAll(context, out, Probe::layout,
                {&StringReader::read, &SessionInfoReader::read, &ProcessReader::read, &AgentReader::read,
                 &DispatchReader::read, &PassReader::read, &RestoreReader::read, &RestoreSkipReader::read,
                 &AllocationReader::read, &ModuleVariableReader::read, &WarningReader::read,
                 &AsyncCopyReader::read, &CounterValueReader::read});
    if (!error.isError()) {
        out.implausible = findImplausibleValues(out);
    }
    return error;
}

SessionError SessionLoader::loadFigures(SessionData& out) {
    p_->arm();
    ReadContext context(QSqlDatabase::database(connection_, false), p_->rows, path_);
    out.info.path = path_;
    out.info.openedCopy = p_->copyPath;
    return readAll(context, out, Probe::layout,
                   {&StringReader::read, &SessionInfoReader::read, &ProcessReader::read, &AgentReader::read,
                    &DispatchReader::read, &PassReader::read, &RestoreReader::read, &RestoreSkipReader::read,
                    &CounterValueReader::read});
}

SessionError SessionLoader::loadDetails(SessionData& out, bool regions) {
    p_->arm();
    ReadContext context(QSqlDatabase::database(connection_, false), p_->rows, path_);
    if (regions) {
        return readAll(context, out, Probe::lastLayout, {&RestoreMissReader::read, &RegionReader::read});
    }
    return readAll(context, out, Probe::lastLayout, {&RestoreMissReader::read});
}

bool SessionLoader::configureSqlite() {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
}

SessionSnapshot SessionLoader::loadAll(const QString& path, SessionError& error, Parts parts) {
    SessionLoader loader(path);
    error = loader.open();
    if (error.isError()) {
        return {};
    }
    auto* data = new SessionData;
    SessionSnapshot snapshot(data);
    error = loader.load(*data);
    if (!error.isError()) {
        error = loader.loadDetails(*data, parts == Parts::all);
    }
    if (!error.isError()) {
        // The integrity check of every entry point (summary, exports, comparison, trace): a file one of
        // them refuses, none reads.
        error = loader.quickCheck();
    }
    return error.isError() ? SessionSnapshot() : snapshot;
}

} // namespace rs::app
