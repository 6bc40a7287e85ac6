// SPDX-License-Identifier: MIT
// The job view's Kernels page: one row per kernel over the ranks shown (JobSummary::kernels): how many
// ranks ran it, dispatches, replayed, declined, the smallest, median and largest of the ranks' median pass
// times with the slowest rank and the imbalance (largest over median), snapshot and restore time, bytes
// restores moved, then one column per counter (or derived metric) collected: the median over the ranks of
// each rank's median.
#pragma once

#include "model/JobSummary.h"

#include <QAbstractTableModel>

namespace rs::app {

class JobKernelTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Kernel,
        Ranks,
        Dispatches,
        Replayed,
        Declined,
        FastestRankMedian, ///< smallest rank median pass time
        RankMedian,        ///< median over the ranks of their median pass time
        SlowestRankMedian, ///< largest rank median pass time
        SlowestRank,
        Imbalance, ///< SlowestRankMedian / RankMedian - 1
        SnapshotTime,
        RestoreTime,
        MovedBytes,
        ColumnCount
    };
    explicit JobKernelTableModel(QObject* parent = nullptr);
    /// Shows the kernels of `job` over its files `files` (empty: every file). Model reset.
    void setJob(const JobSummary& job, const QVector<int>& files = {});
    const QVector<JobKernel>& kernels() const { return kernels_; }
    /// The counter of column `column` (ColumnCount and after), empty for the other columns.
    QString counterOfColumn(int column) const { return counters_.value(column - ColumnCount); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// DisplayRole: text with units (pass times in µs, time in ms); SortRole: raw value (ns, bytes, counts,
    /// the ratio); FilterTextRole: the kernel name.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    QVector<JobKernel> kernels_;
    QVector<int> slowest_rank_; ///< per row: the rank of JobKernel::slowestFile (-1 none)
    QStringList counters_;      ///< the counter columns, after ColumnCount
};

} // namespace rs::app
