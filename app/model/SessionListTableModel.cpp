// SPDX-License-Identifier: MIT
#include "model/SessionListTableModel.h"

#include "model/ModelRoles.h"

namespace rs::app {

namespace {
QStringList withProcess(QStringList list, int size, const QString& last) {
    while (list.size() < size) {
        list << QString();
    }
    list << last;
    return list;
}
} // namespace

SessionListTableModel::SessionListTableModel(const QStringList& headers, const QStringList& tips,
                                             RowCount rows, RowProcess process, QObject* parent)
    : SessionTableModel(withProcess(headers, int(headers.size()), QStringLiteral("Process")),
                        withProcess(tips, int(headers.size()),
                                    QStringLiteral("Instrumented process that recorded the row (its pid)")),
                        parent),
      rows_(rows), process_(process), process_column_(int(headers.size())) {}

QVariant SessionListTableModel::data(const QModelIndex& index, int role) const {
    // The other columns' roles go straight to the base (the filter and sort paths call this per row).
    if (role != ProcessRole && index.column() != process_column_) {
        return SessionTableModel::data(index, role);
    }
    if (!index.isValid() || index.row() >= rowCount() || snapshot_.isNull()) {
        return {};
    }
    if (role == ProcessRole) {
        return process_(snapshot_.data(), index.row());
    }
    const int process = process_(snapshot_.data(), index.row());
    switch (role) {
    case Qt::DisplayRole:
        return snapshot_.processName(process);
    case SortRole: { // the pid (what the column shows and CSV exports); the index when it is unknown
        const ProcessInfo* p = snapshot_.process(process);
        return p && p->pid > 0 ? p->pid : qint64(process);
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::ToolTipRole: {
        const ProcessInfo* p = snapshot_.process(process);
        return p ? p->label() : QVariant();
    }
    default:
        return {};
    }
}

void SessionListTableModel::setSnapshot(const SessionSnapshot& snapshot) {
    const bool same =
        !snapshot_.isNull() && !snapshot.isNull() && snapshot_->info.path == snapshot->info.path;
    install(snapshot, snapshot.isNull() ? 0 : rows_(snapshot.data()), same);
}

} // namespace rs::app
