// SPDX-License-Identifier: MIT
#include "model/RankColumnModel.h"

#include "model/ModelRoles.h"

namespace rs::app {

RankColumnModel::RankColumnModel(QAbstractItemModel* source, const MergedSession& merged, QObject* parent)
    : QAbstractTableModel(parent), source_(source), merged_(merged) {
    auto reset = [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    };
    // The merged session is fixed, so any change of the source is taken as a reset.
    connect(source, &QAbstractItemModel::modelReset, this, reset);
    connect(source, &QAbstractItemModel::rowsInserted, this, reset);
    connect(source, &QAbstractItemModel::rowsRemoved, this, reset);
    connect(source, &QAbstractItemModel::layoutChanged, this, reset);
    connect(source, &QAbstractItemModel::dataChanged, this, [this] {
        if (rowCount() > 0) {
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        }
    });
    rebuild();
}

void RankColumnModel::setMerged(const MergedSession& merged) {
    beginResetModel();
    merged_ = merged;
    rebuild();
    endResetModel();
}

void RankColumnModel::setRankFilter(std::optional<int> rank) {
    beginResetModel();
    rank_ = rank;
    rebuild();
    endResetModel();
}

void RankColumnModel::rebuild() {
    rows_.clear();
    columns_ = source_->columnCount();
    const int n = source_->rowCount();
    rows_.reserve(std::size_t(n));
    for (int r = 0; r < n; ++r) {
        if (!rank_ || merged_.rankOfProcess(source_->index(r, 0).data(ProcessRole).toInt()) == *rank_) {
            rows_.push_back(r);
        }
    }
}

int RankColumnModel::rankColumn() const {
    return columns_;
}

int RankColumnModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int RankColumnModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : columns_ + 1;
}

QVariant RankColumnModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && section == columns_) {
        if (role == Qt::DisplayRole) {
            return tr("Rank");
        }
        if (role == Qt::ToolTipRole) {
            return tr("Rank of the session file the row comes from (its position among the files opened)");
        }
        return {};
    }
    if (section < 0 || section > columns_ || (orientation == Qt::Vertical && section >= int(rows_.size()))) {
        return {};
    }
    return source_->headerData(orientation == Qt::Vertical ? rows_[std::size_t(section)] : section,
                               orientation, role);
}

QVariant RankColumnModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() > columns_) {
        return {};
    }
    const int row = rows_[std::size_t(index.row())];
    if (index.column() < columns_) {
        return source_->index(row, index.column()).data(role);
    }
    const int process = source_->index(row, 0).data(ProcessRole).toInt();
    const int rank = merged_.rankOfProcess(process);
    switch (role) {
    case Qt::DisplayRole:
        return QString::number(rank);
    case SortRole:
        return rank;
    case ProcessRole:
        return process;
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace rs::app
