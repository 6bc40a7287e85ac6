// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"

#include <QSqlError>

#include <sqlite3.h>

namespace rs::app {

ReadContext::ReadContext(const QSqlDatabase& db, sqlite3* rows, const QString& path)
    : db_(db), path_(path), rows_(rows), q_(rows) {}

void ReadContext::detectLayout(int formatVersion) {
    layout_ = rs::session::detect_file_layout(formatVersion,
                                              [this](const std::string& sql) { return firstColumn(sql); });
}

bool ReadContext::run(std::string_view sql) {
    if (!q_.exec(sql)) {
        lastError_ = q_.error();
        return false;
    }
    return true;
}

std::vector<std::string> ReadContext::firstColumn(const std::string& sql) {
    // On the readers' connection, inside their read transaction: the schema is parsed by one connection
    // only (each connection parses it on its first statement, a large share of reading a small file). Not
    // through query(): these are the schema's own rows, outside the rows-per-query budget.
    std::vector<std::string> out;
    sqlite3_stmt* stmt = nullptr;
    if (rows_ == nullptr ||
        sqlite3_prepare_v2(rows_, sql.c_str(), int(sql.size()), &stmt, nullptr) != SQLITE_OK) {
        sqlite3_finalize(stmt);
        return out;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        out.emplace_back(text != nullptr ? text : "");
    }
    sqlite3_finalize(stmt);
    return out;
}

SessionError ReadContext::fail(SessionError::Kind kind, const QString& message) const {
    return SessionError{kind, path_, message};
}

SessionError ReadContext::queryError(const QString& what) const {
    return queryError(what, lastError_);
}

SessionError ReadContext::queryError(const QString& what, const QString& driverText) const {
    return readError(path_, what, driverText);
}

SessionError readError(const QString& path, const QString& what, const QString& driverText) {
    auto fail = [&](SessionError::Kind kind, const QString& message) {
        return SessionError{kind, path, message};
    };
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

int ensureProcess(SessionData& out, int process) {
    if (process < 1 || process > (1 << 20)) {
        return 1;
    }
    while (out.processes.size() < process) {
        ProcessInfo placeholder;
        placeholder.process = int(out.processes.size()) + 1;
        out.processes.push_back(placeholder);
    }
    return process;
}

} // namespace rs::app
