// SPDX-License-Identifier: MIT
// Per-rank totals of a job (JobSummary::totals()), one row per file: rank, host, file, dispatches, replayed,
// declined, snapshot bytes, restored bytes (host link + device), snapshot and restore time.
#pragma once

#include "model/ChartSeriesBuilder.h"
#include "model/JobSummary.h"

#include <QAbstractTableModel>

namespace rs::app {

class RankTotalsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Rank,
        Host, ///< the host the rank ran on, as its session file records it
        File,
        Dispatches,
        Replayed,
        Declined,
        SnapshotBytes,
        RestoredBytes,
        SnapshotTime,
        RestoreTime,
        ColumnCount
    };
    explicit RankTotalsModel(QObject* parent = nullptr);
    /// Shows the totals of `job`'s files `files` (indices; rows in file order; empty: every file). Model
    /// reset.
    void setJob(const JobSummary& job, const QVector<int>& files = {});
    /// The totals shown, one per row.
    const QVector<RankTotals>& totals() const { return totals_; }
    /// The job's file index of row `row` (-1 out of range).
    int fileOfRow(int row) const { return files_.value(row, -1); }
    /// One bar per rank ("rank N") of column `column`: counts as they are, bytes in MiB, times in ms
    /// (rounded); restored bytes not recorded count 0.
    QVector<ChartSeriesBuilder::Bar> bars(Column column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// DisplayRole: text with units (times in ms); SortRole: raw value (bytes, ns, counts).
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    QVector<RankTotals> totals_;
    QVector<int> files_; ///< per row: its file in the job
};

} // namespace rs::app
