#include "model/SessionListTableModel.h"

namespace rs::app {

SessionListTableModel::SessionListTableModel(const QStringList& headers, const QStringList& tips,
                                             RowCount rows, QObject* parent)
    : SessionTableModel(headers, tips, parent), rows_(rows) {}

void SessionListTableModel::setSnapshot(const SessionSnapshot& snapshot) {
    const bool same =
        !snapshot_.isNull() && !snapshot.isNull() && snapshot_->info.path == snapshot->info.path;
    install(snapshot, snapshot.isNull() ? 0 : rows_(snapshot.data()), same);
}

} // namespace rs::app
