// SPDX-License-Identifier: MIT
#include "model/reading/ReadContext.h"

#include <QSqlError>
#include <QSqlQuery>

namespace rs::app {

ReadContext::ReadContext(const QSqlDatabase& db, sqlite3* rows, const QString& path)
    : db_(db), path_(path), q_(rows) {}

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

std::vector<std::string> ReadContext::firstColumn(const std::string& sql) const {
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    std::vector<std::string> out;
    if (q.exec(QString::fromStdString(sql))) {
        while (q.next()) {
            out.push_back(q.value(0).toString().toStdString());
        }
    }
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
