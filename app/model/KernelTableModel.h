// SPDX-License-Identifier: MIT
// The Kernels page's table: one row per kernel (KernelSummary::stats) with its dispatches, what replay did
// with them and what it cost, the symbol as stored, and after the fixed columns one column per hardware
// counter the session holds: the median of its values over the kernel's dispatches (CounterSummary,
// grouped by kernel).
#pragma once

#include "model/KernelSummary.h"
#include "model/SessionTableModel.h"

#include <QHash>

#include <vector>

namespace rs::app {

class KernelTableModel : public SessionTableModel {
    Q_OBJECT
  public:
    enum Column {
        Kernel,
        Dispatches,
        Replayed,
        Declined,
        DeclineReasons,
        Passes,
        PassMin,    ///< µs (raw value: ns)
        PassMedian, ///< µs (raw value: ns)
        PassMax,    ///< µs (raw value: ns)
        SnapshotTime,
        RestoreTime,
        Footprint, ///< bytes snapshotted, summed over the dispatches
        Moved,     ///< bytes restores copied back
        Symbol,
        ColumnCount
    };
    explicit KernelTableModel(QObject* parent = nullptr);
    /// Shows the kernels of `snapshot` (model reset; computed here in O(dispatches + passes + counter
    /// values): the page calls this only while it is shown).
    void setSnapshot(const SessionSnapshot& snapshot);
    const KernelSummary::Stat& stat(int row) const { return stats_[std::size_t(row)]; }

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
    QPair<QStringList, QStringList> trailingColumns(const SessionSnapshot& snapshot) const override;

  private:
    std::vector<KernelSummary::Stat> stats_;
    /// (kernel name as shown, counter) -> median over the kernel's dispatches
    QHash<QPair<QString, QString>, double> counterMedians_;
};

} // namespace rs::app
