// SPDX-License-Identifier: MIT
// Every dispatch of the session: kernel, agent, outcome, passes, footprint (snapshot size), bytes its
// restores actually moved over the host link and inside the device, the share of a full restore that was,
// the snapshot store, snapshot and restore time, kernel time per pass (min / median / max; agent ticks at
// 1 GHz shown as microseconds). Figures a file of format 1-3 does not record show "—" (invalid SortRole).
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

  protected:
    QVariant value(int row, int column) const override;
    QString text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

} // namespace rs::app
