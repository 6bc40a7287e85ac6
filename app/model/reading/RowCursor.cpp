// SPDX-License-Identifier: MIT
#include "model/reading/RowCursor.h"

#include <QByteArray>

#include <replayscope/session/printable_text.h>

#include <sqlite3.h>

namespace rs::app {

RowCursor::~RowCursor() {
    finalize();
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
        return true;
    }
    if (rc != SQLITE_DONE) {
        error_ = QString::fromUtf8(sqlite3_errmsg(db_));
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
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc != SQLITE_DONE) {
        error_ = QString::fromUtf8(sqlite3_errmsg(db_));
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
