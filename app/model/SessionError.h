// SPDX-License-Identifier: MIT
// Why a session file cannot be shown, in words a person understands.
#pragma once

#include <QMetaType>
#include <QString>

namespace rs::app {

struct SessionError {
    enum class Kind {
        none,
        missing,
        unreadable,
        notRegular, ///< a FIFO, device, socket: refused before anything opens it for reading
        foreign,
        foreignSqlite,
        corrupt,
        truncated,
        newerSchema,
        read
    };
    Kind kind = Kind::none;
    QString path;
    QString message; ///< one sentence: which problem and why
    bool isError() const { return kind != Kind::none; }
    /// Short title of the kind ("Not a session file", ...).
    QString title() const {
        switch (kind) {
        case Kind::none:
            return {};
        case Kind::missing:
            return QStringLiteral("File not found");
        case Kind::unreadable:
            return QStringLiteral("File not readable");
        case Kind::notRegular:
            return QStringLiteral("Not a regular file");
        case Kind::foreign:
        case Kind::foreignSqlite:
            return QStringLiteral("Not a ReplayScope session");
        case Kind::corrupt:
            return QStringLiteral("Corrupt session file");
        case Kind::truncated:
            return QStringLiteral("Truncated session file");
        case Kind::newerSchema:
            return QStringLiteral("Session from a newer ReplayScope");
        case Kind::read:
            return QStringLiteral("Cannot read session");
        }
        return {};
    }
};

} // namespace rs::app

Q_DECLARE_METATYPE(rs::app::SessionError)
