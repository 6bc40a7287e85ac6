// SPDX-License-Identifier: MIT
#include "model/reading/RowCursor.h"

#include <QByteArray>
#include <QtGlobal>

#include <chrono>

#include <replayscope/session/printable_text.h>

#include <sqlite3.h>

namespace rs::app {

namespace {
qint64 nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

RowCursor::Budget RowCursor::readBudget() {
    Budget budget;
    bool ok = false;
    if (const qint64 ms = qEnvironmentVariableIntValue("REPLAYSCOPE_READ_BUDGET_MS", &ok); ok && ms > 0) {
        budget.milliseconds = ms;
    }
    if (const qint64 rows = qEnvironmentVariable("REPLAYSCOPE_READ_BUDGET_ROWS").toLongLong(&ok);
        ok && rows > 0) {
        budget.rows = rows;
    }
    return budget;
}

RowCursor::RowCursor(sqlite3* db) : budget_(readBudget()), db_(db) {
    if (db_ != nullptr) {
        sqlite3_progress_handler(db_, 10000, &RowCursor::progress, this);
    }
}

int RowCursor::progress(void* cursor) {
    auto* self = static_cast<RowCursor*>(cursor);
    if (self->stmt_ != nullptr && nowMs() - self->started_ > self->budget_.milliseconds) {
        self->interrupted_ = true;
        return 1;
    }
    return 0;
}

bool RowCursor::overBudget() {
    if (interrupted_) {
        error_ =
            QStringLiteral("the read budget of %1 ms per query was exceeded (REPLAYSCOPE_READ_BUDGET_MS)")
                .arg(budget_.milliseconds);
        return true;
    }
    if (rows_ > budget_.rows) {
        error_ =
            QStringLiteral("the read budget of %1 rows per query was exceeded (REPLAYSCOPE_READ_BUDGET_ROWS)")
                .arg(budget_.rows);
        return true;
    }
    return false;
}

RowCursor::~RowCursor() {
    finalize();
    if (db_ != nullptr) {
        sqlite3_progress_handler(db_, 0, nullptr, nullptr);
    }
}

void RowCursor::finalize() {
    if (stmt_ != nullptr) {
        sqlite3_finalize(stmt_);
        stmt_ = nullptr;
    }
    pendingRow_ = false;
}

bool RowCursor::exec(std::string_view sql) {
    finalize();
    error_.clear();
    if (db_ == nullptr) {
        error_ = QStringLiteral("no database connection");
        return false;
    }
    started_ = nowMs();
    rows_ = 0;
    interrupted_ = false;
    if (sqlite3_prepare_v2(db_, sql.data(), int(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
        error_ = QString::fromUtf8(sqlite3_errmsg(db_));
        finalize();
        return false;
    }
    if (stmt_ == nullptr) { // only a comment or white space
        return true;
    }
    // Stepping once runs a statement without rows (BEGIN, COMMIT) and reports errors the way
    // QSqlQuery::exec() did (a corrupt page met by the first step fails the exec, not a later next()).
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
        pendingRow_ = true;
        ++rows_;
        return true;
    }
    if (rc != SQLITE_DONE) {
        if (!overBudget()) {
            error_ = QString::fromUtf8(sqlite3_errmsg(db_));
        }
        finalize();
        return false;
    }
    return true;
}

bool RowCursor::next() {
    if (pendingRow_) {
        pendingRow_ = false;
        return true;
    }
    if (stmt_ == nullptr) {
        return false;
    }
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW && (++rows_ <= budget_.rows)) {
        return true;
    }
    if (rc != SQLITE_DONE) {
        if (!overBudget()) {
            error_ = QString::fromUtf8(sqlite3_errmsg(db_));
        }
        if (scanError_.isEmpty()) {
            scanError_ = error_;
        }
    }
    finalize();
    return false;
}

QVariant RowCursor::value(int column) const {
    switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
        return QVariant(qint64(sqlite3_column_int64(stmt_, column)));
    case SQLITE_FLOAT:
        return QVariant(sqlite3_column_double(stmt_, column));
    case SQLITE_TEXT:
        return QVariant(text(column));
    case SQLITE_BLOB: {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
        return QVariant(QByteArray(bytes, sqlite3_column_bytes(stmt_, column)));
    }
    case SQLITE_NULL:
    default:
        return QVariant();
    }
}

int RowCursor::columnCount() const {
    return stmt_ == nullptr ? 0 : sqlite3_column_count(stmt_);
}

bool RowCursor::isNull(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

qint64 RowCursor::int64(int column) const {
    return qint64(sqlite3_column_int64(stmt_, column));
}

QString RowCursor::text(int column, bool keepNewlines) const {
    const auto* chars = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    if (chars == nullptr) {
        return {};
    }
    const std::string shown =
        rs::session::shown_text(std::string_view(chars, std::size_t(sqlite3_column_bytes(stmt_, column))),
                                rs::session::kShownTextBytes, keepNewlines);
    return QString::fromUtf8(shown.data(), qsizetype(shown.size()));
}

} // namespace rs::app
