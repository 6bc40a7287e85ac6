// SPDX-License-Identifier: MIT
#include "model/JobKernelTableModel.h"

#include "model/CounterSummary.h"
#include "model/Format.h"
#include "model/ModelRoles.h"

namespace rs::app {

namespace {

/// SlowestRankMedian / RankMedian - 1, or -1 without both.
double imbalance(const JobKernel& k) {
    return k.rankMedianNs > 0 && k.rankMedianMaxNs >= 0 ? k.rankMedianMaxNs / k.rankMedianNs - 1.0 : -1.0;
}

} // namespace

JobKernelTableModel::JobKernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void JobKernelTableModel::setJob(const JobSummary& job, const QVector<int>& files) {
    beginResetModel();
    kernels_ = job.kernels(files);
    counters_ = job.counterNames(files);
    slowest_rank_.clear();
    for (const JobKernel& k : kernels_) {
        slowest_rank_.push_back(k.slowestFile >= 0 ? job.ranks().value(k.slowestFile, -1) : -1);
    }
    endResetModel();
}

int JobKernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(kernels_.size());
}

int JobKernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount + int(counters_.size());
}

QVariant JobKernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return {};
    }
    if (section >= ColumnCount) {
        const QString counter = counters_[section - ColumnCount];
        if (role == Qt::DisplayRole) {
            return counter;
        }
        if (role == Qt::ToolTipRole) {
            return tr("%1: the median over the ranks of each rank's median over the kernel's dispatches")
                .arg(counter);
        }
        return {};
    }
    static const char* const titles[] = {
        "Kernel",     "Ranks",        "Dispatches", "Replayed",    "Declined",   "Fastest µs", "Median µs",
        "Slowest µs", "Slowest rank", "Imbalance",  "Snapshot ms", "Restore ms", "Bytes moved"};
    static const char* const tips[] = {
        "Kernel (demangled as the Kernels page of a session shows it)",
        "Ranks that dispatched the kernel",
        "Dispatches of the kernel over the ranks shown",
        "Of them replayed",
        "Of them declined (run once, not replayed)",
        "The smallest of the ranks' median pass times (each rank: the median over its dispatches of their "
        "median pass)",
        "The median over the ranks of their median pass times",
        "The largest of the ranks' median pass times",
        "The rank with the largest median pass time",
        "Slowest rank's median over the ranks' median, minus 1: how far the slowest rank lags",
        "Time taking the kernel's snapshots, over the ranks",
        "Time restoring them, over the ranks",
        "Bytes the restores copied back (host link and device), over the ranks"};
    if (role == Qt::DisplayRole) {
        return QString::fromUtf8(titles[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromLatin1(tips[section]);
    }
    return {};
}

QVariant JobKernelTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= kernels_.size() || index.column() >= columnCount()) {
        return {};
    }
    const JobKernel& k = kernels_[index.row()];
    if (index.column() >= ColumnCount) {
        const auto it = k.counterMedians.constFind(counters_[index.column() - ColumnCount]);
        if (it == k.counterMedians.cend()) {
            return {};
        }
        if (role == Qt::TextAlignmentRole) {
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return role == SortRole          ? QVariant(*it)
               : role == Qt::DisplayRole ? QVariant(CounterSummary::valueText(*it))
                                         : QVariant();
    }
    const int slowest = slowest_rank_.value(index.row(), -1);
    if (role == FilterTextRole) {
        return k.name;
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Kernel ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == Kernel) {
        return k.name;
    }
    const bool sort = role == SortRole;
    if (!sort && role != Qt::DisplayRole) {
        return {};
    }
    const auto passTime = [sort](double ns) -> QVariant {
        if (sort) {
            return ns;
        }
        return ns >= 0 ? format::us(qint64(ns)) : format::kNotRecorded;
    };
    switch (index.column()) {
    case Kernel:
        return k.name;
    case Ranks:
        return sort ? QVariant(k.ranks) : QVariant(QString::number(k.ranks));
    case Dispatches:
        return sort ? QVariant(k.dispatches) : QVariant(format::count(k.dispatches));
    case Replayed:
        return sort ? QVariant(k.replayed) : QVariant(format::count(k.replayed));
    case Declined:
        return sort ? QVariant(k.declined) : QVariant(format::count(k.declined));
    case FastestRankMedian:
        return passTime(k.rankMedianMinNs);
    case RankMedian:
        return passTime(k.rankMedianNs);
    case SlowestRankMedian:
        return passTime(k.rankMedianMaxNs);
    case SlowestRank:
        return sort ? QVariant(slowest) : QVariant(slowest >= 0 ? QString::number(slowest) : QString());
    case Imbalance: {
        const double v = imbalance(k);
        return sort ? QVariant(v) : QVariant(v >= 0 ? format::percent(v * 100.0) : format::kNotRecorded);
    }
    case SnapshotTime:
        return sort ? QVariant(k.snapshotNs) : QVariant(format::ms(k.snapshotNs));
    case RestoreTime:
        return sort ? QVariant(k.restoreNs) : QVariant(format::ms(k.restoreNs));
    case MovedBytes:
        return sort ? QVariant(k.movedBytes) : QVariant(format::bytes(k.movedBytes));
    default:
        return {};
    }
}

} // namespace rs::app
