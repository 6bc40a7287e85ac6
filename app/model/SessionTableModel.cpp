// SPDX-License-Identifier: MIT
#include "model/SessionTableModel.h"

#include "model/ModelRoles.h"

#include <utility>

namespace rs::app {

SessionTableModel::SessionTableModel(const QStringList& headers, const QStringList& tips, QObject* parent)
    : QAbstractTableModel(parent), headers_(headers), tips_(tips) {}

int SessionTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows_;
}

int SessionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(headers_.size() + trailing_.size());
}

QVariant SessionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (section >= headers_.size()) {
        const qsizetype t = section - headers_.size();
        if (role == Qt::DisplayRole) {
            return trailing_[t];
        }
        return role == Qt::ToolTipRole && t < trailing_tips_.size() ? QVariant(trailing_tips_[t])
                                                                    : QVariant();
    }
    if (role == Qt::DisplayRole) {
        return headers_[section];
    }
    if (role == Qt::ToolTipRole && section < tips_.size()) {
        return tips_[section];
    }
    return {};
}

QVariant SessionTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_ || index.column() >= columnCount() || snapshot_.isNull()) {
        return {};
    }
    const int r = index.row(), c = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return text(r, c);
    case SortRole:
        return value(r, c);
    case Qt::TextAlignmentRole: {
        const QVariant v = value(r, c);
        const bool number = v.typeId() != QMetaType::QString && v.isValid();
        return QVariant::fromValue(
            Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    default:
        return extra(r, c, role);
    }
}

QVariant SessionTableModel::extra(int, int, int) const {
    return {};
}

QPair<QStringList, QStringList> SessionTableModel::trailingColumns(const SessionSnapshot&) const {
    return {};
}

bool SessionTableModel::isDispatchRow(const SessionSnapshot& snapshot, int dispatchRow) {
    return !snapshot.isNull() && dispatchRow >= 0 && dispatchRow < int(snapshot->dispatches.size());
}

void SessionTableModel::install(const SessionSnapshot& snapshot, int rows, bool append) {
    auto [trailing, tips] = trailingColumns(snapshot);
    if (append && rows_ > 0 && rows >= rows_ && trailing == trailing_) {
        trailing_tips_ = tips;
        const int old = rows_;
        snapshot_ = snapshot;
        if (rows > old) {
            beginInsertRows({}, old, rows - 1);
            rows_ = rows;
            endInsertRows();
        }
        emit dataChanged(index(0, 0), index(old - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    snapshot_ = snapshot;
    rows_ = rows;
    trailing_ = std::move(trailing);
    trailing_tips_ = std::move(tips);
    endResetModel();
}

} // namespace rs::app
