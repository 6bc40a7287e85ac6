// SPDX-License-Identifier: MIT
#include "model/RankTotalsModel.h"

#include "model/Format.h"
#include "model/ModelRoles.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace rs::app {

RankTotalsModel::RankTotalsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankTotalsModel::setJob(const JobSummary& job, const QVector<int>& files) {
    beginResetModel();
    const QVector<RankTotals> all = job.totals();
    totals_.clear();
    files_.clear();
    for (int f = 0; f < all.size(); ++f) {
        if (files.isEmpty() || files.contains(f)) {
            totals_.push_back(all[f]);
            files_.push_back(f);
        }
    }
    endResetModel();
}

int RankTotalsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(totals_.size());
}

int RankTotalsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTotalsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* const titles[] = {"Rank",     "Host",     "File",     "Dispatches",  "Replayed",
                                         "Declined", "Snapshot", "Restored", "Snapshot ms", "Restore ms"};
    static const char* const tips[] = {
        "Rank of the file (the rank replayscope-run recorded; else its position among the files opened)",
        "Host the rank ran on (recorded in its session file)",
        "Session file of the rank",
        "Dispatches of every process of the rank",
        "Dispatches replayed",
        "Dispatches declined (run once, not replayed)",
        "Snapshot bytes of every replayed dispatch",
        "Bytes the restores moved, over the host link and inside the device (format 4)",
        "Time spent taking snapshots",
        "Time spent restoring"};
    if (role == Qt::DisplayRole) {
        return QString::fromLatin1(titles[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromLatin1(tips[section]);
    }
    return {};
}

QVariant RankTotalsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= totals_.size() || index.column() >= ColumnCount) {
        return {};
    }
    const RankTotals& t = totals_[index.row()];
    if (role == Qt::TextAlignmentRole) {
        return index.column() == File || index.column() == Host ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Rank:
            return t.rank;
        case Host:
            return t.host;
        case File:
            return t.path;
        case Dispatches:
            return t.dispatches;
        case Replayed:
            return t.replayed;
        case Declined:
            return t.declined;
        case SnapshotBytes:
            return t.snapshotBytes;
        case RestoredBytes:
            return t.restoredBytes;
        case SnapshotTime:
            return t.snapshotNs;
        case RestoreTime:
            return t.restoreNs;
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank:
            return QString::number(t.rank);
        case Host:
            return t.host;
        case File:
            return QFileInfo(t.path).fileName();
        case Dispatches:
            return format::count(t.dispatches);
        case Replayed:
            return format::count(t.replayed);
        case Declined:
            return format::count(t.declined);
        case SnapshotBytes:
            return format::bytes(t.snapshotBytes);
        case RestoredBytes:
            return t.restoredBytes < 0 ? format::kNotRecorded : format::bytes(t.restoredBytes);
        case SnapshotTime:
            return format::ms(t.snapshotNs);
        case RestoreTime:
            return format::ms(t.restoreNs);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == File) {
        return t.path;
    }
    return {};
}

QVector<ChartSeriesBuilder::Bar> RankTotalsModel::bars(Column column) const {
    QVector<ChartSeriesBuilder::Bar> out;
    for (int r = 0; r < totals_.size(); ++r) {
        const qint64 raw = std::max<qint64>(index(r, column).data(SortRole).toLongLong(), 0);
        qint64 value = raw;
        if (column == SnapshotBytes || column == RestoredBytes) {
            value = qint64(std::llround(double(raw) / (1024.0 * 1024.0)));
        } else if (column == SnapshotTime || column == RestoreTime) {
            value = qint64(std::llround(double(raw) / 1e6));
        }
        out.push_back({QStringLiteral("rank %1").arg(totals_[r].rank), double(value)});
    }
    return out;
}

} // namespace rs::app
