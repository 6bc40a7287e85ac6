// SPDX-License-Identifier: MIT
#include "model/RecentSessions.h"

#include <algorithm>

#include <QFileInfo>
#include <QSettings>

namespace rs::app {

QVector<RecentSessions::Entry> RecentSessions::load() {
    QSettings settings;
    QVector<Entry> out;
    const int n = settings.beginReadArray(QStringLiteral("recentSessions"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        Entry e;
        e.path = settings.value(QStringLiteral("path")).toString();
        e.target = settings.value(QStringLiteral("target")).toString();
        e.date = settings.value(QStringLiteral("date")).toDateTime();
        e.agents = settings.value(QStringLiteral("agents")).toInt();
        e.dispatches = settings.value(QStringLiteral("dispatches")).toLongLong();
        e.complete = settings.value(QStringLiteral("complete")).toBool();
        if (!e.path.isEmpty()) {
            out.push_back(e);
        }
    }
    settings.endArray();
    return out;
}

void RecentSessions::save(const QVector<Entry>& entries) {
    QSettings settings;
    settings.beginWriteArray(QStringLiteral("recentSessions"), int(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        settings.setArrayIndex(i);
        const Entry& e = entries[i];
        settings.setValue(QStringLiteral("path"), e.path);
        settings.setValue(QStringLiteral("target"), e.target);
        settings.setValue(QStringLiteral("date"), e.date);
        settings.setValue(QStringLiteral("agents"), e.agents);
        settings.setValue(QStringLiteral("dispatches"), e.dispatches);
        settings.setValue(QStringLiteral("complete"), e.complete);
    }
    settings.endArray();
}

void RecentSessions::add(const SessionSnapshot& snapshot) {
    if (snapshot.isNull()) {
        return;
    }
    const SessionInfo& info = snapshot->info;
    Entry e;
    e.path = QFileInfo(info.path).absoluteFilePath();
    e.target = info.argv.isEmpty() ? info.executable : info.argv;
    const qint64 wall = info.startWallNs > 0 ? info.startWallNs : info.createdWallNs;
    e.date = QDateTime::fromMSecsSinceEpoch(wall / 1000000);
    e.agents = int(std::count_if(snapshot->agents.cbegin(), snapshot->agents.cend(),
                                 [](const AgentInfo& a) { return a.isGpu(); }));
    e.dispatches = qint64(snapshot->dispatches.size());
    e.complete = info.complete;
    QVector<Entry> entries = load();
    entries.erase(
        std::remove_if(entries.begin(), entries.end(), [&](const Entry& x) { return x.path == e.path; }),
        entries.end());
    entries.prepend(e);
    if (entries.size() > kMaximum) {
        entries.resize(kMaximum);
    }
    save(entries);
}

void RecentSessions::remove(const QString& path) {
    QVector<Entry> entries = load();
    entries.erase(
        std::remove_if(entries.begin(), entries.end(), [&](const Entry& x) { return x.path == path; }),
        entries.end());
    save(entries);
}

void RecentSessions::clear() {
    save({});
}

} // namespace rs::app
