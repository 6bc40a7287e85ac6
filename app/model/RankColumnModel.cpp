// SPDX-License-Identifier: MIT
#include "model/RankColumnModel.h"

#include "model/ModelRoles.h"

#include <algorithm>

namespace rs::app {

RankColumnModel::RankColumnModel(QAbstractItemModel* source, const MergedSession& merged, QObject* parent)
    : QAbstractTableModel(parent), source_(source), merged_(merged) {
    // Each change of the source is announced before it happens, as a view of this model expects: a reset,
    // a layout change, a move or a change of columns as a reset of this model; rows inserted, removed and
    // changed as the same change of the rows of this model they concern.
    auto beginReset = [this] { beginResetModel(); };
    auto endReset = [this] {
        rebuild();
        endResetModel();
    };
    connect(source, &QAbstractItemModel::modelAboutToBeReset, this, beginReset);
    connect(source, &QAbstractItemModel::modelReset, this, endReset);
    connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this, beginReset);
    connect(source, &QAbstractItemModel::layoutChanged, this, endReset);
    connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, beginReset);
    connect(source, &QAbstractItemModel::rowsMoved, this, endReset);
    connect(source, &QAbstractItemModel::columnsAboutToBeInserted, this, beginReset);
    connect(source, &QAbstractItemModel::columnsInserted, this, endReset);
    connect(source, &QAbstractItemModel::columnsAboutToBeRemoved, this, beginReset);
    connect(source, &QAbstractItemModel::columnsRemoved, this, endReset);
    connect(source, &QAbstractItemModel::columnsAboutToBeMoved, this, beginReset);
    connect(source, &QAbstractItemModel::columnsMoved, this, endReset);
    connect(source, &QAbstractItemModel::rowsInserted, this, &RankColumnModel::sourceRowsInserted);
    connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            &RankColumnModel::sourceRowsAboutToBeRemoved);
    connect(source, &QAbstractItemModel::rowsRemoved, this, &RankColumnModel::sourceRowsRemoved);
    connect(source, &QAbstractItemModel::dataChanged, this, &RankColumnModel::sourceDataChanged);
    connect(source, &QAbstractItemModel::headerDataChanged, this,
            [this](Qt::Orientation orientation, int first, int last) {
                if (orientation == Qt::Horizontal) {
                    emit headerDataChanged(orientation, first, last);
                } else if (!rows_.empty()) {
                    emit headerDataChanged(orientation, 0, int(rows_.size()) - 1);
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

void RankColumnModel::setDefaultProcess(int process) {
    beginResetModel();
    default_process_ = process;
    rebuild();
    endResetModel();
}

int RankColumnModel::processOf(int sourceRow) const {
    const QVariant process = source_->index(sourceRow, 0).data(ProcessRole);
    return process.isValid() ? process.toInt() : default_process_;
}

bool RankColumnModel::accepts(int sourceRow) const {
    return !rank_ || merged_.rankOfProcess(processOf(sourceRow)) == *rank_;
}

void RankColumnModel::rebuild() {
    rows_.clear();
    columns_ = source_->columnCount();
    const int n = source_->rowCount();
    rows_.reserve(std::size_t(n));
    for (int r = 0; r < n; ++r) {
        if (accepts(r)) {
            rows_.push_back(r);
        }
    }
}

void RankColumnModel::sourceRowsInserted(const QModelIndex& parent, int first, int last) {
    if (parent.isValid()) {
        return;
    }
    const int count = last - first + 1;
    // Rows at or after `first` moved down by `count`; the new ones that pass the filter go where the
    // first of the moved rows was (rows_ stays in source order).
    const auto at = std::lower_bound(rows_.begin(), rows_.end(), first);
    const int position = int(at - rows_.begin());
    for (auto it = at; it != rows_.end(); ++it) {
        *it += count;
    }
    std::vector<int> added;
    for (int r = first; r <= last; ++r) {
        if (accepts(r)) {
            added.push_back(r);
        }
    }
    if (added.empty()) {
        return;
    }
    beginInsertRows({}, position, position + int(added.size()) - 1);
    rows_.insert(rows_.begin() + position, added.begin(), added.end());
    endInsertRows();
}

void RankColumnModel::sourceRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last) {
    removing_ = {-1, -1};
    if (parent.isValid()) {
        return;
    }
    const int from = int(std::lower_bound(rows_.begin(), rows_.end(), first) - rows_.begin());
    const int to = int(std::upper_bound(rows_.begin(), rows_.end(), last) - rows_.begin());
    if (to > from) {
        removing_ = {from, to};
        beginRemoveRows({}, from, to - 1);
    }
}

void RankColumnModel::sourceRowsRemoved(const QModelIndex& parent, int first, int last) {
    if (parent.isValid()) {
        return;
    }
    const int count = last - first + 1;
    if (removing_.first >= 0) {
        rows_.erase(rows_.begin() + removing_.first, rows_.begin() + removing_.second);
    }
    for (int& r : rows_) {
        if (r > last) {
            r -= count;
        }
    }
    if (removing_.first >= 0) {
        removing_ = {-1, -1};
        endRemoveRows();
    }
}

void RankColumnModel::sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                        const QList<int>& roles) {
    if (!topLeft.isValid() || !bottomRight.isValid() || topLeft.parent().isValid()) {
        return;
    }
    if (roles.isEmpty() || roles.contains(ProcessRole)) {
        // The process of a row (so its rank, so whether it passes the filter) may have changed.
        for (int r = topLeft.row(); r <= bottomRight.row(); ++r) {
            const bool shown = std::binary_search(rows_.begin(), rows_.end(), r);
            if (shown != accepts(r)) {
                beginResetModel();
                rebuild();
                endResetModel();
                return;
            }
        }
    }
    const int from = int(std::lower_bound(rows_.begin(), rows_.end(), topLeft.row()) - rows_.begin());
    const int to = int(std::upper_bound(rows_.begin(), rows_.end(), bottomRight.row()) - rows_.begin());
    if (to <= from) {
        return;
    }
    // The rank column follows the process column's data (ProcessRole).
    const int lastColumn = roles.isEmpty() || roles.contains(ProcessRole) ? columns_ : bottomRight.column();
    emit dataChanged(index(from, topLeft.column()), index(to - 1, std::max(lastColumn, topLeft.column())),
                     roles);
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
            return tr("Rank of the session file the row comes from (the rank replayscope-run recorded; "
                      "for files without one, the file's position among the files opened)");
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
    const int process = processOf(row);
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
