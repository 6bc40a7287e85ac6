// SPDX-License-Identifier: MIT
// The start page's list of recently opened sessions, kept in QSettings.
#pragma once

#include "model/SessionSnapshot.h"

#include <QDateTime>
#include <QString>
#include <QVector>

namespace rs::app {

class RecentSessions {
  public:
    struct Entry {
        QString path;
        QString target; ///< program of the session
        QDateTime date; ///< when it was recorded
        int agents = 0; ///< GPU agents (the CPU agent, which runs no kernel, is not counted)
        qint64 dispatches = 0;
        bool complete = false;
    };
    static constexpr int kMaximum = 20;

    /// Newest first.
    static QVector<Entry> load();
    /// Records (or moves to the top) the session of `snapshot`.
    static void add(const SessionSnapshot& snapshot);
    static void remove(const QString& path);
    static void clear();

  private:
    static void save(const QVector<Entry>& entries);
};

} // namespace rs::app
