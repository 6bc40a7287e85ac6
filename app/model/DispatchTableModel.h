// SPDX-License-Identifier: MIT
// Every dispatch of the session: kernel, agent, outcome, passes, footprint (snapshot size), bytes its
// restores actually moved over the host link and inside the device, the share of a full restore that was,
// the snapshot store, snapshot and restore time, kernel time per pass (min / median / max; agent ticks at
// 1 GHz shown as microseconds). Figures a file of format 1-3 does not record show "—" (invalid SortRole).
// After the Process column, one column per hardware counter the session holds values of (format 7,
// docs/counters.md): the dispatch's value, empty where the counter was not collected; then one column per
// derived metric the run asked for (SessionData::derivedNames): its value for the dispatch, empty where it
// has none.
#pragma once

#include "model/SessionListTableModel.h"

namespace rs::app {

class DispatchTableModel : public SessionListTableModel {
    Q_OBJECT
  public:
    enum Column {
        Id,
        Kernel,
        Agent,
        Outcome,
        Passes,
        SnapshotBytes, ///< "Footprint": bytes of the snapshot
        MovedHost,     ///< bytes all restores copied back from the host store (over the host link)
        MovedDevice,   ///< bytes all restores copied back from the device store (inside the device)
        MovedShare,    ///< (MovedHost + MovedDevice) / (footprint × restores), percent
        Store,         ///< host, device or mixed (host: "pageable" when the store was not page-locked)
        RegionsCaptured,
        RegionsSkipped,
        SnapshotMs,
        RestoreMs,
        KernelMin,
        KernelMedian,
        KernelMax,
        Process, ///< appended by SessionListTableModel
        ColumnCount
    };
    explicit DispatchTableModel(QObject* parent = nullptr);
    /// "host", "device", "mixed" (with " (pageable)" when host bytes sat in pageable memory); "—" when
    /// not recorded.
    static QString storeText(const SessionSnapshot& snapshot, const DispatchRow& d);
    /// Column titles (the counters' names, SessionData::counterNames) and header tooltips (name, unit and
    /// `what`) of one column per hardware counter of `snapshot`.
    static QPair<QStringList, QStringList> counterColumns(const SessionSnapshot& snapshot,
                                                          const QString& what);
    /// Column titles (the metrics' names, SessionData::derivedNames) and header tooltips (expression, unit)
    /// of one column per derived metric of `snapshot`.
    static QPair<QStringList, QStringList> derivedColumns(const SessionSnapshot& snapshot);
    /// Index of the first counter column (counter i is column firstCounterColumn() + i; derived metric m
    /// is column firstCounterColumn() + counterNames.size() + m).
    int firstCounterColumn() const { return fixedColumns(); }
    /// The derived metric (index into SessionData::derivedNames) column `column` shows, -1 for another.
    int derivedMetric(int column) const;

  protected:
    QPair<QStringList, QStringList> trailingColumns(const SessionSnapshot& snapshot) const override;
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
